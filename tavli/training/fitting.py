"""Supervised fitting of a network to labelled positions, on BLAS (NumPy).

The network (:class:`~tavli.ai.net.Net`: one hidden layer of sigmoid units, five sigmoid
outputs) is trained by mini-batch gradient descent with Adam: every batch is a few
matrix products (``X @ W1``, ``h @ W2`` and their transposes for the gradients), so the
work runs in the BLAS NumPy links to.

The loss is the **cross-entropy** of each of the five sigmoid outputs against its target
probability (the labels are probabilities: 1-ply, 2-ply or rollout averages). Through
the sigmoid its gradient at the output is simply ``y - t``: unlike the squared error,
whose gradient carries a factor ``y (1 - y)``, it does not vanish where an output is
near 0 or 1, as the gammon and backgammon outputs mostly are, so those keep learning.
Its minimum is the same (``y = t``). What is reported is what play depends on: the mean
absolute error of the cubeless equity (:func:`~tavli.ai.net.equity`).

:class:`Student` holds the weights and Adam's moments and takes steps;
:func:`fit_labels` is the resumable loop of ``tavli train-round``: a held-out validation
set (whole self-play games, so that no game lends positions to both sides of the split),
the equity error per epoch on both, a checkpoint after every epoch, early stopping on the
validation error, and the best epoch's weights as the result.

>>> rng = np.random.default_rng(1)
>>> X = rng.random((64, 6), dtype=np.float32)
>>> T = np.full((64, 5), 0.25, np.float32)
>>> s = Student(rng.normal(0, 0.1, (6, 4)).astype(np.float32), np.zeros(4, np.float32),
...             rng.normal(0, 0.1, (4, 5)).astype(np.float32), np.zeros(5, np.float32))
>>> before = float(np.abs(s.forward(X)[1] - T).mean())
>>> for _ in range(50):
...     _ = s.step(X, T, 0.01)
>>> bool(np.abs(s.forward(X)[1] - T).mean() < before)
True
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from tavli.ai.net import N_OUT, Net, equity, read_npz, write_npz
from tavli.errors import TrainingError
from tavli.training.blas import blas_threads


def sigmoid(z: np.ndarray) -> np.ndarray:
    """The logistic function, elementwise (clipped so that ``exp`` cannot overflow)."""
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


#: the spread of a widened student's new input weights: wide enough that the new units
#: differ from position to position and from each other (at 0.02 they all sat near 0.5,
#: their output weights got the same gradient, and 256 units learnt no more than 128:
#: training/layers_experiment.py, docs/ai.md)
NEW_UNIT_SPREAD = 0.15


def widen(init: Net, hidden: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Starting weights of ``hidden`` units: ``init``'s first units as they are, any
    further ones with random input weights (drawn from ``rng``, spread
    :data:`NEW_UNIT_SPREAD`) and no output weights yet, the output biases ``init``'s: a
    wider student starts with its teacher's outputs exactly (with small random output
    weights, 128 new units moved the outputs enough to triple the starting error), and
    the new units' output weights learn from the first step on.

    >>> t = Net.random(0, hidden=3, seed=1)
    >>> W1, b1, W2, b2 = widen(t, 5, np.random.default_rng(0))
    >>> x = np.random.default_rng(2).random((4, t.W1.shape[0]), dtype=np.float32)
    >>> bool(np.allclose(Student(W1, b1, W2, b2).forward(x)[1],
    ...                  Student(t.W1, t.b1, t.W2, t.b2).forward(x)[1]))
    True
    """
    n_in = init.W1.shape[0]
    W1 = rng.normal(0, NEW_UNIT_SPREAD, (n_in, hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    W2 = np.zeros((hidden, N_OUT), np.float32)
    b2 = init.b2.copy()
    k = min(init.hidden, hidden)
    W1[:, :k] = init.W1[:, :k]
    b1[:k] = init.b1[:k]
    W2[:k] = init.W2[:k]
    return [W1, b1, W2, b2]


def adam_step(params, grads, m, v, t: int, rate: float) -> None:
    """One Adam step (β 0.9 and 0.999) of size ``rate`` on ``params`` in place, with the
    moments ``m``, ``v`` (updated in place) at step ``t`` (1 for the first)."""
    c1 = 1 - 0.9 ** t
    c2 = 1 - 0.999 ** t
    for a, g, mm, vv in zip(params, grads, m, v, strict=True):
        mm *= 0.9
        mm += 0.1 * g
        vv *= 0.999
        vv += 0.001 * g * g
        a -= rate * (mm / c1) / (np.sqrt(vv / c2) + 1e-8)


class Student:
    """A network being fitted: its weights (float32) and Adam's moments.

    :meth:`step` takes one Adam step on a batch (cross-entropy on the five outputs)."""

    def __init__(self, W1: np.ndarray, b1: np.ndarray, W2: np.ndarray, b2: np.ndarray,
                 m: list[np.ndarray] | None = None, v: list[np.ndarray] | None = None,
                 t: int = 0) -> None:
        self.W1, self.b1, self.W2, self.b2 = W1, b1, W2, b2
        self.m = m if m is not None else [np.zeros_like(a) for a in self.params]
        self.v = v if v is not None else [np.zeros_like(a) for a in self.params]
        self.t = t  # steps taken

    @property
    def params(self) -> list[np.ndarray]:
        return [self.W1, self.b1, self.W2, self.b2]

    def forward(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hidden activations and outputs for the input rows ``X``."""
        h = sigmoid(X @ self.W1 + self.b1)
        return h, sigmoid(h @ self.W2 + self.b2)

    def outputs(self, X: np.ndarray, rows: int = 65536) -> np.ndarray:
        """Outputs for many rows, a slice at a time (bounded memory)."""
        return np.concatenate([self.forward(X[i:i + rows])[1]
                               for i in range(0, len(X), rows)]) if len(X) else \
            np.zeros((0, N_OUT), np.float32)

    def step(self, Xb: np.ndarray, Tb: np.ndarray, rate: float) -> np.ndarray:
        """One Adam step of size ``rate`` toward the targets ``Tb`` for the inputs ``Xb``;
        returns the outputs before the step."""
        h, y = self.forward(Xb)
        d2 = (y - Tb) / len(Xb)  # cross-entropy through the sigmoid
        dh = (d2 @ self.W2.T) * h * (1 - h)
        grads = (Xb.T @ dh, dh.sum(0), h.T @ d2, d2.sum(0))
        self.t += 1
        adam_step(self.params, grads, self.m, self.v, self.t, rate)
        return y

    def net(self, family: int, meta: dict) -> Net:
        """The weights as a :class:`~tavli.ai.net.Net` (copies)."""
        return Net(family, self.W1.copy(), self.b1.copy(), self.W2.copy(), self.b2.copy(),
                   meta)


@dataclass(frozen=True)
class FitSettings:
    """How :func:`fit_labels` fits: hidden units (None: the starting net's), the most
    epochs, early stopping after ``patience`` epochs without a better validation error
    (0: never), Adam's step size (cosine-decayed over ``epochs``), the batch size, the
    share of games held out for validation (at most ``max_holdout`` positions) and the
    seed of the split, the new units and the batch order."""

    hidden: int | None = None
    epochs: int = 30
    patience: int = 3
    lr: float = 1e-3
    batch: int = 512
    holdout: float = 0.1
    max_holdout: int = 20000
    seed: int = 5

    def check(self) -> None:
        if (self.hidden is not None and self.hidden < 1) or self.epochs < 1 \
                or self.batch < 1 or self.patience < 0:
            raise TrainingError("fitting needs hidden, epochs and batch >= 1 and patience "
                                ">= 0")
        if not 0 < self.lr < 1 or not 0 < self.holdout < 1:
            raise TrainingError("fitting needs 0 < lr < 1 and 0 < holdout < 1")


def cosine_rate(lr: float, step: int, total: int) -> float:
    """The step size after ``step`` of ``total`` steps: ``lr`` decayed on a half cosine."""
    return lr * 0.5 * (1 + np.cos(np.pi * min(step, total) / total))


def holdout_mask(groups: np.ndarray, share: float, cap: int, seed: int) -> np.ndarray:
    """Which rows are held out: whole groups (games) drawn at random until ``share`` of the
    rows (at most ``cap``) are.

    >>> holdout_mask(np.array([0, 0, 1, 1, 2, 2, 3, 3]), 0.25, 100, 1).sum()
    np.int64(2)
    """
    uniq, inverse, counts = np.unique(groups, return_inverse=True, return_counts=True)
    want = min(cap, max(1, int(round(share * len(groups)))))
    order = np.random.default_rng([seed, 7]).permutation(len(uniq))
    taken = np.cumsum(counts[order])
    k = int(np.searchsorted(taken, want)) + 1
    chosen = np.zeros(len(uniq), bool)
    chosen[order[:k]] = True
    return chosen[inverse]


@dataclass
class FitResult:
    """What :func:`fit_labels` ends with: the best student (by validation error), its
    epoch (0: none beat the starting weights), the validation errors of the start and
    of the best epoch, and the per-epoch history."""

    net: Net
    best_epoch: int
    start_error: float
    best_error: float
    history: list[dict]


def digest(*arrays: np.ndarray) -> str:
    """A short hash of arrays' shapes and contents (what a checkpoint was made from)."""
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def fit_labels(init: Net, X: np.ndarray, T: np.ndarray, groups: np.ndarray,
               folder: str | Path, settings: FitSettings = FitSettings(),
               count_bg: bool = True, meta: dict | None = None, log=None) -> FitResult:
    """Fit a student, starting from ``init``'s weights (:func:`widen`), to the targets
    ``T`` (float32[N, 5]) of the encoded positions ``X`` (float32[N, inputs], ``init``'s
    encoder), holding out whole ``groups`` (int64[N], e.g. games) for validation.

    After every epoch the equity errors (training and held out) are printed to ``log``
    and the state (weights, Adam's moments, the best weights so far, the history) is
    written to ``folder/fit-state.npz``; the best student is ``folder/student.npz``. A
    call on a folder that holds a state of the same data and settings resumes it (and
    returns at once when it had finished). Stops after ``settings.epochs`` or when
    ``settings.patience`` epochs in a row bring no better validation error; returns the
    best epoch's student (:class:`FitResult`)."""
    with blas_threads(1):  # batches too small for threads (tavli.training.blas)
        return _fit_labels(init, X, T, groups, folder, settings, count_bg, meta, log)


def _fit_labels(init: Net, X: np.ndarray, T: np.ndarray, groups: np.ndarray,
                folder: str | Path, settings: FitSettings, count_bg: bool,
                meta: dict | None, log) -> FitResult:
    log = log or sys.stdout
    settings.check()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    hidden = settings.hidden or init.hidden
    n = len(X)
    if T.shape != (n, N_OUT) or groups.shape != (n,):
        raise TrainingError("targets and groups must have one row per position")
    if X.shape[1:] != init.W1.shape[:1]:
        raise TrainingError(f"positions of {X.shape[1]} inputs for a network of "
                            f"{init.W1.shape[0]}")
    val = holdout_mask(groups, settings.holdout, settings.max_holdout, settings.seed) \
        if n else np.zeros(0, bool)
    Xv, Tv = X[val], T[val]
    Xt, Tt = X[~val], T[~val]
    if len(Xt) < settings.batch or len(Xv) == 0:
        raise TrainingError(f"{n} positions are too few to fit in batches of "
                            f"{settings.batch} with some held out")
    ev_t = equity(Tv, count_bg)

    def val_error(student: Student) -> float:
        return float(np.abs(equity(student.outputs(Xv), count_bg) - ev_t).mean())

    key = json.dumps(dict(asdict(settings), hidden=hidden, data=digest(X, T, groups),
                          init=digest(init.W1, init.b1, init.W2, init.b2)), sort_keys=True)
    state_path = folder / "fit-state.npz"
    student_path = folder / "student.npz"
    meta = dict(init.meta if meta is None else meta)
    st = _load_state(state_path, key)
    if st is None:
        rng = np.random.default_rng(settings.seed)
        student = Student(*widen(init, hidden, rng))
        start_error = val_error(student)
        best = [a.copy() for a in student.params]
        history: list[dict] = []
        best_epoch, best_error, epoch, done = 0, start_error, 0, False
        print(f"{len(Xt)} positions to fit, {len(Xv)} held out; start: held-out equity "
              f"error {start_error:.5f}", file=log, flush=True)
        student.net(init.family, dict(meta, epochs_done=0)).save(student_path)
    else:
        student, best, history, start_error, best_epoch, best_error, epoch, done = st
        print(f"{'finished' if done else 'resuming'} after epoch {epoch} (best: epoch "
              f"{best_epoch}, held-out equity error {best_error:.5f})", file=log, flush=True)
    ran = not done
    n_batches = len(Xt) // settings.batch
    total = settings.epochs * n_batches
    while not done and epoch < settings.epochs:
        t0 = time.time()
        order = np.random.default_rng([settings.seed, epoch]).permutation(len(Xt))
        err = 0.0
        for bi in range(n_batches):
            idx = order[bi * settings.batch:(bi + 1) * settings.batch]
            Tb = Tt[idx]
            y = student.step(Xt[idx], Tb, cosine_rate(settings.lr, student.t + 1, total))
            err += float(np.abs(equity(y, count_bg) - equity(Tb, count_bg)).mean())
        epoch += 1
        v_err = val_error(student)
        better = v_err < best_error
        if better:
            best_epoch, best_error = epoch, v_err
            best = [a.copy() for a in student.params]
        history.append({"epoch": epoch, "train": err / n_batches, "held_out": v_err,
                        "seconds": round(time.time() - t0, 2)})
        done = epoch >= settings.epochs or (
            settings.patience > 0 and epoch - best_epoch >= settings.patience)
        if better:
            Student(*best).net(init.family, dict(meta, epochs_done=epoch)).save(student_path)
        _save_state(state_path, key, student, best, history, start_error, best_epoch,
                    best_error, epoch, done)
        print(f"epoch {epoch}/{settings.epochs} ({time.time() - t0:.1f} s): training equity "
              f"error {err / n_batches:.5f}, held-out equity error {v_err:.5f}"
              f"{' (best)' if better else ''}", file=log, flush=True)
    if ran:
        print(f"best: epoch {best_epoch}, held-out equity error {best_error:.5f}", file=log,
              flush=True)
    return FitResult(Net.load(student_path), best_epoch, start_error, best_error, history)


def _save_state(path: Path, key: str, s: Student, best: list[np.ndarray],
                history: list[dict], start_error: float, best_epoch: int,
                best_error: float, epoch: int, done: bool) -> None:
    arrays = {f"p{i}": a for i, a in enumerate(s.params)}
    arrays.update({f"m{i}": a for i, a in enumerate(s.m)})
    arrays.update({f"v{i}": a for i, a in enumerate(s.v)})
    arrays.update({f"best{i}": a for i, a in enumerate(best)})
    info = {"key": key, "t": s.t, "history": history, "start_error": start_error,
            "best_epoch": best_epoch, "best_error": best_error, "epoch": epoch, "done": done}
    write_npz(path, info=np.frombuffer(json.dumps(info).encode(), np.uint8), **arrays)


def _load_state(path: Path, key: str):
    if not path.exists():
        return None
    names = tuple(f"{k}{i}" for k in ("p", "m", "v", "best") for i in range(4))
    z = read_npz(path, ("info",) + names, "the fit state", "a fit state", TrainingError)
    try:
        info = json.loads(bytes(z["info"]).decode())
    except ValueError:
        raise TrainingError(f"{path}: not a fit state file") from None
    if info.get("key") != key:
        raise TrainingError(f"{path} is the state of another fit (other labels or "
                            "settings): use another folder")
    p = [z[f"p{i}"] for i in range(4)]
    student = Student(*p, [z[f"m{i}"] for i in range(4)], [z[f"v{i}"] for i in range(4)],
                      int(info["t"]))
    return (student, [z[f"best{i}"] for i in range(4)], list(info["history"]),
            float(info["start_error"]), int(info["best_epoch"]), float(info["best_error"]),
            int(info["epoch"]), bool(info["done"]))
