"""`tavli bench choices`: both players' choices on the same positions, judged twice."""

import io

import pytest

from tavli.bench.choices import Tally, bench_choices
from tavli.bench.strength import GnubgPlayer, parse_player
from tavli.engine.rules import Rules
from tavli.errors import OptionError, RuleError


def test_the_breakdown_counts_every_decision_once_in_each_grouping():
    out = io.StringIO()
    doc = bench_choices("backgammon", games=2, judge_ply=0, seed=3, out=out)
    total = doc["all"]["decisions"]
    assert total > 20
    assert sum(c["decisions"] for c in doc["classes"].values()) == total
    assert sum(p["decisions"] for p in doc["phases"].values()) == total
    assert 0 < doc["all"]["differ"] < total
    # judged at gnubg's own depth, gnubg's choice is the judge's best: it loses nothing,
    # ours loses where the choices differ; our evaluator prefers our choices
    assert doc["all"]["gnubg_loss"][0] == 0 < doc["all"]["our_loss"][0]
    assert doc["all"]["paired"][0] == doc["all"]["our_loss"][0]
    assert doc["all"]["our_judge"][0] > 0
    assert doc["classes"]["contact"]["decisions"] > 0
    text = out.getvalue()
    assert "crashed" in text and "opening (turns 1-10)" in text and "gnubg loss" in text
    # the same seed plays the same games
    again = bench_choices("backgammon", games=2, judge_ply=0, seed=3, out=io.StringIO())
    assert again["all"] == doc["all"]


def test_tally_mean_and_error():
    t = Tally()
    for v in (0.0, 0.1, 0.2):
        t.add(v == 0.0, v, v / 2, -v)
    assert (t.decisions, t.differ) == (3, 2)
    m, se = Tally.mean_se(t.our_loss)
    assert m == pytest.approx(0.1) and se == pytest.approx(0.1 / 3 ** 0.5)
    assert Tally.mean_se(t.paired)[0] == pytest.approx(0.05)


@pytest.mark.parametrize("kw, msg", [
    ({"game": "plakoto"}, "backgammon or Portes only"),
    ({"games": 0}, "at least one game"),
    ({"ply": 3}, "the ply must be 0, 1 or 2"),
    ({"judge_ply": -1}, "the judge ply must be 0, 1 or 2"),
])
def test_bad_settings_are_refused(kw, msg):
    with pytest.raises(OptionError, match=msg):
        bench_choices(**{"games": 1, **kw}, out=io.StringIO())


def test_gnubg_players_at_each_ply():
    rules = Rules.for_game("backgammon")
    assert parse_player("gnubg", rules).player.ply == 0
    assert parse_player("gnubg:2", rules).player.name == "gnubg:2"
    with pytest.raises(RuleError, match="gnubg's ply must be 0, 1 or 2"):
        parse_player("gnubg:5", rules)
    from tavli import Position

    pos = Position.start("backgammon")
    moves = pos.legal_moves((3, 1), rules)
    assert str(GnubgPlayer(1).choose_move(pos, (3, 1), moves, rules)) == "8/5 6/5"
