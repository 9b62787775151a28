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
from pathlib import Path

import numpy as np

from tavli.ai.net import Net, equity
from tavli.ai.shipped import shipped_net
from tavli.training.blas import blas_threads
from tavli.training.fitting import (
    Student,
    adam_step,
    cosine_rate,
    holdout_mask,
    sigmoid,
    widen,
)
from tavli.training.labels import load_chunks
from tavli.training.rounds import _encode


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


def two_layers(init: Net, mid: int, rng) -> TwoLayers:
    """The teacher's first layer, a new middle layer, new outputs (the teacher's biases)."""
    H = init.hidden
    Wm = rng.normal(0, 1 / np.sqrt(H), (H, mid)).astype(np.float32)
    W2 = rng.normal(0, 1 / np.sqrt(mid), (mid, 5)).astype(np.float32)
    return TwoLayers([init.W1.copy(), init.b1.copy(), Wm, np.zeros(mid, np.float32), W2,
                      init.b2.copy()])


def fit(name, student, Xt, Tt, Xv, ev_v, epochs, lr, batch, seed, out):
    n_batches = len(Xt) // batch
    total = epochs * n_batches
    err0 = float(np.abs(equity(student.outputs(Xv)) - ev_v).mean())
    print(f"{name}: epoch 0 held-out {err0:.5f}", file=out, flush=True)
    best = err0
    for epoch in range(1, epochs + 1):
        t0 = time.time()
        order = np.random.default_rng([seed, epoch]).permutation(len(Xt))
        for bi in range(n_batches):
            idx = order[bi * batch:(bi + 1) * batch]
            student.step(Xt[idx], Tt[idx], cosine_rate(lr, student.t + 1, total))
        e = float(np.abs(equity(student.outputs(Xv)) - ev_v).mean())
        best = min(best, e)
        print(f"{name}: epoch {epoch} held-out {e:.5f} ({time.time() - t0:.1f} s)",
              file=out, flush=True)
    return err0, best


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("labels")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--limit", type=int, default=None, help="chunks to read (default all)")
    p.add_argument("--lr", type=float, default=1e-3)
    args = p.parse_args()
    files = sorted(Path(args.labels).glob("chunk-*.npz"))[:args.limit]
    teacher = shipped_net("portes")
    data = load_chunks(files, "portes")
    X = _encode(data.boards, data.sides, teacher)
    T = data.labels.astype(np.float32)
    val = holdout_mask(data.games_of, 0.1, 20000, 5)
    Xt, Tt, Xv = X[~val], T[~val], X[val]
    ev_v = equity(T[val])
    print(f"{len(files)} chunks: {len(Xt)} positions to fit, {len(Xv)} held out",
          flush=True)
    rng = np.random.default_rng(5)
    with blas_threads(1):
        rows = []
        for name, student in (
                ("1 layer, 128 (as shipped)", Student(*widen(teacher, 128, rng))),
                ("1 layer, 256", Student(*widen(teacher, 256, rng))),
                ("2 layers, 128 + 64", two_layers(teacher, 64, rng))):
            rows.append((name, *fit(name, student, Xt, Tt, Xv, ev_v, args.epochs, args.lr,
                                    512, 5, sys.stdout)))
    print("\nheld-out cubeless-equity error against the 2-ply labels (start, best epoch):")
    for name, e0, best in rows:
        print(f"  {name:28s} {e0:.5f} -> {best:.5f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
