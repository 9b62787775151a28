"""Rollouts (tavli.ai.rollout, `tavli rollout`, `tavli hint --rollout`): reproducible for a
seed whatever the number of processes, standard errors that shrink as 1/sqrt(N), a luck
adjustment that shrinks them further without moving the mean, agreement with an exact
value computed here, truncation, JSON, and one-line errors for bad input."""

from __future__ import annotations

import functools
import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import tavli
from tavli.ai.context import EvalContext, RolloutContext
from tavli.ai.playout import _roll_index, trial_seed
from tavli.ai.rollout import rollout, rollout_moves
from tavli.ai.search import ROLLS
from tavli.cli import main
from tavli.engine.board import Position
from tavli.engine.rules import Rules
from tavli.errors import GameOver, OptionError

BG = "backgammon"
OPENING = Position.start(BG).find_move("8/5 6/5", (3, 1), Rules(BG)).after  # black to roll
RACE = Position.from_points(BG, {6: 3, 5: 2, 4: 2, 8: 1}, {6: 2, 5: 3, 4: 2, 3: 1}, 0)
BEAROFF = Position.from_points(BG, {6: 1, 4: 1, 2: 1}, {5: 1, 3: 1, 1: 1}, 0)
OVER = Position.from_points(BG, {}, {6: 15}, 1)  # white has borne off all 15
FEVGA_NET = Path(tavli.__file__).parent / "data" / "fevga.npz"


def run(capsys, monkeypatch, argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_rolls_are_found_in_the_table_of_21():
    for k, (a, b, _w) in enumerate(ROLLS):
        assert _roll_index(a, b) == _roll_index(b, a) == k


def test_trials_have_seeds_of_their_own():
    assert trial_seed(1, 0) == 1 and trial_seed(1, 36) == 37
    assert trial_seed(2, 0) - trial_seed(1, 0) > 1_000_000  # rollouts of seeds apart


def test_a_rollout_replays_for_its_seed_and_whatever_the_processes():
    ctx = RolloutContext(games=108, truncate=3, seed=7)
    one = rollout(OPENING, ctx)
    again = rollout(OPENING, ctx)
    two = rollout(OPENING, ctx, compute=2)
    other = rollout(OPENING, ctx.with_seed(8))
    for r in (again, two):
        assert r.trials == one.trials == 108
        assert np.array_equal(r.outputs, one.outputs) and r.equity == one.equity
        assert np.array_equal(r.plain_outputs, one.plain_outputs)
        assert r.equity_se == one.equity_se
    assert other.plain_equity != one.plain_equity


def test_the_standard_error_shrinks_as_one_over_root_n():
    small = rollout(RACE, RolloutContext(games=180, luck=False))
    big = rollout(RACE, RolloutContext(games=720, luck=False))
    ratio = small.plain_equity_se / big.plain_equity_se
    assert 1.6 < ratio < 2.5, ratio
    assert small.equity_se == small.plain_equity_se  # nothing adjusted without luck


def test_the_luck_adjustment_shrinks_the_error_on_the_opening():
    r = rollout(OPENING, RolloutContext(games=72, truncate=6))
    assert r.equity_se < 0.5 * r.plain_equity_se, r
    # both estimate the same value
    assert abs(r.equity - r.plain_equity) < 3 * r.plain_equity_se
    assert r.turns == 6.0  # truncated after 6 turns (no game ends sooner from here)


@functools.cache
def exact_p_win(me: int, opp: int) -> float:
    """P(win) of the side to roll, one checker each, ``me`` and ``opp`` pips from off, no
    contact: every roll moves the one checker its dice's pips (a double four times), so
    play is forced."""
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            pips = 4 * a if a == b else a + b
            total += 1.0 if me <= pips else 1.0 - exact_p_win(opp, me - pips)
    return total / 36


@pytest.mark.parametrize(("me", "opp"), [(8, 6), (11, 9)])
def test_a_race_of_one_checker_each_agrees_with_the_exact_value(me, opp):
    pos = Position.from_points(BG, {me: 1}, {opp: 1}, 0)
    exact = exact_p_win(me, opp)
    r = rollout(pos, RolloutContext(games=1296, seed=3))
    for p, se in ((r.outputs[0], r.se[0]), (r.plain_outputs[0], r.plain_se[0])):
        assert abs(p - exact) < 3 * se + 1e-5, (p, se, exact)
    assert abs(r.equity - (2 * exact - 1)) < 3 * r.equity_se + 2e-5
    assert r.plain_outputs[1:].tolist() == [0.0] * 4  # no gammons with 14 off
    assert r.equity_se < r.plain_equity_se


def test_target_se_stops_early_and_moves_are_ranked():
    r = rollout(RACE, RolloutContext(games=720, target_se=0.5, luck=False))
    assert r.trials == 72  # checked from the second batch of 36 on
    ranked = rollout_moves(BEAROFF, (6, 5), None, RolloutContext(games=36))
    assert [r.equity for r in ranked] == sorted((r.equity for r in ranked), reverse=True)
    assert {str(r.move) for r in ranked} == {str(m) for m in BEAROFF.legal_moves((6, 5))}
    winner = rollout_moves(Position.from_points(BG, {2: 1, 1: 1}, {6: 3}, 0), (2, 1),
                           ctx=RolloutContext(games=36))
    assert winner[0].trials == 0 and winner[0].equity == 1.0  # ends the game: exact


def test_the_api_refuses_bad_settings():
    for kw in (dict(games=0), dict(target_se=0.0), dict(truncate=0), dict(seed=-1)):
        with pytest.raises(OptionError):
            RolloutContext(**kw)
    with pytest.raises(OptionError, match="ply 0 or 1"):
        RolloutContext.at_ply(2)
    with pytest.raises(OptionError, match="ply 0 or 1"):
        RolloutContext(play=EvalContext(plies=2))
    with pytest.raises(OptionError, match="jobs"):
        rollout(RACE, compute=0)
    with pytest.raises(GameOver, match="over"):
        rollout(OVER)
    with pytest.raises(OptionError):
        rollout_moves(RACE, (3, 1), moves=0)


def test_cli_text_and_json(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["rollout", BG, BEAROFF.id(), "--games", "72"])
    assert code == 0 and "72 trials" in out and "adjusted" in out and "plain" in out
    assert "luck adjustment: equity SE" in out
    code, out, _ = run(capsys, monkeypatch, ["rollout", BG, BEAROFF.id(), "--games", "36",
                                            "--json", "--truncate", "2", "--no-luck"])
    doc = json.loads(out)
    assert code == 0 and doc["trials"] == 36 and doc["truncate"] == 2 and not doc["luck"]
    assert set(doc["se"]) == {"win", "win_gammon", "win_backgammon", "lose_gammon",
                              "lose_backgammon"}
    assert doc["equity"] == doc["plain"]["equity"] and doc["turns"] <= 2
    code, out, _ = run(capsys, monkeypatch, ["rollout", BG, BEAROFF.id(), "--dice", "21",
                                            "--games", "36", "--json", "--moves", "2"])
    doc = json.loads(out)
    assert code == 0 and len(doc["moves"]) == 2 and doc["dice"] == [2, 1]
    assert doc["moves"][0]["equity"] >= doc["moves"][1]["equity"]


def test_hint_rolls_out_its_top_three(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["hint", BG, BEAROFF.id(), "--dice", "21",
                                            "--level", "0", "--rollout", "36"])
    assert code == 0 and "rollouts of the top 3: 36 trials each" in out
    code, out, _ = run(capsys, monkeypatch, ["hint", BG, BEAROFF.id(), "--dice", "21",
                                            "--level", "0", "--rollout", "36", "--json"])
    doc = json.loads(out)
    assert len(doc["rollouts"]) == 3 and all(r["trials"] == 36 for r in doc["rollouts"])
    top3 = {e["move"] for e in doc["moves"][:3]}
    assert {r["move"] for r in doc["rollouts"]} == top3


@pytest.mark.parametrize(("argv", "says"), [
    (["--games", "0"], "--games: a whole number of at least 1"),
    (["--ply", "2"], "--ply: a whole number from 0 to 1"),
    (["--jobs", "0"], "--jobs: a whole number of at least 1"),
    (["--target-se", "0"], "--target-se: a number above 0"),
    (["--target-se", "-1"], "--target-se: a number above 0"),
    (["--truncate", "0"], "--truncate: a whole number of at least 1"),
    (["--seed", "x"], "--seed: a whole number from 0 to 4294967295"),
])
def test_bad_settings_are_one_line_errors(capsys, argv, says):
    with pytest.raises(SystemExit) as e:
        main(["rollout", BG, "start", *argv])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and says in err, err
    assert err.startswith("tavli rollout: error: argument ")


@pytest.mark.parametrize(("argv", "says"), [
    ([BG, "nonsense"], "position"),
    ([BG, "start", "--dice", "71"], "die"),
    ([BG, OVER.id()], "the game is over"),
    ([BG, "start", "--evaluator", "pubeval"], "unknown evaluator"),
    ([BG, "start", "--evaluator", "net:/no/such.npz"], "/no/such.npz"),
    (["plakoto", "start", "--evaluator", f"net:{FEVGA_NET}"], "for fevga"),
])
def test_bad_input_is_one_line_and_status_2(capsys, monkeypatch, argv, says):
    code, out, err = run(capsys, monkeypatch, ["rollout", *argv, "--games", "36"])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("tavli: error: ") and says in err, err
    assert "Traceback" not in err
