"""Measure the per-variant outcome rates a Tavli match equity uses (docs/ai.md, Match
equity and cube): the shipped networks at 0-ply against themselves, the starting side's
results and the gammon (and Plakoto mother) and draw shares, with 95% intervals.

    python scripts/tavli_rates.py [GAMES] [SEED] [GAME ...]

The games are played with :func:`tavli.ai.fastplay.compiled_match`'s duplicate dice; the
two players being the same, the second game of each pair repeats the first move for move,
so only the first is counted (``GAMES`` independent games, white starting).
"""

from __future__ import annotations

import json
import math
import sys
import time

import numpy as np

from tavli.ai.evaluator import Evaluator
from tavli.ai.fastplay import NET, compiled_match
from tavli.engine.rules import Rules


def rates(game: str, games: int, seed: int) -> dict:
    ev = Evaluator.shipped(game)
    t = time.perf_counter()
    res = compiled_match(ev, NET, ev, NET, Rules(game), games, seed)
    starter = res[0::2]  # white (A) starts; the pair's second game is the same game
    n = len(starter)

    def share(mask) -> tuple[float, float]:
        p = float(np.mean(mask))
        return round(p, 4), round(1.96 * math.sqrt(p * (1 - p) / n), 4)

    return {"game": game, "games": n, "seconds": round(time.perf_counter() - t, 1),
            "starter_win_single": share(starter == 1), "starter_win_double": share(starter >= 2),
            "starter_lose_single": share(starter == -1),
            "starter_lose_double": share(starter <= -2), "draw": share(starter == 0),
            "gammon_share_of_wins": round(float(np.mean(np.abs(starter[starter != 0]) >= 2)),
                                          4)}


if __name__ == "__main__":
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    for g in sys.argv[3:] or ("portes", "plakoto", "fevga"):
        print(json.dumps(rates(g, n_games, seed)), flush=True)
