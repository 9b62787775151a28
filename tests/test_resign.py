"""Resigning a game: Game.resign, its record (saved and replayed), and the AI's answer."""

from __future__ import annotations

import json

import pytest

from tavli.ai import neural as ai_neural
from tavli.ai.neural import accepts_resignation
from tavli.engine.board import Position
from tavli.engine.rules import Rules
from tavli.errors import GameOver, IllegalMove, RecordError, WrongState
from tavli.play.game import Game
from tavli.play.match import Match
from tavli.play.record import game_record, load_record, match_record


def replayed(g: Game) -> Game:
    """``g`` saved as JSON and loaded back."""
    back = load_record(json.dumps(game_record(g)))
    assert isinstance(back, Game)
    assert back.outcome == g.outcome and back.position == g.position
    assert back.history == g.history and back.events == g.events
    assert game_record(back) == game_record(g)
    return back


def test_resign_values_follow_the_scoring():
    assert Game("portes").resign_values() == ["single", "gammon"]
    assert Game("plakoto").resign_values() == ["single", "gammon"]
    assert Game("fevga").resign_values() == ["single", "gammon"]
    assert Game(Rules.for_game("portes", ["backgammons=true"])).resign_values() == [
        "single", "gammon", "backgammon"]
    bg = Game("backgammon")
    assert bg.resign_values() == ["single", "gammon", "backgammon"]
    # Jacoby: gammons count only once the cube has been turned
    g = Game(Rules.for_game("backgammon", ["jacoby=true"]), first=0)
    assert g.resign_values() == ["single"]
    g.double()
    g.take()
    assert g.resign_values() == ["single", "gammon", "backgammon"]


def test_resign_ends_the_game_and_scores_the_cube():
    g = Game("backgammon", seed=1, first=0)
    g.double()
    g.take()  # black owns the cube at 2
    dice = g.roll()
    g.resign(0, "gammon")
    assert g.is_over and g.outcome is not None
    assert (g.outcome.winner, g.outcome.points, g.outcome.kind) == (1, 4, "resign")
    assert str(g.outcome) == "black wins 4 points (resign)"
    assert g.events[-1] == {"side": "white", "resign": "gammon", "rolled": list(dice)}
    back = replayed(g)
    assert back.cube_value == 2


def test_resign_with_dice_out_keeps_them_in_the_record():
    g = Game("portes", seed=5)
    g.roll()
    g.play(g.legal_moves()[0])
    dice = g.roll()
    side = g.turn
    g.resign(side)
    assert g.events[-1] == {"side": ["white", "black"][side], "resign": "single",
                            "rolled": list(dice)}
    assert g.outcome.winner == 1 - side and g.outcome.points == 1
    replayed(g)


def test_resign_after_the_opening_throw_without_reroll():
    # the opening dice are the first roll: already in the record, not repeated
    g = Game(Rules.for_game("portes", ["opening_reroll=false"]), seed=2)
    g.roll()
    assert g.phase == "move"
    g.resign(g.turn)
    assert "rolled" not in g.events[-1]
    replayed(g)
    # with the re-roll the starter's own roll is kept
    g = Game("portes", seed=2)
    dice = g.roll()
    g.resign(g.turn, "gammon")
    assert g.events[-1]["rolled"] == list(dice)
    replayed(g)


def test_resign_before_any_throw_and_on_a_double():
    g = Game("fevga")
    g.resign(1)
    assert g.outcome.winner == 0 and g.events == [{"side": "black", "resign": "single"}]
    replayed(g)
    g = Game("backgammon", seed=3, first=1)
    g.double()
    g.resign(0)  # instead of answering the double: the cube is still at 1
    assert g.outcome.points == 1 and g.outcome.winner == 1
    replayed(g)


def test_a_match_goes_on_after_a_resignation():
    m = Match(3, "tavli", seed=7)
    m.game.roll()
    m.game.resign(0, "gammon")
    assert m.score == (0, 2) and not m.is_over
    m.next_game()
    assert m.game.first == 1 and m.game.rules.game_name == "plakoto"
    m.game.roll()
    back = load_record(json.dumps(match_record(m)))
    assert isinstance(back, Match) and back.score == (0, 2)
    assert back.game.position == m.game.position and back.game.dice == m.game.dice


def test_bad_resignations_change_nothing():
    g = Game("portes", seed=4)
    g.roll()
    events = list(g.events)
    with pytest.raises(IllegalMove, match="single or gammon"):
        g.resign(0, "backgammon")
    with pytest.raises(WrongState):
        g.resign(2)
    assert g.events == events and not g.is_over
    g.resign(0)
    with pytest.raises(GameOver):
        g.resign(1)


@pytest.mark.parametrize("change", [{"resign": "triple"}, {"resign": ["single"]},
                                    {"rolled": "6-5"}, {"rolled": [6, 9]},
                                    {"side": "green"}])
def test_a_broken_resignation_in_a_record_is_refused(change):
    g = Game("portes", seed=5)
    g.roll()
    g.play(g.legal_moves()[0])
    g.roll()
    g.resign(g.turn)
    rec = game_record(g)
    rec["games"][0]["events"][-1].update(change)
    with pytest.raises(RecordError):
        load_record(rec)


def lost_position(backgammons: bool) -> Game:
    """White (to move) has all 15 checkers in black's home; black has two left."""
    rules = Rules.for_game("portes", [f"backgammons={str(backgammons).lower()}"])
    return Game(rules, position=Position.from_points("portes", {24: 15}, {2: 2}, turn=0))


@pytest.mark.parametrize("net", [True, False])
def test_the_ai_accepts_only_what_the_position_is_worth(monkeypatch, net):
    if not net:  # no trained network: the most the winner can still win
        monkeypatch.setattr(ai_neural, "has_shipped_net", lambda game: False)
    g = lost_position(False)
    assert not accepts_resignation(g, 0, "single")
    assert accepts_resignation(g, 0, "gammon")
    g = lost_position(True)
    assert not accepts_resignation(g, 0, "gammon")
    assert accepts_resignation(g, 0, "backgammon")
    # at the start a single game is more than the opponent can expect
    g = Game("plakoto", first=1)
    assert accepts_resignation(g, 1, "single")
