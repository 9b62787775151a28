"""The rules of any game by its name: the one entry point above the two kinds of rules.

The registry (:mod:`tavli.engine.games`) lists every game and rule set; this module
turns a name (resolved once) and its options into the rules that game is played by —
:class:`~tavli.engine.rules.Rules` for a game with dice, :class:`~tavli.engine.dama.rules.
DamaRules` for Dama — both with ``variant``, ``options()``, ``to_dict()`` and
``with_options()``.

>>> rules_for("tapa")
Rules('plakoto')
>>> rules_for("dama", ["huffing=false"])
DamaRules(name='box', huffing=False)
>>> rules_from_dict({"game": "russian"}).variant.display
'Russian draughts'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tavli.engine.dama.rules import DamaRules
from tavli.engine.games import BaseVariant, find_game
from tavli.engine.rules import Rules
from tavli.errors import RuleError

#: the rules of some game: with dice, or Dama's
AnyRules = Rules | DamaRules


def rules_for(game: str | BaseVariant,
              options: Mapping[str, Any] | Iterable[str] | None = None) -> AnyRules:
    """The rules of ``game`` (any name the registry knows, or its variant): its defaults,
    then ``options`` (a mapping, or ``NAME=VALUE`` strings as on the command line)."""
    v = find_game(game)
    if v.dice:
        return Rules.for_game(v, options)  # type: ignore[arg-type]
    return DamaRules.for_game(v, options)  # type: ignore[arg-type]


def rules_from_dict(data: Mapping[str, Any]) -> AnyRules:
    """The rules a ``to_dict()`` wrote (``{"game": NAME, OPTION: VALUE...}``), of any game;
    RuleError for anything else."""
    if not isinstance(data, Mapping) or "game" not in data:
        raise RuleError("rules must be an object with a 'game' field")
    return rules_for(data["game"], {k: v for k, v in data.items() if k != "game"})


__all__ = ["AnyRules", "rules_for", "rules_from_dict"]
