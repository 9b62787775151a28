"""One game: opening roll, dice, turns, passes, the doubling cube (backgammon), the end
and its points.

>>> from tavli.game import Game
>>> g = Game("portes", seed=3)
>>> g.roll()            # the opening throw decides who starts, then he throws both dice
(5, 2)
>>> g.turn, "13/8 13/11" in [str(m) for m in g.legal_moves()]
(1, True)
>>> _ = g.play("13/8 13/11")
>>> g.turn, g.phase
(0, 'roll')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import Dice, Move, Position
from .dice import DiceSource, dice_text
from .errors import GameOver, IllegalMove, WrongState
from .layout import SIDE_NAMES
from .rules import Rules

MAX_CUBE = 64
#: what a resignation concedes: points before the cube
RESIGN_POINTS = {"single": 1, "gammon": 2, "backgammon": 3}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` (None for a draw), ``points`` won (cube included) and
    ``kind``: single, gammon, backgammon, mother, draw, drop or resign."""

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
    The one compiled verdict (:func:`tavli.games.kernel.verdict`) decides."""
    from .games.kernel import judge

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
            self.start_position = Position.start(self.rules.game, first or 0)
        self.position = self.start_position
        self.first = first
        self.phase = "opening" if first is None else "roll"
        self.dice: Dice | None = None
        self.cube_value = 1
        self.cube_owner: int | None = None
        self.outcome: Outcome | None = None
        self.events: list[dict[str, Any]] = []
        self.moves: list[Move | None] = []
        #: every turn played: (position before, dice, move or None for a pass)
        self.turns: list[tuple[Position, Dice, Move | None]] = []
        self._legal: list[Move] | None = None

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
        if self.phase == "roll":
            d = (self._throw(), self._throw())
        elif self.phase == "double":
            raise WrongState(f"{SIDE_NAMES[self.turn]} must take or drop the double first")
        else:
            raise WrongState("the dice are already out: play a move")
        self.dice = d
        self.phase = "move"
        self._legal = None
        return d

    def opening_throw(self) -> int:
        """Each side throws one die (again on a tie); the higher starts. Returns the
        starter. With ``opening_reroll`` he then throws both dice (phase ``roll``);
        without, the two opening dice are his first roll (phase ``move``)."""
        self._check_live()
        if self.phase != "opening":
            raise WrongState("the opening throw has been made")
        while True:
            w, b = self._throw(), self._throw()
            self.events.append({"opening": [w, b]})
            if w != b:
                break
        starter = 0 if w > b else 1
        self.first = starter
        self.position = Position(self.rules.game, self.position.array, starter,
                                 validate=False)
        if self.rules.opening_reroll:
            self.phase = "roll"
        else:
            self.dice = (w, b) if starter == 0 else (b, w)
            self.phase = "move"
            self._legal = None
        return starter

    def set_dice(self, dice: Dice) -> None:
        """Use ``dice`` for this turn instead of throwing (analysis, tests)."""
        from .board import parse_dice

        self._check_live()
        if self.phase not in ("roll", "opening"):
            raise WrongState("dice can only be set before the side to move rolls")
        self.dice = parse_dice(dice)
        if self.phase == "opening":
            self.first = self.position.turn
        self.phase = "move"
        self._legal = None

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
        if move is None or (isinstance(move, str) and not move.strip()):
            if legal:
                raise IllegalMove(f"a move is possible with {dice_text(self.dice)}, "
                                  "so the turn cannot be passed")
            chosen = None
        else:
            chosen = self.position.find_move(move, self.dice, self.rules)
        self.events.append({"side": SIDE_NAMES[self.position.turn], "dice": list(self.dice),
                            "move": "" if chosen is None else str(chosen)})
        self.moves.append(chosen)
        self.turns.append((self.position, self.dice, chosen))
        self.position = chosen.after if chosen is not None else self.position.swap_turn()
        self.dice = None
        self._legal = None
        self.phase = "roll"
        res = base_result(self.position, self.rules)
        if res is not None:
            self._finish(*res)
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
        self.events.append({"side": SIDE_NAMES[self.position.turn],
                            "double": self.cube_value * 2})
        self.phase = "double"

    def take(self) -> None:
        """Accept the double: the cube doubles and passes to the taker."""
        self._answer("take")
        self.cube_value *= 2
        self.cube_owner = 1 - self.position.turn
        self.phase = "roll"

    def beaver(self) -> None:
        """Take and at once redouble, keeping the cube (money play with beavers on)."""
        if not self.rules.beavers or self.match_play:
            raise WrongState("beavers are not allowed")
        self._answer("beaver")
        self.cube_value *= 4
        self.cube_owner = 1 - self.position.turn
        self.phase = "roll"

    def drop(self) -> None:
        """Refuse the double: the doubler wins the cube's current value."""
        self._answer("drop")
        self.phase = "roll"
        self._finish(self.position.turn, 1, "drop")

    def _answer(self, what: str) -> None:
        self._check_live()
        if self.phase != "double":
            raise WrongState("there is no double to answer")
        self.events.append({"side": SIDE_NAMES[1 - self.position.turn], what: True})

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
        ev: dict[str, Any] = {"side": SIDE_NAMES[side], "resign": value}
        # without the re-roll, the opening throw is the first roll (already recorded)
        opening_dice = (not self.rules.opening_reroll
                        and any("opening" in e for e in self.events)
                        and not any("dice" in e for e in self.events))
        if self.phase == "move" and self.dice is not None and not opening_dice:
            ev["rolled"] = list(self.dice)
        self.events.append(ev)
        self._finish(1 - side, RESIGN_POINTS[value], "resign")

    def _finish(self, winner: int | None, points: int, kind: str) -> None:
        if winner is not None and kind in ("gammon", "backgammon") and self.rules.jacoby \
                and not self.match_play and self.cube_value == 1:
            points = 1
        self.outcome = Outcome(winner, points * self.cube_value, kind)
        self.phase = "over"
        self.dice = None
