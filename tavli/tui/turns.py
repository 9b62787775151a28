"""One action of a turn in terminal play: a human's prompts (roll or double, take or drop,
enter a move and confirm it) or a computer player's action, told in words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavli.engine.dice import dice_text
from tavli.errors import TavliError
from tavli.tui.board import side_label, translate
from tavli.tui.commands import Commands
from tavli.tui.context import SessionState
from tavli.tui.screen import Quit, Screen
from tavli.tui.words import _, error_text
from tavli.tui.words import side as side_name

if TYPE_CHECKING:
    from tavli.engine.board import Move
    from tavli.play.players import Player

MOVES_SHOWN = 12
CONFIRM = ("", "y", "yes", "ok", "confirm", "play")


class Turns:
    """The turns of a :class:`~tavli.tui.dice.DiceSession`'s players."""

    def __init__(self, session: SessionState, screen: Screen, commands: Commands) -> None:
        self.s = session
        self.screen = screen
        self.commands = commands

    def human_roll(self) -> None:
        """The human to act rolls (Enter), or doubles first where he may."""
        g = self.s.game
        if not g.can_double():
            g.roll()
            self.s.autosave()
            return
        self.screen.draw()
        self._cube_prompt(_("tui.ask_roll", who=side_label(g.turn, self.screen.disc)),
                          _("tui.usage_roll"), rolls=True)

    def human_answer(self) -> None:
        """The human who was doubled takes or drops (or beavers, where allowed)."""
        g = self.s.game
        self.screen.draw()
        self._cube_prompt(_("tui.ask_take", side=side_name(1 - g.turn),
                            value=g.cube_value * 2,
                            who=side_label(g.turn, self.screen.disc)),
                          _("tui.usage_take"))

    def _cube_prompt(self, prompt: str, usage: str, rolls: bool = False) -> None:
        """Ask until a cube action is done (or, with ``rolls``, Enter rolls the dice);
        the other commands work meanwhile, and other text is answered with ``usage``."""
        g = self.s.game
        while True:
            line = self.screen.ask(prompt)
            if rolls and line.lower() in ("", "roll", "r"):
                g.roll()
                self.s.autosave()
                return
            if self.commands.handle(line):
                continue
            done = self.commands.cube(line.lower())
            if done:
                return
            if done is None:
                self.screen.error(f"{line!r}: {usage}")

    def entered_move(self, line: str) -> Move | None:
        """The legal move ``line`` names (in notation, or its number in the list), or
        None once the reason it names none is shown."""
        g = self.s.game
        moves = g.legal_moves()
        if line.isascii() and line.isdigit() and len(line) < 10:
            k = int(line)
            if not 1 <= k <= len(moves):
                self.screen.error(_("tui.no_number", k=k, n=len(moves)))
                return None
            return moves[k - 1]
        assert g.dice is not None
        try:
            return g.position.find_move(line, g.dice, g.rules)
        except TavliError as e:
            self.screen.error(error_text(e, line))
            return None

    def human_move(self) -> None:
        """The human's turn: a move is entered, shown on the board, and played once
        confirmed with Enter (``undo`` takes it back; another move replaces it)."""
        g = self.s.game
        screen = self.screen
        moves = g.legal_moves()
        side = g.turn
        dice = g.dice
        assert dice is not None
        if not moves:
            screen.draw()
            screen.say(_("tui.pass", side=side_name(side), dice=dice_text(dice)), "yellow")
            g.play(None)
            self.s.last_move = None
            self.s.autosave()
            return

        def show() -> None:
            screen.draw()
            screen.say(_("tui.legal_moves", n=len(moves)), "dim")
            screen.list_moves(moves, MOVES_SHOWN)

        show()
        pending: Move | None = None
        prompt = _("tui.ask_move", who=side_label(side, screen.disc), dice=dice_text(dice))
        try:
            while True:
                if pending is None:
                    line = screen.ask(prompt)
                    if not line:
                        continue
                else:
                    line = screen.ask(_("tui.ask_confirm", move=pending))
                low = line.lower()
                if pending is not None:
                    if low in CONFIRM:
                        played = g.play(pending)
                        self.s.last_move = played
                        self.s.autosave()
                        screen.say(_("tui.plays", side=side_name(side), move=played))
                        return
                    if low in ("undo", "u"):
                        pending = None
                        screen.say(_("tui.taken_back"), "dim")
                        show()
                        continue
                    if low in ("board", "b"):
                        screen.draw(preview=pending)
                        continue
                if self.commands.handle(line):
                    continue
                cube = self.commands.cube(low)
                if cube is not None:
                    if cube:
                        return
                    continue
                chosen = self.entered_move(line)
                if chosen is not None:
                    pending = chosen
                    screen.draw(preview=chosen)
        except Quit:
            if pending is not None:
                screen.say(_("tui.not_played", move=pending), "dim")
            raise

    def bot_act(self, player: Player) -> None:
        """A computer player's action (a roll and its move, or a cube action), told."""
        from tavli.play.players import act

        g = self.s.game
        side = g.turn
        who = f"{side_name(side)} ({player.name})"
        kind, value = act(g, player)
        self.s.autosave()
        say = self.screen.say
        if kind == "move":
            self.s.last_move = value
            text = _("tui.bot_move", who=who, dice=dice_text(value.dice), move=value)
            viewer = self.s.viewer()
            if self.s.humans() and viewer != side:
                text += "   " + _("tui.your_points", move=translate(value))
            say(text)
        elif kind == "pass":
            self.s.last_move = None
            say(_("tui.pass", side=who, dice=dice_text(value)))
        elif kind == "double":
            say(_("tui.bot_double", who=who, value=value), "bold")
        elif kind in ("take", "beaver"):
            say(_(f"tui.bot_{kind}", who=who, value=value), "bold")
        elif kind == "drop":
            say(_("tui.bot_drop", who=who), "bold")
