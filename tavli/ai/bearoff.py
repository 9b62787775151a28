"""Exact bear-off databases, built by the project from its own move generator.

A *pure bear-off* is a position where every checker of both sides stands on its own points
1..6 or is borne off (none on the bar, no Plakoto pin): the sides can never meet again, the
bearing-off rules are the same in all four games (shared/spec/RULES.md, "Bearing off"), and
the game is a race that can be solved exactly.

* **One-sided database** (``bo1``, float32 ``[54264, 2, 32]``): for every set of 0..15
  checkers on the six home points (C(21, 6) = 54,264 positions, indexed by
  :func:`one_sided_index`), ``bo1[k, ALL_OFF, t]`` is the probability that bearing off
  every checker takes exactly ``t`` rolls when each roll is played to minimise the expected
  number of rolls (``t`` = 0..31; the tail folds into 31, never reached: 30 rolls at most),
  and ``bo1[k, FIRST_OFF, t]`` the same for bearing off the *first* checker, played to
  minimise that (a point mass at 0 when fewer than 15 checkers are on the board).
* **Two-sided database** (``bo2``, float32 ``[924, 924]``): for every pair of positions of
  at most 6 checkers each (C(12, 6) = 924 per side: the first 924 indices of the one-sided
  numbering), the exact cubeless probability that the side on roll wins, every roll played
  to maximise it. With at most 6 checkers on the board no gammon is possible.

:func:`bearoff_outputs` values a pure bear-off in the network's five outputs from them
(compiled, for the search and evaluators). The tables take a few seconds to build
(:func:`build`: about 2.5 s on one core, plus compiling on a first run) and are kept in the
user's cache directory (:func:`cache_dir`) as one compressed ``.npz`` of about 5 MB;
:func:`load_tables` builds them there on first use.

How they are built: the move generator (:func:`tavli.engine.movegen.generate`, backgammon's rule
flags) lists, for every one-sided position and each of the 21 rolls, the distinct positions
the roll can lead to (compiled, about 1.1 million generator calls); the recursions then run
on those lists in order of pip count (every bear-off move lowers it). The must-play-higher
rule option (``F_HIGHER``) makes no difference here, so the files are not keyed by it: with
every checker home each die can always be played, so a non-double plays both dice unless
one die bears off the last checker, and then every choice ends with the same empty board.
The tests check this (and that the Plakoto and Fevga rule sets give the same lists).

>>> import numpy as np
>>> b = np.zeros(104, dtype=np.int8)
>>> b[1:7] = 3, 2, 0, 0, 0, 0  # white: three checkers on his 1-point, two on his 2-point
>>> int(one_sided_index(b, 0)), int(one_sided_index(b, 1))
(212, 0)
>>> bool(one_sided_index(b, 0) < TWO_SIDED)  # at most 6 checkers: in the two-sided table
True
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from pathlib import Path
from typing import TextIO

import numpy as np
from numba import njit

from tavli.ai.net import LOSE_G, N_OUT, WIN, WIN_G, read_npz, write_npz
from tavli.engine.layout import CHECKERS, NSLOTS
from tavli.engine.movegen import HASH_SIZE, HT, MAX_STATES, REC, generate
from tavli.engine.rules import Rules
from tavli.errors import BearoffError

FORMAT = 1
"""The file format's version, part of the file name: a new layout gets a new file."""
FILE_NAME = f"bearoff-v{FORMAT}.npz"
POINTS = 6
ONE_SIDED = 54264  # C(21, 6): 0..15 checkers on 6 points
TWO_SIDED = 924  # C(12, 6): 0..6 checkers on 6 points
FULL = 38760  # C(20, 6): the first index of the positions of 15 checkers
ROLLS = 32  # entries of a distribution: 0..31 rolls (the tail folded into the last)
ALL_OFF = 0
FIRST_OFF = 1
MAX_PIPS = CHECKERS * POINTS
BUILD_SECONDS = 10  # what the one line printed before a build announces

# the 21 rolls (higher die first) and their weights out of 36
_D1 = np.array([a for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)
_D2 = np.array([b for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)
_WEIGHT = np.where(_D1 == _D2, 1.0, 2.0) / 36.0
NROLLS = 21

# binomial coefficients C(n, k), n < 32, k < 8
_BINOM = np.zeros((32, 8), dtype=np.int64)
for _n in range(32):
    _BINOM[_n, 0] = 1
    for _k in range(1, min(_n, 7) + 1):
        _BINOM[_n, _k] = _BINOM[_n - 1, _k - 1] + (_BINOM[_n - 1, _k] if _k < _n else 0)


# --- indexing -----------------------------------------------------------------------------

@njit(cache=True)
def index_of_counts(c) -> int:
    """The index of the checker counts ``c[0..5]`` (points 1..6, at most 15 in all).

    Positions are numbered by the number of checkers on the board first (all positions of
    ``n`` checkers come after those of fewer: C(n + 5, 6) of them), then by a ranking of the
    ways to spread ``n`` checkers over the six points, the 6-point most significant. So the
    positions of at most 6 checkers are exactly indices 0..923 (:data:`TWO_SIDED`).
    """
    n = 0
    for p in range(POINTS):
        n += c[p]
    idx = _BINOM[n + 5, 6]
    rem = n
    for p in range(POINTS, 1, -1):  # points 6..2; point 1 takes what remains
        v = c[p - 1]
        # the spreads of rem over points 1..p whose point p holds fewer than v
        idx += _BINOM[rem + p - 1, p - 1] - _BINOM[rem - v + p - 1, p - 1]
        rem -= v
    return idx


@njit(cache=True)
def one_sided_index(b, side) -> int:
    """The one-sided index of ``side``'s checkers on its points 1..6 in the flat board
    ``b`` (a board array's 104 values, row after row, or a record of
    :mod:`tavli.engine.movegen`); checkers elsewhere are not looked at."""
    c = np.empty(POINTS, dtype=np.int64)
    for p in range(POINTS):
        c[p] = b[side * NSLOTS + 1 + p]
    return index_of_counts(c)


@njit(cache=True)
def all_positions():
    """Every one-sided position by index: int8[54264, 6], the counts on points 1..6."""
    out = np.zeros((ONE_SIDED, POINTS), dtype=np.int8)
    c = np.zeros(POINTS, dtype=np.int64)
    for c0 in range(16):
        c[0] = c0
        for c1 in range(16 - c0):
            c[1] = c1
            for c2 in range(16 - c0 - c1):
                c[2] = c2
                for c3 in range(16 - c0 - c1 - c2):
                    c[3] = c3
                    for c4 in range(16 - c0 - c1 - c2 - c3):
                        c[4] = c4
                        for c5 in range(16 - c0 - c1 - c2 - c3 - c4):
                            c[5] = c5
                            k = index_of_counts(c)
                            for p in range(POINTS):
                                out[k, p] = c[p]
    return out


def counts_of(index: int) -> tuple[int, ...]:
    """The checker counts on points 1..6 of the one-sided position ``index``.

    >>> counts_of(212)
    (3, 2, 0, 0, 0, 0)
    """
    if not 0 <= index < ONE_SIDED:
        raise IndexError(f"one-sided positions are numbered 0..{ONE_SIDED - 1}, got {index}")
    return tuple(int(v) for v in _positions()[index])


@functools.lru_cache(maxsize=1)
def _positions() -> np.ndarray:
    return all_positions()


# --- the move lists -----------------------------------------------------------------------

@njit(cache=True)
def move_table(positions, count, flags):
    """For the first ``count`` one-sided positions and each of the 21 rolls, the indices
    of the distinct positions the roll can lead to, by the move generator under the rule
    flags ``flags``: ``(starts, targets)``, position ``k``'s roll ``r`` led to
    ``targets[starts[21 k + r]:starts[21 k + r + 1]]`` (uint16, in the generator's order).
    The side moving is white, alone on the board (black has borne off)."""
    buf = np.zeros((MAX_STATES, REC), dtype=np.int8)
    table = np.zeros(HT + HASH_SIZE + MAX_STATES, dtype=np.int64)
    outp = table.shape[0] - buf.shape[0]
    st = np.zeros((4, NSLOTS), dtype=np.int8)
    starts = np.zeros(count * NROLLS + 1, dtype=np.int64)
    targets = np.zeros(max(1024, count * NROLLS * 9), dtype=np.uint16)
    c = np.zeros(POINTS, dtype=np.int64)
    total = 0
    for k in range(count):
        n = 0
        for p in range(POINTS):
            st[0, 1 + p] = positions[k, p]
            n += positions[k, p]
        st[0, 0] = CHECKERS - n
        st[1, 0] = CHECKERS
        for r in range(NROLLS):
            m = 0
            if n > 0:
                m = generate(st, np.int64(0), _D1[r], _D2[r], flags, buf, table)
                if m < 0:
                    raise RuntimeError("move generator buffers overflowed")
            if total + m > targets.shape[0]:
                grown = np.zeros(2 * targets.shape[0] + m, dtype=np.uint16)
                grown[:total] = targets[:total]
                targets = grown
            for j in range(m):
                i = table[outp + j]
                for p in range(POINTS):
                    c[p] = buf[i, 1 + p]
                targets[total + j] = index_of_counts(c)
            total += m
            starts[k * NROLLS + r + 1] = total
    return starts, targets[:total].copy()


def bearoff_flags() -> tuple[int, ...]:
    """The rule flags the databases are built with (backgammon's; see the module
    docstring for why every game's and both must-play-higher settings give the same)."""
    return Rules("backgammon").kernel_flags()


# --- the recursions -----------------------------------------------------------------------

@njit(cache=True)
def _by_pips(positions, count):
    """The first ``count`` positions in order of pip count (counting sort)."""
    pips = np.zeros(count, dtype=np.int64)
    for k in range(count):
        for p in range(POINTS):
            pips[k] += (p + 1) * positions[k, p]
    seen = np.zeros(MAX_PIPS + 2, dtype=np.int64)
    for k in range(count):
        seen[pips[k] + 1] += 1
    for s in range(1, MAX_PIPS + 2):
        seen[s] += seen[s - 1]
    order = np.zeros(count, dtype=np.int64)
    for k in range(count):
        order[seen[pips[k]]] = k
        seen[pips[k]] += 1
    return pips, order


@njit(cache=True)
def one_sided_table(positions, starts, targets, weights):
    """The one-sided database (float64 ``[54264, 2, 32]``) and the expected rolls
    (float64 ``[54264, 2]``) from the move lists of every position."""
    count = positions.shape[0]
    dist = np.zeros((count, 2, ROLLS), dtype=np.float64)
    mean = np.zeros((count, 2), dtype=np.float64)
    _pips, order = _by_pips(positions, count)
    for q in range(count):
        k = order[q]
        n = 0
        for p in range(POINTS):
            n += positions[k, p]
        if n == 0:
            dist[k, ALL_OFF, 0] = 1.0
            dist[k, FIRST_OFF, 0] = 1.0
            continue
        if n < CHECKERS:
            dist[k, FIRST_OFF, 0] = 1.0
        e = 1.0
        ef = 1.0
        for r in range(NROLLS):
            w = weights[r]
            a = starts[k * NROLLS + r]
            z = starts[k * NROLLS + r + 1]
            best = targets[a]
            for j in range(a + 1, z):
                if mean[targets[j], ALL_OFF] < mean[best, ALL_OFF]:
                    best = targets[j]
            e += w * mean[best, ALL_OFF]
            for t in range(ROLLS - 1):
                dist[k, ALL_OFF, t + 1] += w * dist[best, ALL_OFF, t]
            dist[k, ALL_OFF, ROLLS - 1] += w * dist[best, ALL_OFF, ROLLS - 1]
            if n < CHECKERS:
                continue
            # the first checker: off this roll if any move bears one off
            fbest = targets[a]
            for j in range(a, z):
                m = targets[j]
                if m < FULL:  # fewer than 15 on the board: one is off
                    fbest = m
                    break
                if mean[m, FIRST_OFF] < mean[fbest, FIRST_OFF]:
                    fbest = m
            ef += w * mean[fbest, FIRST_OFF]
            for t in range(ROLLS - 1):
                dist[k, FIRST_OFF, t + 1] += w * dist[fbest, FIRST_OFF, t]
            dist[k, FIRST_OFF, ROLLS - 1] += w * dist[fbest, FIRST_OFF, ROLLS - 1]
        mean[k, ALL_OFF] = e
        mean[k, FIRST_OFF] = ef if n == CHECKERS else 0.0
    return dist, mean


@njit(cache=True)
def two_sided_table(positions, starts, targets, weights):
    """The two-sided database: float64 ``[924, 924]``, ``[i, j]`` the probability that the
    side on roll with position ``i`` beats position ``j``; ``[0, j]`` = 1 (borne off
    already), ``[i, 0]`` = 0 for ``i`` > 0 (the opponent has)."""
    n = TWO_SIDED
    pw = np.zeros((n, n), dtype=np.float64)
    for j in range(n):
        pw[0, j] = 1.0
    pips, order = _by_pips(positions, n)
    # where each pip count's positions start in ``order``
    first = np.zeros(MAX_PIPS + 2, dtype=np.int64)
    for q in range(n):
        first[pips[order[q]] + 1] += 1
    for s in range(1, MAX_PIPS + 2):
        first[s] += first[s - 1]
    top = pips[order[n - 1]]
    for s in range(2, 2 * top + 1):  # total pips: every move lowers it
        for a in range(max(1, s - top), min(s - 1, top) + 1):
            for qi in range(first[a], first[a + 1]):
                i = order[qi]
                for qj in range(first[s - a], first[s - a + 1]):
                    j = order[qj]
                    v = 0.0
                    for r in range(NROLLS):
                        best = 0.0
                        for x in range(starts[i * NROLLS + r], starts[i * NROLLS + r + 1]):
                            u = 1.0 - pw[j, targets[x]]
                            if u > best:
                                best = u
                        v += weights[r] * best
                    pw[i, j] = v
    return pw


# --- valuing positions --------------------------------------------------------------------

@njit(cache=True)
def is_pure_bearoff(b) -> bool:
    """Whether every checker in the flat board ``b`` is on its side's points 1..6 or off:
    none elsewhere, none on the bar, no pin flag (so the sides can never meet)."""
    for side in range(2):
        n = 0
        for p in range(NSLOTS):
            v = b[side * NSLOTS + p]
            if v < 0:
                return False
            if v > 0 and p >= POINTS + 1:
                return False
            if 1 <= p <= POINTS:
                n += v
        if n > CHECKERS:
            return False
    for q in range(2 * NSLOTS, 4 * NSLOTS):
        if b[q] != 0:
            return False
    return True


@njit(cache=True)
def bearoff_outputs(bo1, bo2, b, side, out) -> int:
    """The five outputs of :mod:`tavli.ai.net` for ``side`` to move in the flat board
    ``b``, from the databases ``bo1``, ``bo2`` (:func:`load_tables`). Returns 0 (``out``
    untouched) when ``b`` is not a pure bear-off (:func:`is_pure_bearoff`) or ``bo1`` is
    empty; 2 when both sides have at most 6 checkers on the board and ``bo2`` is not empty
    (exact: P(win) from the two-sided table, no gammons); else 1, from the one-sided table
    as a race of independent sides: the side to move, finishing on its ``i``-th roll, wins
    if the opponent needs at least ``i``, wins a gammon if the opponent's first checker
    needs at least ``i``, and loses a gammon if the opponent finishes on his ``j``-th roll
    while its own first checker needs more than ``j``. Backgammons are 0."""
    if bo1.shape[0] == 0 or not is_pure_bearoff(b):
        return 0
    i = one_sided_index(b, side)
    j = one_sided_index(b, 1 - side)
    for q in range(N_OUT):
        out[q] = 0.0
    if bo2.shape[0] > 0 and i < bo2.shape[0] and j < bo2.shape[0]:
        out[WIN] = bo2[i, j]
        return 2
    win = 0.0
    wg = 0.0
    lg = 0.0
    opp_ge = 0.0  # P(opponent needs >= t rolls), t going down
    oppf_ge = 0.0
    mef_gt = 0.0  # P(my first checker needs > t rolls)
    for t in range(ROLLS - 1, -1, -1):
        opp_ge += bo1[j, ALL_OFF, t]
        oppf_ge += bo1[j, FIRST_OFF, t]
        win += bo1[i, ALL_OFF, t] * opp_ge
        wg += bo1[i, ALL_OFF, t] * oppf_ge
        lg += bo1[j, ALL_OFF, t] * mef_gt
        mef_gt += bo1[i, FIRST_OFF, t]
    out[WIN] = min(max(win, 0.0), 1.0)
    out[WIN_G] = min(max(wg, 0.0), 1.0)
    out[LOSE_G] = min(max(lg, 0.0), 1.0)
    return 1


def position_outputs(arr: np.ndarray, side: int,
                     tables: tuple[np.ndarray, np.ndarray] | None = None,
                     ) -> tuple[int, np.ndarray]:
    """:func:`bearoff_outputs` for a board array ``arr`` (``int8[4, 26]``) with ``side``
    to move: ``(how, outputs)``, ``how`` 0 (not a pure bear-off; outputs all 0), 1 or 2.
    ``tables`` default to :func:`load_tables`."""
    bo1, bo2 = load_tables() if tables is None else tables
    out = np.zeros(N_OUT, dtype=np.float32)
    flat = np.array(arr, dtype=np.int8).reshape(-1)  # a writable copy: one compiled type
    how = int(bearoff_outputs(bo1, bo2, flat, side, out))
    return how, out


# --- building, storing, loading ----------------------------------------------------------

def compute_tables(progress: TextIO | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Build both databases in memory: ``(bo1, bo2)`` (float32, see the module
    docstring)."""
    def say(text: str) -> None:
        if progress is not None:
            print(text, file=progress, flush=True)

    t0 = time.perf_counter()
    positions = _positions()
    starts, targets = move_table(positions, ONE_SIDED, bearoff_flags())
    say(f"move lists: {len(targets):,} moves, {time.perf_counter() - t0:.1f} s")
    dist, _mean = one_sided_table(positions, starts, targets, _WEIGHT)
    say(f"one-sided database: {time.perf_counter() - t0:.1f} s")
    pw = two_sided_table(positions, starts, targets, _WEIGHT)
    say(f"two-sided database: {time.perf_counter() - t0:.1f} s")
    return dist.astype(np.float32), pw.astype(np.float32)


def cache_dir() -> Path:
    """Where the databases are kept: ``$TAVLI_CACHE_DIR`` if set, else
    ``$XDG_CACHE_HOME/tavli``, else ``~/.cache/tavli``."""
    own = os.environ.get("TAVLI_CACHE_DIR")
    if own:
        return Path(own).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg).expanduser() / "tavli"
    return Path.home() / ".cache" / "tavli"


def default_path() -> Path:
    """The databases' file in :func:`cache_dir`."""
    return cache_dir() / FILE_NAME


def build(path: str | Path | None = None, progress: TextIO | None = None) -> Path:
    """Build the databases and write them (atomically) to ``path`` (a file; default
    :func:`default_path`), making its folder if needed; returns the path. ``progress``: a
    text stream for a line per stage. :class:`BearoffError` when the file cannot be
    written."""
    path = default_path() if path is None else Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BearoffError(f"cannot make the folder {path.parent} for the bear-off "
                           f"databases: {e.strerror or e}") from None
    if path.is_dir():
        raise BearoffError(f"{path} is a folder: name the databases' file")
    t0 = time.perf_counter()
    bo1, bo2 = compute_tables(progress)
    meta = {"format": FORMAT, "seconds": round(time.perf_counter() - t0, 1),
            "flags": list(bearoff_flags())}
    try:
        write_npz(path, one_sided=bo1, two_sided=bo2,
                  meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8))
    except OSError as e:
        raise BearoffError(f"cannot write the bear-off databases to {path}: "
                           f"{e.strerror or e}") from None
    return path


def load(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """The databases in the file ``path`` (:func:`build`): ``(bo1, bo2)``.
    :class:`BearoffError` when it cannot be read or is not a bear-off database of this
    format (wrong arrays, shapes or types, values that are not probabilities): the message
    says to rebuild it with ``tavli bearoff build --force``."""
    fix = "rebuild it with `tavli bearoff build --force`"
    z = read_npz(path, ("one_sided", "two_sided", "meta"), "bear-off databases",
                 f"a tavli bear-off database (format {FORMAT}); {fix}", BearoffError)
    bo1, bo2 = z["one_sided"], z["two_sided"]
    shapes = ((ONE_SIDED, 2, ROLLS), (TWO_SIDED, TWO_SIDED))
    if (bo1.dtype != np.float32 or bo2.dtype != np.float32
            or (bo1.shape, bo2.shape) != shapes):
        raise BearoffError(f"{path}: bear-off databases of the wrong shape or type "
                           f"({bo1.dtype}{list(bo1.shape)}, {bo2.dtype}{list(bo2.shape)}; "
                           f"want float32{list(shapes[0])}, float32{list(shapes[1])}); "
                           f"{fix}")
    sums = bo1.sum(axis=2, dtype=np.float64)
    if (not (np.isfinite(bo1).all() and np.isfinite(bo2).all())
            or bo1.min() < 0 or bo2.min() < 0 or bo2.max() > 1
            or np.abs(sums - 1).max() > 1e-4):
        raise BearoffError(f"{path}: the bear-off databases hold values that are not "
                           f"probabilities; {fix}")
    return np.ascontiguousarray(bo1), np.ascontiguousarray(bo2)


def empty_tables() -> tuple[np.ndarray, np.ndarray]:
    """Empty databases of the right types (``float32[0, 2, 32]``, ``float32[0, 0]``), for
    evaluators without them: :func:`bearoff_outputs` then values nothing."""
    return (np.zeros((0, 2, ROLLS), dtype=np.float32),
            np.zeros((0, 0), dtype=np.float32))


def load_tables(build_if_missing: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The databases of :func:`cache_dir`, read once per process and folder. When the file
    is missing they are built there first (one line on stderr says so, and how long it
    takes), or, with ``build_if_missing`` False, :func:`empty_tables` are returned. A file
    that is there but broken raises :class:`BearoffError` (it is not rebuilt behind the
    user's back: the message says how)."""
    return _load_cached(default_path(), build_if_missing)


@functools.lru_cache(maxsize=4)
def _load_cached(path: Path, build_if_missing: bool) -> tuple[np.ndarray, np.ndarray]:
    if not path.exists():
        if not build_if_missing:
            return empty_tables()
        print(f"tavli: building the bear-off databases, once: about {BUILD_SECONDS} s "
              f"({path})", file=sys.stderr, flush=True)
        build(path)
    return load(path)


load_tables.cache_clear = _load_cached.cache_clear  # type: ignore[attr-defined]
