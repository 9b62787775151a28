"""Fevga (= Moultezim, Narde): both sides run the same way; one checker holds a point.

Rules (spec ``RULES.md``, section Fevga; Italian and German seeds):

* Both sides move the same way round the board from diagonally opposite corners: the
  opponent's point ``q`` is my point ``((q + 11) % 24) + 1`` (his start is my 12-point).
* Any single opposing checker blocks a point: no hitting, no pinning.
* First checker: until the first checker a player moved has passed the opponent's start
  (stands on his 11-point or lower, or is off), no other checker may leave his 24-point.
  An opening 6-6 plays 24/18 and loses the other three sixes.
* Starting quarter (option ``starting_quarter_rule``): "own" (default) — no turn may end
  holding all six points 19-24; "opponent" — nor all six of the opponent's starting
  quarter (my 7-12); "off".
* Six-prime (option ``prime_rule``): a player whose six consecutive points keep every
  opposing checker still on the board on the point directly behind them must, on his next
  turn, free the opponent if any legal turn does ("must_open", default); "forbid": no turn
  may end so; "off".
* The higher die must be played when only one can be (``must_play_higher``, default True).
* Scoring: 1; 2 when the loser has borne off nothing.
"""

from __future__ import annotations

from numba import njit

from tavli.engine.layout import NSLOTS

QUARTER_OFF = 0
QUARTER_OWN = 1
QUARTER_OPPONENT = 2
PRIME_OFF = 0
PRIME_MUST_OPEN = 1
PRIME_FORBID = 2


@njit(cache=True)
def fevga_opp(p):
    """The other side's number for point ``p`` (its own inverse)."""
    return ((p + 11) % 24) + 1


@njit(cache=True)
def fevga_blocked(b, i, me, t):
    """True when an opposing checker stands on my point ``t``.

    ``b[i]`` is a position record of :mod:`tavli.engine.movegen`: the board array flattened, so
    ``st[row, col]`` is ``b[i, row * 26 + col]``.
    """
    return b[i, (1 - me) * NSLOTS + fevga_opp(t)] > 0


@njit(cache=True)
def fevga_start_locked(b, i, me):
    """True while the first-checker rule forbids moving another checker from the 24-point:
    14 checkers still there and the first one not yet past the opponent's start."""
    m = me * NSLOTS
    if b[i, m + 24] != 14:
        return False
    for p in range(12, 24):
        if b[i, m + p] > 0:
            return True
    return False


@njit(cache=True)
def fevga_quarter_ok(b, i, me, mode):
    """End-of-turn check of the starting-quarter rule."""
    if mode == QUARTER_OFF:
        return True
    lo = 19 if mode == QUARTER_OWN else 7
    m = me * NSLOTS
    for p in range(lo, lo + 6):
        if b[i, m + p] == 0:
            return True
    return False


@njit(cache=True)
def fevga_traps(b, i, me):
    """True when ``me`` holds six consecutive points with every opposing checker still on
    the board on the point directly behind them (the opponent cannot move)."""
    o = (1 - me) * NSLOTS
    m = me * NSLOTS
    r = 0
    for q in range(1, 25):
        if b[i, o + q] > 0:
            if r != 0:
                return False
            r = q
    if r < 7:
        return False
    for q in range(r - 6, r):
        if b[i, m + fevga_opp(q)] == 0:
            return False
    return True
