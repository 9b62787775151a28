"""The Dama AI: iterative-deepening alpha-beta with a transposition table, quiescence
over captures and a hand-made evaluation, compiled with Numba (``cache=True``).

* **Search** (:func:`_search`): negamax alpha-beta on an explicit stack (Numba cannot
  cache recursive functions), a transposition table (2^20 entries, depth-preferred with
  aging), the previous iteration's best move and capture size / history heuristic for
  move order, repetition of a position on the search path or in the game scored as a
  draw. At depth 0 the quiescence search goes on while the side to move has a capture
  (captures are compulsory, so there is no stand-pat then); a position with no capture
  is evaluated.
* **Huffing** (box rules): a position where the side to move may huff is searched with
  every huff choice (and "no huff") combined with every move.
* **Evaluation** (:func:`evaluate`), from the side to move, in 1/100 of a man: material
  (man 100, king 300, Italian king 250), advancement of men, men kept on the back row
  while the opponent has no king, centre squares, mobility (free squares in front of
  men, squares a king can reach), and a bonus for trading when ahead.
* **Levels** (:data:`LEVELS`): ``1`` depth 2, ``2`` depth 4, ``3`` depth 6, ``4`` depth 8,
  ``default`` 0.5 s a move, ``full`` 1 s a move; or ``depth:N`` (N from 1 to
  :data:`MAX_DEPTH`, 20) / ``time:S`` (S seconds, more than 0, at most :data:`MAX_SECONDS`,
  600).
  The Python driver runs one compiled search per depth and stops when the next one
  would not fit the time (a node budget aborts a search that runs over).

:class:`MinimaxPlayer` is the yardstick of the issue: plain depth-N minimax (no pruning,
no quiescence) with a material-only evaluation, ties broken at random.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from tavli.engine.dama import movegen as mg
from tavli.engine.dama.board import Position, _move_from_row, _with_text, shown
from tavli.engine.dama.rules import DamaRules
from tavli.engine.dama.sets import DEFAULT_RULE_SET
from tavli.errors import GameOver, RuleError

INF = 1_000_000
MATE = 100_000
MAXPLY = 96
TT_BITS = 20

# evaluation weights
W_MAN, W_KING, W_ADV, W_BACK, W_CENTRE, W_KMOB, W_MMOB, W_TRADE, W_PROMO_PATH = range(9)
NW = 10

# search options
O_TT, O_QS, O_PRUNE = 0, 1, 2


def weights(rules: DamaRules, material_only: bool = False) -> np.ndarray:
    w = np.zeros(NW, dtype=np.int64)
    w[W_MAN] = 100
    w[W_KING] = rules.king_value
    if material_only:
        return w
    w[W_ADV] = 3
    w[W_BACK] = 8
    w[W_CENTRE] = 6
    w[W_KMOB] = 2 if rules.flying_kings else 4
    w[W_MMOB] = 2
    w[W_TRADE] = 120
    w[W_PROMO_PATH] = 12
    return w


def tables(rules: DamaRules) -> np.ndarray:
    """Per-square tables ``int64[3, 32]``: White's rank 0..7, centre flag, file."""
    t = np.zeros((3, 32), dtype=np.int64)
    for i, (rank, file) in enumerate(mg.square_coords(rules.italian_board)):
        t[0, i] = rank
        t[1, i] = 1 if (2 <= rank <= 5 and 2 <= file <= 5) else 0
        t[2, i] = file
    return t


_RNG = np.random.default_rng(0xDA4A)
ZOB = _RNG.integers(1, 2**62, size=(5, 32), dtype=np.int64)
ZSIDE = np.int64(_RNG.integers(1, 2**62))


@njit(cache=True)
def zhash(wm, wk, bm, bk, stm, huff, Z, zside):
    h = np.int64(0)
    for i in range(32):
        b = np.int64(1) << i
        if wm & b:
            h ^= Z[0, i]
        elif wk & b:
            h ^= Z[1, i]
        elif bm & b:
            h ^= Z[2, i]
        elif bk & b:
            h ^= Z[3, i]
        if huff & b:
            h ^= Z[4, i]
    if stm:
        h ^= zside
    return h


@njit(cache=True)
def evaluate(wm, wk, bm, bk, stm, W, T, nb, ray, raylen, R):
    """Static score for the side to move (1/100 man)."""
    occ = wm | wk | bm | bk
    nwm = 0
    nwk = 0
    nbm = 0
    nbk = 0
    s = 0
    for i in range(32):
        b = np.int64(1) << i
        if not occ & b:
            continue
        rank = T[0, i]
        if wm & b:
            nwm += 1
            s += W[W_ADV] * rank * rank // 4 + W[W_CENTRE] * T[1, i]
            for d in (0, 1):
                t = nb[i, d]
                if t >= 0 and not (occ >> t) & 1:
                    s += W[W_MMOB]
            if rank >= 5:
                s += W[W_PROMO_PATH] * (rank - 4)
        elif bm & b:
            nbm += 1
            r = 7 - rank
            s -= W[W_ADV] * r * r // 4 + W[W_CENTRE] * T[1, i]
            for d in (2, 3):
                t = nb[i, d]
                if t >= 0 and not (occ >> t) & 1:
                    s -= W[W_MMOB]
            if r >= 5:
                s -= W[W_PROMO_PATH] * (r - 4)
        else:
            mob = 0
            for d in range(4):
                L = raylen[i, d] if R[mg.F_FLYING] else min(1, raylen[i, d])
                for k in range(L):
                    if (occ >> ray[i, d, k]) & 1:
                        break
                    mob += 1
            if wk & b:
                nwk += 1
                s += W[W_KMOB] * mob
            else:
                nbk += 1
                s -= W[W_KMOB] * mob
    if nbk == 0:
        for i in range(28, 32):
            if (wm >> i) & 1:
                s += W[W_BACK]
    if nwk == 0:
        for i in range(0, 4):
            if (bm >> i) & 1:
                s -= W[W_BACK]
    mw = nwm * W[W_MAN] + nwk * W[W_KING]
    mb = nbm * W[W_MAN] + nbk * W[W_KING]
    s += mw - mb
    tot = nwm + nwk + nbm + nbk
    if W[W_TRADE] and tot > 0 and mw != mb:
        # ahead: fewer pieces left is better
        s += (mw - mb) * W[W_TRADE] // (tot * 100 + 200)
    return s if stm == 0 else -s


@njit(cache=True)
def _mkey(row):
    return (row[mg.C_FROM] | (row[mg.C_TO] << 5) | ((row[mg.C_HUFF] + 1) << 10)
            | (row[mg.C_CAPS] << 16))


@njit(cache=True)
def _search(root, depth, alpha0, beta0, node_limit, OPT, W, T, buf, stk, nb, ray, raylen, R,
            Z, zside, ttk, ttv, ttd, ttf, ttm, hist, ghist, nghist, rootsc, out):
    """One alpha-beta search ``depth`` plies deep from ``root`` (int64[6]).
    ``out`` receives ``[score, best index, nodes, aborted, root move count]``."""
    P = np.zeros((MAXPLY + 1, 6), dtype=np.int64)
    H = np.zeros(MAXPLY + 1, dtype=np.int64)
    D = np.zeros(MAXPLY + 1, dtype=np.int64)
    A = np.zeros(MAXPLY + 1, dtype=np.int64)
    B = np.zeros(MAXPLY + 1, dtype=np.int64)
    A0 = np.zeros(MAXPLY + 1, dtype=np.int64)
    BEST = np.zeros(MAXPLY + 1, dtype=np.int64)
    BESTI = np.zeros(MAXPLY + 1, dtype=np.int64)
    N = np.zeros(MAXPLY + 1, dtype=np.int64)
    IDX = np.zeros(MAXPLY + 1, dtype=np.int64)
    CUR = np.zeros(MAXPLY + 1, dtype=np.int64)
    SC = np.zeros((MAXPLY + 1, buf.shape[1]), dtype=np.int64)
    ORD = np.zeros((MAXPLY + 1, buf.shape[1]), dtype=np.int64)
    mask = ttk.shape[0] - 1
    use_tt = OPT[O_TT]
    use_qs = OPT[O_QS]
    prune = OPT[O_PRUNE]
    nodes = 0
    aborted = False
    for j in range(6):
        P[0, j] = root[j]
    D[0] = depth
    A[0] = alpha0
    B[0] = beta0
    ply = 0
    mode = 0  # 0 enter, 1 next child, 2 return
    val = 0
    while True:
        if mode == 0:
            nodes += 1
            if nodes > node_limit:
                aborted = True
                break
            p = P[ply]
            H[ply] = zhash(p[0], p[1], p[2], p[3], p[4], p[5], Z, zside)
            A0[ply] = A[ply]
            if ply > 0 and prune:
                rep = False
                q = ply - 2
                while q >= 0:
                    if H[q] == H[ply]:
                        rep = True
                        break
                    q -= 2
                if not rep:
                    for g in range(nghist):
                        if ghist[g] == H[ply]:
                            rep = True
                            break
                if rep:
                    val = 0
                    mode = 2
                    continue
            if ply >= MAXPLY - 1:
                val = evaluate(p[0], p[1], p[2], p[3], p[4], W, T, nb, ray, raylen, R)
                mode = 2
                continue
            qs = D[ply] <= 0
            if qs and p[5] != 0 and use_qs:
                D[ply] = 1
                qs = False
            if qs and not use_qs:
                val = evaluate(p[0], p[1], p[2], p[3], p[4], W, T, nb, ray, raylen, R)
                mode = 2
                continue
            ttmove = np.int64(-1)
            slot = H[ply] & mask
            if use_tt and not qs and ttk[slot] == H[ply]:
                ttmove = ttm[slot]
                if ply > 0 and ttd[slot] >= D[ply]:
                    v = ttv[slot]
                    if v > MATE - 1000:
                        v -= ply
                    elif v < -MATE + 1000:
                        v += ply
                    f = ttf[slot]
                    if f == 0 or (f == 1 and v >= B[ply]) or (f == 2 and v <= A[ply]):
                        val = v
                        mode = 2
                        continue
            out_ = buf[ply]
            n = mg.gen_actions(p[0], p[1], p[2], p[3], p[4], p[5], out_, stk, nb, ray, raylen,
                               R)
            if n == 0:
                val = -(MATE - ply)
                mode = 2
                continue
            if qs:
                m = 0
                for i in range(n):
                    if out_[i, mg.C_NCAP] > 0:
                        if m != i:
                            mg.copy_row(out_, m, i)
                        m += 1
                if m == 0:
                    val = evaluate(p[0], p[1], p[2], p[3], p[4], W, T, nb, ray, raylen, R)
                    mode = 2
                    continue
                n = m
            for i in range(n):
                row = out_[i]
                s = hist[p[4], row[mg.C_FROM], row[mg.C_TO]]
                if row[mg.C_NCAP] > 0:
                    s += 1_000_000 + 1000 * row[mg.C_NCAP] + 100 * row[mg.C_NKINGS]
                if row[mg.C_PROMO]:
                    s += 500_000
                if row[mg.C_HUFF] >= 0:
                    s += 2_000_000
                if ttmove >= 0 and _mkey(row) == ttmove:
                    s += 100_000_000
                SC[ply, i] = s
                ORD[ply, i] = i
            N[ply] = n
            IDX[ply] = 0
            BEST[ply] = -INF
            BESTI[ply] = 0
            mode = 1
        elif mode == 1:
            if IDX[ply] >= N[ply]:
                # node done
                val = BEST[ply]
                if use_tt and D[ply] > 0:
                    slot = H[ply] & mask
                    v = val
                    if v > MATE - 1000:
                        v += ply
                    elif v < -MATE + 1000:
                        v -= ply
                    ttk[slot] = H[ply]
                    ttv[slot] = v
                    ttd[slot] = D[ply]
                    if val <= A0[ply]:
                        ttf[slot] = 2
                    elif val >= B[ply]:
                        ttf[slot] = 1
                    else:
                        ttf[slot] = 0
                    ttm[slot] = _mkey(buf[ply, BESTI[ply]])
                mode = 2
                continue
            # pick the best remaining move
            k = IDX[ply]
            bi = k
            bs = SC[ply, k]
            for i in range(k + 1, N[ply]):
                if SC[ply, i] > bs:
                    bs = SC[ply, i]
                    bi = i
            if bi != k:
                SC[ply, bi] = SC[ply, k]
                SC[ply, k] = bs
                o = ORD[ply, bi]
                ORD[ply, bi] = ORD[ply, k]
                ORD[ply, k] = o
            IDX[ply] = k + 1
            r = ORD[ply, k]
            CUR[ply] = r
            p = P[ply]
            a, b_, c, d, s_, h = mg.make_move(p[0], p[1], p[2], p[3], p[4], buf[ply, r])
            P[ply + 1, 0] = a
            P[ply + 1, 1] = b_
            P[ply + 1, 2] = c
            P[ply + 1, 3] = d
            P[ply + 1, 4] = s_
            P[ply + 1, 5] = h
            D[ply + 1] = D[ply] - 1
            if prune:
                A[ply + 1] = -B[ply]
                B[ply + 1] = -A[ply]
            else:
                A[ply + 1] = -INF
                B[ply + 1] = INF
            ply += 1
            mode = 0
        else:
            if ply == 0:
                break
            ply -= 1
            score = -val
            i = CUR[ply]
            if ply == 0:
                rootsc[i] = score
            if score > BEST[ply]:
                BEST[ply] = score
                BESTI[ply] = i
                if score > A[ply]:
                    A[ply] = score
            if prune and A[ply] >= B[ply]:
                row = buf[ply, i]
                if row[mg.C_NCAP] == 0:
                    hist[P[ply, 4], row[mg.C_FROM], row[mg.C_TO]] += D[ply] * D[ply]
                IDX[ply] = N[ply]
            mode = 1
    out[0] = val
    out[1] = BESTI[0]
    out[2] = nodes
    out[3] = 1 if aborted else 0
    out[4] = N[0]
    return out


# ----------------------------------------------------------------------------------------
# Python driver


LEVELS: dict[str, tuple[int, float | None]] = {
    "1": (2, None), "2": (4, None), "3": (6, None), "4": (8, None),
    "default": (64, 0.5), "full": (64, 1.0),
}


#: the dice games' level names (``tavli play --opponent expert``, the browser's dialog) as
#: Dama's levels
LEVEL_ALIASES = {"beginner": "1", "casual": "2", "intermediate": "3", "advanced": "4",
                 "expert": "default", "worldclass": "full"}


def dama_level(level: str | None) -> str:
    """Dama's level for a level name of the dice games (``expert`` is ``default``) or of
    its own (``1``-``4``, ``default``, ``full``, ``depth:N``, ``time:S``; None: ``default``).

    >>> dama_level("Beginner"), dama_level("depth:6"), dama_level(None)
    ('1', 'depth:6', 'default')
    """
    text = "default" if level is None else str(level).strip().lower()
    return LEVEL_ALIASES.get(text, text)


MAX_DEPTH = 20  # depth:N; a fixed-depth search grows ~8x per 2 plies (depth 12: seconds)
MAX_SECONDS = 600.0  # time:S
LEVEL_HELP = (f"1-4, default, full, depth:N with N from 1 to {MAX_DEPTH}, or time:S with S "
              f"seconds, more than 0 and at most {MAX_SECONDS:g}")


def parse_level(level: str | int | None) -> tuple[int, float | None]:
    """``(max depth, seconds or None)`` for a level name, ``depth:N`` (``1 <= N <=``
    :data:`MAX_DEPTH`) or ``time:S`` (``0 < S <=`` :data:`MAX_SECONDS`; at least 0.01 s
    is used). Anything else raises :class:`~tavli.errors.RuleError`.

    >>> parse_level("depth:7"), parse_level("time:2.5")
    ((7, None), (64, 2.5))
    >>> parse_level("time:inf")
    Traceback (most recent call last):
    ...
    tavli.errors.RuleError: Dama AI level 'time:inf': the time must be more than 0 and at most 600 seconds
    """  # noqa: E501
    if level is None:
        level = "default"
    text = str(level).strip().lower()
    if text in LEVELS:
        return LEVELS[text]
    kind, colon, value = text.partition(":")
    value = value.strip()
    if colon and kind == "depth" and value.isascii() and value.isdigit():
        depth = int(value) if len(value) <= 6 else 0
        if 1 <= depth <= MAX_DEPTH:
            return depth, None
        raise RuleError(f"Dama AI level {shown(text)}: the depth must be from 1 to "
                        f"{MAX_DEPTH}")
    if colon and kind == "time" and value.isascii() and len(value) <= 30:
        try:
            seconds = float(value)
        except ValueError:
            seconds = None
        if seconds is not None:
            if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
                raise RuleError(f"Dama AI level {shown(text)}: the time must be more than 0 "
                                f"and at most {MAX_SECONDS:g} seconds")
            return 64, max(0.01, seconds)
    raise RuleError(f"unknown Dama AI level {shown(text)} ({LEVEL_HELP})")


@dataclass
class SearchResult:
    move: object  # DamaMove
    score: int
    depth: int
    nodes: int
    seconds: float
    scores: list[tuple[object, int]]


class Searcher:
    """Holds the transposition table and buffers; :meth:`search` picks a move."""

    def __init__(self, rules: DamaRules | str = DEFAULT_RULE_SET, tt_bits: int = TT_BITS,
                 material_only: bool = False, plain: bool = False) -> None:
        self.rules = DamaRules.for_name(rules)
        size = 1 << tt_bits
        self.ttk = np.zeros(size, dtype=np.int64)
        self.ttv = np.zeros(size, dtype=np.int64)
        self.ttd = np.full(size, -1, dtype=np.int64)
        self.ttf = np.zeros(size, dtype=np.int64)
        self.ttm = np.full(size, -1, dtype=np.int64)
        self.hist = np.zeros((2, 32, 32), dtype=np.int64)
        self.buf = np.zeros((MAXPLY + 1, mg.MAXM, mg.MW), dtype=np.int64)
        self.stk = mg.new_stack()
        self.W = weights(self.rules, material_only)
        self.T = tables(self.rules)
        self.opt = np.array([0, 0, 0] if plain else [1, 1, 1], dtype=np.int64)
        self.rootsc = np.zeros(mg.MAXM * 4, dtype=np.int64)
        self.out = np.zeros(5, dtype=np.int64)
        self.nps = 1_000_000.0

    def clear(self) -> None:
        self.ttk[:] = 0
        self.ttd[:] = -1
        self.hist[:] = 0

    def _run(self, pos: Position, depth: int, limit: int, ghist: np.ndarray):
        nb, ray, raylen = self.rules.geometry
        root = np.array([pos.wm, pos.wk, pos.bm, pos.bk, pos.turn, pos.huff], dtype=np.int64)
        _search(root, np.int64(depth), np.int64(-INF), np.int64(INF), np.int64(limit),
                self.opt, self.W, self.T, self.buf, self.stk, nb, ray, raylen,
                self.rules.flags, ZOB, ZSIDE, self.ttk, self.ttv, self.ttd, self.ttf,
                self.ttm, self.hist, ghist, np.int64(len(ghist)), self.rootsc, self.out)
        return [int(x) for x in self.out]

    def search(self, pos: Position, level: str | int | None = "default",
               history: list[Position] | None = None,
               budget: float | None = None) -> SearchResult:
        """The best move for ``pos`` (which must have a legal move). ``budget``: at most
        about that many seconds whatever the level (a fixed-depth level then stops at
        the deepest search that fits, like a timed one)."""
        pos = pos.with_rules(self.rules) if pos.rules != self.rules else pos
        if pos.is_game_over():
            raise GameOver("no legal move: the side to move has lost")
        max_depth, seconds = parse_level(level)
        if budget is not None:
            seconds = budget if seconds is None else min(seconds, budget)
        ghist = np.array([zhash_pos(q) for q in (history or []) if q.turn == pos.turn
                          and q != pos], dtype=np.int64)
        t0 = time.perf_counter()
        self.hist //= 4
        best = None
        nodes = 0
        first = max_depth if self.opt[O_PRUNE] == 0 else 1
        for depth in range(first, max_depth + 1):
            if seconds is None:
                limit = 1 << 60
            else:
                left = seconds - (time.perf_counter() - t0)
                if depth > 1 and left < 0.55 * seconds:
                    break
                limit = max(2000, int(0.7 * left * self.nps))
            t = time.perf_counter()
            score, bi, n, aborted, nroot = self._run(pos, depth, limit, ghist)
            dt = time.perf_counter() - t
            nodes += n
            if dt > 0.02:
                self.nps = min(n / dt, 0.5 * self.nps + 0.5 * n / dt)
            if aborted and best is not None:
                break
            row = self.buf[0, bi].copy()
            scores = [(self.buf[0, i].copy(), int(self.rootsc[i])) for i in range(nroot)]
            best = (row, score, depth, scores)
            if aborted or abs(score) > MATE - 1000 or nroot == 1 and depth >= 2:
                break
        row, score, depth, scores = best
        legal = _with_text([_move_from_row(r) for r, _ in scores], self.rules)
        mv = _with_text([_move_from_row(row)], self.rules)[0]
        by_key = {m.key(): m for m in legal}
        mv = by_key.get(mv.key(), mv)
        return SearchResult(mv, score, depth, nodes, time.perf_counter() - t0,
                            [(by_key.get(_move_from_row(r).key()), s) for r, s in scores])


def zhash_pos(p: Position) -> int:
    return int(zhash(np.int64(p.wm), np.int64(p.wk), np.int64(p.bm), np.int64(p.bk),
                     np.int64(p.turn), np.int64(p.huff), ZOB, ZSIDE))


def static_eval(pos: Position, material_only: bool = False) -> int:
    nb, ray, raylen = pos.rules.geometry
    return int(evaluate(np.int64(pos.wm), np.int64(pos.wk), np.int64(pos.bm),
                        np.int64(pos.bk), np.int64(pos.turn),
                        weights(pos.rules, material_only), tables(pos.rules), nb, ray, raylen,
                        pos.rules.flags))


# ----------------------------------------------------------------------------------------
# players


class AIPlayer:
    """The AI at a level; :meth:`choose` returns the move to play (with ``huff`` set when
    it huffs first)."""

    def __init__(self, rules=DEFAULT_RULE_SET, level: str | int | None = "default",
                 budget: float | None = None) -> None:
        self.rules = DamaRules.for_name(rules)
        parse_level(level)  # a bad level is an error now, not at the first move
        self.level = level
        self.budget = budget
        self.searcher = Searcher(self.rules)
        self.last: SearchResult | None = None

    def choose(self, pos: Position, history: list[Position] | None = None):
        self.last = self.searcher.search(pos, self.level, history, self.budget)
        return self.last.move


class MinimaxPlayer:
    """Plain minimax to a fixed depth with a material-only evaluation (man 100, king
    :attr:`~tavli.engine.dama.rules.DamaRules.king_value`), no pruning, no quiescence; a win
    scores higher the sooner it comes; ties between the best moves broken at random."""

    def __init__(self, rules=DEFAULT_RULE_SET, depth: int = 4, seed: int | None = None) -> None:
        self.rules = DamaRules.for_name(rules)
        if not (isinstance(depth, int) and 1 <= depth <= MAX_DEPTH):
            raise RuleError(f"the minimax player's depth must be from 1 to {MAX_DEPTH}, "
                            f"got {depth!r}")
        self.depth = depth
        self.searcher = Searcher(self.rules, tt_bits=4, material_only=True, plain=True)
        self.rng = np.random.default_rng(seed)

    def choose(self, pos: Position, history: list[Position] | None = None):
        r = self.searcher.search(pos, f"depth:{self.depth}")
        best = max(s for _, s in r.scores)
        ties = [m for m, s in r.scores if s == best]
        return ties[int(self.rng.integers(len(ties)))]


# ----------------------------------------------------------------------------------------
# matches


def play_game(rules, white, black, opening: list | None = None, max_plies: int = 400):
    """Play one game between two players (objects with ``choose(position, history)``),
    after the opening moves ``opening`` (texts). Returns the finished
    :class:`~tavli.play.dama.game.DamaGame` (a game still running after ``max_plies`` is
    scored drawn by agreement)."""
    from tavli.play.dama.game import DamaGame

    g = DamaGame(rules)
    for m in opening or []:
        if g.is_over():
            break
        g.play(m)
    players = (white, black)
    while not g.is_over():
        if len(g.record) >= max_plies:
            g.agree_draw()
            break
        mv = players[g.turn].choose(g.position, g._positions)
        if mv.huff is not None:
            g.huff(mv.huff)
        g.play(mv if mv.huff is None else type(mv)(mv.start, mv.end, mv.path, mv.captures,
                                                  mv.king, mv.promotes))
    return g


def random_opening(rules, plies: int, rng) -> list[str]:
    """``plies`` random legal moves from the start (texts)."""
    p = Position.start(rules)
    out = []
    for _ in range(plies):
        ms = p.moves_without_huff()
        if not ms:
            break
        m = ms[int(rng.integers(len(ms)))]
        out.append(str(m))
        p = p.play(m)
        if p.huff:
            p = p.null_huff()
    return out


def match(rules=DEFAULT_RULE_SET, games: int = 100, level: str = "full", opponent_depth: int = 4,
          seed: int = 1, opening_plies: tuple[int, int] = (2, 4), verbose: bool = False,
          ) -> dict:
    """The AI at ``level`` against :class:`MinimaxPlayer` (depth ``opponent_depth``):
    ``games`` games, colours alternating, each random opening (``opening_plies`` random
    moves from the start) played once with each colour. Returns the counts."""
    r = DamaRules.for_name(rules)
    rng = np.random.default_rng(seed)
    ai = AIPlayer(r, level)
    mm = MinimaxPlayer(r, opponent_depth, seed=seed)
    res = {"rules": r.option_text, "games": 0, "ai_wins": 0, "ai_losses": 0, "draws": 0,
           "plies": 0, "ai_seconds": 0.0, "ai_moves": 0, "ai_max_seconds": 0.0}
    opening: list[str] = []

    class Timed:
        def choose(self, pos, history=None):
            t = time.perf_counter()
            mv = ai.choose(pos, history)
            dt = time.perf_counter() - t
            res["ai_seconds"] += dt
            res["ai_moves"] += 1
            res["ai_max_seconds"] = max(res["ai_max_seconds"], dt)
            return mv

    timed = Timed()
    for i in range(games):
        if i % 2 == 0:
            lo, hi = opening_plies
            opening = random_opening(r, int(rng.integers(lo, hi + 1)), rng)
            ai.searcher.clear()
        ai_white = i % 2 == 0
        g = play_game(r, timed if ai_white else mm, mm if ai_white else timed, opening)
        w = g.winner()
        res["games"] += 1
        res["plies"] += len(g.record)
        if w is None:
            res["draws"] += 1
        elif (w == 0) == ai_white:
            res["ai_wins"] += 1
        else:
            res["ai_losses"] += 1
        if verbose:
            print(f"game {i + 1}: AI {'White' if ai_white else 'Black'}, "
                  f"opening {' '.join(opening)}, {g.result} ({g.end_reason()}), "
                  f"{len(g.record)} plies", flush=True)
    decided = res["ai_wins"] + res["ai_losses"]
    res["win_rate_decided"] = res["ai_wins"] / decided if decided else None
    res["mean_ai_seconds"] = res["ai_seconds"] / max(1, res["ai_moves"])
    return res
