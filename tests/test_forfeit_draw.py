"""The online endings in the engine: forfeits (time, abandoned) and agreed draws — their
points, their refusals and their round trip through JSON records."""

from __future__ import annotations

import json

import pytest

from tavli import GameOver, Position, WrongState
from tavli.play.game import Game, Outcome
from tavli.play.match import Match
from tavli.play.record import game_record, load_record, match_record


def _roundtrip(obj):
    rec = game_record(obj) if isinstance(obj, Game) else match_record(obj)
    back = load_record(json.dumps(rec))
    assert (back if isinstance(back, Game) else back.game).outcome == \
        (obj if isinstance(obj, Game) else obj.game).outcome
    return back


def test_forfeit_scores_the_position_times_the_cube():
    g = Game("backgammon", seed=3)
    g.roll()
    g.play(g.legal_moves()[0])
    loser = g.turn
    g.forfeit(loser, "time")  # nothing borne off, checkers back: a backgammon
    assert g.outcome == Outcome(1 - loser, 3, "time") and g.phase == "over"
    assert _roundtrip(g).outcome.kind == "time"
    with pytest.raises(GameOver):
        g.forfeit(loser, "time")


def test_forfeit_of_a_side_that_has_borne_off_is_single_and_keeps_the_dice_out():
    pos = Position.from_points("portes", {1: 1, 6: 4}, {6: 3}, 1)
    g = Game("portes", position=pos, seed=1)
    g.roll()  # black's dice out, not played
    g.forfeit(1, "abandoned")
    assert g.outcome == Outcome(0, 1, "abandoned")
    assert g.events[-1]["forfeit"] == "abandoned" and len(g.events[-1]["rolled"]) == 2
    _roundtrip(g)
    with pytest.raises(WrongState):
        Game("portes", seed=1).forfeit(0, "boredom")


def test_forfeit_in_a_match_loses_the_match():
    m = Match(5, "portes", seed=4)
    m.game.roll()
    m.game.forfeit(0, "time")  # a gammon is 2, black needs 5: the match is forfeited
    assert m.game.outcome == Outcome(1, 5, "time") and m.is_over and m.winner == 1
    back = _roundtrip(m)
    assert back.score == (0, 5)


def test_agreed_draw_only_where_the_rules_know_a_draw():
    g = Game("plakoto", seed=2)
    g.roll()
    g.agree_draw(1 - g.turn)
    assert g.outcome == Outcome(None, 0, "draw")
    assert g.events[-1]["draw"] == "agreed"
    back = _roundtrip(g)
    assert back.outcome.winner is None
    for name in ("portes", "fevga", "backgammon"):
        with pytest.raises(WrongState, match="no draw"):
            Game(name, seed=2).agree_draw(0)


def test_agreed_draw_in_a_tavli_match_scores_nothing_and_the_match_goes_on():
    m = Match(3, "tavli", seed=8)
    m.game.resign(1)  # Portes: white 1
    m.next_game()
    assert m.game.rules.game_name == "plakoto"
    m.game.roll()
    m.game.agree_draw(0)
    assert m.score == (1, 0) and not m.is_over
    m.next_game()
    assert m.game.rules.game_name == "fevga" and m.game.phase == "opening"
    back = _roundtrip(m)
    assert back.score == (1, 0) and len(back.games) == 3


def test_malformed_draw_event_is_refused():
    g = Game("plakoto", seed=2)
    g.agree_draw(0)
    rec = game_record(g)
    rec["games"][0]["events"][-1]["draw"] = "maybe"
    with pytest.raises(Exception, match="agreed"):
        load_record(rec)
