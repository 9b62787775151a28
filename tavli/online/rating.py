"""The FIBS rating formula (docs/server.md, "Ratings"): what backgammon players know from
the First Internet Backgammon Server, and the only common formula that weighs the length
of a match — a 7-point match says more about two players than a single game does.

Two players rated ``r1`` and ``r2`` finish an ``n``-point match (a single game counts
as a 1-point match):

* ``D = |r1 - r2|``; the underdog wins with probability
  ``P_upset = 1 / (10 ** (D * sqrt(n) / 2000) + 1)``;
* ``P = 1 - P_upset`` when the underdog wins, ``P = P_upset`` when the favourite does;
* each player's factor ``K = max(1, 5 - experience / 100)`` (his own experience: the
  points of all rated matches he had finished before this one), so a newcomer's rating
  moves up to five times faster until his 400th point;
* the winner gains ``4 * K * sqrt(n) * P``, the loser loses ``4 * K * sqrt(n) * P``
  (each with his own ``K``); both gain ``n`` points of experience.

Every player starts at 1500 with no experience. A drawn game (Plakoto's agreed draw)
changes nothing.

>>> round(upset(1600, 1500, 5), 4)
0.436
>>> a, b = change(Rated(1600, 500), Rated(1500, 500), 5, winner=0)
>>> round(a.rating, 2), round(b.rating, 2), a.experience
(1603.9, 1496.1, 505)
>>> change(Rated(1500, 0), Rated(1500, 0), 1, winner=1)[1].rating
1510.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: a new player's rating
START = 1500.0


@dataclass(frozen=True)
class Rated:
    """A player's rating in one game, and his experience (match points played, rated)."""

    rating: float = START
    experience: int = 0


def upset(r1: float, r2: float, n: int) -> float:
    """The chance that the lower-rated of two players rated ``r1`` and ``r2`` wins an
    ``n``-point match."""
    d = abs(r1 - r2)
    return 1.0 / (10.0 ** (d * math.sqrt(n) / 2000.0) + 1.0)


def win_chance(r: float, opponent: float, n: int) -> float:
    """The chance that a player rated ``r`` wins an ``n``-point match against one rated
    ``opponent``."""
    p = upset(r, opponent, n)
    return p if r < opponent else 1.0 - p


def factor(experience: int) -> float:
    """How much faster a player's rating moves while he is new: 5 at first, 1 from 400
    points of experience on."""
    return max(1.0, 5.0 - experience / 100.0)


def change(first: Rated, second: Rated, n: int, winner: int) -> tuple[Rated, Rated]:
    """Both players' ratings after an ``n``-point match that ``winner`` (0: ``first``,
    1: ``second``) won."""
    if n < 1:
        raise ValueError(f"a match has at least one point, not {n}")
    if winner not in (0, 1):
        raise ValueError(f"the winner is 0 or 1, not {winner!r}")
    players = (first, second)
    won, lost = players[winner], players[1 - winner]
    # the probability of the result that did *not* happen: an upset pays the most
    p = 1.0 - win_chance(won.rating, lost.rating, n)
    stake = 4.0 * math.sqrt(n) * p
    after = (Rated(won.rating + factor(won.experience) * stake, won.experience + n),
             Rated(lost.rating - factor(lost.experience) * stake, lost.experience + n))
    return (after[0], after[1]) if winner == 0 else (after[1], after[0])


__all__ = ["Rated", "START", "upset", "win_chance", "factor", "change"]
