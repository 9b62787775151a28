"""The compiled trials of a rollout: whole games played out from one position.

:func:`play_trials` plays trials ``first .. first + n - 1`` of a rollout from a position
(the side ``side`` to move, before its roll) with the evaluator's moves (0-ply, or 1-ply
over the best 0-ply candidates) until the game ends, or for ``truncate`` turns and then
the evaluator's 0-ply value of the position reached. Each trial's dice depend only on the
rollout's seed and the trial's number (:func:`trial_seed`), so trials can be played in any
order, in any process, with the same results.

Variance reduction:

* stratified first rolls: trial ``t`` opens with roll ``t mod 36`` (of the 36 ordered
  rolls) and, with ``strat2``, answers with roll ``(t div 36) mod 36``, so a run of 36
  (1296) trials throws each first roll (pair of first rolls) exactly once;
* luck (as gnubg's variance reduction): on every turn the luck of the roll thrown, the
  0-ply outputs of its best move minus their mean over the 21 rolls (both from the
  mover's view), is added up from the root side's view; ``outcome - luck`` has the same
  mean as the outcome and, the dice's noise taken out, a smaller variance.

Per trial, ``res[t]`` gets the outcome's five outputs (root side's view: 0/1 for a game
played out, the evaluator's probabilities for a truncated one), the luck summed (five
outputs) and the turns played.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from tavli.ai.fastplay import terminal
from tavli.ai.net import N_OUT, flip, money_equity
from tavli.ai.search import ROLLS, _after_value, v0, v1
from tavli.engine.games.kernel import F_BACKGAMMONS, F_KERNEL
from tavli.engine.movegen import generate

Trials = namedtuple("Trials", "seed first n ply truncate strat2 luck")
Trials.__doc__ = """What :func:`play_trials` plays: trials ``first .. first + n - 1`` of
the rollout of seed ``seed``, moves chosen at ``ply`` (0 or 1), cut after ``truncate``
turns (0: played to the end), ``strat2`` (0/1): stratify the second roll too, ``luck``
(0/1): measure the luck of every roll."""

RES = 2 * N_OUT + 1  # a trial's row: outcome (5), luck (5), turns
MAX_TURNS = 3000  # a trial this long is cut off and valued (never seen in practice)
TRIAL_STRIDE = 1_000_003  # seeds of different rollouts lie this many trials apart
FILTER_KEEP, FILTER_WIDTH = 8, 0.16  # 1-ply move choice: the 0-ply candidates kept


def trial_seed(seed: int, trial: int) -> int:
    """The seed of NumPy's generator (Numba's) for trial ``trial`` of the rollout of
    ``seed``: trials of one rollout take consecutive seeds, rollouts of different seeds
    lie a million trials apart.

    >>> trial_seed(1, 0), trial_seed(1, 5), trial_seed(2, 0)
    (1, 6, 1000004)
    """
    return int(_trial_seed(seed, trial))


@njit(cache=True)
def _trial_seed(seed, trial):
    return ((seed - 1) * TRIAL_STRIDE + 1 + trial) % 4294967296


@njit(cache=True, inline="always")
def _flip_add(d, acc, sign_flip):
    """Add the output difference ``d`` (one side's view) to ``acc`` (the root's view:
    ``sign_flip`` when ``d`` is the other side's)."""
    if sign_flip:
        acc[0] -= d[0]
        acc[1] += d[3]
        acc[2] += d[4]
        acc[3] += d[1]
        acc[4] += d[2]
    else:
        for k in range(N_OUT):
            acc[k] += d[k]


@njit(cache=True)
def _roll_index(d1, d2):
    """The index in :data:`~tavli.ai.search.ROLLS` of the roll ``d1``-``d2``."""
    lo, hi = min(d1, d2), max(d1, d2)
    return (lo - 1) * (14 - lo) // 2 + (hi - lo)


@njit(cache=True)
def _best_of_roll(net, st, me, d1, d2, flags, s, val):
    """The best move of ``me`` by 0-ply with the roll ``d1``-``d2`` in the board array
    ``st``: its outputs (mover's view) into ``val``; returns its record index in ``s.buf``
    (-1 when no move is legal: ``val`` is then the position's value with the other side
    to move, seen by ``me``)."""
    x, h, tmp, cand = s.x, s.h, s.tmp, s.cand
    buf, table = s.buf, s.table
    outp = table.shape[0] - buf.shape[0]
    n = generate(st, me, d1, d2, flags, buf, table)
    if n <= 0:
        v0(net, st.reshape(104), 1 - me, flags[F_KERNEL], x, h, tmp)
        flip(tmp, val)
        return -1
    be = -1e18
    bi = -1
    for j in range(n):
        i = table[outp + j]
        e = _after_value(net, buf[i], me, flags, x, h, tmp, cand)
        if e > be:
            be = e
            bi = i
            for k in range(N_OUT):
                val[k] = cand[k]
    return bi


@njit(cache=True)
def _choose_ply1(net, st, me, d1, d2, flags, s):
    """The move of ``me`` with the roll ``d1``-``d2`` at 1-ply: every move valued at 0-ply,
    the best ``FILTER_KEEP`` within ``FILTER_WIDTH`` of the best valued again at 1-ply
    (a game-ending move by its points). Returns its record index in ``s.buf`` (-1: none
    legal)."""
    x, h, tmp, cand, acc2, scores, st2 = s.x, s.h, s.tmp, s.cand, s.acc2, s.scores, s.st2
    buf, table = s.buf, s.table
    outp = table.shape[0] - buf.shape[0]
    count_bg = flags[F_BACKGAMMONS] != 0
    n = generate(st, me, d1, d2, flags, buf, table)
    if n <= 0:
        return -1
    for j in range(n):
        scores[j] = _after_value(net, buf[table[outp + j]], me, flags, x, h, tmp, cand)
    order = np.argsort(-scores[:n])
    top = scores[order[0]]
    if n == 1 or top >= 999.0:  # one move, or one that wins at once
        return table[outp + order[0]]
    sf2 = st2.reshape(104)
    be = -1e18
    bi = table[outp + order[0]]
    for jj in range(min(FILTER_KEEP, n)):
        if scores[order[jj]] < top - FILTER_WIDTH:
            break
        i = table[outp + order[jj]]
        for k in range(104):
            sf2[k] = buf[i, k]
        pts = terminal(sf2, me, flags, cand)
        if np.isnan(pts):
            v1(net, st2, 1 - me, flags, s, True, acc2)  # the second move buffers
            flip(acc2, cand)
            e = money_equity(cand, count_bg)
        else:
            e = 1000.0 + pts
        if e > be:
            be = e
            bi = i
    return bi


@njit(cache=True)
def _turn_luck(net, st, me, flags, s, thrown, nxt):
    """The 1-ply expansion of ``me``'s turn in ``st``: the mean over the 21 rolls of the
    best 0-ply move's outputs into ``s.acc``, the thrown roll's into ``s.best`` (roll
    index ``thrown``); the thrown roll's best after-position into ``nxt`` (flat). Returns
    whether a move was legal with the thrown roll."""
    acc, best, val = s.acc, s.best, s.tb
    for k in range(N_OUT):
        acc[k] = 0.0
    moved = False
    for r in range(ROLLS.shape[0]):
        bi = _best_of_roll(net, st, me, ROLLS[r, 0], ROLLS[r, 1], flags, s, val)
        w = ROLLS[r, 2] / 36.0
        for k in range(N_OUT):
            acc[k] += w * val[k]
        if r == thrown:
            for k in range(N_OUT):
                best[k] = val[k]
            if bi >= 0:
                moved = True
                for k in range(104):
                    nxt[k] = s.buf[bi, k]
    return moved


@njit(cache=True)
def _dice(t, turn, strat2):
    """The roll of turn ``turn`` of trial ``t``: stratified for the first turn (and the
    second with ``strat2``), else from NumPy's generator (seeded for the trial)."""
    if turn == 0:
        k = t % 36
        return k // 6 + 1, k % 6 + 1
    if turn == 1 and strat2:
        k = (t // 36) % 36
        return k // 6 + 1, k % 6 + 1
    return np.random.randint(1, 7), np.random.randint(1, 7)


@njit(cache=True)
def _final(out, res_row, me, side, tmp):
    """Write the outcome ``out`` (``me``'s view) into ``res_row`` from ``side``'s view."""
    if me == side:
        for q in range(N_OUT):
            res_row[q] = out[q]
    else:
        flip(out, tmp)
        for q in range(N_OUT):
            res_row[q] = tmp[q]


@njit(cache=True)
def play_trials(net, root, side, flags, cfg, s, res):
    """Play the trials ``cfg`` (:data:`Trials`) of the rollout of the flat board ``root``
    (``side`` to move, before its roll) with the evaluator ``net``
    (:data:`~tavli.ai.evaluator.Tables`), the rule flags ``flags`` and the work arrays
    ``s`` (:data:`~tavli.ai.net.Scratch`); row ``k`` of ``res`` (float64[n, RES]) gets
    trial ``cfg.first + k`` (see the module docstring)."""
    st, tgt, tmp = s.st, s.tgt, s.tmp
    sf = st.reshape(104)
    nxt = np.zeros(104, dtype=np.int8)
    diff = np.zeros(N_OUT, dtype=np.float32)
    luck = np.zeros(N_OUT)
    family = flags[F_KERNEL]
    for k in range(cfg.n):
        t = cfg.first + k
        np.random.seed(_trial_seed(cfg.seed, t))
        for q in range(104):
            sf[q] = root[q]
        for q in range(N_OUT):
            luck[q] = 0.0
        me = side
        turns = np.int64(0)  # plain int64: a literal 0 compiles _dice twice
        while True:
            if turns >= MAX_TURNS or (cfg.truncate > 0 and turns >= cfg.truncate):
                v0(net, sf, me, family, s.x, s.h, tgt)  # cut off: the 0-ply value
                _final(tgt, res[k], me, side, tmp)
                break
            d1, d2 = _dice(t, turns, cfg.strat2)
            moved = False
            if cfg.luck:
                moved = _turn_luck(net, st, me, flags, s, _roll_index(d1, d2), nxt)
                for q in range(N_OUT):
                    diff[q] = s.best[q] - s.acc[q]
                _flip_add(diff, luck, me != side)
            if cfg.ply >= 1 or not cfg.luck:
                if cfg.ply >= 1:
                    bi = _choose_ply1(net, st, me, d1, d2, flags, s)
                else:
                    bi = _best_of_roll(net, st, me, d1, d2, flags, s, s.tb)
                moved = bi >= 0
                if moved:
                    for q in range(104):
                        nxt[q] = s.buf[bi, q]
            turns += 1
            if moved:
                for q in range(104):
                    sf[q] = nxt[q]
                if not np.isnan(terminal(sf, me, flags, tgt)):
                    _final(tgt, res[k], me, side, tmp)
                    break
            me = 1 - me
        for q in range(N_OUT):
            res[k, N_OUT + q] = luck[q]
        res[k, RES - 1] = turns
