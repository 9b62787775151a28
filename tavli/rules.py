"""Rule options: every option of the spec as a named, documented setting.

>>> r = Rules.for_game("fevga")
>>> r.must_play_higher, r.starting_quarter_rule, r.prime_rule
(True, 'own', 'must_open')
>>> Rules.for_game("portes", ["must_play_higher=true"]).must_play_higher
True
>>> Rules.for_game("portes").with_options({"prime_rule": "off"})
Traceback (most recent call last):
...
tavli.errors.RuleError: rule option 'prime_rule' applies to fevga only, not portes
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .errors import RuleError
from .layout import BACKGAMMON, FEVGA, GAME_NAMES, PLAKOTO, PORTES, game_code


@dataclass(frozen=True)
class Option:
    name: str
    kind: type
    games: tuple[int, ...]
    defaults: dict[int, Any]
    doc: str
    choices: tuple[str, ...] = ()


ALL = (PORTES, PLAKOTO, FEVGA, BACKGAMMON)

OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option(
            "must_play_higher", bool, ALL,
            {PORTES: False, PLAKOTO: False, FEVGA: True, BACKGAMMON: True},
            "When only one die of a non-double can be played, the higher one must be "
            "played if it can be. Off in Portes and Plakoto (free choice, German seed).",
        ),
        Option(
            "opening_reroll", bool, ALL,
            {PORTES: True, PLAKOTO: True, FEVGA: True, BACKGAMMON: False},
            "After the opening throw (one die each, higher starts) the starter throws both "
            "dice for his first turn (Tavli custom). Off: the two opening dice are the "
            "first move (international backgammon).",
        ),
        Option(
            "backgammons", bool, (PORTES, BACKGAMMON),
            {PORTES: False, BACKGAMMON: True},
            "3 points when the loser has borne off none and still has a checker on the bar "
            "or in the winner's home board.",
        ),
        Option(
            "starting_quarter_rule", str, (FEVGA,), {FEVGA: "own"},
            "Fevga: no turn may end holding all six points of the player's own starting "
            "quarter ('own'), of the opponent's ('opponent'), or no such rule ('off').",
            ("own", "opponent", "off"),
        ),
        Option(
            "prime_rule", str, (FEVGA,), {FEVGA: "must_open"},
            "Fevga six-prime with every opposing checker directly behind it: the holder "
            "must free the opponent next turn if he can ('must_open'), may never end a "
            "turn so ('forbid'), or no rule ('off').",
            ("must_open", "forbid", "off"),
        ),
        Option(
            "cube", bool, (BACKGAMMON,), {BACKGAMMON: True},
            "Backgammon: play with the doubling cube.",
        ),
        Option(
            "crawford", bool, (BACKGAMMON,), {BACKGAMMON: True},
            "Backgammon match play: no doubling in the game after a player first reaches "
            "match point minus one.",
        ),
        Option(
            "jacoby", bool, (BACKGAMMON,), {BACKGAMMON: False},
            "Backgammon money play: gammons and backgammons count only after a double.",
        ),
        Option(
            "beavers", bool, (BACKGAMMON,), {BACKGAMMON: False},
            "Backgammon money play: a player who is doubled may redouble at once, keeping "
            "the cube.",
        ),
    )
}

_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


def _convert(opt: Option, value: Any) -> Any:
    if opt.kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise RuleError(f"rule option {opt.name!r} takes true or false, not {value!r}")
    if not isinstance(value, str) or value.strip().lower() not in opt.choices:
        raise RuleError(
            f"rule option {opt.name!r} takes one of {', '.join(opt.choices)}, not {value!r}"
        )
    return value.strip().lower()


@dataclass(frozen=True)
class Rules:
    """The rules a game is played by: the game and the value of each option.

    Options that do not apply to the game keep their neutral value and cannot be set.
    """

    game: int
    must_play_higher: bool = False
    opening_reroll: bool = True
    backgammons: bool = False
    starting_quarter_rule: str = "off"
    prime_rule: str = "off"
    cube: bool = False
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False

    @classmethod
    def for_game(
        cls,
        game: str | int,
        options: Mapping[str, Any] | Iterable[str] | None = None,
    ) -> Rules:
        """The spec's defaults for ``game``, then ``options`` (a mapping, or
        ``NAME=VALUE`` strings as on the command line)."""
        g = game_code(game)
        base = cls(game=g, **{o.name: o.defaults[g] for o in OPTIONS.values() if g in o.games})
        return base.with_options(options) if options else base

    @property
    def game_name(self) -> str:
        return GAME_NAMES[self.game]

    def with_options(self, options: Mapping[str, Any] | Iterable[str]) -> Rules:
        """A copy with options changed; unknown names, values or games raise RuleError."""
        if not isinstance(options, Mapping):
            pairs = {}
            for item in options:
                if not isinstance(item, str) or "=" not in item:
                    raise RuleError(f"rule option must be written NAME=VALUE, got {item!r}")
                name, value = item.split("=", 1)
                pairs[name.strip()] = value
            options = pairs
        changes = {}
        for name, value in options.items():
            opt = OPTIONS.get(name)
            if opt is None:
                raise RuleError(
                    f"unknown rule option {name!r}; known: {', '.join(sorted(OPTIONS))}"
                )
            if self.game not in opt.games:
                names = ", ".join(GAME_NAMES[g] for g in opt.games)
                raise RuleError(
                    f"rule option {name!r} applies to {names} only, not {self.game_name}"
                )
            changes[name] = _convert(opt, value)
        return replace(self, **changes)

    def options(self) -> dict[str, Any]:
        """The options that apply to this game, by name (what records store)."""
        return {o.name: getattr(self, o.name) for o in OPTIONS.values() if self.game in o.games}

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game_name, **self.options()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        if not isinstance(data, Mapping) or "game" not in data:
            raise RuleError("rules must be an object with a 'game' field")
        rest = {k: v for k, v in data.items() if k != "game"}
        return cls.for_game(data["game"], rest)

    # flags handed to the compiled generator
    def kernel_flags(self) -> tuple[int, bool, int, int]:
        """``(game, must_play_higher, quarter code, prime code)`` for the generator."""
        flags = self.__dict__.get("_flags")
        if flags is None:
            flags = self.__dict__["_flags"] = self._kernel_flags()
        return flags

    def _kernel_flags(self) -> tuple[int, bool, int, int]:
        from .games.fevga import (
            PRIME_FORBID,
            PRIME_MUST_OPEN,
            PRIME_OFF,
            QUARTER_OFF,
            QUARTER_OPPONENT,
            QUARTER_OWN,
        )

        q = {"off": QUARTER_OFF, "own": QUARTER_OWN, "opponent": QUARTER_OPPONENT}
        p = {"off": PRIME_OFF, "must_open": PRIME_MUST_OPEN, "forbid": PRIME_FORBID}
        return (self.game, self.must_play_higher, q[self.starting_quarter_rule],
                p[self.prime_rule])


__all__ = ["Rules", "OPTIONS", "Option"]
