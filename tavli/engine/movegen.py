"""The compiled legal-turn generator shared by every consumer (CLI, web, AI, tests).

Everything here works on the board array of :mod:`tavli.engine.layout` (``int8[4, 26]``) and is
compiled with Numba on first use (``cache=True``). The per-game rule predicates live in
:mod:`tavli.engine.games`; this module strings single checker moves ("steps") into whole turns:

1. every sequence of single legal steps, breadth first, one level per die, identical
   intermediate positions merged (so doubles stay cheap);
2. drop the sequences whose final position breaks an end-of-turn restriction (Fevga's
   starting-quarter rule, and its prime rule in mode "forbid");
3. keep the sequences that use the most dice;
4. when only one die of a non-double is used, the higher one if that can be played and
   ``must_play_higher`` is set;
5. Fevga's prime obligation ("must_open");
6. one entry per distinct final position (the first sequence found gives its notation).

The rules come as one tuple of flags (:meth:`tavli.engine.rules.Rules.kernel_flags`, indices in
:mod:`tavli.engine.games.kernel`); the single-step functions take the rule set (the kernel code).

Step codes (why a single step is illegal) are shared with :mod:`tavli.engine.notation` so that
error messages come from the same rules.

Work buffers (see :class:`Workspace`): the positions the search reaches are *records*,
rows of one ``int8[N, 128]`` array ``buf``:

* bytes 0..103: the board array flattened (``st[row, col]`` is ``buf[i, row * 26 + col]``);
* bytes 104..115: the steps that led there, ``int8[4, 3]`` (from, to, hit/pin flag; a step
  "from 0" ends the list);
* byte 116: the dice used (non-doubles: bit 0 the higher die, bit 1 the lower; doubles:
  how many), 117: the highest source played so far, 118: the highest point (25 = bar)
  holding a checker of the side to move, 0 when none;
* bytes 120..127 (``uint64`` word 15): the hash of board rows 0-1 (words 0..6).

and one ``int64`` array ``table``: ``[0]`` a stamp counter, ``[1:8]`` where each search
level starts, then the hash table (``stamp << 32 | record``), then the indices of the
chosen final records (``out``).

>>> from tavli.engine.games import find_variant
>>> from tavli.engine.rules import Rules
>>> ws = Workspace()
>>> n = ws.run(find_variant("portes").start_array(), 0, 3, 1, Rules("portes").kernel_flags())
>>> n, ws.states[ws.out[0]][0, 20:25].tolist(), ws.steps[ws.out[0]].tolist()
(16, [0, 1, 0, 1, 0], [[24, 21, 0], [24, 23, 0], [0, 0, 0], [0, 0, 0]])
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np
from numba import njit
from numba.core import cgutils, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic

from tavli.engine.firstclass import FirstClass
from tavli.engine.games import HITTING, PINNING, RUNNING
from tavli.engine.games.fevga import (
    PRIME_FORBID,
    PRIME_MUST_OPEN,
    fevga_blocked,
    fevga_quarter_ok,
    fevga_start_locked,
    fevga_traps,
)
from tavli.engine.games.kernel import F_HIGHER, F_KERNEL, F_PRIME, F_QUARTER
from tavli.engine.games.plakoto import (
    plakoto_any_pinned,
    plakoto_blocked,
    plakoto_land,
    plakoto_leave,
)
from tavli.engine.games.portes import portes_blocked, portes_land
from tavli.engine.layout import BAR, NSLOTS

if TYPE_CHECKING:
    from tavli.engine.rules import Rules

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

# record layout (bytes of a buf row)
REC = 128
STEPS = 104
MASK = 116
LAST = 117
FAR = 118
HWORD = 15
NKEY = 7  # words that tell records apart: board rows 0-1 (see _generate)
# table layout
STAMP = 0
LSTART = 1
HT = 16
STAMP_LIMIT = 1 << 30

_C = np.array([0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB,
               0xD6E8FEB86659FD93, 0xA0761D6478BD642F, 0xE7037ED1A0B428DB,
               0x8EBC6AF09C88C6E3], dtype=np.uint64)
_KM = np.uint64(0xC4CEB9FE1A85EC53)  # mask term of the search key
_MIX = np.uint64(0x9E3779B97F4A7C15)


@intrinsic
def borrow(typingctx, arr):
    """The same array without its reference count (a NULL meminfo), for work buffers
    that outlive the call: passing it to helpers then costs no atomic incref/decref."""
    def codegen(context, builder, signature, args):
        src = context.make_array(arr)(context, builder, value=args[0])
        dst = context.make_array(arr)(context, builder)
        for name in ("parent", "nitems", "itemsize", "data", "shape", "strides"):
            setattr(dst, name, getattr(src, name))
        dst.meminfo = cgutils.get_null_value(dst.meminfo.type)
        return dst._getvalue()

    return arr(arr), codegen


@intrinsic
def as_readonly(typingctx, arr):
    """The same array typed read-only: a position comes read-only from Python
    (``Position.array``) and writable from the searches, and one compiled turn generator
    serves both (each type compiled it again: two seconds of a first run). The searches
    of the first minute pass their boards to :func:`generate` through it too, so that
    one compiled ``generate`` serves them and the legal-move lists."""
    if not isinstance(arr, types.Array):
        return None
    ro = arr.copy(readonly=True)

    def codegen(context, builder, signature, args):
        return impl_ret_borrowed(context, builder, ro, args[0])

    return ro(arr), codegen


# --- single steps on records ---------------------------------------------------------------

@njit(cache=True)
def _blocked(b, i, me, t, kernel):
    if kernel == HITTING:
        return portes_blocked(b, i, me, t)
    if kernel == PINNING:
        return plakoto_blocked(b, i, me, t)
    return fevga_blocked(b, i, me, t)


@njit(cache=True)
def step_code_rec(b, i, me, s, d, kernel):
    """Why moving ``me``'s checker from ``s`` (25 = bar) by ``d`` in record ``b[i]`` is
    illegal, or OK (0)."""
    if s < 1 or s > 25 or d < 1 or d > 6:
        return NO_CHECKER
    m = me * NSLOTS
    if b[i, m + s] == 0:
        return NO_CHECKER
    if s != BAR and b[i, m + BAR] > 0:
        return MUST_ENTER
    if kernel == PINNING and b[i, m + 2 * NSLOTS + s] == 1:
        return PINNED
    if kernel == RUNNING and s == 24 and fevga_start_locked(b, i, me):
        return FIRST_CHECKER
    t = s - d
    if t >= 1:
        if _blocked(b, i, me, t, kernel):
            return BLOCKED
        return OK
    for p in range(7, 26):
        if b[i, m + p] > 0:
            return NOT_ALL_HOME
    if kernel == PINNING and plakoto_any_pinned(b, i, me):
        return PINNED_NO_BEAROFF
    if t < 0:
        for p in range(s + 1, 7):
            if b[i, m + p] > 0:
                return HIGHER_CHECKER
    return OK


@njit(cache=True)
def apply_step_rec(b, i, me, s, d, kernel):
    """Move ``me``'s checker from ``s`` by ``d`` in record ``b[i]`` (assumed legal).
    Returns 1 for a hit or pin."""
    t = s - d
    m = me * NSLOTS
    if kernel == PINNING:
        plakoto_leave(b, i, me, s)
    else:
        b[i, m + s] -= 1
    if t <= 0:
        b[i, m] += 1
        return 0
    if kernel == HITTING:
        return portes_land(b, i, me, t)
    if kernel == PINNING:
        return plakoto_land(b, i, me, t)
    b[i, m + t] += 1
    return 0


@njit(cache=True)
def _to_rec(st):
    b = np.zeros((1, REC), dtype=np.int8)
    for r in range(4):
        for c in range(NSLOTS):
            b[0, r * NSLOTS + c] = st[r, c]
    return b


@njit(cache=True)
def step_code(st, me, s, d, kernel):
    """Why moving ``me``'s checker from ``s`` (25 = bar) by ``d`` is illegal, or OK (0).

    ``st`` is a board array ``int8[4, 26]``.
    """
    return step_code_rec(_to_rec(st), np.int64(0), me, s, d, kernel)  # not a literal 0: one compile


@njit(cache=True)
def apply_step(st, me, s, d, kernel):
    """Move ``me``'s checker from ``s`` by ``d`` (assumed legal) in the board array ``st``.
    Returns 1 for a hit or pin."""
    b = _to_rec(st)
    flag = apply_step_rec(b, 0, me, s, d, kernel)
    for r in range(4):
        for c in range(NSLOTS):
            st[r, c] = b[0, r * NSLOTS + c]
    return flag


# --- the search ----------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _hash(w, i):
    """Hash of record ``i``'s board rows 0-1 (words 0..6): a sum of words times odd
    constants, so the multiplications run in parallel."""
    h = w[i, 0] * _C[0] + w[i, 1] * _C[1] + w[i, 2] * _C[2] + w[i, 3] * _C[3]
    return h + w[i, 4] * _C[4] + w[i, 5] * _C[5] + w[i, 6] * _C[6]


@njit(cache=True, inline="always")
def _same(w, i, j):
    for k in range(NKEY):
        if w[i, k] != w[j, k]:
            return False
    return True


@njit(cache=True, inline="always")
def _insert(b, w, table, n, key, sv, bits, by_mask):
    """Insert record ``n`` into the hash set (stamped ``sv``; ``1 << bits`` slots); return
    the index of an equal record already there, or -1 when ``n`` is new. Records are equal
    when their boards are, and with ``by_mask`` their dice used too."""
    hmask = (1 << bits) - 1
    pos = np.int64((key * _MIX) >> np.uint64(64 - bits))
    hn = w[n, HWORD]
    while True:
        e = table[HT + pos]
        if (e >> 32) != sv:
            table[HT + pos] = (sv << 32) | n
            return -1
        j = e & 0xFFFFFFFF
        if (w[j, HWORD] == hn and (not by_mask or b[j, MASK] == b[n, MASK])
                and _same(w, j, n)):
            return j
        pos = (pos + 1) & hmask


@njit(cache=True)
def _stamp(table):
    """A fresh stamp: every hash slot stamped otherwise counts as empty."""
    sv = table[STAMP] + 1
    if sv >= STAMP_LIMIT:
        for k in range(HT, table.shape[0]):
            table[k] = 0
        sv = 1
    table[STAMP] = sv
    return sv


@njit(cache=True)
def _bits(count, cap_bits):
    """Hash-table size (log2) for at most ``count`` entries: load at most 1/2."""
    bits = 6
    while (1 << bits) < 2 * count and bits < cap_bits:
        bits += 1
    return bits


@njit(cache=True)
def _turn_ok(b, i, me, kernel, quarter, prime):
    """End-of-turn restrictions (step 2)."""
    if kernel == RUNNING:
        if not fevga_quarter_ok(b, i, me, quarter):
            return False
        if prime == PRIME_FORBID and fevga_traps(b, i, me):
            return False
    return True


@njit(cache=True)
def generate(st0, me, d1, d2, flags, buf, table):
    """Legal turns of ``me`` in the board array ``st0`` with dice ``d1, d2`` under the
    rule flags ``flags`` (:meth:`tavli.engine.rules.Rules.kernel_flags`).

    ``buf`` int8[N, 128] and ``table`` int64[16 + H + N] are the work buffers described in
    the module docstring (H a power of two, at least 2 N). Writes the record indices of the
    chosen final positions to ``table[16 + H:]`` (``out``) and returns their count (0 = no
    move: the player passes), or -1 when the buffers overflow.
    """
    return _generate(as_readonly(st0), me, d1, d2, flags, borrow(buf),
                     borrow(buf.view(np.uint64)), borrow(table))


#: :func:`generate` as a value compiled code calls by address (the searches:
#: :mod:`tavli.engine.firstclass`): a read-only board array, the side, the dice, the rule
#: flags, the work buffers
GENERATE = FirstClass(generate, types.int64(
    types.Array(types.int8, 2, "C", readonly=True), types.int64, types.int64, types.int64,
    types.UniTuple(types.int64, 5), types.int8[:, ::1], types.int64[::1]))


@njit(cache=True)
def _generate(st0, me, d1, d2, flags, buf, w, table):
    """:func:`generate` on borrowed buffers (``w``: ``buf`` as uint64 words)."""
    kernel = flags[F_KERNEL]
    must_higher = flags[F_HIGHER] != 0
    quarter = flags[F_QUARTER]
    prime = flags[F_PRIME]
    nmax = buf.shape[0]
    hcap = table.shape[0] - HT - nmax
    cap_bits = 0
    while (2 << cap_bits) <= hcap:
        cap_bits += 1
    outp = HT + hcap
    m = me * NSLOTS
    o = (1 - me) * NSLOTS
    plakoto = kernel == PINNING
    fevga = kernel == RUNNING
    hitting = kernel == HITTING
    # Records are told apart by board rows 0-1 (words 0..6, NKEY) alone. Rows 2-3 (pins)
    # are zero outside Plakoto; in Plakoto, given the turn's start, they follow from rows
    # 0-1: the mover's own pins cannot change, and an opponent's lone checker is pinned
    # exactly when the mover has a checker on its point (unless that point holds a pinned
    # checker of the mover: then it is blocked and stays as it was all turn).
    for k in range(16):
        w[0, k] = 0
    for r in range(4):
        for c in range(NSLOTS):
            buf[0, r * NSLOTS + c] = st0[r, c]
    far = 0
    for p in range(25, 0, -1):
        if buf[0, m + p] > 0:
            far = p
            break
    buf[0, FAR] = far
    buf[0, LAST] = 25
    w[0, HWORD] = _hash(w, 0)

    n = np.int64(1)  # not a literal: the kernels it is passed to compile once, not twice
    double = d1 == d2
    hi = max(d1, d2)
    lo = min(d1, d2)
    nlev = 4 if double else 2
    table[LSTART] = 0
    table[LSTART + 1] = 1
    nlevels = 1
    for lev in range(1, nlev + 1):
        sv = _stamp(table)
        a0 = table[LSTART + lev - 1]
        a1 = table[LSTART + lev]
        bits = _bits((a1 - a0) * (15 if double else 30), cap_bits)
        sp = STEPS + 3 * (lev - 1)
        last_level = lev == nlev  # its records are never expanded
        for i in range(a0, a1):
            far = buf[i, FAR]
            if far == 0:
                continue
            mask_i = buf[i, MASK]
            top = buf[i, LAST]
            # what this parent allows, worked out once for all its steps
            can_off = far <= 6
            if can_off and plakoto:
                can_off = not plakoto_any_pinned(buf, i, me)
            locked = fevga and fevga_start_locked(buf, i, me)
            for di in range(2):
                if double:
                    if di == 1:
                        break
                    d = hi
                    bit = 0
                    newmask = lev
                else:
                    bit = 1 << di
                    if mask_i & bit:
                        continue
                    d = hi if di == 0 else lo
                    newmask = mask_i | bit
                # Sources in non-increasing order reach every final position: an earlier
                # step never enables a step from a higher point nor does a step from a
                # higher point disable a lower one, so any turn can be reordered that way.
                # The exception: in Fevga a step may free the 24-point (first checker).
                s = far
                while s > 0:
                    if s > top:
                        if fevga and s == 24:
                            cur = 24
                            s = top
                        else:
                            s = top
                            continue
                    else:
                        cur = s
                        s -= 1
                    if far == BAR:  # checkers on the bar enter first
                        s = 0
                    if buf[i, m + cur] == 0:
                        continue
                    if plakoto and buf[i, m + 2 * NSLOTS + cur] == 1:
                        continue  # pinned
                    if fevga and cur == 24 and locked:
                        continue  # first checker
                    t = cur - d
                    if t >= 1:
                        if hitting:
                            if buf[i, o + 25 - t] >= 2:
                                continue
                        elif _blocked(buf, i, me, t, kernel):
                            continue
                    else:
                        if not can_off:
                            continue
                        if t < 0 and cur != far:
                            continue  # a checker on a higher point must use that die
                        t = 0
                    if n >= nmax:
                        return -1
                    for k in range(16):
                        w[n, k] = w[i, k]
                    if plakoto:
                        plakoto_leave(buf, n, me, cur)
                    else:
                        buf[n, m + cur] -= 1
                    flag = 0
                    if t == 0:
                        buf[n, m] += 1
                    elif hitting:
                        flag = portes_land(buf, n, me, t)
                    elif plakoto:
                        flag = plakoto_land(buf, n, me, t)
                    else:
                        buf[n, m + t] += 1
                    buf[n, sp] = cur
                    buf[n, sp + 1] = t
                    buf[n, sp + 2] = flag
                    if lev < 4:
                        buf[n, sp + 3] = 0  # terminator: a step "from 0" never exists
                    buf[n, MASK] = newmask
                    if not last_level:
                        buf[n, LAST] = cur
                        if cur == far and buf[n, m + cur] == 0:
                            nf = 0
                            for p in range(cur - 1, 0, -1):
                                if buf[n, m + p] > 0:
                                    nf = p
                                    break
                            buf[n, FAR] = nf
                    h = _hash(w, n)
                    w[n, HWORD] = h
                    j = _insert(buf, w, table, n, h + np.uint64(newmask) * _KM, sv, bits,
                                True)
                    if j < 0:
                        n += 1
                    elif not last_level and buf[j, LAST] < cur:
                        buf[j, LAST] = cur
        table[LSTART + lev + 1] = n
        if n == table[LSTART + lev]:
            break
        nlevels = lev + 1
    # steps 2 and 3: deepest level with a final position that passes the restrictions
    best = -1
    for lev in range(nlevels - 1, 0, -1):
        for i in range(table[LSTART + lev], table[LSTART + lev + 1]):
            if _turn_ok(buf, i, me, kernel, quarter, prime):
                best = lev
                break
        if best > 0:
            break
    if best < 0:
        return 0
    cnt = np.int64(0)  # (as n above)
    for i in range(table[LSTART + best], table[LSTART + best + 1]):
        if _turn_ok(buf, i, me, kernel, quarter, prime):
            table[outp + cnt] = i
            cnt += 1
    if best > 1 or double:
        # every record of a level used the same dice, so its boards are distinct already
        if fevga and prime == PRIME_MUST_OPEN:
            cnt = _must_open(buf, table, outp, cnt, me)
        return cnt
    # step 4: higher die
    if must_higher:
        k = 0
        for j in range(cnt):
            if buf[table[outp + j], MASK] == 1:
                table[outp + k] = table[outp + j]
                k += 1
        if k > 0:
            cnt = k
    # step 5: prime obligation
    if fevga and prime == PRIME_MUST_OPEN:
        cnt = _must_open(buf, table, outp, cnt, me)
    # step 6: one entry per final position (dice used ignored)
    sv = _stamp(table)
    bits = _bits(cnt, cap_bits)
    k = 0
    for j in range(cnt):
        i = table[outp + j]
        if _insert(buf, w, table, i, w[i, HWORD], sv, bits, False) < 0:
            table[outp + k] = i
            k += 1
    return k


@njit(cache=True)
def _must_open(buf, table, outp, cnt, me):
    """Step 5: a player whose prime traps the opponent must free him if any turn does."""
    if not fevga_traps(buf, np.int64(0), me):
        return cnt
    k = 0
    for j in range(cnt):
        if not fevga_traps(buf, table[outp + j], me):
            table[outp + k] = table[outp + j]
            k += 1
    return k if k > 0 else cnt


class Workspace:
    """Reusable work buffers for :func:`generate` (one per thread).

    ``states[i]`` (board arrays), ``steps[i]`` and ``out`` are views into the buffers, for
    reading the result of :meth:`run`.
    """

    def __init__(self, size: int = MAX_STATES, hash_size: int = HASH_SIZE) -> None:
        if hash_size & (hash_size - 1) or hash_size < 2 * size:
            raise ValueError("hash_size must be a power of two, at least 2 * size")
        self.size = size
        self.buf = np.zeros((size, REC), dtype=np.int8)
        self.table = np.zeros(HT + hash_size + size, dtype=np.int64)
        self.states = self.buf[:, :104].reshape(size, 4, NSLOTS)
        self.steps = self.buf[:, STEPS:STEPS + 12].reshape(size, 4, 3)
        self.out = self.table[HT + hash_size:]

    def run(self, arr, me, d1, d2, flags) -> int:
        """Legal turns of ``me`` in ``arr`` with ``d1, d2`` under the rule flags
        ``flags`` (:meth:`tavli.engine.rules.Rules.kernel_flags`); returns how many (0: no
        move)."""
        n = generate(arr, me, d1, d2, flags, self.buf, self.table)
        if n < 0:
            raise RuntimeError("legal-move buffers overflowed")
        return n


@njit(cache=True)
def generate_batch(arrs, turns, dice, flags, buf, table, start, total, counts, results,
                   result_steps):
    """Legal turns for many positions in one call.

    ``arrs`` int8[N,4,26], ``turns`` int8[N], ``dice`` int8[N,2]. From position ``start``
    on, writes ``counts[k]`` and stores every final position in ``results`` (int8[M,4,26])
    and its steps in ``result_steps`` (int8[M,4,3]) from row ``total`` on, position after
    position. Returns ``(k, total)``: the first position not done (N when all are) and the
    rows written so far; it stops early when ``results`` is full (``counts[k]`` = -1) or
    the work buffers overflow (``counts[k]`` = -2).
    """
    outp = table.shape[0] - buf.shape[0]
    b = borrow(buf)
    w = borrow(buf.view(np.uint64))
    tb = borrow(table)
    src = borrow(arrs)
    rw = borrow(results.reshape(results.shape[0], 4 * NSLOTS).view(np.uint64))
    rs = borrow(result_steps.reshape(result_steps.shape[0], 12))
    for k in range(start, arrs.shape[0]):
        # typed as generate's call (read-only board, int64): one compiled _generate
        c = _generate(as_readonly(src[k]), np.int64(turns[k]), np.int64(dice[k, 0]),
                      np.int64(dice[k, 1]), flags, b, w, tb)
        if c < 0:
            counts[k] = -2
            return k, total
        if total + c > results.shape[0]:
            counts[k] = -1
            return k, total
        counts[k] = c
        for j in range(c):
            i = tb[outp + j]
            for q in range(13):
                rw[total + j, q] = w[i, q]
            for q in range(12):
                rs[total + j, q] = b[i, STEPS + q]
        total += c
    return arrs.shape[0], total


_local = threading.local()


def thread_workspace() -> Workspace:
    """This thread's shared :class:`Workspace` (made on first use)."""
    ws = getattr(_local, "ws", None)
    if ws is None:
        ws = _local.ws = Workspace()
    return ws


def legal_batch(arrays: np.ndarray, turns: np.ndarray, dice: np.ndarray, rules: Rules,
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Legal turns of many positions in one compiled call.

    ``arrays`` int8[N, 4, 26] (board arrays of :mod:`tavli.engine.layout`), ``turns`` the side to
    move of each (0 or 1), ``dice`` int[N, 2]; all positions are played by ``rules``
    (a :class:`tavli.engine.rules.Rules`). Returns ``(counts, results, steps)``: ``counts[i]``
    (int64[N]) legal turns of position ``i`` (0: it passes), and its final positions
    ``results`` (int8[M, 4, 26], M = counts.sum()) with their single steps ``steps``
    (int8[M, 4, 3]: from, to, hit/pin flag; a step from 0 ends the list), position after
    position in the order of :meth:`tavli.engine.board.Position.legal_moves`.

    >>> from tavli.engine.board import Position
    >>> from tavli.engine.rules import Rules
    >>> start = Position.start("portes").array
    >>> counts, results, steps = legal_batch(
    ...     np.stack([start, start]), [0, 1], [(3, 1), (6, 6)], Rules.for_game("portes"))
    >>> counts.tolist(), results.shape, steps[0, :2].tolist()
    ([16, 11], (27, 4, 26), [[24, 21, 0], [24, 23, 0]])
    >>> starts = np.cumsum(counts) - counts  # position i's turns: results[starts[i]:][:counts[i]]
    """
    arrs = np.ascontiguousarray(arrays, dtype=np.int8)
    n = arrs.shape[0] if arrs.ndim == 3 else -1
    if arrs.shape != (n, 4, NSLOTS):
        raise ValueError(f"arrays must have shape (N, 4, 26), got {np.shape(arrays)}")
    tv = np.ascontiguousarray(turns, dtype=np.int8).reshape(-1)
    dv = np.ascontiguousarray(dice, dtype=np.int8)
    if tv.shape != (n,) or dv.shape != (n, 2):
        raise ValueError(f"need {n} turns and {n} pairs of dice, got shapes "
                         f"{np.shape(turns)} and {np.shape(dice)}")
    if n and ((tv < 0).any() or (tv > 1).any() or (dv < 1).any() or (dv > 6).any()):
        raise ValueError("turns must be 0 or 1 and dice 1..6")
    flags = rules.kernel_flags()
    ws = thread_workspace()
    counts = np.zeros(n, dtype=np.int64)
    cap = max(64, 32 * n)
    results = np.empty((cap, 4, NSLOTS), dtype=np.int8)
    steps = np.empty((cap, 4, 3), dtype=np.int8)
    k = total = 0
    while k < n:
        k, total = generate_batch(arrs, tv, dv, flags, ws.buf, ws.table, k, total, counts,
                                  results, steps)
        if k == n:
            break
        if counts[k] == -2:  # work buffers too small: cannot happen for valid positions
            ws = _local.ws = Workspace(2 * ws.size, 2 * (ws.table.shape[0] - HT - ws.size))
            continue
        cap *= 2  # results full: grow and go on from position k
        grown = np.empty((cap, 4, NSLOTS), dtype=np.int8)
        grown[:total] = results[:total]
        results = grown
        grown = np.empty((cap, 4, 3), dtype=np.int8)
        grown[:total] = steps[:total]
        steps = grown
    if total < cap // 2:
        return counts, results[:total].copy(), steps[:total].copy()
    return counts, results[:total], steps[:total]
