"""``tavli bench env``: how fast the research environments step, beside OpenSpiel's C++
backgammon in the same run (issue #34).

Every environment plays random legal actions, and each figure is the mean of repeated
timed runs with its 95% confidence interval (Student's t over the runs):

* ``TurnState``: one game stepped from Python (:class:`tavli.rl.state.TurnState`, what
  the PettingZoo, Gymnasium and OpenSpiel wrappers step), each game of :data:`GAMES`;
* ``VectorTurnEnv N=...``: the batched environment (:class:`tavli.rl.vector.VectorTurnEnv`),
  one compiled call a step for ``N`` games, the actions drawn by its compiled
  :meth:`~tavli.rl.vector.VectorTurnEnv.random_actions`;
* ``OpenSpiel``: ``pyspiel.load_game("backgammon")``, its C++ game through its Python
  API (legal actions, ``apply_action``; the dice sampled from ``chance_outcomes``);
* ``PettingZoo AEC``: :func:`tavli.rl.pettingzoo.env` (what a PettingZoo user steps:
  the wrapper with PettingZoo's checks) with PettingZoo's own loop, on backgammon
  without the cube, the code drawn from ``info["legal_actions"]``; ``PettingZoo AEC
  (mask)`` the same drawn from the action mask (``numpy.flatnonzero`` of its 24,430
  entries, as a user who reads only the mask does); ``PettingZoo raw_env``
  :class:`tavli.rl.pettingzoo.raw_env` without the checks.

The steps are not the same thing: here one decision is a whole turn; OpenSpiel's action
moves two checkers (a double takes two actions) and each throw of the dice is a chance
node, a step of its own. So each row gives decisions (an agent's actions) per second,
OpenSpiel's steps with its chance nodes too, and games per second: the per-game rate
compares the same work. The ratios the issue judges compare tavli's backgammon without
the cube (OpenSpiel's game) with OpenSpiel: the single environment's decisions per
second at least OpenSpiel's (1x), the batched one's at least 10x.

>>> [round(x, 2) for x in mean_ci([10.0, 12.0, 11.0, 9.0, 13.0])]
[11.0, 1.96]
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyspiel

from tavli.bench.ai import machine
from tavli.rl import pettingzoo
from tavli.rl.dama_vector import VectorDamaEnv
from tavli.rl.games import make_state
from tavli.rl.vector import GAMES_WITH_DICE, VectorTurnEnv

#: the game of OpenSpiel's backgammon in tavli (no cube)
SAME_GAME = "backgammon-nocube"
TARGET_SINGLE = 1.0
TARGET_BATCHED = 10.0
#: steps every batched environment takes before it is timed, so its games are at all
#: stages (they all start together)
WARMUP_STEPS = 150
#: Student's t at 97.5% for 1..10 degrees of freedom (then ~1.96)
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228)


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95% confidence interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    t = _T975[n - 2] if n - 1 <= len(_T975) else 1.96
    return mean, t * sd / math.sqrt(n)


@dataclass
class Run:
    """What one timed run counted: the agents' decisions, all steps (with OpenSpiel's
    chance nodes), the games ended, in ``seconds``."""

    decisions: int
    steps: int
    games: int
    seconds: float


@dataclass
class Figures:
    """An environment's runs, and their rates with their confidence intervals."""

    label: str
    game: str
    runs: list[Run]

    def rate(self, what: str) -> tuple[float, float]:
        return mean_ci([getattr(r, what) / r.seconds for r in self.runs])

    def per_game(self, what: str) -> float:
        games = sum(r.games for r in self.runs)
        return sum(getattr(r, what) for r in self.runs) / games if games else math.nan


class Budget:
    """When a timed run stops: after ``seconds``, or once ``games`` games have ended."""

    def __init__(self, seconds: float, games: int | None) -> None:
        self.seconds, self.games = seconds, games

    def done(self, t0: float, games: float) -> bool:
        if self.games is not None:
            return games >= self.games
        return time.perf_counter() - t0 >= self.seconds


def time_turnstate(game: str, budget: Budget, seed: int) -> Run:
    """One game stepped from Python, a random legal code each decision."""
    state = make_state(game, seed=seed)
    pick = random.Random(seed)
    decisions = games = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(64):
            legal = state.legal_actions()
            state.step(int(legal[pick.randrange(len(legal))]))
            decisions += 1
            if state.is_terminal():
                games += 1
                state.reset()
        if budget.done(t0, games):
            break
    return Run(decisions, decisions, games, time.perf_counter() - t0)


def time_vector(env: VectorTurnEnv | VectorDamaEnv, budget: Budget) -> Run:
    """The batched environment stepped with its own random legal codes (``budget``'s
    games: per env)."""
    games = steps = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(8):
            games += int(env.step(env.random_actions()).terminated.sum())
            steps += env.num_envs
        if budget.done(t0, games / env.num_envs):
            break
    return Run(steps, steps, games, time.perf_counter() - t0)


def time_openspiel(game: pyspiel.Game, budget: Budget, seed: int) -> Run:
    """OpenSpiel's game through its Python API: a random legal action at each decision,
    the dice drawn from the chance node's outcomes."""
    pick = random.Random(seed)
    decisions = chances = games = 0
    t0 = time.perf_counter()
    while not budget.done(t0, games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_draw(state.chance_outcomes(), pick.random()))
                chances += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[pick.randrange(len(legal))])
                decisions += 1
        games += 1
    return Run(decisions, decisions + chances, games, time.perf_counter() - t0)


def _draw(outcomes: list[tuple[int, float]], u: float) -> int:
    for action, p in outcomes:
        u -= p
        if u < 0:
            return action
    return outcomes[-1][0]


def time_aec(make_env: Callable[[], object], budget: Budget, seed: int,
             mask_only: bool = False) -> Run:
    """A PettingZoo AEC environment with PettingZoo's loop (``agent_iter``, ``last``,
    ``step``): a random legal action, drawn as :func:`time_turnstate` draws, from the
    info's ``legal_actions`` when there are (tavli's, unless ``mask_only``), else among
    those the action mask (in the observation or the info) allows; ``None`` for an agent
    whose game is over."""
    env = make_env()
    pick = random.Random(seed)
    decisions = games = 0
    t0 = time.perf_counter()
    while not budget.done(t0, games):
        env.reset(seed=pick.randrange(1 << 31))
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = _legal_codes(obs, info, mask_only)
            env.step(int(legal[pick.randrange(len(legal))]))
            decisions += 1
        games += 1
    return Run(decisions, decisions, games, time.perf_counter() - t0)


def _legal_codes(obs: object, info: dict, mask_only: bool) -> np.ndarray:
    """The legal codes an AEC environment offers: its info's ``legal_actions`` (unless
    ``mask_only``), else the action mask's nonzero entries."""
    if not mask_only and "legal_actions" in info:
        return info["legal_actions"]
    mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
    return np.flatnonzero(mask)


#: the untimed game before an environment's timed runs
WARMUP_GAME = Budget(0.0, 1)


def timed_runs(time_one: Callable[[Budget, int], Run], budget: Budget, runs: int,
               seed: int) -> list[Run]:
    """``runs`` runs of ``time_one(budget, seed)`` (seeds ``seed``, ``seed + 1``, ...)
    after one untimed game: the first timed run must not pay for loading or compiling
    what the environment calls (seen: a first run of the PettingZoo environment at a
    fifth of the others' rate, its observations' kernel loaded within it)."""
    time_one(WARMUP_GAME, seed - 1)
    return [time_one(budget, seed + r) for r in range(runs)]


def warmed(env):
    """A batched environment after :data:`WARMUP_STEPS` untimed steps (its kernels
    loaded, its games spread over their phases)."""
    for _ in range(WARMUP_STEPS):
        env.step(env.random_actions())
    return env


def bench_env(seconds: float = 1.0, games: int | None = None, runs: int = 5,
              envs: Sequence[int] = (256, 1024), names: Sequence[str] = GAMES_WITH_DICE,
              seed: int = 1, out: Callable[[str], object] = print,
              dama: Sequence[str] = ("russian",)) -> dict:
    """Measure every environment (``runs`` timed runs of ``seconds`` each, or of
    ``games`` games each), print the table and the judged ratios through ``out``, and
    return ``{"figures": [Figures...], "ratios": {...}}``."""
    if SAME_GAME not in names:
        names = (*names, SAME_GAME)
    budget = Budget(seconds, games)
    before = machine()
    figures = [Figures("TurnState", name, timed_runs(
        lambda b, s, name=name: time_turnstate(name, b, s), budget, runs, seed))
        for name in names]
    for n in envs:
        for name in names:
            env = warmed(VectorTurnEnv(name, n, seed=seed))
            figures.append(Figures(f"VectorTurnEnv N={n}", name,
                                   [time_vector(env, budget) for _ in range(runs)]))
    spiel = pyspiel.load_game("backgammon")
    figures.append(Figures("OpenSpiel (C++)", "backgammon", timed_runs(
        lambda b, s: time_openspiel(spiel, b, s), budget, runs, seed)))
    figures += _pettingzoo_figures(budget, runs, seed)
    figures += _dama_figures(dama, envs, budget, runs, seed)
    ratios = _ratios(figures)
    _print(figures, ratios, runs, budget, before, out)
    return {"figures": figures, "ratios": ratios}


def _pettingzoo_figures(budget: Budget, runs: int, seed: int) -> list[Figures]:
    """The AEC environment on backgammon without the cube: wrapped (the codes from the
    info, then from the mask as a user reading only the mask draws them) and raw."""
    rows = (("PettingZoo AEC", pettingzoo.env, False),
            ("PettingZoo AEC (mask)", pettingzoo.env, True),
            ("PettingZoo raw_env", pettingzoo.raw_env, False))
    return [Figures(label, SAME_GAME, timed_runs(
        lambda b, s, make=make, mask_only=mask_only: time_aec(
            lambda: make(SAME_GAME), b, s, mask_only), budget, runs, seed))
        for label, make, mask_only in rows]


def _dama_figures(names: Sequence[str], envs: Sequence[int], budget: Budget, runs: int,
                  seed: int) -> list[Figures]:
    """Dama's states, one game and batched, beside OpenSpiel's checkers (context only:
    other rules, an action per leg of a capture)."""
    figures = []
    for name in names:
        figures.append(Figures("DamaState", name, timed_runs(
            lambda b, s, name=name: time_turnstate(name, b, s), budget, runs, seed)))
        n = max(envs)
        env = warmed(VectorDamaEnv(name, n, seed=seed))
        figures.append(Figures(f"VectorDamaEnv N={n}", name,
                               [time_vector(env, budget) for _ in range(runs)]))
    if names:
        checkers = pyspiel.load_game("checkers")
        figures.append(Figures("OpenSpiel (C++)", "checkers", timed_runs(
            lambda b, s: time_openspiel(checkers, b, s), budget, runs, seed)))
    return figures


def _ratios(figures: list[Figures]) -> dict[str, dict]:
    """Each tavli environment on backgammon without the cube against OpenSpiel: per
    decision, per step with the chance nodes, per game (a ratio's interval from its two
    relative half-widths)."""
    spiel = next(f for f in figures if f.label.startswith("OpenSpiel"))
    ratios = {}
    for f in figures:
        if f.game != SAME_GAME or f is spiel:
            continue
        row = {}
        for key, ours, theirs in (("decisions", "decisions", "decisions"),
                                  ("steps", "decisions", "steps"), ("games", "games", "games")):
            (a, ha), (b, hb) = f.rate(ours), spiel.rate(theirs)
            r = a / b
            row[key] = (r, r * math.hypot(ha / a, hb / b) if a and b else math.inf)
        ratios[f.label] = row
    return ratios


def _fmt(mean: float, half: float) -> str:
    return f"{mean:,.0f} ± {half:,.0f}"


def _print(figures: list[Figures], ratios: dict[str, dict], runs: int, budget: Budget,
           before: str, out: Callable[[str], object]) -> None:
    each = f"{budget.games} games" if budget.games is not None else f"{budget.seconds:g} s"
    out(f"environment steps with random legal actions: {runs} runs of {each} each, "
        f"mean ± 95% confidence interval")
    out(f"machine: {before} before, {machine().split(', ', 1)[1]} after")
    head = (f"{'environment':<22} {'game':<18} {'decisions/s':>21} {'all steps/s':>21} "
            f"{'games/s':>15} {'decisions/game':>14}")
    out(head)
    out("-" * len(head))
    for f in figures:
        steps = _fmt(*f.rate("steps")) if f.label.startswith("OpenSpiel") else "(= decisions)"
        out(f"{f.label:<22} {f.game:<18} {_fmt(*f.rate('decisions')):>21} {steps:>21} "
            f"{_fmt(*f.rate('games')):>15} {f.per_game('decisions'):>14.1f}")
    out("one decision: tavli a whole turn (cube decisions apart); OpenSpiel two checker "
        "moves (a double two), its chance nodes (the dice) steps of their own; in Dama "
        "a whole move, in OpenSpiel's checkers (other rules: context, not a bar) one jump")
    out(f"against OpenSpiel's backgammon (tavli's {SAME_GAME}):")
    for label, row in ratios.items():
        target = TARGET_BATCHED if label.startswith("VectorTurnEnv") else TARGET_SINGLE
        out(f"  {label} (target {target:g}x):")
        for key, what in (("decisions", "decisions/s (an agent's steps: the issue's)"),
                          ("steps", "steps/s with its chance nodes"),
                          ("games", "games/s")):
            r, half = row[key]
            out(f"    {r:7.2f}x ± {half:.2f} its {what}: "
                f"{'met' if r >= target else 'not met'}")


__all__ = ["bench_env", "mean_ci", "time_turnstate", "time_vector", "time_openspiel",
           "time_aec", "timed_runs", "Budget", "Run", "Figures"]
