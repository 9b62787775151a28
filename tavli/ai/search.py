"""Lookahead over the dice: 0-, 1- and 2-ply evaluation of moves, compiled.

``V0(p)``: the network's outputs for the side to move in ``p``. ``V1(p)``: the average,
over the 21 rolls (weighted 1/36 and 2/36), of the outputs after the side to move plays
its best move by 0-ply. ``V2(p)``: per roll, the reply chosen by 0-ply is valued by
1-ply (``REPLY_KEEP`` replies per roll; gnubg's inner nodes also choose by 0-ply).
A move is valued by the outputs of its after-position seen from the mover's side.

Moves are chosen (at every node) by an equity of those outputs: money equity, or at a match
score the normalised match equity of :mod:`tavli.play.cube.scoring`, ``2w - 1 + gw·wg + bw·wb -
gl·lg - bl·lb`` with the weights ``gv`` (float64[2, 4], a row per side: ``gw, bw, gl, bl``)
that make it rank moves by match winning chances. The kernels that take ``gv`` end in
``_w``; the others (kept for training, rollouts and labels) play money (every weight 1).

All outputs are the five probabilities of :mod:`tavli.ai.net`, from the mover's view.
Kernels take the evaluator as one value (``net``: :data:`~tavli.ai.evaluator.Tables`),
so each position is valued by the valuer of its class (contact, race, bear-off).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tavli.ai.evaluator import evaluate
from tavli.ai.fastplay import terminal
from tavli.ai.net import LOSE_BG, LOSE_G, N_OUT, WIN, WIN_BG, WIN_G, flip, money_equity
from tavli.engine.games.kernel import F_BACKGAMMONS, F_KERNEL
from tavli.engine.movegen import as_readonly, generate

ROLLS = np.array([(a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)],
                 dtype=np.int64)
REPLY_KEEP = 1  # replies per roll valued at 1-ply inside a 2-ply evaluation
#: money play's weights (``gw, bw, gl, bl`` = 1 for both sides)
MONEY_WEIGHTS = np.ones((2, 4))


@njit(cache=True, inline="always")  # one compiled level less (docs/design.md)
def v0(net, b, side, family, x, h, out):
    """Outputs of the evaluator ``net`` (:data:`~tavli.ai.evaluator.Tables`) for ``side``
    to move in flat board ``b`` (into ``out``; ``x``, ``h``: work arrays for the inputs
    and the hidden layer)."""
    evaluate(net, b, side, family, x, h, out)


@njit(cache=True, inline="always")  # one compiled level less (docs/design.md)
def _after_value(net, b, mover, flags, x, h, tmp, out):
    """0-ply outputs of an after-position ``b`` from ``mover``'s view (into ``out``);
    returns the equity used to choose (a won game beats any estimate)."""
    pts = terminal(b, mover, flags, out)
    if not np.isnan(pts):
        return 1000.0 + pts
    v0(net, b, 1 - mover, flags[F_KERNEL], x, h, tmp)
    flip(tmp, out)
    return money_equity(out, flags[F_BACKGAMMONS] != 0)


@njit(cache=True)
def score_equity(y, w, count_bg):
    """The equity of outputs ``y`` (for the side they belong to) with the weights ``w``
    (``gw, bw, gl, bl``; all 1: money equity)."""
    e = 2.0 * y[WIN] - 1.0 + w[0] * y[WIN_G] - w[2] * y[LOSE_G]
    if count_bg:
        e += w[1] * y[WIN_BG] - w[3] * y[LOSE_BG]
    return e


@njit(cache=True, inline="always")  # one compiled level less (docs/design.md)
def _after_value_w(net, b, mover, flags, gv, x, h, tmp, out):
    """:func:`_after_value` with the weights ``gv`` (a game's end valued by them too)."""
    count_bg = flags[F_BACKGAMMONS] != 0
    pts = terminal(b, mover, flags, out)
    if not np.isnan(pts):
        return 1000.0 + score_equity(out, gv[mover], count_bg)
    v0(net, b, 1 - mover, flags[F_KERNEL], x, h, tmp)
    flip(tmp, out)
    return score_equity(out, gv[mover], count_bg)


@njit(cache=True)
def v1(net, st, side, flags, s, inner, out):
    """1-ply outputs for ``side`` to move in the board array ``st`` (into ``out``). With
    ``inner`` (a search inside a search) it works in the second move buffers of ``s``.
    Money play (:func:`v1_w` with every weight 1)."""
    v1_w(net, st, side, flags, np.ones((2, 4)), s, inner, out)


@njit(cache=True, inline="always")  # one compiled level less (docs/design.md)
def v1_w(net, st, side, flags, gv, s, inner, out):
    """:func:`v1`, moves chosen with the weights ``gv``. (Typed into each caller: ``inner``
    is a constant there, and a function called with a constant compiles once per value.)"""
    family = flags[F_KERNEL]
    x, h, tmp, cand = s.x, s.h, s.tmp, s.cand
    if inner:
        buf, table, best = s.buf2, s.table2, s.best2
    else:
        buf, table, best = s.buf, s.table, s.best
    outp = table.shape[0] - buf.shape[0]
    for k in range(N_OUT):
        out[k] = 0.0
    for r in range(ROLLS.shape[0]):
        n = generate(as_readonly(st), side, ROLLS[r, 0], ROLLS[r, 1], flags, buf, table)
        if n <= 0:
            v0(net, st.reshape(104), 1 - side, family, x, h, tmp)
            flip(tmp, best)
        else:
            be = -1e18
            for j in range(n):
                e = _after_value_w(net, buf[table[outp + j]], side, flags, gv, x, h, tmp,
                                   cand)
                be = _keep_best(e, be, cand, best)
        _add_roll(out, r, best)


@njit(cache=True, inline="always")
def _keep_best(e, be, cand, best):
    """Keep ``cand`` in ``best`` when its value ``e`` beats the best so far ``be``; returns
    the best value."""
    if e > be:
        for k in range(N_OUT):
            best[k] = cand[k]
        return e
    return be


@njit(cache=True, inline="always")
def _take_best(scores, n):
    """The index of the highest of ``scores[:n]`` (the first of equals), then marked taken:
    a 2-ply node's replies best first without sorting them all (``np.argsort``'s
    quicksort cost the first run 0.7 s of compiling)."""
    i = 0
    for j in range(1, n):
        if scores[j] > scores[i]:
            i = j
    scores[i] = -np.inf
    return i


@njit(cache=True, inline="always")
def _add_roll(out, r, best):
    """Add roll ``r``'s outputs ``best``, weighted by its chance (1/36 or 2/36)."""
    w = ROLLS[r, 2] / 36.0
    for k in range(N_OUT):
        out[k] += w * best[k]


@njit(cache=True)
def v2(net, st, side, flags, s, out):
    """2-ply outputs for ``side`` to move in ``st`` (into ``out``): per roll, the best
    ``REPLY_KEEP`` replies by 0-ply are re-valued by 1-ply (``v1``) and the best of those
    is played. Money play (:func:`v2_w` with every weight 1)."""
    v2_w(net, st, side, flags, np.ones((2, 4)), s, out)


@njit(cache=True, inline="always")  # one compiled level less (docs/design.md)
def v2_w(net, st, side, flags, gv, s, out):
    """:func:`v2`, moves chosen with the weights ``gv``."""
    count_bg = flags[F_BACKGAMMONS] != 0
    x, h, tmp, cand, best, acc2 = s.x, s.h, s.tmp, s.cand, s.best, s.acc2
    buf, table, scores, st2 = s.buf, s.table, s.scores, s.st2
    outp = table.shape[0] - buf.shape[0]
    opp = 1 - side
    for k in range(N_OUT):
        out[k] = 0.0
    sf2 = st2.reshape(104)
    for r in range(ROLLS.shape[0]):
        n = generate(as_readonly(st), side, ROLLS[r, 0], ROLLS[r, 1], flags, buf, table)
        for j in range(n):
            scores[j] = _after_value_w(net, buf[table[outp + j]], side, flags, gv, x, h, tmp,
                                       cand)
        be = -1e18
        # the replies kept, or (no move) the position itself, the opponent to roll: one
        # loop, so that the 1-ply search below is typed in once (docs/design.md)
        for _ in range(min(REPLY_KEEP, n) if n > 0 else 1):
            if n > 0:
                i = table[outp + _take_best(scores, n)]
                for k in range(104):
                    sf2[k] = buf[i, k]
                pts = terminal(sf2, side, flags, cand)
            else:
                for k in range(104):  # not st2[:, :] = st: see dama.movegen.copy_row
                    sf2[k] = st[k // 26, k % 26]
                pts = np.nan
            if np.isnan(pts):
                v1_w(net, st2, opp, flags, gv, s, True, acc2)
                flip(acc2, cand)
                e = score_equity(cand, gv[side], count_bg)
            else:
                e = 1000.0 + score_equity(cand, gv[side], count_bg)
            be = _keep_best(e, be, cand, best)
        _add_roll(out, r, best)


@njit(cache=True, inline="always")
def _searched(net, boards, k, mover, ply, flags, s):
    """Board ``k``'s outputs (mover's view) into ``s.cand`` when it needs no search (a
    game's end, or 0-ply) and False; else True, with the board in ``s.st``."""
    pts = terminal(boards[k], mover, flags, s.cand)
    if not np.isnan(pts):
        return False
    if ply == 0:
        v0(net, boards[k], 1 - mover, flags[F_KERNEL], s.x, s.h, s.tmp)
        flip(s.tmp, s.cand)
        return False
    sf = s.st.reshape(104)
    for q in range(104):
        sf[q] = boards[k, q]
    return True


@njit(cache=True)
def eval_moves(net, boards, mover, ply, flags, gv, s, out):
    """Outputs (mover's view) of after-positions ``boards`` (int8[N, 104]) at ``ply`` 0
    or 1, the sides choosing their moves in the search with the weights ``gv``, with the
    work arrays ``s`` (:data:`~tavli.ai.net.Scratch`). 2-ply: :func:`eval_moves_2` (apart,
    so that a first 1-ply hint does not compile the 2-ply search)."""
    for k in range(boards.shape[0]):
        if _searched(net, boards, k, mover, ply, flags, s):
            v1_w(net, s.st, 1 - mover, flags, gv, s, False, s.acc)
            flip(s.acc, s.cand)
        for q in range(N_OUT):
            out[k, q] = s.cand[q]


@njit(cache=True)
def eval_moves_2(net, boards, mover, flags, gv, s, out):
    """:func:`eval_moves` at 2-ply."""
    for k in range(boards.shape[0]):
        if _searched(net, boards, k, mover, 2, flags, s):
            v2_w(net, s.st, 1 - mover, flags, gv, s, s.acc)
            flip(s.acc, s.cand)
        for q in range(N_OUT):
            out[k, q] = s.cand[q]


SEARCH_STATES = 8192  # move-generator records of a search (two sets: one per level)


class Searcher:
    """Values moves with an :class:`~tavli.ai.evaluator.Evaluator` (or a network, with the
    bear-off databases) at a given ply (holds the work arrays)."""

    def __init__(self, evaluator, rules) -> None:
        from tavli.ai.evaluator import as_evaluator

        self.evaluator = as_evaluator(evaluator, rules.game)
        self.rules = rules
        self.flags = rules.kernel_flags()
        self.scratch = self.evaluator.scratch(SEARCH_STATES, 2 * SEARCH_STATES)

    def outputs(self, after_arrays: np.ndarray, mover: int, ply: int,
                weights: np.ndarray | None = None) -> np.ndarray:
        """Outputs (mover's view) for after-position arrays ``(N, 4, 26)``; ``weights``:
        the sides' equity weights in the search (float64[2, 4], see the module; default
        money play)."""
        boards = np.ascontiguousarray(after_arrays, dtype=np.int8).reshape(-1, 104)
        if not boards.flags.writeable:  # a position's own array: one compiled type only
            boards = boards.copy()
        out = np.zeros((len(boards), N_OUT), dtype=np.float32)
        gv = MONEY_WEIGHTS if weights is None else np.ascontiguousarray(weights,
                                                                        dtype=np.float64)
        if gv.shape != (2, 4):
            raise ValueError("weights must be float64[2, 4]")
        if ply == 2:
            eval_moves_2(self.evaluator.tables, boards, mover, self.flags, gv, self.scratch,
                         out)
        else:
            eval_moves(self.evaluator.tables, boards, mover, ply, self.flags, gv,
                       self.scratch, out)
        return out
