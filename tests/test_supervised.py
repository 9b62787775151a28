"""Supervised rounds: deeper labels of one class in resumable chunks, the fitter, the
round command."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from tavli.ai.evaluator import C_CONTACT, C_RACE, Evaluator, position_class
from tavli.ai.net import Net, flip
from tavli.ai.search import Searcher
from tavli.ai.shipped import shipped_net, training_rules
from tavli.cli import main
from tavli.errors import TrainingError
from tavli.training import labels as lab
from tavli.training.distill import encoded
from tavli.training.fitting import FitSettings, Student, fit_labels
from tavli.training.labels import Chunk, LabelSettings, label_chunk, label_run, load_chunks

QUICK = LabelSettings(targets="ply1", every=0.3, screen=0.3, chunk=100, seed=3)


@pytest.fixture(scope="module")
def teacher() -> Net:
    return Net.random("portes", hidden=6, seed=3)


def _searched(net: Net, board: np.ndarray, side: int, ply: int) -> np.ndarray:
    """``ply`` outputs for ``side`` to move, by the search the players use."""
    s = Searcher(net, training_rules("portes"))
    out = s.outputs(board.reshape(1, 4, 26), 1 - side, ply)[0]  # the other side's view
    res = np.zeros(5, dtype=np.float32)
    flip(out, res)
    return res


def test_labels_are_the_evaluators_two_ply_outputs_of_contact_positions(teacher):
    c = label_chunk(Evaluator(teacher), LabelSettings(every=0.3, screen=0.5), 0, 12)
    assert c.boards.shape == (12, 104) and c.games >= 1
    assert all(position_class(b, 0) == C_CONTACT for b in c.boards)
    assert set(c.kinds.tolist()) == {lab.K_PLAYED, lab.K_CHOICE0, lab.K_CHOICE1}
    for k in (0, 5, 11):  # float16 targets: within half a step of float16 of 1
        np.testing.assert_allclose(c.labels[k], _searched(teacher, c.boards[k],
                                                          int(c.sides[k]), 2), atol=2.5e-4)
    # disputed turns come as pairs: the 0-ply choice, then the 1-ply one, of one turn
    i = int(np.flatnonzero(c.kinds == lab.K_CHOICE0)[0])
    if i + 1 < len(c.kinds):
        assert c.kinds[i + 1] == lab.K_CHOICE1 and c.sides[i] == c.sides[i + 1]
        assert not np.array_equal(c.boards[i], c.boards[i + 1])


def test_a_one_turn_rollout_over_the_36_rolls_is_the_one_ply_value(teacher):
    """One turn played over the 36 first rolls averages what 1-ply averages; with the luck
    taken out, one trial alone is the 1-ply value."""
    ev = Evaluator(teacher)
    for trials, luck in ((36, False), (1, True)):
        c = label_chunk(ev, LabelSettings(**{**QUICK.__dict__, "targets": "rollout",
                                             "trials": trials, "depth": 1, "luck": luck}),
                        0, 30)
        for k in range(0, 30, 6):
            np.testing.assert_allclose(c.labels[k], _searched(teacher, c.boards[k],
                                                              int(c.sides[k]), 1), atol=2.5e-4)
    one = label_chunk(ev, QUICK, 0, 40)
    deeper = label_chunk(ev, LabelSettings(**{**QUICK.__dict__, "targets": "rollout",
                                              "trials": 6, "depth": 4}), 0, 40)
    assert ((deeper.labels >= 0) & (deeper.labels <= 1)).all()
    assert not np.allclose(deeper.labels[:5], one.labels[:5], atol=1e-3)


@pytest.mark.parametrize("cls, code", [("contact", C_CONTACT), ("race", C_RACE)])
def test_restriction_to_a_class_keeps_only_that_class(teacher, cls, code):
    s = LabelSettings(targets="ply1", cls=cls, every=1.0 if cls == "race" else 0.3,
                      screen=0.3, seed=5)
    c = label_chunk(Evaluator(teacher), s, 0, 60)
    assert len(c.boards) == 60
    assert all(position_class(b, 0) == code for b in c.boards)
    anyc = label_chunk(Evaluator(teacher), LabelSettings(**{**s.__dict__, "cls": "any"}),
                       0, 300)
    assert len({position_class(b, 0) for b in anyc.boards}) > 1


def _chunks(folder) -> list[Chunk]:
    return [Chunk.load(p, "portes") for p in sorted(folder.glob("chunk-*.npy"))]


def _same(a: list[Chunk], b: list[Chunk]) -> bool:
    return len(a) == len(b) and all(
        np.array_equal(getattr(x, k), getattr(y, k))
        for x, y in zip(a, b, strict=True) for k in Chunk.FIELDS)


def test_labels_do_not_depend_on_the_number_of_processes(tmp_path, teacher):
    ev = Evaluator(teacher)
    log = io.StringIO()
    files = label_run(ev, QUICK, 250, tmp_path / "one", compute=1, log=log)
    assert [p.name for p in files] == ["chunk-00000.npy", "chunk-00001.npy",
                                       "chunk-00002.npy"]
    label_run(ev, QUICK, 250, tmp_path / "two", compute=2, log=log)
    one, two = _chunks(tmp_path / "one"), _chunks(tmp_path / "two")
    assert [len(c.boards) for c in one] == [100, 100, 50]
    assert _same(one, two)


def test_an_interrupted_labelling_resumes_to_the_same_labels(tmp_path, teacher, monkeypatch):
    ev = Evaluator(teacher)
    label_run(ev, QUICK, 250, tmp_path / "whole", compute=1, log=io.StringIO())
    save = Chunk.save
    calls = []

    def save_then_stop(self, folder):
        calls.append(folder)
        if len(calls) == 2:
            (folder / ".tmp-cut").write_bytes(b"half a file")
            raise KeyboardInterrupt
        save(self, folder)

    monkeypatch.setattr(Chunk, "save", save_then_stop)
    with pytest.raises(KeyboardInterrupt):
        label_run(ev, QUICK, 250, tmp_path / "cut", compute=1, log=io.StringIO())
    assert [p.name for p in (tmp_path / "cut").glob("chunk-*")] == ["chunk-00000.npy"]
    monkeypatch.setattr(Chunk, "save", save)
    log = io.StringIO()
    label_run(ev, QUICK, 250, tmp_path / "cut", compute=1, log=log)
    assert "1 of 3 chunks already labelled" in log.getvalue()
    assert "chunk 0:" not in log.getvalue()  # not labelled again
    assert not list((tmp_path / "cut").glob(".tmp-*"))
    assert _same(_chunks(tmp_path / "whole"), _chunks(tmp_path / "cut"))
    # the total may change on a rerun: chunks are the same but for the last one's size
    assert len(label_run(ev, QUICK, 200, tmp_path / "cut", compute=1, log=io.StringIO())) == 2
    last = Chunk.load(tmp_path / "cut" / "chunk-00002.npy", "portes")
    label_run(ev, QUICK, 300, tmp_path / "cut", compute=1, log=io.StringIO())
    longer = Chunk.load(tmp_path / "cut" / "chunk-00002.npy", "portes")
    assert len(last.boards) == 50 and len(longer.boards) == 100
    assert np.array_equal(longer.labels[:50], last.labels)
    assert _same(_chunks(tmp_path / "whole")[:2], _chunks(tmp_path / "cut")[:2])
    # another teacher or other settings do not mix into a folder
    with pytest.raises(TrainingError, match="labels of another run .*differing: every"):
        label_run(ev, LabelSettings(**{**QUICK.__dict__, "every": 0.5}), 250,
                  tmp_path / "cut", compute=1)


@pytest.fixture(scope="module")
def labelled(tmp_path_factory, teacher):
    """1,600 contact positions labelled by the teacher's 1-ply, encoded for it."""
    folder = tmp_path_factory.mktemp("labels")
    files = label_run(Evaluator(teacher), LabelSettings(targets="ply1", every=0.5,
                                                        screen=0.0, chunk=800), 1600,
                      folder, compute=1, log=io.StringIO())
    data = load_chunks(files, "portes")
    return encoded(teacher, data.boards, data.sides), data.labels, data.games_of


def test_a_few_epochs_lower_a_tiny_nets_error(tmp_path, labelled):
    X, T, groups = labelled
    student = Net.random("portes", hidden=8, seed=9)  # far from the teacher's labels
    log = io.StringIO()
    settings = FitSettings(epochs=4, patience=0, lr=0.003, batch=64)
    res = fit_labels(student, X, T, groups, tmp_path, settings, log=log)
    errors = [h["held_out"] for h in res.history]
    assert len(errors) == 4 and res.best_error < 0.5 * res.start_error
    assert errors[-1] < errors[0] and res.history[-1]["train"] < res.history[0]["train"]
    assert res.best_epoch == int(np.argmin(errors)) + 1
    assert Net.load(tmp_path / "student.npz").meta["epochs_done"] == res.best_epoch
    assert "held-out equity error" in log.getvalue()
    # whole games are held out: no game lends positions to both sides
    from tavli.training.fitting import holdout_mask

    val = holdout_mask(groups, settings.holdout, settings.max_holdout, settings.seed)
    assert 0.05 < val.mean() < 0.2
    assert not set(groups[val].tolist()) & set(groups[~val].tolist())


def test_a_fit_resumes_after_each_epoch_and_stops_early(tmp_path, labelled):
    X, T, groups = labelled
    start = Net.random("portes", hidden=8, seed=9)
    settings = FitSettings(epochs=5, patience=0, lr=0.01, batch=64)
    whole = fit_labels(start, X, T, groups, tmp_path / "whole", settings, log=io.StringIO())
    # stop after 2 epochs (a cut), then resume: the same weights as without the cut
    import tavli.training.fitting as fitting

    real = fitting._save_state
    saved = []

    def save_and_cut(*a):
        real(*a)
        saved.append(1)
        if len(saved) == 2:
            raise KeyboardInterrupt

    fitting._save_state = save_and_cut
    try:
        with pytest.raises(KeyboardInterrupt):
            fit_labels(start, X, T, groups, tmp_path / "cut", settings, log=io.StringIO())
    finally:
        fitting._save_state = real
    log = io.StringIO()
    again = fit_labels(start, X, T, groups, tmp_path / "cut", settings, log=log)
    assert "resuming after epoch 2" in log.getvalue()
    assert [h["held_out"] for h in again.history] == [h["held_out"] for h in whole.history]
    assert np.array_equal(again.net.W1, whole.net.W1)
    log = io.StringIO()
    fit_labels(start, X, T, groups, tmp_path / "cut", settings, log=log)
    assert "finished after epoch 5" in log.getvalue()
    with pytest.raises(TrainingError, match="state of another fit"):
        fit_labels(start, X, T * 0.5, groups, tmp_path / "cut", settings, log=io.StringIO())
    # early stopping: targets the start already meets cannot be bettered: it stops after
    # `patience` epochs and the result is the starting net
    own = Student(start.W1, start.b1, start.W2, start.b2).outputs(X)
    res = fit_labels(start, X, own, groups, tmp_path / "early",
                     FitSettings(epochs=20, patience=2, lr=0.01, batch=64), log=io.StringIO())
    assert res.best_epoch == 0 and len(res.history) == 2 and res.start_error < 1e-6
    assert np.array_equal(res.net.W1, start.W1)


def test_fit_and_label_refuse_bad_settings(tmp_path, labelled, teacher):
    X, T, groups = labelled
    for kw in ({"epochs": 0}, {"lr": 2.0}, {"patience": -1}, {"holdout": 1.0}):
        with pytest.raises(TrainingError):
            fit_labels(teacher, X, T, groups, tmp_path, FitSettings(**kw))
    with pytest.raises(TrainingError, match="too few"):
        fit_labels(teacher, X[:50], T[:50], groups[:50], tmp_path, FitSettings(batch=512))
    with pytest.raises(TrainingError, match="inputs"):
        fit_labels(teacher, X[:, :10], T, groups, tmp_path)
    for kw in ({"targets": "ply3"}, {"cls": "midgame"}, {"every": 1.5},
               {"every": 0.0, "screen": 0.0}, {"chunk": 0}, {"trials": 0}, {"depth": -1}):
        with pytest.raises(TrainingError):
            label_chunk(Evaluator(teacher), LabelSettings(**kw), 0, 5)
    with pytest.raises(TrainingError):
        label_run(Evaluator(teacher), QUICK, 0, tmp_path / "l")


def _round_args(run, start, *extra):
    return ["train-round", "portes", "--from", str(start), "--run", str(run),
            "--positions", "300", "--targets", "ply1", "--chunk", "150", "--jobs", "1",
            "--epochs", "2", "--batch", "32", "--games", "40", *extra]


def test_a_round_labels_fits_measures_and_resumes(tmp_path, capsys):
    start = tmp_path / "start.npz"
    shipped_net("portes").save(start)  # a trained net: games of a few dozen turns
    run = tmp_path / "run"
    assert main(_round_args(run, start, "--rounds", "1", "--z", "0")) == 0
    out = capsys.readouterr().out
    assert "round 1: teacher round-0.npz" in out and "held-out equity error" in out
    state = json.loads((run / "rounds.json").read_text())
    (r1,) = state["rounds"]
    assert r1["positions"] == 300 and r1["fit"]["epochs"] == 2
    if r1["fit"]["best_epoch"] == 0:  # no better than the teacher on held-out games
        assert r1["kept"] is False and r1["match"] is None
    else:
        assert r1["match"]["games"] == 40 and "student vs teacher:" in out
        assert r1["kept"] == (r1["match"]["ppg"] > 0)
    kept_file = r1["student"] if r1["kept"] else "round-0.npz"
    assert state["current"] == kept_file
    assert np.array_equal(Net.load(run / "best.npz").W1, Net.load(run / kept_file).W1)
    # a rerun does nothing more; more rounds go on from the record
    assert main(_round_args(run, start, "--rounds", "1", "--z", "0")) == 0
    assert "round 1" not in capsys.readouterr().out
    assert main(_round_args(run, start, "--rounds", "2", "--z", "0")) == 0
    out = capsys.readouterr().out
    assert "round 2: teacher" in out and "chunk 0:" in out
    assert len(json.loads((run / "rounds.json").read_text())["rounds"]) == 2


def test_rounds_keep_only_a_better_student_and_stop_after_two_without_gain(tmp_path,
                                                                            monkeypatch):
    """The round's logic with the fit replaced by a given student: a good net against an
    inverted one (its outputs' weights negated: it plays to lose), then the other way."""
    from tavli.training import rounds
    from tavli.training.fitting import FitResult

    good = shipped_net("portes")
    bad = good.copy()
    bad.W2 *= -1
    bad.b2 *= -1
    students = iter([good, bad, bad])

    def fake_fit(init, X, T, groups, folder, settings, count_bg, meta, log):
        net = next(students)
        folder.mkdir(parents=True, exist_ok=True)
        net.save(folder / "student.npz")
        return FitResult(net, 1, 0.1, 0.05, [])

    monkeypatch.setattr(rounds, "fit_labels", fake_fit)
    settings = rounds.RoundSettings(positions=40, labels=LabelSettings(targets="ply1",
                                                                       chunk=40), games=40)
    log = io.StringIO()
    best = rounds.train_rounds(bad, tmp_path, settings, rounds=1, compute=1, log=log)
    assert "kept" in log.getvalue() and np.array_equal(best.W2, good.W2)
    best = rounds.train_rounds(bad, tmp_path, settings, rounds=4, compute=1, log=log)
    state = json.loads((tmp_path / "rounds.json").read_text())
    r1, r2, r3 = state["rounds"]  # round 4 never starts: rounds 2 and 3 gained nothing
    assert r1["kept"] and r1["match"]["ppg"] > 2 * r1["match"]["se"]
    assert not r2["kept"] and not r3["kept"] and r2["match"]["ppg"] < 0
    assert r2["teacher"] == r3["teacher"] == "round-1/fit/student.npz"
    assert r2["positions"] == 40 and r3["positions"] == 80  # round 2's labels reused
    assert state["current"] == "round-1/fit/student.npz"
    assert np.array_equal(best.W2, good.W2)
    assert "two successive rounds brought no significant gain" in log.getvalue()


def test_round_command_errors_are_one_line(tmp_path, capsys):
    start = tmp_path / "start.npz"
    Net.random("portes", hidden=5, seed=2).save(start)
    plakoto = tmp_path / "plakoto.npz"
    Net.random("plakoto", hidden=5, seed=2).save(plakoto)
    junk = tmp_path / "junk.npz"
    junk.write_text("no")
    run = tmp_path / "run"
    cases = [
        (_round_args(run, start, "--every", "2"), "every"),
        (_round_args(run, plakoto), "is a plakoto network"),
        (_round_args(run, junk), "not a tavli network file"),
        (_round_args(run, start, "--race", str(plakoto)), "another family"),
        (_round_args(run, start, "--targets", "ply9"), "invalid choice"),
        (_round_args(run, start, "--games", "3"), "even number"),
        (["train-round", "nosuchgame", "--run", str(run)], "nosuchgame"),
    ]
    for args, want in cases:
        with pytest.raises(SystemExit) if "invalid choice" in want or "even" in want \
                else _nothing():
            assert main(args) != 0
        err = capsys.readouterr().err
        assert want in err and len(err.strip().splitlines()) == 1, err
    assert not run.exists() or not (run / "rounds.json").exists()


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_label_kernels_take_grouped_values():
    """No kernel takes more than ten arguments; weights and buffers travel grouped."""
    import inspect

    for k in (lab._rollout, lab._add, lab._one_ply_choice, lab.label_rows, lab._in_class):
        params = set(inspect.signature(k.py_func).parameters)
        assert len(params) <= 10, k.__name__
        assert not params & {"W1", "b1", "W2", "b2", "buf", "table", "buf2"}, k.__name__


def test_round_command_needs_a_run_folder(capsys):
    with pytest.raises(SystemExit) as e:
        main(["train-round", "portes"])
    err = capsys.readouterr().err.strip()
    assert e.value.code == 2 and len(err.splitlines()) == 1
    assert err.startswith("tavli train-round: error:") and "--run" in err


def test_fitting_runs_blas_on_one_thread():
    from tavli.training.blas import _openblas, blas_threads

    libs = _openblas()
    assert libs  # NumPy's wheels bring OpenBLAS
    before = [get() for get, _ in libs]
    with blas_threads(1):
        assert all(get() == 1 for get, _ in libs)
    assert [get() for get, _ in libs] == before
