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

Each agent's info holds ``legal_actions``: its legal codes, increasing (int64, read-only;
empty when it is not to decide), the codes its mask marks, without reading the 24,430
entries of the mask (``numpy.flatnonzero`` of an int8 mask of 24,430 takes some 45 µs, a
whole step of the environment some 10). A step makes new arrays and info dicts, so those
an agent keeps never change. (A wrapper of PettingZoo's that ends the game itself, such as
``TerminateIllegalWrapper`` around :class:`raw_env`, clears the masks but leaves the
infos as they were; a terminated or truncated agent's only action is None anyway.)

:func:`raw_env` refuses an illegal action (:class:`tavli.errors.IllegalMove`, nothing
changes); :func:`env` wraps it as PettingZoo's classic games are (:class:`ClassicChecks`,
one layer doing the work of PettingZoo's three wrappers): an action outside the space is
an assertion error and an illegal one ends the game, the agent that took it losing
:func:`~tavli.rl.views.most_points` (its opponent gets 0).

>>> e = env("plakoto")
>>> e.reset(seed=3)
>>> e.agent_selection, int(e.action_space("white").n)
('black', 24430)
>>> obs, reward, terminated, truncated, info = e.last()
>>> code = int(info["legal_actions"][0])
>>> code == int(np.flatnonzero(obs["action_mask"])[0])
True
>>> e.step(code); e.agent_selection
'white'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tavli.errors import IllegalMove
from tavli.rl.games import make_state
from tavli.rl.views import (
    AGENTS,
    DEFAULT_MAX_TURNS,
    RENDER_MODES,
    action_space,
    check_options,
    draw_seed,
    mask_of,
    most_points,
    observation_space,
    show,
)

try:
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as e:  # the environments are the optional extra
    raise ImportError("tavli.rl.pettingzoo needs PettingZoo: pip install tavli[rl]") from e

#: each agent's side (0 white, 1 black)
SIDES = {agent: side for side, agent in enumerate(AGENTS)}
#: each agent's opponent
OPPONENT = {AGENTS[0]: AGENTS[1], AGENTS[1]: AGENTS[0]}
#: the legal codes of an agent not to decide: none (read-only, so sharing it is safe)
NO_ACTIONS = np.zeros(0, dtype=np.int64)
NO_ACTIONS.setflags(write=False)


def env(game: str = "portes", render_mode: str | None = None,
        max_turns: int = DEFAULT_MAX_TURNS, **rule_options: Any) -> AECEnv:
    """:class:`raw_env` with PettingZoo's checks (:class:`ClassicChecks`): an illegal action
    loses the game."""
    raw = raw_env(game, render_mode, max_turns, **rule_options)
    return ClassicChecks(raw, illegal_reward=-most_points(raw.game))


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
        self.agent_selection = AGENTS[self.game.player]
        self._offer_legal_actions(self.agent_selection)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation (new arrays on every call); once it is terminated or
        truncated, no action is legal (whoever ended the game: this env, or a wrapper such
        as PettingZoo's ``TerminateIllegalWrapper``)."""
        over = self.terminations.get(agent) or self.truncations.get(agent)
        mask = mask_of(self.game, NO_ACTIONS if over else self._legal[agent])
        return {"observation": self.game.observation(SIDES[agent]), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The agent to decide takes ``action`` (None once it is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.step(int(action))  # IllegalMove, with nothing changed, if not legal
        self.turns += 1
        # the rewards (and so the acting agent's cumulative reward) stay 0 from the reset
        # to the end of the game: nothing to clear or add before then
        if self.game.is_terminal():
            self.rewards = dict(zip(AGENTS, map(float, self.game.returns()), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
            self._game_over(agent)
        elif self.turns >= self.max_turns:
            self.truncations = dict.fromkeys(self.agents, True)
            self._game_over(agent)
        else:
            self.agent_selection = AGENTS[self.game.player]
            self._offer_legal_actions(self.agent_selection)
        if self.render_mode == "human":
            self.render()

    def _game_over(self, agent: str) -> None:
        """After ``agent``'s last step: its opponent steps out first, nobody may act."""
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        self.agent_selection = OPPONENT[agent]
        self._offer_legal_actions(None)

    def _offer_legal_actions(self, decider: str | None) -> None:
        """The legal codes of ``decider`` (None: nobody's) into the infos and the masks: new
        arrays and dicts at every step, read-only, so what an agent kept never changes and
        the mask and the info always agree."""
        legal = dict.fromkeys(AGENTS, NO_ACTIONS)
        if decider is not None:
            codes = self.game.legal_actions()
            codes.setflags(write=False)
            legal[decider] = codes
        self._legal = legal
        self.infos = {agent: {"legal_actions": codes} for agent, codes in legal.items()}

    def _lose_by_illegal_action(self, agent: str, reward: float) -> None:
        """End the game as PettingZoo's ``TerminateIllegalWrapper`` does when ``agent``
        took an illegal action: every agent terminated and truncated, ``agent`` given
        ``reward``, the others 0, the first agent stepping out first."""
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(reward)
        self._accumulate_rewards()
        self._deads_step_first()
        self._offer_legal_actions(None)

    def render(self) -> str | None:
        """The position's text (``"ansi"``), or printed (``"human"``)."""
        return show(self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release (text rendering only)."""


def _raw_attribute(name: str) -> property:
    """The raw environment's attribute ``name`` read and written through the wrapper
    directly (PettingZoo's ``__getattr__`` takes four times as long: the loop reads
    ``agents`` and ``agent_selection`` at every step), refused before :meth:`reset` as
    ``OrderEnforcingWrapper`` refuses it."""

    def read(self: ClassicChecks) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def write(self: ClassicChecks, value: Any) -> None:
        setattr(self.env, name, value)

    return property(read, write)


class ClassicChecks(OrderEnforcingWrapper):
    """:class:`raw_env` checked as PettingZoo's classic games are, in one layer: what
    ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw,
    illegal_reward)))`` does, without three wrappers' lookups at every call.

    Before :meth:`reset`, PettingZoo's errors (it is an ``OrderEnforcingWrapper``); an
    action outside the action space (None but for a terminated or truncated agent) is an
    ``AssertionError``; an illegal one warns and ends the game: the agent that took it
    gets ``illegal_reward``, the other 0, both are terminated and truncated.
    """

    agents = _raw_attribute("agents")
    agent_selection = _raw_attribute("agent_selection")
    rewards = _raw_attribute("rewards")
    terminations = _raw_attribute("terminations")
    truncations = _raw_attribute("truncations")
    infos = _raw_attribute("infos")

    def __init__(self, env: raw_env, illegal_reward: float) -> None:
        super().__init__(env)
        self._illegal_reward = illegal_reward
        self._space = env.action_space(AGENTS[0])
        self._num_actions = int(self._space.n)

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        raw = self.env
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        done = raw.terminations[agent] or raw.truncations[agent]
        assert (action is None and done) or self._in_space(action), \
            "action is not in action space"
        try:
            raw.step(action)
        except IllegalMove:  # raised before anything changed
            EnvLogger.warn_on_illegal_move()
            raw._lose_by_illegal_action(agent, self._illegal_reward)

    def _in_space(self, action: object) -> bool:
        # a Python int is in a Discrete space when in range (what contains() finds, slower)
        if type(action) is int:
            return 0 <= action < self._num_actions
        return self._space.contains(action)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def last(self, observe: bool = True) -> tuple:
        if not self._has_reset:  # PettingZoo's errors
            return super().last(observe)
        return self.env.last(observe)

    def __str__(self) -> str:
        return str(self.env)
