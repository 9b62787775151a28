"""One game: opening roll, dice, turns, passes, the doubling cube (backgammon), the end
and its points.

>>> from tavli.play.game import Game
>>> g = Game("portes", seed=3)
>>> g.roll()            # the opening throw decides who starts, then he throws both dice
(5, 2)
>>> g.turn, "13/8 13/11" in [str(m) for m in g.legal_moves()]
(1, True)
>>> _ = g.play("13/8 13/11")
>>> g.turn, g.phase
(0, 'roll')

Everything that happens is one typed history (:mod:`tavli.play.history`); a decision can be
taken back until the next throw of the dice:

>>> g.history[-2:]
(Roll(side=1, dice=(5, 2)), Play(side=1, dice=(5, 2), move=Move('13/8 13/11')))
>>> g.undo()
Play(side=1, dice=(5, 2), move=Move('13/8 13/11'))
>>> g.turn, g.phase, g.dice
(1, 'move', (5, 2))
>>> g.undo()
Traceback (most recent call last):
...
tavli.errors.WrongState: the dice are thrown (5-2): a roll is not taken back, play it
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tavli.engine.board import Dice, Move, Position
from tavli.engine.dice import DiceSource, dice_text
from tavli.engine.layout import SIDE_NAMES
from tavli.engine.rules import Rules
from tavli.errors import GameOver, IllegalMove, WrongState
from tavli.play.history import (
    Action,
    AgreedDraw,
    Beaver,
    Double,
    Drop,
    Forfeit,
    Opening,
    Pass,
    Play,
    Resign,
    Roll,
    Take,
)

MAX_CUBE = 64
#: what a resignation concedes: points before the cube
RESIGN_POINTS = {"single": 1, "gammon": 2, "backgammon": 3}
#: how a side may lose without playing on (online play): its clock ran out, or it left
FORFEITS = ("time", "abandoned")


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` (None for a draw), ``points`` won (cube included) and
    ``kind``: single, gammon, backgammon, mother, draw (Plakoto's two pinned mothers, or
    a draw the players agreed), drop, resign, time (lost on time) or abandoned (an online
    player who left, claimed by the opponent)."""

    winner: int | None
    points: int
    kind: str

    def to_dict(self) -> dict[str, Any]:
        """The outcome as records store it (``winner`` as a side's name)."""
        return {"winner": None if self.winner is None else SIDE_NAMES[self.winner],
                "points": self.points, "kind": self.kind}

    def __str__(self) -> str:
        if self.winner is None:
            return "draw (0 points)"
        return f"{SIDE_NAMES[self.winner]} wins {self.points} point" + \
            ("s" if self.points != 1 else "") + f" ({self.kind})"


def base_result(pos: Position, rules: Rules) -> tuple[int | None, int, str] | None:
    """The end of a game judged on the position after a turn, without the cube:
    ``(winner, points, kind)`` (``winner`` None for a draw), or None when play goes on.
    The one compiled verdict (:func:`tavli.engine.games.kernel.verdict`) decides."""
    from tavli.engine.games.kernel import judge

    return judge(pos.array, rules.kernel_flags())


class Game:
    """A game played by ``rules`` (a :class:`Rules` or a game name).

    Dice come from ``dice`` (a :class:`DiceSource`), or ``random.Random(seed)`` when
    ``seed`` is given, else the OS's secure source. ``first`` names the side that starts
    without an opening throw (it throws both dice; match games after the first);
    ``position`` starts from a given position (its side to move starts).
    ``match_play`` switches off the money-only options (Jacoby, beavers) and ``crawford``
    marks the Crawford game of a match (no doubling).

    Phases: ``opening`` (nobody has thrown), ``roll`` (the side to move may double, then
    rolls), ``double`` (a double awaits take or drop), ``move`` (dice are out), ``over``.

    The game keeps one list of what happened, :attr:`history` (typed actions, see
    :mod:`tavli.play.history`); the state (``position``, ``phase``, ``dice``, the cube,
    ``outcome``) is what the history makes of the start, :meth:`undo` takes the last
    action back, and ``turns``, ``moves`` and ``events`` (the record's view) are read
    from the history.
    """

    def __init__(self, rules: Rules | str | int = "portes", *, dice: DiceSource | None = None,
                 seed: int | None = None, first: int | None = None,
                 position: Position | None = None, match_play: bool = False,
                 crawford: bool = False) -> None:
        self.rules = rules if isinstance(rules, Rules) else Rules.for_game(rules)
        self.dice_source = dice if dice is not None else DiceSource(seed=seed)
        self.match_play = match_play
        self.crawford = crawford
        if position is not None:
            if position.game != self.rules.game:
                raise WrongState(f"the position is {position.game_name}, the rules "
                                 f"{self.rules.game_name}")
            self.start_position = position
            first = position.turn
        else:
            self.start_position = Position.start(self.rules, first or 0)
        self._start_first = first
        #: set by a match once its next game has begun: this game's end then stands
        self.sealed = False
        #: the players' names (white, black) as a file gave them (.mat, .sgf, a record);
        #: None: unnamed (files then say "white" and "black")
        self.names: tuple[str, str] | None = None
        #: the match this game belongs to (set by :class:`~tavli.play.match.Match`; players
        #: read the score from it for their cube decisions)
        self.match: Any = None
        self._history: list[Action] = []
        self._reset()

    def _reset(self) -> None:
        """The state before any action."""
        self.position = self.start_position
        self.first = self._start_first
        self.phase = "opening" if self.first is None else "roll"
        self.dice: Dice | None = None
        self.cube_value = 1
        self.cube_owner: int | None = None
        self.outcome: Outcome | None = None
        self._legal: list[Move] | None = None

    # --- the history ----------------------------------------------------------------------
    @property
    def history(self) -> tuple[Action, ...]:
        """Every action so far, oldest first (see :mod:`tavli.play.history`): the one record of
        the game, from which its state and all the views below derive."""
        return tuple(self._history)

    def _push(self, action: Action) -> None:
        self._history.append(action)
        self._apply(action)

    def _apply(self, a: Action) -> None:
        """Change the state by ``a`` (checked by the caller)."""
        self._legal = None
        match a:
            case Opening():
                starter = a.starter
                if starter is None:
                    return
                self.first = starter
                self.position = Position(self.rules.game, self.position.array, starter,
                                         validate=False)
                if self.rules.opening_reroll:
                    self.phase = "roll"
                else:
                    self.dice = (a.white, a.black) if starter == 0 else (a.black, a.white)
                    self.phase = "move"
            case Roll():
                if self.phase == "opening":
                    self.first = self.position.turn
                self.dice = a.dice
                self.phase = "move"
            case Play() | Pass():
                self.position = a.move.after if a.move is not None \
                    else self.position.swap_turn()
                self.dice = None
                self.phase = "roll"
                res = base_result(self.position, self.rules)
                if res is not None:
                    self._finish(*res)
            case Double():
                self.phase = "double"
            case Take():
                self.cube_value *= 2
                self.cube_owner = a.side
                self.phase = "roll"
            case Beaver():
                self.cube_value *= 4
                self.cube_owner = a.side
                self.phase = "roll"
            case Drop():
                self.phase = "roll"
                self._finish(1 - a.side, 1, "drop")
            case Resign():
                self._finish(1 - a.side, RESIGN_POINTS[a.value], "resign")
            case Forfeit():
                self.outcome = Outcome(1 - a.side, self.forfeit_points(a.side), a.kind)
                self.phase = "over"
                self.dice = None
            case AgreedDraw():
                self._finish(None, 0, "draw")

    def can_undo(self) -> bool:
        """May :meth:`undo` take back the last action?"""
        return self._undo_refusal() is None

    def _undo_refusal(self) -> str | None:
        if not self._history:
            return "nothing to take back: no action has been taken"
        if self.sealed:
            return "the match has gone on to the next game: this game's end stands"
        last = self._history[-1]
        if isinstance(last, Opening):
            return "the opening throw is not taken back"
        if isinstance(last, Roll):
            return (f"the dice are thrown ({dice_text(last.dice)}): a roll is not taken "
                    "back, play it")
        return None

    def undo(self) -> Action:
        """Take back the last action and return it; everything it changed (position,
        phase, dice, cube, outcome) is as before.

        Decisions can be taken back, one at a time, latest first: a move or pass (its
        dice are out again), a double not yet answered, a take, beaver or drop, a
        resignation, also one that ended the game. Chance is never taken back: an
        opening throw or a roll refuses (so a move can be taken back until the next roll,
        and the dice stay what they were); so does a game whose match has gone on to the
        next game. A refusal raises :class:`WrongState` and changes nothing."""
        why = self._undo_refusal()
        if why is not None:
            raise WrongState(why)
        last = self._history.pop()
        self._reset()
        for a in self._history:
            self._apply(a)
        return last

    @property
    def pending_dice(self) -> Dice | None:
        """The dice of a roll thrown and not yet played, or None (also when the dice out
        are the opening throw: without the re-roll the first turn plays those)."""
        last = self._history[-1] if self._history else None
        return last.dice if isinstance(last, Roll) and self.phase == "move" else None

    @property
    def turns(self) -> list[tuple[Position, Dice, Move | None]]:
        """Every turn played: (position before, dice, move or None for a pass)."""
        out: list[tuple[Position, Dice, Move | None]] = []
        pos = self.start_position
        for a in self._history:
            if isinstance(a, Opening) and a.starter is not None:
                pos = Position(self.rules.game, pos.array, a.starter, validate=False)
            elif isinstance(a, Play):
                out.append((a.move.before, a.dice, a.move))
                pos = a.move.after
            elif isinstance(a, Pass):
                out.append((pos, a.dice, None))
                pos = pos.swap_turn()
        return out

    @property
    def moves(self) -> list[Move | None]:
        """The move of every turn played (None for a pass)."""
        return [a.move for a in self._history if isinstance(a, Play | Pass)]

    @property
    def events(self) -> list[dict[str, Any]]:
        """The history as a game record writes it (``events`` in ``docs/formats.md``): a
        new list of new dicts, read-only in effect; :attr:`history` is the typed one."""
        return [ev for a in self._history if (ev := a.to_event()) is not None]

    # --- state --------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        """The side to act: to roll or move, or to answer a double."""
        if self.phase == "double":
            return 1 - self.position.turn
        return self.position.turn

    @property
    def is_over(self) -> bool:
        """Has the game ended (:attr:`outcome` says how)?"""
        return self.outcome is not None

    def __repr__(self) -> str:
        rules = repr(self.rules)
        if rules == f"Rules({self.rules.game_name!r})":  # the game's own defaults
            rules = repr(self.rules.game_name)
        dice = f", dice={self.dice}" if self.phase == "move" else ""
        end = f", outcome={str(self.outcome)!r}" if self.outcome is not None else ""
        return (f"Game({rules}, phase={self.phase!r}, turn={SIDE_NAMES[self.turn]!r}{dice}, "
                f"position={self.position.id()!r}{end})")

    def _check_live(self) -> None:
        if self.outcome is not None:
            raise GameOver(f"the game is over: {self.outcome}")

    # --- dice ---------------------------------------------------------------------------
    def _throw(self) -> int:
        return self.dice_source.die()

    def roll(self) -> Dice:
        """Throw the dice for the side to move (the opening throw first if nobody has
        started). Returns the dice to play."""
        self._check_live()
        if self.phase == "opening":
            self.opening_throw()
            if self.phase == "move":
                assert self.dice is not None
                return self.dice
        if self.phase == "double":
            raise WrongState(f"{SIDE_NAMES[self.turn]} must take or drop the double first")
        if self.phase != "roll":
            raise WrongState("the dice are already out: play a move")
        d = (self._throw(), self._throw())
        self._push(Roll(self.position.turn, d))
        return d

    def opening_throw(self) -> int:
        """Each side throws one die (again on a tie); the higher starts. Returns the
        starter. With ``opening_reroll`` he then throws both dice (phase ``roll``);
        without, the two opening dice are his first roll (phase ``move``)."""
        self._check_live()
        if self.phase != "opening":
            raise WrongState("the opening throw has been made")
        throws = []
        while True:
            throws.append(Opening(self._throw(), self._throw()))
            if throws[-1].starter is not None:
                break
        for a in throws:
            self._push(a)
        starter = throws[-1].starter
        assert starter is not None
        return starter

    def set_dice(self, dice: Dice) -> None:
        """Use ``dice`` for this turn instead of throwing (analysis, tests); the history
        holds them as a :class:`~tavli.play.history.Roll`."""
        from tavli.engine.board import parse_dice

        self._check_live()
        if self.phase not in ("roll", "opening"):
            raise WrongState("dice can only be set before the side to move rolls")
        self._push(Roll(self.position.turn, parse_dice(dice)))

    # --- moves --------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """The legal turns with the current dice (empty: the side to move must pass)."""
        if self.phase != "move" or self.dice is None:
            return []
        if self._legal is None:
            self._legal = self.position.legal_moves(self.dice, self.rules)
        return self._legal

    def play(self, move: Move | str | None) -> Move | None:
        """Play ``move`` (a legal :class:`Move`, its text, or None/"" to pass when no move
        is legal). Nothing changes if it is illegal."""
        self._check_live()
        if self.phase != "move" or self.dice is None:
            raise WrongState("roll the dice before moving")
        legal = self.legal_moves()
        side = self.position.turn
        if move is None or (isinstance(move, str) and not move.strip()):
            if legal:
                raise IllegalMove(f"a move is possible with {dice_text(self.dice)}, "
                                  "so the turn cannot be passed")
            self._push(Pass(side, self.dice))
            return None
        if isinstance(move, Move) and any(m is move for m in legal):
            chosen = move  # one of this turn's own moves: no need to find it again
        else:
            chosen = self.position.find_move(move, self.dice, self.rules)
        self._push(Play(side, self.dice, chosen))
        return chosen

    # --- the cube (backgammon) ----------------------------------------------------------
    def can_double(self) -> bool:
        """May the side to move offer a double now?"""
        return (self.rules.cube and self.outcome is None and self.phase == "roll"
                and not self.crawford and self.cube_value < MAX_CUBE
                and self.cube_owner in (None, self.position.turn))

    def double(self) -> None:
        """The side to move offers a double (before rolling)."""
        self._check_live()
        if not self.rules.cube:
            raise WrongState(f"{self.rules.game_name} is played without the doubling cube")
        if self.crawford:
            raise WrongState("no doubling in the Crawford game")
        if self.phase != "roll":
            raise WrongState("a double can be offered only before rolling")
        if not self.can_double():
            raise WrongState("the cube belongs to the opponent")
        self._push(Double(self.position.turn, self.cube_value * 2))

    def take(self) -> None:
        """Accept the double: the cube doubles and passes to the taker."""
        self._check_answer()
        self._push(Take(self.turn))

    def beaver(self) -> None:
        """Take and at once redouble, keeping the cube (money play with beavers on)."""
        if not self.rules.beavers or self.match_play:
            raise WrongState("beavers are not allowed")
        self._check_answer()
        self._push(Beaver(self.turn))

    def drop(self) -> None:
        """Refuse the double: the doubler wins the cube's current value."""
        self._check_answer()
        self._push(Drop(self.turn))

    def _check_answer(self) -> None:
        self._check_live()
        if self.phase != "double":
            raise WrongState("there is no double to answer")

    # --- resigning ------------------------------------------------------------------------
    def resign_values(self) -> list[str]:
        """What a resignation may concede here: ``single`` always; ``gammon`` and
        ``backgammon`` where the scoring counts them (not under Jacoby with the cube in
        the middle)."""
        if self.rules.jacoby and not self.match_play and self.cube_value == 1:
            return ["single"]
        values = ["single", "gammon"]
        if self.rules.backgammons:
            values.append("backgammon")
        return values

    def resign(self, side: int, value: str = "single") -> None:
        """``side`` gives up the game, conceding ``value`` (see :meth:`resign_values`)
        times the cube. Dice thrown and not played are kept in the record."""
        self._check_live()
        if side not in (0, 1):
            raise WrongState(f"side must be 0 (white) or 1 (black), not {side!r}")
        if value not in self.resign_values():
            raise IllegalMove(f"a resignation concedes {' or '.join(self.resign_values())}, "
                              f"not {str(value)[:20]!r}")
        self._push(Resign(side, value, self.pending_dice))

    # --- forfeits and agreed draws (online play) ----------------------------------------
    def forfeit_points(self, loser: int) -> int:
        """What ``loser`` loses by a forfeit (time, abandonment): the game as his position
        stands — a gammon while he has borne off no checker, a backgammon where they count
        and he also has a checker in the winner's home board or on the bar — times the
        cube (Jacoby: a single game with the cube in the middle of a money game); in a
        match at least the points the winner still needs: the match is forfeited."""
        row = self.position.array[loser]
        value = 1
        if row[0] == 0:
            value = 2
            if self.rules.backgammons and (row[25] + row[19:25].sum()) > 0:
                value = 3
        if self.rules.jacoby and not self.match_play and self.cube_value == 1:
            value = 1
        points = value * self.cube_value
        m = self.match
        if m is not None and not self.is_over:
            points = max(points, m.target - m.score[1 - loser])
        return int(points)

    def forfeit(self, side: int, kind: str) -> None:
        """``side`` loses without playing on, ``kind`` ``time`` or ``abandoned`` (scored by
        :meth:`forfeit_points`). Dice thrown and not played are kept in the record."""
        self._check_live()
        if side not in (0, 1):
            raise WrongState(f"side must be 0 (white) or 1 (black), not {side!r}")
        if kind not in FORFEITS:
            raise WrongState(f"a forfeit is {' or '.join(FORFEITS)}, not {str(kind)[:20]!r}")
        self._push(Forfeit(side, kind, self.pending_dice))

    def agree_draw(self, side: int) -> None:
        """``side`` accepts the opponent's offer of a draw: the game ends drawn, 0 points,
        as Plakoto's two pinned mothers (only in games whose rules know a draw)."""
        self._check_live()
        if not self.rules.variant.draws:
            raise WrongState(f"{self.rules.game_name} has no draw: it is played to the end")
        if side not in (0, 1):
            raise WrongState(f"side must be 0 (white) or 1 (black), not {side!r}")
        self._push(AgreedDraw(side, self.pending_dice))

    def _finish(self, winner: int | None, points: int, kind: str) -> None:
        if winner is not None and kind in ("gammon", "backgammon") and self.rules.jacoby \
                and not self.match_play and self.cube_value == 1:
            points = 1
        self.outcome = Outcome(winner, points * self.cube_value, kind)
        self.phase = "over"
        self.dice = None
