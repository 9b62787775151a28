"""Seconds a fit epoch takes: tavli's NumPy fitter against the same step in PyTorch (CPU).

    python training/fit_speed.py numpy [--positions 200000] [--hidden 80] [--threads 1]
    python training/fit_speed.py torch ...   (a Python with torch and numpy)

Synthetic inputs of the Portes/backgammon encoder's width (214, a sixth of them non-zero,
as in real positions) and targets; the same batches (512), the same loss (cross-entropy
on the five sigmoid outputs) and Adam. The timing of dense matrix products does not
depend on the values. The numpy backend is the project's own code
(:class:`tavli.ai.fitting.Student`, run from the repository root).
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("backend", choices=["numpy", "torch"])
    p.add_argument("--positions", type=int, default=200_000)
    p.add_argument("--hidden", type=int, default=80)
    p.add_argument("--inputs", type=int, default=214)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--threads", type=int, default=1)
    a = p.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(a.threads)
    import numpy as np

    rng = np.random.default_rng(1)
    X = (rng.random((a.positions, a.inputs), dtype=np.float32) < 1 / 6).astype(np.float32)
    T = rng.random((a.positions, 5), dtype=np.float32)
    n_batches = a.positions // a.batch
    times = []
    cpu = []
    if a.backend == "numpy":
        sys.path.insert(0, ".")
        from tavli.ai.fitting import Student

        s = Student(rng.normal(0, 0.1, (a.inputs, a.hidden)).astype(np.float32),
                    np.zeros(a.hidden, np.float32),
                    rng.normal(0, 0.1, (a.hidden, 5)).astype(np.float32),
                    np.zeros(5, np.float32))
        for _ in range(a.epochs):
            t0 = time.perf_counter()
            c0 = time.process_time()
            order = rng.permutation(a.positions)
            for b in range(n_batches):
                idx = order[b * a.batch:(b + 1) * a.batch]
                s.step(X[idx], T[idx], 1e-3)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        version = f"numpy {np.__version__}"
    else:
        import torch

        torch.set_num_threads(a.threads)
        model = torch.nn.Sequential(torch.nn.Linear(a.inputs, a.hidden), torch.nn.Sigmoid(),
                                    torch.nn.Linear(a.hidden, 5))
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        loss_fn = torch.nn.BCEWithLogitsLoss()
        Xt, Tt = torch.from_numpy(X), torch.from_numpy(T)
        for _ in range(a.epochs):
            t0 = time.perf_counter()
            c0 = time.process_time()
            order = torch.from_numpy(rng.permutation(a.positions))
            for b in range(n_batches):
                idx = order[b * a.batch:(b + 1) * a.batch]
                opt.zero_grad(set_to_none=True)
                loss = loss_fn(model(Xt[idx]), Tt[idx])
                loss.backward()
                opt.step()
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        version = f"torch {torch.__version__}"
    print(f"{a.backend} ({version}), {a.threads} thread(s): {a.positions} positions x "
          f"{a.inputs} inputs, {a.hidden} hidden, batches of {a.batch}: an epoch in "
          f"{min(times):.2f} s, {min(cpu):.2f} s of CPU (best of {a.epochs}; all: "
          f"{', '.join(f'{t:.2f}' for t in times)} s)")


if __name__ == "__main__":
    main()
