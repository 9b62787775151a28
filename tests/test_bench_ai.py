"""The AI's benchmarks (`tavli bench eval|rollout|moves`), run small: ours beside gnubg-nn's
figures in one run, and without gnubg-nn ours and one line on how to get the reference."""

from __future__ import annotations

import math

import gnubg_nn
import numpy as np
import pytest

from tavli.bench import ai as bench
from tavli.bench import gnubg_ref
from tavli.bench.movegen import gnubg_board
from tavli.cli import main


@pytest.fixture
def lines():
    got: list[str] = []
    return got


@pytest.fixture
def one_position(monkeypatch):
    """The rollout benchmark on its bear-off position alone (short games)."""
    every = bench.bench_positions
    monkeypatch.setattr(bench, "bench_positions", lambda: every()[2:])


@pytest.fixture
def no_gnubg(monkeypatch):
    monkeypatch.setattr(gnubg_ref, "load", lambda: None)


def test_selfplay_positions_are_legal_and_varied():
    arrs, turns = bench.selfplay_positions(300, seed=2)
    assert arrs.shape == (300, 4, 26) and set(turns.tolist()) == {0, 1}
    assert (arrs[:, :2, :].sum(axis=2) == 15).all()
    assert len({a.tobytes() for a in arrs}) > 250
    assert (arrs[:, :2, 0] > 0).any()  # games reach the bear-off


def test_bench_eval_puts_gnubg_beside_ours(lines):
    fig = bench.bench_eval(positions=200, rounds=1, out=lines.append)
    # figures, not their order: beside other tests on two cores a 200-position round's
    # batch can time slower than single calls (seen once); which is faster is the
    # benchmark's finding, not something a shared machine can check
    assert fig["ours_single"] > 0 and fig["ours_batch"] > 0
    assert fig["gnubg"] > 0 and 0 < fig["equity_diff"] < 0.5
    assert any("gnubg-nn" in ln and "probabilities" in ln for ln in lines)


def test_bench_eval_without_gnubg_says_how_to_get_it(lines, no_gnubg):
    fig = bench.bench_eval(positions=100, rounds=1, out=lines.append)
    assert fig["gnubg"] is None and lines[-1] == gnubg_ref.NOTE
    assert "pip install gnubg-nn" in gnubg_ref.NOTE


def test_bench_rollout_with_and_without_gnubg(lines, one_position, monkeypatch):
    fig = bench.bench_rollout(games=36, out=lines.append)
    f = fig["positions"]["bear-off"]
    assert set(f) == {"plain", "adjusted", "gnubg"}
    assert all(f[k]["rate"] > 0 and -1 <= f[k]["equity"] <= 1 for k in f)
    assert f["adjusted"]["se"] < f["plain"]["se"]
    assert any(ln.startswith("  bear-off") and "ours plain" in ln for ln in lines)
    lines.clear()
    monkeypatch.setattr(gnubg_ref, "load", lambda: None)
    fig = bench.bench_rollout(games=36, out=lines.append)
    assert "gnubg" not in fig["positions"]["bear-off"] and lines[-1] == gnubg_ref.NOTE


def test_gnubg_playout_ends_with_a_proper_outcome():
    pos = bench.bench_positions()[2][1]
    board = gnubg_board(pos.array, pos.turn)
    rows = np.array([gnubg_ref.playout(gnubg_nn, board, t, 1) for t in range(72)])
    assert set(rows[:, 0].tolist()) == {0.0, 1.0}  # both sides win some
    assert (rows[:, 1:].sum(axis=1) == 0).all()  # no gammons from this position
    mean = rows[:, 0].mean()
    assert not math.isnan(mean)


def test_bench_moves_one_level(lines):
    fig = bench.bench_moves(games=1, out=lines.append, levels=("advanced",))
    f = fig["levels"]["advanced"]
    assert f["ply"] == 0 and f["moves"] > 5 and 0 < f["mean"] <= f["max"]
    assert f["gnubg_mean"] > 0


def test_bench_commands_parse(capsys, no_gnubg):
    assert main(["bench", "eval", "--positions", "50"]) == 0
    out = capsys.readouterr().out
    assert "0-ply evaluations per second" in out and gnubg_ref.NOTE in out
    with pytest.raises(SystemExit) as e:
        main(["bench", "rollout", "--games", "0"])
    assert e.value.code == 2
