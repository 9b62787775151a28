"""The research environments' state of the games with dice (tavli.rl.state, tavli.rl.actions)
against the engine's own Position and Game: the same legal turns, the same ends."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from tavli.engine.games.kernel import judge
from tavli.engine.rules import Rules
from tavli.errors import IllegalMove, WrongState
from tavli.play.game import Game
from tavli.rl import actions
from tavli.rl.actions import DOUBLE, DOUBLES, DROP, NUM_ACTIONS, PASS, ROLL, TAKE, encode
from tavli.rl.base import CHANCE, TERMINAL
from tavli.rl.games import make_state
from tavli.rl.state import TurnState

DICE_GAMES = ["portes", "plakoto", "fevga", "backgammon-nocube"]


def test_every_double_multiset_has_its_own_code_and_reads_back():
    seen = set()
    for k in range(1, 5):
        for chosen in itertools.combinations_with_replacement(range(1, 26), k):
            steps = [(s, max(s - 2, 0), 0) for s in sorted(chosen, reverse=True)]
            code = encode(steps, (2, 2))
            assert DOUBLES <= code < ROLL
            assert sorted(s for s, _ in actions.sources(code)) == sorted(chosen)
            seen.add(code)
    assert len(seen) == actions.N_DOUBLES


def test_non_double_codes_name_the_source_of_each_die():
    assert encode([(13, 7, 0), (8, 5, 0)], (3, 6)) == 13 * 26 + 8
    assert encode([(8, 5, 0), (13, 7, 0)], (6, 3)) == 13 * 26 + 8
    assert encode([(25, 22, 0)], (3, 6)) == 0 * 26 + 25  # only the lower die played
    assert actions.describe(13 * 26 + 8, (6, 3)) == "13/7 8/5"
    assert actions.describe(3 * 26 + 2, (6, 5)) == "3/off 2/off"
    with pytest.raises(ValueError):
        actions.sources(NUM_ACTIONS)


@pytest.mark.parametrize("game", DICE_GAMES)
def test_legal_codes_are_the_engines_turns_one_code_each(game):
    """Random games: at every turn the state's legal codes are exactly the codes of
    Position.legal_moves (distinct: one per final position), and the end is the verdict
    Game gives."""
    rng = random.Random(5)
    for seed in range(6):
        s = make_state(game, seed=seed)
        while not s.is_terminal():
            pos = s.position()
            moves = pos.legal_moves(s.dice, s.rules)
            codes = [encode(m.steps, m.dice) for m in moves]
            assert len(set(codes)) == len(codes)
            expected = sorted(codes) if codes else [PASS]
            assert s.legal_actions().tolist() == expected
            choice = rng.randrange(len(expected))
            s.step(expected[choice])
            if moves:
                after = moves[codes.index(expected[choice])].after
                assert np.array_equal(s.board_array(), after.array)
        pts = judge(s.board_array(), s.rules.kernel_flags())
        assert pts is not None
        winner, points, kind = pts
        if winner is None:
            assert s.returns() == (0, 0) and s.kind == "draw"
        else:
            assert s.returns()[winner] == points and s.kind == kind


def test_the_opening_follows_game():
    """Without opening_reroll (backgammon) the opening dice are the starter's first
    roll; with it (Tavli) he throws again. The starter has the higher die."""
    s = TurnState(Rules("backgammon", cube=False), chance=True)
    assert s.player == CHANCE and len(s.chance_outcomes()) == 30
    s.throw((2, 5))
    assert (s.player, s.dice, s.phase) == (1, (2, 5), "move")
    t = TurnState("portes", chance=True)
    t.throw((4, 1))
    assert t.player == CHANCE and t.phase == "dice"
    assert abs(sum(p for _, p in t.chance_outcomes()) - 1) < 1e-12
    t.throw((3, 3))
    assert (t.player, t.dice) == (0, (3, 3))
    g = Game("backgammon", seed=1)
    g.roll()
    assert g.phase == "move"  # the same rule in Game


def test_the_cube_doubles_takes_and_drops():
    s = TurnState("backgammon", chance=True)
    s.throw((6, 1))
    s.step(int(s.legal_actions()[0]))  # white's opening move; black may double
    assert s.phase == "cube" and s.player == 1
    assert s.legal_actions().tolist() == [ROLL, DOUBLE]
    s.step(DOUBLE)
    assert s.phase == "answer" and s.player == 0
    assert s.legal_actions().tolist() == [TAKE, DROP]
    s.step(TAKE)
    assert (s.cube, s.cube_owner, s.phase) == (2, 0, "dice")
    s.throw((2, 1))
    s.step(int(s.legal_actions()[0]))
    assert s.phase == "cube" and s.player == 0  # white owns the cube
    s.step(DOUBLE)
    s.step(DROP)
    assert s.is_terminal() and s.player == TERMINAL
    assert s.returns() == (2, -2) and s.kind == "drop"


def test_an_illegal_action_is_refused_and_changes_nothing():
    s = TurnState("plakoto", seed=3)
    before = (s.board_array(), s.player, s.dice, s.legal_actions().tolist())
    for bad in (NUM_ACTIONS, -1, ROLL, 12345):
        if bad in before[3]:
            continue
        with pytest.raises(IllegalMove):
            s.step(bad)
    assert np.array_equal(s.board_array(), before[0])
    assert (s.player, s.dice, s.legal_actions().tolist()) == before[1:]
    with pytest.raises(WrongState):
        s.throw((1, 2))  # no chance node without chance=True


def test_seeds_repeat_games_and_clones_are_independent():
    def play(seed):
        s = make_state("fevga", seed=seed)
        out = []
        while not s.is_terminal():
            a = int(s.legal_actions()[-1])
            out.append(a)
            s.step(a)
        return out, s.returns()

    assert play(11) == play(11)
    s = make_state("portes", seed=2)
    c = s.clone()
    legal, board = c.legal_actions().tolist(), c.board_array()
    s.step(legal[0])
    assert s.turns == 1 and not np.array_equal(s.board_array(), board)
    assert c.turns == 0 and np.array_equal(c.board_array(), board)
    assert c.legal_actions().tolist() == legal


def test_observations_see_the_board_from_each_side():
    s = make_state("portes", seed=4)
    x0, x1 = s.observation(0), s.observation(1)
    assert x0.dtype == np.float32 and x0.shape == (s.observation_size,)
    k = s.n_features
    rows = s.board_array()
    assert np.array_equal(x0[k:k + 26], rows[0]) and np.array_equal(x1[k:k + 26], rows[1])
    flag = s.observation_size - 1  # whether the observer decides
    assert x0[flag] == (s.player == 0) and x1[flag] == (s.player == 1)
