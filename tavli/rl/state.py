"""One game with dice as a research environment steps it: the state the environments share.

:class:`TurnState` is a mutable game of Portes, Plakoto, Fevga or backgammon (with or
without the cube) advanced one decision at a time with the codes of
:mod:`tavli.rl.actions`. A step is one compiled call: the chosen turn's final position
(kept from the last legal-move generation), the end-of-game verdict
(:func:`tavli.engine.games.kernel.verdict`, the one every consumer uses), the next throw and
the next legal turns with their codes. The rules are the engine's (:class:`tavli.Rules`),
the opening as :class:`tavli.Game` plays it (each side throws one die, the higher starts;
with ``opening_reroll`` he throws again), the cube as in money play (``jacoby``, no
beavers, no resignations).

>>> s = TurnState("portes", seed=7)
>>> s.player, s.dice, s.phase
(0, (1, 4), 'move')
>>> len(s.legal_actions()), s.action_to_string(int(s.legal_actions()[0]))
(14, '6/2 6/5')
>>> s.step(int(s.legal_actions()[0])); s.player
1

With ``chance=True`` the dice are not thrown inside :meth:`TurnState.step`: the state
stops at a chance node (phase ``dice``, player ``CHANCE``) until :meth:`TurnState.throw`
is told the dice, as OpenSpiel's games want:

>>> s = TurnState("portes", chance=True)
>>> s.phase, len(s.chance_outcomes()), s.chance_outcomes()[0][0]   # the opening throw
('dice', 30, (1, 2))
>>> s.throw((6, 1)); s.phase, len(s.chance_outcomes())   # white starts and throws again
('dice', 21)
>>> s.throw((5, 5)); s.player, s.dice
(0, (5, 5))
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tavli.ai.encode import encoder_function, n_inputs
from tavli.engine.board import Position
from tavli.engine.games.kernel import DRAW, GOES_ON, KIND_NAMES, verdict
from tavli.engine.layout import NSLOTS
from tavli.engine.movegen import STEPS, generate, thread_workspace
from tavli.engine.rules import Rules
from tavli.errors import IllegalMove, WrongState
from tavli.rl.actions import (
    DOUBLE,
    DROP,
    NUM_ACTIONS,
    PASS,
    ROLL,
    TAKE,
    describe,
    encode_steps,
)
from tavli.rl.base import CHANCE, TERMINAL

MAX_CUBE = 64
#: phases: a turn to play, a cube decision before rolling, a double to answer, the end
MOVE, CUBE, ANSWER, DICE, OVER = "move", "cube", "answer", "dice", "over"
#: room for the legal turns of one throw (grown when a position has more)
START_CAPACITY = 1024
BOARD = 4 * NSLOTS
#: what an observation adds to the encoder's inputs: the raw board (4 x 26, the
#: observer's row first), the dice (two one-hot dice), the cube (value's log2 / 6, owned
#: by the observer, by the opponent), the phase (move, cube, answer, dice, over) and
#: whether the observer is to decide
OBS_EXTRA = BOARD + 12 + 3 + 5 + 1
PHASES = (MOVE, CUBE, ANSWER, DICE, OVER)
#: a chance node's outcomes: the opening throw (white's die, black's; never a tie) and
#: a throw of two dice (lower die first)
OPENING_THROWS = tuple(((a, b), 1 / 30) for a in range(1, 7) for b in range(1, 7) if a != b)
THROWS = tuple(((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7))


@njit(cache=True)
def splitmix(rng):
    """The next number of the splitmix64 generator whose state is ``rng`` (uint64[1])."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _die(rng):
    """A die from the state's own splitmix64 generator (``rng`` uint64[1])."""
    return np.int64(splitmix(rng) % np.uint64(6)) + 1


@njit(cache=True)
def _generate_codes(board, me, d1, d2, flags, buf, table, results, codes):
    """The legal turns of ``me`` with ``d1, d2``: their final boards into ``results`` and
    their codes into ``codes``. Returns how many (0: a pass), -1 when ``results`` is too
    small, -2 when the work buffers overflow."""
    n = generate(board.reshape(4, NSLOTS), me, d1, d2, flags, buf, table)
    if n < 0:
        return -2
    if n > results.shape[0]:
        return -1
    outp = table.shape[0] - buf.shape[0]
    for j in range(n):
        i = table[outp + j]
        results[j, :] = buf[i, :BOARD]
        codes[j] = encode_steps(buf[i, STEPS:STEPS + 12].reshape(4, 3), d1, d2)
    return n


@njit(cache=True)
def _play(board, results, codes, n, action, flags):
    """Play the turn coded ``action`` (one of ``codes[:n]``, or PASS when ``n`` is 0) on
    ``board``. Returns ``(index, winner, points, kind)``, index -1 when it is not legal."""
    if n == 0:
        if action != PASS:
            return -1, -1, 0, GOES_ON
        j = 0
    else:
        j = -1
        for k in range(n):
            if codes[k] == action:
                j = k
                break
        if j < 0:
            return -1, -1, 0, GOES_ON
        board[:] = results[j]
    w, pts, kind = verdict(board, flags)
    return j, w, pts, kind


@njit(cache=True)
def write_observation(x, board, side, encoder, n_features, d1, d2, cube, owner, phase,
                      player):
    """Write into ``x`` (zeros, float32[observation_size]) what ``side`` sees of the flat
    ``board``: the inputs of ``encoder`` (:func:`~tavli.ai.encode.encoder_function`: called
    by address, so this compiles without the encoders), then the rest of the state
    (:func:`write_state`). The batched environment (:mod:`tavli.rl.vector`) writes it here,
    :meth:`TurnState.observation` in the same two steps from Python."""
    encoder(board, side, x)
    return write_state(x, board, side, n_features, d1, d2, cube, owner, phase, player)


@njit(cache=True)
def write_state(x, board, side, n_features, d1, d2, cube, owner, phase, player):
    """Write into ``x`` after the encoder's ``n_features`` inputs what else ``side`` sees:
    the raw flat ``board`` (``side``'s rows first), the dice ``d1, d2`` (0, 0: none), the
    cube, the ``phase`` (an index of :data:`PHASES`) and whether ``side`` is the
    ``player`` to decide. (From Python a first-class encoder would be typed at every call:
    some microseconds, a quarter of a PettingZoo step.)"""
    k = n_features
    for r in range(4):
        row = (r + side) % 2 + 2 * (r // 2)  # side's own row first: s, 1-s, 2+s, 3-s
        for c in range(NSLOTS):
            x[k + r * NSLOTS + c] = board[row * NSLOTS + c]
    k += BOARD
    if d1 > 0:
        x[k + d1 - 1] = 1
        x[k + 6 + d2 - 1] = 1
    k += 12
    x[k] = np.log2(cube) / 6
    x[k + 1] = owner == side
    x[k + 2] = owner == 1 - side
    k += 3
    x[k + phase] = 1
    x[k + 5] = player == side
    return x


def work_buffers() -> tuple[np.ndarray, np.ndarray]:
    """The legal-move generator's work buffers of this thread (every state shares them)."""
    ws = thread_workspace()
    return ws.buf, ws.table


class TurnState:
    """A game of ``rules`` (a :class:`tavli.Rules` or a game name with dice) from its
    start, dice from ``seed``.

    ``player`` is the side to decide (0 white, 1 black; ``CHANCE`` at a chance node,
    ``TERMINAL`` at the end), ``phase`` one of ``move``, ``cube`` (roll or double),
    ``answer`` (take or drop), ``dice`` (a chance node: ``chance=True`` only), ``over``;
    :meth:`returns` are the game points each side has won (cube and gammons included).
    """

    num_actions = NUM_ACTIONS

    def __init__(self, rules: Rules | str = "portes", seed: int | None = None,
                 chance: bool = False) -> None:
        self.rules = rules if isinstance(rules, Rules) else Rules.for_game(rules)
        if not self.rules.variant.dice:
            raise WrongState(f"{self.rules.game_name} is not a game with dice")
        self.flags = self.rules.kernel_flags()
        self.cube_on = bool(self.rules.options().get("cube", False))
        self.jacoby = bool(self.rules.options().get("jacoby", False))
        self.rng = np.zeros(1, dtype=np.uint64)
        self.results = np.empty((START_CAPACITY, BOARD), dtype=np.int8)
        self.codes = np.empty(START_CAPACITY, dtype=np.int64)
        self.chance = chance
        self.family = self.rules.variant.kernel
        self._encode = encoder_function(self.family).dispatcher
        self.n_features = n_inputs(self.family)
        self.observation_size = self.n_features + OBS_EXTRA
        self.reset(seed)

    # --- the game's course ------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Back to the start (a new opening throw); ``seed`` reseeds the dice."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
        self.rng[0] = np.uint64(seed % (1 << 64))
        self.board = np.array(self.rules.variant.start_array(self.rules.options()),
                              dtype=np.int8).reshape(-1)
        self.cube = 1
        self.cube_owner = -1
        self.winner = -1
        self.points = 0
        self.kind = ""
        self.n = 0
        self.turns = 0
        self.dice: tuple[int, int] | None = None
        self.opening = True
        if self.chance:
            self._await_dice()
            return
        while True:
            a, b = int(_die(self.rng)), int(_die(self.rng))
            if a != b:
                break
        self._opening((a, b))

    def _opening(self, dice: tuple[int, int]) -> None:
        """The opening throw ``dice`` (white's die, black's; never equal) decides who
        starts."""
        self.opening = False
        self.turn = 0 if dice[0] > dice[1] else 1
        if self.rules.options().get("opening_reroll", False):
            self._begin_turn()
        else:
            self._throw(dice)

    def _await_dice(self) -> None:
        self.phase = DICE
        self.player = CHANCE
        self.n = 0

    def chance_outcomes(self) -> list[tuple[tuple[int, int], float]]:
        """At a chance node, the throws and their probabilities: the 30 opening throws
        (white's die, black's; a tie is thrown again) or the 21 throws of two dice."""
        if self.phase != DICE:
            return []
        return list(OPENING_THROWS if self.opening else THROWS)

    def throw(self, dice: tuple[int, int]) -> None:
        """At a chance node, the dice thrown (one of :meth:`chance_outcomes`)."""
        if self.phase != DICE:
            raise WrongState("no dice are awaited now")
        a, b = int(dice[0]), int(dice[1])
        if not (1 <= a <= 6 and 1 <= b <= 6) or (self.opening and a == b):
            raise IllegalMove(f"{dice!r} is not a throw here")
        if self.opening:
            self._opening((a, b))
        else:
            self._throw((a, b))

    def _begin_turn(self) -> None:
        """The side to move may double first, or throws."""
        if self.cube_on and self.cube < MAX_CUBE and self.cube_owner in (-1, self.turn):
            self.phase = CUBE
            self.player = self.turn
            self.n = 0
        else:
            self._throw()

    def _throw(self, dice: tuple[int, int] | None = None) -> None:
        if dice is None and self.chance:
            self._await_dice()
            return
        if dice is None:
            dice = (int(_die(self.rng)), int(_die(self.rng)))
        self.dice = dice
        self.phase = MOVE
        self.player = self.turn
        while True:
            n = _generate_codes(self.board, self.turn, dice[0], dice[1], self.flags,
                                *work_buffers(), self.results, self.codes)
            if n >= 0:
                break
            if n == -2:
                raise RuntimeError("legal-move buffers overflowed")
            self.results = np.empty((2 * len(self.results), BOARD), dtype=np.int8)
            self.codes = np.empty(len(self.results), dtype=np.int64)
        self.n = n

    def _finish(self, winner: int, points: int, kind: str) -> None:
        if kind in ("gammon", "backgammon") and self.jacoby and self.cube == 1:
            points = 1
        self.winner, self.points, self.kind = winner, points * self.cube, kind
        self.phase = OVER
        self.player = TERMINAL
        self.n = 0

    def step(self, action: int) -> None:
        """Take the decision coded ``action`` (one of :meth:`legal_actions`)."""
        if self.phase == MOVE:
            j, w, pts, kind = _play(self.board, self.results, self.codes, self.n,
                                    int(action), self.flags)
            if j < 0:
                raise IllegalMove(self._refusal(action))
            self.turns += 1
            if kind != GOES_ON:
                self._finish(int(w), int(pts), KIND_NAMES[kind] if kind != DRAW else "draw")
                return
            self.turn = 1 - self.turn
            self._begin_turn()
        elif self.phase == CUBE and action in (ROLL, DOUBLE):
            if action == ROLL:
                self._throw()
            else:
                self.phase = ANSWER
                self.player = 1 - self.turn
        elif self.phase == ANSWER and action in (TAKE, DROP):
            if action == DROP:
                self._finish(self.turn, 1, "drop")  # the cube's value before the double
                return
            self.cube *= 2
            self.cube_owner = 1 - self.turn
            self._throw()
        else:
            raise IllegalMove(self._refusal(action))

    def _refusal(self, action: object) -> str:
        if self.phase == OVER:
            return "the game is over"
        return (f"action {str(action)[:20]} is not legal here ({self.phase}: "
                f"{len(self.legal_actions())} legal actions)")

    # --- what the agents see ----------------------------------------------------------
    def legal_actions(self) -> np.ndarray:
        """The legal codes, increasing (``[PASS]`` when the side to move cannot move)."""
        if self.phase == MOVE:
            if self.n == 0:
                return np.array([PASS], dtype=np.int64)
            legal = self.codes[:self.n].copy()
            legal.sort()  # in place: np.sort's dispatch costs as much as the sort
            return legal
        if self.phase == CUBE:
            return np.array([ROLL, DOUBLE], dtype=np.int64)
        if self.phase == ANSWER:
            return np.array([TAKE, DROP], dtype=np.int64)
        return np.zeros(0, dtype=np.int64)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> tuple[int, int]:
        """Game points won by each side (0, 0 while play goes on and for a draw)."""
        if self.winner < 0:
            return 0, 0
        return (self.points, -self.points) if self.winner == 0 else (-self.points, self.points)

    def action_to_string(self, action: int) -> str:
        return describe(int(action), self.dice if self.phase == MOVE else None)

    def observation(self, side: int) -> np.ndarray:
        """The encoder's inputs for ``side`` (:mod:`tavli.ai.encode`, the networks' own),
        then the raw board and the rest of the state (:data:`OBS_EXTRA`)."""
        x = np.zeros(self.observation_size, dtype=np.float32)
        d1, d2 = self.dice if self.dice is not None and self.phase == MOVE else (0, 0)
        self._encode(self.board, side, x)
        write_state(x, self.board, side, self.n_features, d1, d2, self.cube, self.cube_owner,
                    PHASES.index(self.phase), self.player)
        return x

    def afterstates(self, side: int) -> tuple[np.ndarray, np.ndarray]:
        """The legal codes of the turn to play and, for each, the observation ``side``
        would have of the position it leaves, before the next throw (no dice, phase
        ``dice``): what a value network of afterstates (TD-Gammon's way) reads.
        Empty when no turn is to be played."""
        if self.phase != MOVE or self.n == 0:
            return np.zeros(0, dtype=np.int64), np.zeros((0, self.observation_size),
                                                         dtype=np.float32)
        codes = self.codes[:self.n].copy()
        out = np.zeros((self.n, self.observation_size), dtype=np.float32)
        for j in range(self.n):
            self._encode(self.results[j], side, out[j])
            write_state(out[j], self.results[j], side, self.n_features, 0, 0, self.cube,
                        self.cube_owner, PHASES.index(DICE), CHANCE)
        return codes, out

    def board_array(self) -> np.ndarray:
        """The board as :mod:`tavli.engine.layout` has it (``int8[4, 26]``, a copy)."""
        return self.board.reshape(4, NSLOTS).copy()

    def position(self) -> Position:
        """The :class:`tavli.Position` (side to move: the side whose turn it is)."""
        return Position(self.rules.game, self.board.reshape(4, NSLOTS), self.turn)

    def clone(self) -> TurnState:
        other = TurnState.__new__(TurnState)
        other.__dict__.update(self.__dict__)
        for name in ("rng", "board", "results", "codes"):
            setattr(other, name, getattr(self, name).copy())
        return other

    def __repr__(self) -> str:
        return (f"TurnState({self.rules.game_name!r}, phase={self.phase!r}, "
                f"player={self.player}, dice={self.dice})")
