"""A sixth game is contained: a variant registered here, in the tests only, plays through
``Game``, the records, ``tavli moves`` and compiled self-play without any change to the
package. The toy is Nackgammon: backgammon from a different start (two checkers more on
the 23-point, one fewer on the 13 and the 6), played by the same rule set. It brings a
rule option of its own too (``nack_start``: its start, or backgammon's), declared in the
variant alone (docs/design.md, "Where a change goes", the worked example)."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pytest

from tavli import Position, Rules
from tavli.engine.games import (
    VARIANTS,
    Backgammon,
    find_variant,
    register_variant,
    unregister_variant,
)
from tavli.engine.options import OPTIONS, Option
from tavli.engine.rules import option_games
from tavli.errors import RuleError
from tavli.play.game import Game
from tavli.play.players import GreedyPlayer, play_game
from tavli.play.record import game_record, load_record


class Nackgammon(Backgammon):
    name = "nackgammon"
    display = "Nackgammon"
    aliases = ("nack",)
    code = 9
    summary = "backgammon from a start with two back checkers more"

    start = {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
    declares = (Option("nack_start", bool, False,
                       "Nackgammon: start with two back checkers more (off: backgammon's "
                       "start)."),)
    options = {**Backgammon.options, "nack_start": True}

    def start_array(self, options=None):
        if options is None or options.get("nack_start", True):
            return super().start_array()
        return find_variant("backgammon").start_array()


@pytest.fixture
def nack():
    v = register_variant(Nackgammon())
    try:
        yield v
    finally:
        unregister_variant("nackgammon")
    assert "nackgammon" not in [x.name for x in VARIANTS] and "nack_start" not in OPTIONS


def test_it_is_found_by_name_alias_and_code(nack):
    assert find_variant("Nack") is nack and find_variant(9) is nack
    assert Rules("nackgammon").cube and Rules("nackgammon").variant is nack
    start = Position.start("nackgammon")
    assert start.points(0)[23] == 2 and start.pip_count(0) == start.pip_count(1) == 194
    assert Position.from_id(start.id()) == start            # its code travels in the ID
    assert Position.from_json(start.to_json()) == start


def test_a_whole_game_and_its_record(nack):
    g = Game("nackgammon", seed=5)
    out = play_game(g, (GreedyPlayer(), GreedyPlayer()))
    assert out.winner in (0, 1) and out.points >= 1
    assert g.start_position == Position.start("nackgammon", g.start_position.turn)
    back = load_record(json.loads(json.dumps(game_record(g))))
    assert back.position == g.position and back.outcome == g.outcome


def test_its_own_rule_option_lives_in_its_variant_alone(nack, monkeypatch):
    assert OPTIONS["nack_start"].doc.startswith("Nackgammon")
    assert Rules("nackgammon").nack_start is True and option_games("nack_start") == (
        "nackgammon",)
    plain = Rules.for_game("nackgammon", ["nack_start=false"])
    assert plain.nack_start is False and plain.to_dict()["nack_start"] is False
    assert repr(plain) == "Rules('nackgammon', nack_start=False)"
    assert Rules.from_dict(plain.to_dict()) == plain and plain != Rules("nackgammon")
    with pytest.raises(RuleError, match="applies to nackgammon only"):
        Rules.for_game("backgammon", ["nack_start=true"])
    with pytest.raises(RuleError, match="takes true or false"):
        Rules.for_game("nackgammon", {"nack_start": "maybe"})
    g = Game(plain, seed=2)      # the option chooses the start; the record keeps it
    assert g.start_position.array.tolist() == Position.start("backgammon").array.tolist()
    play_game(g, (GreedyPlayer(), GreedyPlayer()))
    back = load_record(json.loads(json.dumps(game_record(g))))
    assert back.rules == plain and back.start_position == g.start_position
    assert back.position == g.position
    from tavli.cli import main

    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["moves", "nackgammon", "start", "--dice", "31", "--rule",
                 "nack_start=false", "--json"]) == 0


def test_tavli_moves_lists_its_moves(nack, monkeypatch):
    from tavli.cli import main

    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["moves", "nackgammon", "start", "--dice", "31", "--json"]) == 0
    moves = [m["move"] for m in json.loads(out.getvalue())["moves"]]
    assert "8/5 6/5" in moves and "23/20 23/22" in moves
    start = Position.start("nackgammon")
    assert sorted(moves) == sorted(str(m) for m in start.legal_moves("31"))


def test_compiled_self_play_trains_on_it(nack):
    from tavli.ai.fastplay import NET, RANDOM, compiled_match
    from tavli.ai.net import Net
    from tavli.training.selfplay import train_games

    rules = Rules("nackgammon")
    net = Net.random("nackgammon", hidden=8, seed=1)
    assert net.family == find_variant("backgammon").kernel    # the hitting encoder
    stats = np.zeros(4)
    w0 = net.W1.copy()
    train_games(net.weights, np.array(Position.start("nackgammon").array),
                rules.kernel_flags(), 20, 0.1, 3, net.scratch(), stats, 0.0, 0.0)
    assert stats[0] == 20 and stats[1] > 20 * 20 and not np.array_equal(w0, net.W1)
    points = compiled_match(net, NET, None, RANDOM, rules, 10, 7)
    assert points.shape == (20,) and set(np.abs(points)) <= {1.0, 2.0, 3.0}
