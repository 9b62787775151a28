"""Train a small value network of afterstates for a Tavli game with scikit-learn, then
play it against tavli's greedy player and its shipped network.

The method is TD-Gammon's idea at its plainest: play games, remember each position a
turn left (its *afterstate*, seen by the player who made it) and the points that player
won in the end, fit a regressor to that, and then play the turn whose afterstate the
regressor likes best. The first round's games are the greedy player's (with a tenth of
random turns), so the first fit values its play and playing by that fit is a step of
policy improvement; later rounds play by the fit. A few minutes on one core:

    python examples/value_policy.py --game portes --games 600 --rounds 3 --eval 200

(docs/research.md shows a run's output; the suite runs it with a tiny budget.)
"""

from __future__ import annotations

import argparse
import math
import random
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from tavli.rl.base import GameState
from tavli.rl.games import make_state
from tavli.rl.policies import greedy_policy, neural_policy, random_policy


def value_policy(model: Pipeline | None, epsilon: float, rng: random.Random):
    """Play the afterstate ``model`` values most (before there is a model, the greedy
    player's turn), a random turn with probability ``epsilon``; other decisions (the
    cube, a pass) take the first legal code."""
    teacher = greedy_policy()

    def choose(state: GameState) -> int:
        codes, seen = state.afterstates(state.player)
        if len(codes) == 0:
            return int(state.legal_actions()[0])
        if rng.random() < epsilon:
            return int(codes[rng.randrange(len(codes))])
        if model is None:
            return teacher(state)
        return int(codes[int(np.argmax(model.predict(seen)))])
    return choose


def collect(game: str, policy, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Self-play: the afterstate of every turn played, with the points its player won."""
    inputs, targets = [], []
    for g in range(games):
        state = make_state(game, seed=seed + g)
        mine: list[tuple[int, np.ndarray]] = []
        while not state.is_terminal():
            side = state.player
            codes, seen = state.afterstates(side)
            action = policy(state)
            if len(codes):
                mine.append((side, seen[int(np.flatnonzero(codes == action)[0])]))
            state.step(action)
        points = state.returns()
        for side, x in mine:
            inputs.append(x)
            targets.append(points[side])
    return np.array(inputs), np.array(targets, dtype=np.float32)


def match(game: str, learner, other, games: int, seed: int) -> tuple[float, float]:
    """Mean points a game the learner wins against ``other`` (sides alternate) and the
    half-width of its 95% confidence interval."""
    points = []
    for g in range(games):
        state = make_state(game, seed=seed + g)
        side = g % 2
        while not state.is_terminal():
            state.step(learner(state) if state.player == side else other(state))
        points.append(state.returns()[side])
    mean = sum(points) / len(points)
    var = sum((p - mean) ** 2 for p in points) / max(1, len(points) - 1)
    return mean, 1.96 * math.sqrt(var / len(points))


def main(argv: list[str] | None = None) -> dict[str, tuple[float, float]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="portes")
    ap.add_argument("--games", type=int, default=600, help="self-play games a round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--eval", type=int, default=200, help="games against each opponent")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    # the inputs mix 0/1 flags with pip counts: scaled, or the network fits the counts only
    model = make_pipeline(StandardScaler(),
                          MLPRegressor(hidden_layer_sizes=(64,), learning_rate_init=1e-3,
                                       max_iter=30, random_state=args.seed))
    start = time.perf_counter()
    xs, ys = [], []
    fitted = None
    for r in range(args.rounds):
        policy = value_policy(fitted, epsilon=0.1, rng=rng)
        x, y = collect(args.game, policy, args.games, seed=args.seed * 100_000 + r * 10_000)
        xs.append(x)
        ys.append(y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fitted = model.fit(np.concatenate(xs), np.concatenate(ys))
        print(f"round {r + 1}: {len(y)} afterstates, fit on {sum(map(len, ys))}, "
              f"{time.perf_counter() - start:.0f} s")
    learner = value_policy(fitted, epsilon=0.0, rng=rng)
    results = {}
    for name, other in (("random", random_policy(seed=args.seed)),
                        ("greedy", greedy_policy()),
                        ("neural (beginner)", neural_policy(level="beginner"))):
        mean, half = match(args.game, learner, other, args.eval, seed=7_000_000)
        results[name] = (mean, half)
        print(f"against {name}: {mean:+.3f} ± {half:.3f} points a game "
              f"({args.eval} games)")
    print(f"total {time.perf_counter() - start:.0f} s")
    return results


if __name__ == "__main__":
    main()
