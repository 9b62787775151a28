"""Distillation: teach a network its teacher's 1-ply lookahead (``tavli distill``).

TD self-play moves each position toward the next one; its end point is a fixed point that
more games, width or inputs did not move for Plakoto (docs/ai.md). Distillation instead
fits a student, by supervised learning, to the teacher's **1-ply** outputs (the mean over
the 21 rolls of the outputs after the best 0-ply reply), so that the student at 0-ply
chooses more like the teacher at 1-ply. Two steps:

* :func:`label` plays 0-ply self-play games of the teacher and labels positions with the
  teacher's 1-ply outputs: either the positions played (``keep`` = 0, each before its
  roll, sampled with probability ``every``), or on a sampled turn the ``keep`` best
  after-positions by 0-ply, the candidates a 0-ply player chooses between (about 2.5 ms
  a label on one core for Plakoto).
* :func:`fit` trains a one-hidden-layer student on the labels (cross-entropy on the five
  outputs, Adam, a cosine step size, batches of 512), starting from the teacher's weights
  (the student's first hidden units; any further ones start small and random), and
  writes the student after every epoch.

>>> net = Net.random("plakoto", hidden=4, seed=1)
>>> data = label(net, games=2, seed=1, keep=2, every=0.5, limit=30)
>>> data.boards.shape, data.labels.shape
((30, 104), (30, 5))
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from tavli.ai.encode import encoder_function, family_name
from tavli.ai.evaluator import Evaluator, as_evaluator
from tavli.ai.fastplay import MAX_PLIES, _play_roll, new_game, throw
from tavli.ai.net import N_OUT, Net, equity, read_npz, write_npz
from tavli.ai.search import _after_value, v1
from tavli.ai.shipped import training_rules
from tavli.engine.board import Position
from tavli.engine.movegen import generate
from tavli.errors import DistillError, TrainingError
from tavli.training.fitting import Student, cosine_rate, widen


@dataclass
class Labelled:
    """Positions (flat boards, side to move) with the teacher's 1-ply outputs."""

    boards: np.ndarray  # int8[N, 104]
    sides: np.ndarray  # int8[N]
    labels: np.ndarray  # float32[N, 5]
    games: int  # self-play games they come from
    family: str

    def save(self, path: str | Path) -> None:
        """Write as .npz (atomically)."""
        write_npz(path, boards=self.boards, sides=self.sides, labels=self.labels,
                  games=self.games, family=self.family)

    @classmethod
    def load(cls, path: str | Path) -> Labelled:
        z = read_npz(path, ("boards", "sides", "labels", "games", "family"), "labels",
                     "a tavli labels", DistillError)
        try:
            d = cls(np.asarray(z["boards"], np.int8), np.asarray(z["sides"], np.int8),
                    np.asarray(z["labels"], np.float32), int(z["games"]), str(z["family"]))
        except (ValueError, TypeError):
            raise DistillError(f"{path}: not a tavli labels file") from None
        n = len(d.boards)
        if (d.boards.shape != (n, 104) or d.sides.shape != (n,)
                or d.labels.shape != (n, N_OUT)):
            raise DistillError(f"labels {path}: arrays of the wrong shape")
        return d


@njit(cache=True)
def _add_label(net, board, side, flags, s, data, n):
    """Row ``n`` of the labels ``data`` (boards, sides, labels): the flat ``board`` (its
    first 104 values) with ``side`` to move and its 1-ply outputs (searched in the second
    move buffers of ``s``, from its board array ``st2``)."""
    boards, sides, labels = data
    lf = s.st2.reshape(104)
    for k in range(104):
        lf[k] = board[k]
        boards[n, k] = board[k]
    sides[n] = side
    v1(net, s.st2, side, flags, s, True, s.acc2)
    for k in range(N_OUT):
        labels[n, k] = s.acc2[k]


@njit(cache=True)
def _label_played(net, start, flags, n_games, seed, every, s, data):
    """Positions played in 0-ply self-play (before the roll), each kept with probability
    ``every`` and labelled with its 1-ply outputs into ``data`` (boards, sides, labels).
    Returns (positions, games played)."""
    np.random.seed(seed)
    st = s.st
    sf = st.reshape(104)
    n = np.int64(0)  # plain int64: a literal 0 compiles _add_label once more
    cap = data[0].shape[0]
    for g in range(n_games):
        me = new_game(st, start)
        for plies in range(1, MAX_PLIES + 2):  # cut off after MAX_PLIES
            if n < cap and np.random.random() < every:
                _add_label(net, sf, me, flags, s, data, n)
                n += 1
            d1, d2 = throw()
            bi, done = _play_roll(net.contact, st, me, d1, d2, flags, 0.0, s)
            if bi >= 0:
                for k in range(104):
                    sf[k] = s.buf[bi, k]
            if not np.isnan(done) or plies > MAX_PLIES:
                break
            me = 1 - me
        if n >= cap:
            return n, g + 1
    return n, n_games


@njit(cache=True)
def _label_candidates(net, start, flags, n_games, seed, keep, every, s, data):
    """On a turn with a choice, sampled with probability ``every``: the ``keep`` best
    after-positions by 0-ply, each labelled with its 1-ply outputs for the opponent to
    move (into ``data``); play goes on with the 0-ply best. Returns (positions, games
    played)."""
    np.random.seed(seed)
    buf, table, scores, st = s.buf, s.table, s.scores, s.st
    x, h, tmp, cand = s.x, s.h, s.tmp, s.cand
    sf = st.reshape(104)
    outp = table.shape[0] - buf.shape[0]
    n = np.int64(0)  # plain int64: a literal 0 compiles _add_label once more
    cap = data[0].shape[0]
    for g in range(n_games):
        me = new_game(st, start)
        for plies in range(1, MAX_PLIES + 2):  # cut off after MAX_PLIES
            d1, d2 = throw()
            m = generate(st, me, d1, d2, flags, buf, table)
            if m <= 0:
                if plies > MAX_PLIES:
                    break
                me = 1 - me
                continue
            for j in range(m):
                scores[j] = _after_value(net, buf[table[outp + j]], me, flags, x, h, tmp,
                                         cand)
            order = np.argsort(-scores[:m])
            if m > 1 and np.random.random() < every:
                for jj in range(min(keep, m)):
                    if n >= cap or scores[order[jj]] > 500.0:  # full, or a game won
                        continue
                    _add_label(net, buf[table[outp + order[jj]]], 1 - me, flags, s, data, n)
                    n += 1
            i = table[outp + order[0]]
            if scores[order[0]] > 500.0 or plies > MAX_PLIES:
                break
            for k in range(104):
                sf[k] = buf[i, k]
            me = 1 - me
        if n >= cap:
            return n, g + 1
    return n, n_games


LABEL_STATES = 8192  # move-generator records of each of the labelling's two searches


def label(teacher: Net | Evaluator, games: int, seed: int, keep: int = 6, every: float = 0.25,
          limit: int | None = None) -> Labelled:
    """Label positions from ``games`` 0-ply self-play games of ``teacher`` (stopping early
    at ``limit`` positions) with its 1-ply outputs: the played positions when ``keep`` is
    0, else the ``keep`` best candidates of a sampled turn. ``every`` is the share of
    positions (turns) sampled. Settings out of range raise
    :class:`~tavli.errors.TrainingError`."""
    if games < 1 or keep < 0 or not 0 < every <= 1:
        raise TrainingError("label needs games >= 1, keep >= 0 and 0 < every <= 1")
    family = family_name(teacher.family)
    rules = training_rules(family)
    if limit is None:
        limit = int(games * 80 * every * max(1, keep))
    if limit < 1:
        raise TrainingError("the position limit must be at least 1")
    data = (np.zeros((limit, 104), dtype=np.int8), np.zeros(limit, dtype=np.int8),
            np.zeros((limit, N_OUT), dtype=np.float32))
    ev = as_evaluator(teacher, rules.game)
    scratch = ev.scratch(LABEL_STATES, 2 * LABEL_STATES)
    start = np.array(Position.start(rules).array)
    common = (ev.tables, start, rules.kernel_flags(), games, seed % 2**32)
    if keep == 0:
        n, played = _label_played(*common, every, scratch, data)
    else:
        n, played = _label_candidates(*common, keep, every, scratch, data)
    boards, sides, labels = data
    return Labelled(boards[:n].copy(), sides[:n].copy(), labels[:n].copy(), int(played),
                    family)


@njit(cache=True)
def _encode_all(boards, sides, encoder, X):
    for k in range(boards.shape[0]):
        encoder(boards[k], sides[k], X[k])


def encoded(net: Net, boards: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """The inputs of ``net``'s encoder for each flat board (int8[N, 104]) seen by its side
    (``sides``), one row each."""
    X = np.zeros((len(boards), net.W1.shape[0]), dtype=np.float32)
    _encode_all(np.ascontiguousarray(boards, dtype=np.int8), np.asarray(sides, np.int64),
                encoder_function(net.encoder), X)
    return X


def fit(init: Net, data: list[Labelled], hidden: int, epochs: int, out: str | Path,
        *, lr: float = 1e-3, batch: int = 512, seed: int = 5, log=None) -> Net:
    """Train a student of ``hidden`` units on ``data``, starting from ``init``'s weights,
    for ``epochs`` passes; the student is written to ``out`` after every epoch and
    returned. A tenth of the positions (at most 20,000) is held out, and after every
    epoch the mean absolute equity error on it is printed to ``log``. Settings out of
    range raise :class:`~tavli.errors.TrainingError`, labels of another family or too few
    of them :class:`DistillError`."""
    from tavli.training.blas import blas_threads

    with blas_threads(1):  # batches too small for threads (tavli.training.blas)
        return _fit(init, data, hidden, epochs, out, lr, batch, seed, log)


def _fit(init: Net, data: list[Labelled], hidden: int, epochs: int, out: str | Path,
         lr: float, batch: int, seed: int, log) -> Net:
    log = log or sys.stdout
    if hidden < 1 or epochs < 1 or batch < 1 or not 0 < lr < 1:
        raise TrainingError("fit needs hidden, epochs and batch >= 1 and 0 < lr < 1")
    family = family_name(init.family)
    for d in data:
        if d.family != family:
            raise DistillError(f"labels of {d.family} positions for a {family} network")
    boards = np.concatenate([d.boards for d in data])
    sides = np.concatenate([d.sides for d in data]).astype(np.int64)
    T = np.concatenate([d.labels for d in data])
    games = sum(d.games for d in data)
    X = encoded(init, boards, sides)
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(X))
    nv = min(20000, len(X) // 10)
    if len(X) - nv < batch:
        raise DistillError(f"{len(X)} positions are too few for batches of {batch}")
    Xv, Tv = X[perm[:nv]], T[perm[:nv]]
    X, T = X[perm[nv:]], T[perm[nv:]]
    print(f"{len(X)} positions to fit, {nv} held out, from {games} games", file=log,
          flush=True)

    student = Student(*widen(init, hidden, rng))

    def held_out_error() -> float:
        return float(np.abs(equity(student.forward(Xv)[1]) - equity(Tv)).mean())

    print(f"start: held-out equity error {held_out_error():.5f}", file=log, flush=True)
    meta = dict(init.meta, games=init.games + games, version="distilled",
                note=f"distilled from a {init.games}-game net on {len(X)} positions of "
                     f"{games} games, {hidden} hidden units, {epochs} epochs")
    n_batches = len(X) // batch
    total = epochs * n_batches
    step = 0
    t0 = time.time()
    for ep in range(epochs):
        order = rng.permutation(len(X))
        for bi in range(n_batches):
            idx = order[bi * batch:(bi + 1) * batch]
            step += 1
            student.step(X[idx], T[idx], cosine_rate(lr, step, total))
        net = student.net(init.family, dict(meta, epochs_done=ep + 1))
        net.save(out)
        print(f"epoch {ep + 1}/{epochs} ({time.time() - t0:.0f} s): held-out equity error "
              f"{held_out_error():.5f}", file=log, flush=True)
    return net

