"""A new game of any kind from its rules: what the interfaces call to start one.

>>> from tavli.engine.catalog import rules_for
>>> type(new_game(rules_for("fevga"))).__name__, type(new_game(rules_for("italian"))).__name__
('Game', 'DamaGame')
"""

from __future__ import annotations

from typing import Any

from tavli.engine.catalog import AnyRules
from tavli.engine.dama.rules import DamaRules
from tavli.play.dama.game import DamaGame
from tavli.play.game import Game

#: a game of any kind: with dice, or Dama
AnyGame = Game | DamaGame


def new_game(rules: AnyRules, **settings: Any) -> AnyGame:
    """A game played by ``rules`` from its start; ``settings`` go to the game's class
    (``seed``, ``dice`` for a game with dice; ``start`` for Dama)."""
    if isinstance(rules, DamaRules):
        return DamaGame(rules, **settings)
    return Game(rules, **settings)


__all__ = ["AnyGame", "new_game"]
