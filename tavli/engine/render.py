"""Plain-text drawing of a position (``str(position)``), from white's side of the table.

Top row: white's points 13..24 left to right; bottom row: white's points 12..1. Each
point shows its checkers as ``X`` (white) or ``O`` (black) with a count; a pinned checker
is shown in lower case under the pinner (Plakoto).
"""

from __future__ import annotations

from tavli.engine.layout import SIDE_NAMES
from tavli.engine.view import PositionView


def cell(pos: PositionView, p: int) -> str:
    """Two-character cell for white's point ``p``: e.g. ``X5``, ``O2``, ``Xo`` (X pinning
    an o), blank ``. ``."""
    a = pos.array
    q = pos.variant.opponent_point(p)
    w, b = int(a[0, p]), int(a[1, q])
    if w and b:
        if a[3, q]:
            return f"X{w}o" if w > 1 else "Xo"
        return f"O{b}x" if b > 1 else "Ox"
    if w:
        return f"X{w}"
    if b:
        return f"O{b}"
    return ". "


def ascii_board(pos: PositionView) -> str:
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))

    def row(pts: list[int]) -> str:
        cells = [f"{cell(pos, p):>4}" for p in pts]
        return "".join(cells[:6]) + " |" + "".join(cells[6:])

    lines = [
        f"{pos.game_name}  {SIDE_NAMES[pos.turn]} ({'XO'[pos.turn]}) to move",
        "".join(f"{p:>4}" for p in top[:6]) + "  " + "".join(f"{p:>4}" for p in top[6:]),
        row(top),
        row(bottom),
        "".join(f"{p:>4}" for p in bottom[:6]) + "  " + "".join(f"{p:>4}" for p in bottom[6:]),
        f"bar X{pos.bar(0)} O{pos.bar(1)}   off X{pos.off(0)} O{pos.off(1)}   "
        f"pips X{pos.pip_count(0)} O{pos.pip_count(1)}   id {pos.id()}",
    ]
    return "\n".join(lines)
