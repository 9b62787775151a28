"""Which contact net can learn the 2-ply labels (issue #32): one hidden layer as shipped
(128 units, from the teacher's weights), one wider layer (256: the teacher's 128 and 128
new), or two hidden layers (the teacher's first layer, then a new layer of 64 before the
outputs). Same labels, same held-out games, same Adam and batches; the figure is the
held-out cubeless-equity error against the 2-ply targets, per epoch, beside the teacher's
own (epoch 0). NumPy only: a net worth compiling is decided here first.

    python training/layers_experiment.py RUN/round-1/labels [--epochs 12] [--limit N]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from tavli.ai.net import Net, equity
from tavli.ai.shipped import shipped_net
from tavli.training.blas import blas_threads
from tavli.training.distill import encoded
from tavli.training.fitting import (
    NEW_UNIT_SPREAD,
    Student,
    adam_step,
    cosine_rate,
    holdout_mask,
    sigmoid,
    widen,
)
from tavli.training.labels import dataset_files, load_chunks


def crashed(boards: np.ndarray) -> np.ndarray:
    """Crashed positions: a side has at most 6 checkers in play, counting a point's
    checkers on its 1- and 2-points as one (the others there are out of play), as
    gnubg's crashed class roughly is."""
    b = boards.reshape(-1, 4, 26).astype(np.int64)
    inplay = b[:, :2, 3:26].sum(2) + np.minimum(b[:, :2, 1], 1) + np.minimum(b[:, :2, 2], 1)
    return (inplay <= 6).any(axis=1)


class TwoLayers:
    """A student of two hidden layers (sigmoid), Adam, cross-entropy on the outputs."""

    def __init__(self, params: list[np.ndarray]) -> None:
        self.params = params  # W1, b1, Wm, bm, W2, b2
        self.m = [np.zeros_like(a) for a in params]
        self.v = [np.zeros_like(a) for a in params]
        self.t = 0

    def forward(self, X):
        W1, b1, Wm, bm, W2, b2 = self.params
        h1 = sigmoid(X @ W1 + b1)
        h2 = sigmoid(h1 @ Wm + bm)
        return h1, h2, sigmoid(h2 @ W2 + b2)

    def outputs(self, X, rows: int = 65536):
        return np.concatenate([self.forward(X[i:i + rows])[2] for i in range(0, len(X), rows)])

    def step(self, Xb, Tb, rate):
        W1, b1, Wm, bm, W2, b2 = self.params
        h1, h2, y = self.forward(Xb)
        d3 = (y - Tb) / len(Xb)
        d2 = (d3 @ W2.T) * h2 * (1 - h2)
        d1 = (d2 @ Wm.T) * h1 * (1 - h1)
        grads = (Xb.T @ d1, d1.sum(0), h1.T @ d2, d2.sum(0), h2.T @ d3, d3.sum(0))
        self.t += 1
        adam_step(self.params, grads, self.m, self.v, self.t, rate)
        return y


class Skip:
    """The teacher's one-layer net plus a second layer of ``mid`` units on its hidden
    ones, whose output weights start at 0: it starts as the teacher."""

    def __init__(self, init: Net, mid: int, rng) -> None:
        H = init.hidden
        self.params = [init.W1.copy(), init.b1.copy(), init.W2.copy(),
                       rng.normal(0, 1 / np.sqrt(H), (H, mid)).astype(np.float32),
                       np.zeros(mid, np.float32), np.zeros((mid, 5), np.float32),
                       init.b2.copy()]
        self.m = [np.zeros_like(a) for a in self.params]
        self.v = [np.zeros_like(a) for a in self.params]
        self.t = 0

    def forward(self, X):
        W1, b1, W2, Wm, bm, W3, b2 = self.params
        h1 = sigmoid(X @ W1 + b1)
        h2 = sigmoid(h1 @ Wm + bm)
        return h1, h2, sigmoid(h1 @ W2 + h2 @ W3 + b2)

    def outputs(self, X, rows: int = 65536):
        return np.concatenate([self.forward(X[i:i + rows])[2] for i in range(0, len(X), rows)])

    def step(self, Xb, Tb, rate):
        W1, b1, W2, Wm, bm, W3, b2 = self.params
        h1, h2, y = self.forward(Xb)
        d3 = (y - Tb) / len(Xb)
        d2 = (d3 @ W3.T) * h2 * (1 - h2)
        d1 = (d3 @ W2.T + d2 @ Wm.T) * h1 * (1 - h1)
        grads = (Xb.T @ d1, d1.sum(0), h1.T @ d3, h1.T @ d2, d2.sum(0), h2.T @ d3, d3.sum(0))
        self.t += 1
        adam_step(self.params, grads, self.m, self.v, self.t, rate)
        return y


def wider(init: Net, hidden: int, rng, scale: float) -> list[np.ndarray]:
    """:func:`~tavli.training.fitting.widen` with the new input weights drawn with spread
    ``scale`` (their output weights still 0: the start is the teacher)."""
    W1, b1, W2, b2 = widen(init, hidden, rng)
    k = init.hidden
    W1[:, k:] *= scale / NEW_UNIT_SPREAD
    return [W1, b1, W2, b2]


def two_layers(init: Net, mid: int, rng) -> TwoLayers:
    """The teacher's first layer, a new middle layer, new outputs (the teacher's biases)."""
    H = init.hidden
    Wm = rng.normal(0, 1 / np.sqrt(H), (H, mid)).astype(np.float32)
    W2 = rng.normal(0, 1 / np.sqrt(mid), (mid, 5)).astype(np.float32)
    return TwoLayers([init.W1.copy(), init.b1.copy(), Wm, np.zeros(mid, np.float32), W2,
                      init.b2.copy()])


def _errors(student, Xv, ev_v, cv) -> tuple[float, float]:
    e = np.abs(equity(student.outputs(Xv)) - ev_v)
    return float(e.mean()), float(e[cv].mean())


def fit(name, student, Xt, Tt, Xv, ev_v, cv, epochs, lr, batch, seed, out, by=0):
    """Fit ``student``; the held-out errors (all, crashed) of the start and the best epoch
    (by the error on all of ``Xv``, or ``by=1`` on the crashed ones) and the best epoch's
    outputs on ``Xv``."""
    n_batches = len(Xt) // batch
    total = epochs * n_batches
    start = best = _errors(student, Xv, ev_v, cv)
    best_out = student.outputs(Xv)
    print(f"{name}: epoch 0 held-out {start[0]:.5f} (crashed {start[1]:.5f})", file=out,
          flush=True)
    for epoch in range(1, epochs + 1):
        t0 = time.time()
        order = np.random.default_rng([seed, epoch]).permutation(len(Xt))
        for bi in range(n_batches):
            idx = order[bi * batch:(bi + 1) * batch]
            student.step(Xt[idx], Tt[idx], cosine_rate(lr, student.t + 1, total))
        e = _errors(student, Xv, ev_v, cv)
        if e[by] < best[by]:
            best, best_out = e, student.outputs(Xv)
            student.best_params = [a.copy() for a in student.params]
        print(f"{name}: epoch {epoch} held-out {e[0]:.5f} (crashed {e[1]:.5f}) "
              f"({time.time() - t0:.1f} s)", file=out, flush=True)
    return start, best, best_out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("labels", help="a dataset folder (training/datasets/...)")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--limit", type=int, default=None, help="chunks to read (default all)")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--scale", type=float, default=NEW_UNIT_SPREAD,
                   help="the spread of a widened student's new input weights (default "
                        "fitting.NEW_UNIT_SPREAD)")
    p.add_argument("--only", nargs="*", default=None,
                   choices=["128", "256", "512", "two", "skip", "crashed", "crashed-tuned"])
    args = p.parse_args()
    files = dataset_files(args.labels)[:args.limit]
    teacher = shipped_net("portes")
    data = load_chunks(files, "portes")
    X = encoded(teacher, data.boards, data.sides)
    T = data.labels.astype(np.float32)
    C = crashed(data.boards)
    val = holdout_mask(data.games_of, 0.1, 20000, 5)
    Xt, Tt, Xv, Ct, cv = X[~val], T[~val], X[val], C[~val], C[val]
    ev_v = equity(T[val])
    print(f"{len(files)} chunks: {len(Xt)} positions to fit, {len(Xv)} held out "
          f"({cv.sum()} of them crashed, {C.mean():.3f} of all)", flush=True)
    rng = np.random.default_rng(5)
    students = {
        "128": ("1 layer, 128 (as shipped)", lambda: Student(*widen(teacher, 128, rng))),
        "256": ("1 layer, 256", lambda: Student(*wider(teacher, 256, rng, args.scale))),
        "512": ("1 layer, 512", lambda: Student(*wider(teacher, 512, rng, args.scale))),
        "two": ("2 layers, 128 + 64", lambda: two_layers(teacher, 64, rng)),
        "skip": ("128 + a layer of 64 beside", lambda: Skip(teacher, 64, rng)),
    }
    chosen = args.only or ["128", "256", "two", "skip", "crashed"]
    rows, outs, last = [], {}, {}
    with blas_threads(1):
        for key in [k for k in chosen if k in students]:
            name, make = students[key]
            last[key] = make()
            e0, best, outs[key] = fit(name, last[key], Xt, Tt, Xv, ev_v, cv, args.epochs,
                                      args.lr, 512, 5, sys.stdout)
            rows.append((name, e0, best))
        if "crashed-tuned" in chosen:  # the widest general student, tuned on crashed ones
            key = next(k for k in ("512", "256", "128") if k in outs)
            general = last[key]
            tuned = Student(*[a.copy() for a in getattr(general, "best_params",
                                                        general.params)])
            _, _, out_c = fit(f"{key} tuned on crashed positions", tuned, Xt[Ct], Tt[Ct], Xv,
                              ev_v, cv, max(1, args.epochs // 3), args.lr / 3, 512, 5,
                              sys.stdout, by=1)
            both = np.where(cv[:, None], out_c, outs[key])
            e = np.abs(equity(both) - ev_v)
            rows.append((f"{key} + its crashed-tuned copy", rows[0][1],
                         (float(e.mean()), float(e[cv].mean()))))
        if "crashed" in chosen:
            name = "crashed net of 128 (crashed only)"
            _, _, out_c = fit(name, Student(*widen(teacher, 128, rng)), Xt[Ct], Tt[Ct],
                              Xv, ev_v, cv, args.epochs, args.lr, 512, 5, sys.stdout, by=1)
            base = outs.get("128")
            if base is not None:
                both = np.where(cv[:, None], out_c, base)
                e = np.abs(equity(both) - ev_v)
                rows.append(("128 + the crashed net", rows[0][1],
                             (float(e.mean()), float(e[cv].mean()))))
    print("\nheld-out cubeless-equity error against the 2-ply labels (start -> best epoch; "
          "all held-out positions, crashed ones):")
    for name, e0, best in rows:
        print(f"  {name:34s} {e0[0]:.5f} -> {best[0]:.5f}   crashed {e0[1]:.5f} -> "
              f"{best[1]:.5f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
