"""The AI's benchmarks, each printing our figures beside gnubg-nn's in one run:

* ``tavli bench eval``: static 0-ply evaluations per second, one call at a time and
  batched (:meth:`Evaluator.evaluate_arrays <tavli.ai.evaluator.Evaluator.evaluate_arrays>`),
  beside ``gnubg_nn.probabilities`` on the same backgammon positions from 0-ply self-play;
* ``tavli bench rollout``: rollout trials per second at 0-ply from three positions (the
  opening after 31, a race, a bear-off), plain and luck-adjusted, with the equities, beside
  gnubg's 0-ply player played out from Python (:mod:`tavli.bench.gnubg_ref`);
* ``tavli bench moves``: the AI's time per move at each level over backgammon games, beside
  ``gnubg_nn.best_move`` at the same ply on the same positions.

Without gnubg-nn each prints ours and one line saying how to get the reference.
"""

from __future__ import annotations

import math
import time

import numpy as np

from tavli.bench import gnubg_ref
from tavli.engine.board import Position
from tavli.engine.rules import Rules

GAME = "backgammon"


def selfplay_positions(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``n`` backgammon positions (board arrays and sides to move) met in games of the
    shipped evaluator at 0-ply against itself, random dice from ``seed``; the positions
    before each roll, games played to their end one after another."""
    from tavli.ai.evaluator import Evaluator
    from tavli.ai.net import equity
    from tavli.engine.games.kernel import judge
    from tavli.engine.movegen import Workspace

    ev = Evaluator.shipped(GAME)
    flags = Rules(GAME).kernel_flags()
    ws = Workspace()
    rng = np.random.default_rng(seed)
    arrs = np.zeros((n, 4, 26), dtype=np.int8)
    turns = np.zeros(n, dtype=np.int8)
    k = 0
    while k < n:
        a = np.array(Position.start(GAME).array)
        me = int(rng.integers(2))
        while k < n:
            arrs[k], turns[k] = a, me
            k += 1
            d1, d2 = (int(x) for x in rng.integers(1, 7, 2))
            c = ws.run(a, me, d1, d2, flags)
            if c:
                after = np.array(ws.states[ws.out[:c]])
                out, _ = ev.evaluate_arrays(after, np.full(c, 1 - me))
                a = after[int(np.argmin(equity(out)))]  # the reply worst for him
            if judge(a, flags) is not None:
                break
            me = 1 - me
    return arrs, turns


def _rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else math.inf


def bench_eval(positions: int = 10000, seed: int = 1, out=print, rounds: int = 3,
               net=None) -> dict:
    """0-ply evaluations per second on ``positions`` self-play positions: ours one call at a
    time from Python and in one batch, gnubg-nn's ``probabilities(board, 0)`` one call at
    a time (it has no batch call). Each of ``rounds`` rounds times all of them on fresh
    positions (so gnubg's evaluation cache never helps); the best round counts. ``net``
    (a network or evaluator): timed too, in the same rounds, beside the shipped one."""
    from tavli.ai.evaluator import Evaluator, as_evaluator
    from tavli.ai.net import equity
    from tavli.bench.movegen import gnubg_board

    evs = {"": Evaluator.shipped(GAME)}
    if net is not None:
        evs["candidate"] = as_evaluator(net, GAME)
    g = gnubg_ref.load()
    arrs, turns = selfplay_positions(positions * (rounds + 1), seed)
    for ev in evs.values():
        ev.evaluate_arrays(arrs[:2], turns[:2])  # compiled code loaded
    best = {f"{k}{name}": 0.0 for name in evs for k in ("single", "batch")}
    best["gnubg"] = 0.0
    diffs = []
    for r in range(1, rounds + 1):
        a = arrs[r * positions:(r + 1) * positions]
        t_ = turns[r * positions:(r + 1) * positions]
        for name, ev in evs.items():
            t0 = time.perf_counter()
            for k in range(positions):
                ev.evaluate_arrays(a[k:k + 1], t_[k:k + 1])
            best["single" + name] = max(best["single" + name],
                                        _rate(positions, time.perf_counter() - t0))
            t0 = time.perf_counter()
            out_, _ = ev.evaluate_arrays(a, t_)
            best["batch" + name] = max(best["batch" + name],
                                       _rate(positions, time.perf_counter() - t0))
            if not name:
                ours = out_
        if g is not None:
            boards = [gnubg_board(a[k], int(t_[k])) for k in range(positions)]
            probs = g.probabilities
            t0 = time.perf_counter()
            theirs = [probs(b, 0) for b in boards]
            best["gnubg"] = max(best["gnubg"], _rate(positions, time.perf_counter() - t0))
            diffs.append(np.abs(equity(ours) - equity(np.array(theirs))))
    out(f"eval benchmark: {positions} backgammon positions from 0-ply self-play (seed "
        f"{seed}) per round, best of {rounds} rounds on fresh positions; {machine()}")
    out(f"  {'0-ply evaluations per second':<56} {'per second':>12}")
    for name, ev in evs.items():
        what = f"the candidate ({ev.contact.hidden} hidden units)" if name else \
            f"ours ({ev.contact.hidden} hidden units)"
        out(f"  {what + ', one call at a time':<56} {best['single' + name]:>12,.0f}")
        out(f"  {what + ', batched':<56} {best['batch' + name]:>12,.0f}")
    fig = {"positions": positions, "seed": seed, "ours_single": best["single"],
           "ours_batch": best["batch"], "gnubg": None}
    if net is not None:
        fig.update(candidate_single=best["singlecandidate"],
                   candidate_batch=best["batchcandidate"])
    if g is None:
        out(gnubg_ref.NOTE)
        return fig
    d = np.concatenate(diffs)
    name = f"gnubg-nn {gnubg_ref.version(g)}, probabilities(board, 0) one at a time"
    out(f"  {name:<56} {best['gnubg']:>12,.0f}")
    out(f"  ours/gnubg-nn: one at a time {best['single'] / best['gnubg']:.2f}x, batched "
        f"{best['batch'] / best['gnubg']:.2f}x; the two cubeless equities differ by "
        f"{d.mean():.3f} on average (median {np.median(d):.3f})")
    fig.update(gnubg=best["gnubg"], equity_diff=float(d.mean()))
    return fig


def bench_positions() -> list[tuple[str, Position]]:
    """The rollout benchmark's positions, each with its side to roll."""
    rules = Rules(GAME)
    opening = Position.start(GAME).find_move("8/5 6/5", (3, 1), rules).after
    race = Position.from_points(GAME, {8: 2, 7: 2, 6: 3, 5: 3, 4: 2, 3: 2, 2: 1},
                                {9: 2, 6: 4, 5: 3, 4: 2, 3: 2, 2: 2}, 0)
    bearoff = Position.from_points(GAME, {6: 2, 5: 2, 4: 2, 3: 1, 2: 2, 1: 1},
                                   {6: 3, 5: 2, 4: 2, 3: 2, 2: 1, 1: 1}, 0)
    return [("opening after 31", opening), ("race", race), ("bear-off", bearoff)]


def bench_rollout(games: int = 1296, seed: int = 1, out=print) -> dict:
    """Rollout trials per second at 0-ply from :func:`bench_positions`: ours plain and
    luck-adjusted (``games`` trials each, in this process), gnubg's 0-ply player from
    Python (:func:`tavli.bench.gnubg_ref.playout`, the same number of trials), with the
    equities and their standard errors."""
    from tavli.ai.context import RolloutContext
    from tavli.ai.evaluator import Evaluator
    from tavli.ai.net import equity
    from tavli.ai.rollout import Runner, summarize
    from tavli.bench.movegen import gnubg_board

    rules = Rules(GAME)
    ev = Evaluator.shipped(GAME)
    g = gnubg_ref.load()
    count_bg = bool(rules.backgammons)
    out(f"rollout benchmark: {games} trials per position at 0-ply, seed {seed}, one "
        "process, no cube; trials per second and cubeless equity ± 1 SE for the side to "
        f"roll; {machine()}")
    out("  ours plain: played out with stratified first rolls; ours adjusted: the same "
        "trials with gnubg-style luck adjustment (a 0-ply look at the 21 rolls every turn)")
    if g is not None:
        out(f"  gnubg-nn {gnubg_ref.version(g)}: its 0-ply move (best_move) every turn, "
            "driven from Python, stratified first rolls, no luck adjustment (its own "
            "rollout() is broken in this version: see tavli/bench/gnubg_ref.py)")
    out(f"  {'position':<17} {'':<14} {'trials/s':>9} {'per CPU s':>10} "
        f"{'equity ± SE':>16}")
    figs: dict = {"games": games, "seed": seed, "positions": {}}
    with Runner(ev, rules) as runner:
        runner.run(bench_positions()[-1][1], RolloutContext(games=1, seed=seed))  # compiled
        for name, pos in bench_positions():
            f: dict = {}
            for luck in (False, True):
                c0 = time.process_time()
                res, secs = runner.run(pos, RolloutContext(games=games, seed=seed, luck=luck))
                r = summarize(res, count_bg, luck, secs)
                f["adjusted" if luck else "plain"] = _figures(
                    games, secs, time.process_time() - c0, r.equity, r.equity_se)
            if g is not None:
                board = gnubg_board(pos.array, pos.turn)
                t0, c0 = time.perf_counter(), time.process_time()
                rows = np.array([gnubg_ref.playout(g, board, t, seed) for t in range(games)])
                secs, cpu = time.perf_counter() - t0, time.process_time() - c0
                e = np.asarray(equity(rows, count_bg))
                f["gnubg"] = _figures(games, secs, cpu, float(e.mean()),
                                      float(e.std(ddof=1) / math.sqrt(games))
                                      if games > 1 else math.nan)
            figs["positions"][name] = f
            for i, (key, label) in enumerate((("plain", "ours plain"),
                                              ("adjusted", "ours adjusted"),
                                              ("gnubg", "gnubg-nn"))):
                if key in f:
                    x = f[key]
                    out(f"  {name if i == 0 else '':<17} {label:<14} {x['rate']:>9.1f} "
                        f"{x['cpu_rate']:>10.1f} {x['equity']:>+8.3f} ± {x['se']:.3f}")
    if g is None:
        out(gnubg_ref.NOTE)
    return figs


def _figures(games: int, secs: float, cpu: float, eq: float, se: float) -> dict:
    return {"rate": _rate(games, secs), "cpu_rate": _rate(games, cpu), "equity": eq,
            "se": se}


def bench_moves(games: int = 4, seed: int = 1, out=print,
                levels: tuple[str, ...] | None = None, net=None) -> dict:
    """The AI's time per move at each level (beginner .. worldclass, or ``levels``) over
    ``games`` backgammon games of that level against itself: the legal moves and the
    choice together, on turns with at least two legal moves; mean, 95th percentile and
    max of the wall time, and the mean and 95th percentile of the CPU time of this
    process (what the move costs on an idle core). ``net``: the network or evaluator
    (default the shipped one). Beside it ``gnubg_nn.best_move`` at the level's ply on the
    same positions and rolls."""
    from tavli.ai.levels import DEFAULT_LEVEL, LEVELS
    from tavli.ai.neural import NeuralPlayer
    from tavli.bench.movegen import gnubg_board

    rules = Rules(GAME)
    g = gnubg_ref.load()
    rng = np.random.default_rng(seed)
    out(f"moves benchmark: the AI's time per move (legal moves and choice) over {games} "
        f"backgammon games per level against itself (seed {seed}), turns with a choice; "
        f"{machine()}")
    head = (f"  {'level':<13} {'ply':>3} {'moves':>6} {'mean s':>8} {'p95 s':>8} {'max s':>8} "
            f"{'CPU s':>8} {'CPU p95':>8}"
            + (f"   {'gnubg-nn mean':>13} {'max s':>8} {'CPU s':>8}" if g is not None else ""))
    out(head)
    figs: dict = {"games": games, "seed": seed, "levels": {}}
    for level in levels or tuple(LEVELS):
        ply = LEVELS[level].plies
        player = NeuralPlayer(level, net, seed=seed)
        start = Position.start(GAME)
        player.choose_move(start, (3, 1), start.legal_moves((3, 1), rules), rules)  # warm
        wall: list[float] = []
        cpu: list[float] = []
        jobs = []
        for _ in range(games):
            pos = Position.start(GAME, int(rng.integers(2)))
            while True:
                dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
                t0, c0 = time.perf_counter(), time.process_time()
                moves = pos.legal_moves(dice, rules)
                m = player.choose_move(pos, dice, moves, rules)
                dt, dc = time.perf_counter() - t0, time.process_time() - c0
                if len(moves) > 1:
                    wall.append(dt)
                    cpu.append(dc)
                    jobs.append((gnubg_board(pos.array, pos.turn), dice))
                pos = m.after if m is not None else pos.swap_turn()
                if pos.is_finished():
                    break
        f = {"ply": ply, "moves": len(wall), "mean": float(np.mean(wall)),
             "p95": float(np.percentile(wall, 95)), "max": float(np.max(wall)),
             "cpu": float(np.mean(cpu)), "cpu_p95": float(np.percentile(cpu, 95))}
        line = (f"  {level:<13} {ply:>3} {len(wall):>6} {f['mean']:>8.4f} {f['p95']:>8.4f} "
                f"{f['max']:>8.4f} {f['cpu']:>8.4f} {f['cpu_p95']:>8.4f}")
        if g is not None:
            gt, gc = [], []
            for board, (d1, d2) in jobs:
                t0, c0 = time.perf_counter(), time.process_time()
                g.best_move(board, d1, d2, ply)
                gt.append(time.perf_counter() - t0)
                gc.append(time.process_time() - c0)
            f.update(gnubg_mean=float(np.mean(gt)), gnubg_max=float(np.max(gt)),
                     gnubg_cpu=float(np.mean(gc)))
            line += (f"   {f['gnubg_mean']:>13.4f} {f['gnubg_max']:>8.4f} "
                     f"{f['gnubg_cpu']:>8.4f}")
        figs["levels"][level] = f
        out(line)
    if "worldclass" in figs["levels"]:
        wc = figs["levels"]["worldclass"]
        verdict = "met" if wc["mean"] < 0.2 else "NOT met"
        out(f"  target worldclass < 0.2 s per move on average: {verdict} ({wc['mean']:.3f} s "
            f"wall, {wc['cpu']:.3f} s CPU)")
    if DEFAULT_LEVEL in figs["levels"]:
        d = figs["levels"][DEFAULT_LEVEL]
        verdict = "met" if d["p95"] <= 0.05 else "NOT met"
        out(f"  target {DEFAULT_LEVEL} (the default level) <= 0.05 s per move at p95: "
            f"{verdict} ({d['p95']:.3f} s wall, {d['cpu_p95']:.3f} s CPU)")
    if g is None:
        out(gnubg_ref.NOTE)
    return figs


def machine() -> str:
    """The processors and the load they were under (a benchmark's wall times depend on
    it)."""
    import os

    try:
        load = f"load average {os.getloadavg()[0]:.1f}"
    except OSError:
        load = "load unknown"
    return f"{os.cpu_count()} CPUs, {load}"
