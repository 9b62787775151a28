"""``tavli bench jobs``: how the long jobs scale with their workers (issue #32).

Two jobs of a training round, each run with 1 worker and with ``workers``, in local
processes and (when Ray is installed) on a local Ray instance, on a warm cache (the
kernels are compiled before any clock starts):

- **labelling**: ``chunks`` chunks (default 20, a minute on one core: a round labels
  hundreds, so the last chunk's wait must not be most of the job) of contact positions of
  the shipped Portes evaluator's self-play, valued at 2-ply (the round's default targets);
- **a strength match**: the shipped Portes evaluator against itself at 0-ply, ``pairs``
  duplicate-dice pairs in blocks (the round's gating match).

Each line prints the wall time, the speed-up over 1 worker and whether the output is
byte for byte the 1-worker one. The figure is the machine's: its cores and load are
printed with it.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from tavli.ai.evaluator import Evaluator
from tavli.ai.fastplay import NET, match_job
from tavli.ai.shipped import family_race_net, shipped_net, training_rules
from tavli.compute import Compute
from tavli.training.labels import Chunk, LabelSettings, label_chunk, label_run

#: the labelling of the benchmark: the rounds' defaults, chunks of 100 positions
SETTINGS = LabelSettings(targets="ply2", chunk=100, seed=11)


def _labels(ev: Evaluator, chunks: int, compute: Compute) -> bytes:
    """Label ``chunks`` chunks where ``compute`` says; their arrays as bytes."""
    with tempfile.TemporaryDirectory(prefix="tavli-bench-jobs-") as d:
        files = label_run(ev, SETTINGS, chunks * SETTINGS.chunk, Path(d), compute,
                          io.StringIO())
        out = []
        for f in files:
            c = Chunk.load(f)
            out += [np.asarray(getattr(c, k)).tobytes() for k in Chunk.FIELDS]
    return b"".join(out)


def _match(ev: Evaluator, pairs: int, compute: Compute) -> bytes:
    rules = training_rules("portes")
    return match_job(ev, NET, ev, NET, rules, pairs, 7, compute).tobytes()


def _timed(fn: Callable[[], bytes]) -> tuple[float, bytes]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def bench_jobs(chunks: int = 20, pairs: int = 5000, workers: int = 2, ray: bool | None = None,
               out=None) -> dict:
    """Run and print the benchmark (see the module); ``ray`` None: on Ray too when it is
    installed. Returns ``{(job, where): (seconds_1, seconds_n, identical)}``."""
    out = out or sys.stdout
    if ray is None:
        try:
            import ray as _  # noqa: F401
            ray = True
        except ImportError:
            ray = False
    ev = Evaluator(shipped_net("portes"), family_race_net("portes"))
    # compile everything before any clock starts (the workers load the kernels)
    label_chunk(ev, SETTINGS, 0, 2)
    _match(ev, 2, Compute())
    print(f"tavli bench jobs: {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f}; labelling {chunks} chunks of {SETTINGS.chunk} contact "
          f"positions at 2-ply, a match of {2 * pairs} games at 0-ply", file=out, flush=True)
    places = [("local processes", Compute(jobs=1), Compute(jobs=workers))]
    if ray:
        places.append(("Ray", Compute(ray=True, jobs=1), Compute(ray=True, jobs=workers)))
    elif ray is False:
        print("  (Ray not installed: pip install 'tavli[ray]' to measure it too)", file=out)
    jobs = [("labelling", lambda c: _labels(ev, chunks, c)),
            ("strength match", lambda c: _match(ev, pairs, c))]
    results = {}
    for where, one, many in places:
        for job, run in jobs:
            t1, o1 = _timed(lambda run=run, one=one: run(one))
            tn, on = _timed(lambda run=run, many=many: run(many))
            same = o1 == on
            results[(job, where)] = (t1, tn, same)
            print(f"  {job:15s} {where:16s} 1 worker {t1:7.1f} s, {workers} workers "
                  f"{tn:7.1f} s: {t1 / tn:4.2f}x, output {'identical' if same else 'DIFFERS'}",
                  file=out, flush=True)
    print(f"target: {workers} workers >= 1.7x faster than 1, identical output; load average "
          f"{os.getloadavg()[0]:.2f} at the end", file=out)
    return results
