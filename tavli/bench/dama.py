"""``tavli bench dama``: perft speed of the compiled generator, and against pydraughts on
the same positions in the same run.

:func:`bench_dama` builds ``positions`` positions per rule set (``russian`` and
``italian``, the two that pydraughts plays) by seeded random play, counts perft to
``depth`` from each with both generators (checking that the counts agree), and prints
nodes per second for each and the ratio; then the compiled generator's speed on the
long perft from the initial position (``start_depth``).
"""

from __future__ import annotations

import random
import time

from tavli.engine.dama import movegen as mg
from tavli.engine.dama.board import Position
from tavli.engine.dama.rules import DamaRules


def sample_positions(rules: str, n: int, seed: int = 1, max_plies: int = 60) -> list[Position]:
    """``n`` positions met in seeded random games (one taken every few plies)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        p = Position.start(rules)
        for ply in range(max_plies):
            ms = p.legal_moves()
            if not ms:
                break
            if ply >= 4 and ply % 5 == 0:
                out.append(p)
                if len(out) == n:
                    break
            p = p.play(rng.choice(ms))
    return out


def perft_ours(pos: Position, depth: int, buf=None) -> int:
    return mg.perft_kernel(pos.wm, pos.wk, pos.bm, pos.bk, pos.turn, pos.huff, depth,
                           pos.rules.geometry, pos.rules.flags, buf)


def perft_pydraughts(board, depth: int) -> int:
    """Perft with pydraughts' own push/pop (distinct moves per node as it lists them)."""
    moves = board.legal_moves()
    if depth == 1:
        return len({(m.board_move[0][0], m.board_move[-1][1], tuple(sorted(m.captures or [])))
                    for m in moves})
    total = 0
    seen = set()
    for m in moves:
        key = (m.board_move[0][0], m.board_move[-1][1], tuple(sorted(m.captures or [])))
        if key in seen:
            continue
        seen.add(key)
        board.push(m)
        total += perft_pydraughts(board, depth - 1)
        board.pop()
    return total


def _py_board(pos: Position):
    import draughts

    algebraic = pos.rules.notation == "algebraic"
    return draughts.Board(pos.rules.name, pos.fen(algebraic=algebraic, ranges=False))


def bench_dama(positions: int = 8, depth: int = 3, start_depth: int = 9, seed: int = 1,
               print_fn=print) -> dict:
    """Print and return the figures (nodes/s and ratios)."""
    out: dict = {}
    buf = mg.new_buffer(max(depth, start_depth) + 1)
    for name in ("russian", "italian"):
        rules = DamaRules.for_name(name)
        ps = sample_positions(name, positions, seed)
        perft_ours(ps[0], 2, buf)  # compile / load the cache
        t = time.perf_counter()
        ours = [perft_ours(p, depth, buf) for p in ps]
        t_ours = time.perf_counter() - t
        reps = 1
        while t_ours * reps < 0.5 and reps < 1 << 16:
            reps *= 4
        if reps > 1:
            t = time.perf_counter()
            for _ in range(reps):
                for p in ps:
                    perft_ours(p, depth, buf)
            t_ours = (time.perf_counter() - t) / reps
        nodes = sum(ours)
        row = {"positions": len(ps), "depth": depth, "nodes": nodes,
               "ours_nps": nodes / t_ours}
        try:
            boards = [_py_board(p) for p in ps]
        except ImportError:
            boards = None
        if boards is not None:
            t = time.perf_counter()
            theirs = [perft_pydraughts(b, depth) for b in boards]
            t_py = time.perf_counter() - t
            row["pydraughts_nps"] = nodes / t_py
            row["ratio"] = t_py / t_ours
            row["counts_agree"] = theirs == ours
        out[name] = row
        msg = (f"dama {name:8s} perft({depth}) on {len(ps)} positions: {nodes} nodes, "
               f"ours {row['ours_nps']:,.0f} nodes/s")
        if boards is not None:
            msg += (f", pydraughts {row['pydraughts_nps']:,.0f} nodes/s, ratio "
                    f"{row['ratio']:,.0f}x, counts {'agree' if row['counts_agree'] else 'DIFFER'}")
        else:
            msg += " (pydraughts not installed: no ratio)"
        print_fn(msg)
        start = Position.start(rules)
        t = time.perf_counter()
        n = perft_ours(start, start_depth, buf)
        dt = time.perf_counter() - t
        out[name]["start_perft"] = {"depth": start_depth, "leaves": n, "seconds": dt,
                                    "nps": n / dt}
        print_fn(f"dama {name:8s} perft({start_depth}) from the start: {n} leaves in "
                 f"{dt:.2f} s, {n / dt:,.0f} leaves/s")
    return out
