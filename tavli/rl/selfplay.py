"""Experience from self-play, on the same jobs as training: here, local processes or Ray.

:func:`self_play` plays ``games`` games of an environment's game between two policies
and returns one :class:`Episode` per game: what the deciding player observed before each
decision, the legal codes' count, the code it chose, and the game points each side won.
The games are cut into tasks of a few games (:mod:`tavli.compute`); game ``i`` is played
with the dice of seed ``(seed, i)`` and policies made for that task, so the episodes are
the same in one process, in local processes or on a Ray cluster.

>>> eps = self_play("fevga", random_pair, games=3, seed=1)
>>> len(eps), eps[0].observations.shape[1], sum(eps[0].returns)
(3, 346, 0)
>>> [e.actions[:3].tolist() for e in eps] == [e.actions[:3].tolist() for e in
...     self_play("fevga", random_pair, games=3, seed=1)]
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from tavli.compute import Compute, open_pool
from tavli.rl.base import GameState
from tavli.rl.games import make_state
from tavli.rl.policies import random_policy

HERE = Compute()
Policy = Callable[[GameState], int]
#: makes the two policies (white's, black's) of a task from its seed; must pickle (a
#: module-level function) to run in other processes or on Ray
PolicyPair = Callable[[int], tuple[Policy, Policy]]


@dataclass(frozen=True)
class Episode:
    """One game: for each decision, the decider's observation, who decided (0/1), how
    many codes were legal and the code chosen; the game points won by each side."""

    observations: np.ndarray
    players: np.ndarray
    legal_counts: np.ndarray
    actions: np.ndarray
    returns: tuple[float, float]


def play_episode(state: GameState, policies: tuple[Policy, Policy],
                 max_steps: int = 10_000) -> Episode:
    """Play ``state`` to its end (or ``max_steps`` decisions: returns 0, 0) and record it."""
    obs, players, counts, acts = [], [], [], []
    while not state.is_terminal() and len(acts) < max_steps:
        side = state.player
        legal = state.legal_actions()
        obs.append(state.observation(side))
        a = int(policies[side](state))
        players.append(side)
        counts.append(len(legal))
        acts.append(a)
        state.step(a)
    returns = state.returns() if state.is_terminal() else (0, 0)
    width = state.observation_size
    return Episode(np.array(obs, dtype=np.float32).reshape(-1, width),
                   np.array(players, dtype=np.int8), np.array(counts, dtype=np.int32),
                   np.array(acts, dtype=np.int64), returns)


def _task_setup(game: str, options: dict[str, Any], make_pair: PolicyPair) -> tuple:
    return game, options, make_pair


def _task_work(setup: tuple, task: tuple[int, int, int]) -> list[Episode]:
    game, options, make_pair = setup
    seed, first, count = task
    policies = make_pair(seed * 1_000_003 + first)
    out = []
    for i in range(first, first + count):
        state = make_state(game, seed=seed * 1_000_003 + i, **options)
        out.append(play_episode(state, policies))
    return out


def self_play(game: str, make_pair: PolicyPair, games: int, compute: Compute = HERE,
              seed: int = 0, per_task: int = 8, **options: Any) -> list[Episode]:
    """``games`` games of ``game`` (a name of :data:`tavli.rl.games.GAMES`, rule
    ``options`` on top) between the policies ``make_pair`` makes, run where ``compute``
    says; the episodes in game order."""
    if games < 0 or per_task < 1:
        raise ValueError("games must be >= 0 and per_task >= 1")
    tasks = [(seed, first, min(per_task, games - first))
             for first in range(0, games, per_task)]
    with open_pool(compute, _task_setup, (game, dict(options), make_pair)) as pool:
        chunks = list(pool.map(_task_work, tasks, ordered=True))
    return [e for chunk in chunks for e in chunk]


def random_pair(seed: int) -> tuple[Policy, Policy]:
    """Two uniformly random players."""
    return random_policy(seed), random_policy(seed + 1)
