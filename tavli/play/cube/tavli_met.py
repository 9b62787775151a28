"""Match equity of Tavli matches (no cube), computed exactly.

A Tavli match plays Portes, Plakoto and Fevga in turn (tavli/play/match.py) until a side has
the target (3, 5 or 7 points); a game is worth 1, a gammon (and Plakoto's mother-checker
win) 2, a Plakoto draw 0. The winner of a game starts the next; after a draw the next
game opens with the opening throw. So the match winning chance (MWC) depends on the
points each side still needs, the next game of the rotation and who starts it — and on
each game's outcome rates, :class:`GameRates`, from the starting side's view.

The recursion is exact for those rates: a game's outcomes lead to shorter scores, except
a draw, which leads to the same score and the next game of the rotation with an opening
throw; the draws of one score around the rotation form a small linear system, solved in
closed form.

>>> eq = TavliEquity(5)
>>> round(eq.mwc(0, 0, "portes"), 12)              # the match's start: even
0.5
>>> round(eq.mwc(4, 3, "plakoto", Starter.ME) + eq.mwc(3, 4, "plakoto", Starter.OPPONENT), 12)
1.0
>>> eq.mwc(4, 3, "plakoto", Starter.ME) > eq.mwc(3, 4, "plakoto", Starter.OPPONENT)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum

from tavli.errors import OptionError


class Starter(IntEnum):
    """Who starts the next game: me, the opponent, or the opening throw decides."""

    ME = 0
    OPPONENT = 1
    OPENING = 2


@dataclass(frozen=True)
class GameRates:
    """One game's outcome shares for the side that starts it: single and double (gammon
    or mother) wins and losses, draws; they sum to 1."""

    win_single: float
    win_double: float
    lose_single: float
    lose_double: float
    draw: float = 0.0

    def __post_init__(self) -> None:
        vals = (self.win_single, self.win_double, self.lose_single, self.lose_double,
                self.draw)
        if any(v < 0 for v in vals) or abs(sum(vals) - 1.0) > 1e-6:
            raise OptionError(f"outcome shares must be >= 0 and sum to 1, got {vals}")
        if self.draw >= 1.0:
            raise OptionError("a game cannot always be drawn")

    @classmethod
    def symmetric(cls, gammons: float, draw: float = 0.0) -> GameRates:
        """Even chances: ``gammons`` of the decided games are doubles, ``draw`` drawn.

        >>> GameRates.symmetric(0.2)
        GameRates(win_single=0.4, win_double=0.1, lose_single=0.4, lose_double=0.1, draw=0.0)
        """
        half = (1.0 - draw) / 2
        return cls(half * (1 - gammons), half * gammons, half * (1 - gammons),
                   half * gammons, draw)


#: measured with the shipped networks at 0-ply against themselves, white starting, every
#: game independent (scripts/tavli_rates.py; docs/ai.md, Match equity and cube): Portes and
#: Fevga 10,000 games each (``tavli_rates.py 10000 1 fevga portes``), Plakoto 3,000
#: (``tavli_rates.py 3000 1 plakoto``)
MEASURED_RATES: dict[str, GameRates] = {
    "portes": GameRates(0.3773, 0.1498, 0.3579, 0.1150),
    "plakoto": GameRates(0.2853, 0.2577, 0.2760, 0.1807, 0.0003),
    "fevga": GameRates(0.4656, 0.1186, 0.3676, 0.0482),
}


TAVLI_ROTATION = ("portes", "plakoto", "fevga")


class TavliEquity:
    """The MWC of Tavli matches to ``target`` points over ``rotation``, each game with its
    :class:`GameRates` (default :data:`MEASURED_RATES`)."""

    def __init__(self, target: int, rotation: tuple[str, ...] = TAVLI_ROTATION,
                 rates: Mapping[str, GameRates] | None = None) -> None:
        if not isinstance(target, int) or not 1 <= target <= 99:
            raise OptionError(f"a match target must be 1..99 points, got {target!r}")
        rates = dict(rates if rates is not None else MEASURED_RATES)
        missing = [g for g in rotation if g not in rates]
        if missing:
            raise OptionError(f"no outcome rates for {', '.join(missing)}")
        self.target = target
        self.rotation = tuple(rotation)
        self.rates = tuple(rates[g] for g in self.rotation)
        self._memo: dict[tuple[int, int, int, int], float] = {}

    def mwc(self, score_me: int, score_opp: int, next_game: str,
            starter: Starter = Starter.OPENING) -> float:
        """My MWC with ``score_me`` to ``score_opp`` points, before ``next_game``, which
        ``starter`` starts."""
        if next_game not in self.rotation:
            raise OptionError(f"{next_game!r} is not in the rotation "
                              f"{'/'.join(self.rotation)}")
        for s in (score_me, score_opp):
            if not 0 <= s < self.target:
                raise OptionError(f"a score must be 0..{self.target - 1} before a game, "
                                  f"got {s}")
        return self._f(self.target - score_me, self.target - score_opp,
                       self.rotation.index(next_game), int(Starter(starter)))

    def _f(self, a: int, b: int, k: int, s: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        key = (a, b, k, s)
        if key not in self._memo:
            self._solve(a, b)
        return self._memo[key]

    def _decided(self, a: int, b: int, k: int, s: int) -> float:
        """The part of the MWC from decided games (draws left out)."""
        r = self.rates[k]
        n = (k + 1) % len(self.rotation)
        if s == Starter.ME:
            return (r.win_single * self._f(a - 1, b, n, 0) + r.win_double * self._f(a - 2, b, n, 0)
                    + r.lose_single * self._f(a, b - 1, n, 1)
                    + r.lose_double * self._f(a, b - 2, n, 1))
        return (r.lose_single * self._f(a - 1, b, n, 0) + r.lose_double * self._f(a - 2, b, n, 0)
                + r.win_single * self._f(a, b - 1, n, 1) + r.win_double * self._f(a, b - 2, n, 1))

    def _solve(self, a: int, b: int) -> None:
        """Fill every (next game, starter) of the score ``a``/``b`` away: with ``x_k`` the
        MWC before game ``k`` opened by the throw, ``x_k = c_k + d_k x_{k+1}`` around the
        rotation."""
        n = len(self.rotation)
        dec = {(k, s): self._decided(a, b, k, s) for k in range(n) for s in (0, 1)}
        c = [(dec[k, 0] + dec[k, 1]) / 2 for k in range(n)]
        d = [r.draw for r in self.rates]
        prod = 1.0
        for v in d:
            prod *= v
        for k in range(n):
            acc, w = 0.0, 1.0
            for j in range(n):
                acc += w * c[(k + j) % n]
                w *= d[(k + j) % n]
            self._memo[a, b, k, 2] = acc / (1 - prod)
        for k in range(n):
            nxt = self._memo[a, b, (k + 1) % n, 2]
            for s in (0, 1):
                self._memo[a, b, k, s] = dec[k, s] + d[k] * nxt
