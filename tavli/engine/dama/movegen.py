"""The compiled Dama move generator (Numba, ``cache=True``).

A position is four 32-bit square masks held in ``int64`` — white men ``wm``, white kings
``wk``, black men ``bm``, black kings ``bk`` — plus the side to move ``stm`` (0 White,
1 Black) and ``huff``: the mask of pieces of the player who has just moved that the side to
move may remove ("huff") under the box rules; 0 in every other case.

Bit ``i`` is square ``i + 1`` of the rule set's numbering (see :mod:`tavli.engine.dama.board`): the
squares are numbered row by row from Black's side (bit 0..3 is White's promotion row,
bit 28..31 Black's). The geometry tables (:func:`geometry`) say which square lies next to
which in each diagonal direction, so the same code serves the Russian board (a1 dark) and
the Italian one (h1 dark).

The generator writes moves as rows of an ``int64[N, MW]`` array:

===========  ==============================================================
column       meaning
===========  ==============================================================
``C_FROM``   start square (bit index)
``C_TO``     end square
``C_CAPS``   mask of the captured pieces
``C_NCAP``   number of pieces captured
``C_KING``   1 when the moving piece is a king
``C_PROMO``  1 when a man is crowned by this move
``C_NKINGS`` kings captured
``C_FIRSTK`` index in the capture order of the first king captured (99: none)
``C_HUFF``   square huffed (removed) before the move, -1 for none
``C_DECL``   box rules: a quiet move played when a capture was possible —
             the mask of the pieces that could have captured (else 0)
``C_NPATH``  number of landing squares in ``C_PATH`` (one per capture)
``C_PATH``   12 landing squares, in order (captures only)
``C_CSEQ``   12 captured squares, in capture order
===========  ==============================================================

Capture sequences are generated complete (a piece must go on capturing while it can; a
flying king that may land on several squares beyond a piece must choose one from which it
can go on capturing, if there is one). Captured pieces stay on the board until the move
ends: they block and cannot be jumped twice. Sequences with the same start, end, captured
set and promotion are one move ("duplicate capture paths removed").

Rule flags (``int64[8]``, built by :meth:`tavli.engine.dama.rules.DamaRules.flags`):
``F_MEN_BACK`` men capture backwards, ``F_FLYING`` flying kings, ``F_MAN_TAKES_KING`` men
may capture kings, ``F_PROMO_CONT`` a man crowned during a capture goes on capturing as a
king, ``F_COMPULSORY`` capturing is compulsory, ``F_ITALIAN`` the Italian choice rules,
``F_HUFFING`` a declined capture lets the opponent huff.
"""

from __future__ import annotations

import numpy as np
from numba import njit

C_FROM, C_TO, C_CAPS, C_NCAP, C_KING, C_PROMO, C_NKINGS, C_FIRSTK = range(8)
C_HUFF, C_DECL, C_NPATH = 8, 9, 10
C_PATH = 11
C_CSEQ = 23
MW = 35
MAXM = 512
MAXPLY = 128

F_MEN_BACK, F_FLYING, F_MAN_TAKES_KING, F_PROMO_CONT = 0, 1, 2, 3
F_COMPULSORY, F_ITALIAN, F_HUFFING = 4, 5, 6

WHITE_PROMO = 0x0000000F
BLACK_PROMO = 0xF0000000

# directions: 0 up-left, 1 up-right (White's forward), 2 down-left, 3 down-right
DIRS = ((1, -1), (1, 1), (-1, -1), (-1, 1))


def square_coords(italian: bool) -> list[tuple[int, int]]:
    """``(rank, file)`` (0-based, White's view: rank 0 is White's back row, file 0 is
    the a-file) of each bit index 0..31."""
    out = []
    for i in range(32):
        r = i // 4
        rank = 7 - r
        c = i % 4
        if italian:
            file = 2 * c + (0 if r % 2 == 0 else 1)
        else:
            file = 2 * c + (1 if r % 2 == 0 else 0)
        out.append((rank, file))
    return out


def geometry(italian: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Neighbour table ``nb[32, 4]`` (-1 off board), rays ``ray[32, 4, 7]`` and ray
    lengths ``raylen[32, 4]`` for the board of one numbering."""
    coords = square_coords(italian)
    index = {rc: i for i, rc in enumerate(coords)}
    nb = -np.ones((32, 4), dtype=np.int64)
    ray = -np.ones((32, 4, 7), dtype=np.int64)
    raylen = np.zeros((32, 4), dtype=np.int64)
    for i, (rank, file) in enumerate(coords):
        for d, (dr, df) in enumerate(DIRS):
            k = 0
            r, f = rank + dr, file + df
            while (r, f) in index:
                ray[i, d, k] = index[(r, f)]
                k += 1
                r, f = r + dr, f + df
            raylen[i, d] = k
            if k:
                nb[i, d] = ray[i, d, 0]
    return nb, ray, raylen


@njit(cache=True, inline="always")
def copy_row(a, dst, src):
    """Row ``src`` of the 2-D array ``a`` into row ``dst``: a loop, where ``a[dst, :] =
    a[src, :]`` would compile NumPy's shape-mismatch message (string formatting, a
    second of a first run) for a mismatch that cannot happen."""
    for k in range(a.shape[1]):
        a[dst, k] = a[src, k]


@njit(cache=True, inline="always")
def _bit(x, i):
    return (x >> i) & 1


@njit(cache=True)
def _record(out, cnt, start, sq, caps, n, startking, promo, nkings, firstk, path, cseq):
    for j in range(cnt):
        if (out[j, C_FROM] == start and out[j, C_TO] == sq and out[j, C_CAPS] == caps
                and out[j, C_PROMO] == promo and out[j, C_HUFF] == -1):
            return cnt
    if cnt >= out.shape[0]:
        return cnt
    out[cnt, C_FROM] = start
    out[cnt, C_TO] = sq
    out[cnt, C_CAPS] = caps
    out[cnt, C_NCAP] = n
    out[cnt, C_KING] = startking
    out[cnt, C_PROMO] = promo
    out[cnt, C_NKINGS] = nkings
    out[cnt, C_FIRSTK] = firstk
    out[cnt, C_HUFF] = -1
    out[cnt, C_DECL] = 0
    out[cnt, C_NPATH] = n
    for j in range(12):
        out[cnt, C_PATH + j] = path[j] if j < n else -1
        out[cnt, C_CSEQ + j] = cseq[j] if j < n else -1
    return cnt + 1


@njit(cache=True)
def _has_capture(sq, isking, own, oppm, oppk, caps, nb, ray, raylen, R, fwd0, fwd1):
    """Can a piece standing on ``sq`` capture (given pieces already captured ``caps``)?"""
    opp = oppm | oppk
    occ = own | opp
    if isking and R[F_FLYING]:
        for d in range(4):
            L = raylen[sq, d]
            k = 0
            while k < L and not _bit(occ, ray[sq, d, k]):
                k += 1
            if k + 1 >= L:
                continue
            e = ray[sq, d, k]
            if not _bit(opp, e) or _bit(caps, e):
                continue
            if not _bit(occ, ray[sq, d, k + 1]):
                return True
        return False
    for d in range(4):
        if not isking and not R[F_MEN_BACK] and d != fwd0 and d != fwd1:
            continue
        e = nb[sq, d]
        if e < 0 or not _bit(opp, e) or _bit(caps, e):
            continue
        if not isking and not R[F_MAN_TAKES_KING] and _bit(oppk, e):
            continue
        lnd = nb[e, d]
        if lnd >= 0 and not _bit(occ, lnd):
            return True
    return False


S_SQ, S_KING, S_CAPS, S_N, S_NK, S_FK, S_PATH, S_CSEQ = 0, 1, 2, 3, 4, 5, 6, 18
SW = 30
STACK = 2048


def new_stack() -> np.ndarray:
    """Work space of the capture search: ``int64[STACK, SW]``."""
    return np.zeros((STACK, SW), dtype=np.int64)


@njit(cache=True)
def _push(stk, top, sq, isking, caps, n, nk, fk, parent):
    """Push a partial capture sequence (copying the parent's path and capture list)."""
    if top >= stk.shape[0] - 1:
        return top
    stk[top, S_SQ] = sq
    stk[top, S_KING] = isking
    stk[top, S_CAPS] = caps
    stk[top, S_N] = n
    stk[top, S_NK] = nk
    stk[top, S_FK] = fk
    for j in range(n - 1):
        stk[top, S_PATH + j] = parent[S_PATH + j]
        stk[top, S_CSEQ + j] = parent[S_CSEQ + j]
    return top + 1


@njit(cache=True)
def _captures_from(start, startking, own, oppm, oppk, nb, ray, raylen, R, fwd0, fwd1,
                   promomask, out, cnt, stk):
    """Every complete capture sequence of the piece on ``start`` (explicit stack: Numba
    cannot cache recursive functions)."""
    opp = oppm | oppk
    occ = own | opp
    one = np.int64(1)
    scratch = stk.shape[0] - 1
    stk[0, S_SQ] = start
    stk[0, S_KING] = startking
    stk[0, S_CAPS] = 0
    stk[0, S_N] = 0
    stk[0, S_NK] = 0
    stk[0, S_FK] = 99
    top = 1
    while top > 0:
        top -= 1
        copy_row(stk, scratch, top)
        node = stk[scratch]
        sq = node[S_SQ]
        isking = node[S_KING]
        caps = node[S_CAPS]
        n = node[S_N]
        nkings = node[S_NK]
        firstk = node[S_FK]
        found = False
        if isking and R[F_FLYING]:
            for d in range(4):
                L = raylen[sq, d]
                k = 0
                while k < L and not _bit(occ, ray[sq, d, k]):
                    k += 1
                if k >= L:
                    continue
                e = ray[sq, d, k]
                if not _bit(opp, e) or _bit(caps, e):
                    continue
                k += 1
                k0 = k
                while k < L and not _bit(occ, ray[sq, d, k]):
                    k += 1
                if k == k0:
                    continue
                found = True
                ncaps = caps | (one << e)
                ek = _bit(oppk, e)
                nk = nkings + ek
                fk = firstk
                if ek and firstk == 99:
                    fk = n
                anycont = False
                king = np.int64(1)  # not literals: the kernels compile once, not twice
                for j in range(k0, k):
                    if _has_capture(ray[sq, d, j], king, own, oppm, oppk, ncaps, nb, ray, raylen,
                                    R, fwd0, fwd1):
                        anycont = True
                        break
                for j in range(k0, k):
                    lnd = ray[sq, d, j]
                    if anycont and not _has_capture(lnd, king, own, oppm, oppk, ncaps, nb, ray,
                                                    raylen, R, fwd0, fwd1):
                        continue
                    t0 = top
                    top = _push(stk, top, lnd, np.int64(1), ncaps, n + 1, nk, fk, node)
                    if top > t0:
                        stk[t0, S_PATH + n] = lnd
                        stk[t0, S_CSEQ + n] = e
        else:
            for d in range(4):
                if not isking and not R[F_MEN_BACK] and d != fwd0 and d != fwd1:
                    continue
                e = nb[sq, d]
                if e < 0 or not _bit(opp, e) or _bit(caps, e):
                    continue
                ek = _bit(oppk, e)
                if not isking and not R[F_MAN_TAKES_KING] and ek:
                    continue
                lnd = nb[e, d]
                if lnd < 0 or _bit(occ, lnd):
                    continue
                found = True
                ncaps = caps | (one << e)
                nk = nkings + ek
                fk = firstk
                if ek and firstk == 99:
                    fk = n
                nking = isking
                if not isking and _bit(promomask, lnd):
                    if R[F_PROMO_CONT]:
                        nking = 1
                    else:
                        node[S_PATH + n] = lnd
                        node[S_CSEQ + n] = e
                        cnt = _record(out, cnt, start, lnd, ncaps, n + 1, startking, one, nk, fk,
                                      node[S_PATH:S_PATH + 12], node[S_CSEQ:S_CSEQ + 12])
                        continue
                t0 = top
                top = _push(stk, top, lnd, nking, ncaps, n + 1, nk, fk, node)
                if top > t0:
                    stk[t0, S_PATH + n] = lnd
                    stk[t0, S_CSEQ + n] = e
        if not found and n > 0:
            promo = 1 if (isking and not startking) else 0
            cnt = _record(out, cnt, start, sq, caps, n, startking, promo, nkings, firstk,
                          node[S_PATH:S_PATH + 12], node[S_CSEQ:S_CSEQ + 12])
    return cnt


@njit(cache=True)
def _italian_filter(out, cnt):
    """Keep the captures the Italian rules allow: most pieces, then with a king, then most
    kings, then the king met earliest."""
    best = 0
    for i in range(cnt):
        if out[i, C_NCAP] > best:
            best = out[i, C_NCAP]
    anyking = False
    for i in range(cnt):
        if out[i, C_NCAP] == best and out[i, C_KING]:
            anyking = True
    bk = 0
    for i in range(cnt):
        if out[i, C_NCAP] == best and (out[i, C_KING] or not anyking):
            if out[i, C_NKINGS] > bk:
                bk = out[i, C_NKINGS]
    bf = 99
    for i in range(cnt):
        if (out[i, C_NCAP] == best and (out[i, C_KING] or not anyking)
                and out[i, C_NKINGS] == bk and out[i, C_FIRSTK] < bf):
            bf = out[i, C_FIRSTK]
    m = 0
    for i in range(cnt):
        if (out[i, C_NCAP] == best and (out[i, C_KING] or not anyking)
                and out[i, C_NKINGS] == bk and out[i, C_FIRSTK] == bf):
            if m != i:
                copy_row(out, m, i)
            m += 1
    return m


@njit(cache=True)
def _quiet(out, cnt, own_m, own_k, occ, nb, ray, raylen, R, fwd0, fwd1, promomask):
    for sq in range(32):
        if _bit(own_m, sq):
            for d in (fwd0, fwd1):
                t = nb[sq, d]
                if t >= 0 and not _bit(occ, t) and cnt < out.shape[0]:
                    out[cnt, :] = -1
                    out[cnt, C_FROM] = sq
                    out[cnt, C_TO] = t
                    out[cnt, C_CAPS] = 0
                    out[cnt, C_NCAP] = 0
                    out[cnt, C_KING] = 0
                    out[cnt, C_PROMO] = 1 if _bit(promomask, t) else 0
                    out[cnt, C_NKINGS] = 0
                    out[cnt, C_FIRSTK] = 99
                    out[cnt, C_DECL] = 0
                    out[cnt, C_NPATH] = 0
                    cnt += 1
        elif _bit(own_k, sq):
            for d in range(4):
                L = raylen[sq, d] if R[F_FLYING] else min(1, raylen[sq, d])
                for k in range(L):
                    t = ray[sq, d, k]
                    if _bit(occ, t) or cnt >= out.shape[0]:
                        break
                    out[cnt, :] = -1
                    out[cnt, C_FROM] = sq
                    out[cnt, C_TO] = t
                    out[cnt, C_CAPS] = 0
                    out[cnt, C_NCAP] = 0
                    out[cnt, C_KING] = 1
                    out[cnt, C_PROMO] = 0
                    out[cnt, C_NKINGS] = 0
                    out[cnt, C_FIRSTK] = 99
                    out[cnt, C_DECL] = 0
                    out[cnt, C_NPATH] = 0
                    cnt += 1
    return cnt


@njit(cache=True)
def gen_moves(wm, wk, bm, bk, stm, out, stk, nb, ray, raylen, R):
    """Write the legal moves of the side to move into ``out``; return how many
    (0: that side has lost). Huffing is not applied here (see :func:`gen_actions`)."""
    if stm == 0:
        own_m, own_k, oppm, oppk = wm, wk, bm, bk
        fwd0, fwd1, promomask = 0, 1, np.int64(WHITE_PROMO)
    else:
        own_m, own_k, oppm, oppk = bm, bk, wm, wk
        fwd0, fwd1, promomask = 2, 3, np.int64(BLACK_PROMO)
    own = own_m | own_k
    occ = own | oppm | oppk
    one = np.int64(1)
    cnt = np.int64(0)  # not the constant 0: that compiled each callee once more
    for sq in range(32):
        if _bit(own, sq):
            isk = _bit(own_k, sq)
            if _has_capture(sq, isk, own, oppm, oppk, np.int64(0), nb, ray, raylen, R,
                            fwd0, fwd1):
                cnt = _captures_from(sq, isk, own & ~(one << sq), oppm, oppk, nb, ray, raylen,
                                     R, fwd0, fwd1, promomask, out, cnt, stk)
    if cnt > 0:
        if R[F_ITALIAN]:
            cnt = _italian_filter(out, cnt)
        if R[F_COMPULSORY]:
            return cnt
        decl = np.int64(0)
        for i in range(cnt):
            decl |= one << out[i, C_FROM]
        c0 = cnt
        cnt = _quiet(out, cnt, own_m, own_k, occ, nb, ray, raylen, R, fwd0, fwd1, promomask)
        if R[F_HUFFING]:
            for i in range(c0, cnt):
                out[i, C_DECL] = decl
        return cnt
    return _quiet(out, np.int64(0), own_m, own_k, occ, nb, ray, raylen, R, fwd0, fwd1,
                  promomask)


@njit(cache=True)
def gen_actions(wm, wk, bm, bk, stm, huff, out, stk, nb, ray, raylen, R):
    """Like :func:`gen_moves`, with the huffing choices in front: when ``huff`` is set,
    the moves for "no huff" and then, for each piece the side to move may remove, the
    moves after removing it (column ``C_HUFF``)."""
    cnt = gen_moves(wm, wk, bm, bk, stm, out, stk, nb, ray, raylen, R)
    if huff == 0:
        return cnt
    one = np.int64(1)
    for h in range(32):
        if not _bit(huff, h):
            continue
        b = ~(one << h)
        if stm == 0:
            sub = out[cnt:]
            c = gen_moves(wm, wk, bm & b, bk & b, stm, sub, stk, nb, ray, raylen, R)
        else:
            sub = out[cnt:]
            c = gen_moves(wm & b, wk & b, bm, bk, stm, sub, stk, nb, ray, raylen, R)
        for i in range(cnt, cnt + c):
            out[i, C_HUFF] = h
        cnt += c
    return cnt


@njit(cache=True)
def make_move(wm, wk, bm, bk, stm, mv):
    """The position after move row ``mv``: ``(wm, wk, bm, bk, stm, huff)``."""
    one = np.int64(1)
    h = mv[C_HUFF]
    if h >= 0:
        b = ~(one << h)
        if stm == 0:
            bm &= b
            bk &= b
        else:
            wm &= b
            wk &= b
    f = mv[C_FROM]
    t = mv[C_TO]
    caps = mv[C_CAPS]
    king = mv[C_KING] or mv[C_PROMO]
    if stm == 0:
        wm &= ~(one << f)
        wk &= ~(one << f)
        if king:
            wk |= one << t
        else:
            wm |= one << t
        bm &= ~caps
        bk &= ~caps
    else:
        bm &= ~(one << f)
        bk &= ~(one << f)
        if king:
            bk |= one << t
        else:
            bm |= one << t
        wm &= ~caps
        wk &= ~caps
    nh = mv[C_DECL]
    if nh > 0 and _bit(nh, f):
        nh = (nh & ~(one << f)) | (one << t)
    if nh < 0:
        nh = 0
    return wm, wk, bm, bk, 1 - stm, nh


@njit(cache=True)
def _perft(wm, wk, bm, bk, stm, huff, depth, buf, stk, nb, ray, raylen, R):
    """Leaf count ``depth`` plies deep (explicit stack; bulk counting at the last ply)."""
    pos = np.zeros((depth + 1, 6), dtype=np.int64)
    cnt = np.zeros(depth + 1, dtype=np.int64)
    idx = np.zeros(depth + 1, dtype=np.int64)
    pos[0, 0], pos[0, 1], pos[0, 2], pos[0, 3], pos[0, 4], pos[0, 5] = wm, wk, bm, bk, stm, huff
    cnt[0] = gen_actions(wm, wk, bm, bk, stm, huff, buf[0], stk, nb, ray, raylen, R)
    if depth == 1:
        return cnt[0]
    total = 0
    ply = 0
    idx[0] = 0
    while ply >= 0:
        if idx[ply] >= cnt[ply]:
            ply -= 1
            continue
        p = pos[ply]
        a, b, c, d, s, h = make_move(p[0], p[1], p[2], p[3], p[4], buf[ply, idx[ply]])
        idx[ply] += 1
        n = gen_actions(a, b, c, d, s, h, buf[ply + 1], stk, nb, ray, raylen, R)
        if ply + 2 == depth:
            total += n
            continue
        ply += 1
        pos[ply, 0], pos[ply, 1], pos[ply, 2], pos[ply, 3], pos[ply, 4], pos[ply, 5] = (
            a, b, c, d, s, h)
        cnt[ply] = n
        idx[ply] = 0
    return total


def new_buffer(plies: int = 16) -> np.ndarray:
    """A move buffer ``int64[plies + 1, MAXM, MW]`` for :func:`perft_kernel`."""
    return np.zeros((plies + 1, MAXM, MW), dtype=np.int64)


def perft_kernel(wm, wk, bm, bk, stm, huff, depth, geo, R, buf=None) -> int:
    """Leaf count of the move tree ``depth`` plies deep (distinct moves per node)."""
    if depth <= 0:
        return 1
    if buf is None or buf.shape[0] < depth + 1:
        buf = new_buffer(depth)
    nb, ray, raylen = geo
    return int(_perft(np.int64(wm), np.int64(wk), np.int64(bm), np.int64(bk), np.int64(stm),
                      np.int64(huff), np.int64(depth), buf, new_stack(), nb, ray, raylen, R))
