"""Draw the app's icons (web app manifest): a Tavli board's half with two checkers.

Writes ``tavli/web/static/icon-192.png``, ``icon-512.png`` (rounded square, transparent
corners) and ``icon-maskable-192.png``, ``icon-maskable-512.png`` (full bleed, the drawing
inside the central circle of 80 % that every mask keeps). Pure Python: the shapes are
sampled 3x3 per pixel and the PNG is written with :mod:`zlib` (no imaging library).
Run ``python scripts/make_icons.py``; the PNGs are committed.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tavli" / "web" / "static"
WOOD = (59, 36, 20)       # the page's header (#3b2414)
BOARD = (233, 211, 166)
RED = (150, 34, 34)
DARK = (47, 40, 34)
WHITE = (250, 246, 236)
BLACK = (30, 26, 23)
RIM = (120, 100, 80)

Colour = tuple[int, int, int]
Shape = Callable[[float, float], Colour | None]


def rounded(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    """Is ``(x, y)`` inside the rectangle ``x0..x1, y0..y1`` with corners of radius r?"""
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def drawing(maskable: bool) -> Shape:
    """The icon as a function of the unit square: the colour at ``(x, y)`` or None."""
    scale = 0.72 if maskable else 0.86   # the board within the safe zone when maskable
    lo, hi = 0.5 - scale / 2, 0.5 + scale / 2
    pad = 0.06 * scale

    def at(x: float, y: float) -> Colour | None:
        if maskable:
            background: Colour | None = WOOD
        else:
            background = WOOD if rounded(x, y, 0.02, 0.02, 0.98, 0.98, 0.2) else None
        if background is None:
            return None
        if not rounded(x, y, lo, lo, hi, hi, 0.05 * scale):
            return background
        bx0, by0, bx1, by1 = lo + pad, lo + pad, hi - pad, hi - pad
        if not (bx0 <= x <= bx1 and by0 <= y <= by1):
            return WOOD if maskable else (90, 58, 34)
        w = (bx1 - bx0) / 6
        h = by1 - by0
        # two checkers: white on the bottom row, black on the top row
        for cx, cy, colour in ((bx0 + 1.5 * w, by1 - 0.5 * w, WHITE),
                               (bx0 + 4.5 * w, by0 + 0.5 * w, BLACK)):
            d = math.hypot(x - cx, y - cy)
            if d <= 0.46 * w:
                return RIM if d > 0.40 * w else colour
        # six points above, six below, the colours alternating
        i = min(int((x - bx0) / w), 5)
        u = (x - bx0) / w - i                 # 0..1 across the point
        half = abs(u - 0.5) * 2               # 0 at its middle, 1 at its edges
        depth = 0.42 * h
        top = (y - by0) <= depth * (1 - half)
        bottom = (by1 - y) <= depth * (1 - half)
        if top:
            return RED if i % 2 == 0 else DARK
        if bottom:
            return DARK if i % 2 == 0 else RED
        return BOARD

    return at


def render(size: int, shape: Shape, samples: int = 3) -> bytes:
    """RGBA rows of the icon, each pixel the mean of ``samples``² points of ``shape``."""
    rows = bytearray()
    n = samples * samples
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            r = g = b = a = 0
            for sy in range(samples):
                for sx in range(samples):
                    c = shape((px + (sx + 0.5) / samples) / size,
                              (py + (sy + 0.5) / samples) / size)
                    if c is not None:
                        r, g, b, a = r + c[0], g + c[1], b + c[2], a + 1
            if a:
                rows += bytes((r // a, g // a, b // a, 255 * a // n))
            else:
                rows += b"\0\0\0\0"
    return bytes(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    """A PNG file (8-bit RGBA) of ``size``×``size`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rgba_rows, 9)) + chunk(b"IEND", b""))


def main() -> int:
    """Write the four icons."""
    for maskable in (False, True):
        for size in (192, 512):
            name = f"icon-{'maskable-' if maskable else ''}{size}.png"
            (OUT / name).write_bytes(png(size, render(size, drawing(maskable))))
            print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
