"""JSON game and match records: rules, options, seed, every roll and action. A record
loads and replays to the same final state (checked on load). A record holds Dama games
too, each replayed ply by ply (their object: :mod:`tavli.play.dama.record`).

>>> from tavli.play.game import Game
>>> g = Game("fevga", seed=5)
>>> _ = g.roll(); _ = g.play(g.legal_moves()[0])
>>> rec = game_record(g)
>>> load_record(rec).position == g.position
True
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tavli.engine.board import Position
from tavli.engine.dice import ScriptedDice, dice_text
from tavli.engine.games import lookup
from tavli.engine.layout import SIDE_NAMES
from tavli.engine.rules import Rules
from tavli.errors import RecordError, TavliError
from tavli.play.game import Game
from tavli.play.history import Opening
from tavli.play.match import Match
from tavli.play.text import check_text_size, player_name, read_text_file

# Dama's modules (tavli.play.dama) are imported where a Dama game is met: its board loads
# Numba, which a dice record never needs.
if TYPE_CHECKING:
    from tavli.play.dama.game import DamaGame

    #: what a record holds: a dice game or match, a Dama game, or several Dama games (a
    #: PDN file's)
    Recorded = Game | Match | DamaGame | list[DamaGame]
else:  # the same at run time (typing.get_type_hints), without naming Dama's class
    Recorded = Game | Match | Any

FORMAT = "tavli-record"
VERSION = 1

# The largest record an import replays (the web app's uploads, PDN files, Dama records):
MAX_GAMES = 100       # a match to 25 points has at most 49 games (and a few draws)
MAX_EVENTS = 1_000    # events of one game (a long Fevga game has a few hundred)
MAX_TOTAL = 5_000     # events of all games (replaying one takes about a millisecond)


def _game_doc(g: Game) -> dict[str, Any]:
    """One game of a record, written from the game's typed history."""
    opened = any(isinstance(a, Opening) for a in g.history)
    doc: dict[str, Any] = {
        "rules": g.rules.to_dict(),
        "first": None if g.first is None or opened else SIDE_NAMES[g.first],
        "crawford": g.crawford,
        "events": g.events,
        "position": g.position.id(),
        "result": g.outcome.to_dict() if g.outcome else None,
    }
    if g.start_position != Position.start(g.rules, g.start_position.turn):
        doc["start"] = g.start_position.id()
    if g.pending_dice is not None:
        doc["pending_dice"] = list(g.pending_dice)  # thrown, not yet played
    return doc


def game_record(g: Game, seed: int | None = None) -> dict[str, Any]:
    """The record of one game (a dict ready for JSON)."""
    return {"format": FORMAT, "version": VERSION, "seed": seed, "match": None,
            "games": [_game_doc(g)]}


def match_record(m: Match) -> dict[str, Any]:
    """The record of a match with all its games."""
    return {"format": FORMAT, "version": VERSION, "seed": m.seed, "match": m.to_dict(),
            "games": [_game_doc(g) for g in m.games]}


def dama_record(games: DamaGame | list[DamaGame]) -> dict[str, Any]:
    """The record of one Dama game, or of several played apart (``match`` null)."""
    from tavli.play.dama.record import game_doc

    games = list(games) if isinstance(games, list) else [games]
    return {"format": FORMAT, "version": VERSION, "seed": None, "match": None,
            "games": [game_doc(g) for g in games]}


def record_of(obj: Recorded) -> dict[str, Any]:
    """The record of a game, a match, a Dama game or a list of Dama games (with the
    players' ``names`` when the game or match has them)."""
    if isinstance(obj, Match):
        doc = match_record(obj)
    else:
        doc = game_record(obj) if isinstance(obj, Game) else dama_record(obj)
    names = getattr(obj, "names", None)
    if names:
        doc["names"] = dict(zip(SIDE_NAMES, names, strict=True))
    return doc


def names_of(doc: dict[str, Any]) -> tuple[str, str] | None:
    """The players' names of a record (``{"names": {"white": ..., "black": ...}}``), or
    None when it gives none."""
    names = doc.get("names")
    if names is None:
        return None
    if not isinstance(names, dict) or set(names) != set(SIDE_NAMES):
        raise RecordError("names must be an object of two names, white's and black's")
    return (player_name(names["white"], "names.white"),
            player_name(names["black"], "names.black"))


def check_size(events: list[int], what: str = "events") -> None:
    """Refuse, before anything is replayed, games whose numbers of ``events`` (one count a
    game; ``what`` names them in the message) pass the import limits (:data:`MAX_GAMES`,
    :data:`MAX_EVENTS`, :data:`MAX_TOTAL`).

    >>> check_size([400, 700, 4000], "plies")
    Traceback (most recent call last):
    ...
    tavli.errors.RecordError: game 3: too many plies: 4,000 (at most 1,000)
    """
    if len(events) > MAX_GAMES:
        raise RecordError(f"too many games: {len(events):,} (at most {MAX_GAMES})")
    for i, n in enumerate(events, 1):
        if n > MAX_EVENTS:
            raise RecordError(f"game {i}: too many {what}: {n:,} (at most {MAX_EVENTS:,})")
    if sum(events) > MAX_TOTAL:
        raise RecordError(f"too many {what}: {sum(events):,} (at most {MAX_TOTAL:,} in all, "
                          f"{MAX_EVENTS:,} a game)")


def dice_only(obj: Recorded, use: str) -> Game | Match:
    """``obj`` when it is a dice game or match; a Dama record raises :class:`RecordError`
    saying that ``use`` (e.g. ``tavli analyse``) takes the dice games only."""
    if isinstance(obj, Game | Match):
        return obj
    raise RecordError(f"a Dama record: {use} takes Portes, Plakoto, Fevga and backgammon "
                      "games only")


def _roll_text(dice: list) -> str:
    """A recorded roll as players write it (6-4), or as given when it is not two dice."""
    ok = all(type(d) is int and 1 <= d <= 6 for d in dice)
    return dice_text(dice) if ok else json.dumps(dice)


def _side(v: Any) -> int:
    if v in SIDE_NAMES:
        return SIDE_NAMES.index(v)
    raise RecordError(f"side must be 'white' or 'black', got {v!r}")


def _replay_events(g: Game, events: list[Any], dice_feed: list[int], where: str) -> None:
    """Apply recorded events to ``g``; ``dice_feed`` receives the dice to throw."""
    opening_done = g.phase != "opening"
    for k, ev in enumerate(events):
        at = f"{where}, event {k + 1}"
        if not isinstance(ev, dict):
            raise RecordError(f"{at}: an event must be an object")
        try:
            if "opening" in ev:
                pair = ev["opening"]
                if not (isinstance(pair, list) and len(pair) == 2):
                    raise RecordError(f"{at}: opening must be two dice")
                if opening_done:
                    raise RecordError(f"{at}: an opening throw after the game started")
                dice_feed.extend(pair)
                continue
            if "dice" in ev:
                dice = ev["dice"]
                if not (isinstance(dice, list) and len(dice) == 2):
                    raise RecordError(f"{at}: dice must be two numbers")
                side = _side(ev.get("side"))
                if g.phase == "opening":
                    if g.rules.opening_reroll:
                        dice_feed.extend(dice)
                    opening_done = True
                else:
                    dice_feed.extend(dice)
                got = g.roll()
                if list(got) != list(dice) or g.turn != side:
                    raise RecordError(f"{at}: the record says {SIDE_NAMES[side]} rolled "
                                      f"{_roll_text(dice)}, the replay gives "
                                      f"{SIDE_NAMES[g.turn]} {dice_text(got)}")
                mv = ev.get("move", "")
                if not isinstance(mv, str):
                    raise RecordError(f"{at}: move must be text")
                g.play(mv or None)
            elif "double" in ev:
                g.double()
            elif "take" in ev:
                g.take()
            elif "beaver" in ev:
                g.beaver()
            elif "drop" in ev:
                g.drop()
            elif "resign" in ev or "forfeit" in ev or "draw" in ev:
                if g.phase == "opening" and dice_feed:
                    g.opening_throw()  # the recorded opening throw came first
                rolled = ev.get("rolled")
                if rolled is not None:
                    if not (isinstance(rolled, list) and len(rolled) == 2):
                        raise RecordError(f"{at}: rolled must be two dice")
                    dice_feed.extend(rolled)
                    g.roll()
                side = _side(ev.get("side"))
                if "resign" in ev:
                    g.resign(side, ev["resign"])
                elif "forfeit" in ev:
                    g.forfeit(side, ev["forfeit"])
                elif ev["draw"] == "agreed":
                    g.agree_draw(side)
                else:
                    raise RecordError(f"{at}: a draw is \"agreed\", not {ev['draw']!r}")
            else:
                raise RecordError(f"{at}: unknown event {ev!r}")
        except RecordError:
            raise
        except TavliError as e:
            raise RecordError(f"{at}: {e}") from None


def _check(g: Game, doc: dict[str, Any], where: str) -> None:
    if "position" in doc and doc["position"] != g.position.id():
        raise RecordError(f"{where}: the replay ends in {g.position.id()}, the record says "
                          f"{doc['position']}")
    res = doc.get("result")
    got = g.outcome.to_dict() if g.outcome else None
    if "result" in doc and res != got:
        raise RecordError(f"{where}: the record's result {res} differs from the replay's {got}")


def load_record(data: dict[str, Any] | str, *, drawn: list[int] | None = None
                ) -> Recorded:
    """Replay a record (a dict, or JSON text) and return the game or match it ends in
    (Dama: the game, or the list of its games when it holds several).
    ``drawn``, when given, receives every die the replay throws, in the order thrown
    (the fair-dice check, :mod:`tavli.online.fairdice`, compares them with the seeds').

    Raises :class:`RecordError` naming the first problem."""
    if isinstance(data, str):
        check_text_size(len(data), "the record")
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as e:  # huge numbers, deep nesting too
            raise RecordError(f"the record is not valid JSON: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a tavli record (expected \"format\": \"{FORMAT}\")")
    if type(data.get("version")) is not int or data.get("version") != VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r}")
    games = data.get("games")
    if not isinstance(games, list) or not games:
        raise RecordError("the record has no games")
    if any(is_dama_doc(g) for g in games):
        return _load_dama(data, games)
    names = names_of(data)
    obj = _replay_dice_record(data, games, drawn)
    obj.names = names
    return obj


def _replay_dice_record(data: dict[str, Any], games: list[Any], drawn: list[int] | None
                        ) -> Game | Match:
    """The game or match of a dice games' record, replayed."""
    feed: list[int] = []
    dice = _FeedDice(feed, drawn)
    try:
        if data.get("match"):
            md = data["match"]
            if not isinstance(md, dict):
                raise RecordError("'match' must be an object")
            m = Match(md.get("target", 5), md.get("variant", "tavli"),
                      rules=md.get("rules") or {}, dice=dice,
                      opening_each_game=md.get("opening_each_game", False))
            for i, gd in enumerate(games):
                if i > 0:
                    m.next_game()
                _replay_game_doc(m.game, gd, feed, f"game {i + 1}")
            return m
        if len(games) != 1:
            raise RecordError("a game record holds exactly one game")
        gd = games[0]
        if not isinstance(gd, dict):
            raise RecordError("game 1: must be an object")
        rules = Rules.from_dict(gd.get("rules") or {})
        first = gd.get("first")
        start = Position.from_id(gd["start"]) if gd.get("start") else None
        if start is not None and first is not None:
            start = Position(start.game, start.array, _side(first))
        crawford = gd.get("crawford", False)
        if not isinstance(crawford, bool):
            raise RecordError(f"game 1: crawford must be true or false, got {crawford!r}")
        g = Game(rules, dice=dice, position=start,
                 first=None if first is None else _side(first), crawford=crawford)
        _replay_game_doc(g, gd, feed, "game 1")
        return g
    except RecordError:
        raise
    except TavliError as e:
        raise RecordError(f"the record does not replay: {e}") from None


def is_dama_doc(doc: Any) -> bool:
    """Is ``doc`` (one game of a record) a Dama game's (its ``rules`` name one of Dama's rule
    sets: ``{"game": "dama"|"russian"|"italian", ...}``)?"""
    if not (isinstance(doc, dict) and isinstance(doc.get("rules"), dict)):
        return False
    variant = lookup(str(doc["rules"].get("game")))
    return variant is not None and not variant.dice


def _load_dama(data: dict[str, Any], games: list[Any]) -> DamaGame | list[DamaGame]:
    """The Dama game(s) of a record, after its size is checked."""
    from tavli.play.dama.record import replay_game_doc

    if data.get("match") is not None:
        raise RecordError("a record of Dama games has no match (\"match\": null)")
    for i, gd in enumerate(games, 1):
        if not is_dama_doc(gd):
            raise RecordError(f"game {i}: a record holds Dama games or dice games, not both")
    check_size([len(gd["events"]) if isinstance(gd.get("events"), list) else 0
                for gd in games])
    out = [replay_game_doc(gd, f"game {i}") for i, gd in enumerate(games, 1)]
    return out[0] if len(out) == 1 else out


def _replay_game_doc(g: Game, gd: Any, feed: list[int], where: str) -> None:
    if not isinstance(gd, dict):
        raise RecordError(f"{where}: must be an object")
    events = gd.get("events", [])
    if not isinstance(events, list):
        raise RecordError(f"{where}: events must be a list")
    if "rules" in gd and Rules.from_dict(gd["rules"]) != g.rules:
        raise RecordError(f"{where}: rules differ from the match's")
    _replay_events(g, events, feed, where)
    if g.phase == "opening" and feed:
        g.opening_throw()  # recorded throws whose first roll was not made yet
    pending = gd.get("pending_dice")
    if pending is not None:
        if not (isinstance(pending, list) and len(pending) == 2):
            raise RecordError(f"{where}: pending_dice must be two dice")
        if g.phase != "roll":
            raise RecordError(f"{where}: pending_dice where no roll is due")
        feed.extend(pending)
        g.roll()
    if feed:
        raise RecordError(f"{where}: recorded dice left over after the replay")
    _check(g, gd, where)


class _FeedDice(ScriptedDice):
    def __init__(self, feed: list[int], drawn: list[int] | None = None) -> None:
        super().__init__([])
        self.feed = feed
        self.drawn = drawn

    def die(self) -> int:
        if not self.feed:
            raise RecordError("the recorded dice ran out")
        d = self.feed.pop(0)
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise RecordError(f"recorded die {d!r} is not 1..6")
        if self.drawn is not None:
            self.drawn.append(d)
        return d


def save(obj: Recorded | dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a record atomically: the old file stays intact until the new one is complete.
    A symbolic link is followed (the file it names is updated) and an existing file keeps
    its permissions; a new one gets the usual ones (0666 less the umask)."""
    data = obj if isinstance(obj, dict) else record_of(obj)
    write_atomically(path, json.dumps(data, indent=1) + "\n")


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` as :func:`save` writes a record (a Dama game's PDN too):
    the old file stays intact until the new one is complete, a symbolic link is followed,
    an existing file keeps its permissions."""
    path = Path(os.path.realpath(path))
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        mode = 0o666 & ~mask
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: str | os.PathLike[str]) -> Recorded:
    """Read and replay a record file."""
    return load_record(read_text_file(path))
