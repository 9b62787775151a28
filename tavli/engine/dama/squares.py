"""The squares' coordinates and names on the two boards (plain and Italian, mirrored).

Below both the board and the rule sets: a rule set names squares in its notation and a
position reads them, so neither imports the other for it.

>>> name(22, italian_board=False, algebraic=True), name(22, italian_board=True, algebraic=True)
('c3', 'd3')
"""

from __future__ import annotations

from tavli.engine.dama import movegen as mg

FILES = "abcdefgh"
_COORDS = {False: mg.square_coords(False), True: mg.square_coords(True)}
_BY_COORD = {it: {rc: i for i, rc in enumerate(c)} for it, c in _COORDS.items()}


def coords(square: int, italian_board: bool) -> tuple[int, int]:
    """``(rank, file)``, both 0-based from White's side and the a-file, of square 1..32."""
    return _COORDS[italian_board][square - 1]


def at(rank: int, file: int, italian_board: bool) -> int | None:
    """The square number on ``(rank, file)`` (0-based), or None for a light square."""
    i = _BY_COORD[italian_board].get((rank, file))
    return None if i is None else i + 1


def name(square: int, italian_board: bool, algebraic: bool = False) -> str:
    """``"22"`` or, with ``algebraic``, ``"c3"``."""
    if not algebraic:
        return str(square)
    rank, file = coords(square, italian_board)
    return f"{FILES[file]}{rank + 1}"
