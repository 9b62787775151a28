"""The race encoder: the inputs of the race networks, one encoder for every family.

Once the sides can no longer meet (:func:`tavli.ai.evaluator.position_class`: race or
bear-off) a position is a pure race in all three families: no hits, no pins, no blocks.
What decides it is the same everywhere (how many pips each side needs, how many checkers
still have to come home and cross into it, how many pips the bear-off will waste), so one
encoder serves the race networks of Portes/backgammon, Plakoto and Fevga; each family
trains its own network, since the scoring differs (backgammons; Plakoto's gammon; Fevga's
mars).

For each side, mover first, in its own numbering (143 inputs a side):

* its points 1..24: five units each, ``n >= 1``, ``n >= 2``, ``n >= 3``, ``n >= 4``,
  ``(n - 4) / 2``;
* borne off: one unit per checker off (``off >= 1`` .. ``off >= 14``; 15 off ends the
  game);
* pip count / 100;
* checkers outside the home board (points 7..24) / 15;
* crossovers still needed: for each checker the quarters it has to cross to come home
  (0 on points 1..6, 1 on 7..12, 2 on 13..18, 3 on 19..24), summed, / 15;
* wastage: the gaps (empty home points below its highest occupied home point) / 5, the
  checkers stacked past three on a home point / 10, the checkers on points 1 and 2 / 15;
* rough counts of rolls (a roll moves 8.17 pips on average), / 10: to bear off every
  checker (its pips / 8.17, or its checkers / 2.33 where that is more: the rolls a
  stack on low points needs); to bear off its first checker while it has none off (the
  pips to bring every checker home plus the lowest home point it will occupy, / 8.17;
  0 once one is off), the gammon race; to bring every checker out of the other side's
  home board (points 19..24), the backgammon race;

then the pip difference (mover's minus the other's) / 50 and the mover's relative lead,
``5 (his pips - my pips) / (my pips + 1)`` clipped to ``[-3, 3]``: 288 inputs.

The encoder has code :data:`RACE` in :data:`tavli.ai.encode.ENCODERS` ("race"); a
network reading it names it in its metadata (``"inputs": "race"``).

>>> import numpy as np
>>> b = np.zeros(104, dtype=np.int8)
>>> b[1], b[3], b[8] = 13, 1, 1          # white: 13 on his 1-point, one on 3, one on 8
>>> b[26 + 0], b[26 + 3] = 10, 5          # black: 10 off, five on his 3-point
>>> x = np.zeros(N_RACE, dtype=np.float32)
>>> encode_race(b, 0, x)
288
>>> round(float(x[PER_SIDE - 6]) * 5), round(float(x[PIP_DIFF]) * 50)  # a gap; 24 - 15
(1, 9)
"""

from __future__ import annotations

from numba import njit

RACE = 6  #: the race encoder's code (:data:`tavli.ai.encode.ENCODERS`)
POINT_UNITS = 5
OFF_UNITS = 14
N_FEATURES = 9  # pips, outside, crossovers, gaps, stacked, low; rolls: all, gammon, bg
PIPS_A_ROLL = 8.17
CHECKERS_A_ROLL = 2.33
PER_SIDE = 24 * POINT_UNITS + OFF_UNITS + N_FEATURES
PIP_DIFF = 2 * PER_SIDE
N_RACE = 2 * PER_SIDE + 2


@njit(cache=True, inline="always")  # called with constants: one compile, not one per value
def _side(b, side, x, base):
    """Write ``side``'s :data:`PER_SIDE` inputs at ``x[base:]``; returns its pip count."""
    r = side * 26
    pips = 0
    outside = 0
    cross = 0
    home_pips = 0  # to bring every checker to its point 6
    back_pips = 0  # to bring every checker out of the other side's home (to point 18)
    on_board = 0
    for p in range(1, 25):
        n = b[r + p]
        if n <= 0:
            continue
        on_board += n
        if p > 6:
            home_pips += n * (p - 6)
        if p > 18:
            back_pips += n * (p - 18)
        k = base + POINT_UNITS * (p - 1)
        x[k] = 1.0
        if n >= 2:
            x[k + 1] = 1.0
            if n >= 3:
                x[k + 2] = 1.0
                if n >= 4:
                    x[k + 3] = 1.0
                    if n > 4:
                        x[k + 4] = (n - 4) * 0.5
        pips += p * n
        if p > 6:
            outside += n
        cross += n * ((p - 1) // 6)
    k = base + 24 * POINT_UNITS
    off = b[r]
    for i in range(min(off, OFF_UNITS)):
        x[k + i] = 1.0
    k += OFF_UNITS
    top = 0
    low = 6
    for p in range(6, 0, -1):
        if b[r + p] > 0:
            if top == 0:
                top = p
            low = p
    gaps = 0
    stacked = 0
    for p in range(1, 7):
        n = b[r + p]
        if n == 0 and p < top:
            gaps += 1
        if n > 3:
            stacked += n - 3
    x[k] = pips / 100.0
    x[k + 1] = outside / 15.0
    x[k + 2] = cross / 15.0
    x[k + 3] = gaps / 5.0
    x[k + 4] = stacked / 10.0
    x[k + 5] = (b[r + 1] + b[r + 2]) / 15.0
    x[k + 6] = max(pips / PIPS_A_ROLL, on_board / CHECKERS_A_ROLL) / 10.0
    if off == 0:
        x[k + 7] = (home_pips + low) / PIPS_A_ROLL / 10.0
    x[k + 8] = back_pips / PIPS_A_ROLL / 10.0
    return pips


@njit(cache=True)
def encode_race(b, me, x):
    """The race inputs for ``me`` to move in the flat board ``b`` (into ``x``, cleared
    first); returns :data:`N_RACE`."""
    x[:N_RACE] = 0.0
    pm = _side(b, me, x, 0)
    po = _side(b, 1 - me, x, PER_SIDE)
    x[PIP_DIFF] = (pm - po) / 50.0
    lead = 5.0 * (po - pm) / (pm + 1.0)
    x[PIP_DIFF + 1] = min(3.0, max(-3.0, lead))
    return N_RACE


@njit(cache=True)
def race_sanity(b, me, y):
    """Set to 0 the outputs ``y`` (for ``me`` to move, in a race or bear-off: no checker
    can be hit or pinned any more, so none goes back) that the board rules out: no gammon
    for a winner whose opponent has borne a checker off, no backgammon for one whose
    opponent has none left in the winner's home board (his points 19..24) or on the bar.
    (Output order: win, win gammon, win backgammon, lose gammon, lose backgammon.)"""
    for winner_is_me in (True, False):
        loser = (1 - me) * 26 if winner_is_me else me * 26
        g = 1 if winner_is_me else 3  # the winner's gammon output
        if b[loser] > 0:
            y[g] = 0.0
            y[g + 1] = 0.0
            continue
        back = 0
        for p in range(19, 26):
            back += b[loser + p]
        if back == 0:
            y[g + 1] = 0.0

