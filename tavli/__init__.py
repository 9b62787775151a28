"""tavli: rules engine, games and matches for Tavli (Portes, Plakoto, Fevga) and
backgammon.

>>> import tavli
>>> pos = tavli.Position.start("fevga")
>>> [str(m) for m in pos.legal_moves("66")]
['24/18']
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from .errors import (
    GameOver,
    IllegalMove,
    InvalidPosition,
    ParseError,
    RecordError,
    RuleError,
    TavliError,
    WrongState,
)
from .rules import Rules

if TYPE_CHECKING:
    from .board import Move, Position, parse_dice

__version__ = "0.1.0"

__all__ = [
    "Position", "Move", "Rules", "parse_dice", "TavliError", "ParseError", "IllegalMove",
    "InvalidPosition", "RuleError", "GameOver", "WrongState", "RecordError",
]


def __getattr__(name: str):
    """The board's names load NumPy, so they are imported on first use (``tavli --help``
    and the package's light modules stay fast)."""
    if name in ("Move", "Position", "parse_dice"):
        value = getattr(import_module(".board", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
