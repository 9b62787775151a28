"""Where does the shipped Plakoto net at 0-ply lose against its own 1-ply choice?

Plays self-play games of the shipped net; at each turn with a choice it ranks the moves at
0-ply and at 1-ply, counts the 1-ply equity the 0-ply choice gives up, and goes on with
either choice at random. Prints the loss per bucket of game phase, pins and mother.

    .venv/bin/python training/ply1_residual.py 400 11   # games, seed (4-5 min)

The figures of bench-plakoto-vs-tenth.txt ("where 0-ply loses to 1-ply") come from it.
"""

from __future__ import annotations

import sys
from collections import defaultdict

import numpy as np

from tavli.ai.encode import is_contact
from tavli.ai.neural import Analyzer
from tavli.game import Game
from tavli.rules import Rules


def buckets(pos) -> list[str]:
    mover = pos.turn
    me, op = pos.points(mover), pos.points(1 - mover)
    if not is_contact(np.ascontiguousarray(pos.array).reshape(104)):
        phase = "race"
    else:
        phase = "opening" if me[24] >= 10 or op[24] >= 10 else "middle"
    return ["all", f"phase:{phase}", f"mine pinned:{min(len(pos.pinned(mover)), 2)}",
            f"his pinned:{min(len(pos.pinned(1 - mover)), 2)}",
            f"bearing off:{sum(me[7:]) == 0}",
            f"lone mother:{me[24] == 1 and not pos.mother_pinned(mover)}",
            f"mine on 24:{min(me[24], 3)}"]


def main(games: int, seed: int) -> None:
    rules = Rules.for_game("plakoto")
    an = Analyzer(rules)
    rng = np.random.default_rng(seed)
    stats: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for _ in range(games):
        g = Game(rules, seed=int(rng.integers(1 << 30)))
        while not g.is_over:
            if g.phase != "move":
                g.roll()
                continue
            moves = g.legal_moves()
            if len(moves) <= 1:
                g.play(moves[0] if moves else None)
                continue
            r0 = an.rank(g.position, moves, 0)
            r1 = an.rank(g.position, moves, 1)
            # 1-ply values its filter's candidates, which always include 0-ply's best
            at1 = {r.move: r.equity for r in r1 if r.ply == 1}
            loss = r1[0].equity - at1[r0[0].move]
            for k in buckets(g.position):
                s = stats[k]
                s[0] += 1
                s[1] += loss > 1e-9
                s[2] += loss
            g.play(r0[0].move if rng.random() < 0.5 else r1[0].move)
    total = stats["all"][2]
    for k in sorted(stats):
        n, d, loss = stats[k]
        print(f"{k:18s} positions {n:6d}  1-ply differs {d / n:6.1%}  "
              f"mean loss {loss / n:.4f}  share of the loss {loss / total:6.1%}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100,
         int(sys.argv[2]) if len(sys.argv) > 2 else 11)
