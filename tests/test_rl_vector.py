"""The batched environment (tavli.rl.vector) is TurnState many times over: the same legal
codes, dice, cube, observations and outcomes for the same seeds; it refuses an illegal
code naming the env and changing nothing; its finished games start again at once with
rewards that sum to zero. And `tavli bench env` runs and prints its lines."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from tavli.bench import env as bench
from tavli.cli import main
from tavli.errors import IllegalMove, OptionError
from tavli.rl import vector
from tavli.rl.actions import NUM_ACTIONS
from tavli.rl.state import PHASES, TurnState
from tavli.rl.vector import GAMES_WITH_DICE, VectorTurnEnv

STATE = ("boards", "turns", "players", "phases", "dice", "cubes", "cube_owners", "counts",
         "codes", "seeds")


def assert_same(env: VectorTurnEnv, twins: list[TurnState]) -> None:
    """Each env reads as its TurnState twin: decision, legal codes, board, cube, view."""
    codes, counts = env.legal_codes()
    obs = env.observations()
    for k, s in enumerate(twins):
        assert sorted(codes[k, :counts[k]].tolist()) == s.legal_actions().tolist()
        assert (env.players[k], PHASES[env.phases[k]]) == (s.player, s.phase)
        assert np.array_equal(env.boards[k], s.board)
        assert (env.cubes[k], env.cube_owners[k]) == (s.cube, s.cube_owner)
        if s.phase == "move":
            assert tuple(env.dice[k]) == s.dice
        assert np.array_equal(obs[k], s.observation(s.player))


def play_beside(game: str, n: int, steps: int, seed: int, **options) -> int:
    """``n`` envs and their TurnState twins fed the same random codes; returns the games
    that ended."""
    env = VectorTurnEnv(game, n, seed=seed, **options)
    twins = [TurnState(env.rules, seed=int(s)) for s in env.seeds]
    ended = 0
    for _ in range(steps):
        assert_same(env, twins)
        actions = env.random_actions()
        step = env.step(actions)
        for k, s in enumerate(twins):
            s.step(int(actions[k]))
            assert bool(step.terminated[k]) == s.is_terminal()
            assert tuple(step.rewards[k]) == (s.returns() if s.is_terminal() else (0, 0))
            if s.is_terminal():
                ended += 1
                s.reset(int(s.rng[0]))  # the same dice generator goes on, as the env's
    assert_same(env, twins)
    return ended


@pytest.mark.parametrize("game", GAMES_WITH_DICE)
def test_each_env_is_a_turnstate_with_the_same_seed(game):
    ended = play_beside(game, 6, 150, seed=3)  # 900 decisions
    assert ended >= (30 if game == "backgammon" else 4)  # the doubles dropped end it soon


def test_rule_options_reach_every_env():
    assert play_beside("backgammon", 4, 60, seed=8, jacoby=True) >= 10
    play_beside("portes", 4, 40, seed=8, opening_reroll=False)  # the opening throw played
    opening = VectorTurnEnv("portes", 50, seed=8, opening_reroll=False).dice
    assert (opening[:, 0] != opening[:, 1]).all()  # one die each, a tie thrown again


def test_room_for_legal_turns_grows_when_a_throw_has_more(monkeypatch):
    monkeypatch.setattr(vector, "FIRST_CAPACITY", 2)
    play_beside("plakoto", 3, 60, seed=5)
    play_beside("backgammon", 3, 30, seed=5)  # the cube's two choices fit in two


def test_an_illegal_code_is_refused_naming_the_env_and_nothing_changes():
    env = VectorTurnEnv("fevga", 5, seed=2)
    before = {name: getattr(env, name).copy() for name in STATE}
    actions = env.random_actions()
    actions[3] = NUM_ACTIONS - 1  # a drop, never legal in Fevga
    with pytest.raises(IllegalMove, match="env 3: action 24429 is not legal"):
        env.step(actions)
    for name in STATE:
        assert np.array_equal(getattr(env, name), before[name]), name
    with pytest.raises(OptionError, match="5 integer codes"):
        env.step(actions[:4])
    with pytest.raises(OptionError, match="5 integer codes"):
        env.step(actions.astype(float))
    with pytest.raises(ValueError, match="read-only"):
        env.boards[0, 1] = 3
    actions[3] = env.codes[3, 0]
    env.step(actions)
    assert not np.array_equal(env.boards, before["boards"])


def test_wrong_settings_are_refused():
    with pytest.raises(OptionError, match="box is not a game with dice"):
        VectorTurnEnv("box", 2)
    with pytest.raises(OptionError, match="num_envs"):
        VectorTurnEnv("portes", 0)
    with pytest.raises(OptionError, match="sides"):
        VectorTurnEnv("portes", 2).observations(np.array([0, 2]))


def test_finished_games_start_again_with_rewards_summing_to_zero():
    env = VectorTurnEnv("backgammon", 16, seed=7)
    start = np.array(env.rules.variant.start_array(env.rules.options())).reshape(-1)
    ended = 0
    for _ in range(60):
        deciding = env.players.copy()
        step = env.step(env.random_actions())
        assert np.array_equal(step.movers, deciding)
        assert (step.rewards.sum(axis=1) == 0).all()
        assert (step.rewards[~step.terminated] == 0).all()
        done = np.flatnonzero(step.terminated)
        assert (np.abs(step.rewards[done, 0]) >= 1).all()  # backgammon has no draw
        assert (env.boards[done] == start).all() and (env.cubes[done] == 1).all()
        assert (env.cube_owners[done] == -1).all()
        ended += len(done)
    assert ended > 16  # each env ended a game or more


def test_mask_random_codes_and_seeds():
    env = VectorTurnEnv("portes", 6, seed=11)
    mask = env.legal_mask()
    codes, counts = env.legal_codes()
    assert mask.shape == (6, NUM_ACTIONS) and (mask.sum(axis=1) == counts).all()
    picks = env.random_actions()
    assert mask[np.arange(6), picks].all()
    assert (codes[np.arange(codes.shape[1]) >= counts[:, None]] == -1).all()
    again = VectorTurnEnv("portes", 6, seed=11)
    assert np.array_equal(again.random_actions(), picks)
    assert np.array_equal(again.seeds, env.seeds)
    env.reset(seed=12)
    assert not np.array_equal(again.seeds, env.seeds)


def test_observations_of_either_side():
    env = VectorTurnEnv("plakoto", 3, seed=4)
    twins = [TurnState(env.rules, seed=int(s)) for s in env.seeds]
    sides = np.array([0, 1, 1])
    got = env.observations(sides)
    assert got.shape == (3, env.observation_size) == (3, twins[0].observation_size)
    for k, s in enumerate(twins):
        assert np.array_equal(got[k], s.observation(int(sides[k])))


class CountDown:
    """A two-agent AEC environment as PettingZoo's loop sees it: agents alternate
    until ``turns`` actions are taken, every other action masked out."""

    def __init__(self, turns: int = 5) -> None:
        self.turns = turns

    def reset(self, seed=None):
        self.left, self.agents, self.done = self.turns, ["a", "b"], set()

    def agent_iter(self):
        while self.agents:
            yield self.agents[self.left % 2]

    def last(self):
        over = self.left == 0
        mask = np.array([1, 0, 1], dtype=np.int8)
        return {"action_mask": mask}, 0.0, over, False, {}

    def step(self, action):
        if self.left == 0:
            assert action is None
            self.done.add(self.agents.pop())
            return
        assert action in (0, 2)
        self.left -= 1


def test_the_aec_loop_counts_decisions_and_games():
    run = bench.time_aec(lambda: CountDown(5), bench.Budget(1.0, 3), seed=1)
    assert (run.decisions, run.games) == (15, 3)


class CountDownWithLegalActions(CountDown):
    """:class:`CountDown` whose info lists the legal codes (only 2: the mask allows 0 too)."""

    def last(self):
        obs, reward, over, truncated, _ = super().last()
        return obs, reward, over, truncated, {"legal_actions": np.array([2])}

    def step(self, action):
        assert action in (None, 2)
        super().step(action)


def test_the_aec_loop_draws_from_the_infos_legal_actions_unless_told_the_mask():
    run = bench.time_aec(CountDownWithLegalActions, bench.Budget(1.0, 3), seed=1)
    assert (run.decisions, run.games) == (15, 3)
    with pytest.raises(AssertionError):  # from the mask, 0 is drawn in time
        bench.time_aec(CountDownWithLegalActions, bench.Budget(1.0, 20), seed=1,
                       mask_only=True)


def test_bench_env_quick_prints_every_environment_and_the_verdicts(capsys):
    assert main(["bench", "env", "--quick"]) == 0
    out = capsys.readouterr().out
    for line in ("TurnState              portes", "VectorTurnEnv N=32     fevga",
                 "OpenSpiel (C++)        backgammon", "PettingZoo AEC         backgammon-nocube",
                 "PettingZoo AEC (mask)  backgammon-nocube",
                 "PettingZoo raw_env     backgammon-nocube", "machine: ", "its decisions/s",
                 "its games/s"):
        assert line in out
    assert out.count("target 10x") == 2 and out.count("target 1x") == 4
    assert out.count(": met") + out.count(": not met") == 18


def test_bench_env_without_openspiel_names_the_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel fails
    assert main(["bench", "env", "--quick"]) == 2
    assert "pip install 'tavli[rl]'" in capsys.readouterr().err


def test_blocks_on_threads_step_as_one_thread_does():
    one = VectorTurnEnv("plakoto", 130, seed=9, threads=1)
    two = VectorTurnEnv("plakoto", 130, seed=9, threads=2)
    assert len(two._blocks) == 2 and len(one._blocks) == 1
    for _ in range(150):
        acts = one.random_actions()
        a, b = one.step(acts), two.step(acts)
        assert np.array_equal(a.rewards, b.rewards)
        assert np.array_equal(a.terminated, b.terminated)
    assert np.array_equal(one.boards, two.boards) and np.array_equal(one.codes, two.codes)
