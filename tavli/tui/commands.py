"""The commands typed during terminal play: help, board, moves, hint, undo, resign, save,
quit, and the cube's double, take, drop and beaver."""

from __future__ import annotations

from tavli.engine.dice import dice_text
from tavli.errors import TavliError
from tavli.tui.board import side_label
from tavli.tui.context import SessionState
from tavli.tui.screen import Quit, Screen
from tavli.tui.words import _, answer, error_text, points
from tavli.tui.words import side as side_name

HINTS_SHOWN = 5

class Resigned(Exception):
    """The game ended by resignation (the turn in progress is over)."""


class Commands:
    """The commands of a :class:`~tavli.tui.dice.DiceSession`, for its human players."""

    def __init__(self, session: SessionState, screen: Screen) -> None:
        self.s = session
        self.screen = screen

    def handle(self, line: str) -> bool:
        """Run a command that works at any prompt; True when ``line`` was one."""
        words = line.split()
        if not words:
            return False
        cmd = words[0].lower()
        if cmd in ("quit", "exit", "q"):
            raise Quit
        if cmd in ("help", "?", "h"):
            self.screen.say(_("tui.help"))
            return True
        if cmd in ("board", "b"):
            self.screen.draw()
            return True
        if cmd in ("moves", "m"):
            moves = self.s.game.legal_moves()
            if not moves:
                self.screen.say(_("tui.no_moves"))
            self.screen.list_moves(moves)
            return True
        if cmd == "hint":
            self.hint()
            return True
        if cmd in ("undo", "u"):
            self.screen.error(_("tui.undo_nothing"))
            return True
        if cmd == "resign":
            if len(words) > 2:
                self.screen.error(_("tui.usage.resign"))
                return True
            self.resign(words[1].lower() if len(words) == 2 else None)
            return True
        if cmd == "save":
            self.s.save_command(words[1:])
            return True
        return False

    def hint(self) -> None:
        """The best moves of the roll as the AI ranks them (``tavli hint``'s ranking; in a
        match by match winning chances at the score, each move with its MWC)."""
        from tavli.ai.levels import DEFAULT_LEVEL, LEVELS
        from tavli.ai.neural import rank_moves
        from tavli.play.cube.scoring import ScoreWeights

        g = self.s.game
        say = self.screen.say
        if g.phase != "move" or g.dice is None:
            self.screen.error(_("tui.hint_roll"))
            return
        moves = g.legal_moves()
        if not moves:
            say(_("tui.no_legal_move", dice=dice_text(g.dice)))
            return
        score = ScoreWeights.for_game(g, self.s.match)
        engine, ranked = rank_moves(g.rules, g.position, moves, DEFAULT_LEVEL, score)
        number = {str(m): k for k, m in enumerate(moves, 1)}
        match = engine == "neural" and not score.is_money
        if engine == "neural":
            ply = LEVELS[DEFAULT_LEVEL].plies
            what = (_("tui.hint.match", context=score.context) if match
                    else _("tui.hint.cubeless"))
            say(_("tui.hint.neural", dice=dice_text(g.dice), ply=ply, what=what), "bold")
        else:
            say(_("tui.hint.greedy", dice=dice_text(g.dice), game=g.rules.game_name), "bold")
        shown = ranked[:HINTS_SHOWN]
        w = max(len(str(m)) for m, _ in shown)
        for m, value in shown:
            mwc = f"  {100 * (score.mwc(value) or 0.0):5.1f}%" if match else ""
            say(f"  {number[str(m)]:>3}. {str(m):<{w}}  {value:+.3f}{mwc}")
        if len(ranked) > len(shown):
            say("     " + _("tui.hint.more", n=len(ranked) - len(shown)), "dim")

    def resign(self, value: str | None) -> None:
        """The side to act gives up the game, if the opponent accepts what is offered
        (a computer player judges, a human is asked). The values are typed in English
        (``single``, ``gammon``, ``backgammon``); yes and no in any of the languages."""
        from tavli.ai.neural import accepts_resignation
        from tavli.play.game import RESIGN_POINTS

        g = self.s.game
        screen = self.screen
        if g.is_over:
            screen.error(_("tui.game_is_over"))
            return
        side = g.turn
        other = 1 - side
        values = g.resign_values()
        yes, no = _("tui.yes"), _("tui.no")
        either = " " + _("tui.or") + " "

        def worth(v: str, won: bool = False) -> str:
            return points(RESIGN_POINTS[v] * g.cube_value, won)

        if value is None:  # ask, so that a slip of the keyboard loses nothing
            me = side_label(side, screen.disc)
            if len(values) == 1:
                line = screen.ask(_("tui.resign.ask_single", who=me, side=side_name(other),
                                    points=worth("single", True), yes=yes, no=no))
            else:
                kinds = either.join(_(f"tui.resign.kind.{v}", points=worth(v))
                                    for v in values)
                line = screen.ask(_("tui.resign.ask", who=me, kinds=kinds,
                                    values=", ".join(values), no=no))
            said = answer(line)
            if said is False or not line:
                screen.say(_("tui.play_on"), "dim")
                return
            value = "single" if said else line.lower()
        if value not in values:
            screen.error(_("tui.resign.not_here", values=either.join(values),
                           typed=repr(value[:20])))
            return
        offer = _(f"tui.resign.offer.{value}", side=side_name(side))
        opponent = self.s.players[other]
        if opponent is None:
            line = screen.ask(_("tui.resign.ask_accept", offer=offer,
                                who=side_label(other, screen.disc), points=worth(value, True),
                                yes=yes, no=no))
            accepted = answer(line) is True
        else:
            accepted = accepts_resignation(g, side, value)
        who = side_name(other) + ("" if opponent is None else f" ({opponent.name})")
        if not accepted:
            screen.say(_("tui.resign.declined", offer=offer, side=who), "bold")
            return
        g.resign(side, value)
        self.s.last_move = None
        self.s.autosave()
        screen.say(_("tui.resign.accepted", offer=offer, side=side_name(other),
                     points=worth(value, True)), "bold")
        raise Resigned

    def cube(self, cmd: str) -> bool | None:
        """double/take/drop/beaver: True when it was done, False when the engine refused
        (its message is shown), None when ``cmd`` is not a cube command."""
        g = self.s.game
        side = g.turn
        action = {"double": g.double, "take": g.take, "drop": g.drop,
                  "beaver": g.beaver}.get(cmd)
        if action is None:
            return None
        try:
            action()
        except TavliError as e:
            self.screen.error(error_text(e, cmd))
            return False
        self.s.autosave()
        if cmd == "double":
            self.screen.say(_("tui.bot_double", who=side_name(side), value=g.cube_value * 2))
        elif cmd == "drop":
            self.screen.say(_("tui.bot_drop", who=side_name(side)))
        else:
            self.screen.say(_(f"tui.bot_{cmd}", who=side_name(side), value=g.cube_value))
        return True
