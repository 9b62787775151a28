"""Portes: the Greek game with hitting, the same checker play as international backgammon.

Rules (spec ``RULES.md``, section Portes; German seed):

* A single opposing checker (a blot) may be hit: it goes to the bar. Two or more opposing
  checkers block a point.
* A player with checkers on the bar must enter all of them (die ``d`` enters on his point
  ``25 - d``) before moving any other checker.
* Only one die of a non-double playable: free choice (option ``must_play_higher``).
* Scoring: 1 point; 2 for a gammon (the loser has borne off nothing); with option
  ``backgammons`` 3 when the loser also still has a checker on the bar or in the winner's
  home board.
"""

from __future__ import annotations

from numba import njit

from tavli.engine.layout import BAR, NSLOTS


@njit(cache=True)
def portes_blocked(b, i, me, t):
    """True when my point ``t`` holds two or more opposing checkers.

    ``b[i]`` is a position record of :mod:`tavli.engine.movegen`: the board array flattened, so
    ``st[row, col]`` is ``b[i, row * 26 + col]``.
    """
    return b[i, (1 - me) * NSLOTS + 25 - t] >= 2


@njit(cache=True)
def portes_land(b, i, me, t):
    """Land a checker of ``me`` on ``t``; hit a blot there. Returns 1 for a hit."""
    o = (1 - me) * NSLOTS
    if b[i, o + 25 - t] == 1:
        b[i, o + 25 - t] = 0
        b[i, o + BAR] += 1
        b[i, me * NSLOTS + t] += 1
        return 1
    b[i, me * NSLOTS + t] += 1
    return 0
