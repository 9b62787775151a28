"""Every game the research environments offer, by name: :func:`make_state`.

>>> make_state("plakoto", seed=1).num_actions
24430
>>> [name for name in GAMES][:5]
['portes', 'plakoto', 'fevga', 'backgammon', 'backgammon-nocube']
"""

from __future__ import annotations

from typing import Any

from tavli.engine.games import find_game
from tavli.engine.rules import Rules
from tavli.errors import OptionError
from tavli.rl.base import GameState
from tavli.rl.state import TurnState

#: the environments' game names and the rule options each adds to the game's defaults
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "portes": ("portes", {}),
    "plakoto": ("plakoto", {}),
    "fevga": ("fevga", {}),
    "backgammon": ("backgammon", {}),
    "backgammon-nocube": ("backgammon", {"cube": False}),
}


def make_state(name: str, seed: int | None = None, chance: bool = False,
               **options: Any) -> GameState:
    """A new game called ``name`` (one of :data:`GAMES`, or any name or alias of a game
    with dice) with the rule ``options`` on top of its defaults."""
    game, preset = GAMES.get(name, (name, {}))
    variant = find_game(game)
    if not variant.dice:
        raise OptionError(f"{name} has no research environment yet")
    rules = Rules.for_game(variant.name).with_options({**preset, **options})
    return TurnState(rules, seed=seed, chance=chance)
