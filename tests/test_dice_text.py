"""Rolls are shown higher die first ("6-4"), as players and gnubg write them, in every
output of the command line and the engine's messages (tavli.engine.dice.dice_text)."""

from __future__ import annotations

import io
import sys

import pytest

from tavli import Position
from tavli.ai.analysis import format_analysis
from tavli.cli import main
from tavli.errors import IllegalMove, RecordError
from tavli.play.game import Game
from tavli.play.record import game_record, load_record

NO_MOVE = Position.from_points("portes", {25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})


@pytest.mark.parametrize("command", ["moves", "hint"])
def test_no_move_line_writes_the_higher_die_first(capsys, monkeypatch, command):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main([command, "portes", NO_MOVE.id(), "--dice", "16"]) == 0
    assert capsys.readouterr().out == "no legal move with 6-1: the turn passes\n"


def test_analysis_text_writes_the_higher_die_first():
    turn = {"game": 1, "turn": 1, "side": "white", "dice": [1, 3], "played": "24/21 24/23",
            "equity_played": 0.0, "luck": 0.0, "loss": 0.0, "mark": None,
            "best": "24/21 24/23", "equity_best": 0.0}
    text = format_analysis({"ply": 0, "turns": [turn], "players": {}})
    assert text.splitlines()[2].startswith("  1 white 3-1  24/21 24/23")


def test_move_made_with_other_dice():
    start = Position.start("portes")
    move = start.legal_moves("13")[0]
    with pytest.raises(IllegalMove, match="^that move was made with 3-1, not 6-4$"):
        start.find_move(move, "46")


def test_record_roll_mismatch():
    g = Game("portes", seed=1, first=0)
    g.roll()
    g.play(g.legal_moves()[0])
    doc = game_record(g)
    ev = doc["games"][0]["events"][0]
    ev["side"], ev["dice"] = "black", sorted(ev["dice"])
    high, low = ev["dice"][1], ev["dice"][0]
    with pytest.raises(RecordError, match=f"black rolled {high}-{low}, the replay gives "
                                          f"white {high}-{low}$"):
        load_record(doc)
