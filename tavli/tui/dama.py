"""Dama in the terminal (``tavli play --tui --game dama|russian|italian``): the session of
:mod:`.session` with what Dama supplies — its board, its moves and huffs, its AI.

The board is drawn from White's side with the square numbers beside it; type a move by
numbers or by names (``22-18``, ``c3-d4``, ``22x13``; a capture that two routes could
make needs its landing squares, ``22x13x6``). Other commands:

``moves`` (or ``?``) list the legal moves · ``hint`` the AI's choice · ``huff N`` remove
the opponent's piece on N when he failed to capture (box rules) · ``undo`` take back your
last move · ``draw`` offer a draw (the AI accepts when its evaluation is not above 0) ·
``resign`` · ``save [FILE]`` write the game as PDN (then after every move, as the dice
games' ``save``) · ``fen`` print the position · ``quit``.

Everything said is a catalogue message (``dama.tui.*``, the shared ``tui.*`` of saving
and quitting) in the player's language (``--lang``, else the environment's:
:func:`tavli.tui.words.terminal_lang`); the commands are typed in English.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from tavli import i18n
from tavli.ai.dama import LEVEL_ALIASES, AIPlayer, static_eval
from tavli.errors import TavliError
from tavli.play.dama.game import DamaGame, colour_msg, reason_msg
from tavli.play.dama.pdn import write_pdn
from tavli.play.record import write_atomically
from tavli.tui.screen import Quit
from tavli.tui.session import TerminalSession
from tavli.tui.words import _, error_text

#: the AI levels by their names in the dice games and the new-game dialog (``level.*``)
LEVEL_NAMES = {level: name for name, level in LEVEL_ALIASES.items()}


def colour(c: int) -> str:
    """White or Black, capitalised, in the session's language."""
    return i18n.text(i18n.current(), colour_msg(c))


def player_name(player: AIPlayer | None) -> str:
    """A person or the AI at its level, as the session's language says it."""
    if player is None:
        return _("dama.pl.human")
    level = str(player.level)
    name = LEVEL_NAMES.get(level.strip().lower())
    return _("dama.pl.ai", level=_(f"level.{name}") if name else level)


def player_text(player: AIPlayer | None) -> str:
    """The player as the command line names it (``human``, ``neural:expert``), kept in
    the saved file's White and Black tags so that ``--resume`` brings him back."""
    if player is None:
        return "human"
    level = str(player.level)
    return f"neural:{LEVEL_NAMES.get(level, level)}"


class DamaSession(TerminalSession):
    """A game of Dama being played in the terminal; ``players``: None for a person, an
    :class:`~tavli.ai.dama.AIPlayer` for the AI."""

    def __init__(self, console: Console, game: DamaGame, players: list[AIPlayer | None],
                 save_path: Path | None) -> None:
        self.game = game
        self._hint_ai: AIPlayer | None = next((p for p in players if p is not None), None)
        super().__init__(console, players, save_path)

    # state -----------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self.game.turn

    def is_over(self) -> bool:
        return self.game.is_over()

    def rules_name(self) -> str:
        """The rule set as the players name it (``dama.rn.*``)."""
        return _(self.game.rules.title_key)

    def write(self, path: Path) -> None:
        tags = {"White": player_text(self.players[0]), "Black": player_text(self.players[1])}
        write_atomically(path, write_pdn(self.game, tags))

    # what is shown ---------------------------------------------------------------------
    def intro(self, resumed: bool) -> None:
        self.screen.say(_("dama.tui.intro", rules=self.rules_name(),
                          white=player_name(self.players[0]),
                          black=player_name(self.players[1])))
        if resumed:
            self.screen.say(_("tui.resumed"))

    def show(self) -> None:
        """The board, the side to move and the last move."""
        game, say = self.game, self.screen.say
        say("")
        say(game.position.board_text(footer=False))
        say(_("dama.tui.to_move", side=colour(game.turn), rules=self.rules_name()))
        if game.record:
            last = game.record[-1]
            text = (f"*{game.rules.square_text(last.huffed)}" if last.move is None
                    else game.rules.move_text(last.move))
            say(_("dama.tui.last", move=text))

    def error(self, text: str) -> None:
        self.screen.say(_("dama.tui.error", text=text), "red")

    def game_over(self) -> bool:
        self.show()
        self.screen.say(_("dama.tui.game_over", result=self.game.result,
                          reason=i18n.text(i18n.current(), reason_msg(self.game))), "bold")
        return True

    # the AI ----------------------------------------------------------------------------
    def bot_turn(self, player: AIPlayer) -> None:
        game, say = self.game, self.screen.say
        text, squares = game.rules.move_text, game.rules.square_text
        side = game.turn
        mv = player.choose(game.position, game._positions)
        if mv.huff is not None:
            say(_("dama.tui.ai_huffs", side=colour(side), square=squares(mv.huff)))
        played = game.play(mv)
        self.autosave()
        self.show()
        if played.captures:
            say(_("dama.tui.ai_captures", side=colour(side), move=text(played),
                  squares=", ".join(map(squares, played.captures))))
        else:
            say(_("dama.tui.ai_plays", side=colour(side), move=text(played)))

    def hint_ai(self) -> AIPlayer:
        """The AI that gives hints: the opponent's, else one at the default level."""
        if self._hint_ai is None:
            self._hint_ai = AIPlayer(self.game.rules)
        return self._hint_ai

    # a person's turn -------------------------------------------------------------------
    def human_turn(self) -> None:
        """The board, the captures and huffs on offer, and one line typed: a move or a
        command."""
        game = self.game
        self.show()
        legal = game.legal_moves()
        caps = [m for m in legal if m.captures]
        text, squares = game.rules.move_text, game.rules.square_text
        if caps:
            self.screen.say(_("dama.tui.captures" if game.rules.compulsory
                              else "dama.tui.captures_optional",
                              moves=", ".join(map(text, caps))))
        if game.huff_candidates:
            self.screen.say(_("dama.tui.may_huff",
                              squares=", ".join(map(squares, game.huff_candidates))))
        line = self.screen.ask(_("dama.tui.prompt", side=colour(game.turn)))
        if not line:
            return
        cmd, _sep, arg = line.partition(" ")
        try:
            self.command(cmd.lower(), arg.strip(), line)
        except TavliError as e:
            self.error(error_text(e, arg if cmd.lower() == "huff" else line))

    def command(self, cmd: str, arg: str, line: str) -> None:
        """Run the command ``cmd`` (its argument ``arg``), or play ``line`` as a move."""
        game, say = self.game, self.screen.say
        if cmd in ("quit", "exit", "q"):
            raise Quit
        if cmd in ("help", "h"):
            say(_("dama.tui.help"))
        elif cmd in ("moves", "?"):
            say(", ".join(game.rules.move_text(m) for m in game.legal_moves()))
        elif cmd == "hint":
            mv = self.hint_ai().choose(game.position, game._positions)
            say(_("dama.tui.hint", move=game.rules.move_text(mv)))
        elif cmd == "save":
            self.save_command(arg.split())
        elif cmd == "fen":
            say(game.position.fen())
        else:
            self.act(cmd, arg, line)

    def act(self, cmd: str, arg: str, line: str) -> None:
        """What changes the game: a huff, a take-back, a draw offered, a resignation, a
        move; saved after it."""
        game = self.game
        side = game.turn
        if cmd == "huff":
            game.huff(arg)  # a square's number or name; ParseError for other text
            self.screen.say(_("dama.tui.you_huff", square=arg))
        elif cmd == "undo":
            if not game.record:
                self.screen.say(_("dama.tui.nothing_to_undo"))
                return
            game.undo()
            while game.record and self.players[game.turn] is not None:
                game.undo()  # back to the person's own move, past the AI's
        elif cmd == "draw":
            if self.players[1 - side] is None or static_eval(game.position) >= 0:
                game.agree_draw()
            else:
                self.screen.say(_("dama.tui.draw_declined"))
                return
        elif cmd == "resign":
            game.resign(side)
        else:
            game.play(line)
        self.autosave()
