"""``tavli analyse RECORD --rollout N`` (issue #17): every checker play the analysis marks
(doubtful or worse) rolled out with its best moves and the move played, in the text
under the decision and in the JSON (``rollouts``, ``confirmed``); reproducible, the same
figures as :func:`tavli.ai.rollout.rollout_moves` gives on that position, and one-line
errors for a bad N. The record: a short Portes race from a set position (a random player
against the greedy one), so that the 36-trial rollouts take seconds."""

from __future__ import annotations

import io
import json
import math
import sys

import pytest

from tavli.ai.context import RolloutContext
from tavli.ai.neural import NeuralPlayer
from tavli.ai.rollout import rollout_moves
from tavli.cli import main
from tavli.engine.board import Position
from tavli.play.game import Game
from tavli.play.players import GreedyPlayer, RandomPlayer, play_game
from tavli.play.record import load, save
from tests.test_i18n_cli import english

RACE = Position.from_points("portes", {6: 2, 5: 2, 4: 3, 3: 2, 2: 2, 1: 1, 8: 2},
                            {6: 3, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 9: 1}, 0)
N = "36"


def race_record(path, players) -> str:
    g = Game("portes", seed=5, position=RACE)
    play_game(g, players)
    save(g, path)
    return str(path)


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> str:
    """White plays at random (errors), black greedily."""
    return race_record(tmp_path_factory.mktemp("an") / "g.json",
                       (RandomPlayer(seed=5), GreedyPlayer()))


def run(capsys, monkeypatch, argv: list[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.delenv("TAVLI_LANG", raising=False)
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own errors
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def analysis_json(capsys, monkeypatch, record: str, *extra: str) -> dict:
    code, out, _err = run(capsys, monkeypatch, ["analyse", record, "--ply", "0", "--json",
                                                *extra])
    assert code == 0
    return json.loads(out)


def no_seconds(doc: dict) -> dict:
    """The analysis without the rollouts' timings (the one thing a rerun changes)."""
    for t in doc["turns"]:
        for r in t.get("rollouts", []):
            r.pop("seconds")
    return doc


def test_the_json_has_rollouts_of_each_flagged_decision(capsys, monkeypatch, record):
    plain = analysis_json(capsys, monkeypatch, record)
    doc = analysis_json(capsys, monkeypatch, record, "--rollout", N)
    flagged = [t for t in doc["turns"] if t["mark"]]
    assert len(flagged) == 3  # the random player's bad and very bad moves
    game = load(record)
    verdicts = []
    for t, before in zip(doc["turns"], plain["turns"], strict=True):
        rolled = {k: t.pop(k) for k in ("rollouts", "confirmed") if k in t}
        assert t == before  # the analysis itself is unchanged
        assert bool(rolled) == bool(t["mark"])
        if not rolled:
            continue
        rollouts, confirmed = rolled["rollouts"], rolled["confirmed"]
        verdicts.append(confirmed)
        moves = [r["move"] for r in rollouts]
        assert t["best"] in moves and 2 <= len(rollouts) <= 4
        assert [r["move"] for r in rollouts if r["played"]] == [t["played"]]
        equities = [r["equity"] for r in rollouts]
        assert equities == sorted(equities, reverse=True)
        assert all(r["trials"] == 36 and r["seed"] == 1 and r["ply"] == 0 and r["luck"]
                   for r in rollouts)
        mine = next(r for r in rollouts if r["played"])
        best = rollouts[0]
        assert confirmed == (best["equity"] - mine["equity"]
                             > 2 * math.hypot(best["equity_se"], mine["equity_se"]))
        # the played move's figures: rollout_moves of that move alone, same seed
        pos, dice, chosen = game.turns[t["turn"] - 1]
        alone = rollout_moves(pos, None, None, RolloutContext(games=36), rules=game.rules,
                              candidates=[chosen])[0]
        assert (alone.equity, alone.equity_se) == pytest.approx(
            (mine["equity"], mine["equity_se"]), abs=1e-6)
    # these moves lose 0.14 to 0.53: the rollouts (race and bear-off, tiny SEs) agree
    assert verdicts == [True, True, True]
    again = analysis_json(capsys, monkeypatch, record, "--rollout", N)
    assert no_seconds(again) == no_seconds(
        analysis_json(capsys, monkeypatch, record, "--rollout", N))


def test_the_text_lists_the_rollouts_under_each_flagged_decision(capsys, monkeypatch, record):
    monkeypatch.setattr("tavli.ai.rollout.PROGRESS_EVERY", 0.0)  # a line every chunk
    code, out, err = run(capsys, monkeypatch, ["analyse", record, "--ply", "0", "--rollout", N])
    assert code == 0 and "move 1/4 8/3 8/5: 36/36 trials" in err  # progress on stderr
    lines = out.splitlines()
    flagged = [i for i, line in enumerate(lines) if "] best" in line]
    assert len(flagged) == 3
    rolled: list[int] = []
    for i in flagged:
        head = lines[i + 1]
        assert head.startswith("      rollouts of ") and "36 trials each" in head
        assert "(the analysis' best and the move played)" in head
        n = int(head.split()[2])
        rows = lines[i + 3:i + 3 + n]
        assert [r.split()[0] for r in rows] == [str(k) for k in range(1, n + 1)]
        assert sum(r.endswith("  (played)") for r in rows) == 1
        played = next(r for r in rows if r.endswith("(played)"))
        assert played[10:38] == lines[i][15:43]  # the move played
        assert lines[i + 3 + n].startswith("      the rollout confirms the error: the move "
                                           "played is ")
        rolled += range(i + 1, i + 4 + n)
    # the rest is the analysis as it was
    code, plain, _ = run(capsys, monkeypatch, ["analyse", record, "--ply", "0"])
    assert [line for k, line in enumerate(lines) if k not in rolled] == plain.splitlines()


def test_the_rollouts_in_greek(capsys, monkeypatch, record):
    code, out, _ = run(capsys, monkeypatch, ["--lang", "el", "analyse", record, "--ply", "0",
                                             "--rollout", N])
    assert code == 0
    lines = out.splitlines()
    heads = [line for line in lines if line.startswith("      προσομοιώσεις ")]
    verdicts = [line for line in lines if line.startswith("      η προσομοίωση επιβεβαιώνει")]
    assert len(heads) == len(verdicts) == 3
    assert sum(line.endswith("(παίχτηκε)") for line in lines) == 3
    assert english("\n".join(heads + verdicts)) == []


def test_nothing_to_roll_out(capsys, monkeypatch, tmp_path):
    """The AI's 0-ply play is the 0-ply analysis' own choice: nothing is marked."""
    path = race_record(tmp_path / "g.json", (NeuralPlayer("0"), NeuralPlayer("0")))
    code, plain, _ = run(capsys, monkeypatch, ["analyse", path, "--ply", "0"])
    code, out, err = run(capsys, monkeypatch, ["analyse", path, "--ply", "0", "--rollout", N])
    assert code == 0 and "trials" not in err
    assert out == plain + "nothing to roll out: no checker play is marked doubtful or worse\n"
    doc = analysis_json(capsys, monkeypatch, path, "--rollout", N)
    assert not any("rollouts" in t for t in doc["turns"])


@pytest.mark.parametrize("n", ["0", "x", "-3"])
def test_a_bad_number_of_trials_is_one_line(capsys, monkeypatch, record, n):
    with open(record, "rb") as f:
        before = f.read()
    code, out, err = run(capsys, monkeypatch, ["analyse", record, "--rollout", n])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tavli analyse: error: argument --rollout")
    with open(record, "rb") as f:
        assert f.read() == before
