"""Baselines for the research environments: policies ``policy(state) -> code``, a legal
code of the side to decide in a :class:`~tavli.rl.base.GameState`.

* :func:`random_policy`: a uniformly random legal code (every game);
* :func:`greedy_policy`: tavli's :class:`~tavli.play.players.GreedyPlayer` (the games
  with dice): its one-ply heuristic for the moves; the cube in pure races only, by the
  pip counts;
* :func:`neural_policy`: the AI at a level (:class:`~tavli.ai.neural.LevelPlayer`: the
  shipped network of the game, 0 to 2 plies, with the level's noise): its moves and its
  cubeful cube decisions (Janowski's model on the network's probabilities, money play);
* :func:`make_policy`: one of them by name (``"random"``, ``"greedy"``, ``"neural"``,
  ``"neural:<level>"``, ``"dama:<level>"``), or a callable as it is;
* :func:`dama_policy`: Dama's search AI at a level (Dama's states).

A player's move (:class:`tavli.Move`) becomes its code by :func:`tavli.rl.actions.encode`;
a ``beaver`` (which the environments do not play) counts as a take. Dama's AI
(:mod:`tavli.ai.dama`) chooses a :class:`~tavli.engine.dama.board.DamaMove`, whose code
:meth:`tavli.rl.dama.DamaState.action_for` gives.

Policies that draw random numbers have ``seed(seed)``, which the Gymnasium environment
calls at every reset so that a seed replays a game exactly.

>>> from tavli.rl.games import make_state
>>> s = make_state("portes", seed=7)
>>> s.dice, s.action_to_string(greedy_policy()(s))
((1, 4), '13/9 9/8')
>>> int(random_policy(seed=1)(s)) in s.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tavli.ai.dama import AIPlayer, dama_level
from tavli.ai.dama import parse_level as parse_dama_level
from tavli.ai.neural import LevelPlayer
from tavli.engine.board import Position
from tavli.engine.rules import Rules
from tavli.errors import OptionError, WrongState
from tavli.play.players import GreedyPlayer, Player
from tavli.rl.actions import DOUBLE, DROP, PASS, ROLL, TAKE, encode
from tavli.rl.base import GameState
from tavli.rl.dama import DamaState
from tavli.rl.state import ANSWER, CUBE, MOVE, TurnState

Policy = Callable[[GameState], int]
#: the codes of a player's cube decisions (a beaver is played as a take)
CUBE_CODES = {"roll": ROLL, "double": DOUBLE, "take": TAKE, "beaver": TAKE, "drop": DROP}
POLICY_NAMES = ("random", "greedy", "neural", "dama")


class RandomPolicy:
    """A uniformly random legal code, from its own generator (``seed``)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, state: GameState) -> int:
        legal = state.legal_actions()
        if len(legal) == 0:
            raise WrongState("no decision to take: the game is over")
        return int(legal[self.rng.integers(len(legal))])


def random_policy(seed: int | None = None) -> RandomPolicy:
    """A uniformly random legal code (any game)."""
    return RandomPolicy(seed)


@dataclass(frozen=True)
class CubeTurn:
    """What a :class:`~tavli.play.players.Player`'s ``cube_action`` reads of a
    :class:`tavli.Game` (its cube decision in money play), taken from a state at a cube
    decision: the position with the doubler on roll, the phase (``roll``: may double;
    ``double``: a double to answer), the cube."""

    position: Position
    phase: str
    rules: Rules
    cube_value: int
    cube_owner: int | None
    crawford: bool = False
    is_over: bool = False

    @classmethod
    def of(cls, state: TurnState) -> CubeTurn:
        owner = None if state.cube_owner < 0 else state.cube_owner
        phase = "roll" if state.phase == CUBE else "double"
        return cls(state.position(), phase, state.rules, state.cube, owner)

    def can_double(self) -> bool:
        return self.phase == "roll"


class PlayerPolicy:
    """A tavli :class:`~tavli.play.players.Player` deciding in a game with dice
    (:class:`~tavli.rl.state.TurnState`): its move's code, or its cube decision's."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name

    def __call__(self, state: GameState) -> int:
        if not isinstance(state, TurnState):
            raise OptionError(f"the {self.name} policy plays the games with dice only: "
                              "random_policy plays every game")
        if state.phase == MOVE:
            return self._move(state)
        if state.phase in (CUBE, ANSWER):
            return CUBE_CODES[self.player.cube_action(CubeTurn.of(state))]
        raise WrongState("no decision to take: the game is over")

    def _move(self, state: TurnState) -> int:
        position = state.position()
        moves = position.legal_moves(state.dice, state.rules)
        move = self.player.choose_move(position, state.dice, moves, state.rules)
        return PASS if move is None else encode(move.steps, move.dice)


def greedy_policy() -> PlayerPolicy:
    """tavli's greedy heuristic (the games with dice; deterministic)."""
    return PlayerPolicy(GreedyPlayer())


class NeuralPolicy(PlayerPolicy):
    """The AI at a level; ``seed`` draws the noise of the weak levels."""

    def __init__(self, level: str | int | None = None, seed: int | None = None) -> None:
        super().__init__(LevelPlayer(level, seed=seed))

    def seed(self, seed: int | None) -> None:
        self.player.neural.rng = np.random.default_rng(seed)


def neural_policy(level: str | int | None = "expert", seed: int | None = None) -> NeuralPolicy:
    """The AI at ``level`` (:mod:`tavli.ai.levels`: ``beginner`` ... ``worldclass`` or a
    ply 0-2) with the shipped network of the game being played (the games with dice)."""
    return NeuralPolicy(level, seed)


class DamaPolicy:
    """Dama's AI (:class:`tavli.ai.dama.AIPlayer`, an alpha-beta search) at a level, for
    a :class:`~tavli.rl.dama.DamaState`; its rules are the state's."""

    name = "dama"

    def __init__(self, level: str | int | None = None) -> None:
        self.level = dama_level(None if level is None else str(level))
        parse_dama_level(self.level)  # a bad level is an error now, not at the first move
        self.players: dict[object, AIPlayer] = {}

    def __call__(self, state: GameState) -> int:
        if not isinstance(state, DamaState):
            raise WrongState("the Dama AI plays Dama; for the games with dice use "
                             "neural_policy or greedy_policy")
        if state.is_terminal():
            raise WrongState("no decision to take: the game is over")
        player = self.players.get(state.rules)
        if player is None:
            player = self.players[state.rules] = AIPlayer(state.rules, self.level)
        return state.action_for(player.choose(state.position()))


def dama_policy(level: str | int | None = None) -> DamaPolicy:
    """Dama's search AI at ``level`` (``1``-``4``, ``default``, ``full``, ``depth:N``,
    ``time:S``, or a level name of the dice games: ``beginner`` is ``1``)."""
    return DamaPolicy(level)


def make_policy(spec: str | Policy, seed: int | None = None) -> Policy:
    """The policy ``spec`` names (``random``, ``greedy``, ``neural`` at the default
    level, ``neural:<level>``), or ``spec`` itself when it is callable."""
    if callable(spec):
        return spec
    name, _, level = str(spec).partition(":")
    if name == "random" and not level:
        return random_policy(seed)
    if name == "greedy" and not level:
        return greedy_policy()
    if name == "neural":
        return neural_policy(level or "expert", seed)
    if name == "dama":
        return dama_policy(level or None)
    raise OptionError(f"unknown policy {str(spec)[:40]!r}: one of {', '.join(POLICY_NAMES)}, "
                      "neural:<level>, dama:<level> or a callable policy(state) -> code")
