"""Labels on disk: a dataset folder of chunk files, compact, checksummed, meant to be
committed (``training/datasets/``) so that labelling done once is never lost.

A dataset folder holds

* ``meta.json``: what made the labels (the family, the teacher's and race net's digests,
  the bear-off databases', the labelling settings and seed: :func:`tavli.training.labels.
  run_meta`), and the format's name;
* ``chunk-00000.npy``, …: NumPy files of one structured array each, a record a position
  (:func:`record_dtype`: 24 bytes for Portes and Fevga, 30 for Plakoto):

  ``id``
      the bytes of the position's tavli position ID (base64url of them is the ID that
      ``tavli`` reads; it holds the game and the side to move:
      :func:`tavli.engine.ids.id_bytes`);
  ``kind``
      how the position was chosen (``0`` played, ``1``/``2`` the 0-ply/1-ply choice of a
      disputed turn: :data:`tavli.training.labels.KINDS`);
  ``game``
      the self-play game of the chunk it came from (to hold out whole games);
  ``targets``
      the five outputs (win, win gammon, win backgammon, lose gammon, lose backgammon) for
      the side to move, float16;

* ``SHA256SUMS``: one line a finished chunk (``sha256sum -c SHA256SUMS`` checks them).

A chunk's file depends only on the labels (NumPy's ``.npy`` format has no date in it), so
a chunk labelled again from its seed is the same file, byte for byte. The 0-ply outputs
the labeller computed beside the targets are not kept: the teacher gives them again.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> rec = np.zeros(2, record_dtype("portes"))
>>> write_chunk(folder, 0, rec)
>>> sorted(p.name for p in folder.iterdir())
['SHA256SUMS', 'chunk-00000.npy']
>>> finished(folder)
{0: 2}
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
from pathlib import Path

import numpy as np

from tavli.engine.games import find_variant
from tavli.engine.ids import boards_from_id_bytes, id_bytes
from tavli.errors import ParseError, TrainingError

FORMAT = "tavli-labels-1"
SUMS = "SHA256SUMS"


def record_dtype(family: str) -> np.dtype:
    """The record of one labelled position of ``family`` (see the module's text)."""
    width = len(id_bytes(find_variant(family), np.zeros((1, 4, 26), np.int8), [0])[0])
    return np.dtype([("id", np.uint8, (width,)), ("kind", np.uint8), ("game", "<u2"),
                     ("targets", "<f2", (5,))])


def records(family: str, boards: np.ndarray, sides: np.ndarray, kinds: np.ndarray,
            games: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """The records of labelled positions: flat boards int8[N, 104] with ``sides`` to move,
    their kinds, games (0..65535) and target outputs float[N, 5]."""
    games = np.asarray(games)
    if len(games) and (games.min() < 0 or games.max() > 0xFFFF):
        raise TrainingError("a chunk's games are numbered 0..65535: use smaller chunks")
    rec = np.zeros(len(boards), record_dtype(family))
    rec["id"] = id_bytes(find_variant(family), boards, sides)
    rec["kind"] = kinds
    rec["game"] = games
    rec["targets"] = targets
    return rec


def positions(family: str, rec: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flat boards int8[N, 104] and sides to move int8[N] of ``rec``'s positions."""
    try:
        arrays, turns = boards_from_id_bytes(find_variant(family), rec["id"])
    except ParseError as e:
        raise TrainingError(f"labels of positions that are not {family} ones: {e}") from None
    return arrays.reshape(-1, 104), turns.astype(np.int8)


def chunk_name(c: int) -> str:
    return f"chunk-{c:05d}.npy"


def chunk_index(path: Path) -> int | None:
    """The index of a chunk file's name, None for any other name."""
    stem = path.name
    if not (stem.startswith("chunk-") and stem.endswith(".npy")) or len(stem) != 15:
        return None
    digits = stem[6:11]
    return int(digits) if digits.isdigit() else None


def _encode(rec: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, rec, allow_pickle=False)
    return buf.getvalue()


def _write_atomically(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def read_sums(folder: Path) -> dict[str, str]:
    """The checksums of ``folder``'s finished chunks, by file name."""
    path = Path(folder) / SUMS
    if not path.exists():
        return {}
    sums = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        digest, sep, name = line.partition("  ")
        if not sep or len(digest) != 64 or chunk_index(Path(name)) is None:
            raise TrainingError(f"{path}, line {n}: not a 'SHA256  chunk-NNNNN.npy' line")
        sums[name] = digest
    return sums


def _write_sums(folder: Path, sums: dict[str, str]) -> None:
    text = "".join(f"{sums[name]}  {name}\n" for name in sorted(sums))
    _write_atomically(folder / SUMS, text.encode())


def write_chunk(folder: str | Path, c: int, rec: np.ndarray) -> None:
    """Write chunk ``c`` (its records) into ``folder`` and its checksum into
    ``SHA256SUMS``; the file first, so that a write cut short leaves a chunk the sums do
    not list, which a resumed run labels again."""
    folder = Path(folder)
    data = _encode(rec)
    _write_atomically(folder / chunk_name(c), data)
    sums = read_sums(folder)
    sums[chunk_name(c)] = hashlib.sha256(data).hexdigest()
    _write_sums(folder, sums)


def read_chunk(path: str | Path, family: str, sums: dict[str, str] | None = None
               ) -> np.ndarray:
    """The records of a chunk file, checked against ``sums`` (default: its folder's
    ``SHA256SUMS``): a file the sums do not list, or another than they say, is refused."""
    path = Path(path)
    sums = read_sums(path.parent) if sums is None else sums
    try:
        data = path.read_bytes()
    except OSError as e:
        raise TrainingError(f"cannot read labels {path}: {e.strerror or e}") from None
    if path.name not in sums:
        raise TrainingError(f"{path}: not listed in {SUMS} (an unfinished chunk?)")
    if hashlib.sha256(data).hexdigest() != sums[path.name]:
        raise TrainingError(f"{path}: its checksum is not the one {SUMS} lists")
    try:
        rec = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, EOFError, OSError):
        raise TrainingError(f"{path}: not a labels chunk file") from None
    if rec.dtype != record_dtype(family) or rec.ndim != 1:
        raise TrainingError(f"{path}: not a chunk of {family} labels ({FORMAT})")
    return rec


def finished(folder: str | Path) -> dict[int, int]:
    """The finished chunks of ``folder``: index -> positions (those ``SHA256SUMS`` lists
    and whose file is there; the file is not read whole)."""
    folder = Path(folder)
    out = {}
    for name in read_sums(folder):
        path = folder / name
        if path.exists():
            try:
                out[chunk_index(path)] = _rows_of(path)
            except (ValueError, OSError):
                continue  # a broken file: labelled again
    return out


def _rows_of(path: Path) -> int:
    """The number of records of a chunk file, from its header (mapped, not read)."""
    rec = np.load(path, mmap_mode="r", allow_pickle=False)
    if rec.ndim != 1:
        raise ValueError("not one record a row")
    return len(rec)
