"""What a terminal session shows and reads: messages and prompts (:class:`Terminal`, every
game's), and for the dice games the board with the panel of text beside it (or below it on
a narrow terminal) and lists of moves (:class:`Screen`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from tavli import i18n
from tavli.engine.dice import dice_text
from tavli.engine.games import ROTATIONS
from tavli.tui.board import BOARD_W, CHECKER, BoardView, move_marks
from tavli.tui.context import SessionState
from tavli.tui.words import _
from tavli.tui.words import side as side_name

if TYPE_CHECKING:
    from tavli.engine.board import Move, Position

PANEL_W = 2 + 28                        # the text beside the board


class Quit(Exception):
    """The user asked to stop (quit, end of input, Ctrl-C)."""


class Terminal:
    """The console of every game's terminal session: it writes messages and reads the
    lines typed."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def say(self, text: str, style: str = "") -> None:
        # long lines are left to the terminal to wrap (and stay whole in logs)
        self.console.print(Text(text, style=style), soft_wrap=True)

    def error(self, text: str) -> None:
        self.console.print(Text(f"  ✗ {text}", style="bold red"), soft_wrap=True)

    def ask(self, prompt: str) -> str:
        """The line typed after ``prompt``, stripped; :class:`Quit` at the end of input or
        on Ctrl-C."""
        try:
            line = self.console.input(Text(prompt, style="bold"))
        except EOFError:
            self.console.print()
            raise Quit from None
        except KeyboardInterrupt:
            self.console.print()
            raise Quit from None
        return line.strip()


class Screen(Terminal):
    """The console of a dice game's session: its messages and prompts, and the board of
    the session's game with the panel beside it."""

    def __init__(self, console: Console, session: SessionState) -> None:
        super().__init__(console)
        self.s = session
        self.view = BoardView(console)
        self.disc = self.view.disc

    # the board and its panel -------------------------------------------------------------
    def title(self) -> str:
        g = self.s.game
        name = i18n.game_name(i18n.current(), g.rules.game_name)
        m = self.s.match
        if m is None:
            return _("tui.title.single", name=name)
        return _("tui.title.game", name=name, n=len(m.games))

    def panel(self, final: bool = False, shown: Position | None = None) -> list[Text]:
        """The text beside the board; ``shown``: the position drawn (default the game's)."""
        g = self.s.game
        pos = g.position if shown is None else shown
        m = self.s.match
        lines: list[Text] = [Text(self.title(), style="bold")]
        if m is not None:
            kind = (_("tui.match_of", name=i18n.game_name(i18n.current(), m.variant))
                    if m.variant in ROTATIONS else _("tui.match"))
            score = m.score
            lines.append(Text(_("tui.score_line", kind=kind, target=m.target, white=score[0],
                                black=score[1]) + (_("tui.crawford") if g.crawford else "")))
        else:
            lines.append(Text(""))
        lines.append(Text(""))
        for side in (0, 1):
            t = Text()
            t.append(f"{self.disc[side]} ", style=CHECKER[side] if self.view.colour else "")
            t.append(f"{side_name(side):<6}", style="bold" if g.turn == side else "")
            t.append(_("tui.pips", pips=f"{pos.pip_count(side):>3}", off=f"{pos.off(side):>2}"))
            lines.append(t)
        for side in (0, 1):
            lines.append(Text(f"  {side_name(side)}: {self.s.player_label(side)}",
                              style="dim"))
        lines.append(Text(""))
        if final or g.is_over:
            out = g.outcome
            lines.append(Text(_("tui.over"), style="bold"))
            if out is not None:
                lines.append(Text(result_text(out)))
        else:
            # opening, roll, move or double: who does what now
            lines.append(Text(_(f"tui.doing.{g.phase}", side=side_name(g.turn)), style="bold"))
            if g.phase == "move" and g.dice is not None:
                lines.append(Text(_("tui.dice", dice=dice_text(g.dice))))
        if g.rules.cube:
            lines.append(Text(_("tui.cube_centred", value=g.cube_value) if g.cube_owner is None
                              else _("tui.cube_owned", value=g.cube_value,
                                     side=side_name(g.cube_owner))))
        lines.append(Text(_("tui.numbers", side=side_name(self.s.viewer())), style="dim"))
        if g.rules.variant.pins:
            lines.append(Text(_("tui.pinned"), style="dim"))
        if g.rules.variant.note:  # in the catalogue by the game's name
            lines.append(Text(_(f"tui.note.{g.rules.variant.name}"), style="dim"))
        return lines

    def draw(self, final: bool = False, preview: Move | None = None) -> None:
        """The board and the panel; ``preview``: a move entered but not yet confirmed,
        drawn as played (with its points highlighted)."""
        g = self.s.game
        pos = g.position if preview is None else preview.after
        cube = (g.cube_value, g.cube_owner) if g.rules.cube else None
        dice = g.dice if g.phase == "move" else None
        board = self.view.lines(pos, self.s.viewer(), dice, g.position.turn, cube,
                                move_marks(self.s.last_move if preview is None else preview))
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
            self.say("     " + _("tui.more_moves", n=len(moves) - len(shown)), "dim")


def result_text(out) -> str:
    """A game's outcome in words: ``white wins 2 (gammon)`` or ``a draw``."""
    if out.winner is None:
        return _("tui.draw")
    return _("tui.wins", side=side_name(out.winner), points=out.points,
             kind=_("kind." + out.kind))
