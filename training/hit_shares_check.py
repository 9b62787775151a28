"""The portes-2 hit shares against the legal moves.

Collects contact positions of random backgammon play and, for each side's blots, compares
:func:`tavli.ai.features.hit_rolls` with the best the opponent's legal moves can do for each
of the 36 rolls (the most blots hit; the farthest-advanced blot hit). Prints how many sides
differ and the first few.

    .venv/bin/python training/hit_shares_check.py 500 2   # positions, seed (a few minutes)

The figure in docs/ai.md (portes-2, hits) comes from it.
"""

from __future__ import annotations

import random
import sys

import numpy as np

from tavli import Position
from tavli.ai.basics import is_contact
from tavli.ai.features import hit_rolls
from tavli.rules import Rules

RULES = Rules.for_game("backgammon")


def positions(n: int, rng: random.Random) -> list[Position]:
    out: list[Position] = []
    while len(out) < n:
        p = Position.start("backgammon", rng.randint(0, 1))
        while not p.is_finished() and len(out) < n:
            d = (rng.randint(1, 6), rng.randint(1, 6))
            moves = p.legal_moves(d, RULES)
            p = rng.choice(moves).after if moves else p.swap_turn()
            if rng.random() < 0.15 and is_contact(np.ascontiguousarray(p.array).reshape(104)):
                out.append(p)
    return out


def by_legal_moves(p: Position, side: int) -> tuple[float, float, float]:
    """``side``'s blots against the other side's legal moves: the shares of rolls hitting
    one, two, and the mean pips lost by the farthest-advanced blot hit / 24."""
    q = Position(p.game, p.array, turn=1 - side)
    a = q.array
    one = two = loss = 0.0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            w = 1 if d1 == d2 else 2
            most = 0
            lost = 0
            for m in q.legal_moves((d1, d2), RULES):
                after = m.after.array
                hits = int(after[side, 25]) - int(a[side, 25])
                if hits > 0:
                    gone = [t for t in range(1, 25) if a[side, t] == 1 and after[side, t] == 0]
                    lost = max(lost, max(25 - t for t in gone))
                most = max(most, hits)
            one += w * (most >= 1)
            two += w * (most >= 2)
            loss += w * lost
    return one / 36, two / 36, loss / 36 / 24


def main(n: int, seed: int) -> None:
    ps = positions(n, random.Random(seed))
    differ = 0
    for p in ps:
        b = np.ascontiguousarray(p.array).reshape(104)
        for side in (0, 1):
            mine = hit_rolls(b, side)
            ref = by_legal_moves(p, side)
            if not np.allclose(mine, ref, atol=1e-6):
                differ += 1
                if differ <= 5:
                    print(f"  {p.id()} side {side}: rolls hitting {mine[0] * 36:.0f}, "
                          f"legal {ref[0] * 36:.0f}")
    print(f"{len(ps)} contact positions of random play (seed {seed}), {2 * len(ps)} sides: "
          f"{differ} differ from the legal moves")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500,
         int(sys.argv[2]) if len(sys.argv) > 2 else 2)
