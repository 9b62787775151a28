"""What the text modules (IDs, notation, the text board) read of a position.

:class:`tavli.engine.board.Position` is the one implementation; the text modules sit below
it and name this protocol instead of importing the class, so that the position can offer
``id()``, ``play("8/5 6/5")`` and ``str()`` without an import circle. Where a text module
must build a position (reading an ID), the position class hands itself in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import numpy as np

from tavli.engine.games import Variant

Dice = tuple[int, int]
#: one step of a move: from point, to point, whether it hits or pins
Step = tuple[int, int, bool]


class MoveView(Protocol):
    """A legal move: its steps, in order, and the position after it."""

    steps: tuple[Step, ...]

    @property
    def after(self) -> PositionView: ...


class PositionView(Protocol):
    """A position as the text modules read it."""

    game: int
    turn: int

    @property
    def array(self) -> np.ndarray: ...
    @property
    def variant(self) -> Variant: ...
    @property
    def game_name(self) -> str: ...
    def points(self, side: int) -> list[int]: ...
    def bar(self, side: int) -> int: ...
    def off(self, side: int) -> int: ...
    def pinned(self, side: int) -> tuple[int, ...]: ...
    def pip_count(self, side: int) -> int: ...
    def first_checker_locked(self, side: int) -> bool: ...
    def first_checker_passed(self, side: int) -> bool: ...
    def mother_pinned(self, side: int) -> bool: ...
    def id(self) -> str: ...
    def gnubg_id(self) -> str: ...
    def legal_moves(self, dice: str | Sequence[int], rules=None) -> Sequence[MoveView]: ...


P = TypeVar("P", bound=PositionView)
