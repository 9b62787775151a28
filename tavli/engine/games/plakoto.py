"""Plakoto (= Tapa): pinning instead of hitting, and the mother checker.

Rules (spec ``RULES.md``, section Plakoto; German seed):

* A point with two or more opposing checkers is blocked.
* Landing on a point that holds exactly one opposing checker, and nothing else, pins it:
  the pinned checker cannot move until every checker of the pinning side has left the
  point. The pinner controls the point (may add checkers); the pinned side may not land
  there. No hitting, no bar.
* Mother checker: a side's last checker on its own 24-point, never moved. Judged at the
  end of each turn: when a mother is pinned and the pinner has no checker left on his
  own 24-point, the pinner wins 2 points; when both mothers are pinned, the game is a
  draw (0 points).
* No bearing off while any of the player's checkers is pinned.
* Scoring: 1; 2 for a gammon; 2 for a mother-checker win; 0 for a draw.

In the board array a pinned checker is flagged in row ``2 + side`` (see
:mod:`tavli.engine.layout`).
"""

from __future__ import annotations

from numba import njit

from tavli.engine.layout import NSLOTS


@njit(cache=True)
def plakoto_blocked(b, i, me, t):
    """True when I may not land on my point ``t``.

    Free if empty of opponents, or if the single opponent there is pinned by me, or if a
    single unpinned opponent stands there alone (I pin it). Blocked by two or more
    opponents, or by a lone opponent that pins a checker of mine.

    ``b[i]`` is a position record of :mod:`tavli.engine.movegen`: the board array flattened, so
    ``st[row, col]`` is ``b[i, row * 26 + col]``.
    """
    op = 1 - me
    ot = 25 - t
    oc = b[i, op * NSLOTS + ot]
    if oc == 0:
        return False
    if b[i, (2 + op) * NSLOTS + ot] == 1:
        return False
    if oc >= 2:
        return True
    return b[i, me * NSLOTS + t] > 0


@njit(cache=True)
def plakoto_land(b, i, me, t):
    """Land on ``t``, pinning a lone opponent there. Returns 1 when a pin is made."""
    op = 1 - me
    ot = 25 - t
    made = 0
    if (b[i, op * NSLOTS + ot] == 1 and b[i, (2 + op) * NSLOTS + ot] == 0
            and b[i, me * NSLOTS + t] == 0):
        b[i, (2 + op) * NSLOTS + ot] = 1
        made = 1
    b[i, me * NSLOTS + t] += 1
    return made


@njit(cache=True)
def plakoto_leave(b, i, me, s):
    """Lift a checker of ``me`` from point ``s``: the last one out releases a pin."""
    b[i, me * NSLOTS + s] -= 1
    if b[i, me * NSLOTS + s] == 0:
        b[i, (3 - me) * NSLOTS + 25 - s] = 0


@njit(cache=True)
def plakoto_any_pinned(b, i, me):
    """Is any checker of ``me`` pinned?"""
    base = (2 + me) * NSLOTS
    for p in range(1, 25):
        if b[i, base + p] != 0:
            return True
    return False


@njit(cache=True)
def mother_pinned_rec(b, side):
    """Is ``side``'s mother checker (its last checker on its 24-point) pinned? ``b`` is a
    flat board (row after row)."""
    return b[side * NSLOTS + 24] == 1 and b[(2 + side) * NSLOTS + 24] == 1

