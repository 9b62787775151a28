"""Match-aware checker play: the score's weights (tavli/play/cube/scoring.py), the weighted
search, the AI, the hints (CLI, TUI, web) at a match score (docs/ai.md, Match-aware
checker play)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tavli.ai.analyzer import Analyzer
from tavli.ai.context import EvalContext
from tavli.ai.neural import NeuralPlayer
from tavli.engine.board import Position
from tavli.engine.rules import Rules
from tavli.errors import OptionError
from tavli.play.cube.info import CubeInfo, Owner
from tavli.play.cube.met import default_met
from tavli.play.cube.scoring import ScoreWeights, match_state, weights_from_state
from tavli.play.cube.tavli_met import Starter, TavliEquity
from tavli.play.game import Game
from tavli.play.match import Match

RNG = np.random.default_rng(7)


def _random_outputs(n: int) -> np.ndarray:
    """Consistent cumulative outputs: win >= win gammon >= win backgammon, likewise lose."""
    out = np.zeros((n, 5))
    for k in range(n):
        w = RNG.uniform(0.05, 0.95)
        wg = w * RNG.uniform(0, 0.5)
        lg = (1 - w) * RNG.uniform(0, 0.5)
        out[k] = (w, wg, wg * RNG.uniform(0, 0.3), lg, lg * RNG.uniform(0, 0.3))
    return out


def _direct_mwc(y, win, lose) -> float:
    """MWC from the outcome shares and the MWCs after each outcome."""
    w, wg, wb, lg, lb = y
    return ((w - wg) * win[0] + (wg - wb) * win[1] + wb * win[2]
            + (1 - w - lg) * lose[0] + (lg - lb) * lose[1] + lb * lose[2])


@pytest.mark.parametrize("away, cube, post", [((1, 1), 1, False), ((2, 2), 1, False),
                                              ((1, 4), 1, True), ((5, 3), 2, False),
                                              ((7, 7), 1, False)])
def test_backgammon_weights_give_the_exact_cubeless_mwc(away, cube, post):
    ci = CubeInfo(cube=cube, owner=Owner.ME if cube > 1 else Owner.CENTRED, length=7,
                  away=away, post_crawford=post)
    sw = ScoreWeights.from_cube(ci)
    met = default_met()
    a, b = away
    win = [met.mwc(a - k * cube, b, post) for k in (1, 2, 3)]
    lose = [met.mwc(a, b - k * cube, post) for k in (1, 2, 3)]
    for y in _random_outputs(20):
        assert sw.mwc(sw.equity(y)) == pytest.approx(_direct_mwc(y, win, lose), abs=1e-12)
        # the opponent's view: the mirror weights, -E, 1 - MWC
        yo = np.array([1 - y[0], y[3], y[4], y[1], y[2]])
        assert sw.flip().equity(yo) == pytest.approx(-sw.equity(y), abs=1e-12)
        assert sw.flip().mwc(-sw.equity(y)) == pytest.approx(1 - sw.mwc(sw.equity(y)))


def test_the_weights_at_telling_scores():
    dmp = ScoreWeights.from_cube(CubeInfo(length=5, away=(1, 1)))
    assert dmp.values == (0, 0, 0, 0) and (dmp.win, dmp.lose) == (1.0, 0.0)
    lead = ScoreWeights.from_cube(CubeInfo(length=5, away=(1, 3), post_crawford=True))
    assert lead.win_gammon == lead.win_backgammon == 0  # my gammon is worth nothing
    assert lead.lose_backgammon > 2  # a backgammon would lose the match
    assert ScoreWeights.money().values == (1, 1, 1, 1) and ScoreWeights.money().mwc(0.3) is None
    # money play keeps its weights whatever Jacoby says
    assert ScoreWeights.from_cube(CubeInfo(jacoby=True)).is_money
    kw = lead.kernel_weights(1)
    assert kw.shape == (2, 4) and tuple(kw[1]) == lead.values
    assert tuple(kw[0]) == lead.flip().values
    with pytest.raises(OptionError):
        ScoreWeights.from_mwcs((0.4, 0.4, 0.4), (0.5, 0.5, 0.5))


def test_tavli_weights_from_the_tavli_match_equity():
    eq = TavliEquity(5)
    sw = ScoreWeights.from_tavli(5, (2, 1), "plakoto")
    win = [eq.mwc(3, 1, "fevga", Starter.ME), eq.mwc(4, 1, "fevga", Starter.ME)]
    lose = [eq.mwc(2, 2, "fevga", Starter.OPPONENT), eq.mwc(2, 3, "fevga", Starter.OPPONENT)]
    assert (sw.win, sw.lose) == (pytest.approx(win[0]), pytest.approx(lose[0]))
    assert sw.win_backgammon == sw.lose_backgammon == 0  # no backgammons in Tavli
    for y in _random_outputs(10):
        y[2] = y[4] = 0
        exact = _direct_mwc(y, win + win[1:], lose + lose[1:])
        assert sw.mwc(sw.equity(y, count_bg=False)) == pytest.approx(exact, abs=1e-12)
    # needing one point: a gammon is worth nothing; the opening throw after every game
    assert ScoreWeights.from_tavli(5, (4, 0), "fevga").win_gammon == 0
    op = ScoreWeights.from_tavli(5, (2, 1), "plakoto", opening_each_game=True)
    assert op.win == pytest.approx(eq.mwc(3, 1, "fevga", Starter.OPENING))
    for bad in [dict(target=5, score=(5, 0), game="portes"),
                dict(target=5, score=(0, 0), game="dama")]:
        with pytest.raises(OptionError):
            ScoreWeights.from_tavli(**bad)


def _match_after(plan, target: int = 5, variant: str = "tavli") -> Match:
    """A match whose games were resigned: ``plan`` lists (winner, "single" | "gammon")."""
    m = Match(target=target, variant=variant, seed=3)
    for winner, value in plan:
        m.game.resign(1 - winner, value)
        m.next_game()
    return m


def test_weights_read_the_match_of_a_game():
    m = _match_after([(0, "gammon"), (1, "single"), (0, "gammon")])
    assert m.score == (4, 1)
    g = m.game
    name = g.rules.game_name
    nxt = m.rotation[(m.rotation.index(name) + 1) % 3]
    w = ScoreWeights.for_game(g, side=0)
    assert w.win == 1.0 and w.win_gammon == 0 and nxt in w.context
    assert ScoreWeights.for_game(g, side=1) == ScoreWeights.from_tavli(5, (1, 4), name)
    assert weights_from_state(match_state(g), 1) == ScoreWeights.for_game(g, side=1)
    assert ScoreWeights.for_game(Game("portes", seed=1)).is_money
    bg = Match(target=7, variant="backgammon", seed=1)
    assert ScoreWeights.for_game(bg.game, side=0) == ScoreWeights.from_cube(
        CubeInfo(length=7, away=(7, 7)))
    assert weights_from_state(match_state(bg.game), 0) == ScoreWeights.for_game(bg.game, side=0)
    assert weights_from_state(None, 0).is_money


# --- the search and the AI ------------------------------------------------------------------

def test_the_search_with_money_weights_is_money_play():
    from tavli.ai.search import MONEY_WEIGHTS, Searcher

    rules = Rules.for_game("backgammon")
    pos = Position.start("backgammon")
    arr = np.stack([m.after.array for m in pos.legal_moves((6, 2), rules)][:3])
    s = Searcher(None, rules)
    plain = s.outputs(arr, pos.turn, 1)
    assert np.array_equal(s.outputs(arr, pos.turn, 1, MONEY_WEIGHTS), plain)
    dmp = ScoreWeights.from_cube(CubeInfo(length=3, away=(1, 1))).kernel_weights(pos.turn)
    other = s.outputs(arr, pos.turn, 1, dmp)
    assert other.shape == plain.shape and np.all((0 <= other) & (other <= 1))
    with pytest.raises(ValueError):
        s.outputs(arr, pos.turn, 1, np.ones(4))


def test_kernels_with_weights_take_at_most_ten_arguments():
    import inspect

    from tavli.ai import search

    for k in (search._after_value_w, search.v1_w, search.v2_w, search.eval_moves,
              search.score_equity):
        assert len(inspect.signature(k.py_func).parameters) <= 10, k.__name__


#: a backgammon position (black to move, 4-4), as the shipped network values it at 0-ply:
#: 8/4(2) 6/2*(2) goes for the gammon (18% gammons, 84% wins); 13/9(2) 6/2*(2) wins more
#: often (86%) with fewer gammons (12%)
BG_POS, BG_DICE = "B2ybgwMQcO9GBgA", (4, 4)
BG_GAMMONISH, BG_SAFE = "8/4(2) 6/2*(2)", "13/9(2) 6/2*(2)"
#: Portes (6-6): the double hit 8/2*(2) 7/1*(2) (48% gammons, 72% wins) against the quiet
#: 21/9(2) (82% wins, 21% gammons)
PORTES_POS, PORTES_DICE = "AbBzzAEoOLeDAQY", (6, 6)
PORTES_GAMMONISH, PORTES_SAFE = "8/2*(2) 7/1*(2)", "21/9(2)"


def _top(game, pos_id, dice, score=None) -> str:
    rules = Rules.for_game(game)
    pos = Position.from_id(pos_id)
    moves = pos.legal_moves(dice, rules)
    return str(Analyzer(rules).rank(pos, moves, EvalContext(score=score))[0].move)


def test_the_ai_plays_safe_when_a_gammon_is_worth_nothing_backgammon():
    pos = Position.from_id(BG_POS)
    assert _top("backgammon", BG_POS, BG_DICE) == BG_GAMMONISH
    lead = ScoreWeights.from_cube(CubeInfo(length=7, away=(1, 6), post_crawford=True))
    assert _top("backgammon", BG_POS, BG_DICE, lead) == BG_SAFE
    # at the start of a match the match ranking agrees with money play
    even = ScoreWeights.from_cube(CubeInfo(length=7, away=(7, 7)))
    assert _top("backgammon", BG_POS, BG_DICE, even) == BG_GAMMONISH
    # the player, in a real match at 1-away (post-Crawford) against 6-away
    me = pos.turn
    m = _match_after([(me, "gammon")] * 3 + [(1 - me, "single")], 7, "backgammon")
    assert m.games[3].crawford and not m.game.crawford
    g = Game(m.game.rules, position=pos, match_play=True)
    g.match = m
    g.set_dice(BG_DICE)
    assert ScoreWeights.for_game(g) == lead
    p = NeuralPlayer(0)
    assert str(p.choose_move_in(g, g.legal_moves())) == BG_SAFE
    assert str(p.choose_move(g.position, g.dice, g.legal_moves(), g.rules)) == BG_GAMMONISH


def test_the_ai_plays_the_tavli_match_score():
    pos = Position.from_id(PORTES_POS)
    assert _top("portes", PORTES_POS, PORTES_DICE) == PORTES_GAMMONISH
    need1 = ScoreWeights.from_tavli(5, (4, 0), "portes")
    assert _top("portes", PORTES_POS, PORTES_DICE, need1) == PORTES_SAFE
    assert _top("portes", PORTES_POS, PORTES_DICE,
                ScoreWeights.from_tavli(5, (0, 0), "portes")) == PORTES_GAMMONISH
    m = _match_after([(pos.turn, "gammon")] * 2)  # 4-0, Fevga being played
    g = Game(Rules.for_game("portes"), position=pos, match_play=True)
    g.match = m
    g.set_dice(PORTES_DICE)
    w = ScoreWeights.for_game(g)
    assert w.win_gammon == 0
    assert str(NeuralPlayer(0).choose_move_in(g, g.legal_moves())) == PORTES_SAFE


# --- hints: the command line, the terminal, the browser app -----------------------------------

def _cli(capsys, *args):
    from tavli.cli import main

    rc = main(["hint", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_hint_at_a_match_score_shows_mwc(capsys):
    rc, out, err = _cli(capsys, "backgammon", BG_POS, "--dice", "44", "--level", "0",
                        "--match", "7", "--score", "6-1")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("7-point match, 1-away/6-away (post-Crawford): equity = "
                               "normalised match equity")
    assert "MWC" in lines[1] and BG_SAFE in lines[2] and "%" in lines[2]
    rc, out, _ = _cli(capsys, "backgammon", BG_POS, "--dice", "44", "--level", "0",
                      "--match", "7", "--score", "6-1", "--json")
    doc = json.loads(out)
    assert doc["score"]["win_gammon"] == 0 and doc["score"]["win_mwc"] == 1.0
    best = doc["moves"][0]
    assert best["move"] == BG_SAFE and 0 < best["mwc"] < 1
    mwcs = [m["mwc"] for m in doc["moves"] if m["ply"] == 0]
    assert mwcs == sorted(mwcs, reverse=True)
    # money play: no MWC
    rc, out, _ = _cli(capsys, "backgammon", BG_POS, "--dice", "44", "--level", "0", "--json")
    doc = json.loads(out)
    assert "score" not in doc and "mwc" not in doc["moves"][0]
    assert doc["moves"][0]["move"] == BG_GAMMONISH
    # a Tavli match: Portes at 4-0 of 5 points
    rc, out, err = _cli(capsys, "portes", PORTES_POS, "--dice", "66", "--level", "0",
                        "--match", "5", "--score", "4-0", "--json")
    doc = json.loads(out)
    assert doc["moves"][0]["move"] == PORTES_SAFE
    assert doc["score"]["context"] == "5-point Tavli match, 4-0, portes (next plakoto)"


def test_hint_batch_takes_a_match_score_like_hint(capsys, monkeypatch):
    """``tavli hint --batch`` ranks at the score of --match/--score, or of a line's
    Match ID, as ``tavli hint`` does (issue 31: it ranked for money play only)."""
    import io

    from tavli.play.formats.matchid import MatchState, match_id

    pos = Position.from_id(BG_POS)
    score = (6, 1) if pos.turn == 0 else (1, 6)
    st = MatchState(on_roll=pos.turn, turn=pos.turn, dice=BG_DICE, length=7, score=score)
    lines = f"backgammon {BG_POS} 44 0\nbackgammon {pos.gnubg_id()}:{match_id(st)} 44 0\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    rc, out, err = _cli(capsys, "--batch")
    assert rc == 0, err
    money, by_id = (json.loads(x) for x in out.splitlines())
    assert "score" not in money and money["moves"][0]["move"] == BG_GAMMONISH
    assert by_id["score"]["context"] == "7-point match, 1-away/6-away (post-Crawford)"
    assert by_id["moves"][0]["move"] == BG_SAFE and 0 < by_id["moves"][0]["mwc"] < 1
    monkeypatch.setattr("sys.stdin", io.StringIO(f"backgammon {BG_POS} 44 0\n"))
    rc, out, err = _cli(capsys, "--batch", "--match", "7", "--score", "6-1")
    doc = json.loads(out)
    assert doc["score"]["context"].startswith("7-point match, 1-away/6-away")
    assert doc["moves"][0]["move"] == BG_SAFE


def test_hint_reads_the_match_of_an_xgid_or_match_id(capsys):
    from tavli.play.formats.matchid import MatchState, match_id

    pos = Position.from_id(BG_POS)
    score = (6, 1) if pos.turn == 0 else (1, 6)
    st = MatchState(on_roll=pos.turn, turn=pos.turn, dice=BG_DICE, length=7, score=score)
    text = f"{pos.gnubg_id()}:{match_id(st)}"
    rc, out, err = _cli(capsys, "backgammon", text, "--level", "0", "--json")
    assert rc == 0, err
    doc = json.loads(out)  # the dice and the score from the Match ID
    assert doc["score"]["context"] == "7-point match, 1-away/6-away (post-Crawford)"
    assert doc["moves"][0]["move"] == BG_SAFE
    # the options win over the ID's score
    rc, out, _ = _cli(capsys, "backgammon", text, "--level", "0", "--dice", "44", "--match",
                      "7", "--score", "0-0", "--json")
    assert json.loads(out)["score"]["context"] == "7-point match, 7-away/7-away"


@pytest.mark.parametrize("args, msg", [
    (["portes", "start", "--dice", "31", "--match", "5", "--cube", "2"], "without the doubling"),
    (["portes", "start", "--dice", "31", "--score", "1-2"], "needs --match"),
    (["portes", "start", "--dice", "31", "--match", "5", "--score", "5-1"], "not before a game"),
    (["portes", "start", "--dice", "31", "--match", "0"], "1..99"),
    (["backgammon", "start", "--dice", "31", "--match", "5", "--score", "x"], "A-B"),
    (["backgammon", "start", "--dice", "31", "--crawford"], "need --match"),
])
def test_bad_match_options_of_a_move_hint_are_one_line(capsys, args, msg):
    rc, out, err = _cli(capsys, *args)
    assert rc != 0 and not out and msg in err and len(err.strip().splitlines()) == 1


def test_terminal_hint_in_a_match_shows_mwc(monkeypatch, capsys):
    import io

    from tavli.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
    rc = main(["play", "--tui", "--game", "tavli", "--points", "5", "--seed", "3",
               "--opponent", "human"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "5-point Tavli match, 0-0, portes (next plakoto); match equity and winning " \
           "chances" in out
    first = out.split("best first):")[1].splitlines()[1]
    assert first.rstrip().endswith("%")


def test_web_hint_and_ai_in_a_match(client):
    from tavli.web import workers

    r = client.post("/api/games", json={"variant": "tavli", "opponent": "human", "seed": 3})
    gid = r.json()["id"]
    st = client.post(f"/api/games/{gid}/roll").json()  # the opening throw
    if st["phase"] != "move":
        st = client.post(f"/api/games/{gid}/roll").json()
    h = client.get(f"/api/games/{gid}/hint", params={"level": "advanced"}).json()
    assert h["score"]["context"] == "5-point Tavli match, 0-0, portes (next plakoto)"
    assert all(0 < m["mwc"] < 1 for m in h["moves"])
    # the AI's job carries the match: the worker plays the score
    pos = Position.from_id(PORTES_POS)
    m = _match_after([(pos.turn, "gammon")] * 2)
    g = Game(Rules.for_game("portes"), position=pos, match_play=True)
    g.set_dice(PORTES_DICE)
    job = {"engine": "neural", "level": "advanced", "rules": g.rules.to_dict(),
           "position": PORTES_POS, "phase": "move", "dice": list(PORTES_DICE),
           "cube_value": 1, "cube_owner": None, "can_double": False,
           "match": match_state(g, m)}
    assert workers.ai_action(job)["move"] == PORTES_SAFE
    assert workers.ai_action({**job, "match": None})["move"] == PORTES_GAMMONISH
    hint = workers.hint_moves({"engine": "neural", "ply": 0, "rules": g.rules.to_dict(),
                               "position": PORTES_POS, "dice": list(PORTES_DICE),
                               "match": match_state(g, m)})
    assert hint["moves"][0]["move"] == PORTES_SAFE and hint["score"]["win_gammon"] == 0


def test_web_cube_decision_reads_the_match_score():
    from tavli.web import workers

    # black trails 2-4 of 5 after the Crawford game: he doubles at once (a money player
    # never doubles at the start)
    m = _match_after([(0, "gammon"), (0, "gammon"), (1, "gammon")], 5, "backgammon")
    assert m.score == (4, 2) and m.games[2].crawford and not m.game.crawford
    start = Position.start("backgammon")
    g = Game(m.game.rules, position=start if start.turn == 1 else start.swap_turn(),
             match_play=True)
    job = {"engine": "neural", "level": "advanced", "rules": g.rules.to_dict(),
           "position": g.position.id(), "phase": "roll", "dice": None, "cube_value": 1,
           "cube_owner": None, "can_double": True, "match": match_state(g, m)}
    assert workers.ai_action(job) == {"action": "double"}
    assert workers.ai_action({**job, "match": None}) == {"action": "roll"}


def test_analysis_of_a_match_judges_moves_at_the_score():
    from tavli.ai.analysis import analyse_turns
    from tavli.play.cube.scoring import turn_weights
    from tavli.play.players import GreedyPlayer, act

    m = Match(target=3, variant="backgammon", seed=4)
    m.game.resign(1, "single")  # white leads 1-0
    m.next_game()
    g = m.game
    doubled = False
    while len(g.turns) < 6:
        if g.phase == "roll" and not doubled and g.can_double():
            g.double()
            g.take()
            doubled = True
            continue
        act(g, GreedyPlayer())
    w = turn_weights(m, 1)
    assert len(w) == len(g.turns)
    for (pos, _, _), sw in zip(g.turns, w, strict=True):
        assert not sw.is_money and sw.context.startswith("3-point match")
        away = (2, 3) if pos.turn == 0 else (3, 2)
        assert sw.context.split(", ")[1].startswith(f"{away[0]}-away/{away[1]}-away")
    assert any("cube 2" in sw.context for sw in w) == doubled
    from tavli.ai.analysis import TurnAnalysis

    def moves(entries):
        return [e for e in entries if isinstance(e, TurnAnalysis)]

    turns = moves(analyse_turns(m, 0, 0, 6))
    assert len(turns) == 6 and all(t.game == 2 for t in turns)
    money = moves(analyse_turns(g, 0, 0, 6))  # the game alone: money play
    assert [t.equity_best for t in turns] != [t.equity_best for t in money]
