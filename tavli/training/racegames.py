"""Compiled TD training of a race network from race positions.

:func:`train_race` plays games from race positions to the end and moves the race
network's outputs for each position it values toward the value of the next one by the
evaluator (TD(0)): the race network itself, the bear-off databases once positions reach
them (where a database answers, the game stops: nothing is left to learn), the result at
the end; :func:`train_race_ply1` toward 1-ply values. The starting positions and the
duplicate races that check a network are :mod:`tavli.bench.racegames`'.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tavli.ai.evaluator import E_RACE, evaluate
from tavli.ai.fastplay import terminal, throw
from tavli.ai.net import N_OUT, flip, money_equity, td_update
from tavli.bench.racegames import MAX_RACE_PLIES, _copy
from tavli.engine.games.kernel import F_BACKGAMMONS, F_KERNEL
from tavli.engine.movegen import generate


@njit(cache=True)
def _race_target(ev, sf, me, n, flags, s):
    """The TD target of ``me``'s turn among the ``n`` generated moves (0: no legal move):
    the outputs, from ``me``'s view, of the after-position of the best move by 0-ply (the
    result when it ends the game), into ``s.tb``. Returns the move's record index (-1:
    none) and its points when it ends the game (NaN when not)."""
    family = flags[F_KERNEL]
    count_bg = flags[F_BACKGAMMONS] != 0
    buf, table, xc, hc, yc, tb, tgt = s.buf, s.table, s.xc, s.hc, s.yc, s.tb, s.tgt
    outp = table.shape[0] - buf.shape[0]
    op = 1 - me
    if n <= 0:
        evaluate(ev, sf, op, family, xc, hc, yc)
        flip(yc, tb)
        return -1, np.nan
    best = -1e18
    bi = -1
    done = np.nan
    for j in range(n):
        i = table[outp + j]
        pts = terminal(buf[i], me, flags, tgt)
        if not np.isnan(pts):
            e = 1e9 + pts
            if e > best:
                best, bi, done = e, i, pts
                for k in range(N_OUT):
                    tb[k] = tgt[k]
            continue
        evaluate(ev, buf[i], op, family, xc, hc, yc)
        e = -money_equity(yc, count_bg)
        if e > best:
            best, bi, done = e, i, np.nan
            flip(yc, tb)
    return bi, done


@njit(cache=True)
def train_race(ev, starts, turns, flags, n_games, alpha, seed, s, stats, explore):
    """Play ``n_games`` games from race positions drawn from ``starts`` (int8[N, 104],
    ``turns[k]`` to move) with the 0-ply choice of the evaluator ``ev``, updating its race
    network (``ev.race``, in place) by TD(0) with step ``alpha``: the outputs for each
    position the race network values move toward the value of the next position by the
    evaluator (seen from the mover), the result at the end. A game stops where another
    valuer answers (a bear-off database). With ``explore`` > 0 a turn goes on with a
    random legal move with that probability (the target stays the best move's value), so
    that positions the greedy play avoids are learned too. ``stats`` (float64[4])
    receives games, updates, the summed absolute equity change asked by the targets (the
    TD error), and the games handed over to a database before their end. (No default
    for ``explore``: an argument left out compiles the kernel a second time.)"""
    np.random.seed(seed)
    outp = s.table.shape[0] - s.buf.shape[0]
    family = flags[F_KERNEL]
    count_bg = flags[F_BACKGAMMONS] != 0
    x, h, y, dh, tb, st, buf, table = s.x, s.h, s.y, s.dh, s.tb, s.st, s.buf, s.table
    sf = st.reshape(104)
    for _g in range(n_games):
        k = np.random.randint(0, starts.shape[0])
        _copy(sf, starts[k])
        me = turns[k]
        stats[0] += 1
        for _ply in range(MAX_RACE_PLIES):
            if evaluate(ev, sf, me, family, x, h, y) != E_RACE:
                stats[3] += 1
                break
            d1, d2 = throw()
            n = generate(st, me, d1, d2, flags, buf, table)
            bi, done = _race_target(ev, sf, me, n, flags, s)
            stats[1] += 1
            stats[2] += abs(money_equity(tb, count_bg) - money_equity(y, count_bg))
            td_update(ev.race, x, h, y, tb, alpha, dh)
            if explore > 0.0 and n > 1 and np.random.random() < explore:
                bi = table[outp + np.random.randint(0, n)]
                done = terminal(buf[bi], me, flags, s.tgt)
            if bi >= 0:
                _copy(sf, buf[bi])
            if not np.isnan(done):
                break
            me = 1 - me


@njit(cache=True)
def train_race_ply1(ev, starts, turns, flags, n_games, alpha, seed, s, stats):
    """:func:`train_race` with 1-ply targets: each position moves toward the mean over
    the 21 rolls of the best move's value (the TD target's expectation, without the
    noise of the roll thrown; about 20 times the work a turn). The game goes on with the
    best move of the roll thrown."""
    np.random.seed(seed)
    family = flags[F_KERNEL]
    count_bg = flags[F_BACKGAMMONS] != 0
    x, h, y, dh, tb, acc, st, buf, table = (s.x, s.h, s.y, s.dh, s.tb, s.acc, s.st, s.buf,
                                            s.table)
    sf = st.reshape(104)
    nxt = s.st2.reshape(104)
    for _g in range(n_games):
        k = np.random.randint(0, starts.shape[0])
        _copy(sf, starts[k])
        me = turns[k]
        stats[0] += 1
        for _ply in range(MAX_RACE_PLIES):
            if evaluate(ev, sf, me, family, x, h, y) != E_RACE:
                stats[3] += 1
                break
            r1, r2 = throw()
            if r1 > r2:
                r1, r2 = r2, r1
            for q in range(N_OUT):
                acc[q] = 0.0
            moved = False
            done = np.nan
            for a in range(1, 7):
                for c in range(a, 7):
                    n = generate(st, me, a, c, flags, buf, table)
                    bi, pts = _race_target(ev, sf, me, n, flags, s)
                    w = (1.0 if a == c else 2.0) / 36.0
                    for q in range(N_OUT):
                        acc[q] += w * tb[q]
                    if a == r1 and c == r2 and bi >= 0:
                        moved = True
                        done = pts
                        _copy(nxt, buf[bi])
            stats[1] += 1
            stats[2] += abs(money_equity(acc, count_bg) - money_equity(y, count_bg))
            td_update(ev.race, x, h, y, acc, alpha, dh)
            if moved:
                _copy(sf, nxt)
            if not np.isnan(done):
                break
            me = 1 - me
