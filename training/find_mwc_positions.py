"""Find positions for tests/test_mwc.py after a new network ships.

That test pins, for one backgammon and one Portes position, the move the shipped network
ranks first at money play (the "gammonish" one) and at a score where gammons are worth
nothing to the side to move (the "safe" one). A new network may rank them otherwise; this
script plays 0-ply self-play games of the shipped network and prints positions where

- money play and an even match score rank the same move first,
- the gammon-free score ranks another move first,
- that money move has at least 5% more gammons and the other one more wins.

Usage: ``python training/find_mwc_positions.py backgammon|portes [SEED]``; the test wants
positions with black to move (turn 1), as printed.
"""

from __future__ import annotations

import sys

import numpy as np

from tavli.ai.neural import Analyzer
from tavli.board import Position
from tavli.cube.info import CubeInfo
from tavli.cube.scoring import ScoreWeights
from tavli.rules import Rules


def scores(game: str) -> tuple[ScoreWeights, ScoreWeights]:
    """The gammon-free score and the even one the test uses for ``game``."""
    if game == "backgammon":
        return (ScoreWeights.from_cube(CubeInfo(length=7, away=(1, 6), post_crawford=True)),
                ScoreWeights.from_cube(CubeInfo(length=7, away=(7, 7))))
    return (ScoreWeights.from_tavli(5, (4, 0), "portes"),
            ScoreWeights.from_tavli(5, (0, 0), "portes"))


def main(game: str, seed: int = 1, wanted: int = 4, games: int = 200) -> None:
    rules = Rules.for_game(game)
    an = Analyzer(rules)
    lead, even = scores(game)
    rng = np.random.default_rng(seed)
    found = 0
    for _ in range(games):
        pos = Position.start(game)
        for ply in range(120):
            if pos.is_finished():
                break
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            moves = pos.legal_moves(dice, rules)
            if not moves:  # a blocked roll: the other side moves
                pos = pos.swap_turn()
                continue
            money = an.rank(pos, moves, 0, None)
            if len(moves) > 3 and ply > 6:
                a = str(money[0].move)
                b = str(an.rank(pos, moves, 0, lead)[0].move)
                c = str(an.rank(pos, moves, 0, even)[0].move)
                oa = money[0].outputs
                ob = next(r.outputs for r in money if str(r.move) == b)
                if a == c != b and oa[1] > ob[1] + 0.05 and ob[0] > oa[0]:
                    print(f"{game} {pos.id()} turn {pos.turn} dice {dice}: money {a} "
                          f"(win {oa[0]:.2f}, gammon {oa[1]:.2f}); gammon-free {b} "
                          f"(win {ob[0]:.2f}, gammon {ob[1]:.2f})", flush=True)
                    found += 1
                    if found >= wanted:
                        return
            pos = money[0].move.after


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
