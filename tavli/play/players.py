"""Computer players and automatic play.

A :class:`Player` is asked two things: which legal move to play (:meth:`Player.choose_move`,
given the position, the dice, the engine's list of legal moves and the rules) and what to
do with the doubling cube (:meth:`Player.cube_action`). The engine alone decides what is
legal; a player only picks from the list it is handed.

* :class:`RandomPlayer` picks uniformly at random (seedable).
* :class:`GreedyPlayer` scores every after-position with a hand-made evaluation of the
  game being played (race, blots, points, primes, pins, the mother checker, borne-off
  checkers) and plays the best one.
* :class:`EvaluatorPlayer` is the base for a player that scores after-positions (the
  greedy heuristic). The AI players (the neural network at its levels, pubeval) are in
  :mod:`tavli.ai.neural`.

:func:`play_game` plays a whole :class:`~tavli.play.game.Game` between two players and
:func:`act` performs one action of a player (what a user interface needs for its bots).

>>> from tavli.play.game import Game
>>> g = Game("fevga", seed=4)
>>> out = play_game(g, (GreedyPlayer(), RandomPlayer(seed=1)))
>>> out.winner in (0, 1) and g.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tavli.engine.board import Dice, Move, Position
from tavli.engine.dice import SHOT_ROLLS
from tavli.engine.games import HITTING, PINNING, RUNNING, Variant
from tavli.engine.layout import OFF
from tavli.engine.rules import Rules
from tavli.errors import GameOver, IllegalMove, OptionError, RuleError
from tavli.play.game import Game, Outcome

PLAYER_NAMES = ("random", "greedy")


class Player:
    """A player of any of the games. Subclasses override :meth:`choose_move` and, for the
    doubling cube (backgammon), :meth:`cube_action`."""

    name = "player"

    def choose_move(self, position: Position, dice: Dice, moves: Sequence[Move],
                    rules: Rules) -> Move | None:
        """One of ``moves`` (the engine's legal turns for ``position`` and ``dice``), or
        None when ``moves`` is empty (the turn passes)."""
        raise NotImplementedError

    def choose_move_in(self, game: Game, moves: Sequence[Move]) -> Move | None:
        """:meth:`choose_move` for the game being played (``game.dice`` thrown): a player
        that plays the match score (the AI) reads it from ``game``; by default the same as
        :meth:`choose_move`."""
        assert game.dice is not None
        return self.choose_move(game.position, game.dice, moves, game.rules)

    def cube_action(self, game: Game) -> str:
        """The cube decision of the side to act in ``game``.

        In phase ``roll`` (a double may be offered): ``"double"`` or ``"roll"``.
        In phase ``double`` (a double awaits an answer): ``"take"``, ``"drop"`` or
        ``"beaver"`` (where allowed). The default never doubles and always takes.
        """
        return "take" if game.phase == "double" else "roll"

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomPlayer(Player):
    """Plays a uniformly random legal move (``seed`` makes it reproducible)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_move(self, position: Position, dice: Dice, moves: Sequence[Move],
                    rules: Rules) -> Move | None:
        return self.rng.choice(list(moves)) if moves else None


class EvaluatorPlayer(Player):
    """Plays the legal move whose after-position scores best for the mover.

    Subclasses implement :meth:`evaluate`; ties go to the first move in the engine's
    order, so play is deterministic."""

    name = "evaluator"

    def evaluate(self, positions: Sequence[Position], side: int, rules: Rules) -> np.ndarray:
        """Scores (higher is better for ``side``) of ``positions``, each the position
        after a turn of ``side`` (so the opponent is to move in them)."""
        raise NotImplementedError

    def choose_move(self, position: Position, dice: Dice, moves: Sequence[Move],
                    rules: Rules) -> Move | None:
        if not moves:
            return None
        if len(moves) == 1:
            return moves[0]
        scores = self.evaluate([m.after for m in moves], position.turn, rules)
        return moves[int(np.argmax(scores))]


# --- the greedy heuristic -----------------------------------------------------------------

_SHOT_ROLLS = np.array(SHOT_ROLLS, dtype=np.float64)


def _shot_matrix() -> np.ndarray:
    """``W[q, p]``: rolls that let a checker on my point ``q`` (0 = the opponent's bar,
    seen from my side) reach my point ``p``, when the opponent moves up my numbering."""
    w = np.zeros((25, 25))
    for q in range(25):
        for p in range(q + 1, min(q + 12, 24) + 1):
            w[q, p] = _SHOT_ROLLS[p - q]
    return w


_SHOTS = _shot_matrix()
_PIPS = np.arange(26, dtype=np.float64)  # pip value of each slot (bar = 25, off = 0)


_OPP_INDEX: dict[str, np.ndarray] = {}


def _opp_index(variant: Variant) -> np.ndarray:
    """``idx[p]``: the opponent's slot of my point ``p`` (index 0 unused)."""
    idx = _OPP_INDEX.get(variant.name)
    if idx is None:
        idx = _OPP_INDEX[variant.name] = np.array(
            [0] + [variant.opponent_point(p) for p in range(1, 25)])
    return idx


def _longest_run(held: np.ndarray) -> np.ndarray:
    """Length of the longest run of True along axis 1 of a bool (N, K) array."""
    run = np.zeros(held.shape[0], dtype=np.int64)
    best = np.zeros(held.shape[0], dtype=np.int64)
    for k in range(held.shape[1]):
        run = np.where(held[:, k], run + 1, 0)
        best = np.maximum(best, run)
    return best


class GreedyPlayer(EvaluatorPlayer):
    """One-ply greedy play with a hand-made evaluation for each game.

    The evaluation looks at the board after the move from the mover's side: the pip
    race, borne-off checkers and, by game, blots the opponent can hit and made points,
    primes and checkers on the bar (Portes, backgammon); pins made and suffered, the
    mother checkers and exposed singles (Plakoto); points held in front of the
    opponent's checkers, primes and stacking (Fevga).
    """

    name = "greedy"

    def evaluate(self, positions: Sequence[Position], side: int, rules: Rules) -> np.ndarray:
        arr = np.stack([p.array for p in positions]).astype(np.int64)
        return _EVALS[rules.variant.kernel](arr, side, rules.variant)

    def cube_action(self, game: Game) -> str:
        """Doubles and drops only in a pure race, by pip counts (about 8% ahead to double,
        more than 12% behind to drop)."""
        pos = game.position
        if game.phase == "double":
            doubler = pos.turn
            me = 1 - doubler
            if _no_contact(pos) and pos.pip_count(me) > 1.12 * pos.pip_count(doubler) + 2:
                return "drop"
            return "take"
        me = pos.turn
        if _no_contact(pos) and pos.pip_count(me) * 1.08 < pos.pip_count(1 - me):
            return "double"
        return "roll"


def _no_contact(pos: Position) -> bool:
    """No checker of either side can meet one of the other any more (hitting games)."""
    a = pos.array
    if not pos.variant.hits:
        return False
    mine = [p for p in range(1, 26) if a[pos.turn, p]]
    theirs = [25 - p for p in range(1, 26) if a[1 - pos.turn, p]]
    return not mine or not theirs or max(mine) < min(theirs)


def _views(arr: np.ndarray, side: int, variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    """My checkers per slot (0 off, 1..24, 25 bar) and the opponent's checkers on my
    points 1..24 (index 0 unused), for a stack of board arrays."""
    me = arr[:, side, :]
    theirs = arr[:, 1 - side, :]
    opp_on_mine = theirs[:, _opp_index(variant)]
    opp_on_mine[:, 0] = 0
    return me, opp_on_mine


def _eval_hitting(arr: np.ndarray, side: int, variant: Variant) -> np.ndarray:
    """Portes and backgammon."""
    me, opp_on = _views(arr, side, variant)
    theirs = arr[:, 1 - side, :]
    my_pips = me @ _PIPS
    opp_pips = theirs @ _PIPS
    score = (opp_pips - my_pips) * 1.0
    score += me[:, OFF] * 4.0

    # contact: my rearmost checker still behind the opponent's rearmost one
    n = arr.shape[0]
    pts = np.arange(26)
    my_back = np.where(me[:, 1:] > 0, pts[1:], 0).max(axis=1)
    # opponent checkers in my numbering: his point q is my 25 - q; his bar is my 0
    opp_front = np.where(theirs[:, 1:] > 0, 25 - pts[1:], 99).min(axis=1)
    contact = my_back > opp_front
    if not contact.any():
        return score + _race_shape(me)

    # blots the opponent can hit: shooters on my points 0..24 (0 = his bar)
    shooters = np.zeros((n, 25))
    shooters[:, 1:] = opp_on[:, 1:] > 0
    shooters[:, 0] = theirs[:, 25] > 0
    rolls = np.minimum(shooters @ _SHOTS, 36.0) / 36.0  # (n, 25), index = my point
    blots = (me[:, 1:25] == 1)
    loss = 8.0 + (25 - pts[1:25]) * 0.6  # being hit costs tempo plus the pips lost
    score -= (rolls[:, 1:] * blots * loss).sum(axis=1)

    made = me[:, 1:25] >= 2
    weights = np.array([0, 3.5, 3.5, 4.0, 4.5, 5.0, 5.0, 4.5, 3.5, 2.0, 1.5, 1.0, 1.0,
                        0.5, 0.5, 0.5, 0.5, 0.5, 1.0, 1.5, 2.0, 2.0, 1.5, 1.0, 0.5])[1:]
    score += (made * weights).sum(axis=1)
    prime = _longest_run(made)
    score += np.where(prime >= 3, (prime - 2) ** 2 * 2.0, 0)
    # an opponent on the bar facing a closed board
    home = made[:, :6].sum(axis=1)
    score += theirs[:, 25] * (2.0 + home * 1.5)
    # heavy stacks waste checkers
    score -= np.clip(me[:, 1:25] - 3, 0, None).sum(axis=1) * 0.8
    return np.where(contact, score, (opp_pips - my_pips) + me[:, OFF] * 4.0 + _race_shape(me))


def _race_shape(me: np.ndarray) -> np.ndarray:
    """A small bonus for bearing off and for checkers already home (any game)."""
    home = me[:, 1:7].sum(axis=1)
    return me[:, OFF] * 2.0 + home * 0.5 - me[:, 7:25].sum(axis=1) * 0.2


def _eval_plakoto(arr: np.ndarray, side: int, variant: Variant) -> np.ndarray:
    me, opp_on = _views(arr, side, variant)
    theirs = arr[:, 1 - side, :]
    my_pins = arr[:, 2 + side, :]      # my pinned checkers (my numbering)
    their_pins = arr[:, 3 - side, :]   # his pinned checkers (his numbering)
    n = arr.shape[0]
    pts = np.arange(26)
    my_pips = me @ _PIPS
    opp_pips = theirs @ _PIPS
    score = (opp_pips - my_pips) * 1.0 + me[:, OFF] * 4.0 + _race_shape(me)

    # pins: his pinned checkers count what they lose; being pinned, the same for me
    score += (their_pins[:, 1:25] * (12.0 + pts[1:25] * 0.8)).sum(axis=1)
    score -= (my_pins[:, 1:25] * (12.0 + pts[1:25] * 0.8)).sum(axis=1)
    # the mother checkers: pinning his is close to winning, losing mine close to losing
    his_mother = (theirs[:, 24] == 1) & (their_pins[:, 24] == 1)
    my_mother = (me[:, 24] == 1) & (my_pins[:, 24] == 1)
    score += his_mother * np.where(me[:, 24] == 0, 1000.0, 60.0)
    score -= my_mother * np.where(theirs[:, 24] == 0, 1000.0, 60.0)

    # my free single checkers the opponent can pin (he moves up my numbering)
    shooters = np.zeros((n, 25))
    shooters[:, 1:] = (opp_on[:, 1:] > 0)
    # a pinned checker of his cannot shoot
    his_pinned_on_mine = their_pins[:, _opp_index(variant)]
    shooters[:, 1:] *= (opp_on[:, 1:] - his_pinned_on_mine[:, 1:]) > 0
    rolls = np.minimum(shooters @ _SHOTS, 36.0) / 36.0
    single = (me[:, 1:25] == 1) & (my_pins[:, 1:25] == 0) & (opp_on[:, 1:] == 0)
    cost = 10.0 + pts[1:25] * 0.7
    cost = np.broadcast_to(cost, single.shape).copy()
    cost[:, 23] += np.where(theirs[:, 24] <= 1, 40.0, 15.0)  # a lone mother
    score -= (rolls[:, 1:] * single * cost).sum(axis=1)

    # made points block him; a run of them traps his checkers behind it
    made = me[:, 1:25] >= 2
    held_pin = their_pins[:, _opp_index(variant)][:, 1:] > 0  # points I hold by pinning
    block = made | held_pin
    score += block.sum(axis=1) * 2.0
    prime = _longest_run(block)
    score += np.where(prime >= 3, (prime - 2) ** 2 * 2.5, 0)
    score -= np.clip(me[:, 1:25] - 4, 0, None).sum(axis=1) * 0.6
    return score


def _eval_fevga(arr: np.ndarray, side: int, variant: Variant) -> np.ndarray:
    me = arr[:, side, :]
    theirs = arr[:, 1 - side, :]
    my_pips = me @ _PIPS
    opp_pips = theirs @ _PIPS
    score = (opp_pips - my_pips) * 1.0 + me[:, OFF] * 4.0 + _race_shape(me)

    # my checkers seen in his numbering: points I hold in front of his checkers
    to_his = _opp_index(variant)  # my point of his point q is to_his[q] (self-inverse)
    mine_in_his = me[:, to_his] > 0
    mine_in_his[:, 0] = False
    his_in_mine = theirs[:, to_his] > 0
    his_in_mine[:, 0] = False
    score += _fevga_blocking(mine_in_his, theirs) * 3.0
    score -= _fevga_blocking(his_in_mine, me) * 1.0

    held = (me[:, 1:25] > 0).sum(axis=1)
    score += held * 1.5
    # stacks beyond three waste checkers (the start point is exempt early on)
    stack = np.clip(me[:, 1:24] - 3, 0, None).sum(axis=1)
    score -= stack * 2.0
    return score


def _fevga_blocking(held: np.ndarray, runner: np.ndarray) -> np.ndarray:
    """How much the points ``held`` (bool (N, 25) in the runner's numbering) obstruct the
    runner's checkers: for each runner checker, the held points among the six in front of
    it, plus a bonus for long runs in front of his rearmost checker."""
    n = held.shape[0]
    out = np.zeros(n)
    h = held.astype(np.float64)
    on = runner[:, 1:25] > 0
    for d in range(1, 7):
        # held point at q - d in front of a runner checker on q
        ahead = np.zeros((n, 24))
        ahead[:, d:] = h[:, 1:25 - d]
        out += (on * ahead).sum(axis=1) * (1.0 - 0.1 * d)
    run = _longest_run(held[:, 1:25])
    out += np.where(run >= 3, (run - 2) ** 2 * 1.5, 0)
    return out


# --- automatic play -----------------------------------------------------------------------

def get_player(name: str, seed: int | None = None) -> Player:
    """The computer player called ``name`` ("random" or "greedy")."""
    key = str(name).strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key == "greedy":
        return GreedyPlayer()
    raise RuleError(f"unknown player {name!r}: expected one of {', '.join(PLAYER_NAMES)}")


def act(game: Game, player: Player) -> tuple[str, Any]:
    """Let ``player`` (the side to act) take one action in ``game``.

    Returns what happened: ``("opening", dice)``, ``("double", value)``, ``("take", value)``,
    ``("beaver", value)``, ``("drop", None)``, ``("roll", dice)``, ``("move", Move)`` or
    ``("pass", dice)``.
    """
    phase = game.phase
    if phase == "opening":
        return "opening", game.roll()
    if phase == "double":
        choice = player.cube_action(game)
        if choice == "drop":
            game.drop()
            return "drop", None
        if choice == "beaver":
            game.beaver()
            return "beaver", game.cube_value
        game.take()
        return "take", game.cube_value
    if phase == "roll":
        if game.can_double() and player.cube_action(game) == "double":
            game.double()
            return "double", game.cube_value * 2
        return "roll", game.roll()
    if phase == "move":
        moves = game.legal_moves()
        dice = game.dice
        if not moves:
            game.play(None)
            return "pass", dice
        assert dice is not None
        move = player.choose_move_in(game, moves)
        if move is None:
            raise IllegalMove(f"{player.name} passed although a move is possible")
        return "move", game.play(move)
    raise GameOver(f"the game is over: {game.outcome}")


def play_game(game: Game, players: tuple[Player, Player] | Sequence[Player],
              on_action: Callable[[Game, str, Any], None] | None = None) -> Outcome:
    """Play ``game`` to its end, ``players[0]`` for white and ``players[1]`` for black,
    and return its outcome. ``on_action(game, kind, value)`` sees every action."""
    if len(players) != 2:
        raise OptionError("play_game needs two players: (white, black)")
    while not game.is_over:
        kind, value = act(game, players[game.turn])
        if on_action is not None:
            on_action(game, kind, value)
    assert game.outcome is not None
    return game.outcome


__all__ = ["Player", "RandomPlayer", "EvaluatorPlayer", "GreedyPlayer", "get_player",
           "act", "play_game", "PLAYER_NAMES"]


# the hand-made evaluation of each rule set
_EVALS = {HITTING: _eval_hitting, PINNING: _eval_plakoto, RUNNING: _eval_fevga}
