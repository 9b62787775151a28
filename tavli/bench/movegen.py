"""Benchmarks: how fast the legal-move generator runs (``tavli bench movegen``).

:func:`bench_movegen` builds a fixed set of positions from seeded random play of all four
games, then times the generator three ways on them — one call from Python per position
(:meth:`tavli.engine.movegen.Workspace.run`, and :meth:`tavli.engine.board.Position.legal_moves`
with its full Python objects), and the batch API :func:`tavli.engine.movegen.legal_batch` — and, on
the backgammon positions, gnubg-nn's move generator (``gnubg_nn.moves``) when installed.
Every figure is legal-move lists per second (positions per second).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from tavli.engine.games import game_names


def sample_positions(game: str | int, n: int, seed: int = 1,
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` positions of ``game`` from seeded random play (default rules).

    Games are played from the start with random dice, each turn a legal move chosen at
    random, until a side has borne off all 15 (or, in Plakoto, a mother checker decides);
    every position met is recorded with the side to move and the dice thrown there.
    Returns ``(arrays int8[n, 4, 26], turns int8[n], dice int8[n, 2])``.

    >>> arrs, turns, dice = sample_positions("fevga", 5, seed=3)
    >>> arrs.shape, turns.tolist()
    ((5, 4, 26), [0, 1, 0, 1, 0])
    """
    from tavli.engine.board import Position
    from tavli.engine.games.kernel import judge
    from tavli.engine.movegen import thread_workspace
    from tavli.engine.rules import Rules

    rules = Rules.for_game(game)
    flags = rules.kernel_flags()
    ws = thread_workspace()
    rng = np.random.default_rng(seed)
    arrs = np.zeros((n, 4, 26), dtype=np.int8)
    turns = np.zeros(n, dtype=np.int8)
    dice = np.zeros((n, 2), dtype=np.int8)
    k = 0
    while k < n:
        a = np.array(Position.start(rules).array)
        me = 0
        while k < n:
            d1, d2 = (int(x) for x in rng.integers(1, 7, 2))
            arrs[k], turns[k], dice[k] = a, me, (d1, d2)
            k += 1
            c = ws.run(a, me, d1, d2, flags)
            if c:
                a = np.array(ws.states[ws.out[int(rng.integers(c))]])
            if judge(a, flags) is not None:
                break
            me = 1 - me
    return arrs, turns, dice


def gnubg_board(arr: np.ndarray, turn: int) -> list[list[int]]:
    """gnubg-nn's board for the side ``turn`` to move: ``[opponent, mover]``, each 25
    counts, index 0..23 = that side's points 1..24, index 24 = its bar."""
    return [[int(x) for x in arr[1 - turn, 1:26]], [int(x) for x in arr[turn, 1:26]]]


def _best(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


def bench_movegen(n_positions: int = 12000, seed: int = 1, out=print, *,
                  repeat: int = 5) -> dict:
    """Time legal-move generation on ``n_positions`` positions (a quarter per game) from
    seeded random play; print a table through ``out`` and return the figures.

    Per game and overall: ``per_call`` (:meth:`Workspace.run` from Python, one position
    per call), ``legal_moves`` (:meth:`Position.legal_moves`, building Move and Position
    objects), ``batch`` (:func:`legal_batch`, one call per game), all in legal-move lists
    per second, best of ``repeat`` runs (``legal_moves``: one run). ``gnubg``:
    ``gnubg_nn.moves`` on the backgammon positions with the ratios ours/gnubg, or None
    when gnubg-nn is not installed.
    """
    from tavli.engine.board import Position
    from tavli.engine.movegen import Workspace, legal_batch
    from tavli.engine.rules import Rules

    games = game_names()
    if n_positions < len(games):
        raise ValueError(f"n_positions must be at least {len(games)} (one per game)")
    per = [n_positions // len(games)] * len(games)
    per[-1] += n_positions - sum(per)
    ws = Workspace()
    figures: dict = {"positions": n_positions, "seed": seed, "games": {}}
    totals = {"per_call": 0.0, "legal_moves": 0.0, "batch": 0.0}
    bg_data = None
    for gi, name in enumerate(games):
        rules = Rules.for_game(name)
        flags = rules.kernel_flags()
        arrs, turns, dice = sample_positions(name, per[gi], seed + gi)
        n = len(arrs)
        calls = [(np.array(arrs[k]), int(turns[k]), int(dice[k, 0]), int(dice[k, 1]))
                 for k in range(n)]
        positions = [Position(name, arrs[k], int(turns[k]), validate=False) for k in range(n)]
        rolls = [(d1, d2) for _, _, d1, d2 in calls]
        # warm up: compiled code loaded (or compiled) for every argument type used
        run = ws.run
        for a, me, d1, d2 in calls[:2]:
            run(a, me, d1, d2, flags)
        positions[0].legal_moves(rolls[0], rules)
        counts, _, _ = legal_batch(arrs[:2], turns[:2], dice[:2], rules)

        def per_call(calls=calls, run=run, flags=flags):
            for a, me, d1, d2 in calls:
                run(a, me, d1, d2, flags)

        def full(positions=positions, rolls=rolls, rules=rules):
            for pos, roll in zip(positions, rolls, strict=True):
                pos.legal_moves(roll, rules)

        def batch(arrs=arrs, turns=turns, dice=dice, rules=rules):
            return legal_batch(arrs, turns, dice, rules)

        counts = batch()[0]
        t_call = _best(per_call, repeat)
        t_full = _best(full, 1)
        t_batch = _best(batch, repeat)
        totals["per_call"] += t_call
        totals["legal_moves"] += t_full
        totals["batch"] += t_batch
        figures["games"][name] = {
            "positions": n,
            "moves_per_position": float(counts.mean()),
            "doubles": float((dice[:, 0] == dice[:, 1]).mean()),
            "per_call": _rate(n, t_call),
            "legal_moves": _rate(n, t_full),
            "batch": _rate(n, t_batch),
        }
        if name == "backgammon":
            bg_data = (arrs, turns, dice)
    figures["overall"] = {k: _rate(n_positions, v) for k, v in totals.items()}
    figures["overall"]["positions"] = n_positions
    figures["gnubg"] = _bench_gnubg(bg_data, figures["games"]["backgammon"], repeat)
    _print_table(figures, out)
    return figures


def _bench_gnubg(data, ours: dict, repeat: int) -> dict | None:
    try:
        import gnubg_nn
    except ImportError:
        return None
    arrs, turns, dice = data
    jobs = [(gnubg_board(arrs[k], int(turns[k])), int(dice[k, 0]), int(dice[k, 1]))
            for k in range(len(arrs))]
    moves = gnubg_nn.moves
    moves(*jobs[0])

    def run(jobs=jobs, moves=moves):
        for board, d1, d2 in jobs:
            moves(board, d1, d2)

    rate = _rate(len(jobs), _best(run, repeat))
    version = getattr(gnubg_nn.__version__, "version", gnubg_nn.__version__)
    return {
        "version": str(version),
        "positions": len(jobs),
        "moves": rate,
        "ratio_per_call": ours["per_call"] / rate,
        "ratio_legal_moves": ours["legal_moves"] / rate,
        "ratio_batch": ours["batch"] / rate,
    }


def _print_table(f: dict, out) -> None:
    g = f["gnubg"]
    out(f"movegen benchmark: {f['positions']} positions from seeded random play "
        f"(seed {f['seed']}), legal-move lists per second")
    head = (f"{'game':<11} {'positions':>9} {'moves/pos':>9} {'Workspace.run':>13} "
            f"{'legal_moves':>11} {'batch':>11} {'gnubg-nn':>10}")
    out(head)
    out("-" * len(head))
    for name, r in f["games"].items():
        ref = f"{g['moves']:>10,.0f}" if g and name == "backgammon" else f"{'-':>10}"
        out(f"{name:<11} {r['positions']:>9} {r['moves_per_position']:>9.1f} "
            f"{r['per_call']:>13,.0f} {r['legal_moves']:>11,.0f} {r['batch']:>11,.0f} {ref}")
    o = f["overall"]
    out(f"{'overall':<11} {o['positions']:>9} {'':>9} {o['per_call']:>13,.0f} "
        f"{o['legal_moves']:>11,.0f} {o['batch']:>11,.0f} {'':>10}")
    if g is None:
        out("gnubg-nn reference unavailable (pip install gnubg-nn to compare)")
    else:
        out(f"ours/gnubg-nn {g['version']} on the {g['positions']} backgammon positions: "
            f"Workspace.run {g['ratio_per_call']:.2f}x, legal_moves "
            f"{g['ratio_legal_moves']:.2f}x, batch {g['ratio_batch']:.2f}x")


__all__ = ["bench_movegen", "sample_positions", "gnubg_board"]
