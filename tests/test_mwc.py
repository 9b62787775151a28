"""Match-aware checker play: the score's weights (tavli/cube/scoring.py), the weighted
search, the AI, the hints (CLI, TUI, web) at a match score (docs/ai.md, Match-aware
checker play)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tavli.ai.neural import Analyzer, NeuralPlayer
from tavli.board import Position
from tavli.cube.info import CubeInfo, Owner
from tavli.cube.met import default_met
from tavli.cube.scoring import ScoreWeights, match_state, weights_from_state
from tavli.cube.tavli_met import Starter, TavliEquity
from tavli.errors import OptionError
from tavli.game import Game
from tavli.match import Match
from tavli.rules import Rules

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


#: a backgammon position (white to move, 4-4): the hit 13/9 10/2* 6/2 goes for the gammon
#: (29% gammons, 72% wins); 20/16(2) 6/2*(2) wins more often (74%) with fewer gammons
BG_POS, BG_DICE = "B3WcGQMQzN6IAQM", (4, 4)
BG_GAMMONISH, BG_SAFE = "13/9 10/2* 6/2", "20/16(2) 6/2*(2)"
#: Portes (5-2): the hit 23/21 8/3* (55% gammons) against the quiet 23/18 11/9 (85% wins)
PORTES_POS, PORTES_DICE = "AcydOQBEm22WABA", (2, 5)
PORTES_GAMMONISH, PORTES_SAFE = "23/21 8/3*", "23/18 11/9"


def _top(game, pos_id, dice, score=None) -> str:
    rules = Rules.for_game(game)
    pos = Position.from_id(pos_id)
    return str(Analyzer(rules).rank(pos, pos.legal_moves(dice, rules), 0, score)[0].move)


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
