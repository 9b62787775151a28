"""PettingZoo AEC environments of every game of :data:`tavli.rl.games.GAMES`.

Two agents, ``white`` (side 0) and ``black`` (side 1), decide in turn; the side on turn
may decide twice running (a cube decision, then its move) and the other answers a
double. Each agent observes a dict (:mod:`tavli.rl.views`): ``observation``, the game's
float32 vector, and ``action_mask``, int8 over ``Discrete(num_actions)`` with the legal
codes of the agent to decide (all 0 for the other agent, and for both once the game is
over). The codes are :mod:`tavli.rl.actions`' for the games with dice (one code per whole
turn, then the cube's). The dice are thrown inside :meth:`raw_env.step` (there is no chance agent),
from the generator :meth:`raw_env.reset` seeds, so a seed replays a game exactly.

Rewards are game points (:meth:`~tavli.rl.base.GameState.returns`: gammons and the cube
count), given to both agents when the game ends, then both are terminated. A game still
running after ``max_turns`` decisions (default :data:`~tavli.rl.views.DEFAULT_MAX_TURNS`)
is truncated with no reward.

:func:`raw_env` refuses an illegal action (:class:`tavli.errors.IllegalMove`, nothing
changes); :func:`env` wraps it as PettingZoo's classic games are: an action outside the
space is an assertion error and an illegal one ends the game, the agent that took it
losing :func:`~tavli.rl.views.most_points` (its opponent gets 0).

>>> e = env("plakoto")
>>> e.reset(seed=3)
>>> e.agent_selection, int(e.action_space("white").n)
('black', 24430)
>>> obs, reward, terminated, truncated, info = e.last()
>>> code = int(np.flatnonzero(obs["action_mask"])[0])
>>> e.step(code); e.agent_selection
'white'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tavli.rl.games import make_state
from tavli.rl.views import (
    AGENTS,
    DEFAULT_MAX_TURNS,
    RENDER_MODES,
    action_space,
    check_options,
    draw_seed,
    most_points,
    observation_space,
    observe,
    show,
)

try:
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # the environments are the optional extra
    raise ImportError("tavli.rl.pettingzoo needs PettingZoo: pip install tavli[rl]") from e



def env(game: str = "portes", render_mode: str | None = None,
        max_turns: int = DEFAULT_MAX_TURNS, **rule_options: Any) -> AECEnv:
    """:class:`raw_env` with PettingZoo's wrappers: an illegal action loses the game."""
    raw = raw_env(game, render_mode, max_turns, **rule_options)
    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-most_points(raw.game))
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # noqa: N801 (PettingZoo's name for the unwrapped env)
    """The game ``game`` (a name of :data:`tavli.rl.games.GAMES`) with the rule options
    ``rule_options``; ``render_mode`` ``"ansi"`` (:meth:`render` returns the position's
    text) or ``"human"`` (prints it after every step)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "tavli_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: str = "portes", render_mode: str | None = None,
                 max_turns: int = DEFAULT_MAX_TURNS, **rule_options: Any) -> None:
        check_options(render_mode, max_turns)
        EzPickle.__init__(self, game, render_mode, max_turns, **rule_options)
        super().__init__()
        #: the game (not ``state``: that is AECEnv's global-state method)
        self.game = make_state(game, **rule_options)
        self.metadata = {**self.metadata, "name": f"tavli_{game.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.max_turns = max_turns
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {a: observation_space(self.game) for a in AGENTS}
        self.action_spaces = {a: action_space(self.game) for a in AGENTS}
        self._rng = np.random.default_rng()
        self.reset()

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; ``seed`` reseeds the dice (without it the dice go on from the
        generator's state)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game.reset(draw_seed(self._rng))
        self.turns = 0
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.game.player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation; once the game is truncated, no action is legal."""
        obs = observe(self.game, AGENTS.index(agent))
        if any(self.truncations.values()):
            obs["action_mask"][:] = 0
        return obs

    def step(self, action: int | None) -> None:
        """The agent to decide takes ``action`` (None once it is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.step(int(action))  # IllegalMove, with nothing changed, if not legal
        self.turns += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.is_terminal():
            self.rewards = dict(zip(AGENTS, map(float, self.game.returns()), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        elif self.turns >= self.max_turns:
            self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.agent_selection = AGENTS[self.game.player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The position's text (``"ansi"``), or printed (``"human"``)."""
        return show(self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release (text rendering only)."""
