"""What happens in a game, one typed action at a time: the history a :class:`~tavli.play.game.Game`
keeps (one list, oldest first) and from which its state, its record and its views derive.

Chance comes in as actions too (``Opening``, ``Roll``), so replaying a history needs no
dice source. Each action knows its line in a game record (:meth:`to_event`, the JSON
``events`` of ``docs/formats.md``); a ``Roll`` has none of its own (the record writes
the dice with the turn that plays them, or as a resignation's ``rolled``, or as the
game's ``pending_dice``).

>>> Opening(3, 5).starter, Opening(4, 4).starter
(1, None)
>>> Opening(2, 5).to_event()
{'opening': [2, 5]}
>>> Pass(0, (6, 1)).to_event()
{'side': 'white', 'dice': [6, 1], 'move': ''}
>>> Double(1, 2).to_event(), Take(0).to_event()
({'side': 'black', 'double': 2}, {'side': 'white', 'take': True})
>>> Resign(0, "gammon", (3, 1)).to_event()
{'side': 'white', 'resign': 'gammon', 'rolled': [3, 1]}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from tavli.engine.layout import SIDE_NAMES

if TYPE_CHECKING:
    from tavli.engine.board import Dice, Move


@dataclass(frozen=True)
class Opening:
    """One opening throw: each side throws one die (a tie is thrown again: one ``Opening``
    per throw). The higher die starts."""

    white: int
    black: int

    @property
    def starter(self) -> int | None:
        """The side that starts, or None on a tie."""
        if self.white == self.black:
            return None
        return 0 if self.white > self.black else 1

    def to_event(self) -> dict[str, Any]:
        return {"opening": [self.white, self.black]}


def opening_throws(history: tuple[Any, ...] | list[Any]) -> list[list[int]]:
    """The opening throws of a history, ``[white, black]`` each, oldest first (ties
    included).

    >>> opening_throws([Opening(4, 4), Opening(2, 5), Roll(1, (3, 1))])
    [[4, 4], [2, 5]]
    """
    return [[a.white, a.black] for a in history if isinstance(a, Opening)]


@dataclass(frozen=True)
class Roll:
    """``side`` throws ``dice`` for his turn (or they were set: :meth:`Game.set_dice`)."""

    side: int
    dice: Dice

    def to_event(self) -> None:
        return None  # recorded with the turn that plays it


@dataclass(frozen=True)
class Play:
    """``side`` plays ``move`` with ``dice``."""

    side: int
    dice: Dice
    move: Move

    def to_event(self) -> dict[str, Any]:
        return {"side": SIDE_NAMES[self.side], "dice": list(self.dice), "move": str(self.move)}


@dataclass(frozen=True)
class Pass:
    """``side`` cannot move with ``dice``: the turn passes."""

    side: int
    dice: Dice
    move: ClassVar[None] = None

    def to_event(self) -> dict[str, Any]:
        return {"side": SIDE_NAMES[self.side], "dice": list(self.dice), "move": ""}


@dataclass(frozen=True)
class Double:
    """``side`` offers to double the cube to ``cube``."""

    side: int
    cube: int

    def to_event(self) -> dict[str, Any]:
        return {"side": SIDE_NAMES[self.side], "double": self.cube}


@dataclass(frozen=True)
class Take:
    """``side`` takes the double: the cube doubles and is his."""

    side: int

    def to_event(self) -> dict[str, Any]:
        return {"side": SIDE_NAMES[self.side], "take": True}


@dataclass(frozen=True)
class Beaver:
    """``side`` takes and at once redoubles, keeping the cube."""

    side: int

    def to_event(self) -> dict[str, Any]:
        return {"side": SIDE_NAMES[self.side], "beaver": True}


@dataclass(frozen=True)
class Drop:
    """``side`` refuses the double: the doubler wins."""

    side: int

    def to_event(self) -> dict[str, Any]:
        return {"side": SIDE_NAMES[self.side], "drop": True}


@dataclass(frozen=True)
class Resign:
    """``side`` gives up, conceding ``value`` (single, gammon or backgammon); ``rolled`` are
    the dice he had thrown and not played (None when none were out, or when the dice out
    were the opening throw, already recorded)."""

    side: int
    value: str
    rolled: Dice | None = None

    def to_event(self) -> dict[str, Any]:
        ev: dict[str, Any] = {"side": SIDE_NAMES[self.side], "resign": self.value}
        if self.rolled is not None:
            ev["rolled"] = list(self.rolled)
        return ev


@dataclass(frozen=True)
class Forfeit:
    """``side`` loses without playing on: ``kind`` ``time`` (his clock ran out) or
    ``abandoned`` (he left the game and the opponent claimed it) — online games;
    ``rolled`` as for :class:`Resign`.

    >>> Forfeit(1, "time").to_event()
    {'side': 'black', 'forfeit': 'time'}
    """

    side: int
    kind: str
    rolled: Dice | None = None

    def to_event(self) -> dict[str, Any]:
        ev: dict[str, Any] = {"side": SIDE_NAMES[self.side], "forfeit": self.kind}
        if self.rolled is not None:
            ev["rolled"] = list(self.rolled)
        return ev


@dataclass(frozen=True)
class AgreedDraw:
    """``side`` accepts the opponent's offer of a draw (games that know a draw:
    Plakoto); ``rolled`` as for :class:`Resign`.

    >>> AgreedDraw(0).to_event()
    {'side': 'white', 'draw': 'agreed'}
    """

    side: int
    rolled: Dice | None = None

    def to_event(self) -> dict[str, Any]:
        ev: dict[str, Any] = {"side": SIDE_NAMES[self.side], "draw": "agreed"}
        if self.rolled is not None:
            ev["rolled"] = list(self.rolled)
        return ev


#: one step of a game's history
Action = (Opening | Roll | Play | Pass | Double | Take | Beaver | Drop | Resign | Forfeit
          | AgreedDraw)
#: the actions that play a turn (``.side``, ``.dice``, ``.move``: None for a pass)
Turn = Play | Pass

__all__ = ["Action", "Turn", "Opening", "Roll", "Play", "Pass", "Double", "Take", "Beaver",
           "Drop", "Resign", "Forfeit", "AgreedDraw"]
