"""Dama as a research environment steps it: :class:`DamaState`, the state of one game
under one of the three rule sets (``box`` with or without huffing, ``russian``,
``italian``; :mod:`tavli.engine.games.dama`), one decision per move.

**The action space.** A move is what :meth:`tavli.engine.dama.board.DamaMove.key` says it
is: start, end, the set of captured squares, promotion, and (box rules) the piece huffed
before it. Its code is

    ``code = ((start - 1) * 32 + (end - 1)) * SAME_ROUTE + k``

where ``k`` ranks the move among the legal moves of the position with the same start and
end (its *route*) in a canonical order: first the move without a huff, then by the huffed
square, then by the captured squares' mask (bit ``i`` = square ``i + 1``) as a number,
then without promotion before with. ``SAME_ROUTE`` = 16, so ``NUM_ACTIONS`` = 16,384 codes
for every rule set. Distinct legal moves have distinct codes, and a move's code depends on
the position only, not on the order the generator lists moves in.

The bound: a route holds one move per captured set, and under the box rules the moves
again after each piece the player may huff (at most the opponent's 12, and "no huff").
So every quiet move and every route with one captured set fits; only a route with two
or more captured sets and eight or more huff choices could not, and then
:class:`RouteOverflow` says so. In 20,000 random games of each rule set the fullest route
held 2 moves under ``russian``, ``italian`` and ``box`` without huffing, 8 under ``box``
(``tests/test_rl_dama.py`` checks it on fewer).

Against the draughts libraries: OpenSpiel's checkers codes one step or *jump* per action
(64 squares x 4 directions x step or jump, 512 codes) and spends a decision per leg of a
multiple capture (the same player acts again); pydraughts names moves by text
(``22x13x6``), which is not a fixed space. A whole move per code keeps one decision per
turn, as the players and :class:`tavli.play.dama.game.DamaGame` count them, so rewards and
repetitions line up with the game's plies; the route part of the code still says which
piece goes where, so a policy head can share what it learns about a route.

**The end** is the project's one Dama verdict (:func:`tavli.play.dama.game.verdict`): a
player who cannot move loses; threefold repetition and the quiet-ply limit
(:attr:`tavli.engine.dama.rules.DamaRules.draw_plies`) draw. :meth:`DamaState.returns`:
+1 / -1, (0, 0) for a draw. Dama has no chance: no chance nodes, ``seed`` is accepted and
unused.

**A step** is one compiled call: the chosen move on the ``int64`` square masks
(:func:`tavli.engine.dama.movegen.make_move`), the quiet-ply count and the positions since
the last capture, huff or man's move (no earlier position can occur again), then the next
legal moves (:func:`tavli.engine.dama.movegen.gen_actions`) with their codes, sorted.

>>> s = DamaState("russian")
>>> s.player, s.num_actions, len(s.legal_actions())
(0, 16384, 7)
>>> a = int(s.legal_actions()[0]); a, s.action_to_string(a), decode(a)
(10496, 'a3-b4', (21, 17, 0))
>>> s.step(a); s.player, s.action_to_string(int(s.legal_actions()[-1]))
(1, 'h6-g5')
>>> s.observation(0).shape
(164,)

Under the box rules White's man on 22 could take 18 and moves 24-20 instead: Black may
huff it before his move (``*22``), or not.

>>> s = DamaState("box", start="W:Wc3,g3:Bd4,h8")
>>> s.step(s.action_for("24-20"))
>>> [(int(a), s.action_to_string(int(a))) for a in s.legal_actions()][:3]
[(1648, '4-8'), (1649, '*22 4-8'), (9040, '*22 18-22')]
"""

from __future__ import annotations

import operator
import threading

import numpy as np
from numba import njit

from tavli.engine.dama import movegen as mg
from tavli.engine.dama.board import DamaMove, Position
from tavli.engine.dama.rules import DamaRules
from tavli.engine.dama.sets import DEFAULT_RULE_SET
from tavli.errors import IllegalMove, WrongState
from tavli.play.dama.game import verdict
from tavli.rl.base import TERMINAL

#: room for the moves of one route (start, end): huff choices, captured sets, promotion
SAME_ROUTE = 16
#: every code of Dama's action space (the same for the three rule sets)
NUM_ACTIONS = 32 * 32 * SAME_ROUTE
#: the observation: own men, own kings, the opponent's men and kings and the pieces the
#: side to move may huff (five planes of 32 squares, from the observer's side), then
#: whether the observer is to move, the quiet plies / the draw limit, (repetitions of the
#: position - 1) / 2, and whether the game is over
PLANES = 5
OBSERVATION_SIZE = PLANES * 32 + 4
#: room for the legal moves of a position (grown when a position has more)
START_CAPACITY = 128
#: the columns of the generator's rows a state keeps: enough for make_move
COLS = mg.C_DECL + 1

# the state vector: the position as make_move returns it, then the draw counters
WM, WK, BM, BK, STM, HUFF, QUIET, HLEN, NMOVES, REPS = range(10)
STATE_SIZE = 10
# what the kernels return besides a move count
ILLEGAL, FULL, CROWDED, DUPLICATE, LONG = -1, -2, -3, -4, -5


class RouteOverflow(RuntimeError):
    """A position whose legal moves put more than :data:`SAME_ROUTE` moves on one route."""


def encode(start: int, end: int, k: int) -> int:
    """The code of the ``k``-th move (canonical order) from square ``start`` to ``end``.

    >>> encode(21, 17, 0), decode(encode(32, 32, 15))
    (10496, (32, 32, 15))
    """
    if not (1 <= start <= 32 and 1 <= end <= 32 and 0 <= k < SAME_ROUTE):
        raise ValueError(f"no code for the move {start}-{end} #{k}")
    return ((start - 1) * 32 + (end - 1)) * SAME_ROUTE + k


def decode(code: int) -> tuple[int, int, int]:
    """``(start, end, k)`` of ``code`` (squares 1..32, ``k`` the rank on its route)."""
    if not 0 <= code < NUM_ACTIONS:
        raise ValueError(f"action {code} is not a Dama code (0..{NUM_ACTIONS - 1})")
    route, k = divmod(code, SAME_ROUTE)
    return route // 32 + 1, route % 32 + 1, k


# ----------------------------------------------------------------------------------------
# the kernels


@njit(cache=True, inline="always")
def _order(row):
    """A move's place among the moves of its route: no huff first, then by huffed square,
    captured mask and promotion."""
    return ((row[mg.C_HUFF] + 1) << 34) | (row[mg.C_CAPS] << 1) | row[mg.C_PROMO]


@njit(cache=True)
def _generate(s, moves, codes, out, stk, nb, ray, raylen, R):
    """The legal moves of the position in ``s`` into ``moves`` (the first :data:`COLS`
    columns of the generator's rows) and their codes into ``codes``, sorted by code.
    Returns how many (also put in ``s[NMOVES]``), or FULL when ``moves`` is too small,
    CROWDED when a route holds more than SAME_ROUTE moves, DUPLICATE when two moves
    would share a code."""
    n = mg.gen_actions(s[WM], s[WK], s[BM], s[BK], s[STM], s[HUFF], out, stk, nb, ray,
                       raylen, R)
    if n > moves.shape[0]:
        return FULL
    for i in range(n):
        route = out[i, mg.C_FROM] * 32 + out[i, mg.C_TO]
        key = _order(out[i])
        k = 0
        for j in range(n):
            if j == i or out[j, mg.C_FROM] * 32 + out[j, mg.C_TO] != route:
                continue
            other = _order(out[j])
            if other == key:
                return DUPLICATE
            if other < key:
                k += 1
        if k >= SAME_ROUTE:
            return CROWDED
        code = route * SAME_ROUTE + k
        # insertion into the sorted codes[:i]
        p = i
        while p > 0 and codes[p - 1] > code:
            codes[p] = codes[p - 1]
            for c in range(COLS):
                moves[p, c] = moves[p - 1, c]
            p -= 1
        codes[p] = code
        for c in range(COLS):
            moves[p, c] = out[i, c]
    s[NMOVES] = n
    return n


@njit(cache=True)
def _remember(s, hist, wm, wk, bm, bk, stm, fresh):
    """Count the position among those since the last irreversible ply (``fresh``: this
    ply was one, the record starts again)."""
    if fresh:
        s[HLEN] = 0
    h = s[HLEN]
    hist[h, 0], hist[h, 1], hist[h, 2], hist[h, 3], hist[h, 4] = wm, wk, bm, bk, stm
    s[HLEN] = h + 1
    reps = 0
    for i in range(h + 1):
        if (hist[i, 0] == wm and hist[i, 1] == wk and hist[i, 2] == bm and hist[i, 3] == bk
                and hist[i, 4] == stm):
            reps += 1
    s[REPS] = reps


@njit(cache=True)
def _play(s, hist, moves, codes, action):
    """Play the legal move coded ``action`` on ``s``; ILLEGAL (nothing changed) if it is
    not one of ``codes[:s[NMOVES]]``. As :class:`tavli.play.dama.game.DamaGame`, a huff is
    a ply of its own: the position after it is recorded and the quiet count restarts."""
    n = s[NMOVES]
    j = np.searchsorted(codes[:n], action)
    if j >= n or codes[j] != action:
        return ILLEGAL
    if s[HLEN] + 2 > hist.shape[0]:  # never: the record is one longer than the quiet count
        return LONG
    mv = moves[j]
    quiet = s[QUIET]
    if mv[mg.C_HUFF] >= 0:
        keep = ~(np.int64(1) << mv[mg.C_HUFF])
        if s[STM] == 0:
            _remember(s, hist, s[WM], s[WK], s[BM] & keep, s[BK] & keep, s[STM], True)
        else:
            _remember(s, hist, s[WM] & keep, s[WK] & keep, s[BM], s[BK], s[STM], True)
        quiet = 0
    wm, wk, bm, bk, stm, huff = mg.make_move(s[WM], s[WK], s[BM], s[BK], s[STM], mv)
    fresh = mv[mg.C_CAPS] != 0 or mv[mg.C_KING] == 0
    s[QUIET] = 0 if fresh else quiet + 1
    s[WM], s[WK], s[BM], s[BK], s[STM], s[HUFF] = wm, wk, bm, bk, stm, huff
    _remember(s, hist, wm, wk, bm, bk, stm, fresh)
    return j


@njit(cache=True)
def _advance(s, hist, moves, codes, action, out, stk, nb, ray, raylen, R):
    """One step: :func:`_play` then :func:`_generate`."""
    j = _play(s, hist, moves, codes, action)
    if j < 0:
        return j
    return _generate(s, moves, codes, out, stk, nb, ray, raylen, R)


@njit(cache=True)
def _observe(s, side, draw_plies, over, x):
    """The observation of ``side`` into ``x`` (zeros): see :data:`OBSERVATION_SIZE`."""
    if side == 0:
        masks = (s[WM], s[WK], s[BM], s[BK], s[HUFF])
    else:
        masks = (s[BM], s[BK], s[WM], s[WK], s[HUFF])
    for p in range(PLANES):
        m = masks[p]
        for i in range(32):
            if (m >> i) & 1:
                # Black sees the board turned round: square i + 1 is his 32 - i
                x[p * 32 + (i if side == 0 else 31 - i)] = 1.0
    k = PLANES * 32
    x[k] = 1.0 if (not over and s[STM] == side) else 0.0
    x[k + 1] = s[QUIET] / draw_plies
    x[k + 2] = (s[REPS] - 1) / 2
    x[k + 3] = 1.0 if over else 0.0


class _Work(threading.local):
    """The generator's work space (one per thread): rows for every move it may list and
    the capture search's stack."""

    def __init__(self) -> None:
        self.out = np.zeros((mg.MAXM * 4, mg.MW), dtype=np.int64)
        self.stk = mg.new_stack()


_WORK = _Work()


def work_space() -> tuple[np.ndarray, np.ndarray]:
    """The generator's rows and stack of this thread (every state shares them)."""
    return _WORK.out, _WORK.stk


# ----------------------------------------------------------------------------------------
# the state


class DamaState:
    """A game of Dama under ``rules`` (a :class:`DamaRules` or a rule set's name; the box
    rules by default), from the start or from ``start`` (a :class:`Position` or a FEN).

    ``player`` is the side to move (0 White, 1 Black) or ``TERMINAL``; ``winner`` 0, 1 or
    -1 (none yet, or a draw). See the module's docstring for the codes.
    """

    num_actions = NUM_ACTIONS
    observation_size = OBSERVATION_SIZE
    _moves: dict[int, DamaMove] | None

    def __init__(self, rules: DamaRules | str = DEFAULT_RULE_SET,
                 start: Position | str | None = None, seed: int | None = None) -> None:
        self.rules = DamaRules.for_name(rules)
        if start is None:
            start = Position.start(self.rules)
        elif isinstance(start, str):
            start = Position.from_fen(start, self.rules)
        elif isinstance(start, Position):
            start = start.with_rules(self.rules)
        else:
            raise TypeError(f"start must be a Position or a FEN, not {type(start).__name__}")
        self.start = start
        self.draw_plies = self.rules.draw_plies
        self.nb, self.ray, self.raylen = self.rules.geometry
        self.flags = self.rules.flags
        self.moves = np.zeros((START_CAPACITY, COLS), dtype=np.int64)
        self.codes = np.zeros(START_CAPACITY, dtype=np.int64)
        # the positions since the last irreversible ply: fewer than the quiet-ply limit
        self.hist = np.zeros((self.draw_plies + 2, 5), dtype=np.int64)
        self.s = np.zeros(STATE_SIZE, dtype=np.int64)
        self.reset(seed)

    # --- the game's course ------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Back to the start (``seed`` is accepted for the protocol: Dama has no dice)."""
        p = self.start
        self.s[:] = 0
        self.s[WM], self.s[WK], self.s[BM], self.s[BK] = p.wm, p.wk, p.bm, p.bk
        self.s[STM], self.s[HUFF] = p.turn, p.huff
        self.s[HLEN] = 1
        self.s[REPS] = 1
        self.hist[0] = (p.wm, p.wk, p.bm, p.bk, p.turn)
        self.plies = 0
        self._generate()

    def _generate(self) -> None:
        """The legal moves of the current position (growing the room for them if need
        be), then the verdict."""
        while True:
            n = _generate(self.s, self.moves, self.codes, _WORK.out, _WORK.stk,
                          self.nb, self.ray, self.raylen, self.flags)
            if n != FULL:
                break
            self.moves = np.zeros((2 * len(self.moves), COLS), dtype=np.int64)
            self.codes = np.zeros(len(self.moves), dtype=np.int64)
        self._judge(n)

    def _judge(self, n: int) -> None:
        self._moves = None  # the engine's moves: legal_moves() makes them when asked
        if n == CROWDED:
            raise RouteOverflow(f"more than {SAME_ROUTE} legal moves share a start and end "
                                f"square in {self.position().fen()}: Dama's action space "
                                f"(tavli.rl.dama) cannot code them")
        if n == DUPLICATE:
            raise RuntimeError(f"the generator listed a move twice in {self.position().fen()}")
        s = self.s.tolist()
        over, winner = verdict(s[REPS], s[QUIET], self.draw_plies, n > 0, s[STM])
        self.over = over
        self.winner = -1 if winner is None else winner
        self.player = TERMINAL if over else s[STM]

    def step(self, action: int) -> None:
        """Play the move coded ``action`` (one of :meth:`legal_actions`)."""
        if self.over:
            raise IllegalMove("the game is over")
        try:
            code = operator.index(action)
        except TypeError:
            raise IllegalMove(f"an action is an integer code, not "
                              f"{type(action).__name__}") from None
        if not 0 <= code < NUM_ACTIONS:
            raise IllegalMove(self._refusal(code))
        work = _WORK
        n = _advance(self.s, self.hist, self.moves, self.codes, code, work.out, work.stk,
                     self.nb, self.ray, self.raylen, self.flags)
        if n == ILLEGAL:
            raise IllegalMove(self._refusal(code))
        if n == LONG:
            raise RuntimeError("the record of positions since the last capture overflowed")
        self.plies += 1
        if n == FULL:
            self._generate()
        else:
            self._judge(n)

    def _refusal(self, code: int) -> str:
        return (f"action {code} is not legal here ({len(self.legal_actions())} legal "
                f"actions)")

    def chance_outcomes(self) -> list[tuple[object, float]]:
        """None: Dama has no chance."""
        return []

    def throw(self, outcome: object) -> None:
        raise WrongState("Dama has no dice: there is no chance node")

    # --- what the agents see ----------------------------------------------------------
    def legal_actions(self) -> np.ndarray:
        """The legal codes, increasing (none at the end)."""
        if self.over:
            return np.zeros(0, dtype=np.int64)
        return self.codes[:self.s[NMOVES]].copy()

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> tuple[int, int]:
        """+1 to the winner and -1 to the loser; (0, 0) for a draw or while play goes on."""
        if self.winner < 0:
            return 0, 0
        return (1, -1) if self.winner == 0 else (-1, 1)

    def observation(self, side: int) -> np.ndarray:
        """float32[:data:`OBSERVATION_SIZE`]: the board from ``side``'s side (his own
        pieces first, the board turned round for Black so that his men always move
        towards the low squares), the pieces the side to move may huff, whether
        ``side`` is to move, the draw counters and the end. Dama's AI
        (:mod:`tavli.ai.dama`) is a search with a hand-made evaluation and has no
        network encoder, so the planes are the whole observation."""
        if side not in (0, 1):
            raise ValueError(f"side must be 0 or 1, not {side!r}")
        x = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        _observe(self.s, side, self.draw_plies, self.over, x)
        return x

    def action_to_string(self, action: int) -> str:
        """The move's text as its rule set's players write it (``22-18``, ``c3:e5``,
        ``*5 22-18`` for a huff first); for a code not legal here, its route and rank
        (``22-18 #0``)."""
        code = operator.index(action)
        start, end, k = decode(code)
        moves = self._legal_moves()
        if code in moves:
            return self.rules.move_text(moves[code])
        return f"{self.rules.square_text(start)}-{self.rules.square_text(end)} #{k}"

    # --- between codes and the engine's moves -----------------------------------------
    def position(self) -> Position:
        """The current :class:`Position` (with the huff right pending, if any)."""
        s = self.s
        return Position(int(s[WM]), int(s[WK]), int(s[BM]), int(s[BK]), int(s[STM]),
                        self.rules, int(s[HUFF]))

    def legal_moves(self) -> dict[int, DamaMove]:
        """The legal moves by code (the engine's :class:`DamaMove`, with their text)."""
        return dict(self._legal_moves())

    def _legal_moves(self) -> dict[int, DamaMove]:
        if self.over:
            return {}
        if self._moves is None:
            by_key = {move_key(self.moves[j]): int(self.codes[j])
                      for j in range(int(self.s[NMOVES]))}
            self._moves = {by_key[m.key()]: m for m in self.position().legal_moves()}
        return self._moves

    def action_for(self, move: DamaMove | str) -> int:
        """The code of a legal move (a :class:`DamaMove` or its text, ``22-18``)."""
        mv = self.position().find_move(move)
        for code, m in self._legal_moves().items():
            if m.key() == mv.key():
                return code
        raise IllegalMove(f"{move} is not a legal move here")

    def clone(self) -> DamaState:
        other = DamaState.__new__(DamaState)
        other.__dict__.update(self.__dict__)
        for name in ("s", "hist", "moves", "codes"):
            setattr(other, name, getattr(self, name).copy())
        return other

    def __repr__(self) -> str:
        return (f"DamaState({self.rules.option_text!r}, {self.position().fen()!r}, "
                f"player={self.player})")


def move_key(row: np.ndarray) -> tuple:
    """:meth:`DamaMove.key` of a generator row."""
    caps = int(row[mg.C_CAPS])
    return (int(row[mg.C_FROM]) + 1, int(row[mg.C_TO]) + 1,
            frozenset(i + 1 for i in range(32) if caps >> i & 1), bool(row[mg.C_PROMO]),
            None if row[mg.C_HUFF] < 0 else int(row[mg.C_HUFF]) + 1)
