"""What ``tavli bearoff show`` prints: a bear-off position's distributions of rolls and its
winning chances from the databases (:mod:`tavli.ai.bearoff`).

>>> parse_counts("3,2")
(3, 2, 0, 0, 0, 0)
>>> parse_counts("9,9")
Traceback (most recent call last):
...
tavli.errors.ParseError: 18 checkers on points 1..6: a side has 15
"""

from __future__ import annotations

import re

import numpy as np

from tavli.engine.layout import CHECKERS, SIDE_NAMES
from tavli.errors import ParseError

_COUNTS = re.compile(r"^\d{1,2}(,\d{1,2}){0,5}$")


def looks_like_counts(text: str) -> bool:
    """Whether ``text`` is meant as checker counts on points 1..6 (``3,2,0,0,0,1``)."""
    return bool(_COUNTS.match(text.strip()))


def parse_counts(text: str) -> tuple[int, ...]:
    """Checker counts on points 1, 2, ... given as ``3,2,0,1`` (up to six; the rest 0)."""
    if not looks_like_counts(text):
        raise ParseError(f"checker counts on points 1..6 are written like 3,2,0,0,0,1, "
                         f"got {text!r}")
    counts = [int(v) for v in text.strip().split(",")]
    if sum(counts) > CHECKERS:
        raise ParseError(f"{sum(counts)} checkers on points 1..6: a side has {CHECKERS}")
    return tuple(counts + [0] * (6 - len(counts)))


def _distribution(row: np.ndarray) -> str:
    """``mean M; rolls t: p ...`` for the rolls with a probability of 1e-6 or more."""
    t = np.arange(len(row))
    mean = float((row.astype(np.float64) * t).sum())
    parts = [f"{k}: {float(row[k]):.6f}" for k in t if row[k] >= 1e-6]
    return f"mean {mean:.4f}; rolls " + ", ".join(parts)


def side_text(bo1: np.ndarray, counts: tuple[int, ...], name: str) -> list[str]:
    """Lines for one side: its checkers and both distributions of rolls."""
    from tavli.ai.bearoff import ALL_OFF, FIRST_OFF, index_of_counts

    k = int(index_of_counts(np.array(counts, dtype=np.int64)))
    n = sum(counts)
    pips = sum((p + 1) * c for p, c in enumerate(counts))
    lines = [f"{name}: points 1-6: {' '.join(map(str, counts))} ({n} checkers, "
             f"{pips} pips; one-sided index {k})",
             f"  to bear off all: {_distribution(bo1[k, ALL_OFF])}"]
    if n == CHECKERS:
        lines.append(f"  to bear off the first: {_distribution(bo1[k, FIRST_OFF])}")
    else:
        lines.append("  to bear off the first: 0 (one is off already)")
    return lines


def position_text(tables: tuple[np.ndarray, np.ndarray], arr: np.ndarray, turn: int
                  ) -> list[str]:
    """Lines for a pure bear-off board array ``arr`` with ``turn`` to move (raises
    :class:`~tavli.ai.bearoff.BearoffError` for another position)."""
    from tavli.ai.bearoff import BearoffError, position_outputs

    how, out = position_outputs(arr, turn, tables)
    if how == 0:
        raise BearoffError("not a bear-off position: every checker must be on its own "
                           "points 1-6 or off, none on the bar or pinned")
    lines: list[str] = []
    for side in (turn, 1 - turn):
        counts = tuple(int(v) for v in arr[side, 1:7])
        who = SIDE_NAMES[side] + (" (to move)" if side == turn else "")
        lines += side_text(tables[0], counts, who)
    if how == 2:
        lines.append(f"{SIDE_NAMES[turn]} wins with {float(out[0]):.6f} (two-sided "
                     "database, exact)")
    else:
        lines.append(f"{SIDE_NAMES[turn]}: win {float(out[0]):.6f}, win gammon "
                     f"{float(out[1]):.6f}, lose gammon {float(out[3]):.6f} (one-sided "
                     "database, race of independent sides)")
    return lines
