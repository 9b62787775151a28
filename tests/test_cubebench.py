"""``tavli bench cube`` (cube decisions against gnubg-nn) and match play in ``tavli bench
strength --match``: gnubg's side read the right way round, a small agreement sample,
matches that resume, the money-logic player, and one-line errors for bad options."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import gnubg_nn
import pytest

from tavli import Game, NeuralPlayer, Position, Rules
from tavli.bench import cube as cubebench
from tavli.bench import gnubg_ref, strength
from tavli.bench.cube import Case, gnubg_cube, our_cube, run_cube_bench, sample_cases
from tavli.bench.movegen import gnubg_board
from tavli.bench.strength import run_strength
from tavli.cli import main
from tavli.errors import RuleError
from tavli.play.cube.info import CubeInfo, Owner
from tavli.play.formats.matchid import parse_match_id


def _race(mover_ahead: bool) -> Position:
    """A race the side to move (white) wins at once (two checkers on its 1-point, the
    opponent with checkers off: no gammon) or loses surely (the same, seats swapped)."""
    fast, slow = {1: 2}, {6: 5, 7: 5}
    white, black = (fast, slow) if mover_ahead else (slow, fast)
    return Position.from_points("backgammon", white, black, turn=0)


def test_gnubg_values_the_side_on_roll():
    ci = CubeInfo(length=7, away=(5, 4))
    win = Case(_race(True), ci)
    lose = Case(_race(False), ci)
    assert gnubg_cube(gnubg_nn, win).action == "Double, pass"
    assert gnubg_cube(gnubg_nn, lose).action == "No double"
    assert our_cube(win)[1].action == "Double, pass"
    assert our_cube(lose)[1].action == "No double"
    # a cube the side on roll owns: its value counts (a 4-cube cashes 4 points: 1-away)
    owned = Case(_race(True), CubeInfo(cube=4, owner=Owner.ME, length=7, away=(5, 4)))
    v = gnubg_cube(gnubg_nn, owned)
    assert v.action == "Double, pass" and v.dp == pytest.approx(1.0)


def test_a_cube_decision_leaves_gnubg_in_money_play():
    """gnubg-nn's score is global: after a match decision its checker play is money play
    again (bench choices and the gnubg player rely on it)."""
    cases = sample_cases(20, seed=4)
    jobs = [(gnubg_board(c.position.array, c.position.turn), d1, d2)
            for c in cases for d1, d2 in ((6, 4), (3, 1), (5, 5), (2, 1))]

    def moves():
        return [gnubg_nn.best_move(b, d1, d2, n=0) for b, d1, d2 in jobs]

    money = moves()
    gnubg_nn.set.score(2, 4, 0)
    assert moves() != money  # the score does change some moves
    gnubg_nn.set.score(0, 0, 0)
    for case in cases:
        gnubg_cube(gnubg_nn, case)
    assert moves() == money


def test_case_ids_are_gnubgs():
    case = sample_cases(12, seed=4)[5]
    pid, mid = case.ids().split(":")
    assert [list(r) for r in gnubg_nn.board_from_position_id(pid)] == \
        gnubg_board(case.position.array, case.position.turn)
    st = parse_match_id(mid)
    me = case.position.turn
    assert st.length == case.cube.length and st.on_roll == me
    assert case.cube.length - st.score[me] == case.cube.away[0]
    assert case.cube.length - st.score[1 - me] == case.cube.away[1]


def test_cases_are_match_decisions_the_mover_can_make():
    cases = sample_cases(40, seed=2)
    assert len(cases) == 40
    assert {c.cube.length for c in cases} <= set(cubebench.LENGTHS)
    for c in cases:
        ci = c.cube
        assert not ci.crawford and ci.owner != Owner.OPPONENT and ci.can_double(Owner.ME)
        assert ci.post_crawford == (ci.away[1] == 1)
    assert any(c.cube.owner == Owner.ME for c in cases)


def test_small_sample_of_clear_decisions_mostly_agrees():
    """No bar beyond a small sample (the benchmark reports the 1,000): 30 clear ones."""
    res = run_cube_bench(cases=sample_cases(60, seed=5))
    clear = res.clear[:30]
    assert len(clear) == 30
    same, n = res.agreement("gnubg", clear)
    assert same >= 24, [(r.case.ids(), r.ours.action, r.gnubg.action) for r in clear]
    # gnubg's cube model on our probabilities: the cube logic alone agrees more
    model = [r for r in res.rows if r.model.margin > res.margin][:30]
    assert res.agreement("model", model)[0] >= 27


def test_bench_cube_prints_the_share_and_the_disagreements(capsys):
    assert main(["bench", "cube", "--positions", "40", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "same proper action:" in out and "95% interval" in out
    assert "gnubg-nn 1.1" in out and "at 0-ply" in out
    if "disagreements" in out:
        assert "ours:" in out and "gnubg:" in out


def test_wilson_interval():
    lo, hi = cubebench.wilson(0, 10)
    assert lo == 0 and 0.2 < hi < 0.35
    assert cubebench.wilson(0, 0) == (0.0, 1.0)


def test_bench_cube_without_gnubg_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(gnubg_ref, "load", lambda: None)
    assert main(["bench", "cube", "--positions", "4"]) != 0
    err = capsys.readouterr().err.strip()
    assert "gnubg-nn" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("argv", [
    ["bench", "cube", "neural"],
    ["bench", "cube", "--ply", "3"],
    ["bench", "cube", "--gnubg-ply", "x"],
    ["bench", "cube", "--positions", "2"],
    ["bench", "strength", "neural", "neural-money", "--match", "0"],
    ["bench", "strength", "neural", "neural-money", "--match", "100"],
    ["bench", "strength", "neural", "neural-money", "--match", "five"],
    ["bench", "strength", "neural", "neural-money", "--match", "3", "--cube"],
    ["bench", "strength", "neural", "neural-money", "--match", "3", "--game", "plakoto"],
    ["bench", "strength", "neural", "neural-money", "--match", "3", "--rule", "jacoby=on"],
    ["bench", "strength", "neural", "neural-money", "--match", "3", "--games", "3"],
    ["bench", "strength", "neural", "neural-monkey", "--match", "3"],
    ["bench", "strength", "neural-money:nine", "neural", "--match", "3"],
])
def test_bad_options_are_one_line(argv, capsys):
    try:
        rc = main(argv)
    except SystemExit as e:  # argparse
        rc = e.code
    assert rc not in (0, None)
    err = capsys.readouterr().err.strip().splitlines()
    assert len([ln for ln in err if not ln.startswith("usage:")]) == 1, err


def test_matches_are_paired_deterministic_and_resume(tmp_path, monkeypatch):
    log = tmp_path / "m.jsonl"
    a = run_strength("greedy", "random", "backgammon", 4, seed=2, log=log, match=3)
    assert a.games == 4 and set(a.points) <= {-1.0, 1.0}
    head = json.loads(log.read_text().splitlines()[0])
    assert head["match"] == 3
    played = []
    real = strength._play_match_pair

    def counting(*args):
        played.append(args[3])
        return real(*args)

    monkeypatch.setattr(strength, "_play_match_pair", counting)
    b = run_strength("greedy", "random", "backgammon", 6, seed=2, log=log, match=3)
    assert played == [2]  # only the missing pair
    assert list(b.points[:4]) == list(a.points)
    with pytest.raises(RuleError, match="another match"):
        run_strength("greedy", "random", "backgammon", 4, seed=2, log=log, match=5)
    out = io.StringIO()
    strength.bench_strength("greedy", "random", games=2, seed=1, out=out, match=1)
    assert "1-point matches" in out.getvalue() and "matches won" in out.getvalue()


def test_money_logic_ignores_the_score():
    """Post-Crawford, the trailer 2-away doubles at once (the leader's gammons and the
    free drop aside, nothing is lost); money logic does not double the opening."""
    g = Game(Rules("backgammon"), seed=1, first=1, match_play=True)  # black to roll
    g.match = SimpleNamespace(target=5, score=(4, 3), game=g)  # white 1-away, black 2-away
    assert NeuralPlayer(0, cube="cubeful").cube_action(g) == "double"
    assert NeuralPlayer(0, cube="money").cube_action(g) == "roll"
    with pytest.raises(RuleError, match="cube logic"):
        NeuralPlayer(0, cube="mony")
