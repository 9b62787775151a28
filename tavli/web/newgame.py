"""Setting up a game or match of the browser app: the New game request
(:class:`NewGame`), the session it makes, an imported record's session, and the request
a rematch repeats.

>>> s = new_session(NewGame(variant="fevga", seed=4))
>>> s.meta["title"], s.meta["practice"], s.game.phase
('Fevga: you (white) vs AI expert (practice)', True, 'opening')
"""

from __future__ import annotations

import secrets
from typing import Any, Literal

from pydantic import Field, field_validator

from tavli.engine.board import Position
from tavli.engine.dice import MAX_SEED, DiceSource
from tavli.engine.games import ROTATIONS, rotation
from tavli.engine.layout import SIDE_NAMES
from tavli.engine.rules import Rules, option_applies
from tavli.errors import RecordError, RuleError, TavliError
from tavli.play.cube.met import MAX_MATCH
from tavli.play.game import Game
from tavli.play.match import Match
from tavli.play.record import load_record, record_of
from tavli.play.text import utf8_encodable
from tavli.web import shown
from tavli.web.errors import ApiError, Body, engine_error
from tavli.web.info import DAMA_VARIANTS, check_kind
from tavli.web.records import RecordShapeError, check_record, rule_option_errors
from tavli.web.sessions import Session, players, restore

SideName = Literal["white", "black"]


class NewGame(Body):
    """A new game (``POST /api/games``): of the dice games or Dama (``variant``; its kind of
    game, :mod:`tavli.web.kind`, reads the rest: Dama takes ``rules``, ``opponent``,
    ``level``, ``ai_side``)."""

    # a game or a rotation of the registry (tavli.engine.games.match_kinds), or one of
    # Dama's rule sets (dama, russian, italian)
    variant: str = "tavli"
    points: int | None = Field(None, ge=1, le=MAX_MATCH,
                               description="match length; 1 = a single game")
    opponent: Literal["ai", "human"] = "ai"
    level: str = "expert"
    ai_side: SideName = "black"
    first: SideName | None = None
    seed: int | None = Field(None, ge=0, le=MAX_SEED,
                             description="the dice's seed (a practice game)")
    position: str | None = None
    rules: dict[str, Any] | None = None

    @field_validator("variant")
    @classmethod
    def _variant(cls, v: str) -> str:
        return check_kind(v, *DAMA_VARIANTS)

    @field_validator("rules")
    @classmethod
    def _rule_types(cls, v: dict[str, Any] | None) -> dict[str, Any] | None:
        errors = rule_option_errors(v or {})
        if errors:
            raise ValueError("; ".join(errors))
        return v


def is_practice(req: NewGame) -> bool:
    """A game against the AI whose dice (``seed``), start (``position``) or starter
    (``first``) the player fixed: for practice and analysis, left out of any statistics."""
    return req.opponent == "ai" and (req.seed is not None or req.position is not None
                                     or req.first is not None)


def _match_rules(options: dict[str, Any], games: tuple[str, ...]) -> dict[str, Rules]:
    """Each game's rules from the options of a match: an option goes to the games that
    have it; one that none has is an error."""
    for name in options:
        if not any(option_applies(name, g) for g in games):
            raise RuleError(f"rule option {name!r} does not apply to {' or '.join(games)}")
    return {g: Rules.for_game(g, {k: v for k, v in options.items() if option_applies(k, g)})
            for g in games}


def _single_game(req: NewGame, src: DiceSource) -> Game:
    rules = Rules.for_game(req.variant, req.rules or {})
    start = None
    if req.position is not None:
        start = Position.from_id(req.position, req.variant)
        if start.game != rules.game:
            raise ApiError(422, f"position: that is a {start.game_name} position, not "
                                f"{rules.game_name}", "invalid", key="err.position_game")
        if req.first is not None:
            start = Position(start.game, start.array, SIDE_NAMES.index(req.first))
    first = None if req.first is None else SIDE_NAMES.index(req.first)
    g = Game(rules, dice=src, first=first, position=start)
    if start is not None and start.is_finished():
        raise ApiError(422, "position: the game is already over there", "invalid",
                       key="err.position_over")
    return g


def new_session(req: NewGame) -> Session:
    """The session of a new game or match as ``req`` asks (422 for what cannot be set up)."""
    from tavli.ai.levels import parse_level

    kind = req.variant
    points = req.points if req.points is not None else (5 if kind in ROTATIONS else 1)
    try:
        parse_level(req.level)
    except RuleError as e:
        raise ApiError(422, f"level: {e}", "invalid", key="err.level") from None
    who = players(req.opponent, req.ai_side, req.level.strip().lower())
    src = DiceSource(seed=req.seed)
    try:
        if kind in ROTATIONS or points > 1:
            if req.first is not None or req.position is not None:
                raise ApiError(422, "first and position apply to single games only (a "
                                    "match opens with the opening throw)", "invalid",
                               key="err.first_position")
            rules = _match_rules(req.rules, rotation(kind)) if req.rules else None
            obj: Game | Match = Match(points, kind, rules=rules, dice=src)
            obj.seed = req.seed
        else:
            obj = _single_game(req, src)
    except TavliError as e:
        raise engine_error(e) from None
    practice = is_practice(req)
    title = shown.title(kind, points, who, False)
    meta = {"variant": kind, "points": points, "opponent": req.opponent, "players": who,
            "seed": req.seed, "imported": False,
            "title": f"{title} (practice)" if practice else title, "practice": practice,
            "first": req.first, "position": req.position, "rules": req.rules}
    return Session(secrets.token_urlsafe(6), obj, meta)


def rematch_request(s: Session) -> NewGame:
    """The settings ``s`` was created with (what a rematch repeats), without the seed (the
    API checks first that ``s`` is over and not an imported record)."""
    meta = s.meta
    who = meta["players"]
    ai = [side for side in SIDE_NAMES if who[side]["type"] == "ai"]
    rules = meta.get("rules")
    if rules is None and s.match is None:   # stored before the settings were kept
        rules = s.game.rules.options()
    return NewGame(variant=meta["variant"], points=meta["points"],
                   opponent="ai" if ai else "human",
                   level=who[ai[0]].get("level", "expert") if ai else "expert",
                   ai_side=ai[0] if ai else "black", first=meta.get("first"),
                   position=meta.get("position"), rules=rules)


class ContinueGame(Body):
    """How an imported record goes on (``POST /api/games/{id}/continue``): against the AI
    (playing ``ai_side``, default the side not to act now) or two players."""

    opponent: Literal["ai", "human"] = "ai"
    level: str = "expert"
    ai_side: SideName | None = None


def imported_session(data: Any) -> Session:
    """A review-only session of an imported file: a tavli record (parsed JSON), or
    ``{"text": ..., "name": ...}``, a file's text in any format the app reads (a tavli
    record, gnubg ``.mat`` or ``.sgf``: :func:`tavli.web.exchange.detect`). 422 for one
    that cannot be read; nothing is made then."""
    if not isinstance(data, dict):
        raise ApiError(422, "a record must be a JSON object", "invalid", key="err.invalid_record")
    check_text(data)
    source = "json"
    if "text" in data and "format" not in data:
        source, content = _upload(data)
        if isinstance(content, dict):  # a record's JSON (a .mat or .sgf is read already)
            check_text(content)
        if isinstance(content, Game | Match):
            try:  # the same limits as a record's, counted on what was read
                check_record(record_of(content))
            except RecordShapeError as e:
                raise ApiError(422, f"the file cannot be read: {e}", "invalid_record",
                               key="err.invalid_record") \
                    from None
            return _imported(content, None, source)
        if not isinstance(content, dict):
            raise ApiError(422, "the file cannot be read: a record must be a JSON object",
                           "invalid_record", key="err.invalid_record")
        data = content
    try:
        check_record(data)  # shape and size, before anything is replayed
        obj = load_record(data)
    except (RecordShapeError, TavliError) as e:
        raise ApiError(422, f"the record cannot be read: {e}", "invalid_record",
                       key="err.invalid_record") from None
    return _imported(obj, data.get("seed") if isinstance(data.get("seed"), int) else None,
                     source)


def check_text(data: Any) -> None:
    """422 for a record whose strings hold a lone surrogate (:func:`utf8_encodable`),
    before anything reads it (an error quoting one could not be answered)."""
    if not utf8_encodable(data):
        raise ApiError(422, "the record holds a lone surrogate (\\ud800-\\udfff), which "
                            "is not text", "invalid_record", key="err.invalid_record")


def _upload(data: dict[str, Any]) -> tuple[str, Any]:
    """The format and content of an uploaded file: a tavli record's parsed JSON, or the
    game or match of a ``.mat`` / ``.sgf`` file."""
    import json

    from tavli.web.exchange import detect, read_upload

    extra = set(data) - {"text", "name"}
    if extra:
        raise ApiError(422, f"{sorted(extra)[0]}: unknown field (an upload is "
                            "{\"text\": ..., \"name\": ...})", "invalid", key="err.invalid_record")
    text, name = data.get("text"), data.get("name")
    if not isinstance(text, str) or not (name is None or isinstance(name, str)):
        raise ApiError(422, "an upload's text and name must be strings", "invalid",
                       key="err.invalid_record")
    try:
        fmt = detect(text, name)
        if fmt == "json":
            try:
                return fmt, json.loads(text)
            except (ValueError, RecursionError) as e:
                raise RecordError(f"malformed JSON: {e}") from None
        return read_upload(text, name)
    except RecordError as e:
        raise ApiError(422, f"the file cannot be read: {e}", "invalid_record",
                       key="err.invalid_record") from None


def _imported(obj: Game | Match, seed: int | None, source: str) -> Session:
    if isinstance(obj, Match):
        kind, points = obj.variant, obj.target
    else:
        kind, points = obj.rules.game_name, 1
    who = players("human")
    for side, name in zip(SIDE_NAMES, obj.names or (), strict=False):
        who[side]["name"] = name  # as the file names them: the players panel shows it
    unfinished = not obj.is_over  # a file cut between two lines reads so too: say it
    meta = {"variant": kind, "points": points, "opponent": "human", "players": who,
            "seed": seed, "imported": True, "source": source, "unfinished": unfinished,
            "title": shown.title(kind, points, who, True, unfinished=unfinished)}
    return Session(secrets.token_urlsafe(6), obj, meta)


def continued_session(s: Session, req: ContinueGame) -> Session:
    """A new game or match that goes on from where the imported ``s`` ends, with new
    dice: against the AI (practice: its start was known) or two players. 409 unless
    ``s`` is an imported record that is not over."""
    from tavli.ai.levels import parse_level

    if not s.imported:
        raise ApiError(409, "only an imported record is continued: this game is played "
                            "on as it is", "wrong_state", key="err.continue_imported")
    if s.finished:
        raise ApiError(409, f"the {s.what} is over: there is nothing to continue", "game_over",
                       key="err.game_over")
    try:
        parse_level(req.level)
    except RuleError as e:
        raise ApiError(422, f"level: {e}", "invalid", key="err.level") from None
    ai_side = req.ai_side or SIDE_NAMES[1 - s.game.turn]
    who = players(req.opponent, ai_side, req.level.strip().lower())
    meta = dict(s.meta)
    kind, points = meta["variant"], meta["points"]
    practice = req.opponent == "ai"
    title = shown.title(kind, points, who, False) + " (continued)"
    meta.update(opponent=req.opponent, players=who, seed=None, imported=False,
                practice=practice, title=f"{title} (practice)" if practice else title,
                first=None, position=None, rules=None, continued_from=s.id)
    for key in ("rng", "pending", "last"):
        meta.pop(key, None)
    return restore(secrets.token_urlsafe(6), s.record(), meta)


__all__ = ["NewGame", "ContinueGame", "new_session", "imported_session", "continued_session",
           "rematch_request", "is_practice"]
