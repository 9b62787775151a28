"""Copy labels chunks of the format before the dataset folders (``chunk-NNNNN.npz`` of
``tavli train-round`` up to 8849733: float32 targets, the 0-ply outputs, whole boards)
into a dataset folder (:mod:`tavli.training.dataset`), checking each on the way.

    python training/import_npz_labels.py OLD_LABELS_FOLDER DATASET_FOLDER

The old folder's ``meta.json`` becomes the dataset's (with the format's name); a chunk
already in the dataset is left as it is. Every chunk must be complete (1,000 positions,
or whatever ``meta.json``'s chunk size says) and hold the positions its index's seed
gives (only the records are compared here; `tavli train-round` relabels nothing the
dataset holds).
"""

import json
import sys
from pathlib import Path

import numpy as np

from tavli.ai.net import read_npz
from tavli.training import dataset
from tavli.training.labels import Chunk

OLD_FIELDS = ("boards", "sides", "labels", "kinds", "games_of", "index", "family")


def old_chunk(path: Path) -> Chunk:
    z = read_npz(path, OLD_FIELDS, "labels", "an old labels chunk", OSError)
    c = Chunk(np.asarray(z["boards"], np.int8), np.asarray(z["sides"], np.int8),
              np.asarray(z["labels"], np.float32), np.asarray(z["kinds"], np.int8),
              np.asarray(z["games_of"], np.int32), int(z["index"]), str(z["family"]))
    if c.index != int(path.stem.split("-")[1]):
        raise SystemExit(f"{path}: holds chunk {c.index}")
    return c


def main(old: Path, new: Path) -> None:
    meta = json.loads((old / "meta.json").read_text(encoding="utf-8"))
    meta["format"] = dataset.FORMAT
    new.mkdir(parents=True, exist_ok=True)
    meta_path = new / "meta.json"
    if meta_path.exists() and json.loads(meta_path.read_text(encoding="utf-8")) != meta:
        raise SystemExit(f"{new} holds labels of another run")
    meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    have = dataset.finished(new)
    added = 0
    for path in sorted(old.glob("chunk-*.npz")):
        c = old_chunk(path)
        if c.index in have:
            continue
        if len(c.boards) != meta["chunk"]:
            print(f"{path.name}: {len(c.boards)} positions, not {meta['chunk']}: left out")
            continue
        c.save(new)
        back = Chunk.load(new / dataset.chunk_name(c.index), c.family)
        assert np.array_equal(back.boards, c.boards) and np.array_equal(back.sides, c.sides)
        assert np.array_equal(back.labels, c.labels.astype(np.float16).astype(np.float32))
        added += 1
    print(f"{added} chunks added; {len(dataset.finished(new))} in {new}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
