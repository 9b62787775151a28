"""Labels datasets: the compact chunk files, their checksums, a run that resumes from a
dataset folder, and the committed Portes 2-ply dataset itself (its teacher, its sums, and
chunks that labelling again from the seed gives byte for byte)."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from tavli.ai.evaluator import Evaluator, position_class
from tavli.ai.net import Net
from tavli.ai.shipped import family_race_net
from tavli.cli import main
from tavli.engine.board import Position
from tavli.engine.games import find_variant
from tavli.engine.ids import boards_from_id_bytes, id_bytes
from tavli.errors import ParseError, TrainingError
from tavli.training import dataset
from tavli.training.labels import (
    Chunk,
    LabelSettings,
    chunk_seed,
    label_chunk,
    label_run,
    load_chunks,
    run_meta,
)

ROOT = Path(__file__).resolve().parent.parent
PORTES_2PLY = ROOT / "training" / "datasets" / "portes-2ply"
TEACHER = ROOT / "training" / "portes-3.npz"  # the dataset's teacher, shipped when it began
QUICK = LabelSettings(targets="ply1", every=0.3, screen=0.3, chunk=50, seed=3)


def _random_positions(game: str, n: int, seed: int) -> list[Position]:
    """Positions of random play, games begun again when one ends."""
    rng = random.Random(seed)
    out, pos = [], Position.start(game)
    while len(out) < n:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        moves = pos.legal_moves(dice)
        pos = pos.play(rng.choice(moves), dice) if moves else pos.swap_turn()
        if pos.is_finished():
            pos = Position.start(game, turn=rng.randint(0, 1))
        out.append(pos)
    return out


@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga", "backgammon"])
def test_id_bytes_are_the_position_ids_and_read_back(game):
    positions = _random_positions(game, 300, seed=len(game))
    v = find_variant(game)
    arrays = np.stack([p.array for p in positions])
    turns = np.array([p.turn for p in positions])
    data = id_bytes(v, arrays, turns)
    assert data.shape == (300, 17 if v.pins else 11)
    for row, p in zip(data, positions, strict=True):
        assert base64.urlsafe_b64encode(row.tobytes()).decode().rstrip("=") == p.id()
    back, sides = boards_from_id_bytes(v, data)
    assert np.array_equal(back, arrays) and np.array_equal(sides, turns)
    if v.pins:
        assert arrays[:, 2:].any()  # some pins were written and read back


def test_rows_that_are_not_canonical_ids_are_refused():
    v = find_variant("portes")
    good = id_bytes(v, Position.start("portes").array[None], [0])
    sixteen = np.packbits([1] * 16 + [0] * 64, bitorder="little")
    for bad, what in ((np.full((1, 11), 255, np.uint8), "ends before"),
                      (np.concatenate([[0], sixteen])[None], "more than 15"),
                      (good[:, :10], "11 bytes")):
        with pytest.raises(ParseError, match=what):
            boards_from_id_bytes(v, bad)
    wrong_game = good.copy()
    wrong_game[0, 0] = find_variant("fevga").code << 1
    with pytest.raises(ParseError, match="canonical"):
        boards_from_id_bytes(v, wrong_game)


def test_a_record_is_24_bytes_and_30_for_plakoto():
    assert dataset.record_dtype("portes").itemsize == 24
    assert dataset.record_dtype("fevga").itemsize == 24
    assert dataset.record_dtype("plakoto").itemsize == 30


@pytest.fixture(scope="module")
def tiny() -> Evaluator:
    return Evaluator(Net.random("portes", hidden=6, seed=3))


def test_a_chunk_written_and_read_is_the_chunk(tmp_path, tiny):
    c = label_chunk(tiny, QUICK, 2, 50)
    c.save(tmp_path)
    back = Chunk.load(tmp_path / "chunk-00002.npy", "portes")
    for k in Chunk.FIELDS:
        assert np.array_equal(np.asarray(getattr(back, k)), np.asarray(getattr(c, k))), k
    assert c.labels.dtype == np.float32
    assert np.array_equal(c.labels, c.labels.astype(np.float16).astype(np.float32))
    # the same chunk labelled again is the same file
    data = (tmp_path / "chunk-00002.npy").read_bytes()
    (tmp_path / "again").mkdir()
    label_chunk(tiny, QUICK, 2, 50).save(tmp_path / "again")
    assert (tmp_path / "again" / "chunk-00002.npy").read_bytes() == data
    # the sums file is sha256sum's own format
    line = (tmp_path / "SHA256SUMS").read_text()
    assert line == f"{hashlib.sha256(data).hexdigest()}  chunk-00002.npy\n"


def test_a_damaged_or_unlisted_chunk_is_refused_and_labelled_again(tmp_path, tiny):
    folder = tmp_path / "d"
    files = label_run(tiny, QUICK, 150, folder, compute=1, log=io.StringIO())
    first = [p.read_bytes() for p in files]
    broken = bytearray(first[1])
    broken[-3] ^= 1
    files[1].write_bytes(bytes(broken))
    with pytest.raises(TrainingError, match="checksum"):
        load_chunks(files, "portes")
    with pytest.raises(TrainingError, match="not a chunk of plakoto labels"):
        Chunk.load(files[0], "plakoto")
    # a chunk its sums do not list (a write cut short) is labelled again on resume
    sums = dataset.read_sums(folder)
    del sums["chunk-00002.npy"]
    dataset._write_sums(folder, sums)
    files[1].write_bytes(first[1])
    with pytest.raises(TrainingError, match="not listed"):
        load_chunks(files, "portes")
    log = io.StringIO()
    label_run(tiny, QUICK, 150, folder, compute=1, log=log)
    assert "2 of 3 chunks already labelled" in log.getvalue()
    assert [p.read_bytes() for p in files] == first
    (folder / "SHA256SUMS").write_text("not a sums line\n")
    with pytest.raises(TrainingError, match="SHA256SUMS, line 1"):
        load_chunks(files, "portes")


def _round(run: Path, start: Path, labels: Path, positions: int) -> list[str]:
    return ["train-round", "portes", "--from", str(start), "--run", str(run),
            "--labels", str(labels), "--positions", str(positions), "--targets", "ply1",
            "--chunk", "60", "--jobs", "1", "--epochs", "1", "--batch", "32", "--games",
            "20", "--z", "0", "--seed", "4"]


def test_a_round_resumes_from_a_dataset_folder_on_another_machine(tmp_path, capsys):
    """Labels kept in a dataset folder (one that is committed) survive the run folder: a
    new run elsewhere, given the folder, labels only what is missing, byte for byte."""
    start = tmp_path / "start.npz"
    shutil.copyfile(TEACHER, start)
    data = tmp_path / "repo" / "training" / "datasets" / "tiny"
    assert main(_round(tmp_path / "run", start, data, 120)) == 0
    assert sorted(p.name for p in data.iterdir()) == [
        "SHA256SUMS", "chunk-00000.npy", "chunk-00001.npy", "meta.json"]
    state = json.loads((tmp_path / "run" / "rounds.json").read_text())
    assert (tmp_path / "run" / state["rounds"][0]["labels"]).resolve() == data.resolve()
    assert not (tmp_path / "run" / "round-1" / "labels").exists()
    made = {p.name: p.read_bytes() for p in data.iterdir()}
    # another machine: a clone of the dataset, no run folder; one more chunk asked for
    clone = tmp_path / "clone" / "tiny"
    shutil.copytree(data, clone)
    capsys.readouterr()
    assert main(_round(tmp_path / "run2", start, clone, 180)) == 0
    out = capsys.readouterr().out
    assert "2 of 3 chunks already labelled" in out and "chunk 2:" in out
    assert "chunk 0:" not in out and "chunk 1:" not in out
    for name, content in made.items():
        if name != "SHA256SUMS":
            assert (clone / name).read_bytes() == content, name
    # the whole run from scratch gives the same three chunks
    assert main(_round(tmp_path / "run3", start, tmp_path / "fresh", 180)) == 0
    for name in ("chunk-00000.npy", "chunk-00001.npy", "chunk-00002.npy", "SHA256SUMS"):
        assert (clone / name).read_bytes() == (tmp_path / "fresh" / name).read_bytes()
    # an unfinished round resumed with another dataset folder is refused
    path = tmp_path / "run" / "rounds.json"
    cut = json.loads(path.read_text())
    cut["rounds"][0] = {k: cut["rounds"][0][k] for k in ("round", "teacher", "labels")}
    path.write_text(json.dumps(cut))
    assert main(_round(tmp_path / "run", start, tmp_path / "other", 120)) == 2
    assert "give the same --labels as before" in capsys.readouterr().err


# --- the committed dataset -------------------------------------------------------------

@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads((PORTES_2PLY / "meta.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def portes3() -> Evaluator:
    return Evaluator(Net.load(TEACHER), family_race_net("portes"))


def test_the_committed_dataset_is_its_teachers_and_whole(committed, portes3):
    ev = portes3
    settings = LabelSettings(**{k: committed[k] for k in (
        "targets", "cls", "every", "screen", "trials", "depth", "luck", "chunk", "seed")})
    assert settings.seed == chunk_seed(2, 1001)  # train-round --seed 2, round 1
    assert run_meta(ev, settings) == committed
    sums = dataset.read_sums(PORTES_2PLY)
    names = sorted(p.name for p in PORTES_2PLY.glob("chunk-*.npy"))
    assert names == sorted(sums) and len(names) >= 500
    assert names == [dataset.chunk_name(c) for c in range(len(names))]  # no gap
    for name in names:
        data = (PORTES_2PLY / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == sums[name], name
        assert len(data) == 192 + 24 * 1000  # the header, 1,000 records


def test_committed_chunks_are_labelled_again_byte_for_byte(committed, portes3):
    """The first positions of a few committed chunks, labelled again from their seed with
    their teacher at 2-ply, are the same records (a chunk's stream does not depend on its
    size, so its first rows are a shorter chunk)."""
    ev = portes3
    settings = LabelSettings(**{k: committed[k] for k in (
        "targets", "cls", "every", "screen", "trials", "depth", "luck", "chunk", "seed")})
    last = len(dataset.read_sums(PORTES_2PLY)) - 1
    for c in (0, last):
        rec = dataset.read_chunk(PORTES_2PLY / dataset.chunk_name(c), "portes")
        again = label_chunk(ev, settings, c, 6)
        assert again.records().tobytes() == rec[:6].tobytes(), c
        boards, _ = dataset.positions("portes", rec[:50])
        assert {position_class(b, 0) for b in boards} == {0}  # contact
