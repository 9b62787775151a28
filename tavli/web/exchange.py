"""Games in and out of the browser app in other programs' formats (docs/web.md): the
export of a game or match as a tavli record, a gnubg ``.mat`` or ``.sgf`` file
(:mod:`tavli.play.formats`), the reading of an uploaded file whatever its format (told by its
content, the file name only as a last resort), and the position's IDs (gnubg's Position
ID:Match ID, eXtreme Gammon's XGID) shown beside the board.

>>> detect('(;FF[4]GM[6]...')
'sgf'
>>> detect('; [Event "x"]\\n\\n 5 point match\\n')
'mat'
>>> detect('{"format": "tavli-record"}', "game.sgf")
'json'
>>> detect("hello", "notes.txt")
Traceback (most recent call last):
...
tavli.errors.RecordError: not a tavli record (.json), gnubg .mat or .sgf file
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from tavli.errors import ApiError, RecordError, TavliError
from tavli.play.text import as_record_errors
from tavli.web.records import MAX_EVENTS, MAX_GAMES, MAX_TOTAL

if TYPE_CHECKING:
    from tavli.play.game import Game
    from tavli.play.match import Match
    from tavli.web.sessions import Session

#: the formats of an export: media type and file extension
MEDIA = {"json": "application/json", "mat": "text/plain; charset=utf-8",
         "sgf": "application/x-go-sgf; charset=utf-8"}
#: an export's answers other than JSON, as the schema has them (gnubg's files: text)
TEXT_ANSWERS = {MEDIA[f].split(";")[0]: {"schema": {"type": "string"}} for f in ("mat", "sgf")}

_MAT_HEAD = re.compile(r"\s*\d+\s+point\s+match\s*$", re.I)
_SGF_HEAD = re.compile(r"\s*\(\s*;")
_MAT_TURN = re.compile(r"^\s*\d+\)", re.M)
_MAT_GAME = re.compile(r"^\s*Game\s+\d+\s*$", re.M | re.I)
_SGF_NODE = re.compile(r";\s*[BW]\s*\[")
_SGF_TREE = re.compile(r"\(\s*;")


def detect(text: str, name: str | None = None) -> str:
    """The format of an uploaded file's ``text``: ``json`` (a tavli record), ``sgf`` or
    ``mat``, told by its content; the extension of ``name`` only when the content says
    nothing; else :class:`RecordError`."""
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        return "json"
    if _SGF_HEAD.match(head):
        return "sgf"
    for line in head.splitlines():
        if line.strip() and not line.lstrip().startswith(";"):
            if _MAT_HEAD.match(line):
                return "mat"
            break
    ext = PurePath(name or "").suffix.lower().lstrip(".")
    if ext in ("mat", "sgf") and head:
        return ext
    raise RecordError("not a tavli record (.json), gnubg .mat or .sgf file")


def check_size(text: str, fmt: str) -> None:
    """Refuse, before anything is replayed, a ``.mat`` or ``.sgf`` text with more games
    or turns than a record may hold (:mod:`tavli.web.records`' limits)."""
    if fmt == "mat":
        games, turns = len(_MAT_GAME.findall(text)), len(_MAT_TURN.findall(text))
        events = 2 * turns  # a numbered line holds up to two turns
    else:
        games, events = len(_SGF_TREE.findall(text)), len(_SGF_NODE.findall(text))
    if games > MAX_GAMES:
        raise RecordError(f"too many games: {games:,} (at most {MAX_GAMES})")
    if events > 2 * MAX_TOTAL or (fmt == "sgf" and events > MAX_TOTAL):
        raise RecordError(f"too many turns: {events:,} (at most {MAX_TOTAL:,} events in all, "
                          f"{MAX_EVENTS:,} a game)")


def read_upload(text: str, name: str | None = None) -> tuple[str, Game | Match]:
    """The format and the game or match of an uploaded ``.mat`` or ``.sgf`` file, every
    move replayed through the engine; any problem is one :class:`RecordError` line and
    nothing is made. (A tavli record goes through :func:`tavli.web.newgame.imported_session`.)"""
    from tavli.play.formats import loads

    fmt = detect(text, name)
    if fmt == "json":
        raise RecordError("a tavli record is read as JSON")  # the caller's other path
    check_size(text, fmt)
    with as_record_errors(fmt):
        return fmt, loads(text, fmt)


def formats_of(obj: Game | Match) -> list[str]:
    """The formats ``obj`` can be exported in: always ``json``; ``mat`` and ``sgf`` for
    backgammon games and matches from the opening position."""
    from tavli.play.formats.script import backgammon_games

    try:
        backgammon_games(obj, "")
    except RecordError:
        return ["json"]
    return ["json", "mat", "sgf"]


def export_text(obj: Game | Match, fmt: str) -> str:
    """The text of ``obj`` in ``fmt`` (``mat`` or ``sgf``)."""
    from tavli.play.formats import dumps

    return dumps(obj, fmt)


def export_checked(obj: Game | Match, fmt: str) -> str:
    """:func:`export_text`, or a 422 for a game those files cannot hold (not backgammon,
    or set up from another position)."""
    if fmt not in formats_of(obj):
        game = (obj.game if hasattr(obj, "games") else obj).rules.game_name
        raise ApiError(422, f".{fmt} files hold backgammon games and matches from the "
                            f"opening position, not this {game} game: export it as a "
                            "tavli record (format=json)", "unsupported",
                       key="err.format_backgammon")
    return export_text(obj, fmt)


def ids(s: Session) -> dict[str, Any]:
    """The IDs of the position shown: the tavli Position ID, and for backgammon gnubg's
    ``PositionID:MatchID`` and the XGID (with the cube, score, turn and dice)."""
    from tavli.play.formats.matchid import match_id
    from tavli.play.formats.xgid import xgid

    pos = s.game.position
    out: dict[str, Any] = {"position_id": pos.id(), "gnubg": None, "xgid": None}
    if not pos.variant.gnubg_ids:
        return out
    obj = s.obj
    try:
        out["gnubg"] = f"{pos.gnubg_id()}:{match_id(obj)}"
        out["xgid"] = xgid(obj)
    except TavliError:  # a state the IDs cannot hold (a cube past their range)
        pass
    return out


__all__ = ["detect", "check_size", "read_upload", "formats_of", "export_text", "ids", "MEDIA",
           "TEXT_ANSWERS"]
