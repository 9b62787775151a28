"""An imported record's shape and size, checked before the engine replays it.

The engine (:func:`tavli.play.record.load_record`) replays a record and reports the first
event that does not fit the game; this module refuses, cheaply and first, what is not a
record at all: a field of the wrong type (``"match": {}``, ``"crawford": "yes"``, dice
as text, a rule option of the wrong type) or a record too large to replay in good time
(more games or events than any real match has). Both are answered with 422.

>>> check_record({"format": "tavli-record", "version": 1, "seed": None, "match": {},
...               "games": [{"events": []}]})
Traceback (most recent call last):
...
tavli.errors.RecordShapeError: match.target: Field required; match.variant: Field required
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError, field_validator

from tavli.engine.dice import MAX_SEED
from tavli.engine.rules import OPTIONS
from tavli.errors import RecordShapeError
from tavli.play.record import (  # every import's limits
    MAX_EVENTS,
    MAX_GAMES,
    MAX_TOTAL,
    is_dama_doc,
)

Side = Literal["white", "black"]




def rule_option_errors(options: dict[str, Any]) -> list[str]:
    """Rule options whose value is not of the option's own type (true/false for a switch,
    text for a choice): ``"yes"`` or ``1`` is not ``true``."""
    bad = []
    for name, value in options.items():
        opt = OPTIONS.get(name)
        if opt is None:
            continue  # the engine names unknown options
        if opt.kind is bool and not isinstance(value, bool):
            bad.append(f"rule option {name!r} takes true or false, not {value!r}")
        elif opt.kind is str and not isinstance(value, str):
            bad.append(f"rule option {name!r} takes one of {', '.join(opt.choices)}, "
                       f"not {value!r}")
    return bad


def _rules(v: dict[str, Any] | None) -> dict[str, Any] | None:
    if v is not None:
        errors = rule_option_errors({k: x for k, x in v.items() if k != "game"})
        if errors:
            raise ValueError("; ".join(errors))
    return v


class _Doc(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class RecordEvent(_Doc):
    opening: list[int] | None = None
    side: Side | None = None
    dice: list[int] | None = None
    move: str | None = None
    double: int | None = None
    take: bool | None = None
    drop: bool | None = None
    beaver: bool | None = None
    # a game's end other than by play (online games: resignation, lost on time or
    # abandoned, an agreed draw), with the dice thrown and not played
    resign: Literal["single", "gammon", "backgammon"] | None = None
    forfeit: Literal["time", "abandoned"] | None = None
    draw: Literal["agreed"] | None = None
    rolled: list[int] | None = None


class RecordResult(_Doc):
    winner: Side | None
    points: int
    kind: str


class RecordGame(_Doc):
    rules: dict[str, Any] | None = None
    first: Side | None = None
    crawford: bool = False
    events: list[RecordEvent] = []
    position: str | None = None
    result: RecordResult | None = None
    start: str | None = None
    pending_dice: list[int] | None = None

    _check_rules = field_validator("rules")(_rules)


class RecordMatch(_Doc):
    target: int
    variant: str
    rules: dict[str, dict[str, Any]] = {}
    opening_each_game: bool = False   # gnubg's matches: every game opens with a throw

    @field_validator("rules")
    @classmethod
    def _each(cls, v: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for options in v.values():
            _rules(options)
        return v


class RecordDoc(_Doc):
    """A record as the engine reads it (docs/formats.md), its shape checked."""

    format: Literal["tavli-record"]
    version: int
    seed: int | None = Field(None, ge=0, le=MAX_SEED)
    match: RecordMatch | None = None
    games: list[RecordGame] = Field(min_length=1)
    fair_dice: dict[str, Any] | None = None  # online games' dice proof (tavli verify)
    names: dict[Side, str] | None = None  # the players' names (the engine checks them)


def check_record(data: Any) -> None:
    """Raise :class:`RecordShapeError` when ``data`` (parsed JSON) is too large or not
    shaped as the engine's record; the size is checked first, by counting."""
    if not isinstance(data, dict):
        raise RecordShapeError("a record must be a JSON object")
    games = data.get("games")
    if isinstance(games, list) and any(is_dama_doc(g) for g in games):
        raise RecordShapeError("a record of Dama games: the app imports records of the dice "
                               "games only (tavli convert reads it)")
    if isinstance(games, list):
        if len(games) > MAX_GAMES:
            raise RecordShapeError(f"too many games: {len(games):,} (at most {MAX_GAMES})")
        total = 0
        for i, g in enumerate(games, 1):
            events = g.get("events") if isinstance(g, dict) else None
            n = len(events) if isinstance(events, list) else 0
            if n > MAX_EVENTS:
                raise RecordShapeError(f"game {i}: too many events: {n:,} (at most "
                                       f"{MAX_EVENTS:,})")
            total += n
        if total > MAX_TOTAL:
            raise RecordShapeError(f"too many events: {total:,} (at most {MAX_TOTAL:,})")
    try:
        RecordDoc.model_validate(data)
    except ValidationError as e:
        raise RecordShapeError(_text(e)) from None


class FileUpload(BaseModel):
    """A file's text to import, in any format the app reads (a tavli record, gnubg's .mat
    or .sgf), with its name (the format's hint when the text says nothing)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    text: str
    name: str | None = None


class Upload(RootModel[RecordDoc | FileUpload]):
    """What ``POST /api/records`` imports: a record, or a file's text."""


def _text(e: ValidationError) -> str:
    parts = []
    for err in e.errors()[:5]:
        loc = ".".join(str(x) for x in err.get("loc", ()))
        msg = str(err.get("msg", "invalid"))
        if err.get("type") == "extra_forbidden":
            msg = "unknown field"
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts)


__all__ = ["check_record", "rule_option_errors", "RecordShapeError", "RecordDoc", "Upload",
           "FileUpload", "MAX_GAMES",
           "MAX_EVENTS", "MAX_TOTAL"]
