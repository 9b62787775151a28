"""What every research environment asks of a game's state (:class:`GameState`).

Two kinds implement it: :class:`tavli.rl.state.TurnState` (the games with dice, one code
per whole turn, :mod:`tavli.rl.actions`) and :class:`tavli.rl.dama.DamaState` (Dama's
three rule sets). The PettingZoo, Gymnasium and OpenSpiel wrappers read only this, so a
game is in all of them once its state is written.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np


class GameState(Protocol):
    """A mutable game, one decision at a time.

    ``player``: the side to decide (0 or 1), :data:`CHANCE` (-1) at a chance node (only
    when made with ``chance=True``: the environments of PettingZoo and Gymnasium throw
    the dice inside :meth:`step`), :data:`TERMINAL` (-4) at the end.
    """

    #: codes of the action space (the same for every state of a game)
    num_actions: int
    #: length of :meth:`observation`
    observation_size: int
    player: int

    def reset(self, seed: int | None = None) -> None: ...

    def legal_actions(self) -> np.ndarray:
        """The legal codes, increasing (int64)."""

    def step(self, action: int) -> None:
        """Take the decision ``action``; :class:`tavli.errors.IllegalMove` if not legal
        (nothing changes)."""

    def is_terminal(self) -> bool: ...

    def returns(self) -> tuple[float, float]:
        """Game points won by each side at the end (0, 0 before and for a draw)."""

    def observation(self, side: int) -> np.ndarray:
        """float32[observation_size]: the game as ``side`` sees it (both sides see
        everything: these are games of perfect information)."""

    def action_to_string(self, action: int) -> str: ...

    def chance_outcomes(self) -> list[tuple[object, float]]:
        """At a chance node, the outcomes (hashable) with their probabilities."""

    def throw(self, outcome: object) -> None:
        """At a chance node, the outcome that happened."""

    def clone(self) -> GameState: ...


CHANCE, TERMINAL = -1, -4
