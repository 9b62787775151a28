"""Cubeful equity (Janowski's model), cube decisions and the cube hint."""

import json

import pytest

from tavli.ai.context import MONEY_0PLY
from tavli.play.cube.cubeful import (
    DOUBLE_PASS,
    DOUBLE_TAKE,
    NO_DOUBLE_TAKE,
    TOO_GOOD_PASS,
    _Scorer,
    cubeful_equity,
    decide,
)
from tavli.play.cube.info import CubeInfo, Owner
from tavli.play.cube.met import published_met


def single(p):
    return (p, 0.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("probs", [single(0.3), single(0.7), (0.6, 0.2, 0.01, 0.1, 0.0)])
@pytest.mark.parametrize("owner", list(Owner))
def test_dead_cube_is_the_cubeless_equity(probs, owner):
    cube = 1 if owner == Owner.CENTRED else 2
    ci = CubeInfo(cube=cube, owner=owner)
    p = probs
    cubeless = 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]
    assert cubeful_equity(probs, ci, 0.0) == pytest.approx(cubeless)


def test_fully_live_money_points_without_gammons():
    s = _Scorer(single(0.5), CubeInfo())
    assert s.take_point(1) == pytest.approx(0.2, abs=1e-3)   # live: 20% (dead: 25%)
    assert s.cash_point(1) == pytest.approx(0.8, abs=1e-3)
    # Janowski's owned-cube equity at x=1: p(W+L+1/2) - L - 1/2 for the opponent's cube
    ci = CubeInfo(cube=2, owner=Owner.OPPONENT)
    assert cubeful_equity(single(0.7), ci, 1.0) == pytest.approx(0.7 * 2.5 - 1.5, abs=1e-3)
    # and for mine: p(W+L+1/2)/... linear from (0,-1) to (CP=.8, +1)
    ci = CubeInfo(cube=2, owner=Owner.ME)
    assert cubeful_equity(single(0.4), ci, 1.0) == pytest.approx(-1 + 2 * 0.4 / 0.8, abs=1e-3)


def test_money_take_point_at_cube_efficiency():
    # the taker's equity after taking equals -1 (a pass) at his take point:
    # x=0.68, no gammons: TP = (L - 1/2) / (W + L + x/2) = 0.5 / 2.34
    tp = 0.5 / 2.34
    d = decide(single(1 - tp), CubeInfo(), 0.68)
    assert d.dt == pytest.approx(d.dp, abs=1e-3)


def test_clear_money_decisions():
    assert decide(single(0.9), CubeInfo(), 0.68).action == DOUBLE_PASS
    # 60% without gammons, x=.68: ND = .68*(2(.6-.2)/.6-1)+.32*.2 = .291, DT = 2(.68*-.0
    # ...) = .128: no double
    d = decide(single(0.6), CubeInfo(), 0.68)
    assert d.action == NO_DOUBLE_TAKE
    assert d.nd == pytest.approx(0.68 * (2 * 0.4 / 0.6 - 1) + 0.32 * 0.2, abs=1e-3)
    assert decide(single(0.72), CubeInfo(), 0.68).action == DOUBLE_TAKE
    assert decide((0.85, 0.5, 0.0, 0.0, 0.0), CubeInfo(), 0.68).action == TOO_GOOD_PASS
    # owning the cube, 70% is not yet enough to give it away; 78% is
    owned = CubeInfo(cube=2, owner=Owner.ME)
    assert decide(single(0.7), owned, 0.68).action == "No redouble, take"
    assert decide(single(0.78), owned, 0.68).action == "Redouble, take"


def test_beaver_when_the_double_is_a_big_mistake():
    d = decide(single(0.4), CubeInfo(beavers=True), 0.68)
    assert d.beaver and d.action == "No double, beaver"
    assert not decide(single(0.4), CubeInfo(), 0.68).beaver


def test_crawford_no_double_and_post_crawford_trailer_doubles():
    met = published_met()
    d = decide(single(0.5), CubeInfo(length=7, away=(4, 1), crawford=True, met=met), 0.68)
    assert not d.available and not d.double and "Crawford" in d.action
    post = CubeInfo(length=7, away=(4, 1), post_crawford=True, met=met)
    d = decide(single(0.45), post, 0.68)
    assert d.double and d.take  # the trailer doubles at once; the leader takes at 55%
    # the leader's free drop at 2-away: he passes a double he would take for money
    fd = CubeInfo(length=7, away=(2, 1), post_crawford=True, met=met)
    assert fd.free_drop
    assert decide(single(0.6), fd, 0.68).action == DOUBLE_PASS


def test_dead_cube_no_redouble():
    ci = CubeInfo(cube=2, owner=Owner.ME, length=5, away=(2, 4))  # 2 wins me the match
    d = decide(single(0.8), ci, 0.68)
    assert not d.available and d.action.startswith("No redouble")


def test_cube_decision_api_and_ai_answers_a_double():
    from tavli import Game, Position, Rules, cube_decision
    from tavli.ai.neural import NeuralPlayer

    d = cube_decision(Position.start("backgammon"), ctx=MONEY_0PLY)
    assert d.action == NO_DOUBLE_TAKE and not d.double
    g = Game(Rules("backgammon"), seed=1, first=0)
    g.double()
    assert NeuralPlayer(0).cube_action(g) == "take"
    assert NeuralPlayer(0, cube="thresholds").cube_action(g) == "take"


def _hint(capsys, *args):
    from tavli.cli import main

    rc = main(["hint", "backgammon", "start", "--level", "0", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cube_hint_cli(capsys):
    rc, out, _ = _hint(capsys)
    assert rc == 0 and "Proper cube action: No double, take" in out
    assert "1. No double" in out and "3. Double/Pass     +1.000" in out
    rc, out, _ = _hint(capsys, "--match", "7", "--score", "4-5", "--json")
    d = json.loads(out)
    assert d["match"]["away"] == [3, 2] and d["mwc"]["double_pass"] == 0.5


def test_cube_hint_from_a_rollout(capsys):
    rc, out, _ = _hint(capsys, "--rollout", "72", "--json")
    d = json.loads(out)
    assert rc == 0 and d["source"] == "rollout" and d["rollout"]["trials"] == 72
    # the decision is made on the rollout's probabilities
    assert d["probabilities"] == pytest.approx(
        [d["rollout"][k] for k in ("win", "win_gammon", "win_backgammon", "lose_gammon",
                                   "lose_backgammon")], abs=1e-6)
    rc, out, _ = _hint(capsys, "--rollout", "36")
    assert "from a rollout of 36 trials" in out and "(rollout, cube efficiency" in out


@pytest.mark.parametrize("args, msg", [
    (["--cube", "2"], "say who owns it"),
    (["--owner", "me"], "is in the centre"),
    (["--owner", "x", "--cube", "2"], "--owner must be"),
    (["--cube", "3", "--owner", "me"], "power of 2"),
    (["--score", "1-2"], "need --match"),
    (["--match", "5", "--score", "5-2"], "is not before a game"),
    (["--match", "5", "--score", "1-2", "--crawford"], "1-away"),
])
def test_cube_hint_bad_options_are_one_line(capsys, args, msg):
    rc, _, err = _hint(capsys, *args)
    assert rc != 0 and msg in err and len(err.strip().splitlines()) == 1
