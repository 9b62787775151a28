"""What the page's menus offer, read from the registries (``GET /api/info``): the games
of :mod:`tavli.engine.games` with their names for people, the matches that rotate through
several of them, the AI's levels. The page fills its New game and Games menus from it;
the API's requests take their choices from the same registry (:func:`check_kind`).

>>> out = registry_info()
>>> [g["name"] for g in out["games"]], out["rotations"][0]["games"]
(['portes', 'plakoto', 'fevga', 'backgammon'], ['portes', 'plakoto', 'fevga'])
>>> out["variants"][-1], out["levels"][-1], out["level_titles"]["worldclass"]
('tavli', 'worldclass', 'world class')
"""

from __future__ import annotations

from typing import Any

from tavli.engine.games import ROTATIONS, VARIANTS, games, match_kinds, menu_name

# how a level is written for people, when not as its name
LEVEL_TITLES = {"worldclass": "world class"}
#: Dama's name in the app's lists (``?variant=dama``: its games of every rule set)
DAMA = "dama"
#: Dama's rule sets as a new game's ``variant`` names them (``dama`` the box rules)
DAMA_VARIANTS = tuple(menu_name(v) for v in games()[DAMA])


def check_kind(name: str, *others: str) -> str:
    """``name`` if it is a game or a rotation a new game or match can be (the registry's
    :func:`tavli.engine.games.match_kinds`) or one of ``others``, else ValueError naming
    those."""
    kinds = [*match_kinds(), *others]
    if name not in kinds:
        raise ValueError(f"unknown game {name[:40]!r}: expected one of {', '.join(kinds)}")
    return name


def registry_info() -> dict[str, Any]:
    """The registries as the page needs them: ``variants`` (what a new game or match can
    be: every game, then every rotation), ``games`` (each game's ``name``, ``display``,
    ``summary``, ``note``, whether it uses the doubling ``cube`` and its ``opposite``
    numbering, :func:`tavli.web.steps.opposite`), ``rotations`` (``name``, ``display``,
    ``games``), ``levels`` (the AI's, weakest first), ``level_titles`` (each as people
    write it) and ``default_level``."""
    from tavli.ai.levels import DEFAULT_LEVEL, LEVELS
    from tavli.web.steps import opposite

    return {
        "variants": match_kinds(),
        "games": [{"name": v.name, "display": v.display, "summary": v.summary,
                   "note": v.note, "cube": v.cube, "opposite": opposite(v.name)}
                  for v in VARIANTS],
        "rotations": [{"name": name, "display": f"{name.capitalize()} match",
                       "games": list(games)} for name, games in ROTATIONS.items()],
        "levels": list(LEVELS),
        "level_titles": {name: LEVEL_TITLES.get(name, name) for name in LEVELS},
        "default_level": DEFAULT_LEVEL,
    }
