"""``tavli bench strength``: duplicate dice, logs that resume, parallel games."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tavli.bench import strength
from tavli.bench.strength import run_strength
from tavli.cli import main
from tavli.errors import RuleError


def test_duplicate_dice_pairs_are_deterministic():
    a = run_strength("greedy", "random", "plakoto", 6, seed=3)
    b = run_strength("greedy", "random", "plakoto", 6, seed=3)
    assert a.games == 6
    assert np.array_equal(a.points, b.points)
    assert a.ppg > 0  # the heuristic beats random play
    p = a.points
    assert a.share == p[p > 0].sum() / np.abs(p).sum()


def test_seeds_draw_disjoint_dice():
    """Seed s + 1 is not seed s shifted by one pair: matches of different seeds are
    independent samples (both the Python and the compiled match)."""
    from tavli.ai.fastplay import NET, compiled_match, pair_seed_base
    from tavli.ai.net import Net
    from tavli.engine.rules import Rules

    assert pair_seed_base(1) == 1  # seed 1's published figures replay
    seqs = {s: [tuple(strength._pair_seq(s, k)[:40]) for k in range(50)] for s in (1, 2, 777)}
    assert len(set(seqs[1]) | set(seqs[2]) | set(seqs[777])) == 150
    rules = Rules.for_game("plakoto")
    a, b = Net.random(rules.game, hidden=4, seed=1), Net.random(rules.game, hidden=4, seed=2)
    r1 = compiled_match(a, NET, b, NET, rules, 40, 1)
    r2 = compiled_match(a, NET, b, NET, rules, 40, 2)
    assert not np.array_equal(r1[2:], r2[:-2])  # not the same games one pair later
    assert np.array_equal(r1, compiled_match(a, NET, b, NET, rules, 40, 1))


def test_log_records_each_pair_and_resumes(tmp_path, monkeypatch):
    log = tmp_path / "m.jsonl"
    first = run_strength("greedy", "random", "fevga", 4, seed=2, log=log)
    lines = log.read_text().splitlines()
    assert json.loads(lines[0]) == {"players": ["greedy", "random"], "game": "fevga",
                                    "seed": 2, "rules": []}
    assert [json.loads(x)["pair"] for x in lines[1:]] == [0, 1]

    played = []
    real = strength._play_pair

    def counting(a, b, rules, seed, k):
        played.append(k)
        return real(a, b, rules, seed, k)

    monkeypatch.setattr(strength, "_play_pair", counting)
    more = run_strength("greedy", "random", "fevga", 8, seed=2, log=log)
    assert played == [2, 3]  # pairs 0 and 1 come from the log
    fresh = run_strength("greedy", "random", "fevga", 8, seed=2)
    assert np.array_equal(more.points, fresh.points)
    assert np.array_equal(more.points[:4], first.points)
    assert len(log.read_text().splitlines()) == 5


def test_log_of_another_match_is_refused_and_kept(tmp_path):
    log = tmp_path / "m.jsonl"
    run_strength("greedy", "random", "plakoto", 2, seed=1, log=log)
    before = log.read_bytes()
    with pytest.raises(RuleError, match="another match"):
        run_strength("random", "greedy", "plakoto", 2, seed=1, log=log)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(RuleError, match="not a strength log"):
        run_strength("greedy", "random", "plakoto", 2, seed=1, log=bad)
    assert log.read_bytes() == before
    assert bad.read_text() == "not json\n"
    packed = tmp_path / "m.jsonl.gz"
    with pytest.raises(RuleError, match="gunzip it and pass .*m.jsonl "):
        run_strength("greedy", "random", "plakoto", 2, seed=1, log=packed)
    assert not packed.exists()


def test_a_line_cut_short_is_played_again(tmp_path):
    log = tmp_path / "m.jsonl"
    run_strength("greedy", "random", "plakoto", 4, seed=5, log=log)
    text = log.read_text()
    log.write_text(text[: text.rindex("{") + 8])  # the last pair's line cut off
    r = run_strength("greedy", "random", "plakoto", 4, seed=5, log=log)
    assert np.array_equal(r.points, run_strength("greedy", "random", "plakoto", 4, seed=5).points)
    pairs = [json.loads(x)["pair"] for x in log.read_text().splitlines()[1:]
             if x.endswith("}")]
    assert sorted(pairs) == [0, 1]


def test_jobs_give_the_same_games(tmp_path):
    one = run_strength("greedy", "random", "portes", 8, seed=4)
    two = run_strength("greedy", "random", "portes", 8, seed=4, compute=2,
                       log=tmp_path / "j.jsonl")
    assert np.array_equal(one.points, two.points)


def test_compiled_players_write_the_log_too(tmp_path):
    log = tmp_path / "c.jsonl"
    r = run_strength("random", "random", "plakoto", 6, seed=1, log=log)
    rows = [json.loads(x) for x in log.read_text().splitlines()[1:]]
    assert [e["pair"] for e in rows] == [0, 1, 2]
    assert [p for e in rows for p in e["a_points"]] == list(r.points)


def test_cli_bench_strength_with_log(tmp_path, capsys):
    log = tmp_path / "cli.jsonl"
    assert main(["bench", "strength", "greedy", "random", "--game", "plakoto", "--games", "4",
                 "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "greedy vs random: plakoto, 4 games" in out
    assert "win rate" in out and "share of points 100.0%" in out
    assert len(log.read_text().splitlines()) == 3
    with pytest.raises(SystemExit) as e:
        main(["bench", "strength", "greedy", "random", "--jobs", "0"])
    assert e.value.code == 2


@pytest.mark.parametrize("argv", [
    ["bench", "strength", "greedy", "random", "--game", "plakoto", "--games", "2", "--seed", "-5"],
    ["bench", "movegen", "--seed", "x"],
    ["train", "plakoto", "--games", "1", "--seed", str(2**32)],
    ["bench", "dama", "--seed", "-1"],
    ["play", "--tui", "--seed", "-2"],
])
def test_bad_seeds_are_refused_with_a_message(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "argument --seed: a whole number from 0 to 4294967295 is needed" in \
        capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing written


@pytest.mark.parametrize(("argv", "message"), [
    (["bench", "strength", "greedy", "random", "--games", "0"],
     "argument --games: a whole number of at least 1 is needed, got '0'"),
    (["bench", "strength", "greedy", "random", "--games", "-4"], "argument --games: a whole"),
    (["bench", "strength", "greedy", "random", "--jobs", "x"], "argument --jobs: a whole number"),
    (["bench", "movegen", "--positions", "-5"], "argument --positions: a whole number of at least"),
    (["train", "plakoto", "--games", "-1"], "argument --games: a whole number of at least 1"),
    (["train", "plakoto", "--hidden", "0"], "argument --hidden: a whole number"),
    (["perft", "dama", "--depth", "-2"], "argument --depth: a whole number of at least 1"),
    (["bench", "strength", "neural", "minimax", "--game", "dama", "--games", "0"],
     "argument --games: a whole number of at least 1"),
    (["bench", "dama", "--positions", "0"], "argument --positions: a whole number"),
])
def test_bad_counts_are_refused_with_a_message(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # no run folder, no output file
