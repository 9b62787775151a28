"""Board counts the encoders share: the raw units of a side's points, pip counts, runs of
held points and whether the sides are still in contact (Portes/Plakoto geometry).

Boards are flat ``int8`` arrays (``b[row * 26 + col]``, the layout of
:mod:`tavli.engine.layout`); a side's row counts its checkers in its own numbering.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def _raw(b, side, x, base):
    """``side``'s points into ``x[base:base + 96]``, four units a point: ``n >= 1``,
    ``n >= 2``, ``n >= 3``, ``(n - 3) / 2`` (``x`` is cleared by the caller)."""
    r = side * 26
    for p in range(1, 25):
        n = b[r + p]
        k = base + 4 * (p - 1)
        if n >= 1:
            x[k] = 1.0
            if n >= 2:
                x[k + 1] = 1.0
                if n >= 3:
                    x[k + 2] = 1.0
                    if n > 3:
                        x[k + 3] = (n - 3) * 0.5


@njit(cache=True)
def _pips(b, side):
    """``side``'s pip count (the bar counts 25)."""
    r = side * 26
    s = 0
    for p in range(1, 26):
        s += p * b[r + p]
    return s


@njit(cache=True, inline="always")  # called with constants: one compile, not one per value
def _longest_run(b, side, minimum):
    """The longest run of consecutive points with at least ``minimum`` of ``side``'s
    checkers."""
    r = side * 26
    best = 0
    run = 0
    for p in range(1, 25):
        if b[r + p] >= minimum:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


@njit(cache=True)
def is_contact(b):
    """Some checker still has to pass an opposing one (Portes/Plakoto geometry)."""
    far0 = 0
    for p in range(25, 0, -1):
        if b[p] > 0:
            far0 = p
            break
    far1 = 0
    for p in range(25, 0, -1):
        if b[26 + p] > 0:
            far1 = p
            break
    return far0 + far1 > 25
