"""The board of terminal play, drawn with rich: points, bar, trays and the checkers on them.

The board is drawn from white's side of the table, as in :mod:`tavli.engine.render`: white's
points 13-24 along the top from left to right, 12-1 along the bottom, white's home at
the bottom right, the bar in the middle and the borne-off trays on the right. The point
numbers printed above and below are those of the side given as the viewer. Also here: a
move's points for highlighting and in the other side's numbering.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from tavli.tui.words import side as side_name

if TYPE_CHECKING:
    from tavli.engine.board import Move, Position

# --- look -------------------------------------------------------------------------------

# colours of the xterm 256-colour palette, so that they look the same everywhere
FRAME = "#875f00"          # wood: frame, bar and trays
FELT = "#d7af87"           # the playing surface between the points
POINT_BG = ("#af0000", "#008700")   # dark red and dark green points, alternating
CHECKER = ("bold #ffffff", "bold #000000")
PIN_BG = "#d75f00"
DICE_STYLE = ("bold #000000 on #eeeeee", "bold #eeeeee on #1c1c1c")
HALF_ROWS = 5
CW = 3                     # width of a point column
TRAY_W = 5
BOARD_W = 1 + CW * 12 + TRAY_W + 8    # the board's width on screen, margin included


# --- the board --------------------------------------------------------------------------

def _glyphs(console: Console) -> tuple[str, str]:
    """Checker glyphs for white and black: the same disc in two colours on a colour
    terminal, a hollow and a filled disc without colour."""
    return ("●", "●") if console.color_system else ("○", "●")


def _point_stack(pos: Position, p: int) -> tuple[list[int], int | None, int]:
    """Checkers on white's point ``p`` from the board's edge inward: a list of sides
    (a pinned checker first, under its pinners), the pinned side (or None), and the
    number of checkers of the side on top."""
    a = pos.array
    q = pos.variant.opponent_point(p)
    w, b = int(a[0, p]), int(a[1, q])
    if pos.variant.pins and w and b:
        if a[3, q]:
            return [1] + [0] * w, 1, w
        return [0] + [1] * b, 0, b
    if w:
        return [0] * w, None, w
    if b:
        return [1] * b, None, b
    return [], None, 0


class BoardView:
    """Draws positions as lines of rich :class:`Text` (about 50 columns wide, plus an
    optional panel of text to the right)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.colour = bool(console.color_system)
        self.disc = _glyphs(console)

    # cells -------------------------------------------------------------------------------
    def _point_cell(self, pos: Position, p: int, row: int, top: bool, k: int) -> Text:
        stack, pinned, count = _point_stack(pos, p)
        bg = POINT_BG[k % 2]
        n = len(stack)
        shown = stack if n <= HALF_ROWS else stack[:HALF_ROWS - 1]
        if row < len(shown):
            side = shown[row]
            if pinned is not None and row == 0:
                return Text(f"[{self.disc[side]}]", style=f"{CHECKER[side]} on {PIN_BG}")
            return Text(f" {self.disc[side]} ", style=f"{CHECKER[side]} on {bg}")
        if n > HALF_ROWS and row == HALF_ROWS - 1:
            return Text(f"{count:^{CW}}", style=f"{CHECKER[stack[-1]]} on {bg}")
        if not self.colour:
            return Text(" · " if row == 0 else "   ")
        # the point itself: a triangle from the edge toward the middle
        shape = ["███", "███", "▐█▌", " █ ", " ▼ " if top else " ▲ "][row]
        return Text(shape, style=f"{bg} on {FELT}")

    def _bar_cell(self, pos: Position, side: int, row: int) -> Text:
        """Checkers of ``side`` on the bar, stacked from the middle outward."""
        n = pos.bar(side)
        k = HALF_ROWS - 1 - row  # 0 = next to the middle
        style = f"{CHECKER[side]} on {FRAME}"
        if n > HALF_ROWS and k == HALF_ROWS - 1:
            return Text(f"{n:^{CW}}", style=style)
        if k < min(n, HALF_ROWS):
            return Text(f" {self.disc[side]} ", style=style)
        return Text(" " * CW, style=f"on {FRAME}")

    def _tray_cell(self, pos: Position, side: int, row: int) -> Text:
        """Borne-off checkers of ``side``, seen edge-on, three to a row from the edge."""
        n = pos.off(side)
        here = max(0, min(3, n - 3 * row))
        mark = "▮" if self.colour or side == 1 else "▯"
        text = " " + mark * here + " " * (3 - here) + " "
        return Text(text, style=f"{CHECKER[side]} on {FRAME}")

    # whole board -------------------------------------------------------------------------
    def lines(self, pos: Position, view: int, dice: tuple[int, int] | None = None,
              dice_side: int | None = None, cube: tuple[int, int | None] | None = None,
              marks: set[int] | None = None) -> list[Text]:
        """The board as text lines. ``view``: whose point numbers to print; ``marks``:
        white's points to highlight in the number rows (the last move)."""
        variant = pos.variant
        top = list(range(13, 25))
        bottom = list(range(12, 0, -1))
        marks = marks or set()

        def label(p: int) -> int:
            return p if view == 0 else variant.opponent_point(p)

        def numbers(pts: list[int]) -> Text:
            t = Text("  ")
            for i, p in enumerate(pts):
                if i == 6:
                    t.append(" " * (CW + 2))
                style = "bold reverse" if p in marks else "bold"
                t.append(f"{label(p):^{CW}}", style=style)
            return t

        def border(left: str, mid: str, right: str, tray: str, edge: str) -> Text:
            t = Text(" ")
            if self.colour:  # a solid wooden edge, half a line high
                t.append(edge * (CW * 12 + TRAY_W + 8), style=FRAME)
                return t
            seg = "─" * (CW * 6)
            t.append(left + seg + mid + "─" * CW + mid + seg + tray + "─" * TRAY_W + right)
            return t

        out = [numbers(top), border("┌", "┬", "┐", "┬", "▄")]
        wall = Text("│", style=f"{FRAME} on {FRAME}" if self.colour else "")
        for half, pts in (("top", top), ("bottom", bottom)):
            rows = range(HALF_ROWS) if half == "top" else range(HALF_ROWS - 1, -1, -1)
            for row in rows:
                t = Text(" ")
                t.append_text(wall)
                for i, p in enumerate(pts):
                    if i == 6:
                        t.append_text(wall)
                        # white's bar checkers wait over black's home (top), black's below
                        t.append_text(self._bar_cell(pos, 0 if half == "top" else 1, row))
                        t.append_text(wall)
                    k = (i + (0 if half == "top" else 1)) % 2
                    t.append_text(self._point_cell(pos, p, row, half == "top", k))
                t.append_text(wall)
                t.append_text(self._tray_cell(pos, 1 if half == "top" else 0, row))
                t.append_text(wall)
                out.append(t)
            if half == "top":
                out.append(self._middle(dice, dice_side, cube, wall))
        out.append(border("└", "┴", "┘", "┴", "▀"))
        out.append(numbers(bottom))
        return out

    def _middle(self, dice: tuple[int, int] | None, dice_side: int | None,
                cube: tuple[int, int | None] | None, wall: Text) -> Text:
        felt = f"on {FELT}" if self.colour else ""
        half_w = CW * 6

        def half(with_dice: bool) -> Text:
            if not with_dice or dice is None:
                return Text(" " * half_w, style=felt)
            style = DICE_STYLE[dice_side or 0]
            high, low = max(dice), min(dice)
            body = Text()
            body.append(f" {high} ", style=style)
            body.append("  ", style=felt)
            body.append(f" {low} ", style=style)
            pad = half_w - len(body)
            t = Text(" " * (pad // 2), style=felt)
            t.append_text(body)
            t.append(" " * (pad - pad // 2), style=felt)
            return t

        t = Text(" ")
        t.append_text(wall)
        t.append_text(half(dice_side == 1))
        t.append_text(wall)
        t.append("BAR", style=f"dim on {FRAME}" if self.colour else "dim")
        t.append_text(wall)
        t.append_text(half(dice_side != 1))
        t.append_text(wall)
        if cube is not None:
            value, owner = cube
            arrow = {None: " ", 0: "▼", 1: "▲"}[owner]
            t.append(f"{arrow}{value:<2}".center(TRAY_W), style="bold #000000 on #f4f4f4")
        else:
            t.append(" " * TRAY_W, style=f"on {FRAME}" if self.colour else "")
        t.append_text(wall)
        return t


# --- moves and sides in words -----------------------------------------------------------

def side_label(side: int, disc: tuple[str, str]) -> str:
    """A side's name and checker (``white ●``) in the session's language, as prompts
    address it."""
    return f"{side_name(side)} {disc[side]}"


def translate(move: Move) -> str:
    """A move's points in the other side's numbering, with arrows (for the viewer)."""
    variant = move.before.variant

    def sub(m: re.Match[str]) -> str:
        n = int(m.group(0))
        return str(variant.opponent_point(n)) if 1 <= n <= 24 else m.group(0)

    out = []
    for tok in str(move).split():
        base, rep = (tok.split("(", 1) + [""])[:2]
        text = re.sub(r"\d+", sub, base).replace("/", "→")
        out.append(text + (f"({rep}" if rep else ""))
    return " ".join(out)


def move_marks(move: Move | None) -> set[int]:
    """White's points a move started from or finally reached (for highlighting)."""
    if move is None:
        return set()
    side = move.before.turn
    variant = move.before.variant
    pts = set()
    for tok in str(move).split():
        ends = re.findall(r"\d+|bar|off", tok.split("(")[0])
        for p in (ends[0], ends[-1]):
            if p.isdigit() and 1 <= int(p) <= 24:
                pts.add(int(p) if side == 0 else variant.opponent_point(int(p)))
    return pts

