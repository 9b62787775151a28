"""Dama's batched environment (tavli.rl.dama_vector) is DamaState, env by env: the same
legal codes, the same ends and rewards, a new game after each end."""

from __future__ import annotations

import numpy as np
import pytest

from tavli.errors import IllegalMove, OptionError
from tavli.rl.dama import DamaState
from tavli.rl.dama_vector import VectorDamaEnv


@pytest.mark.parametrize("rules", ["box", "russian", "italian"])
def test_each_env_is_a_dama_state(rules):
    env = VectorDamaEnv(rules, 5, seed=2)
    twins = [DamaState(rules) for _ in range(5)]
    ends = 0
    for _ in range(400):
        acts = env.random_actions()
        step = env.step(acts)
        for k, twin in enumerate(twins):
            mover = twin.player
            twin.step(int(acts[k]))
            assert step.movers[k] == mover
            if twin.is_terminal():
                ends += 1
                assert step.terminated[k]
                assert tuple(step.rewards[k]) == twin.returns()
                twin.reset()
            else:
                assert not step.terminated[k] and not step.rewards[k].any()
            assert env.legal_codes(k).tolist() == twin.legal_actions().tolist()
            assert np.array_equal(env.observations()[k], twin.observation(twin.player))
    assert ends > 0  # some games ended and started again
    assert np.array_equal(np.flatnonzero(env.legal_mask()[0]), env.legal_codes(0))


def test_an_illegal_code_changes_nothing_and_room_grows():
    env = VectorDamaEnv("russian", 3)
    before = env.observations(), env.counts
    acts = env.random_actions()
    acts[1] = 5
    with pytest.raises(IllegalMove, match="env 1"):
        env.step(acts)
    assert np.array_equal(env.observations(), before[0])
    assert np.array_equal(env.counts, before[1])
    with pytest.raises(OptionError):
        env.step([1, 2])
    env._moves, env._codes = env._moves[:, :8].copy(), env._codes[:, :8].copy()
    twin = DamaState("russian")
    for _ in range(30):  # positions with more than 8 moves come: the room grows
        a = env.random_actions()
        env.step(a)
        twin.step(int(a[0]))
        if twin.is_terminal():
            twin.reset()
        assert env.legal_codes(0).tolist() == twin.legal_actions().tolist()
    assert env._moves.shape[1] > 8


def test_blocks_on_threads_step_as_one_thread_does():
    one = VectorDamaEnv("box", 140, seed=4, threads=1)
    two = VectorDamaEnv("box", 140, seed=4, threads=2)
    assert len(two._blocks) == 2
    two._moves, two._codes = two._moves[:, :8].copy(), two._codes[:, :8].copy()  # grows
    for _ in range(120):
        acts = one.random_actions()
        a, b = one.step(acts), two.step(acts)
        assert np.array_equal(a.rewards, b.rewards)
        assert np.array_equal(a.terminated, b.terminated)
    assert np.array_equal(one.observations(), two.observations())
    assert np.array_equal(one.counts, two.counts) and two._moves.shape[1] > 8
