"""The evaluation network: one hidden layer of sigmoid units, five sigmoid outputs.

Outputs, for the side to move: ``P(win)``, ``P(win a gammon or more)``, ``P(win a
backgammon)``, ``P(lose a gammon or more)``, ``P(lose a backgammon)``. In Plakoto a
mother-checker win counts as a gammon (2 points) and a draw as half a win. Equity follows
for the scoring in force (:func:`equity`).

Weights are float32 arrays saved as ``.npz`` (a few hundred kB at most) with their
metadata (family, hidden units, games trained).

>>> net = Net.random(0, hidden=8, seed=1)
>>> from tavli.board import Position
>>> p = net.evaluate([Position.start("portes")])
>>> p.shape, bool(0 < p[0, 0] < 1)
((1, 5), True)
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
from numba import njit

from ..errors import TavliError
from .encode import encode, family_name, family_of, n_inputs

N_OUT = 5
WIN, WIN_G, WIN_BG, LOSE_G, LOSE_BG = range(5)


@njit(cache=True, fastmath=True)
def _sigmoid(z):
    if z < -30.0:
        return 9.357622968840175e-14
    if z > 30.0:
        return 1.0 - 9.357622968840175e-14
    return 1.0 / (1.0 + np.exp(-z))


@njit(cache=True, fastmath=True)
def forward(W1, b1, W2, b2, x, n_in, h, y):
    """One position: hidden activations into ``h``, outputs into ``y`` (skips zero inputs)."""
    H = b1.shape[0]
    for j in range(H):
        h[j] = b1[j]
    for i in range(n_in):
        v = x[i]
        if v != 0.0:
            for j in range(H):
                h[j] += W1[i, j] * v
    for j in range(H):
        h[j] = _sigmoid(h[j])
    for k in range(N_OUT):
        z = b2[k]
        for j in range(H):
            z += W2[j, k] * h[j]
        y[k] = _sigmoid(z)


@njit(cache=True, fastmath=True)
def td_update(W1, b1, W2, b2, x, n_in, h, y, target, alpha, dh):
    """Move the outputs for input ``x`` (with ``h``, ``y`` from :func:`forward`) toward
    ``target`` by one gradient step of size ``alpha`` (TD(0) / supervised)."""
    H = b1.shape[0]
    for j in range(H):
        dh[j] = 0.0
    for k in range(N_OUT):
        d = (target[k] - y[k]) * y[k] * (1.0 - y[k])
        for j in range(H):
            dh[j] += W2[j, k] * d
            W2[j, k] += alpha * d * h[j]
        b2[k] += alpha * d
    for j in range(H):
        dh[j] *= h[j] * (1.0 - h[j]) * alpha
        b1[j] += dh[j]
    for i in range(n_in):
        v = x[i]
        if v != 0.0:
            for j in range(H):
                W1[i, j] += dh[j] * v


@njit(cache=True)
def flip(y, out):
    """Outputs seen by the other side."""
    out[WIN] = 1.0 - y[WIN]
    out[WIN_G] = y[LOSE_G]
    out[WIN_BG] = y[LOSE_BG]
    out[LOSE_G] = y[WIN_G]
    out[LOSE_BG] = y[WIN_BG]


@njit(cache=True)
def money_equity(y, count_bg):
    """Cubeless money equity of the outputs (for the side they belong to)."""
    e = 2.0 * y[WIN] - 1.0 + y[WIN_G] - y[LOSE_G]
    if count_bg:
        e += y[WIN_BG] - y[LOSE_BG]
    return e


@njit(cache=True)
def evaluate_boards(W1, b1, W2, b2, boards, turns, family, out):
    """Outputs for many flat boards (int8[N, >=104]), each for its side to move."""
    n_in = W1.shape[0]
    x = np.zeros(n_in, dtype=np.float32)
    h = np.zeros(b1.shape[0], dtype=np.float32)
    y = np.zeros(N_OUT, dtype=np.float32)
    for k in range(boards.shape[0]):
        encode(boards[k], turns[k], family, x)
        forward(W1, b1, W2, b2, x, n_in, h, y)
        for q in range(N_OUT):
            out[k, q] = y[q]


class NetError(TavliError):
    """A weights file that cannot be read or does not fit."""


class Net:
    """Weights of one family's network and helpers to evaluate positions."""

    def __init__(self, family: int, W1: np.ndarray, b1: np.ndarray, W2: np.ndarray,
                 b2: np.ndarray, meta: dict | None = None) -> None:
        self.family = family_of(family)
        self.W1 = np.ascontiguousarray(W1, dtype=np.float32)
        self.b1 = np.ascontiguousarray(b1, dtype=np.float32)
        self.W2 = np.ascontiguousarray(W2, dtype=np.float32)
        self.b2 = np.ascontiguousarray(b2, dtype=np.float32)
        self.meta = dict(meta or {})
        if self.W1.shape[0] != n_inputs(self.family):
            raise NetError(f"weights have {self.W1.shape[0]} inputs, the "
                           f"{family_name(self.family)} encoder {n_inputs(self.family)}")
        if self.W2.shape != (self.b1.shape[0], N_OUT) or self.W1.shape[1] != self.b1.shape[0]:
            raise NetError("weight shapes do not match")

    @classmethod
    def random(cls, family: int, hidden: int = 80, seed: int | None = None) -> Net:
        """A new network of ``family`` with small random weights (training starts here)."""
        rng = np.random.default_rng(seed)
        n = n_inputs(family_of(family))
        return cls(family, rng.uniform(-0.1, 0.1, (n, hidden)), np.zeros(hidden),
                   rng.uniform(-0.1, 0.1, (hidden, N_OUT)), np.zeros(N_OUT),
                   {"games": 0})

    @property
    def hidden(self) -> int:
        """The number of hidden units."""
        return int(self.b1.shape[0])

    @property
    def games(self) -> int:
        """The self-play games it was trained on (its metadata's count)."""
        return int(self.meta.get("games", 0))

    def copy(self) -> Net:
        """An independent copy (weights and metadata)."""
        return Net(self.family, self.W1.copy(), self.b1.copy(), self.W2.copy(),
                   self.b2.copy(), dict(self.meta))

    def __repr__(self) -> str:
        return (f"Net({family_name(self.family)!r}, hidden={self.hidden}, "
                f"games={self.games})")

    # --- evaluation ---------------------------------------------------------------------
    def evaluate_arrays(self, boards: np.ndarray, turns: np.ndarray) -> np.ndarray:
        """Outputs for board arrays ``(N, 4, 26)`` with ``turns[k]`` to move."""
        flat = np.ascontiguousarray(boards, dtype=np.int8).reshape(len(boards), 104)
        out = np.zeros((len(boards), N_OUT), dtype=np.float32)
        evaluate_boards(self.W1, self.b1, self.W2, self.b2, flat,
                        np.ascontiguousarray(turns, dtype=np.int64), self.family, out)
        return out

    def evaluate(self, positions) -> np.ndarray:
        """Outputs for :class:`tavli.board.Position` objects, each for its side to move."""
        boards = np.stack([p.array for p in positions])
        return self.evaluate_arrays(boards, np.array([p.turn for p in positions]))

    # --- files --------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the weights (atomically) as .npz with metadata."""
        meta = dict(self.meta, family=family_name(self.family), hidden=self.hidden)
        write_npz(path, W1=self.W1, b1=self.b1, W2=self.W2, b2=self.b2,
                  meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8))

    @classmethod
    def load(cls, path: str | Path) -> Net:
        """The network saved in ``path`` (:meth:`save`); :class:`NetError` for a file that
        cannot be read or is not a tavli network."""
        z = read_npz(path, ("meta", "W1", "b1", "W2", "b2"), "network weights",
                     "a tavli network", NetError)
        try:
            meta = json.loads(bytes(z["meta"]).decode())
            return cls(family_of(meta["family"]), z["W1"], z["b1"], z["W2"], z["b2"], meta)
        except (ValueError, KeyError, TypeError):  # JSON, UTF-8, family, arrays of text
            raise NetError(f"{path}: not a tavli network file") from None


def read_npz(path: str | Path, keys: tuple[str, ...], what: str, kind: str,
             error: type[TavliError]) -> dict[str, np.ndarray]:
    """The arrays ``keys`` of the .npz file ``path``, read into memory. Raises ``error``:
    ``cannot read WHAT PATH: reason`` when the file cannot be opened, ``PATH: not KIND
    file`` when it is not such a file (another format, keys missing; never unpickled)."""
    import zipfile

    try:
        z = np.load(path, allow_pickle=False)
    except OSError as e:
        raise error(f"cannot read {what} {path}: {e.strerror or e}") from None
    except (ValueError, EOFError, zipfile.BadZipFile):  # text, truncated, a broken zip
        raise error(f"{path}: not {kind} file") from None
    if not isinstance(z, np.lib.npyio.NpzFile):  # a single .npy array
        raise error(f"{path}: not {kind} file")
    with z:
        try:
            return {k: z[k] for k in keys}
        except (KeyError, ValueError, OSError, EOFError, zipfile.BadZipFile):
            raise error(f"{path}: not {kind} file") from None


def write_npz(path: str | Path, **arrays) -> None:
    """Write ``arrays`` as a compressed .npz file, atomically (a temporary file renamed)."""
    import os
    import tempfile

    path = Path(path)
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    with os.fdopen(fd, "wb") as f:
        f.write(buf.getvalue())
    os.replace(tmp, path)


def equity(y: np.ndarray, count_bg: bool = True) -> np.ndarray | float:
    """Cubeless money equity of outputs ``y`` (one row or many)."""
    y = np.asarray(y, dtype=np.float64)
    e = 2 * y[..., WIN] - 1 + y[..., WIN_G] - y[..., LOSE_G]
    if count_bg:
        e = e + y[..., WIN_BG] - y[..., LOSE_BG]
    return e
