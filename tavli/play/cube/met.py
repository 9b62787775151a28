"""Match equity tables (METs) for backgammon matches: the published Kazaross-XG2 table,
shipped as package data, and a table the project computes from a documented model.

A table answers one question: at the start of a game with the cube centred at 1, what is
the match winning chance (MWC) of a player ``a`` points away against an opponent ``b``
points away? A 1-away entry against a longer score is the Crawford game; the post-Crawford
games have a table of their own (:meth:`MET.mwc` with ``post_crawford=True``).

>>> met = published_met()
>>> met.mwc(2, 2), met.mwc(1, 2), met.mwc(2, 1, post_crawford=True)
(0.5, 0.67736, 0.48803)
>>> round(met.mwc(3, 5) + met.mwc(5, 3), 9)
1.0
>>> met.mwc(0, 4), met.mwc(4, -1)     # the match is already won / lost
(1.0, 0.0)

The computed table (:func:`computed_met`) follows the model of :class:`MetModel` (see
docs/ai.md, Match equity and cube):

>>> abs(computed_met().mwc(4, 7) - met.mwc(4, 7)) < 0.005
True
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from tavli.errors import OptionError

#: the longest match the tables cover
MAX_LENGTH = 25
#: the longest match tavli plays (Match: 1..99 points): beyond a table's own length its
#: entries come from :func:`extended_mwc`, as gnubg extends its tables
MAX_MATCH = 99
#: the spread of the points a player n-away still wins, per game, for n = 1..10 (beyond:
#: the last); the figures of David Montgomery's extension that gnubg uses (matchequity.c)
_SPREAD = (1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72, 1.77)


def _spread(away: int) -> float:
    return _SPREAD[min(away, len(_SPREAD)) - 1]


def extended_mwc(away_me: int, away_opp: int) -> float:
    """The MWC of a player ``away_me`` away against ``away_opp`` away where a table stops:
    over the ``(a + b) / 2`` games or so left, the points the two sides win differ by a
    normal amount, mean 0, spread ``sqrt(s_a^2 + s_b^2)`` a game; I win when I gain the
    ``a - b`` points I am behind (Montgomery's extension, as gnubg extends its tables;
    independent of the table's own entries).

    >>> round(extended_mwc(30, 30), 6), round(extended_mwc(30, 20) + extended_mwc(20, 30), 6)
    (0.5, 1.0)
    """
    sigma = math.hypot(_spread(away_me), _spread(away_opp)) * math.sqrt((away_me + away_opp)
                                                                         / 2)
    return 0.5 * math.erfc((away_me - away_opp) / (sigma * math.sqrt(2)))


@dataclass(frozen=True)
class MET:
    """A match equity table: ``pre[i][j]`` the MWC of a player ``i + 1`` away against
    ``j + 1`` away at the start of a game (the Crawford game when one of them is 1-away),
    ``post[i]`` the MWC of the trailer ``i + 1`` away against the leader 1-away in a
    post-Crawford game. ``name`` and ``source`` say where it comes from."""

    name: str
    pre: tuple[tuple[float, ...], ...]
    post: tuple[float, ...]
    source: str = ""

    @property
    def length(self) -> int:
        """The longest score the table covers (points away)."""
        return len(self.pre)

    def mwc(self, away_me: int, away_opp: int, post_crawford: bool = False) -> float:
        """The MWC of a player ``away_me`` points away against ``away_opp`` away, at the
        start of a game with the cube centred. ``away <= 0`` means that side has already
        won. ``post_crawford``: the Crawford game has been played (it matters only when
        one side is 1-away)."""
        if away_me <= 0:
            return 1.0
        if away_opp <= 0:
            return 0.0
        n = self.length
        if away_me > MAX_MATCH or away_opp > MAX_MATCH:
            raise OptionError(f"match equity covers scores up to {MAX_MATCH}-away, not "
                              f"{away_me}-away/{away_opp}-away")
        if away_me > n or away_opp > n:
            return self._beyond(away_me, away_opp, post_crawford)
        if post_crawford and away_me == 1 and away_opp > 1:
            return 1.0 - self.post[away_opp - 1]
        if post_crawford and away_opp == 1 and away_me > 1:
            return self.post[away_me - 1]
        return self.pre[away_me - 1][away_opp - 1]

    def _beyond(self, away_me: int, away_opp: int, post_crawford: bool) -> float:
        """An entry past the table's length: post-Crawford, the trailer's MWC against
        1-away from :func:`_post_crawford` (which any length has); else
        :func:`extended_mwc`."""
        if post_crawford and 1 in (away_me, away_opp) and away_me != away_opp:
            trailer = max(away_me, away_opp)
            v = _post_crawford(trailer, MetModel())[trailer - 1]
            return v if away_me == trailer else 1.0 - v
        return extended_mwc(away_me, away_opp)

    def to_dict(self) -> dict:
        """The table as its JSON document stores it."""
        return {"name": self.name, "source": self.source, "length": self.length,
                "pre_crawford_table": [list(r) for r in self.pre],
                "post_crawford_table": list(self.post)}


@lru_cache(maxsize=1)
def published_met() -> MET:
    """The Kazaross-XG2 table (25 points; rollouts by XG to 9 points, by GNU Backgammon to
    15, extended to 25 by Neil Kazaross in 2011), read from ``tavli/data``; the data file
    cites its source."""
    text = resources.files("tavli").joinpath("data/met-kazaross-xg2.json").read_text()
    doc = json.loads(text)
    return MET(doc["name"], tuple(tuple(r) for r in doc["pre_crawford_table"]),
               tuple(doc["post_crawford_table"]), doc["source"])


@dataclass(frozen=True)
class MetModel:
    """The parameters of the computed table.

    * ``gammon_rate``: the share of wins that are gammons in a game before the Crawford
      game (both sides alike; backgammons are not modelled);
    * ``crawford_gammon_rate``: the trailer's share of gammons among his wins in the
      Crawford and post-Crawford games (the leader's gammons do not matter there);
    * ``free_drop``: the leader's free drop in a post-Crawford game against a trailer 2
      and 4 points away, as the share of the trailer's MWC it takes away (the leader
      passes the trailer's first double when the trailer's game is good; further away
      the published tables show no measurable effect).

    The defaults were fitted to the Kazaross-XG2 table (docs/ai.md gives the fit).
    """

    gammon_rate: float = 0.215
    crawford_gammon_rate: float = 0.2906
    free_drop: tuple[float, float] = (0.024, 0.026)

    def __post_init__(self) -> None:
        for name in ("gammon_rate", "crawford_gammon_rate", "free_drop"):
            v = getattr(self, name)
            if not all(0.0 <= x < 1.0 for x in (v if isinstance(v, tuple) else (v,))):
                raise OptionError(f"{name} must be in 0..1, got {v!r}")


def _post_crawford(n: int, model: MetModel) -> list[float]:
    """``post[k]``: the trailer's MWC ``k + 1`` away against 1-away after the Crawford
    game. The trailer doubles at once (the leader's gammons cannot matter); he wins half
    the games, ``g`` of them gammons; at an even score the leader's free drop takes the
    share ``free_drop`` of what is left."""
    g = model.crawford_gammon_rate
    p = [1.0, 1.0, 1.0, 0.5]  # 2-away-won, 1-away won, 0-away won, 1-away (DMP)

    def at(k: int) -> float:  # trailer k away
        return p[k + 2] if k >= 1 else 1.0

    for k in range(2, n + 1):
        v = 0.5 * ((1 - g) * at(k - 2) + g * at(k - 4))
        if k in (2, 4):
            v *= 1 - model.free_drop[k // 2 - 1]
        p.append(v)
    return p[3:]


def _linear(y0: float, v0: float, y1: float, v1: float, x: float) -> float:
    if y1 <= y0:
        return v1 if x >= y1 else v0
    t = min(max((x - y0) / (y1 - y0), 0.0), 1.0)
    return v0 + t * (v1 - v0)


def computed_met(length: int = MAX_LENGTH, model: MetModel | None = None) -> MET:
    """The MET of ``model`` (default :class:`MetModel`) up to ``length`` away.

    Method (a continuous-game model in the manner of Zadeh's and Keeler-Spencer's): a
    game is a winning chance ``p`` that moves without jumps from 0.5 to 0 or 1, so the
    MWC of a cube state is linear in ``p`` between the points where it changes hands. A
    cube holder doubles at the last moment, at the opponent's take point, where the taker
    is indifferent and the MWC is that of a drop; a game that ends is a win or a loss of
    the cube's value, ``gammon_rate`` of them gammons. Scores are filled from the shortest
    up and cube levels from the highest down (a cube that already decides the match
    either way is dead). The Crawford game has no cube and the leader's win ends the match;
    the post-Crawford games follow :func:`_post_crawford`.
    """
    model = model or MetModel()
    if not 1 <= length <= 64:
        raise OptionError(f"the computed table covers 1..64 points, not {length}")
    post = _post_crawford(length, model)
    gc = model.crawford_gammon_rate
    n = length
    pre = [[0.5] * n for _ in range(n)]

    def m(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return pre[a - 1][b - 1]

    def post_at(k: int) -> float:
        return 1.0 if k <= 0 else post[k - 1]

    for b in range(2, n + 1):  # the Crawford game: leader 1-away, no cube
        v = 0.5 + 0.5 * ((1 - gc) * (1 - post_at(b - 1)) + gc * (1 - post_at(b - 2)))
        pre[0][b - 1] = v
        pre[b - 1][0] = 1 - v
    g = model.gammon_rate
    for total in range(4, 2 * n + 1):
        for a in range(2, n + 1):
            b = total - a
            if not 2 <= b <= n or b < a:
                continue
            v = _start_mwc(a, b, g, m)
            pre[a - 1][b - 1] = v
            pre[b - 1][a - 1] = 1 - v
    return MET(f"computed (gammon rate {g:g}, Crawford gammon rate {gc:g}, "
               f"free drop {model.free_drop[0]:g}/{model.free_drop[1]:g})",
               tuple(tuple(r) for r in pre), tuple(post),
               "tavli.play.cube.met.computed_met")


def _start_mwc(a: int, b: int, g: float, m) -> float:
    """The MWC of a player ``a`` away against ``b`` away at the start of a game (p = 0.5,
    cube centred at 1) in the continuous model; ``m(a, b)`` answers for shorter scores."""

    def end_win(c: int) -> float:
        return (1 - g) * m(a - c, b) + g * m(a - 2 * c, b)

    def end_loss(c: int) -> float:
        return (1 - g) * m(a, b - c) + g * m(a, b - 2 * c)

    top = 1
    while top < 2 * max(a, b):
        top *= 2
    # cash[c]: my cash point (the opponent's take point) with me holding cube c;
    # their[c]: the opponent's cash point (in my winning chance) with him holding c
    cash: dict[int, float] = {}
    their: dict[int, float] = {}
    cash[top] = 1.0
    their[top] = 0.0
    c = top // 2
    while c >= 1:
        # the opponent holds 2c: between his cash point and my win at 2c
        lo, hi = m(a, b - 2 * c), end_win(2 * c)
        drop = m(a - c, b)
        y = their[2 * c]
        cash[c] = 1.0 if hi <= drop else y + (1 - y) * max(drop - lo, 0.0) / (hi - lo)
        # I hold 2c: between my loss at 2c and my cash point
        lo, hi = end_loss(2 * c), m(a - 2 * c, b)
        drop = m(a, b - c)  # my MWC when I pass his double to 2c
        x = cash[2 * c]
        their[c] = 0.0 if drop <= lo else x * (drop - lo) / (hi - lo) if hi > lo else 0.0
        c //= 2
    # the cube centred at 1: linear between the opponent's and my cash points
    return _linear(their[1], m(a, b - 1), cash[1], m(a - 1, b), 0.5)


@lru_cache(maxsize=1)
def default_met() -> MET:
    """The table the project uses by default: the computed one (:func:`computed_met` with
    the default model), which stays within 0.4% MWC of Kazaross-XG2 up to 25-away
    (tests/test_met.py).

    >>> default_met() is default_met()
    True
    """
    return computed_met()


def max_difference(t1: MET, t2: MET, length: int) -> tuple[float, tuple[int, int, bool]]:
    """The largest difference in MWC between two tables up to ``length`` away and where it
    is: ``(diff, (away_me, away_opp, post_crawford))``."""
    best = (0.0, (1, 1, False))
    for a in range(1, length + 1):
        for b in range(1, length + 1):
            for post in (False, True):
                d = abs(t1.mwc(a, b, post) - t2.mwc(a, b, post))
                if d > best[0]:
                    best = (d, (a, b, post))
    return best
