"""Rule options: what an option is, and the registry of every option by name.

Below the variants and the rules: the options several games share are declared here; a
variant that brings an option of its own declares it in its class (``Variant.declares``)
and :func:`tavli.engine.games.register_variant` adds it to :data:`OPTIONS`, so adding a
rule option of one game touches that game's variant only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

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


#: every rule option by name: the shared ones below, and those a variant declares itself
#: (``Variant.declares``), added when it is registered
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


def declare(options: tuple[Option, ...], owner: str) -> None:
    """Add the options a variant declares (``owner``: its name) to :data:`OPTIONS`; a
    name already taken by another option is refused."""
    for o in options:
        known = OPTIONS.get(o.name)
        if known is not None and known != o:
            raise ValueError(f"{owner}: rule option {o.name!r} is already declared")
    for o in options:
        OPTIONS[o.name] = o


def withdraw(options: tuple[Option, ...]) -> None:
    """Remove options a variant declared (when it is unregistered)."""
    for o in options:
        OPTIONS.pop(o.name, None)


_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


def convert(opt: Option, value: Any) -> Any:
    """``value`` as option ``opt`` takes it (``"on"`` → True, a choice in lower case);
    RuleError for a value it does not take."""
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


def option_pairs(options: Mapping[str, Any] | Iterable[str]) -> dict[str, Any]:
    """Options by name from a mapping or from ``NAME=VALUE`` strings (the command line's
    form); RuleError for a malformed item or a name no game declares."""
    if isinstance(options, Mapping):
        pairs = dict(options)
    else:
        pairs = {}
        for item in options:
            if not isinstance(item, str) or "=" not in item:
                raise RuleError(f"rule option must be written NAME=VALUE, got {item!r}")
            name, value = item.split("=", 1)
            pairs[name.strip()] = value
    for name in pairs:
        if name not in OPTIONS:
            raise RuleError(
                f"unknown rule option {name!r}; known: {', '.join(sorted(OPTIONS))}"
            )
    return pairs
