"""The evaluation network: one hidden layer of sigmoid units, five sigmoid outputs.

Outputs, for the side to move: ``P(win)``, ``P(win a gammon or more)``, ``P(win a
backgammon)``, ``P(lose a gammon or more)``, ``P(lose a backgammon)``. In Plakoto a
mother-checker win counts as a gammon (2 points) and a draw as half a win. Equity follows
for the scoring in force (:func:`equity`).

Weights are float32 arrays saved as ``.npz`` (a few hundred kB at most) with their
metadata (family, hidden units, games trained).

>>> net = Net.random(0, hidden=8, seed=1)
>>> from tavli.engine.board import Position
>>> p = net.evaluate([Position.start("portes")])
>>> p.shape, bool(0 < p[0, 0] < 1)
((1, 5), True)
"""

from __future__ import annotations

import io
import json
from collections import namedtuple
from pathlib import Path

import numpy as np
from numba import njit

from tavli.ai.encode import (
    ENCODERS,
    encoder_code,
    encoder_fits,
    encoder_function,
    encoder_name,
    family_name,
    family_of,
    n_inputs,
)
from tavli.engine.movegen import HASH_SIZE, HT, MAX_STATES, REC
from tavli.errors import NetError, TavliError

N_OUT = 5
WIN, WIN_G, WIN_BG, LOSE_G, LOSE_BG = range(5)

Weights = namedtuple("Weights", "W1 b1 W2 b2 enc")
Weights.__doc__ = """A network's weights as compiled code takes them (:attr:`Net.weights`):
``W1`` float32[inputs, hidden], ``b1`` float32[hidden], ``W2`` float32[hidden, 5],
``b2`` float32[5]; the arrays themselves, so training updates the :class:`Net`; ``enc``
its encoder (:func:`tavli.ai.encode.encoder_function`: kernels call it by address, so
they compile without the encoders)."""

Scratch = namedtuple("Scratch", "x h y dh xc hc yc xb tb tgt tmp cand best acc best2 acc2 "
                     "scores st st2 buf table buf2 table2")
Scratch.__doc__ = """The work arrays of the compiled players, searches and trainers, made in
one place (:func:`make_scratch`, :meth:`Net.scratch`); kernels take them as one value.

* ``x``, ``h``, ``y``, ``dh``: a position being valued or learned: inputs, hidden units,
  outputs, the hidden layer's gradient;
* ``xc``, ``hc``, ``yc``: a candidate move's after-position (inputs, hidden, outputs);
* ``xb``, ``tb``: the best candidate's inputs (the opponent to move) and its outputs
  (the mover's view: the training target);
* ``tgt``: the outputs of a finished game;
* ``tmp``, ``cand``, ``best``, ``acc``: lookahead: the net's outputs, a candidate's
  (mover's view), the best of a roll, the sum over the rolls; ``best2``, ``acc2``: the
  same for a 1-ply search inside a 2-ply one (or inside labelling);
* ``scores`` (float64): the equities of a turn's candidates;
* ``st``, ``st2`` (int8[4, 26]): board arrays: the game's, a search's own copy;
* ``buf``, ``table``: the move generator's buffers (:class:`tavli.engine.movegen.Workspace`);
  ``buf2``, ``table2``: a second set, for a search inside a search.

Float arrays are float32 unless said; all sizes fit the networks and move buffers asked
for, so one Scratch serves any kernel."""


def make_scratch(n_in, hidden, states, hash_size):
    """A :data:`Scratch` for networks of up to ``n_in`` inputs and ``hidden`` units, its
    move-generator buffers sized like ``Workspace(states, hash_size)`` (``hash_size`` a
    power of two, at least ``2 * states``). Plain Python: the arrays are the same types
    to compiled code, and a first run saves the 0.8 s of compiling ``np.zeros`` for it.

    >>> s = make_scratch(10, 4, 8, 16)
    >>> s.x.shape, s.h.shape, s.acc.shape, s.scores.shape, s.buf.shape, s.table.shape
    ((10,), (4,), (5,), (8,), (8, 128), (40,))
    """
    f4 = np.float32
    return Scratch(
        np.zeros(n_in, f4), np.zeros(hidden, f4), np.zeros(N_OUT, f4), np.zeros(hidden, f4),
        np.zeros(n_in, f4), np.zeros(hidden, f4), np.zeros(N_OUT, f4),
        np.zeros(n_in, f4), np.zeros(N_OUT, f4),
        np.zeros(N_OUT, f4),
        np.zeros(N_OUT, f4), np.zeros(N_OUT, f4), np.zeros(N_OUT, f4), np.zeros(N_OUT, f4),
        np.zeros(N_OUT, f4), np.zeros(N_OUT, f4),
        np.zeros(states, np.float64),
        np.zeros((4, 26), np.int8), np.zeros((4, 26), np.int8),
        np.zeros((states, REC), np.int8), np.zeros(HT + hash_size + states, np.int64),
        np.zeros((states, REC), np.int8), np.zeros(HT + hash_size + states, np.int64))


@njit(cache=True, fastmath=True)
def _sigmoid(z):
    if z < -30.0:
        return 9.357622968840175e-14
    if z > 30.0:
        return 1.0 - 9.357622968840175e-14
    return 1.0 / (1.0 + np.exp(-z))


@njit(cache=True, fastmath=True)
def forward(net, x, h, y):
    """One position: the outputs of the network ``net`` (:data:`Weights`) for the inputs
    ``x``: hidden activations into ``h``, outputs into ``y`` (skips zero inputs)."""
    W1, b1, W2, b2 = net.W1, net.b1, net.W2, net.b2
    n_in = W1.shape[0]
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
def td_update(net, x, h, y, target, alpha, dh):
    """Move the outputs of ``net`` for input ``x`` (with ``h``, ``y`` from :func:`forward`)
    toward ``target`` by one gradient step of size ``alpha`` (TD(0) / supervised); ``dh``
    is work space of the hidden layer's size."""
    W1, b1, W2, b2 = net.W1, net.b1, net.W2, net.b2
    n_in = W1.shape[0]
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
def evaluate_boards(net, boards, turns, s, out):
    """Outputs of ``net`` for many flat boards (int8[N, >=104]), each for its side to
    move, with the work arrays ``s`` (:func:`make_scratch`)."""
    for k in range(boards.shape[0]):
        net.enc(boards[k], turns[k], s.x)
        forward(net, s.x, s.h, s.y)
        for q in range(N_OUT):
            out[k, q] = s.y[q]


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
        inputs = self.meta.get("inputs", family_name(self.family))
        if inputs not in ENCODERS:
            raise NetError(f"unknown network inputs {str(inputs)[:40]!r}")
        self.encoder = encoder_code(inputs)
        if not encoder_fits(self.encoder, self.family):
            raise NetError(f"the {inputs} inputs are not for {family_name(self.family)} "
                           "networks")
        if self.W1.shape[0] != n_inputs(self.encoder):
            raise NetError(f"weights have {self.W1.shape[0]} inputs, the "
                           f"{inputs} encoder {n_inputs(self.encoder)}")
        if self.W2.shape != (self.b1.shape[0], N_OUT) or self.W1.shape[1] != self.b1.shape[0]:
            raise NetError("weight shapes do not match")

    @classmethod
    def random(cls, family: int | str, hidden: int = 80, seed: int | None = None,
               inputs: str | None = None) -> Net:
        """A new network of ``family`` with small random weights (training starts here),
        reading the encoder ``inputs`` (:data:`~tavli.ai.encode.ENCODERS`; the family's
        own by default)."""
        rng = np.random.default_rng(seed)
        inputs = inputs or family_name(family_of(family))
        if inputs not in ENCODERS:
            raise NetError(f"unknown network inputs {inputs!r}: one of {', '.join(ENCODERS)}")
        code = encoder_code(inputs)
        if not encoder_fits(code, family_of(family)):
            raise NetError(f"the {inputs} inputs are not for {family_name(family_of(family))} "
                           "networks")
        n = n_inputs(code)
        return cls(family, rng.uniform(-0.1, 0.1, (n, hidden)), np.zeros(hidden),
                   rng.uniform(-0.1, 0.1, (hidden, N_OUT)), np.zeros(N_OUT),
                   {"games": 0, "inputs": inputs})

    @property
    def weights(self) -> Weights:
        """The weights as compiled code takes them (the arrays themselves, not copies)."""
        return Weights(self.W1, self.b1, self.W2, self.b2, encoder_function(self.encoder))

    def scratch(self, states: int = MAX_STATES, hash_size: int = HASH_SIZE) -> Scratch:
        """Work arrays (:data:`Scratch`) for compiled code running this network, with
        move-generator buffers of ``states`` records (``hash_size``: as for
        :class:`tavli.engine.movegen.Workspace`)."""
        if states < 1 or hash_size & (hash_size - 1) or hash_size < 2 * states:
            raise ValueError("scratch needs states >= 1 and a power-of-two hash_size of at "
                             "least 2 * states")
        return make_scratch(self.W1.shape[0], self.hidden, states, hash_size)

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
        inputs = encoder_name(self.encoder)
        extra = "" if inputs == family_name(self.family) else f", inputs={inputs!r}"
        return (f"Net({family_name(self.family)!r}, hidden={self.hidden}, "
                f"games={self.games}{extra})")

    # --- evaluation ---------------------------------------------------------------------
    def evaluate_arrays(self, boards: np.ndarray, turns: np.ndarray) -> np.ndarray:
        """Outputs for board arrays ``(N, 4, 26)`` with ``turns[k]`` to move."""
        flat = np.ascontiguousarray(boards, dtype=np.int8).reshape(len(boards), 104)
        out = np.zeros((len(boards), N_OUT), dtype=np.float32)
        evaluate_boards(self.weights, flat, np.ascontiguousarray(turns, dtype=np.int64),
                        self.scratch(1, 2), out)  # no move generation here
        return out

    def evaluate(self, positions) -> np.ndarray:
        """Outputs for :class:`tavli.engine.board.Position` objects, each for its side to move."""
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
