"""What a match equity table says about one score: take points, cash points and gammon
values (the concepts of gnubg's ``matchequity.c``, written anew).

All functions take the side concerned first: ``away_me`` points away, the opponent
``away_opp`` away, the cube at ``cube`` (before the double, for take and cash points).

* :func:`take_point`: the lowest winning chance with which I take a double from ``cube``
  to ``2 cube``, the cube then dead (no redouble) and no gammons:
  ``(drop - lose) / (win - lose)`` in MWC.
* :func:`cash_point`: the winning chance from which my double from ``cube`` is a pass,
  ``1 - ``the opponent's take point.
* :func:`gammon_values`: what a gammon (backgammon) adds to a win, and costs in a loss,
  as a share of the single game's swing ``(win - lose) / 2`` — 1 for each in money play.

>>> from tavli.play.cube.met import published_met
>>> met = published_met()
>>> round(take_point(met, 2, 2), 3)          # 2-away/2-away: a pass leaves a Crawford game
0.323
>>> round(take_point(met, 4, 2), 3)          # trailing 4-away/2-away
0.371
>>> gammon_values(met, 1, 1)                 # DMP: gammons count for nothing
GammonValues(win_gammon=0.0, win_backgammon=0.0, lose_gammon=0.0, lose_backgammon=0.0)
>>> money_take_point()
0.25
"""

from __future__ import annotations

from dataclasses import dataclass

from tavli.play.cube.met import MET


@dataclass(frozen=True)
class GammonValues:
    """The extra value of a gammon and of a backgammon (over a gammon) when I win, and
    their extra cost when I lose, each as a share of half the swing between a single win
    and a single loss (gnubg calls these gammon prices)."""

    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float


MONEY_GAMMON_VALUES = GammonValues(1.0, 1.0, 1.0, 1.0)
NO_GAMMON_VALUES = GammonValues(0.0, 0.0, 0.0, 0.0)


def _share(num: float, den: float) -> float:
    return num / den if den > 0 else 0.0


def take_point(met: MET, away_me: int, away_opp: int, cube: int = 1,
               post_crawford: bool = False) -> float:
    """My take point (winning chance) when doubled from ``cube`` to ``2 cube``, dead cube,
    no gammons. 0.0 when taking cannot lose more than passing."""
    drop = met.mwc(away_me, away_opp - cube, post_crawford)
    lose = met.mwc(away_me, away_opp - 2 * cube, post_crawford)
    win = met.mwc(away_me - 2 * cube, away_opp, post_crawford)
    return min(max(_share(drop - lose, win - lose), 0.0), 1.0)


def cash_point(met: MET, away_me: int, away_opp: int, cube: int = 1,
               post_crawford: bool = False) -> float:
    """The winning chance from which my double from ``cube`` is a pass (the opponent's
    take point, seen from my side)."""
    return 1.0 - take_point(met, away_opp, away_me, cube, post_crawford)


def gammon_values(met: MET, away_me: int, away_opp: int, cube: int = 1,
                  post_crawford: bool = False) -> GammonValues:
    """The gammon values at this score with the cube at ``cube`` (see the module)."""
    def m(a: int, b: int) -> float:
        return met.mwc(a, b, post_crawford)

    win = [m(away_me - k * cube, away_opp) for k in (1, 2, 3)]
    lose = [m(away_me, away_opp - k * cube) for k in (1, 2, 3)]
    half = (win[0] - lose[0]) / 2
    return GammonValues(_share(win[1] - win[0], half), _share(win[2] - win[1], half),
                        _share(lose[0] - lose[1], half), _share(lose[1] - lose[2], half))


def money_take_point(gammon_rate: float = 0.0) -> float:
    """The dead-cube take point in money play: 25% without gammons; with ``gammon_rate``
    (the share of both sides' wins that are gammons) the swing grows alike on both sides,
    so it stays 25% — the live cube lowers it (to about 21.4% in Janowski's model with
    full efficiency, 20% in the continuous model)."""
    # risk: 2 cubes lost instead of 1 (1 more); gain: 2 won instead of 1 lost (3 more)
    g = gammon_rate
    return (1 + g) / ((1 + g) * 4)
