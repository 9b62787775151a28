"""The cube's state as one value, seen from the side to move: :class:`CubeInfo`.

(Modelled on the idea of gnubg's ``cubeinfo``: what a cubeful evaluation needs to know
about the cube and the score, in one small value.)

>>> ci = CubeInfo(cube=2, owner=Owner.ME, length=7, away=(3, 5))
>>> ci.is_money, ci.can_double(Owner.ME), ci.can_double(Owner.OPPONENT)
(False, True, False)
>>> CubeInfo().gammon_values          # money: a gammon adds a whole game
GammonValues(win_gammon=1.0, win_backgammon=1.0, lose_gammon=1.0, lose_backgammon=1.0)
>>> CubeInfo(jacoby=True).gammon_values.win_gammon   # Jacoby, cube centred: none
0.0
>>> CubeInfo(cube=2, owner=Owner.ME, length=5, away=(2, 4)).is_dead   # 2 wins me it
True
>>> CubeInfo(length=5, away=(4, 1), post_crawford=True).free_drop
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any, Protocol

from tavli.errors import OptionError
from tavli.play.cube.met import MET, default_met
from tavli.play.cube.prices import (
    MONEY_GAMMON_VALUES,
    NO_GAMMON_VALUES,
    GammonValues,
    gammon_values,
)

#: the highest cube value the games allow (tavli.play.game.MAX_CUBE)
MAX_CUBE = 64


class GameLike(Protocol):
    """What :meth:`CubeInfo.from_game` reads of a game: a :class:`tavli.Game` (named by
    its traits so that this module stays free of the engine and NumPy)."""

    @property
    def position(self) -> Any:
        """The position (its ``turn``: the side to move)."""

    @property
    def cube_value(self) -> int:
        """The cube's value."""

    @property
    def cube_owner(self) -> int | None:
        """The side that owns the cube (None: centred)."""

    @property
    def rules(self) -> Any:
        """The :class:`tavli.Rules` (``cube``, ``jacoby``, ``beavers``)."""

    @property
    def crawford(self) -> bool:
        """Is this the Crawford game?"""

    @property
    def is_over(self) -> bool:
        """Has the game ended?"""


class MatchLike(Protocol):
    """What :meth:`CubeInfo.from_game` reads of a match: a :class:`tavli.Match`."""

    @property
    def target(self) -> int:
        """The match length."""

    @property
    def score(self) -> tuple[int, int]:
        """The points of white and black."""

    @property
    def game(self) -> Any:
        """The game being played."""


class Owner(IntEnum):
    """Who holds the cube, from the side to move's view."""

    CENTRED = -1
    ME = 0
    OPPONENT = 1


@dataclass(frozen=True)
class CubeInfo:
    """The cube and the score from the side to move's view.

    ``cube``: the cube's value; ``owner``: :class:`Owner`; ``length``: the match length
    (0: money play); ``away``: points each side still needs, ``(me, opponent)`` (ignored
    in money play); ``crawford``: this is the Crawford game; ``post_crawford``: the
    Crawford game has been played; ``jacoby``, ``beavers``: the money-play options;
    ``cube_used``: whether the game has a cube at all (Tavli games have none); ``met``:
    the match equity table (default :func:`~tavli.play.cube.met.default_met`).
    """

    cube: int = 1
    owner: Owner = Owner.CENTRED
    length: int = 0
    away: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    cube_used: bool = True
    met: MET | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        c = self.cube
        if not isinstance(c, int) or c < 1 or c > MAX_CUBE or c & (c - 1):
            raise OptionError(f"the cube's value must be a power of 2 up to {MAX_CUBE}, "
                              f"got {c!r}")
        object.__setattr__(self, "owner", Owner(self.owner))
        if self.length < 0:
            raise OptionError(f"the match length must be 0 (money) or more, got {self.length}")
        if self.length:
            a, b = self.away
            if not (1 <= a <= self.length and 1 <= b <= self.length):
                raise OptionError(f"away counts must be 1..{self.length}, got {a}, {b}")
            if (self.crawford or self.post_crawford) and 1 not in (a, b):
                raise OptionError("the Crawford rule applies only when a side is 1-away")
            if self.crawford and self.post_crawford:
                raise OptionError("a game cannot be both the Crawford game and after it")
            if self.jacoby or self.beavers:
                raise OptionError("Jacoby and beavers are money-play options")
        if self.crawford and (self.cube != 1 or self.owner != Owner.CENTRED):
            raise OptionError("the Crawford game is played without the cube")

    @property
    def is_money(self) -> bool:
        """Money play (no match score)."""
        return self.length == 0

    @property
    def table(self) -> MET:
        """The match equity table in use."""
        return self.met if self.met is not None else default_met()

    def flip(self) -> CubeInfo:
        """The same state from the opponent's view."""
        owner = {Owner.ME: Owner.OPPONENT, Owner.OPPONENT: Owner.ME}.get(self.owner,
                                                                         Owner.CENTRED)
        return replace(self, owner=owner, away=(self.away[1], self.away[0]))

    def can_double(self, side: Owner = Owner.ME) -> bool:
        """May ``side`` (ME or OPPONENT) double usefully now: the game has a cube, it is
        not the Crawford game, the cube is centred or his, below the highest value, and in
        a match his wins do not already take him to the match (then doubling gains
        nothing)."""
        if side == Owner.CENTRED:
            raise OptionError("only a side can double")
        if not self.cube_used or self.crawford or self.cube >= MAX_CUBE:
            return False
        if self.owner not in (Owner.CENTRED, side):
            return False
        return self.is_money or self.cube < self.away[int(side)]

    @property
    def is_dead(self) -> bool:
        """Neither side can usefully turn the cube any more."""
        return not (self.can_double(Owner.ME) or self.can_double(Owner.OPPONENT))

    @property
    def free_drop(self) -> bool:
        """Post-Crawford with the trailer an even number of points away and the cube not
        yet turned: the leader may pass the trailer's first double at no cost (the
        trailer then needs as many games as before)."""
        if not self.post_crawford or self.cube != 1:
            return False
        a, b = self.away
        trailer = b if a == 1 else a
        return trailer > 1 and trailer % 2 == 0

    @property
    def gammon_values(self) -> GammonValues:
        """The gammon values for the side to move (see :mod:`tavli.play.cube.prices`): 1 and 1
        in money play (0 under Jacoby with the cube centred), from the MET at the score
        and the cube's value in a match."""
        if self.is_money:
            if self.jacoby and self.owner == Owner.CENTRED:
                return NO_GAMMON_VALUES
            return MONEY_GAMMON_VALUES
        a, b = self.away
        return gammon_values(self.table, a, b, self.cube,
                             self.post_crawford or self.crawford)

    @classmethod
    def from_game(cls, game: GameLike, match: MatchLike | None = None,
                  side: int | None = None, met: MET | None = None) -> CubeInfo:
        """The state of ``game`` (of ``match``, if it is one) from ``side``'s view (default
        the side to move).

        >>> from tavli.play.match import Match
        >>> m = Match(target=3, variant="backgammon", seed=1)
        >>> CubeInfo.from_game(m.game, m)
        CubeInfo(cube=1, owner=<Owner.CENTRED: -1>, length=3, away=(3, 3), crawford=False, \
post_crawford=False, jacoby=False, beavers=False, cube_used=True)
        """
        me = game.position.turn if side is None else side
        owner = (Owner.CENTRED if game.cube_owner is None
                 else Owner.ME if game.cube_owner == me else Owner.OPPONENT)
        rules = game.rules
        if match is None:
            return cls(cube=game.cube_value, owner=owner, jacoby=bool(rules.jacoby),
                       beavers=bool(rules.beavers), cube_used=bool(rules.cube), met=met)
        score = match.score
        if game is match.game and game.is_over:
            raise OptionError("the game is over: its points are in the match score")
        away = (match.target - score[me], match.target - score[1 - me])
        leader_one = 1 in away and max(away) > 1
        post = leader_one and not game.crawford
        return cls(cube=game.cube_value, owner=owner, length=match.target, away=away,
                   crawford=game.crawford, post_crawford=post, cube_used=bool(rules.cube),
                   met=met)
