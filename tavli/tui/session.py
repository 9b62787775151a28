"""What every game played in the terminal shares: who plays each side, the file it is
saved to (and the ``save`` command), the console, and the loop of play with its end.

:class:`TerminalSession` is that loop; a game's session supplies what differs — the
dice games' :class:`tavli.tui.dice.DiceSession` (a game or match, the opening throw, the
cube; the board drawn by :mod:`.board`), Dama's :class:`tavli.tui.dama.DamaSession` (its
board, moves and huffs, its AI) — by the methods marked *per game* below.
"""

from __future__ import annotations

import os
import shlex
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from rich.console import Console

from tavli.tui.screen import Quit, Terminal
from tavli.tui.words import _


def resume_command(path: Path) -> str:
    """The command line that continues the game saved in ``path``."""
    return f"tavli play --tui --resume {shlex.quote(str(path))}"


def replaces_another_file(path: Path, own: Path | None) -> bool:
    """Saving to ``path`` would replace a file the user already has (another saved game,
    notes): only the game's own file (``own``, the one resumed or saved to) may be."""
    same = own is not None and os.path.realpath(path) == os.path.realpath(own)
    return path.exists() and not same


class TerminalSession(ABC):
    """A game played in the terminal: the players (None for a person; a computer player
    of the game's kind), the file it is saved to after every action, and :meth:`play`,
    the loop of play."""

    def __init__(self, console: Console, players: list[Any], save_path: Path | None) -> None:
        self.players = players
        self.save_path = save_path
        self.screen = self.make_screen(console)

    def make_screen(self, console: Console) -> Terminal:
        """What the session shows and reads (per game: a board drawn beside a panel)."""
        return Terminal(console)

    # per game --------------------------------------------------------------------------
    @property
    @abstractmethod
    def turn(self) -> int:
        """The side to act (0 white, 1 black)."""

    @abstractmethod
    def is_over(self) -> bool:
        """The game is over (its end not yet reported)."""

    @abstractmethod
    def intro(self, resumed: bool) -> None:
        """What is played, by whom, and how to type a move."""

    def before_turn(self) -> bool:
        """An action no player chooses, before the turns (the opening throw); True when
        there was one."""
        return False

    @abstractmethod
    def human_turn(self) -> None:
        """A person's prompt, answered once (the loop asks again while it is his turn)."""

    @abstractmethod
    def bot_turn(self, player: Any) -> None:
        """A computer player's action, told."""

    @abstractmethod
    def game_over(self) -> bool:
        """Report the end of a game (and start the next one of a match); True when play
        is over."""

    @abstractmethod
    def write(self, path: Path) -> None:
        """Write the game to ``path`` in its file format; OSError on failure."""

    # shared ----------------------------------------------------------------------------
    def humans(self) -> list[int]:
        """The sides a person plays."""
        return [s for s in (0, 1) if self.players[s] is None]

    def save(self, path: Path | None = None, quiet: bool = True) -> None:
        """Write the game to ``path`` (default: the --save file); OSError on failure."""
        target = path or self.save_path
        if target is None:
            return
        self.write(target)
        if not quiet:
            self.screen.say(_("tui.saved", path=target), "green")

    def save_as(self, path: Path) -> None:
        """Save to ``path`` at the user's word, never over another of the user's files; the
        game is saved there after every action from then on where it was saved nowhere."""
        if replaces_another_file(path, self.save_path):
            self.screen.error(_("tui.save.exists", path=path))
            return
        try:
            self.save(path, quiet=False)
        except OSError as e:
            self.screen.error(_("tui.save.cannot", path=path, why=e.strerror or e))
            return
        if self.save_path is None:
            self.save_path = path
            self.screen.say(_("tui.save.from_now"), "dim")

    def save_command(self, args: list[str]) -> None:
        """``save [FILE]``: to FILE, or to the file the game is saved to."""
        if len(args) > 1:
            self.screen.error(_("tui.usage.save"))
            return
        path = Path(args[0]) if args else self.save_path
        if path is None:
            self.screen.error(_("tui.save.no_file"))
            return
        self.save_as(path)

    def autosave(self) -> None:
        """Save after an action; a failure is reported and play goes on."""
        try:
            self.save()
        except OSError as e:
            self.screen.error(_("tui.save.failed", path=self.save_path, why=e.strerror or e))

    def play(self) -> int:
        """Play until the game (or match) is over or the user quits; 0."""
        try:
            while True:
                if self.is_over():
                    if self.game_over():
                        return 0
                    continue
                if self.before_turn():
                    continue
                player = self.players[self.turn]
                if player is None:
                    self.human_turn()
                else:
                    self.bot_turn(player)
        except Quit:
            if self.save_path is not None:
                self.autosave()
                self.screen.say(_("tui.saved_resume", path=self.save_path,
                                  command=resume_command(self.save_path)))
            self.screen.say(_("tui.bye"))
            return 0
