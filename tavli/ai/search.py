"""Lookahead over the dice: 0-, 1- and 2-ply evaluation of moves, compiled.

``V0(p)``: the network's outputs for the side to move in ``p``. ``V1(p)``: the average,
over the 21 rolls (weighted 1/36 and 2/36), of the outputs after the side to move plays
its best move by 0-ply. ``V2(p)``: per roll, the reply chosen by 0-ply is valued by
1-ply (``REPLY_KEEP`` replies per roll; gnubg's inner nodes also choose by 0-ply).
A move is valued by the outputs of its after-position seen from the mover's side.

All outputs are the five probabilities of :mod:`tavli.ai.net`, from the mover's view.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games.kernel import F_BACKGAMMONS, F_KERNEL
from ..movegen import Workspace, generate
from .encode import encode
from .net import N_OUT, flip, forward, money_equity
from .selfplay import terminal

ROLLS = np.array([(a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)],
                 dtype=np.int64)
REPLY_KEEP = 1  # replies per roll valued at 1-ply inside a 2-ply evaluation


@njit(cache=True)
def v0(W1, b1, W2, b2, b, side, family, x, h, out):
    """Outputs of the net for ``side`` to move in flat board ``b``."""
    encode(b, side, family, x)
    forward(W1, b1, W2, b2, x, W1.shape[0], h, out)


@njit(cache=True)
def _after_value(W1, b1, W2, b2, b, mover, flags, x, h, tmp, out):
    """0-ply outputs of an after-position ``b`` from ``mover``'s view; returns the equity
    used to choose (a won game beats any estimate)."""
    pts = terminal(b, mover, flags, out)
    if not np.isnan(pts):
        return 1000.0 + pts
    v0(W1, b1, W2, b2, b, 1 - mover, flags[F_KERNEL], x, h, tmp)
    flip(tmp, out)
    return money_equity(out, flags[F_BACKGAMMONS] != 0)


@njit(cache=True)
def v1(W1, b1, W2, b2, st, side, flags, buf, table, x, h, tmp, cand, best, acc):
    """1-ply outputs for ``side`` to move in the board array ``st`` (into ``acc``)."""
    family = flags[F_KERNEL]
    outp = table.shape[0] - buf.shape[0]
    for k in range(N_OUT):
        acc[k] = 0.0
    for r in range(ROLLS.shape[0]):
        n = generate(st, side, ROLLS[r, 0], ROLLS[r, 1], flags, buf, table)
        if n <= 0:
            v0(W1, b1, W2, b2, st.reshape(104), 1 - side, family, x, h, tmp)
            flip(tmp, best)
        else:
            be = -1e18
            for j in range(n):
                e = _after_value(W1, b1, W2, b2, buf[table[outp + j]], side, flags, x, h, tmp,
                                 cand)
                if e > be:
                    be = e
                    for k in range(N_OUT):
                        best[k] = cand[k]
        w = ROLLS[r, 2] / 36.0
        for k in range(N_OUT):
            acc[k] += w * best[k]


@njit(cache=True)
def v2(W1, b1, W2, b2, st, side, flags, buf, table, buf2, table2, x, h, tmp, cand, best, acc,
       acc1, st2, scores, idx):
    """2-ply outputs for ``side`` to move in ``st``: per roll, the best ``REPLY_KEEP``
    replies by 0-ply are re-valued by 1-ply (``v1``) and the best of those is played."""
    count_bg = flags[F_BACKGAMMONS] != 0
    outp = table.shape[0] - buf.shape[0]
    opp = 1 - side
    for k in range(N_OUT):
        acc[k] = 0.0
    sf2 = st2.reshape(104)
    for r in range(ROLLS.shape[0]):
        n = generate(st, side, ROLLS[r, 0], ROLLS[r, 1], flags, buf, table)
        if n <= 0:
            st2[:, :] = st
            v1(W1, b1, W2, b2, st2, opp, flags, buf2, table2, x, h, tmp, cand, best, acc1)
            flip(acc1, best)
        else:
            for j in range(n):
                scores[j] = _after_value(W1, b1, W2, b2, buf[table[outp + j]], side, flags, x,
                                         h, tmp, cand)
            order = np.argsort(-scores[:n])
            be = -1e18
            for jj in range(min(REPLY_KEEP, n)):
                i = table[outp + order[jj]]
                for k in range(104):
                    sf2[k] = buf[i, k]
                pts = terminal(sf2, side, flags, cand)
                if np.isnan(pts):
                    v1(W1, b1, W2, b2, st2, opp, flags, buf2, table2, x, h, tmp, cand, idx,
                       acc1)
                    flip(acc1, cand)
                    e = money_equity(cand, count_bg)
                else:
                    e = 1000.0 + pts
                if e > be:
                    be = e
                    for k in range(N_OUT):
                        best[k] = cand[k]
        w = ROLLS[r, 2] / 36.0
        for k in range(N_OUT):
            acc[k] += w * best[k]


@njit(cache=True)
def eval_moves(W1, b1, W2, b2, boards, mover, ply, flags, buf, table, buf2, table2, out):
    """Outputs (mover's view) of after-positions ``boards`` (int8[N, 104]) at ``ply``."""
    family = flags[F_KERNEL]
    x = np.zeros(W1.shape[0], dtype=np.float32)
    h = np.zeros(b1.shape[0], dtype=np.float32)
    tmp = np.zeros(N_OUT, dtype=np.float32)
    cand = np.zeros(N_OUT, dtype=np.float32)
    best = np.zeros(N_OUT, dtype=np.float32)
    acc = np.zeros(N_OUT, dtype=np.float32)
    acc1 = np.zeros(N_OUT, dtype=np.float32)
    idx = np.zeros(N_OUT, dtype=np.float32)
    st = np.zeros((4, 26), dtype=np.int8)
    st2 = np.zeros((4, 26), dtype=np.int8)
    scores = np.zeros(buf.shape[0], dtype=np.float64)
    sf = st.reshape(104)
    opp = 1 - mover
    for k in range(boards.shape[0]):
        pts = terminal(boards[k], mover, flags, cand)
        if not np.isnan(pts) or ply == 0:
            if np.isnan(pts):
                v0(W1, b1, W2, b2, boards[k], opp, family, x, h, tmp)
                flip(tmp, cand)
        else:
            for q in range(104):
                sf[q] = boards[k, q]
            if ply == 1:
                v1(W1, b1, W2, b2, st, opp, flags, buf, table, x, h, tmp, cand, best, acc)
            else:
                v2(W1, b1, W2, b2, st, opp, flags, buf, table, buf2, table2, x, h, tmp, cand,
                   best, acc, acc1, st2, scores, idx)
            flip(acc, cand)
        for q in range(N_OUT):
            out[k, q] = cand[q]


class Searcher:
    """Values moves with a network at a given ply (holds the work buffers)."""

    def __init__(self, net, rules) -> None:
        self.net = net
        self.rules = rules
        self.flags = rules.kernel_flags()
        self.ws1 = Workspace(8192, 16384)
        self.ws2 = Workspace(8192, 16384)

    def outputs(self, after_arrays: np.ndarray, mover: int, ply: int) -> np.ndarray:
        """Outputs (mover's view) for after-position arrays ``(N, 4, 26)``."""
        boards = np.ascontiguousarray(after_arrays, dtype=np.int8).reshape(-1, 104)
        out = np.zeros((len(boards), N_OUT), dtype=np.float32)
        n = self.net
        eval_moves(n.W1, n.b1, n.W2, n.b2, boards, mover, ply, self.flags, self.ws1.buf,
                   self.ws1.table, self.ws2.buf, self.ws2.table, out)
        return out
