"""Every game the research environments offer, by name: :func:`make_state`.

>>> make_state("plakoto", seed=1).num_actions
24430
>>> [name for name in GAMES]
['portes', 'plakoto', 'fevga', 'backgammon', 'backgammon-nocube', 'box', 'russian', 'italian']
>>> make_state("dama", huffing=False)
DamaState('box (huffing=False)', 'W:W21-32:B1-12', player=0)
"""

from __future__ import annotations

from typing import Any

from tavli.engine.dama.rules import DamaRules
from tavli.engine.games import find_game
from tavli.engine.games.dama import DamaVariant
from tavli.engine.rules import Rules
from tavli.errors import OptionError
from tavli.rl.base import GameState
from tavli.rl.dama import DamaState
from tavli.rl.state import TurnState

#: the environments' game names and the rule options each adds to the game's defaults
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "portes": ("portes", {}),
    "plakoto": ("plakoto", {}),
    "fevga": ("fevga", {}),
    "backgammon": ("backgammon", {}),
    "backgammon-nocube": ("backgammon", {"cube": False}),
    "box": ("box", {}),
    "russian": ("russian", {}),
    "italian": ("italian", {}),
}


def make_state(name: str, seed: int | None = None, chance: bool = False,
               **options: Any) -> GameState:
    """A new game called ``name`` (one of :data:`GAMES`, or any name or alias of a game
    with dice or of a Dama rule set, ``dama`` the box rules) with the rule ``options`` on
    top of its defaults. Dama has no dice: ``seed`` and ``chance`` change nothing there."""
    game, preset = GAMES.get(name, (name, {}))
    variant = find_game(game)
    if isinstance(variant, DamaVariant):
        return DamaState(DamaRules.for_game(variant, {**preset, **options}))
    return TurnState(game_rules(name, **options), seed=seed, chance=chance)


def game_rules(name: str, **options: Any) -> Rules:
    """The rules of the game with dice called ``name`` (as :func:`make_state` reads it)
    with the rule ``options`` on top of its defaults."""
    game, preset = GAMES.get(name, (name, {}))
    variant = find_game(game)
    if not variant.dice:
        raise OptionError(f"{name} is not a game with dice")
    return Rules.for_game(variant.name).with_options({**preset, **options})
