"""Match-aware checker play against money checker play: Tavli (or backgammon) matches
between the neural player at a level playing the score (docs/ai.md, Match-aware checker
play) and the same player ranking its moves by money equity; pairs of matches on one dice
sequence with the seats swapped. Prints the share of matches the match-aware player won
with its 95% interval (pairs as the independent unit).

    python scripts/mwc_bench.py [PAIRS] [TARGET] [VARIANT] [LEVEL] [SEED]
"""

from __future__ import annotations

import math
import random
import sys
import time

from tavli.ai.neural import NeuralPlayer
from tavli.engine.dice import DiceSource
from tavli.play.match import Match
from tavli.play.players import play_game


class MoneyCheckerPlayer(NeuralPlayer):
    """The neural player ranking its moves by money equity whatever the score."""

    def choose_move_in(self, game, moves):
        return self.choose_move(game.position, game.dice, moves, game.rules)


def pair(a, b, target: int, variant: str, seed: int) -> float:
    """A's share of the two matches on one dice sequence, seats swapped."""
    won = 0
    for swap in range(2):
        players = (a, b) if swap == 0 else (b, a)
        m = Match(target, variant, dice=DiceSource(rng=random.Random(seed)))
        while True:
            play_game(m.game, players)
            if m.is_over:
                break
            m.next_game()
        won += (m.winner == 0) == (swap == 0)
    return won / 2


if __name__ == "__main__":
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    target = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    variant = sys.argv[3] if len(sys.argv) > 3 else "tavli"
    level = sys.argv[4] if len(sys.argv) > 4 else "advanced"
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    a, b = NeuralPlayer(level), MoneyCheckerPlayer(level)
    t = time.perf_counter()
    shares = []
    for k in range(pairs):
        shares.append(pair(a, b, target, variant, seed * 1_000_003 + k))
        if (k + 1) % 50 == 0 or k + 1 == pairs:
            n = len(shares)
            mean = sum(shares) / n
            var = sum((s - mean) ** 2 for s in shares) / max(n - 1, 1)
            half = 1.96 * math.sqrt(var / n)
            print(f"{n} pairs ({2 * n} {target}-point {variant} matches, {level}): "
                  f"match-aware won {100 * mean:.1f}% ± {100 * half:.1f} (95%), "
                  f"{time.perf_counter() - t:.0f} s", flush=True)
