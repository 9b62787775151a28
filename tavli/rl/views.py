"""What the PettingZoo and Gymnasium environments show of a game (:mod:`tavli.rl.base`):
the spaces, the action mask, the text of the position, the stake of an illegal action.

An observation is a dict: ``observation``, the state's own vector
(:meth:`~tavli.rl.base.GameState.observation`, float32, unbounded: the encoders' features
include pip counts and differences), and ``action_mask``, int8 with a 1 at every legal
code of the side to decide (all 0 for the other side and at the end).

>>> from tavli.rl.games import make_state
>>> s = make_state("fevga", seed=2)
>>> observation_space(s)["action_mask"].shape, int(action_space(s).n)
((24430,), 24430)
>>> legal = np.flatnonzero(action_mask(s, s.player))
>>> legal.tolist() == s.legal_actions().tolist(), int(action_mask(s, 1 - s.player).sum())
(True, 0)
>>> most_points(s), most_points(make_state("backgammon"))
(2, 3)
"""

from __future__ import annotations

import numpy as np

from tavli.errors import OptionError
from tavli.rl.base import GameState
from tavli.rl.state import ANSWER, CUBE, TurnState

try:
    from gymnasium import spaces
except ImportError as e:  # the environments are the optional extra
    raise ImportError("the research environments need Gymnasium: pip install tavli[rl]") from e

#: the agents, by side (0 white, 1 black)
AGENTS = ("white", "black")
#: ``"ansi"``: ``render()`` returns the position's text; ``"human"``: prints it
RENDER_MODES = ("ansi", "human")
#: the decisions a game may last before it is cut short (truncated): far beyond any real
#: game (Portes between random players: about 100), a guard against endless play
DEFAULT_MAX_TURNS = 10_000


def check_options(render_mode: str | None, max_turns: int) -> None:
    """OptionError unless ``render_mode`` is one of :data:`RENDER_MODES` (or None) and
    ``max_turns`` a positive integer."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise OptionError(f"render_mode must be one of {', '.join(RENDER_MODES)} or "
                          f"None, got {str(render_mode)[:20]!r}")
    if not (isinstance(max_turns, int) and max_turns > 0):
        raise OptionError(f"max_turns must be a positive integer, got {max_turns!r}")


def observation_space(state: GameState) -> spaces.Dict:
    """The dict of the state's observation vector and the action mask."""
    return spaces.Dict({
        "observation": spaces.Box(-np.inf, np.inf, (state.observation_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (state.num_actions,), np.int8),
    })


def action_space(state: GameState) -> spaces.Discrete:
    """Every code of the game's action space (legal or not: the mask says which)."""
    return spaces.Discrete(state.num_actions)


def mask_of(state: GameState, codes: np.ndarray) -> np.ndarray:
    """int8 over the state's action space: 1 at ``codes`` (legal codes already made)."""
    mask = np.zeros(state.num_actions, dtype=np.int8)
    mask[codes] = 1
    return mask


def action_mask(state: GameState, side: int) -> np.ndarray:
    """int8 over the action space: 1 at the legal codes when ``side`` is to decide."""
    return mask_of(state, state.legal_actions() if state.player == side else [])


def observe(state: GameState, side: int) -> dict[str, np.ndarray]:
    """The observation of ``side`` (new arrays on every call)."""
    return {"observation": state.observation(side), "action_mask": action_mask(state, side)}


def most_points(state: GameState) -> int:
    """What a game is worth at most before the cube: the loss an illegal action costs
    (3 with backgammons, 2 in the other games with dice; 1 in Dama)."""
    if isinstance(state, TurnState):
        return 3 if state.rules.backgammons else 2
    return 1


def game_text(state: GameState) -> str:
    """The position as text, with who decides what (the games with dice: the board of
    :class:`tavli.Position`, the dice and the cube; other games: the state's own text)."""
    if not isinstance(state, TurnState):
        return str(state)
    return f"{state.position()}\n{_status(state)}"


def show(state: GameState, render_mode: str | None) -> str | None:
    """What an environment's ``render()`` gives in ``render_mode``: the text (``"ansi"``),
    or None having printed it (``"human"``) or without a mode."""
    if render_mode is None:
        return None
    text = game_text(state)
    if render_mode == "human":
        print(text)
        return None
    return text


def _status(state: TurnState) -> str:
    if state.is_terminal():
        white, black = state.returns()
        return f"game over ({state.kind}): white {white:+d}, black {black:+d}"
    who = AGENTS[state.player]
    if state.phase == CUBE:
        return f"{who} to roll or double (cube {state.cube})"
    if state.phase == ANSWER:
        return f"{who} to take or drop a double to {2 * state.cube}"
    return f"{who} to play {state.dice[0]}-{state.dice[1]}"


def draw_seed(rng: np.random.Generator) -> int:
    """A seed for a game's dice (or a policy) from the environment's generator."""
    return int(rng.integers(2**63))
