"""The compiled search behind the turn tree of the page (:func:`tavli.web.steps.turn_tree`):
every order of single checker steps that reaches the position of a legal move, found in
one Numba call (``cache=True``) instead of a Python recursion with a compiled call per
step.

:func:`search` walks the orders depth first as the tree's definition says (the sources
from the highest point down, for each the distinct dice left from the smallest up; a
*node* is the multiset of the steps played so far, a search state a node with the dice
left; a state is searched once) and returns the good nodes (those from which a legal
move's position is still reached) sorted as the tree lists them, each with its board
(the first found), the dice left (the larger ones when a node can leave different
dice), the legal move it completes, and its steps on (in the order first found).

Encodings: a step ``from/to`` is ``from * 32 + to``; a node is its steps' codes, highest
first, 10 bits each from bit 30 down (``0`` is the root); the dice left are 3 bits each
from bit 9 down, highest first.

>>> from tavli.engine.board import Position
>>> pos = Position.start("portes")
>>> legal = pos.legal_moves((3, 1))
>>> n, nodes, boards, edges = search(pos, [3, 1], legal)
>>> key, steps, left, move, first, end = nodes[1].tolist()
>>> n, key_steps(key, steps), dice_left(left, 2 - steps), edges[first:end].tolist()
(27, [(24, 23)], [3], [[24, 21, 8], [23, 20, 9], [13, 10, 10], [8, 5, 11], [6, 3, 12]])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from tavli.engine.layout import NSLOTS
from tavli.engine.movegen import OK, REC, apply_step_rec, step_code_rec

if TYPE_CHECKING:
    from tavli.engine.board import Move, Position

BOARD = 4 * NSLOTS  # the bytes of a board array
MAX_DEPTH = 4
FIRST_BITS = 11  # log2 of the first try's hash table (it grows on overflow)
MAX_BITS = 24
_M61 = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _argsort_distinct(keys):
    """The indices that sort ``keys`` (distinct int64 values), by a heap sort: the same
    order as ``np.argsort``, whose quicksort would cost the first run a second of
    compiling (docs/design.md)."""
    n = keys.shape[0]
    idx = np.arange(n)
    for start in range(n // 2 - 1, -1, -1):
        _sift(keys, idx, start, n)
    for end in range(n - 1, 0, -1):
        idx[0], idx[end] = idx[end], idx[0]
        _sift(keys, idx, 0, end)
    return idx


@njit(cache=True, inline="always")
def _sift(keys, idx, root, end):
    """Move ``idx[root]`` down the max-heap ``idx[:end]`` (ordered by ``keys``)."""
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        if child + 1 < end and keys[idx[child + 1]] > keys[idx[child]]:
            child += 1
        if keys[idx[root]] >= keys[idx[child]]:
            return
        idx[root], idx[child] = idx[child], idx[root]
        root = child


@njit(cache=True, inline="always")
def _mix(x):
    """A hash of the int64 ``x`` (its high bits are used)."""
    return np.uint64(x) * _M61 ^ (np.uint64(x) >> np.uint64(29)) * np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True)
def _board_hash(b, i):
    h = np.uint64(1469598103934665603)
    for k in range(BOARD):
        h = (h ^ np.uint64(np.uint8(b[i, k]))) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _probe(table, keys, key, bits):
    """The slot of ``key`` in the open-addressed ``table`` (entries: index + 1 into
    ``keys``; 0 empty): where it is, or the empty slot where it goes."""
    mask = (1 << bits) - 1
    pos = np.int64(_mix(key) >> np.uint64(64 - bits))
    while True:
        e = table[pos]
        if e == 0 or keys[e - 1] == key:
            return pos
        pos = (pos + 1) & mask


@njit(cache=True)
def _probe_board(ftable, fhash, finals, board, row, h, fbits):
    """The slot of the board ``board[row]`` (hash ``h``) in ``ftable``, the open-addressed
    table of the boards ``finals`` (entries: index + 1; 0 empty; ``fhash`` their hashes):
    where an equal board is, or the empty slot where it goes."""
    fmask = (1 << fbits) - 1
    pos = np.int64(h >> np.uint64(64 - fbits))
    while True:
        e = ftable[pos]
        if e == 0:
            return pos
        j = e - 1
        if fhash[j] == h:
            same = True
            for k in range(BOARD):
                if finals[j, k] != board[row, k]:
                    same = False
                    break
            if same:
                return pos
        pos = (pos + 1) & fmask


@njit(cache=True)
def _pack_key(codes, n):
    key = np.int64(0)
    for j in range(n):
        key |= np.int64(codes[j]) << (30 - 10 * j)
    return key


@njit(cache=True)
def _child_key(key, n, code):
    """The node ``key`` (``n`` steps) with the step ``code`` added, highest first."""
    codes = np.zeros(MAX_DEPTH, dtype=np.int64)
    for j in range(n):
        codes[j] = (key >> (30 - 10 * j)) & 1023
    j = n
    while j > 0 and codes[j - 1] < code:
        codes[j] = codes[j - 1]
        j -= 1
    codes[j] = code
    return _pack_key(codes, n + 1)


@njit(cache=True)
def _node(key, nkeys, node_key, table, bits, node_has, node_rem, node_move):
    """The index of node ``key`` (made if new, with no board, dice left or move yet; -1
    when the table is full)."""
    slot = _probe(table, node_key, key, bits)
    if table[slot] != 0:
        return table[slot] - 1
    n = nkeys[0]
    if 2 * (n + 1) > table.shape[0]:
        return -1
    node_key[n] = key
    node_has[n] = False
    node_rem[n] = -1
    node_move[n] = -1
    table[slot] = n + 1
    nkeys[0] = n + 1
    return n


@njit(cache=True)
def _full():
    """What :func:`_search` returns when its tables overflowed."""
    return -1, np.empty((0, 6), dtype=np.int64), np.empty((0, BOARD), dtype=np.int8), \
        np.empty((0, 3), dtype=np.int64)


@njit(cache=True)
def _search(st, me, dice, length, kernel, finals, bits):
    """The good nodes of the turn of ``me`` in ``st`` with ``dice`` (highest first) whose
    legal moves, of ``length`` steps, end on the boards ``finals`` (int8[n, 104]); hash
    tables of ``1 << bits`` slots. ``(count, keys, lengths, boards, dice left, move or -1,
    first edge, edges [from, to, node])`` in the tree's order; count -1 when the tables
    overflowed (search again with more bits)."""
    size = 1 << bits
    cap = size // 2
    # the legal moves' positions, the first of equal ones
    nfin = finals.shape[0]
    fbits = 4
    while (1 << fbits) < 2 * nfin:
        fbits += 1
    ftable = np.zeros(1 << fbits, dtype=np.int64)
    fhash = np.zeros(nfin, dtype=np.uint64)
    for i in range(nfin):
        h = _board_hash(finals, i)
        fhash[i] = h
        pos = _probe_board(ftable, fhash, finals, finals, i, h, fbits)
        if ftable[pos] == 0:
            ftable[pos] = i + 1
    # the search states seen (node << 12 | dice left) and whether they were good
    mtable = np.zeros(size, dtype=np.int32)
    mkeys = np.empty(cap, dtype=np.int64)
    mgood = np.empty(cap, dtype=np.bool_)
    nmemo = 0
    # the good nodes
    ntable = np.zeros(size, dtype=np.int32)
    node_key = np.empty(cap, dtype=np.int64)
    node_board = np.empty((cap, BOARD), dtype=np.int8)
    node_has = np.empty(cap, dtype=np.bool_)
    node_rem = np.empty(cap, dtype=np.int64)
    node_move = np.empty(cap, dtype=np.int64)
    node_len = np.empty(cap, dtype=np.int64)
    nkeys = np.zeros(1, dtype=np.int64)
    # the steps from good nodes to good nodes, in the order found
    ecap = 8 * cap
    ev_parent = np.empty(ecap, dtype=np.int64)
    ev_code = np.empty(ecap, dtype=np.int64)
    ev_child = np.empty(ecap, dtype=np.int64)
    nev = 0
    # the stack: one level per step played
    depth = MAX_DEPTH + 1
    buf = np.zeros((depth, REC), dtype=np.int8)
    key = np.zeros(depth, dtype=np.int64)
    rem = np.zeros((depth, MAX_DEPTH), dtype=np.int64)
    nrem = np.zeros(depth, dtype=np.int64)
    srcs = np.zeros((depth, 25), dtype=np.int64)
    nsrc = np.zeros(depth, dtype=np.int64)
    dist = np.zeros((depth, MAX_DEPTH), dtype=np.int64)
    ndist = np.zeros(depth, dtype=np.int64)
    si = np.zeros(depth, dtype=np.int64)
    di = np.zeros(depth, dtype=np.int64)
    good = np.zeros(depth, dtype=np.bool_)
    stepc = np.zeros(depth, dtype=np.int64)
    for r in range(4):
        for c in range(NSLOTS):
            buf[0, r * NSLOTS + c] = st[r, c]
    for j in range(dice.shape[0]):
        rem[0, j] = dice[j]
    nrem[0] = dice.shape[0]
    m = me * NSLOTS
    level = np.int64(0)  # not a literal: the kernels it is passed to compile once
    enter = True
    result = False
    while True:
        ret = False
        if enter:
            enter = False
            packed = np.int64(0)
            for j in range(nrem[level]):
                packed |= rem[level, j] << (9 - 3 * j)
            mk = key[level] << 12 | packed
            slot = _probe(mtable, mkeys, mk, bits)
            if mtable[slot] != 0:
                result = mgood[mtable[slot] - 1]
                ret = True
            else:
                good[level] = False
                if level == length:
                    h = _board_hash(buf, level)
                    pos = _probe_board(ftable, fhash, finals, buf, level, h, fbits)
                    found = ftable[pos] - 1
                    if found >= 0:
                        nd = _node(key[level], nkeys, node_key, ntable, bits, node_has, node_rem,
                           node_move)
                        if nd < 0:
                            return _full()
                        node_move[nd] = found
                        good[level] = True
                else:
                    ns = 0
                    for s in range(25, 0, -1):
                        if buf[level, m + s] != 0:
                            srcs[level, ns] = s
                            ns += 1
                    nsrc[level] = ns
                    nd = 0
                    for j in range(nrem[level] - 1, -1, -1):  # smallest first
                        d = rem[level, j]
                        if nd == 0 or dist[level, nd - 1] != d:
                            dist[level, nd] = d
                            nd += 1
                    ndist[level] = nd
                    si[level] = 0
                    di[level] = 0
        if not ret:
            # the next step from this level that the rules allow
            moved = False
            if level < length:
                while si[level] < nsrc[level]:
                    s = srcs[level, si[level]]
                    d = dist[level, di[level]]
                    di[level] += 1
                    if di[level] == ndist[level]:
                        di[level] = 0
                        si[level] += 1
                    if step_code_rec(buf, level, me, s, d, kernel) != OK:
                        continue
                    for k in range(REC):
                        buf[level + 1, k] = buf[level, k]
                    apply_step_rec(buf, level + 1, me, s, d, kernel)
                    code = s * 32 + max(s - d, 0)
                    stepc[level] = code
                    key[level + 1] = _child_key(key[level], level, code)
                    n = 0
                    dropped = False
                    for j in range(nrem[level]):
                        if not dropped and rem[level, j] == d:
                            dropped = True
                            continue
                        rem[level + 1, n] = rem[level, j]
                        n += 1
                    nrem[level + 1] = n
                    moved = True
                    break
            if moved:
                level += 1
                enter = True
                continue
            # every step tried: the state is done
            packed = np.int64(0)
            for j in range(nrem[level]):
                packed |= rem[level, j] << (9 - 3 * j)
            if good[level]:
                nd = _node(key[level], nkeys, node_key, ntable, bits, node_has, node_rem,
                           node_move)
                if nd < 0:
                    return _full()
                node_len[nd] = level
                if not node_has[nd]:
                    node_has[nd] = True
                    for k in range(BOARD):
                        node_board[nd, k] = buf[level, k]
                if packed > node_rem[nd]:
                    node_rem[nd] = packed
            if nmemo + 1 > cap:
                return _full()
            mk = key[level] << 12 | packed
            slot = _probe(mtable, mkeys, mk, bits)
            mkeys[nmemo] = mk
            mgood[nmemo] = good[level]
            nmemo += 1
            mtable[slot] = nmemo
            result = good[level]
        # back to the parent with ``result``
        if level == 0:
            break
        level -= 1
        if result:
            if nev == ecap:
                return _full()
            parent = _node(key[level], nkeys, node_key, ntable, bits, node_has, node_rem,
                           node_move)
            child = _node(key[level + 1], nkeys, node_key, ntable, bits, node_has, node_rem,
                          node_move)
            if parent < 0 or child < 0:
                return _full()
            ev_parent[nev] = parent
            ev_code[nev] = stepc[level]
            ev_child[nev] = child
            nev += 1
            good[level] = True
    # the tree's order: fewer steps first, then the steps from the highest
    nn = nkeys[0]
    if not good[0]:
        nn = 0
    order_key = np.zeros(nn, dtype=np.int64)
    for i in range(nn):
        order_key[i] = (node_len[i] << 41) | ((np.int64(1) << 40) - 1 - node_key[i])
    order = _argsort_distinct(order_key)
    rank = np.zeros(nn, dtype=np.int64)
    for r in range(nn):
        rank[order[r]] = r
    # the edges grouped by parent, in the order found, each step once
    count = np.zeros(nn + 1, dtype=np.int64)
    for e in range(nev):
        count[ev_parent[e] + 1] += 1
    for i in range(nn):
        count[i + 1] += count[i]
    fill = count[:nn].copy()
    grouped = np.zeros(nev, dtype=np.int64)
    for e in range(nev):
        grouped[fill[ev_parent[e]]] = e
        fill[ev_parent[e]] += 1
    meta = np.empty((nn, 6), dtype=np.int64)
    out_board = np.empty((nn, BOARD), dtype=np.int8)
    out_edges = np.empty((nev, 3), dtype=np.int64)
    ne = 0
    for r in range(nn):
        i = order[r]
        meta[r, 0] = node_key[i]
        meta[r, 1] = node_len[i]
        meta[r, 2] = node_rem[i]
        meta[r, 3] = node_move[i]
        meta[r, 4] = ne
        for k in range(BOARD):
            out_board[r, k] = node_board[i, k]
        first = ne
        for g in range(count[i], count[i + 1]):
            e = grouped[g]
            code = ev_code[e]
            seen = False
            for x in range(first, ne):
                if out_edges[x, 0] * 32 + out_edges[x, 1] == code:
                    seen = True
                    break
            if not seen:
                out_edges[ne, 0] = code >> 5
                out_edges[ne, 1] = code & 31
                out_edges[ne, 2] = rank[ev_child[e]]
                ne += 1
        meta[r, 5] = ne
    return nn, meta, out_board, out_edges[:ne].copy()


def search(pos: Position, dice: Sequence[int], legal: Sequence[Move]) -> tuple:
    """The good nodes of the turn of ``pos``'s side to move with ``dice`` (the dice of the
    turn, highest first: a double four times) and its legal moves ``legal`` (not empty):
    ``(count, nodes, boards, edges)`` in the tree's order: ``nodes[i]`` is node ``i``'s
    ``[key, number of steps, dice left, legal move or -1, first edge, end of its edges]``
    (see the module docstring for the encodings), ``boards[i]`` its board array
    (flattened), ``edges[j]`` a step ``[from, to, node]``; count 0 when no step order
    reaches a legal move."""
    finals = np.frombuffer(bytearray(b"".join(m.after.array.tobytes() for m in legal)),
                           dtype=np.int8).reshape(len(legal), BOARD)
    st = np.ascontiguousarray(pos.array, dtype=np.int8)
    arr = np.array(dice, dtype=np.int64)
    length = len(legal[0].steps)  # every legal move plays as many dice
    kernel = pos.variant.kernel
    bits = FIRST_BITS
    while True:
        out = _search(st, pos.turn, arr, length, kernel, finals, bits)
        if out[0] >= 0:
            return out
        if bits >= MAX_BITS:
            raise RuntimeError("the turn tree's search overflowed")
        bits += 2


def key_steps(key: int, n: int) -> list[tuple[int, int]]:
    """The steps ``(from, to)`` of the node ``key`` of ``n`` steps, highest first."""
    codes = [(key >> (30 - 10 * j)) & 1023 for j in range(n)]
    return [(c >> 5, c & 31) for c in codes]


def dice_left(rem: int, n: int) -> list[int]:
    """The ``n`` dice of the packed dice left ``rem``, highest first."""
    return [(rem >> (9 - 3 * j)) & 7 for j in range(n)]


__all__ = ["search", "key_steps", "dice_left"]
