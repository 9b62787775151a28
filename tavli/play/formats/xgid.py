"""eXtreme Gammon's position ID (XGID): a position with its cube, score and dice.

Positions, games and matches written and read as XGIDs; the text's fields and their
codec are :mod:`tavli.engine.xgid`'s.

>>> from tavli.engine.board import Position
>>> xgid(Position.start("backgammon"), MatchState(dice=(5, 2), jacoby=True))
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:1:0:10'
>>> pos, st = parse_xgid('XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:2:1:0:5:10')
>>> pos == Position.start("backgammon", turn=1), st.cube_value, st.cube_owner, st.score
(True, 2, 1, (2, 1))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavli.engine.board import Position
from tavli.engine.matchid import MatchState
from tavli.engine.xgid import decode_xgid, encode_xgid
from tavli.errors import ParseError
from tavli.play.formats.matchid import state_of

if TYPE_CHECKING:
    from tavli.play.game import Game
    from tavli.play.match import Match

__all__ = ["MatchState", "parse_xgid", "xgid"]


def xgid(obj: Game | Match | Position, state: MatchState | None = None) -> str:
    """The XGID of a game, a match (its current game), or a position with a
    :class:`MatchState` (default: money play, cube in the middle, nothing rolled)."""
    if isinstance(obj, Position):
        pos, st = obj, state or MatchState(on_roll=obj.turn, turn=obj.turn)
    else:
        g = obj.games[-1] if hasattr(obj, "games") else obj
        pos, st = g.position, state_of(obj)  # type: ignore[union-attr]
    if not pos.variant.gnubg_ids:
        raise ParseError(f"an XGID holds a backgammon position, not {pos.game_name}")
    return encode_xgid(pos.array, pos.turn, st)


def parse_xgid(text: str) -> tuple[Position, MatchState]:
    """Read an XGID (with or without ``XGID=``) into a backgammon position (the side on
    roll to move) and its :class:`MatchState`."""
    arr, on_roll, st = decode_xgid(text)
    return Position("backgammon", arr, on_roll), st
