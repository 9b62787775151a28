"""Dama (draughts): the game box's rules (``box``), Russian and Italian draughts, with a
compiled move generator, PDN, an AI and terminal play. See ``docs/dama.md``.

>>> from tavli.dama import DamaGame
>>> g = DamaGame("italian")
>>> len(g.legal_moves())
7
"""

from .board import DamaMove, Position, parse_square, square_name
from .game import DamaGame
from .pdn import read_pdn, read_pdn_games, write_pdn
from .rules import RULE_SETS, DamaRules

__all__ = ["DamaGame", "DamaMove", "DamaRules", "Position", "RULE_SETS", "parse_square",
           "read_pdn", "read_pdn_games", "square_name", "write_pdn"]
