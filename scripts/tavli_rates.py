"""Measure the per-variant outcome rates a Tavli match equity uses (docs/ai.md, Match
equity and cube): the shipped networks at 0-ply against themselves, duplicate dice, the
starting side's results and the gammon (and Plakoto mother) and draw shares.

    python scripts/tavli_rates.py [PAIRS] [SEED]
"""

from __future__ import annotations

import json
import math
import sys

import numpy as np

from tavli.ai.evaluator import Evaluator
from tavli.ai.selfplay import NET, compiled_match
from tavli.rules import Rules


def rates(game: str, pairs: int, seed: int) -> dict:
    ev = Evaluator.shipped(game)
    res = compiled_match(ev, NET, ev, NET, Rules(game), pairs, seed)
    # even games: A is white and starts; odd: B starts (A's points negated = starter's)
    starter = np.concatenate([res[0::2], -res[1::2]])
    n = len(starter)

    def share(mask) -> tuple[float, float]:
        p = float(np.mean(mask))
        return p, 1.96 * math.sqrt(p * (1 - p) / n)

    out = {"game": game, "games": n,
           "starter_win_single": share(starter == 1), "starter_win_double": share(starter >= 2),
           "starter_lose_single": share(starter == -1),
           "starter_lose_double": share(starter <= -2), "draw": share(starter == 0),
           "gammon_share_of_wins": float(np.mean(np.abs(starter[starter != 0]) >= 2))}
    return out


if __name__ == "__main__":
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    for g in ("portes", "plakoto", "fevga"):
        print(json.dumps(rates(g, pairs, seed)), flush=True)
