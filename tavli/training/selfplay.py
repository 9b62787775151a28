"""Self-play training kernels: TD(0) and TD(lambda) games of a network against itself.

Each game runs inside one Numba function on the compiled game pieces of
:mod:`tavli.ai.fastplay` (dice, the best move of a roll, the end of the game), updating the
network after every turn (TD(0)) or at the end of the game (the lambda-returns).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tavli.ai.fastplay import MAX_PLIES, _play_roll, new_game, throw
from tavli.ai.net import N_OUT, flip, forward, td_update


@njit(cache=True)
def _count_game(stats, done, plies, me):
    """Add a finished game to ``stats``: games, plies, white points, draws (``done`` is the
    last mover's points, NaN for a game cut off)."""
    stats[0] += 1
    stats[1] += plies
    if not np.isnan(done):
        stats[2] += done if me == 0 else -done
        if done == 0.0:
            stats[3] += 1


@njit(cache=True)
def train_games(net, start, flags, n_games, alpha, seed, s, stats, explore, lam):
    """Play ``n_games`` of greedy 0-ply self-play from the board array ``start``, updating
    the weights ``net`` (:data:`~tavli.ai.net.Weights`) by TD(``lam``), with the work
    arrays ``s`` (:data:`~tavli.ai.net.Scratch`). With ``lam`` = 0 (TD(0)) each position
    moves toward the evaluation of the next one right after the turn. With ``lam`` > 0 the
    updates come at the end of the game, each position moving toward its lambda-return
    (the next position's evaluation, weighted ``1 - lam``, mixed with the next position's
    own return, weighted ``lam``: the offline "forward view" of TD(lambda), as cheap as
    TD(0)). With ``explore`` > 0 a turn plays a uniformly random legal move with that
    probability (and learns toward its outcome), so that positions greedy play avoids are
    seen too. ``stats`` (float64[4]) receives games, total plies, white points, draws.
    (No defaults: an argument left out compiles the kernel a second time.)"""
    np.random.seed(seed)
    n_in = net.W1.shape[0]
    x, h, y, dh, tb, xb, st, buf = s.x, s.h, s.y, s.dh, s.tb, s.xb, s.st, s.buf
    sf = st.reshape(104)
    keep = MAX_PLIES + 2 if lam > 0.0 else 1
    xs = np.zeros((keep, n_in), dtype=np.float32)  # TD(lambda): the game's positions
    ts = np.zeros((keep, N_OUT), dtype=np.float32)  # ... and their targets
    for _g in range(n_games):
        me = new_game(st, start)
        net.enc(sf, me, x)
        forward(net, x, h, y)
        for plies in range(1, MAX_PLIES + 2):  # cut off after MAX_PLIES
            d1, d2 = throw()
            bi, done = _play_roll(net, st, me, d1, d2, flags, explore, s)
            if lam > 0.0:
                for k in range(n_in):
                    xs[plies - 1, k] = x[k]
                for k in range(N_OUT):
                    ts[plies - 1, k] = tb[k]
            else:
                td_update(net, x, h, y, tb, alpha, dh)
            if bi >= 0:
                for k in range(104):
                    sf[k] = buf[bi, k]
            if not np.isnan(done) or plies > MAX_PLIES:
                if lam > 0.0:
                    _lambda_updates(net, xs, ts, plies, lam, alpha, s)
                _count_game(stats, done, plies, me)
                break
            me = 1 - me
            for k in range(n_in):
                x[k] = xb[k]
            forward(net, x, h, y)


@njit(cache=True)
def train_games_ply1(net, start, flags, n_games, alpha, seed, s, stats):
    """Self-play like :func:`train_games`, but each position moves toward its 1-ply value
    (the average over the 21 rolls of the best move's evaluation) instead of the one roll
    played: the expected TD target without its dice noise, about 20 times the work per
    turn. Moves are still the 0-ply choice for the roll thrown."""
    np.random.seed(seed)
    x, h, y, dh, tb, acc, st, buf = s.x, s.h, s.y, s.dh, s.tb, s.acc, s.st, s.buf
    sf = st.reshape(104)
    nxt = s.st2.reshape(104)  # the after-position of the roll thrown
    for _g in range(n_games):
        me = new_game(st, start)
        for plies in range(1, MAX_PLIES + 2):  # cut off after MAX_PLIES
            r1, r2 = throw()
            if r1 > r2:
                r1, r2 = r2, r1
            for k in range(N_OUT):
                acc[k] = 0.0
            done = np.nan
            moved = False
            for a in range(1, 7):
                for c in range(a, 7):
                    w = 1.0 if a == c else 2.0
                    bi, pts_best = _play_roll(net, st, me, a, c, flags, 0.0, s)
                    for k in range(N_OUT):
                        acc[k] += w * tb[k]
                    if a == r1 and c == r2 and bi >= 0:
                        moved = True
                        done = pts_best
                        for k in range(104):
                            nxt[k] = buf[bi, k]
            for k in range(N_OUT):
                acc[k] /= 36.0
            net.enc(sf, me, x)
            forward(net, x, h, y)
            td_update(net, x, h, y, acc, alpha, dh)
            if moved:
                for k in range(104):
                    sf[k] = nxt[k]
            if not np.isnan(done) or plies > MAX_PLIES:
                _count_game(stats, done, plies, me)
                break
            me = 1 - me


@njit(cache=True)
def _lambda_updates(net, xs, ts, plies, lam, alpha, s):
    """End of a TD(lambda) game: turn the one-step targets ``ts[:plies]`` into
    lambda-returns (each from its own mover's view, so the next one is flipped), then move
    each position ``xs[t]`` toward its return."""
    h, y, dh, tmp = s.h, s.y, s.dh, s.tmp
    for t in range(plies - 2, -1, -1):
        flip(ts[t + 1], tmp)
        for k in range(N_OUT):
            ts[t, k] = (1.0 - lam) * ts[t, k] + lam * tmp[k]
    for t in range(plies):
        forward(net, xs[t], h, y)
        td_update(net, xs[t], h, y, ts[t], alpha, dh)
