"""What one position's inputs cost, per encoder of the hitting family.

Plays self-play games of the shipped Portes/backgammon net at 0-ply (backgammon rules),
keeps every position, then times the compiled encoders over them (best of five passes):
all positions, and the contact ones alone (where the hit shares are computed).

    .venv/bin/python training/encode_speed.py 3000 9   # positions, seed (about a minute)

The encoding figures of docs/ai.md come from it.
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np
from numba import njit

from tavli import Position
from tavli.ai.basics import is_contact
from tavli.ai.encode import ENCODERS, encode, n_inputs
from tavli.ai.neural import NeuralPlayer
from tavli.rules import Rules


@njit(cache=True)
def _encode_all(boards, turns, code, x, reps):
    s = 0.0
    for _ in range(reps):
        for k in range(boards.shape[0]):
            encode(boards[k], turns[k], code, x)
            s += x[0]
    return s


def positions(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rules = Rules.for_game("backgammon")
    player = NeuralPlayer(0)
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        p = Position.start("backgammon", rng.randint(0, 1))
        while not p.is_finished() and len(out) < n:
            d = (rng.randint(1, 6), rng.randint(1, 6))
            m = player.choose_move(p, d, p.legal_moves(d, rules), rules)
            p = m.after if m else p.swap_turn()
            out.append(p)
    boards = np.stack([np.ascontiguousarray(p.array).reshape(104) for p in out])
    return boards, np.array([p.turn for p in out], dtype=np.int64)


def per_position(boards: np.ndarray, turns: np.ndarray, code: int, reps: int = 3) -> float:
    """Microseconds a position, best of five passes."""
    x = np.zeros(n_inputs(code), np.float32)
    _encode_all(boards[:2], turns[:2], code, x, 1)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        _encode_all(boards, turns, code, x, reps)
        best = min(best, time.perf_counter() - t)
    return best / (reps * len(boards)) * 1e6


def main(n: int, seed: int) -> None:
    boards, turns = positions(n, seed)
    contact = np.array([is_contact(b) for b in boards])
    print(f"{len(boards)} positions of 0-ply self-play (seed {seed}), "
          f"{contact.mean():.0%} in contact")
    for name in ("portes", "portes-2"):
        code = ENCODERS[name]
        all_ = per_position(boards, turns, code)
        cont = per_position(boards[contact], turns[contact], code)
        print(f"  {name:10s} {n_inputs(code):4d} inputs  {all_:5.2f} us a position, "
              f"{cont:5.2f} us in contact")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000,
         int(sys.argv[2]) if len(sys.argv) > 2 else 9)
