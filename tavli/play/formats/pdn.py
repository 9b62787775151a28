"""PDN (Portable Draughts Notation) files as a format of :mod:`tavli.play.formats`: Dama
games in and out. The notation itself (tags per rule set, huffs, numberings) is Dama's
own, :mod:`tavli.play.dama.pdn`; this module bounds an import and says what PDN cannot
hold.

>>> from tavli.play.dama.game import DamaGame
>>> g = DamaGame("italian")
>>> _ = g.play("22-18")
>>> [str(m) for m in loads(dumps(g)).moves]
['22-18']
>>> loads('[Event "a"]\\n1. 22-18 *\\n\\n[Event "b"]\\n1. 21-17 *\\n')  # no Rules tag: russian
[DamaGame('russian', plies=1, result='*'), DamaGame('russian', plies=1, result='*')]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavli.errors import RecordError
from tavli.play.dama.game import DamaGame
from tavli.play.dama.pdn import parse_pdn_games, replay_pdn_games, write_pdn
from tavli.play.record import check_size
from tavli.play.text import as_record_errors

if TYPE_CHECKING:
    from tavli.play.record import Recorded


def loads(text: str) -> DamaGame | list[DamaGame]:
    """The game of a PDN text (the list of its games when it holds several), every ply
    replayed; too many games or plies (:func:`tavli.play.record.check_size`, counted
    before the replay), an illegal move or a damaged file raise one
    :class:`RecordError` line, and nothing is read."""
    with as_record_errors("pdn"):
        parsed = parse_pdn_games(text.removeprefix("\ufeff"))  # a byte order mark first
        if not parsed:
            raise RecordError("no game in the PDN text")
        check_size([len(pg.plies) for pg in parsed], "plies")
        games = replay_pdn_games(parsed)
    return games[0] if len(games) == 1 else games


def dumps(obj: Recorded) -> str:
    """The PDN text of a Dama game, or of several one after another (each with the tags
    it was read with, if any); a dice game raises :class:`RecordError`."""
    games = obj if isinstance(obj, list) else [obj]
    for g in games:
        if not isinstance(g, DamaGame):
            name = getattr(getattr(g, "rules", None), "game_name", None) or "a match"
            raise RecordError(f".pdn files hold Dama games only, not {name}: save it as a "
                              "tavli record (.json)")
    return "\n".join(write_pdn(g, getattr(g, "tags", None)) for g in games)
