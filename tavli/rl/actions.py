"""One action per whole turn: the action space of the games with dice.

A turn is the set of single checker steps it is made of; each step is fixed by the point
it leaves (1..24 in the mover's own numbering, 25 = the bar) and the die it uses, and the
position a turn leaves does not depend on the order of its steps. So a turn is written as
*which point each die is played from*:

* **no move** (the side to move passes): action ``PASS`` = 0;
* **a non-double** ``hi > lo``: ``source(hi) * 26 + source(lo)``, each source 1..25 or 0
  when that die is not played (676 codes, 0 being the pass);
* **a double**: the multiset of up to four sources (1..25), ranked: ``DOUBLES + rank - 1``
  (23,750 codes);
* **the cube** (backgammon with the cube): ``ROLL``, ``DOUBLE``, ``TAKE``, ``DROP`` after
  the moves.

``NUM_ACTIONS`` = 24,430 codes in all, the same for every game with dice, so one policy
head fits them all. The engine gives one legal turn per distinct final position; each has
exactly one code (when a checker is borne off with a higher die than it needs, or one
checker moves with both dice, the engine's own order of the steps decides which of the
equivalent codes stands: the action mask says which). Two different turns never share a
code, since a code's steps fix the final position.

Against the other libraries: OpenSpiel's backgammon takes two checker moves per action
(26 x 26 x 2 = 1,352 codes) and a double in two actions; pgx moves one checker per action
(26 x 6). Both need several decisions per turn, so what a turn is worth is spread over
them; here a turn is one decision, as in gnubg's move list, and its code still says
which checkers move.

>>> from tavli.engine.board import Position
>>> pos = Position.start("portes")
>>> [encode(m.steps, m.dice) for m in pos.legal_moves((6, 1))][:3]
[648, 632, 630]
>>> describe(648, (6, 1)), describe(0, (6, 1)), describe(ROLL, None)
('24/18 24/23', 'pass', 'roll')
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

#: the side to move has no legal turn
PASS = 0
#: sources per die: 0 (die not played), points 1..24, 25 the bar
SOURCES = 26
#: the first code of a double's multiset of sources
DOUBLES = SOURCES * SOURCES
#: multisets of one to four sources among 1..25: C(29, 4) - 1
N_DOUBLES = 23750
ROLL = DOUBLES + N_DOUBLES
DOUBLE = ROLL + 1
TAKE = ROLL + 2
DROP = ROLL + 3
#: every code of the games with dice
NUM_ACTIONS = DROP + 1
CUBE_NAMES = {ROLL: "roll", DOUBLE: "double", TAKE: "take", DROP: "drop"}


def _binomials(n: int, k: int) -> np.ndarray:
    table = np.zeros((n, k + 1), dtype=np.int64)
    for i in range(n):
        table[i, 0] = 1
        for j in range(1, min(i, k) + 1):
            table[i, j] = table[i - 1, j - 1] + table[i - 1, j]
    return table


#: C(n, k) for n < 29 + 1, k <= 4 (the ranks of multisets)
_BINOM = _binomials(30, 4)


@njit(cache=True)
def _die_of(frm, to, hi, lo, other_used):
    """The die a step ``frm -> to`` of a non-double used: the exact one, or for a checker
    borne off with more than it needs, the lower die that bears it off (the higher when
    ``other_used`` is that lower die)."""
    if to > 0:
        return frm - to
    if frm <= lo and other_used != lo:
        return lo
    return hi


@njit(cache=True, inline="always")
def _decreasing(a, b):
    return (a, b) if a >= b else (b, a)


@njit(cache=True)
def encode_steps(steps, d1, d2):
    """The code of a turn given as its steps (``int8[4, 3]``: from, to, flag; a step from
    0 ends them) played with dice ``d1, d2``. (Read as numbers, no row views nor arrays
    made: the batched environment codes every legal turn of every step with it.)"""
    a0 = np.int64(steps[0, 0])
    if a0 == 0:
        return PASS
    b0 = np.int64(steps[1, 0])
    if d1 != d2:
        hi = max(d1, d2)
        lo = min(d1, d2)
        a1 = np.int64(steps[0, 1])
        if b0 == 0:
            if _die_of(a0, a1, hi, lo, 0) == hi:
                return a0 * SOURCES
            return a0
        b1 = np.int64(steps[1, 1])
        if a1 > 0:
            da = a0 - a1
        elif b1 > 0:
            da = lo if b0 - b1 == hi else hi
        else:  # both borne off: either die would do, the higher from the higher point
            da = hi if a0 >= b0 else lo
        if da == hi:
            return a0 * SOURCES + b0
        return b0 * SOURCES + a0
    # a double: the sources (0: the die not played) in decreasing order, ranked as a
    # multiset: increasing a1 <= a2 <= a3 <= a4 over 0..25 (zeros first) make strictly
    # increasing b_i = a_i + i, and the rank is sum C(b_i, i + 1)
    c0 = np.int64(steps[2, 0]) if b0 else np.int64(0)
    c1 = np.int64(steps[3, 0]) if c0 else np.int64(0)
    s0, s1 = _decreasing(a0, b0)
    s2, s3 = _decreasing(c0, c1)
    s0, s2 = _decreasing(s0, s2)
    s1, s3 = _decreasing(s1, s3)
    s1, s2 = _decreasing(s1, s2)
    rank = _BINOM[s3, 1] + _BINOM[s2 + 1, 2] + _BINOM[s1 + 2, 3] + _BINOM[s0 + 3, 4]
    return DOUBLES + rank - 1


def encode(steps: Sequence[Sequence[int]], dice: Sequence[int]) -> int:
    """The code of a turn given as a :class:`tavli.engine.board.Move`'s ``steps`` and
    ``dice``."""
    arr = np.zeros((4, 3), dtype=np.int8)
    for i, st in enumerate(steps):
        arr[i] = st[:3]
    return int(encode_steps(arr, np.int64(dice[0]), np.int64(dice[1])))


def _unrank_double(rank: int) -> list[int]:
    """The sources (decreasing, without the unplayed zeros) of a double's rank (1-based)."""
    out = []
    for i in range(3, -1, -1):  # the largest b_i first
        b = i
        while b + 1 < _BINOM.shape[0] and _BINOM[b + 1, i + 1] <= rank:
            b += 1
        rank -= int(_BINOM[b, i + 1])
        out.append(b - i)
    return [s for s in out if s]


def sources(action: int) -> tuple[tuple[int, int], ...]:
    """The ``(source, die)`` pairs of a move code, die ``"hi"``/``"lo"`` for a non-double
    written as 1/0 and 0 for a double's die: ``((13, 1), (8, 0))`` is "the higher die from
    13, the lower from 8".

    >>> sources(13 * 26 + 8), sources(DOUBLES + 0)
    (((13, 1), (8, 0)), ((1, 0),))
    """
    if not 0 <= action < ROLL:
        raise ValueError(f"{action} is not a move code (0..{ROLL - 1})")
    if action < DOUBLES:
        hi, lo = divmod(action, SOURCES)
        return tuple(p for p in ((hi, 1), (lo, 0)) if p[0])
    return tuple((s, 0) for s in _unrank_double(action - DOUBLES + 1))


def _point(p: int) -> str:
    return "bar" if p == 25 else str(p)


def describe(action: int, dice: Sequence[int] | None) -> str:
    """A code in words: ``24/18 24/23`` (steps in the mover's numbering; a step past the
    last point is ``/off``), ``pass`` or a cube action's name."""
    if action in CUBE_NAMES:
        return CUBE_NAMES[action]
    if action == PASS:
        return "pass"
    if dice is None:
        raise ValueError("a move code needs the dice to be read")
    hi, lo = max(dice), min(dice)
    steps = []
    for src, which in sources(action):
        die = hi if (action >= DOUBLES or which) else lo
        to = src - die
        steps.append(f"{_point(src)}/{to if to > 0 else 'off'}")
    return " ".join(steps)
