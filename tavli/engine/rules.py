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
from dataclasses import dataclass, fields, replace
from typing import Any

from tavli.engine.games import Variant, find_variant, lookup
from tavli.engine.games.base import option_games
from tavli.engine.options import OPTIONS, Option, convert, option_pairs
from tavli.errors import RuleError


def option_applies(name: str, game: str | int | Variant) -> bool:
    """Does the rule option ``name`` exist in ``game``?

    >>> option_applies("prime_rule", "narde"), option_applies("prime_rule", "portes")
    (True, False)
    """
    v = game if isinstance(game, Variant) else lookup(game)
    return name in OPTIONS and v is not None and name in v.options


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
    #: the values of options a variant declares itself (``Variant.declares``), as sorted
    #: ``(name, value)`` pairs; read them as attributes (``rules.nack_start``)
    extra: tuple[tuple[str, Any], ...] = ()

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
        given = dict(self.extra)
        extra = {}
        for name, opt in OPTIONS.items():
            declared = name not in _FIELDS
            value = given.pop(name, None) if declared else getattr(self, name)
            if value is None:
                value = v.options.get(name, opt.neutral)
            if name not in v.options:
                if value != opt.neutral:
                    raise RuleError(f"rule option {name!r} applies to "
                                    f"{', '.join(option_games(name))} only, not {v.name}")
            elif not isinstance(value, opt.kind) or (opt.choices and value not in
                                                     opt.choices):
                value = convert(opt, value)
            if not declared:
                object.__setattr__(self, name, value)
            elif name in v.options:
                extra[name] = value
        if given:
            raise RuleError(f"unknown rule option {next(iter(given))!r}")
        object.__setattr__(self, "extra", tuple(sorted(extra.items())))

    def __getattr__(self, name: str) -> Any:
        """The value of an option the game's variant declares itself."""
        for key, value in self.__dict__.get("extra", ()):
            if key == name:
                return value
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

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
        changes = {}
        for name, value in option_pairs(options).items():
            opt = OPTIONS[name]
            if name not in self.variant.options:
                raise RuleError(f"rule option {name!r} applies to "
                                f"{', '.join(option_games(name))} only, not {self.game_name}")
            changes[name] = convert(opt, value)
        extra = {**dict(self.extra), **{k: v for k, v in changes.items() if k not in _FIELDS}}
        fields = {k: v for k, v in changes.items() if k in _FIELDS}
        return replace(self, **fields, extra=tuple(sorted(extra.items())))

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


#: the options every Rules holds as its own fields (the others live in ``Rules.extra``)
_FIELDS = frozenset(f.name for f in fields(Rules)) - {"game", "extra"}


__all__ = ["Rules", "OPTIONS", "Option", "option_applies", "option_games"]
