"""Gymnasium single-agent environments: the learner plays one side of a game of
:data:`tavli.rl.games.GAMES` against an opponent policy.

The opponent is a :mod:`tavli.rl.policies` baseline by name (``"random"``, ``"greedy"``,
``"neural"`` at the default level, ``"neural:<level>"``) or any callable
``policy(state) -> code``; its decisions are taken inside :meth:`TavliEnv.reset` and
:meth:`TavliEnv.step`, so every observation is the learner's, at a decision of his. The
learner's side is ``side`` (0 white, 1 black, or ``"random"``: drawn at every reset).

Observation: a dict (:mod:`tavli.rl.views`) of the game's float32 vector and the int8
``action_mask`` of the legal codes; the actions are ``Discrete(num_actions)``. For
sb3-contrib's ``MaskablePPO`` (and the like), :meth:`TavliEnv.action_masks` gives the mask
as booleans. The reward is 0 until the end, then the learner's game points (gammons and
the cube count). A game still running after ``max_turns`` decisions (both sides') is
truncated.

An illegal action (Gymnasium's checker steps with actions sampled from the whole space):
with ``illegal_action="lose"`` (the default) the episode ends, terminated, with the
reward ``-most_points`` (:func:`~tavli.rl.views.most_points`: what a game is worth at
most before the cube) and ``info["illegal_action"]`` True; with ``"raise"`` it is
:class:`tavli.errors.IllegalMove` and nothing changes.

:func:`register_envs` registers ``tavli/<Game>-v0`` (``tavli/Portes-v0``,
``tavli/BackgammonNocube-v0``...) for :func:`gymnasium.make`.

>>> env = TavliEnv("fevga", opponent="greedy", side=1)
>>> obs, info = env.reset(seed=5)
>>> code = int(np.flatnonzero(env.action_masks())[0])
>>> obs, reward, terminated, truncated, info = env.step(code)
>>> reward, terminated, bool(obs["action_mask"].any())
(0.0, False, True)
>>> env.step(0)[1:4]                     # not legal here: the game is lost
(-2.0, True, False)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tavli.errors import IllegalMove, OptionError, WrongState
from tavli.rl import views
from tavli.rl.games import GAMES, make_state
from tavli.rl.policies import Policy, make_policy

try:
    import gymnasium
except ImportError as e:  # the environments are the optional extra
    raise ImportError("tavli.rl.gym needs Gymnasium: pip install tavli[rl]") from e

ILLEGAL_ACTIONS = ("lose", "raise")


class TavliEnv(gymnasium.Env):
    """The learner plays ``side`` of ``game`` (with the rule options ``rule_options``)
    against ``opponent`` (see the module docstring)."""

    metadata = {"render_modes": list(views.RENDER_MODES), "render_fps": 1}

    def __init__(self, game: str = "portes", opponent: str | Policy = "random",
                 side: int | str = 0, illegal_action: str = "lose",
                 max_turns: int = views.DEFAULT_MAX_TURNS, render_mode: str | None = None,
                 **rule_options: Any) -> None:
        if side not in (0, 1, "random"):
            raise OptionError(f"side must be 0, 1 or 'random', got {str(side)[:20]!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise OptionError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, "
                              f"got {str(illegal_action)[:20]!r}")
        views.check_options(render_mode, max_turns)
        self.game = make_state(game, **rule_options)
        self.opponent = make_policy(opponent)
        self.side_choice = side
        self.side = 0 if side == "random" else side
        self.illegal_action = illegal_action
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.observation_space = views.observation_space(self.game)
        self.action_space = views.action_space(self.game)
        self.turns = 0
        self.over = True  # no game until reset

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """A new game (``seed``: the dice, the side when drawn and the opponent's random
        choices); the opponent plays until the learner is to decide."""
        super().reset(seed=seed)
        self.game.reset(views.draw_seed(self.np_random))
        if self.side_choice == "random":
            self.side = int(self.np_random.integers(2))
        if hasattr(self.opponent, "seed"):
            self.opponent.seed(views.draw_seed(self.np_random))
        self.turns = 0
        self.over = False
        self._opponent_plays()
        if self.render_mode == "human":
            self.render()
        return self._observe(), {}

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict]:
        """The learner takes ``action``, then the opponent plays until the learner is to
        decide again or the game ends."""
        if self.over:
            raise WrongState("the episode is over: reset the environment")
        legal = self.game.legal_actions()
        if int(action) not in legal:
            if self.illegal_action == "raise":
                raise IllegalMove(f"action {str(action)[:20]} is not legal here ({len(legal)} "
                                  "legal actions: see action_masks())")
            self.over = True
            loss = -float(views.most_points(self.game))
            return self._observe(), loss, True, False, {"illegal_action": True}
        self._play(int(action))
        self._opponent_plays()
        terminated = self.game.is_terminal()
        truncated = not terminated and self.turns >= self.max_turns
        self.over = terminated or truncated
        reward = float(self.game.returns()[self.side]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, {}

    def _play(self, action: int) -> None:
        self.game.step(action)
        self.turns += 1

    def _opponent_plays(self) -> None:
        while self.game.player == 1 - self.side and self.turns < self.max_turns:
            self._play(self.opponent(self.game))

    def _observe(self) -> dict[str, np.ndarray]:
        """The learner's observation; once the episode is over, no action is legal."""
        obs = views.observe(self.game, self.side)
        if self.over:
            obs["action_mask"][:] = 0
        return obs

    def action_masks(self) -> np.ndarray:
        """The legal codes of the learner as booleans (all False once the episode is
        over): what ``MaskablePPO`` asks an environment for."""
        return self._observe()["action_mask"].astype(bool)

    def render(self) -> str | None:
        """The position's text (``"ansi"``), or printed (``"human"``)."""
        return views.show(self.game, self.render_mode)


def env_id(game: str) -> str:
    """The Gymnasium id of ``game``: ``tavli/BackgammonNocube-v0`` for
    ``backgammon-nocube``."""
    return "tavli/" + "".join(part.capitalize() for part in game.split("-")) + "-v0"


def register_envs() -> list[str]:
    """Register every game of :data:`~tavli.rl.games.GAMES` with Gymnasium (once);
    returns their ids.

    >>> ids = register_envs()
    >>> ids[0], gymnasium.make(ids[0], opponent="greedy").unwrapped.game.rules.game_name
    ('tavli/Portes-v0', 'portes')
    """
    ids = []
    for game in GAMES:
        ids.append(env_id(game))
        if ids[-1] not in gymnasium.registry:
            gymnasium.register(ids[-1], entry_point=TavliEnv, kwargs={"game": game})
    return ids
