"""Distillation: labels are the teacher's 1-ply outputs; fitting moves a student toward them."""

from __future__ import annotations

import io

import numpy as np
import pytest

from tavli.ai.net import Net, flip
from tavli.ai.search import Searcher
from tavli.ai.shipped import training_rules
from tavli.cli import main
from tavli.errors import TrainingError
from tavli.training.distill import DistillError, Labelled, fit, label


@pytest.fixture(scope="module")
def teacher() -> Net:
    return Net.random("plakoto", hidden=6, seed=3)


def _one_ply(net: Net, board: np.ndarray, side: int) -> np.ndarray:
    """1-ply outputs for ``side`` to move, by the search the players use."""
    s = Searcher(net, training_rules("plakoto"))
    out = s.outputs(board.reshape(1, 4, 26), 1 - side, 1)[0]  # the other side's view
    res = np.zeros(5, dtype=np.float32)
    flip(out, res)
    return res


@pytest.mark.parametrize("keep", [0, 3])
def test_labels_are_the_teachers_one_ply_outputs(teacher, keep):
    data = label(teacher, games=3, seed=7, keep=keep, every=0.3)
    assert data.games == 3 and data.family == "plakoto"
    n = len(data.boards)
    assert n > 10 and data.labels.shape == (n, 5) and data.sides.shape == (n,)
    for k in range(0, n, max(1, n // 6)):
        want = _one_ply(teacher, data.boards[k], int(data.sides[k]))
        np.testing.assert_allclose(data.labels[k], want, atol=2e-6)
    # the same seed labels the same positions
    again = label(teacher, games=3, seed=7, keep=keep, every=0.3)
    assert np.array_equal(again.boards, data.boards)


def test_candidates_are_the_best_after_positions_of_a_turn(teacher):
    data = label(teacher, games=1, seed=2, keep=4, every=1.0, limit=40)
    assert len(data.boards) == 40 and data.games == 1  # stopped at the limit
    # a turn's candidates come in a row, different after-positions of one roll
    first = data.boards[data.sides == data.sides[0]][:2]
    assert data.sides[1] == data.sides[0] and not np.array_equal(first[0], first[1])


def test_label_refuses_bad_settings(teacher):
    for kw in ({"games": 0}, {"every": 0.0}, {"every": float("nan")}, {"keep": -1}):
        args = {"games": 1, "seed": 1, "keep": 2, "every": 0.5} | kw
        with pytest.raises(TrainingError):
            label(teacher, **args)


def test_fit_brings_the_student_closer_to_the_labels(tmp_path, teacher):
    data = label(teacher, games=40, seed=11, keep=2, every=0.5)
    log = io.StringIO()
    student = fit(teacher, [data], hidden=10, epochs=6, out=tmp_path / "s.npz", lr=0.01,
                  log=log)
    assert student.hidden == 10 and student.games == teacher.games + 40
    assert Net.load(tmp_path / "s.npz").meta["epochs_done"] == 6
    errors = [float(line.rsplit(" ", 1)[1]) for line in log.getvalue().splitlines()
              if "held-out equity error" in line]
    assert len(errors) == 7 and errors[-1] < 0.7 * errors[0]


def test_fit_refuses_bad_settings(tmp_path, teacher):
    data = label(teacher, games=2, seed=1, keep=2, every=0.5)
    for kw in ({"hidden": 0}, {"epochs": 0}, {"lr": 1.5}):
        args = {"hidden": 4, "epochs": 1} | kw
        with pytest.raises(TrainingError):
            fit(teacher, [data], out=tmp_path / "s.npz", **args)
    assert not (tmp_path / "s.npz").exists()


def test_fit_refuses_labels_of_another_family(tmp_path, teacher):
    data = label(teacher, games=2, seed=1, keep=1, every=1.0)
    other = Net.random("fevga", hidden=4, seed=1)
    with pytest.raises(DistillError, match="plakoto positions for a fevga network"):
        fit(other, [data], hidden=4, epochs=1, out=tmp_path / "s.npz")


def test_distill_commands(tmp_path, teacher, capsys):
    t = tmp_path / "t.npz"
    teacher.save(t)
    lab = tmp_path / "l.npz"
    assert main(["distill", "label", str(t), str(lab), "--games", "30", "--seed", "4",
                 "--keep", "2", "--every", "0.5"]) == 0
    assert "positions from 30 games" in capsys.readouterr().out
    assert len(Labelled.load(lab).boards) > 500
    out = tmp_path / "s.npz"
    assert main(["distill", "fit", str(t), str(out), str(lab), "--hidden", "8",
                 "--epochs", "2"]) == 0
    assert Net.load(out).hidden == 8
    before = out.read_bytes()
    # an existing file is never replaced; bad files and settings are refused
    assert main(["distill", "fit", str(t), str(out), str(lab), "--epochs", "1"]) != 0
    assert "exists" in capsys.readouterr().err
    assert out.read_bytes() == before
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    assert main(["distill", "fit", str(t), str(tmp_path / "s2.npz"), str(junk)]) != 0
    assert f"{junk}: not a tavli labels file" in capsys.readouterr().err
    assert main(["distill", "label", str(junk), str(tmp_path / "l2.npz"), "--games", "1",
                 "--seed", "1"]) != 0
    assert f"{junk}: not a tavli network file" in capsys.readouterr().err
    assert main(["distill", "label", str(t), str(tmp_path / "l3.npz"), "--games", "1",
                 "--seed", "1", "--every", "2"]) != 0
    assert "every" in capsys.readouterr().err
    assert not (tmp_path / "s2.npz").exists() and not (tmp_path / "l3.npz").exists()
