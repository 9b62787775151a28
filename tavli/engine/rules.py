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

from tavli.engine.games import Variant, find_variant
from tavli.errors import RuleError


@dataclass(frozen=True)
class Option:
    """A rule option: its name, type, documentation and the value it has in a game that
    does not use it (``neutral``). Which games use it, and their defaults, the games say
    (``Variant.options``)."""

    name: str
    kind: type
    neutral: Any
    doc: str
    choices: tuple[str, ...] = ()

    @property
    def games(self) -> tuple[str, ...]:
        """The registered games that have this option."""
        from tavli.engine.games import VARIANTS

        return tuple(v.name for v in VARIANTS if self.name in v.options)


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option(
            "must_play_higher", bool, False,
            "When only one die of a non-double can be played, the higher one must be "
            "played if it can be. Off in Portes and Plakoto (free choice, German seed).",
        ),
        Option(
            "opening_reroll", bool, True,
            "After the opening throw (one die each, higher starts) the starter throws both "
            "dice for his first turn (Tavli custom). Off: the two opening dice are the "
            "first move (international backgammon).",
        ),
        Option(
            "backgammons", bool, False,
            "3 points when the loser has borne off none and still has a checker on the bar "
            "or in the winner's home board.",
        ),
        Option(
            "starting_quarter_rule", str, "off",
            "Fevga: no turn may end holding all six points of the player's own starting "
            "quarter ('own'), of the opponent's ('opponent'), or no such rule ('off').",
            ("own", "opponent", "off"),
        ),
        Option(
            "prime_rule", str, "off",
            "Fevga six-prime with every opposing checker directly behind it: the holder "
            "must free the opponent next turn if he can ('must_open'), may never end a "
            "turn so ('forbid'), or no rule ('off').",
            ("must_open", "forbid", "off"),
        ),
        Option(
            "cube", bool, False,
            "Backgammon: play with the doubling cube.",
        ),
        Option(
            "crawford", bool, False,
            "Backgammon match play: no doubling in the game after a player first reaches "
            "match point minus one.",
        ),
        Option(
            "jacoby", bool, False,
            "Backgammon money play: gammons and backgammons count only after a double.",
        ),
        Option(
            "beavers", bool, False,
            "Backgammon money play: a player who is doubled may redouble at once, keeping "
            "the cube.",
        ),
    )
}


def option_applies(name: str, game: str | int | Variant) -> bool:
    """Does the rule option ``name`` exist in ``game``?

    >>> option_applies("prime_rule", "narde"), option_applies("prime_rule", "portes")
    (True, False)
    """
    return name in OPTIONS and name in find_variant(game).options


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


@dataclass(frozen=True, repr=False)
class Rules:
    """The rules a game is played by: the game and the value of each option.

    ``Rules("backgammon")`` or ``Rules.for_game("tapa", ["must_play_higher=true"])``: the
    game's defaults, then the options given. Options that do not apply to the game keep
    their neutral value and cannot be set. ``game`` is the variant's code
    (:attr:`variant` is the variant itself). The repr names the game and the options that
    differ from its defaults:

    >>> Rules("backgammon", jacoby=True)
    Rules('backgammon', jacoby=True)
    >>> Rules.for_game("tapa", ["must_play_higher=true"])
    Rules('plakoto', must_play_higher=True)
    """

    game: int
    # None: the game's default (or the neutral value of an option it does not have)
    must_play_higher: bool = None  # type: ignore[assignment]
    opening_reroll: bool = None  # type: ignore[assignment]
    backgammons: bool = None  # type: ignore[assignment]
    starting_quarter_rule: str = None  # type: ignore[assignment]
    prime_rule: str = None  # type: ignore[assignment]
    cube: bool = None  # type: ignore[assignment]
    crawford: bool = None  # type: ignore[assignment]
    jacoby: bool = None  # type: ignore[assignment]
    beavers: bool = None  # type: ignore[assignment]

    @classmethod
    def for_game(
        cls,
        game: str | int,
        options: Mapping[str, Any] | Iterable[str] | None = None,
    ) -> Rules:
        """The spec's defaults for ``game``, then ``options`` (a mapping, or
        ``NAME=VALUE`` strings as on the command line)."""
        base = cls(find_variant(game).code)
        return base.with_options(options) if options else base

    def __post_init__(self) -> None:
        v = find_variant(self.game)  # a code or, as in Rules("backgammon"), a name
        object.__setattr__(self, "game", v.code)
        object.__setattr__(self, "_variant", v)
        for name, opt in OPTIONS.items():
            value = getattr(self, name)
            if value is None:
                value = v.options.get(name, opt.neutral)
                object.__setattr__(self, name, value)
            if name not in v.options:
                if value != opt.neutral:
                    raise RuleError(f"rule option {name!r} applies to "
                                    f"{', '.join(opt.games)} only, not {v.name}")
            elif not isinstance(value, opt.kind) or (opt.choices and value not in
                                                     opt.choices):
                object.__setattr__(self, name, _convert(opt, value))

    def __repr__(self) -> str:
        changed = "".join(f", {name}={value!r}" for name, value in self.options().items()
                          if value != self.variant.options[name])
        return f"Rules({self.game_name!r}{changed})"

    @property
    def variant(self) -> Variant:
        """The game these rules are for."""
        return self.__dict__["_variant"]

    @property
    def game_name(self) -> str:
        """The game's name (``"portes"``, ``"backgammon"``...)."""
        return self.variant.name

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
            if name not in self.variant.options:
                raise RuleError(f"rule option {name!r} applies to {', '.join(opt.games)} "
                                f"only, not {self.game_name}")
            changes[name] = _convert(opt, value)
        return replace(self, **changes)

    def options(self) -> dict[str, Any]:
        """The options that apply to this game, by name (what records store)."""
        return {name: getattr(self, name) for name in OPTIONS if name in self.variant.options}

    def to_dict(self) -> dict[str, Any]:
        """The game's name and its options (what records and the web API hold)."""
        return {"game": self.game_name, **self.options()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """The rules :meth:`to_dict` wrote (options left out take the game's defaults);
        :class:`~tavli.errors.RuleError` for anything else."""
        if not isinstance(data, Mapping) or "game" not in data:
            raise RuleError("rules must be an object with a 'game' field")
        rest = {k: v for k, v in data.items() if k != "game"}
        return cls.for_game(data["game"], rest)

    # flags handed to compiled code
    def kernel_flags(self) -> tuple[int, int, int, int, int]:
        """The rules as compiled code takes them, one tuple (indices ``F_*`` of
        :mod:`tavli.engine.games.kernel`): the variant's rule set, must-play-higher, the Fevga
        starting-quarter and prime codes, and whether backgammons count."""
        flags = self.__dict__.get("_flags")
        if flags is None:
            from tavli.engine.games.kernel import rule_flags

            flags = self.__dict__["_flags"] = rule_flags(
                self.variant.kernel, self.must_play_higher, self.starting_quarter_rule,
                self.prime_rule, self.backgammons)
        return flags


__all__ = ["Rules", "OPTIONS", "Option", "option_applies"]
