"""A game or match played in the terminal: who plays each side, where it is saved, and
the loop of play from the opening throw to the end of the match."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from ..history import Opening
from ..layout import SIDE_NAMES
from .commands import Commands, Resigned
from .screen import Quit, Screen
from .turns import Turns

if TYPE_CHECKING:
    from ..board import Move
    from ..game import Game
    from ..match import Match
    from ..players import Player


def resume_command(path: Path) -> str:
    """The command line that continues the game saved in ``path``."""
    return f"tavli play --tui --resume {shlex.quote(str(path))}"


def replaces_another_file(path: Path, own: Path | None) -> bool:
    """Saving to ``path`` would replace a file the user already has (another saved game,
    notes): only the game's own file (``own``, the one resumed or saved to) may be."""
    same = own is not None and os.path.realpath(path) == os.path.realpath(own)
    return path.exists() and not same


class TerminalSession:
    """A game or match being played in the terminal."""

    def __init__(self, console: Console, obj: Game | Match, players: list[Player | None],
                 save_path: Path | None, seed: int | None) -> None:
        self.obj = obj
        self.players = players
        self.save_path = save_path
        self.seed = seed
        self.last_move: Move | None = None
        self.screen = Screen(console, self)
        self.commands = Commands(self)
        self.turns = Turns(self)

    # state -------------------------------------------------------------------------------
    @property
    def match(self) -> Match | None:
        from ..match import Match

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
        from ..ai.neural import LevelPlayer

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

    # saving ------------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        from ..record import game_record, match_record

        m = self.match
        rec = match_record(m) if m is not None else game_record(self.game, self.seed)
        tui: dict[str, Any] = {"white": self.player_name(0), "black": self.player_name(1)}
        rec["tui"] = tui
        return rec

    def save(self, path: Path | None = None, quiet: bool = True) -> None:
        """Write the record to ``path`` (default: the --save file); OSError on failure."""
        from ..record import save

        target = path or self.save_path
        if target is None:
            return
        save(self.record(), target)
        if not quiet:
            self.screen.say(f"Saved to {target}.", "green")

    def save_as(self, path: Path) -> None:
        """Save to ``path`` at the user's word, never over another of the user's files; the
        game is saved there after every action from then on where it was saved nowhere."""
        if replaces_another_file(path, self.save_path):
            self.screen.error(f"{path} exists: choose another name (it was not changed)")
            return
        try:
            self.save(path, quiet=False)
        except OSError as e:
            self.screen.error(f"cannot save to {path}: {e.strerror or e}")
            return
        if self.save_path is None:
            self.save_path = path
            self.screen.say("From now on the game is saved there after every move.", "dim")

    def autosave(self) -> None:
        """Save after an action; a failure is reported and play goes on."""
        try:
            self.save()
        except OSError as e:
            self.screen.error(f"could not save to {self.save_path}: {e.strerror or e}")

    # play --------------------------------------------------------------------------------
    def intro(self, resumed: bool) -> None:
        """What is played, by whom, and how to type a move."""
        g = self.game
        m = self.match
        say = self.screen.say
        if m is not None:
            games = " → ".join(n.capitalize() for n in m.rotation)
            what = f"Match to {m.target} point{'s' if m.target != 1 else ''}: {games}"
        else:
            what = f"A single game of {g.rules.game_name.capitalize()}"
        names = []
        for side in (0, 1):
            p = self.players[side]
            who = "you" if p is None and len(self.humans()) == 1 else \
                self.player_label(side, long=True)
            names.append(f"{SIDE_NAMES[side]} {self.screen.disc[side]} ({who})")
        say(f"{what}. {names[0]} against {names[1]}.", "bold")
        if resumed:
            say(f"Resumed: game {len(m.games) if m else 1}, "
                + (f"score {m.score[0]}-{m.score[1]}." if m else "where it stopped."))
        if self.humans():
            say("Type a move such as 24/18 13/11 or its number; 'help' lists the commands.",
                "dim")

    def opening(self) -> None:
        g = self.game
        g.roll()
        self.autosave()
        for a in g.history:
            if not isinstance(a, Opening):
                continue
            if a.starter is None:
                self.screen.say(f"Opening throw: white {a.white}, black {a.black}: a tie, "
                                "throw again.")
            else:
                self.screen.say(f"Opening throw: white {a.white}, black {a.black}: "
                                f"{SIDE_NAMES[a.starter]} starts.")

    def game_over(self) -> bool:
        """Report the end of a game; start the next one of a match. True when play is
        over (single game or match decided)."""
        g = self.game
        screen = self.screen
        screen.draw(final=True)
        out = g.outcome
        assert out is not None
        screen.say(f"Game over: {out}.", "bold green")
        m = self.match
        if m is None:
            return True
        s = m.score
        screen.say(f"Score: white {s[0]}, black {s[1]} (match to {m.target}).", "bold")
        if m.is_over:
            w = m.winner or 0
            screen.say(f"{SIDE_NAMES[w]} wins the match {s[w]}-{s[1 - w]}.", "bold green")
            return True
        nxt = m.rotation[len(m.games) % len(m.rotation)]
        starter = "the opening throw decides who starts" if out.winner is None else \
            f"{SIDE_NAMES[out.winner]} starts"
        screen.say(f"Next: game {len(m.games) + 1}, {nxt} ({starter}).")
        if self.humans():
            line = screen.ask("Press Enter to go on > ")
            while self.commands.handle(line):
                line = screen.ask("Press Enter to go on > ")
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
                        self.turns.bot_act(player)
                    elif g.phase == "roll":
                        self.turns.human_roll()
                    elif g.phase == "double":
                        self.turns.human_answer()
                    else:
                        self.turns.human_move()
                except Resigned:
                    continue
        except Quit:
            if self.save_path is not None:
                self.autosave()
                self.screen.say(f"Saved to {self.save_path}; resume with: "
                                f"{resume_command(self.save_path)}")
            self.screen.say("Bye.")
            return 0
