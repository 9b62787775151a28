"""A Dama game as a game of the tavli JSON record (:mod:`tavli.play.record` writes the
envelope, ``format``, ``version``, ``games``; this module one game's object and its
replay). The shape follows the dice games' (docs/formats.md, "Game and match records"):

>>> g = DamaGame("box")
>>> for m in ("22-18", "11-15", "18x11", "8x15"):
...     _ = g.play(m)
>>> doc = game_doc(g)
>>> doc["rules"], doc["events"][2], doc["result"]
({'game': 'dama', 'huffing': True}, {'side': 'white', 'move': '18x11'}, None)
>>> replay_game_doc(doc, "game 1").position == g.position
True

* ``rules``: the rules' :meth:`~tavli.engine.dama.rules.DamaRules.to_dict`, as a dice
  game's: ``{"game": "dama", "huffing": bool}`` (the box rules), ``{"game": "russian"}``,
  ``{"game": "italian"}`` (any name of the rule set in the registry is read);
* ``events``: the plies in order: ``{"side": "white", "move": "22x13x6"}`` (numeric
  notation with every landing square, as the app stores plies), ``{"side": "black",
  "huff": 22}`` (the square huffed), then the end when it was not played on the board:
  ``{"side": "black", "resign": true}`` or ``{"draw": "agreed"}``;
* ``start`` (optional): the FEN of a start other than the rule set's;
* ``position``: the final FEN; ``result``: ``null`` while the game goes on, else
  ``{"winner": "white"|"black"|null, "points": 1|0, "kind": K}``, ``K`` the reason's
  word (``no_move``, ``no_pieces``, ``resignation``, ``agreement``, ``repetition``,
  ``quiet``); both are checked against the replay;
* ``tags`` (optional): a PDN file's tags, kept for writing it again (not the ones the PDN
  writer derives from the game: ``GameType``, ``FEN``, ``Rules``, ``Huffing``).

The replay plays every ply through the engine; anything that does not fit raises one
:class:`~tavli.errors.RecordError` naming the game and event.
"""

from __future__ import annotations

from typing import Any

from tavli.engine.catalog import rules_from_dict
from tavli.engine.dama.board import Position
from tavli.engine.dama.rules import DamaRules
from tavli.errors import RecordError, TavliError
from tavli.play.dama.game import REASON_KEYS, DamaGame
from tavli.play.dama.pdn import DERIVED_TAGS

SIDES = ("white", "black")  # the record's names of WHITE (0) and BLACK (1)


def rules_doc(rules: DamaRules) -> dict[str, Any]:
    """The record's ``rules`` object: the rules' common ``to_dict()``."""
    return rules.to_dict()


def rules_of(doc: Any, where: str) -> DamaRules:
    """The rules a record's ``rules`` object names (RecordError for anything else)."""
    try:
        rules = rules_from_dict(doc)
    except TavliError as e:
        raise RecordError(f"{where}: {e}") from None
    if not isinstance(rules, DamaRules):
        raise RecordError(f"{where}: {rules.game_name} is not a rule set of Dama")
    return rules


def events_of(game: DamaGame) -> list[dict[str, Any]]:
    """The game's plies as record events, its resignation or agreed draw last."""
    out: list[dict[str, Any]] = []
    for ply in game.record:
        side = SIDES[ply.colour]
        if ply.move is None:
            out.append({"side": side, "huff": ply.huffed})
        else:
            out.append({"side": side, "move": ply.move.notation(game.rules, full=True)})
    reason = game.end_reason()
    if reason == "resignation":
        out.append({"side": SIDES[1 - game.winner()], "resign": True})  # type: ignore[operator]
    elif reason == "agreement":
        out.append({"draw": "agreed"})
    return out


def result_of(game: DamaGame) -> dict[str, Any] | None:
    reason = game.end_reason()
    if reason is None:
        return None
    winner = game.winner()
    return {"winner": None if winner is None else SIDES[winner],
            "points": 0 if winner is None else 1, "kind": REASON_KEYS.get(reason, "quiet")}


def game_doc(game: DamaGame) -> dict[str, Any]:
    """One Dama game of a record (a dict ready for JSON)."""
    doc: dict[str, Any] = {"rules": rules_doc(game.rules)}
    if game.start != Position.start(game.rules):
        doc["start"] = game.start.fen()
    doc["events"] = events_of(game)
    doc["position"] = game.position.fen()
    doc["result"] = result_of(game)
    tags = {k: v for k, v in getattr(game, "tags", {}).items() if k not in DERIVED_TAGS}
    if tags:
        doc["tags"] = tags
    return doc


def replay_game_doc(doc: Any, where: str) -> DamaGame:
    """The game a record's Dama game object describes, every ply replayed."""
    if not isinstance(doc, dict):
        raise RecordError(f"{where}: must be an object")
    if not isinstance(doc.get("rules"), dict):
        raise RecordError(f"{where}: rules must be an object")
    rules = rules_of(doc["rules"], where)
    start = doc.get("start")
    if start is not None and not isinstance(start, str):
        raise RecordError(f"{where}: start must be a FEN, got {start!r}")
    try:
        game = DamaGame(rules, start=start)
    except TavliError as e:
        raise RecordError(f"{where}: start: {e}") from None
    events = doc.get("events", [])
    if not isinstance(events, list):
        raise RecordError(f"{where}: events must be a list")
    for k, ev in enumerate(events):
        _replay_event(game, ev, f"{where}, event {k + 1}")
    _check_end(game, doc, where)
    tags = doc.get("tags")
    if tags is not None:
        if not (isinstance(tags, dict) and all(isinstance(v, str) for v in tags.values())):
            raise RecordError(f"{where}: tags must be an object of texts")
        game.tags = dict(tags)  # type: ignore[attr-defined]
    return game


def _replay_event(game: DamaGame, ev: Any, at: str) -> None:
    if not isinstance(ev, dict):
        raise RecordError(f"{at}: an event must be an object")
    try:
        if ev.get("draw") is not None:
            if ev["draw"] != "agreed":
                raise RecordError(f"{at}: a draw is \"agreed\", not {ev['draw']!r}")
            game.agree_draw()
            return
        side = ev.get("side")
        if side not in SIDES:
            raise RecordError(f"{at}: side must be 'white' or 'black', got {side!r}")
        if "resign" in ev:
            game.resign(SIDES.index(side))
            return
        if game.is_over():
            raise RecordError(f"{at}: a ply after the game's end")
        if SIDES.index(side) != game.turn:
            raise RecordError(f"{at}: the record says {side} plays, but "
                              f"{SIDES[game.turn]} is to move")
        if "huff" in ev:
            square = ev["huff"]
            if type(square) is not int:
                raise RecordError(f"{at}: huff must be a square's number, got {square!r}")
            game.huff(square)
        elif isinstance(ev.get("move"), str):
            game.play(ev["move"])
        else:
            raise RecordError(f"{at}: unknown event {ev!r}"[:200])
    except RecordError:
        raise
    except TavliError as e:
        raise RecordError(f"{at}: {e}") from None


def _check_end(game: DamaGame, doc: dict[str, Any], where: str) -> None:
    if "position" in doc and doc["position"] != game.position.fen():
        raise RecordError(f"{where}: the replay ends in {game.position.fen()}, the record "
                          f"says {doc['position']}"[:300])
    if "result" in doc and doc["result"] != result_of(game):
        raise RecordError(f"{where}: the record's result {doc['result']} differs from the "
                          f"replay's {result_of(game)}"[:300])


__all__ = ["game_doc", "replay_game_doc", "rules_doc", "rules_of"]
