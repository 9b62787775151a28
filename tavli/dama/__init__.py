"""Dama (draughts): the game box's rules (``box``), Russian and Italian draughts, with a
compiled move generator, PDN, an AI and terminal play. See ``docs/dama.md``.

>>> from tavli.dama import DamaGame
>>> g = DamaGame("italian")
>>> len(g.legal_moves())
7
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tavli.engine.dama.board import DamaMove, Position, parse_square, square_name
    from tavli.engine.dama.rules import RULE_SETS, DamaRules
    from tavli.play.dama.game import DamaGame
    from tavli.play.dama.pdn import read_pdn, read_pdn_games, write_pdn

# imported on first use: the board loads Numba, and ``tavli --help`` reaches this package
_HOME = {
    **{n: "tavli.engine.dama.board"
       for n in ("DamaMove", "Position", "parse_square", "square_name")},
    **{n: "tavli.play.dama.game" for n in ("DamaGame",)},
    **{n: "tavli.play.dama.pdn" for n in ("read_pdn", "read_pdn_games", "write_pdn")},
    **{n: "tavli.engine.dama.rules" for n in ("RULE_SETS", "DamaRules")},
}

__all__ = ["DamaGame", "DamaMove", "DamaRules", "Position", "RULE_SETS", "parse_square",
           "read_pdn", "read_pdn_games", "square_name", "write_pdn"]


def __getattr__(name: str):
    if name in _HOME:
        value = getattr(import_module(_HOME[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
