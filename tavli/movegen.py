"""The compiled legal-turn generator shared by every consumer (CLI, web, AI, tests).

Everything here works on the board array of :mod:`tavli.layout` (``int8[4, 26]``) and is
compiled with Numba on first use (``cache=True``). The per-game rule predicates live in
:mod:`tavli.games`; this module strings single checker moves ("steps") into whole turns:

1. every sequence of single legal steps, breadth first, one level per die, identical
   intermediate positions merged (so doubles stay cheap);
2. drop the sequences whose final position breaks an end-of-turn restriction (Fevga's
   starting-quarter rule, and its prime rule in mode "forbid");
3. keep the sequences that use the most dice;
4. when only one die of a non-double is used, the higher one if that can be played and
   ``must_play_higher`` is set;
5. Fevga's prime obligation ("must_open");
6. one entry per distinct final position (the first sequence found gives its notation).

Step codes (why a single step is illegal) are shared with :mod:`tavli.notation` so that
error messages come from the same rules.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .games.fevga import (
    PRIME_FORBID,
    PRIME_MUST_OPEN,
    fevga_blocked,
    fevga_quarter_ok,
    fevga_start_locked,
    fevga_traps,
)
from .games.plakoto import plakoto_any_pinned, plakoto_blocked, plakoto_land, plakoto_leave
from .games.portes import portes_blocked, portes_land
from .layout import BACKGAMMON, BAR, FEVGA, PLAKOTO, PORTES

OK = 0
NO_CHECKER = 1
MUST_ENTER = 2
BLOCKED = 3
PINNED = 4
NOT_ALL_HOME = 5
PINNED_NO_BEAROFF = 6
HIGHER_CHECKER = 7
FIRST_CHECKER = 8

STEP_REASONS = {
    NO_CHECKER: "there is no checker of the side to move on that point",
    MUST_ENTER: "checkers on the bar must be entered first",
    BLOCKED: "the landing point is blocked",
    PINNED: "that checker is pinned",
    NOT_ALL_HOME: "bearing off needs every checker in the home board",
    PINNED_NO_BEAROFF: "no bearing off while a checker is pinned",
    HIGHER_CHECKER: "a checker on a higher point must use that die",
    FIRST_CHECKER: "the first checker must pass the opponent's start before another leaves",
}

MAX_STATES = 32768
HASH_SIZE = 65536
SMALL_HASH = 2048
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True)
def _blocked(st, me, t, game):
    if game == PORTES or game == BACKGAMMON:
        return portes_blocked(st, me, t)
    if game == PLAKOTO:
        return plakoto_blocked(st, me, t)
    return fevga_blocked(st, me, t)


@njit(cache=True)
def step_code(st, me, s, d, game):
    """Why moving ``me``'s checker from ``s`` (25 = bar) by ``d`` is illegal, or OK (0)."""
    if s < 1 or s > 25 or d < 1 or d > 6:
        return NO_CHECKER
    if st[me, s] == 0:
        return NO_CHECKER
    if s != BAR and st[me, BAR] > 0:
        return MUST_ENTER
    if game == PLAKOTO and st[2 + me, s] == 1:
        return PINNED
    if game == FEVGA and s == 24 and fevga_start_locked(st, me):
        return FIRST_CHECKER
    t = s - d
    if t >= 1:
        if _blocked(st, me, t, game):
            return BLOCKED
        return OK
    for p in range(7, 26):
        if st[me, p] > 0:
            return NOT_ALL_HOME
    if game == PLAKOTO and plakoto_any_pinned(st, me):
        return PINNED_NO_BEAROFF
    if t < 0:
        for p in range(s + 1, 7):
            if st[me, p] > 0:
                return HIGHER_CHECKER
    return OK


@njit(cache=True)
def apply_step(st, me, s, d, game):
    """Move ``me``'s checker from ``s`` by ``d`` (assumed legal). Returns 1 for a hit or pin."""
    t = s - d
    if t < 0:
        t = 0
    if game == PLAKOTO:
        plakoto_leave(st, me, s)
    else:
        st[me, s] -= 1
    if t == 0:
        st[me, 0] += 1
        return 0
    if game == PORTES or game == BACKGAMMON:
        return portes_land(st, me, t)
    if game == PLAKOTO:
        return plakoto_land(st, me, t)
    st[me, t] += 1
    return 0


@njit(cache=True)
def _hash(words, i, salt, nw):
    h = np.uint64(salt) * _M2 + np.uint64(1)
    for k in range(nw):
        h = (h ^ words[i, k]) * _M1
    return h ^ (h >> np.uint64(31))


@njit(cache=True)
def _same(words, i, j, nw):
    for k in range(nw):
        if words[i, k] != words[j, k]:
            return False
    return True


@njit(cache=True)
def _insert(words, masks, i, slot, stamp, stampv, hsize, nw):
    """Insert state ``i`` (with its dice mask) into the hash set; return the index of an
    equal state already there, or -1 when ``i`` is new. ``nw``: words that can differ."""
    h = _hash(words, i, masks[i], nw)
    pos = np.int64(h & np.uint64(hsize - 1))
    while True:
        if stamp[pos] != stampv:
            stamp[pos] = stampv
            slot[pos] = i
            return -1
        j = slot[pos]
        if masks[j] == masks[i] and _same(words, i, j, nw):
            return j
        pos = (pos + 1) & (hsize - 1)


@njit(cache=True)
def _turn_ok(st, me, game, quarter, prime):
    """End-of-turn restrictions (step 2)."""
    if game == FEVGA:
        if not fevga_quarter_ok(st, me, quarter):
            return False
        if prime == PRIME_FORBID and fevga_traps(st, me):
            return False
    return True


@njit(cache=True)
def generate(st0, me, d1, d2, game, must_higher, quarter, prime,
             states, words, steps, masks, lastsrc, slot, stamp, stampc, out):
    """Legal turns of ``me`` in ``st0`` with dice ``d1, d2``.

    Work buffers: ``states`` int8[N,4,26] with ``words`` its uint64[N,13] view, ``steps``
    int8[N,4,3] (from, to, hit/pin flag per step), ``masks`` and ``lastsrc`` int8[N], hash ``slot``
    int32[H] and ``stamp`` int64[H], ``stampc`` int64[8]. Writes the indices of the chosen
    final states to ``out`` and returns their count (0 = no move: the player passes), or
    -1 when the buffers overflow.
    """
    nmax = states.shape[0]
    # rows 2-3 (pins) are all zero outside Plakoto: words 0..6 hold rows 0-1
    nw = 13 if game == PLAKOTO else 7
    states[0, :, :] = st0
    steps[0, 0, 0] = 0
    masks[0] = 0
    n = 1
    double = d1 == d2
    hi = max(d1, d2)
    lo = min(d1, d2)
    nlev = 4 if double else 2
    lstart = stampc[1:8]
    lstart[0] = 0
    lstart[1] = 1
    nlevels = 1
    for lev in range(1, nlev + 1):
        stampc[0] += 1
        sv = stampc[0]
        # a small hash table stays in cache; use the big one only when a level may grow
        bound = (lstart[lev] - lstart[lev - 1]) * (15 if double else 30)
        hsize = SMALL_HASH if bound * 2 <= SMALL_HASH else slot.shape[0]
        for i in range(lstart[lev - 1], lstart[lev]):
            for di in range(2):
                if double:
                    if di == 1:
                        break
                    d = hi
                    bit = 0
                else:
                    bit = 1 << di
                    if masks[i] & bit:
                        continue
                    d = hi if di == 0 else lo
                # Sources in non-increasing order reach every final position: an earlier
                # step never enables a step from a higher point nor does a step from a
                # higher point disable a lower one, so any turn can be reordered that way.
                # The exception: in Fevga a step may free the 24-point (first checker).
                top = 25
                if lev > 1:
                    top = lastsrc[i]
                for s in range(25, 0, -1):
                    if states[i, me, s] == 0:
                        continue
                    if s > top and not (game == FEVGA and s == 24):
                        continue
                    if step_code(states[i], me, s, d, game) != OK:
                        continue
                    if n >= nmax:
                        return -1
                    for k in range(13):  # all rows: stale pin rows must not leak
                        words[n, k] = words[i, k]
                    for k in range(lev - 1):
                        steps[n, k, 0] = steps[i, k, 0]
                        steps[n, k, 1] = steps[i, k, 1]
                        steps[n, k, 2] = steps[i, k, 2]
                    flag = apply_step(states[n], me, s, d, game)
                    t = s - d
                    if t < 0:
                        t = 0
                    steps[n, lev - 1, 0] = s
                    steps[n, lev - 1, 1] = t
                    steps[n, lev - 1, 2] = flag
                    if lev < 4:
                        steps[n, lev, 0] = 0  # terminator: a step "from 0" never exists
                    masks[n] = lev if double else (masks[i] | bit)
                    lastsrc[n] = s
                    j = _insert(words, masks, n, slot, stamp, sv, hsize, nw)
                    if j < 0:
                        n += 1
                    elif lastsrc[j] < s:
                        lastsrc[j] = s
        lstart[lev + 1] = n
        if n == lstart[lev]:
            break
        nlevels = lev + 1
    # steps 2 and 3: deepest level with a final position that passes the restrictions
    best = -1
    for lev in range(nlevels - 1, 0, -1):
        for i in range(lstart[lev], lstart[lev + 1]):
            if _turn_ok(states[i], me, game, quarter, prime):
                best = lev
                break
        if best > 0:
            break
    if best < 0:
        return 0
    cnt = 0
    for i in range(lstart[best], lstart[best + 1]):
        if _turn_ok(states[i], me, game, quarter, prime):
            out[cnt] = i
            cnt += 1
    # step 4: higher die
    if best == 1 and not double and must_higher:
        k = 0
        for j in range(cnt):
            if masks[out[j]] == 1:
                out[k] = out[j]
                k += 1
        if k > 0:
            cnt = k
    # step 5: prime obligation
    if game == FEVGA and prime == PRIME_MUST_OPEN and fevga_traps(st0, me):
        k = 0
        for j in range(cnt):
            if not fevga_traps(states[out[j]], me):
                out[k] = out[j]
                k += 1
        if k > 0:
            cnt = k
    # step 6: one entry per final position (masks ignored)
    stampc[0] += 1
    sv = stampc[0]
    hsize = SMALL_HASH if cnt * 2 <= SMALL_HASH else slot.shape[0]
    k = 0
    for j in range(cnt):
        i = out[j]
        saved = masks[i]
        masks[i] = 0
        dup = _insert(words, masks, i, slot, stamp, sv, hsize, nw)
        if dup < 0:
            out[k] = i
            k += 1
        else:
            masks[i] = saved
    return k


class Workspace:
    """Reusable work buffers for :func:`generate` (one per thread)."""

    def __init__(self, size: int = MAX_STATES, hash_size: int = HASH_SIZE) -> None:
        self.states = np.zeros((size, 4, 26), dtype=np.int8)
        self.words = self.states.reshape(size, 104).view(np.uint64)
        self.steps = np.zeros((size, 4, 3), dtype=np.int8)
        self.masks = np.zeros(size, dtype=np.int8)
        self.lastsrc = np.zeros(size, dtype=np.int8)
        self.slot = np.zeros(hash_size, dtype=np.int32)
        self.stamp = np.zeros(hash_size, dtype=np.int64)
        self.stampc = np.zeros(8, dtype=np.int64)  # [0]: stamp; [1:8]: level starts
        self.out = np.zeros(size, dtype=np.int64)

    def run(self, arr, me, d1, d2, game, must_higher, quarter, prime) -> int:
        n = generate(arr, me, d1, d2, game, must_higher, quarter, prime, self.states,
                     self.words, self.steps, self.masks, self.lastsrc, self.slot, self.stamp, self.stampc,
                     self.out)
        if n < 0:
            raise RuntimeError("legal-move buffers overflowed")
        return n


@njit(cache=True)
def generate_batch(arrs, turns, dice, game, must_higher, quarter, prime,
                   states, words, steps, masks, lastsrc, slot, stamp, stampc, out,
                   counts, results, result_steps):
    """Legal turns for many positions in one call.

    ``arrs`` int8[N,4,26], ``turns`` int8[N], ``dice`` int8[N,2]. Writes ``counts[i]`` and
    appends every final state to ``results`` (int8[M,4,26]) and its steps to
    ``result_steps`` (int8[M,4,3]), position after position. Returns the total written, or
    -1 when a buffer overflows.
    """
    total = 0
    for k in range(arrs.shape[0]):
        c = generate(arrs[k], turns[k], dice[k, 0], dice[k, 1], game, must_higher, quarter,
                     prime, states, words, steps, masks, lastsrc, slot, stamp, stampc, out)
        if c < 0 or total + c > results.shape[0]:
            return -1
        counts[k] = c
        for j in range(c):
            results[total + j] = states[out[j]]
            result_steps[total + j] = steps[out[j]]
        total += c
    return total
