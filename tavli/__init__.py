"""tavli: rules engine, games and matches for Tavli (Portes, Plakoto, Fevga) and
backgammon.

>>> import tavli
>>> pos = tavli.Position.start("fevga")
>>> [str(m) for m in pos.legal_moves("66")]
['24/18']
"""

from .board import Move, Position, parse_dice
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

__version__ = "0.1.0"

__all__ = [
    "Position", "Move", "Rules", "parse_dice", "TavliError", "ParseError", "IllegalMove",
    "InvalidPosition", "RuleError", "GameOver", "WrongState", "RecordError",
]
