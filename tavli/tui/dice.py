"""A dice game or match played in the terminal (Portes, Plakoto, Fevga, backgammon and
Tavli matches): the session of :mod:`.session` with what the dice games add — the game or
match, the opening throw, the cube, the board with its panel (:mod:`.screen`), a turn's
prompts (:mod:`.turns`) and the commands typed at them (:mod:`.commands`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from tavli import i18n
from tavli.play.history import Opening
from tavli.tui.commands import Commands, Resigned
from tavli.tui.screen import Screen
from tavli.tui.session import TerminalSession
from tavli.tui.turns import Turns
from tavli.tui.words import _, side

if TYPE_CHECKING:
    from tavli.engine.board import Move
    from tavli.play.game import Game
    from tavli.play.match import Match
    from tavli.play.players import Player


#: the players without a level, named in the catalogue (``tui.pl.kind.*``)
PLAIN_PLAYERS = ("human", "random", "greedy")


class DiceSession(TerminalSession):
    """A dice game or match being played in the terminal."""

    screen: Screen

    def __init__(self, console: Console, obj: Game | Match, players: list[Player | None],
                 save_path: Path | None, seed: int | None) -> None:
        self.obj = obj
        self.seed = seed
        self.last_move: Move | None = None
        super().__init__(console, players, save_path)
        self.commands = Commands(self, self.screen)
        self.turns = Turns(self, self.screen, self.commands)

    def make_screen(self, console: Console) -> Screen:
        return Screen(console, self)

    # state -------------------------------------------------------------------------------
    @property
    def match(self) -> Match | None:
        from tavli.play.match import Match

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
        from tavli.ai.neural import LevelPlayer

        p = self.players[side]
        if not isinstance(p, LevelPlayer):
            name = self.player_name(side)   # human, random or greedy: by the catalogue
            return _(f"tui.pl.kind.{name}") if name in PLAIN_PLAYERS else name
        if p.engine(self.game.rules.game) is p.neural:
            level = (_("tui.ply", n=p.level) if p.level.isdigit() else
                     _(f"level.{p.level}"))
            return _("tui.pl.neural_long" if long else "tui.pl.neural", level=level)
        if long:
            return _("tui.pl.greedy_long",
                     game=i18n.game_name(i18n.current(), self.game.rules.game_name))
        return _("tui.pl.greedy")

    def viewer(self) -> int:
        h = self.humans()
        if len(h) == 1:
            return h[0]
        if len(h) == 2:
            return self.game.turn
        return 0

    # saving ------------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        from tavli.play.record import game_record, match_record

        m = self.match
        rec = match_record(m) if m is not None else game_record(self.game, self.seed)
        tui: dict[str, Any] = {"white": self.player_name(0), "black": self.player_name(1)}
        rec["tui"] = tui
        return rec

    def write(self, path: Path) -> None:
        from tavli.play.record import save

        save(self.record(), path)

    # play --------------------------------------------------------------------------------
    def intro(self, resumed: bool) -> None:
        """What is played, by whom, and how to type a move."""
        g = self.game
        m = self.match
        say = self.screen.say
        if m is not None:
            lang = i18n.current()
            games = " → ".join(i18n.game_name(lang, n) for n in m.rotation)
            what = _("tui.intro.match_one" if m.target == 1 else "tui.intro.match",
                     target=m.target, games=games)
        else:
            what = _("tui.intro.single", name=i18n.game_name(i18n.current(), g.rules.game_name))
        names = []
        for s in (0, 1):
            p = self.players[s]
            who = _("tui.you") if p is None and len(self.humans()) == 1 else \
                self.player_label(s, long=True)
            names.append(f"{side(s)} {self.screen.disc[s]} ({who})")
        say(_("tui.intro", what=what, white=names[0], black=names[1]), "bold")
        if resumed:
            say(_("tui.resumed_match", n=len(m.games), white=m.score[0], black=m.score[1])
                if m else _("tui.resumed"))
        if self.humans():
            say(_("tui.intro.help"), "dim")

    def opening(self) -> None:
        g = self.game
        g.roll()
        self.autosave()
        for a in g.history:
            if not isinstance(a, Opening):
                continue
            if a.starter is None:
                self.screen.say(_("tui.opening_tie", white=a.white, black=a.black))
            else:
                self.screen.say(_("tui.opening", white=a.white, black=a.black,
                                  side=side(a.starter)))

    def game_over(self) -> bool:
        """Report the end of a game; start the next one of a match. True when play is
        over (single game or match decided)."""
        g = self.game
        screen = self.screen
        screen.draw(final=True)
        out = g.outcome
        assert out is not None
        screen.say(_("tui.game_over_draw") if out.winner is None else
                   _("tui.game_over_one" if out.points == 1 else "tui.game_over",
                     side=side(out.winner), points=out.points, kind=_("kind." + out.kind)),
                   "bold green")
        m = self.match
        if m is None:
            return True
        s = m.score
        screen.say(_("tui.score", white=s[0], black=s[1], target=m.target), "bold")
        if m.is_over:
            w = m.winner or 0
            screen.say(_("tui.match_won", side=side(w), a=s[w], b=s[1 - w]), "bold green")
            return True
        nxt = i18n.game_name(i18n.current(), m.rotation[len(m.games) % len(m.rotation)])
        starter = _("tui.next_opening") if out.winner is None else \
            _("tui.next_starts", side=side(out.winner))
        screen.say(_("tui.next", n=len(m.games) + 1, name=nxt, starter=starter))
        if self.humans():
            line = screen.ask(_("tui.enter_go_on"))
            while self.commands.handle(line):
                line = screen.ask(_("tui.enter_go_on"))
        m.next_game()
        self.last_move = None
        self.autosave()
        return False

    @property
    def turn(self) -> int:
        return self.game.turn

    def is_over(self) -> bool:
        return self.game.is_over

    def before_turn(self) -> bool:
        """The opening throw, when the game is at it."""
        if self.game.phase != "opening":
            return False
        self.opening()
        return True

    def human_turn(self) -> None:
        """Roll (or double), answer a double, or move, as the game's phase asks."""
        phase = self.game.phase
        try:
            if phase == "roll":
                self.turns.human_roll()
            elif phase == "double":
                self.turns.human_answer()
            else:
                self.turns.human_move()
        except Resigned:
            pass  # the game is over: the loop reports it

    def bot_turn(self, player: Any) -> None:
        self.turns.bot_act(player)
