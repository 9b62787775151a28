"""Terminal play (``tavli play --tui``): a coloured board drawn with rich, typed moves.

The board is drawn from white's side of the table, as in :mod:`tavli.render`: white's
points 13-24 along the top from left to right, 12-1 along the bottom, white's home at
the bottom right, the bar in the middle and the borne-off trays on the right. The point
numbers printed above and below are those of the player who types the moves (the human
side against a bot; in hot-seat play, the side to act), so a move is typed exactly as
the numbers read.

Input is read with ``console.input`` (standard input), one line at a time: a move in
notation (``24/18 13/11``) or its number in the list, or a command (``help``). A move is
shown on the board and played when confirmed with Enter (``undo`` takes it back). End of
input quits cleanly; with ``--save`` the game is saved after every action.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from .dice import DiceSource, dice_text
from .errors import CliError, RuleError, TavliError
from .history import Opening, Roll
from .layout import SIDE_NAMES

if TYPE_CHECKING:
    from .board import Move, Position
    from .game import Game
    from .match import Match
    from .players import Player

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
MOVES_SHOWN = 12
HINTS_SHOWN = 5
BOARD_W = 1 + CW * 12 + TRAY_W + 8    # the board's width on screen, margin included
PANEL_W = 2 + 28                        # the text beside it

HELP = """\
Type a move in notation with your own point numbers (those printed on the board):
24/18 13/11, bar/22*, 6/off, 8/4(2); or type the move's number in the list.
The move is shown on the board: Enter plays it, undo takes it back (or type another).
Commands:
  moves          list every legal move
  hint           the AI's best moves for your roll, with their equities
  undo           take back the move you entered (before you confirm it)
  board          draw the board again
  double         offer the doubling cube (backgammon, before rolling)
  take, drop     answer a double
  resign [V]     give up the game (V: single, gammon or backgammon where they count)
  save [FILE]    save the game (to FILE, or the --save file)
  quit           stop playing (the game is saved first when --save is on)
  help           this text
End of input (Ctrl-D) quits like 'quit'."""
CONFIRM = ("", "y", "yes", "ok", "confirm", "play")


class _Quit(Exception):
    """The user asked to stop (quit, end of input, Ctrl-C)."""


class _Resigned(Exception):
    """The game ended by resignation (the turn in progress is over)."""


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


# --- the session ------------------------------------------------------------------------

def _side_label(side: int, disc: tuple[str, str]) -> str:
    return f"{SIDE_NAMES[side]} {disc[side]}"


def _translate(move: Move) -> str:
    """A move's points in the other side's numbering, with arrows (for the viewer)."""
    import re

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


def _move_marks(move: Move | None) -> set[int]:
    """White's points a move started from or finally reached (for highlighting)."""
    import re

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


class TerminalSession:
    """A game or match being played in the terminal."""

    def __init__(self, console: Console, obj: Game | Match, players: list[Player | None],
                 save_path: Path | None, seed: int | None) -> None:
        self.console = console
        self.obj = obj
        self.players = players
        self.save_path = save_path
        self.seed = seed
        self.view = BoardView(console)
        self.disc = self.view.disc
        self.last_move: Move | None = None

    # state -------------------------------------------------------------------------------
    @property
    def match(self) -> Match | None:
        from .match import Match

        return self.obj if isinstance(self.obj, Match) else None

    @property
    def game(self) -> Game:
        m = self.match
        return m.game if m is not None else self.obj  # type: ignore[return-value]

    def player_name(self, side: int) -> str:
        """The player as the save file and the command line name it (``neural:expert``)."""
        p = self.players[side]
        return "human" if p is None else p.name

    def player_label(self, side: int, long: bool = False) -> str:
        """Who plays ``side`` in this game, for people: the AI and its level, or the
        greedy heuristic where no trained network ships for the game."""
        from .ai.neural import LevelPlayer

        p = self.players[side]
        if not isinstance(p, LevelPlayer):
            return self.player_name(side)
        if p.engine(self.game.rules.game) is p.neural:
            level = f"{p.level}-ply" if p.level.isdigit() else p.level
            return f"neural AI, level {level}" if long else f"neural, {level}"
        if long:
            return (f"greedy AI: no trained network for {self.game.rules.game_name} "
                    "is installed")
        return "greedy (no net)"

    def humans(self) -> list[int]:
        return [s for s in (0, 1) if self.players[s] is None]

    def viewer(self) -> int:
        h = self.humans()
        if len(h) == 1:
            return h[0]
        if len(h) == 2:
            return self.game.turn
        return 0

    def record(self) -> dict[str, Any]:
        from .record import game_record, match_record

        m = self.match
        rec = match_record(m) if m is not None else game_record(self.game, self.seed)
        tui: dict[str, Any] = {"white": self.player_name(0), "black": self.player_name(1)}
        rec["tui"] = tui
        return rec

    def save(self, path: Path | None = None, quiet: bool = True) -> None:
        """Write the record to ``path`` (default: the --save file); OSError on failure."""
        from .record import save

        target = path or self.save_path
        if target is None:
            return
        save(self.record(), target)
        if not quiet:
            self.say(f"Saved to {target}.", "green")

    def autosave(self) -> None:
        """Save after an action; a failure is reported and play goes on."""
        try:
            self.save()
        except OSError as e:
            self.error(f"could not save to {self.save_path}: {e.strerror or e}")

    # output ------------------------------------------------------------------------------
    def say(self, text: str, style: str = "") -> None:
        # long lines are left to the terminal to wrap (and stay whole in logs)
        self.console.print(Text(text, style=style), soft_wrap=True)

    def error(self, text: str) -> None:
        self.console.print(Text(f"  ✗ {text}", style="bold red"), soft_wrap=True)

    def title(self) -> str:
        g = self.game
        name = g.rules.game_name.capitalize()
        m = self.match
        if m is None:
            return f"{name} · single game"
        return f"{name} · game {len(m.games)}"

    def panel(self, final: bool = False, shown: Position | None = None) -> list[Text]:
        """The text beside the board; ``shown``: the position drawn (default the game's)."""
        g = self.game
        pos = g.position if shown is None else shown
        m = self.match
        lines: list[Text] = [Text(self.title(), style="bold")]
        if m is not None:
            kind = "Tavli match" if m.variant == "tavli" else "match"
            s = m.score
            lines.append(Text(f"{kind} to {m.target}: {s[0]}-{s[1]}"
                              + (" (Crawford)" if g.crawford else "")))
        else:
            lines.append(Text(""))
        lines.append(Text(""))
        for side in (0, 1):
            t = Text()
            t.append(f"{self.disc[side]} ", style=CHECKER[side] if self.view.colour else "")
            t.append(f"{SIDE_NAMES[side]:<6}", style="bold" if g.turn == side else "")
            t.append(f" pips {pos.pip_count(side):>3}  off {pos.off(side):>2}")
            lines.append(t)
        for side in (0, 1):
            lines.append(Text(f"  {SIDE_NAMES[side]}: {self.player_label(side)}", style="dim"))
        lines.append(Text(""))
        if final or g.is_over:
            out = g.outcome
            lines.append(Text("game over", style="bold"))
            if out is not None:
                lines.append(Text("a draw" if out.winner is None else
                                  f"{SIDE_NAMES[out.winner]} wins {out.points} ({out.kind})"))
        else:
            side = g.turn
            doing = {"roll": "to roll", "opening": "opening throw", "move": "to move",
                     "double": "to take or drop"}[g.phase]
            lines.append(Text(f"{SIDE_NAMES[side]} {doing}", style="bold"))
            if g.phase == "move" and g.dice is not None:
                lines.append(Text(f"dice {dice_text(g.dice)}"))
        if g.rules.cube:
            owner = "centred" if g.cube_owner is None else f"{SIDE_NAMES[g.cube_owner]}'s"
            lines.append(Text(f"cube {g.cube_value} ({owner})"))
        lines.append(Text(f"numbers: {SIDE_NAMES[self.viewer()]}'s side", style="dim"))
        if g.rules.variant.pins:
            lines.append(Text("[ ] = a pinned checker", style="dim"))
        if g.rules.variant.note:
            lines.append(Text(g.rules.variant.note, style="dim"))
        return lines

    def draw(self, final: bool = False, preview: Move | None = None) -> None:
        """The board and the panel; ``preview``: a move entered but not yet confirmed,
        drawn as played (with its points highlighted)."""
        g = self.game
        pos = g.position if preview is None else preview.after
        cube = (g.cube_value, g.cube_owner) if g.rules.cube else None
        dice = g.dice if g.phase == "move" else None
        board = self.view.lines(pos, self.viewer(), dice, g.position.turn, cube,
                                _move_marks(self.last_move if preview is None else preview))
        panel = self.panel(final, pos)
        side_by_side = (self.console.width or 80) >= BOARD_W + PANEL_W
        # beside the board, the panel starts on the frame's first line; below it on a
        # narrow terminal
        for i, line in enumerate(board):
            k = i - 1
            if side_by_side and 0 <= k < len(panel):
                line = line.copy()
                line.append("  ")
                line.append_text(panel[k])
            self.console.print(line, no_wrap=True, overflow="crop")
        if not side_by_side:
            for line in panel:
                if line.plain:
                    self.console.print(Text(" ").append_text(line), no_wrap=True,
                                       overflow="crop")

    def list_moves(self, moves: list[Move], limit: int | None = None) -> None:
        if not moves:
            return
        shown = moves if limit is None else moves[:limit]
        width = self.console.width or 80
        cells = [f"{i + 1:>3}. {m}" for i, m in enumerate(shown)]
        w = max(len(c) for c in cells) + 2
        cols = max(1, min(4, (width - 1) // w))
        rows = (len(cells) + cols - 1) // cols
        for r in range(rows):
            parts = [cells[r + c * rows] for c in range(cols) if r + c * rows < len(cells)]
            self.console.print("".join(f"{p:<{w}}" for p in parts).rstrip(), highlight=False)
        if len(shown) < len(moves):
            self.say(f"     … and {len(moves) - len(shown)} more: type 'moves' to list them "
                     "all", "dim")

    # input -------------------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        try:
            line = self.console.input(Text(prompt, style="bold"))
        except EOFError:
            self.console.print()
            raise _Quit from None
        except KeyboardInterrupt:
            self.console.print()
            raise _Quit from None
        return line.strip()

    def command(self, line: str) -> bool:
        """Run a command that works at any prompt; True when ``line`` was one."""
        words = line.split()
        if not words:
            return False
        cmd = words[0].lower()
        if cmd in ("quit", "exit", "q"):
            raise _Quit
        if cmd in ("help", "?", "h"):
            self.say(HELP)
            return True
        if cmd in ("board", "b"):
            self.draw()
            return True
        if cmd in ("moves", "m"):
            moves = self.game.legal_moves()
            if not moves:
                self.say("No moves to list now.")
            self.list_moves(moves)
            return True
        if cmd == "hint":
            self.hint()
            return True
        if cmd in ("undo", "u"):
            self.error("nothing to take back: undo takes back a move you entered, before "
                       "you confirm it with Enter")
            return True
        if cmd == "resign":
            if len(words) > 2:
                self.error("usage: resign [single|gammon|backgammon]")
                return True
            self.resign(words[1].lower() if len(words) == 2 else None)
            return True
        if cmd == "save":
            if len(words) > 2:
                self.error("usage: save [FILE]")
                return True
            path = Path(words[1]) if len(words) == 2 else self.save_path
            if path is None:
                self.error("no file to save to: type save FILE (or start with --save FILE)")
                return True
            if _replaces_another_file(path, self.save_path):
                self.error(f"{path} exists: choose another name (it was not changed)")
                return True
            try:
                self.save(path, quiet=False)
            except OSError as e:
                self.error(f"cannot save to {path}: {e.strerror or e}")
                return True
            if self.save_path is None:
                self.save_path = path
                self.say("From now on the game is saved there after every move.", "dim")
            return True
        return False

    def hint(self) -> None:
        """The best moves of the roll as the AI ranks them (``tavli hint``'s ranking)."""
        from .ai.neural import DEFAULT_LEVEL, LEVELS, rank_moves

        g = self.game
        if g.phase != "move" or g.dice is None:
            self.error("a hint ranks the moves of a roll: roll the dice first")
            return
        moves = g.legal_moves()
        if not moves:
            self.say(f"No legal move with {dice_text(g.dice)}: the turn passes.")
            return
        engine, ranked = rank_moves(g.rules, g.position, moves, DEFAULT_LEVEL)
        number = {str(m): k for k, m in enumerate(moves, 1)}
        if engine == "neural":
            ply = LEVELS[DEFAULT_LEVEL][0]
            self.say(f"Hint for {dice_text(g.dice)} (neural AI, {ply}-ply; cubeless "
                     "equity, best first):", "bold")
        else:
            self.say(f"Hint for {dice_text(g.dice)} (greedy heuristic: no trained network "
                     f"for {g.rules.game_name} is installed; score, best first):", "bold")
        shown = ranked[:HINTS_SHOWN]
        w = max(len(str(m)) for m, _ in shown)
        for m, value in shown:
            self.say(f"  {number[str(m)]:>3}. {str(m):<{w}}  {value:+.3f}")
        if len(ranked) > len(shown):
            self.say(f"     ({len(ranked) - len(shown)} more moves rank lower)", "dim")

    def resign(self, value: str | None) -> None:
        """The side to act gives up the game, if the opponent accepts what is offered
        (a computer player judges, a human is asked)."""
        from .ai.neural import accepts_resignation
        from .game import RESIGN_POINTS

        g = self.game
        if g.is_over:
            self.error("the game is over")
            return
        side = g.turn
        other = 1 - side
        values = g.resign_values()

        def worth(v: str) -> str:
            n = RESIGN_POINTS[v] * g.cube_value
            return f"{n} point{'s' if n != 1 else ''}"

        if value is None:  # ask, so that a slip of the keyboard loses nothing
            me = _side_label(side, self.disc)
            if len(values) == 1:
                line = self.ask(f"{me}: resign the game, giving {SIDE_NAMES[other]} "
                                f"{worth('single')}? yes or no > ").lower()
            else:
                kinds = " or ".join(f"{'a ' + v if v != 'single' else 'the game'} "
                                    f"({worth(v)})" for v in values)
                line = self.ask(f"{me}: resign {kinds}? {', '.join(values)} or no > ").lower()
            value = "single" if line in ("y", "yes") else line
            if value in ("", "n", "no"):
                self.say("Play goes on.", "dim")
                return
        if value not in values:
            self.error(f"resign {' or '.join(values)} here, not {value[:20]!r} "
                       "(play goes on)")
            return
        offer = f"{SIDE_NAMES[side]} resigns {'the game' if value == 'single' else 'a ' + value}"
        opponent = self.players[other]
        if opponent is None:
            line = self.ask(f"{offer}. {_side_label(other, self.disc)}: accept and win "
                            f"{worth(value)}? yes or no > ")
            accepted = line.lower() in ("y", "yes")
        else:
            accepted = accepts_resignation(g, side, value)
        if not accepted:
            who = "" if opponent is None else f" ({opponent.name})"
            self.say(f"{offer}; {SIDE_NAMES[other]}{who} declines: play goes on.", "bold")
            return
        g.resign(side, value)
        self.last_move = None
        self.autosave()
        self.say(f"{offer}; {SIDE_NAMES[other]} accepts and wins {worth(value)}.", "bold")
        raise _Resigned

    def cube_command(self, cmd: str) -> bool | None:
        """double/take/drop/beaver: True when it was done, False when the engine refused
        (its message is shown), None when ``cmd`` is not a cube command."""
        g = self.game
        side = g.turn
        action = {"double": g.double, "take": g.take, "drop": g.drop,
                  "beaver": g.beaver}.get(cmd)
        if action is None:
            return None
        try:
            action()
        except TavliError as e:
            self.error(str(e))
            return False
        self.autosave()
        if cmd == "double":
            self.say(f"{SIDE_NAMES[side]} doubles to {g.cube_value * 2}.")
        elif cmd == "drop":
            self.say(f"{SIDE_NAMES[side]} drops.")
        else:
            self.say(f"{SIDE_NAMES[side]} {cmd}s: the cube is at {g.cube_value}.")
        return True

    # turns -------------------------------------------------------------------------------
    def human_roll(self) -> None:
        """The human to act rolls (Enter), or doubles first where he may."""
        g = self.game
        if not g.can_double():
            g.roll()
            self.autosave()
            return
        self.draw()
        self._cube_prompt(f"{_side_label(g.turn, self.disc)}: Enter to roll, or double > ",
                          "press Enter to roll, or type double (help: help)", rolls=True)

    def human_answer(self) -> None:
        """The human who was doubled takes or drops (or beavers, where allowed)."""
        g = self.game
        self.draw()
        self._cube_prompt(f"{SIDE_NAMES[1 - g.turn]} doubles to {g.cube_value * 2}. "
                          f"{_side_label(g.turn, self.disc)}: take or drop? > ",
                          "type take or drop")

    def _cube_prompt(self, prompt: str, usage: str, rolls: bool = False) -> None:
        """Ask until a cube action is done (or, with ``rolls``, Enter rolls the dice);
        the other commands work meanwhile, and other text is answered with ``usage``."""
        g = self.game
        while True:
            line = self.ask(prompt)
            if rolls and line.lower() in ("", "roll", "r"):
                g.roll()
                self.autosave()
                return
            if self.command(line):
                continue
            done = self.cube_command(line.lower())
            if done:
                return
            if done is None:
                self.error(f"{line!r}: {usage}")

    def entered_move(self, line: str) -> Move | None:
        """The legal move ``line`` names (in notation, or its number in the list), or
        None once the reason it names none is shown."""
        g = self.game
        moves = g.legal_moves()
        if line.isascii() and line.isdigit() and len(line) < 10:
            k = int(line)
            if not 1 <= k <= len(moves):
                self.error(f"no move number {k}: choose 1-{len(moves)}, or type a move")
                return None
            return moves[k - 1]
        assert g.dice is not None
        try:
            return g.position.find_move(line, g.dice, g.rules)
        except TavliError as e:
            self.error(str(e))
            return None

    def human_move(self) -> None:
        """The human's turn: a move is entered, shown on the board, and played once
        confirmed with Enter (``undo`` takes it back; another move replaces it)."""
        g = self.game
        moves = g.legal_moves()
        side = g.turn
        dice = g.dice
        assert dice is not None
        if not moves:
            self.draw()
            self.say(f"{SIDE_NAMES[side]} rolls {dice_text(dice)} and cannot move: "
                     "the turn passes.", "yellow")
            g.play(None)
            self.last_move = None
            self.autosave()
            return

        def show() -> None:
            self.draw()
            self.say(f"Legal moves ({len(moves)}):", "dim")
            self.list_moves(moves, MOVES_SHOWN)

        show()
        pending: Move | None = None
        prompt = f"{_side_label(side, self.disc)} to play {dice_text(dice)} > "
        try:
            while True:
                if pending is None:
                    line = self.ask(prompt)
                    if not line:
                        continue
                else:
                    line = self.ask(f"Enter plays {pending}; undo takes it back > ")
                low = line.lower()
                if pending is not None:
                    if low in CONFIRM:
                        played = g.play(pending)
                        self.last_move = played
                        self.autosave()
                        self.say(f"{SIDE_NAMES[side]} plays {played}.")
                        return
                    if low in ("undo", "u"):
                        pending = None
                        self.say("Taken back.", "dim")
                        show()
                        continue
                    if low in ("board", "b"):
                        self.draw(preview=pending)
                        continue
                if self.command(line):
                    continue
                cube = self.cube_command(low)
                if cube is not None:
                    if cube:
                        return
                    continue
                chosen = self.entered_move(line)
                if chosen is not None:
                    pending = chosen
                    self.draw(preview=chosen)
        except _Quit:
            if pending is not None:
                self.say(f"The move you entered ({pending}) was not played.", "dim")
            raise

    def bot_act(self, player: Player) -> None:
        from .players import act

        g = self.game
        side = g.turn
        who = f"{SIDE_NAMES[side]} ({player.name})"
        kind, value = act(g, player)
        self.autosave()
        if kind == "move":
            self.last_move = value
            text = f"{who} rolls {dice_text(value.dice)}: {value}"
            viewer = self.viewer()
            if self.humans() and viewer != side:
                text += f"   (your points {_translate(value)})"
            self.say(text)
        elif kind == "pass":
            self.last_move = None
            self.say(f"{who} rolls {dice_text(value)} and cannot move: the turn passes.")
        elif kind == "double":
            self.say(f"{who} doubles to {value}.", "bold")
        elif kind in ("take", "beaver"):
            self.say(f"{who} {kind}s: the cube is at {value}.", "bold")
        elif kind == "drop":
            self.say(f"{who} drops.", "bold")

    def opening(self) -> None:
        g = self.game
        g.roll()
        self.autosave()
        for a in g.history:
            if not isinstance(a, Opening):
                continue
            if a.starter is None:
                self.say(f"Opening throw: white {a.white}, black {a.black}: a tie, "
                         "throw again.")
            else:
                self.say(f"Opening throw: white {a.white}, black {a.black}: "
                         f"{SIDE_NAMES[a.starter]} starts.")

    def game_over(self) -> bool:
        """Report the end of a game; start the next one of a match. True when play is
        over (single game or match decided)."""
        g = self.game
        self.draw(final=True)
        out = g.outcome
        assert out is not None
        self.say(f"Game over: {out}.", "bold green")
        m = self.match
        if m is None:
            return True
        s = m.score
        self.say(f"Score: white {s[0]}, black {s[1]} (match to {m.target}).", "bold")
        if m.is_over:
            w = m.winner or 0
            self.say(f"{SIDE_NAMES[w]} wins the match {s[w]}-{s[1 - w]}.", "bold green")
            return True
        nxt = m.rotation[len(m.games) % len(m.rotation)]
        starter = "the opening throw decides who starts" if out.winner is None else \
            f"{SIDE_NAMES[out.winner]} starts"
        self.say(f"Next: game {len(m.games) + 1}, {nxt} ({starter}).")
        if self.humans():
            line = self.ask("Press Enter to go on > ")
            while self.command(line):
                line = self.ask("Press Enter to go on > ")
        m.next_game()
        self.last_move = None
        self.autosave()
        return False

    def play(self) -> int:
        try:
            while True:
                g = self.game
                if g.is_over:
                    if self.game_over():
                        return 0
                    continue
                if g.phase == "opening":
                    self.opening()
                    continue
                player = self.players[g.turn]
                try:
                    if player is not None:
                        self.bot_act(player)
                    elif g.phase == "roll":
                        self.human_roll()
                    elif g.phase == "double":
                        self.human_answer()
                    else:
                        self.human_move()
                except _Resigned:
                    continue
        except _Quit:
            if self.save_path is not None:
                self.autosave()
                self.say(f"Saved to {self.save_path}; resume with: "
                         f"{resume_command(self.save_path)}")
            self.say("Bye.")
            return 0


# --- setting up ---------------------------------------------------------------------------

def resume_command(path: Path) -> str:
    """The command line that continues the game saved in ``path``."""
    return f"tavli play --tui --resume {shlex.quote(str(path))}"


def player_choices() -> str:
    from .ai.neural import DEFAULT_LEVEL, LEVELS

    return (f"human, random, greedy, neural (level {DEFAULT_LEVEL}), neural:LEVEL or a "
            f"LEVEL: {', '.join(LEVELS)}")


def make_player(name: str | None, seed: int | None, what: str) -> Player | None:
    """None for a human, else the computer player ``name`` names: ``random``, ``greedy``,
    ``neural`` (the AI at the default level), ``neural:LEVEL`` or a bare level name
    (see :data:`tavli.ai.neural.LEVELS`; a ply 0-2 too). CliError for another name."""
    from .ai.neural import DEFAULT_LEVEL, LEVELS, LevelPlayer
    from .players import get_player

    key = (name or "human").strip().lower()
    bare = key.replace("-", "").replace("_", "").replace(" ", "")
    if key == "human":
        return None
    if key in ("random", "greedy"):
        return get_player(key, seed)
    if key == "neural":
        level = DEFAULT_LEVEL
    elif key.startswith("neural:"):
        level = key.split(":", 1)[1]
    elif bare in LEVELS:
        level = bare
    else:
        raise CliError(f"{what}: unknown player {str(name)[:40]!r}: choose "
                       f"{player_choices()}")
    try:
        return LevelPlayer(level, seed=seed)
    except TavliError as e:
        raise CliError(f"{what}: {e}") from None


def _match_rules(rotation: tuple[str, ...], items: list[str]) -> dict[str, Any]:
    """Rule options of the command line for each game of a match: an option goes to the
    games it applies to; one that applies to none of them is an error."""
    from .rules import OPTIONS, Rules, option_applies

    per_game: dict[str, list[str]] = {name: [] for name in rotation}
    for item in items:
        name = item.split("=", 1)[0].strip() if "=" in item else item
        opt = OPTIONS.get(name)
        if opt is None or "=" not in item:
            Rules.for_game(rotation[0], [item])  # raises with the engine's message
            continue
        games = [g for g in rotation if option_applies(name, g)]
        if not games:
            raise RuleError(f"rule option {name!r} does not apply to "
                            f"{' or '.join(rotation)}")
        for g in games:
            per_game[g].append(item)
    return {g: Rules.for_game(g, opts) for g, opts in per_game.items()}


def _dice_used(games: list[Game]) -> int:
    """How many dice the recorded games threw (to continue a seeded sequence): two for
    every opening throw and every roll in their histories."""
    return sum(2 for g in games for a in g.history if isinstance(a, Opening | Roll))


def _new(args: argparse.Namespace) -> tuple[Game | Match, int | None]:
    from .game import Game
    from .games import ROTATIONS, rotation
    from .match import Match
    from .rules import Rules

    variant = (args.game or "tavli").strip().lower()
    points = 5 if args.points is None else args.points
    rules = list(args.rule or [])
    try:
        games = rotation(variant)
    except TavliError as e:
        raise CliError(f"--game: {e}; or {' or '.join(ROTATIONS)} for a match") from None
    if variant not in ROTATIONS:
        variant = games[0]
        if points == 1:
            return Game(Rules.for_game(variant, rules), seed=args.seed), args.seed
    return Match(points, variant, rules=_match_rules(games, rules),
                 seed=args.seed), args.seed


def _replaces_another_file(path: Path, own: Path | None) -> bool:
    """Saving to ``path`` would replace a file the user already has (another saved game,
    notes): only the game's own file (``own``, the one resumed or saved to) may be."""
    same = own is not None and os.path.realpath(path) == os.path.realpath(own)
    return path.exists() and not same


def _resume(args: argparse.Namespace) -> tuple[Game | Match, int | None, dict[str, Any]]:
    from .match import Match
    from .record import load_record

    path = Path(args.resume)
    given = [o for o, v in (("--game", args.game), ("--points", args.points),
                            ("--rule", args.rule)) if v is not None]
    if given:
        raise CliError(f"{', '.join(given)} cannot be combined with --resume: the saved "
                       "file keeps its own game, points and rules")
    try:
        text = path.read_text(encoding="utf-8")
        obj = load_record(text)
    except OSError as e:
        raise CliError(f"cannot resume from {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise CliError(f"cannot resume from {path}: not a text file") from None
    except TavliError as e:
        raise CliError(f"cannot resume from {path}: {e}") from None
    data = json.loads(text)  # valid: the record was read from it
    settings = data.get("tui") if isinstance(data.get("tui"), dict) else {}
    seed = args.seed if args.seed is not None else data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        seed = None
    games = obj.games if isinstance(obj, Match) else [obj]
    src = DiceSource(seed=seed)
    if seed is not None and args.seed is None:
        # go on with the same seeded dice, as if play had never stopped
        for _ in range(_dice_used(games)):
            src.die()
    for old in games:
        old.dice_source = src
    if isinstance(obj, Match):
        obj.dice_source = src
        obj.seed = seed
    return obj, seed, settings


def run(args: argparse.Namespace) -> int:
    """``tavli play``: play a game or match in the terminal."""

    if not getattr(args, "tui", False):
        print("tavli: the browser app is not available yet; playing in the terminal (--tui).",
              file=sys.stderr)
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    console = Console(highlight=False)
    settings: dict[str, Any] = {}
    for opt in ("resume", "save"):
        if getattr(args, opt, None) == "":
            raise CliError(f"--{opt} needs a file name")
    if args.resume:
        obj, seed, settings = _resume(args)
        save_path = Path(args.save or args.resume)
    else:
        obj, seed = _new(args)
        save_path = Path(args.save) if args.save else None
    white = getattr(args, "white", None) or settings.get("white") or "human"
    black = args.opponent or settings.get("black") or "neural"
    pseed = None if seed is None else seed + 1

    def what(option: str, given: str | None, side: str) -> str:
        return option if given or not args.resume else f"the {side} player saved in " \
            f"{args.resume}"

    players = [make_player(white, pseed, what("--white", getattr(args, "white", None),
                                              "white")),
               make_player(black, None if pseed is None else pseed + 1,
                           what("--opponent", args.opponent, "black"))]
    if save_path is not None and save_path.is_dir():
        raise CliError(f"{save_path} is a directory: --save needs a file name")
    if save_path is not None and args.save and _replaces_another_file(
            save_path, Path(args.resume) if args.resume else None):
        raise CliError(f"{save_path} exists: continue that game with --resume {save_path}, "
                       "or save to another file (nothing was changed)")
    session = TerminalSession(console, obj, players, save_path, seed)
    if save_path is not None:
        try:
            session.save()
        except OSError as e:
            raise CliError(f"cannot save to {save_path}: {e.strerror or e}") from None
    _intro(session, resumed=bool(args.resume))
    return session.play()


def _intro(s: TerminalSession, resumed: bool) -> None:
    g = s.game
    m = s.match
    if m is not None:
        games = " → ".join(n.capitalize() for n in m.rotation)
        what = f"Match to {m.target} point{'s' if m.target != 1 else ''}: {games}"
    else:
        what = f"A single game of {g.rules.game_name.capitalize()}"
    names = []
    for side in (0, 1):
        p = s.players[side]
        who = "you" if p is None and len(s.humans()) == 1 else s.player_label(side, long=True)
        names.append(f"{SIDE_NAMES[side]} {s.disc[side]} ({who})")
    s.say(f"{what}. {names[0]} against {names[1]}.", "bold")
    if resumed:
        s.say(f"Resumed: game {len(m.games) if m else 1}, "
              + (f"score {m.score[0]}-{m.score[1]}." if m else "where it stopped."))
    if s.humans():
        s.say("Type a move such as 24/18 13/11 or its number; 'help' lists the commands.",
              "dim")
