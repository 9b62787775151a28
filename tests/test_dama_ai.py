"""The Dama AI: legal answers, speed at the default level, tactics, huffing, a short
match against the depth-4 material-only minimax."""

import time

import pytest

from tavli.ai.dama import (
    MAX_DEPTH,
    MAX_SECONDS,
    AIPlayer,
    MinimaxPlayer,
    Searcher,
    match,
    parse_level,
    static_eval,
)
from tavli.engine.dama.board import Position
from tavli.errors import RuleError
from tavli.play.dama.game import DamaGame

RULES = ["box", "russian", "italian"]


@pytest.mark.serial
@pytest.mark.parametrize("rules", RULES)
def test_default_level_answers_under_a_second(rules):
    ai = AIPlayer(rules, "default")
    ai.choose(Position.start(rules))  # compile / load the cache
    g = DamaGame(rules)
    for m in ("22-18", "11-15", "18x11", "8x15") if rules != "italian" else ("22-18",):
        g.play(m)
    for pos in (Position.start(rules), g.position):
        t = time.perf_counter()
        mv = ai.choose(pos)
        assert time.perf_counter() - t < 1.0
        assert mv.key() in {m.key() for m in pos.legal_moves()}


def test_levels():
    assert parse_level("2") == (4, None)
    assert parse_level("depth:7") == (7, None)
    assert parse_level("time:0.25") == (64, 0.25)
    with pytest.raises(ValueError):
        parse_level("grandmaster")


@pytest.mark.parametrize("level", ["time:inf", "time:nan", "time:-1", "time:0", "time:601",
                                   "time:1e400", "depth:0", "depth:-3", "depth:21",
                                   "depth:99999", "depth:" + "9" * 5000, "depth:\u00b2",
                                   "depth:x", "time:", "depth:", "time:\u0661"])
def test_bad_levels_are_refused(level):
    with pytest.raises(RuleError) as e:
        parse_level(level)
    assert len(str(e.value)) < 250
    with pytest.raises(RuleError):
        AIPlayer("russian", level)  # at once, not at the first move


def test_level_limits():
    assert parse_level(f"depth:{MAX_DEPTH}") == (MAX_DEPTH, None)
    assert parse_level(" Time:600 ") == (64, MAX_SECONDS)
    assert parse_level("time:0.001") == (64, 0.01)
    with pytest.raises(RuleError):
        MinimaxPlayer("russian", MAX_DEPTH + 1)
    with pytest.raises(RuleError):
        match("russian", games=1, level="time:inf")


def test_wins_material_with_a_shot():
    # Russian: White gives one man to take two (c3-d4? no: e3-d4 forces c5xe3, f2xd4xb6)
    pos = Position.from_fen("W:Wc3,e3,f2,h2:Bc5,a7,h8", "russian")
    r = Searcher("russian").search(pos, "depth:6")
    assert r.score > 100


def test_finds_the_win_in_a_won_ending():
    pos = Position.from_fen("W:WKa1,Kc1,Ke1:BKh8", "russian")
    r = Searcher("russian").search(pos, "time:0.5")
    assert r.score > 200


def test_ai_huffs_when_it_may():
    g = DamaGame("box", start="W:Wc3,b2,g3:Bd4,h8,a7")
    g.play("g3-h4")
    mv = AIPlayer("box", "depth:4").choose(g.position, g._positions)
    assert mv.huff == 22


def test_minimax_player_and_eval():
    pos = Position.start("russian")
    mv = MinimaxPlayer("russian", 4, seed=3).choose(pos)
    assert mv.key() in {m.key() for m in pos.legal_moves()}
    assert static_eval(pos, material_only=True) == 0
    assert static_eval(Position.from_fen("W:W22:B5,6", "russian"), material_only=True) == -100


@pytest.mark.parametrize("rules", RULES)
def test_short_match_against_minimax(rules):
    res = match(rules, games=2, level="depth:6", seed=7)
    assert res["games"] == 2 and res["ai_losses"] == 0
