"""Match equity tables, prices, CubeInfo and the Tavli match equity (tavli.play.cube)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from tavli.cli import main
from tavli.errors import OptionError
from tavli.play.cube.info import CubeInfo, Owner
from tavli.play.cube.met import (
    MetModel,
    computed_met,
    default_met,
    max_difference,
    published_met,
)
from tavli.play.cube.prices import cash_point, gammon_values, money_take_point, take_point
from tavli.play.cube.tavli_met import GameRates, Starter, TavliEquity
from tavli.play.game import Game
from tavli.play.match import Match

PUB = published_met()
COMP = computed_met()


def test_published_table_is_the_cited_data():
    doc = json.loads(resources.files("tavli").joinpath("data/met-kazaross-xg2.json")
                     .read_text())
    assert "gnubg" in doc["source"].lower() or "gnu backgammon" in doc["source"].lower()
    assert PUB.length == 25
    # a few published figures, as printed in met/Kazaross-XG2.xml
    assert PUB.mwc(1, 2) == 0.67736 and PUB.mwc(2, 1) == 0.32264
    assert PUB.mwc(5, 3) == 0.35205 and PUB.mwc(2, 1, post_crawford=True) == 0.48803
    assert PUB.mwc(25, 25) == 0.5


def test_computed_agrees_with_published_within_half_a_percent():
    d15, where15 = max_difference(COMP, PUB, 15)
    d25, where25 = max_difference(COMP, PUB, 25)
    assert d15 < 0.005, (d15, where15)
    assert d25 < 0.005, (d25, where25)   # measured: 0.35% to 15-away, 0.40% to 25-away
    assert default_met().name == COMP.name


@pytest.mark.parametrize("met", [PUB, COMP], ids=["published", "computed"])
def test_mirror_and_monotone(met):
    for a in range(1, 26):
        for b in range(1, 26):
            assert met.mwc(a, b) + met.mwc(b, a) == pytest.approx(1.0, abs=1e-5)
            if a > 1:  # nearer the goal is better
                assert met.mwc(a - 1, b) > met.mwc(a, b)
            if b > 1:
                assert met.mwc(a, b - 1) < met.mwc(a, b)
        assert met.mwc(a, a) == pytest.approx(0.5, abs=1e-5)
    # post-Crawford: the trailer's chances fall as he trails by more
    post = [met.mwc(n, 1, post_crawford=True) for n in range(1, 26)]
    assert all(x >= y for x, y in zip(post, post[1:], strict=False))


def test_crawford_and_post_crawford_entries():
    for met in (PUB, COMP):
        assert met.mwc(1, 1) == 0.5
        # post-Crawford 2-away: the leader's free drop puts the trailer under 50%
        assert 0.47 < met.mwc(2, 1, post_crawford=True) < 0.5
        # the Crawford game at 2-away equals post-Crawford at 3-away (one game for 2)
        assert met.mwc(2, 1) == pytest.approx(met.mwc(3, 1, post_crawford=True), abs=1e-4)
        assert met.mwc(1, 2, post_crawford=True) == pytest.approx(
            1 - met.mwc(2, 1, post_crawford=True))
    with pytest.raises(OptionError, match="up to 99-away"):
        PUB.mwc(100, 3)


def test_tables_extend_past_25_points_as_gnubg_does():
    """Past its 25 points a table goes on with Montgomery's normal extension (gnubg's
    ExtendMET): close to the published entries where both exist, symmetric, monotone in
    each score, and post-Crawford entries from the model."""
    from tavli.play.cube.met import extended_mwc

    for a in range(15, 26):
        for b in range(15, 26):
            assert abs(extended_mwc(a, b) - PUB.mwc(a, b)) < 0.012, (a, b)
    for met in (PUB, COMP):
        for a, b in ((26, 26), (40, 31), (99, 60), (30, 2), (1, 50)):
            assert met.mwc(a, b) + met.mwc(b, a) == pytest.approx(1.0)
        assert met.mwc(26, 26) == 0.5
        row = [met.mwc(40, b) for b in range(1, 100)]
        assert all(x <= y for x, y in zip(row, row[1:], strict=False))
        post = [met.mwc(n, 1, post_crawford=True) for n in range(20, 60)]
        assert all(0 <= y <= x for x, y in zip(post, post[1:], strict=False))


def test_a_match_over_25_points_plays_with_the_cube():
    """A 31-point backgammon match: the cube's match equity answers at any score (the
    table used to stop at 25 and the hint gave up)."""
    from tavli.play.cube.scoring import ScoreWeights
    from tavli.play.match import Match

    m = Match(31, "backgammon", seed=2)
    m.game.roll() if m.game.phase == "opening" else None
    w = ScoreWeights.for_game(m.game, m)
    assert w != ScoreWeights.money() and 0.0 < w.mwc(0.5) < 1.0


def test_take_points_and_cash_points():
    assert money_take_point() == 0.25 and money_take_point(0.3) == 0.25
    # 2-away/2-away: a take risks the match on one game; a pass leaves a Crawford game
    assert take_point(PUB, 2, 2) == pytest.approx(PUB.mwc(2, 1))
    assert cash_point(PUB, 2, 2) == pytest.approx(1 - PUB.mwc(2, 1))
    # DMP: no cube decisions: the table's entries leave nothing to take or cash
    assert CubeInfo(length=5, away=(1, 1)).is_dead
    # post-Crawford: against the trailer 2-away a pass leaves DMP (the free drop), so the
    # leader takes only with 50%; against 3-away a pass costs, the take risks little
    assert take_point(PUB, 1, 2, post_crawford=True) == pytest.approx(0.5)
    assert take_point(PUB, 1, 3, post_crawford=True) < 0.03
    # long matches approach money play (25%)
    assert take_point(PUB, 25, 25) == pytest.approx(0.25, abs=0.03)
    for a in range(2, 16):
        for b in range(2, 16):
            for met in (PUB, COMP):
                assert 0.0 <= take_point(met, a, b) <= 0.5 + 1e-9 or a > b


def test_gammon_values_computed_against_published():
    # the published table's gammon values at a few scores, and the computed table's
    for a, b in [(3, 3), (4, 4), (5, 5), (7, 7), (3, 5), (5, 3), (9, 11)]:
        p, c = gammon_values(PUB, a, b), gammon_values(COMP, a, b)
        assert abs(p.win_gammon - c.win_gammon) < 0.12, (a, b, p, c)
        assert abs(p.lose_gammon - c.lose_gammon) < 0.12, (a, b, p, c)
    # 2-away with the cube at 2: a gammon win is worth nothing more; at 1 it is big
    assert gammon_values(PUB, 2, 4, cube=2).win_gammon == 0.0
    assert gammon_values(PUB, 2, 4).win_gammon > 1.5
    # 4-away/2-away: my gammon loss costs nothing more (a single loss ends the match)
    assert gammon_values(PUB, 4, 2, cube=2).lose_gammon == 0.0
    # money
    assert CubeInfo().gammon_values.win_gammon == 1.0
    assert CubeInfo(jacoby=True, cube=2, owner=Owner.ME).gammon_values.lose_gammon == 1.0


def test_cubeinfo_rules():
    ci = CubeInfo(length=7, away=(1, 4), crawford=True)
    assert ci.is_dead and not ci.can_double(Owner.OPPONENT)
    post = CubeInfo(length=7, away=(1, 4), post_crawford=True)
    assert post.can_double(Owner.OPPONENT) and not post.can_double(Owner.ME)
    assert post.free_drop and not CubeInfo(length=7, away=(1, 3), post_crawford=True).free_drop
    assert post.flip().away == (4, 1)
    assert CubeInfo(cube=4, owner=Owner.OPPONENT, length=9, away=(5, 8)).flip().owner == Owner.ME
    for bad in (dict(cube=3), dict(length=5, away=(6, 1)), dict(length=5, away=(2, 2),
                                                               crawford=True),
                dict(length=5, away=(1, 3), jacoby=True), dict(crawford=True, cube=2,
                                                               length=3, away=(1, 3))):
        with pytest.raises(OptionError):
            CubeInfo(**bad)


def test_cubeinfo_from_a_match_at_crawford():
    m = Match(target=3, variant="backgammon", seed=5)
    while max(m.score) < 2:
        g = m.game
        # decide games quickly: the side to act resigns a single game
        if g.phase == "opening":
            g.opening_throw()
        g.resign(g.position.turn, "single")
        if not m.is_over and max(m.score) < 2:
            m.next_game()
    assert not m.is_over and max(m.score) == 2
    m.next_game()
    g = m.game
    assert g.crawford
    ci = CubeInfo.from_game(g, m)
    assert ci.crawford and ci.is_dead and ci.length == 3
    assert sorted(ci.away) == [1, 3 - min(m.score)]
    # money play: from a Game alone
    money = CubeInfo.from_game(Game("backgammon", seed=1))
    assert money.is_money and money.can_double(Owner.ME)


def test_tavli_equity():
    sym = {g: GameRates.symmetric(0.25, draw=0.02 if g == "plakoto" else 0.0)
           for g in ("portes", "plakoto", "fevga")}
    for target in (3, 5, 7):
        eq = TavliEquity(target, rates=sym)
        for s in range(target):
            for g in eq.rotation:
                assert eq.mwc(s, s, g) == pytest.approx(0.5)
                for t in range(target):
                    total = (eq.mwc(s, t, g, Starter.ME) + eq.mwc(t, s, g, Starter.OPPONENT))
                    assert total == pytest.approx(1.0)
                    if t > s:
                        assert eq.mwc(s, t, g) < 0.5
    # 1-away each, decided games end the match: a draw just passes to the next game
    eq = TavliEquity(3, rates=sym)
    assert eq.mwc(2, 2, "plakoto") == pytest.approx(0.5)
    # a starter's edge shows: the side who starts is better placed
    edge = {g: GameRates(0.45, 0.1, 0.35, 0.1) for g in ("portes", "plakoto", "fevga")}
    eq = TavliEquity(5, rates=edge)
    assert eq.mwc(2, 2, "fevga", Starter.ME) > 0.5 > eq.mwc(2, 2, "fevga", Starter.OPPONENT)
    with pytest.raises(OptionError):
        eq.mwc(5, 0, "portes")
    with pytest.raises(OptionError):
        eq.mwc(0, 0, "backgammon")


def test_model_parameters_checked():
    with pytest.raises(OptionError):
        MetModel(gammon_rate=1.5)
    assert computed_met(5, MetModel(gammon_rate=0.0)).mwc(3, 3) == pytest.approx(0.5)


def test_cli(capsys):
    assert main(["met", "--length", "5"]) == 0
    out = capsys.readouterr().out
    assert "post-Crawford" in out and "67.7" in out
    assert main(["met", "--length", "7", "--score", "3-5", "--published"]) == 0
    out = capsys.readouterr().out
    assert "Kazaross-XG2" in out and "4-away" in out and "37.1%" in out
    assert main(["met", "--tavli", "--length", "3", "--score", "1-2"]) == 0
    assert "plakoto" in capsys.readouterr().out
    assert main(["met", "--length", "40", "--score", "3-20"]) == 0  # past the 25 points
    assert "40-point match" in capsys.readouterr().out
    for bad in (["met", "--score", "2-x", "--length", "5"], ["met", "--length", "100"],
                ["met", "--score", "1-2"], ["met", "--tavli", "--published"]):
        assert main(bad) == 2
        err = capsys.readouterr().err
        assert err.startswith("tavli: error:") and err.count("\n") == 1
