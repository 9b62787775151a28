"""Which labels are worth their CPU (issue #47): 0-ply, 1-ply, 2-ply and truncated rollouts
of the shipped evaluator, each against a reference of long variance-reduced rollouts of
our own on the same held-out contact positions.

The positions: contact positions of the teacher's 0-ply self-play drawn as the labels
are (:func:`tavli.training.labels.label_chunk`), from a seed no dataset uses. The
reference: for each, ``--trials`` full rollouts at 0-ply with the luck of every roll taken
out (gnubg's variance reduction), first rolls stratified; kept in a file (resumable; it
grows with ``--positions``). Each candidate target is computed on the same positions and
timed in CPU seconds a label, the labelling's self-play included for the searches (a
chunk of their own) and the rollouts' trials for the rollouts.

The figure is the mean squared error of the cubeless equity against the reference. The
reference's own noise (its standard error squared, averaged) adds the same amount to
every candidate's figure, so the differences between candidates are unbiased; the table
also gives each one with that noise taken out (an estimate of its error against the
rollouts' limit). Paired standard errors: every candidate is measured on the same
positions.

    python training/targets_experiment.py REFERENCE.npy [--positions 300] [--trials 144]
        [--nets NET ...]

``--nets``: students to measure beside the teacher's 0-ply (their 0-ply, with the
shipped race net and databases).
"""

from __future__ import annotations

import argparse
import base64
import io
import os
import sys
import time
from pathlib import Path

import numpy as np

from tavli.ai.context import RolloutContext
from tavli.ai.evaluator import Evaluator
from tavli.ai.net import Net, equity
from tavli.ai.rollout import Runner, summarize
from tavli.ai.shipped import family_race_net, shipped_net, training_rules
from tavli.engine.board import Position
from tavli.engine.games import find_variant
from tavli.engine.ids import id_bytes
from tavli.training.labels import LabelSettings, chunk_seed, label_chunk

SEED = chunk_seed(47, 47)  # no dataset's
REF = np.dtype([("id", np.uint8, (11,)), ("outputs", "<f4", (5,)), ("se", "<f4"),
                ("trials", "<u2")])


def cpu() -> float:
    return time.process_time()


def positions(ev: Evaluator, n: int):
    """The held-out positions (flat boards, sides) and the 1-ply chunk that drew them."""
    return label_chunk(ev, LabelSettings(targets="ply1", seed=SEED), 0, n)


def reference(path: Path, ev: Evaluator, rules, boards, sides, trials: int, log) -> np.ndarray:
    """The reference rollouts of the positions, from ``path`` and made where missing."""
    v = find_variant("portes")
    ids = id_bytes(v, boards, sides)
    have = np.load(path) if path.exists() else np.zeros(0, REF)
    if len(have) and (have["trials"] != trials).any():
        raise SystemExit(f"{path} holds rollouts of another number of trials")
    if not np.array_equal(have["id"], ids[:len(have)]):
        raise SystemExit(f"{path} holds other positions")
    rows = list(have)
    ctx = RolloutContext(games=trials, luck=True, seed=11)
    t0 = cpu()
    with Runner(ev, rules, 1) as runner:
        for k in range(len(have), len(boards)):
            pos = Position("portes", boards[k].reshape(4, 26), int(sides[k]))
            res, _ = runner.run(pos, ctx, None)
            r = summarize(res, True, True)
            rows.append((ids[k], r.outputs, r.equity_se, trials))
            if (k + 1) % 10 == 0 or k + 1 == len(boards):
                out = np.array(rows, REF)
                buf = io.BytesIO()
                np.save(buf, out)
                tmp = path.with_suffix(".tmp")
                tmp.write_bytes(buf.getvalue())
                os.replace(tmp, path)
                print(f"reference: {k + 1}/{len(boards)} positions, "
                      f"{(cpu() - t0) / (k + 1 - len(have)):.1f} s of CPU each", file=log,
                      flush=True)
    return np.array(rows, REF)


def rollouts(ev, rules, boards, sides, trials: int, depth: int, luck: bool):
    ctx = RolloutContext(games=trials, truncate=depth or None, luck=luck, seed=5)
    out = np.zeros((len(boards), 5))
    t0 = cpu()
    with Runner(ev, rules, 1) as runner:
        for k in range(len(boards)):
            pos = Position("portes", boards[k].reshape(4, 26), int(sides[k]))
            res, _ = runner.run(pos, ctx, None)
            out[k] = summarize(res, True, luck).outputs
    return out, (cpu() - t0) / len(boards)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("reference", type=Path, help="the reference rollouts' file (.npy)")
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--trials", type=int, default=144)
    p.add_argument("--nets", nargs="*", default=[])
    args = p.parse_args()
    race = family_race_net("portes")
    ev = Evaluator(shipped_net("portes"), race)
    rules = training_rules("portes")
    chunk = positions(ev, args.positions)
    boards, sides = chunk.boards, chunk.sides
    ref = reference(args.reference, ev, rules, boards, sides, args.trials, sys.stderr)
    e_ref = np.asarray(equity(ref["outputs"]))
    noise = float((ref["se"].astype(float) ** 2).mean())
    print(f"{len(boards)} held-out contact positions (seed {SEED}); reference: {args.trials} "
          f"full rollouts each, 0-ply, luck taken out: mean SE {ref['se'].mean():.4f} "
          f"(its noise adds {noise:.6f} to each MSE)")

    cands: dict[str, tuple[np.ndarray, float]] = {}
    t0 = cpu()
    cands["0-ply (teacher)"] = (ev.evaluate_arrays(boards.reshape(-1, 4, 26), sides)[0],
                                float("nan"))
    for name, targets in (("1-ply", "ply1"), ("2-ply", "ply2")):
        t0 = cpu()
        c = label_chunk(ev, LabelSettings(targets=targets, seed=SEED), 0, len(boards))
        assert np.array_equal(c.boards, boards)
        cands[name] = (c.labels, (cpu() - t0) / len(boards))
    for trials, depth, luck in ((36, 7, False), (36, 7, True), (36, 0, False)):
        name = f"rollout {trials}x{depth or 'end'}{' luck' if luck else ''}"
        cands[name] = rollouts(ev, rules, boards, sides, trials, depth, luck)
    for path in args.nets:
        student = Evaluator(Net.load(path), race)
        cands[f"0-ply {Path(path).name}"] = (
            student.evaluate_arrays(boards.reshape(-1, 4, 26), sides)[0], float("nan"))

    base = None
    print(f"  {'target':26s} {'ms a label':>10s} {'MSE':>9s} {'less noise':>10s} "
          f"{'RMSE':>7s} {'bias':>8s}   {'MSE - 2-ply ± SE':>20s}")
    sq = {name: (np.asarray(equity(v)) - e_ref) ** 2 for name, (v, _) in cands.items()}
    base = sq["2-ply"]
    for name, (v, secs) in cands.items():
        d = np.asarray(equity(v)) - e_ref
        diff = sq[name] - base
        ms = f"{1000 * secs:10.1f}" if secs == secs else f"{'':>10s}"
        print(f"  {name:26s} {ms} {sq[name].mean():9.6f} {sq[name].mean() - noise:10.6f} "
              f"{np.sqrt(max(sq[name].mean() - noise, 0)):7.4f} {d.mean():+8.4f}   "
              f"{diff.mean():+10.6f} ± {diff.std(ddof=1) / np.sqrt(len(diff)):.6f}")
    first = base64.urlsafe_b64encode(ref["id"][0].tobytes()).decode().rstrip("=")
    print(f"  (first position {first}; CPU: {os.cpu_count()} cores shared with the "
          f"labelling)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
