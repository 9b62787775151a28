"""Race networks: their starting positions and their resumable training run.

``tavli train-race GAME`` keeps its state in a run folder (default
``runs/<family>-race/``), as ``tavli train`` does:

* ``starts.npz`` — the race starting positions (:class:`RaceStarts`): where contact ended in
  self-play games of the family's shipped network (sampled on the first run, or a file
  given with ``--starts``); the last :data:`CHECK_STARTS` are kept out of training for
  the checks;
* ``checkpoint.npz`` — the race network with the games played so far, written
  atomically after every chunk, so an interrupted run loses at most one chunk;
* ``log.jsonl`` — one line per check: games, step size, the mean TD error per update,
  the race network against the contact network in duplicate races from the held-out
  starts (points per game ± SE), and, with ``--check FILE`` (rollouts saved by ``tavli
  bench race``), the mean absolute equity error against those rollouts; ``net-N.npz``
  snapshots.

Training (:func:`tavli.training.racegames.train_race`) plays games from the starts to the end
with the evaluator's 0-ply choice (the family's shipped contact network, the race network
being trained and the bear-off databases) and moves the race network by TD(0).
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from tavli.ai.evaluator import Evaluator
from tavli.ai.net import Net
from tavli.ai.race import RACE
from tavli.ai.shipped import family_of_net, family_rules
from tavli.bench.racegames import (
    RaceStarts,
    _scratch_for,
    contact_evaluator,
    pair_stats,
    race_match,
    sample_starts,
)
from tavli.engine.rules import Rules
from tavli.errors import TrainingError

CHECK_STARTS = 500  # starts kept out of training for the checks
HIDDEN = 64
ALPHA0 = 0.1
HALF_LIFE = 50_000
FLOOR = 0.005
SAMPLE_GAMES = 30_000
SETTINGS = {"alpha0": ALPHA0, "half_life": HALF_LIFE, "floor": FLOOR, "explore": 0.0,
            "targets": "td", "check_every": 10_000}
TARGETS = ("td", "ply1")


def alpha_at(games: int, cfg: dict) -> float:
    from tavli.training.train import alpha_schedule

    return alpha_schedule(games, float(cfg["alpha0"]), float(cfg["floor"]),
                          int(cfg["half_life"]))


def train_race_net(game: str, games: int, run_dir: str | Path | None = None, *,
                   hidden: int = HIDDEN, seed: int | None = None,
                   starts: str | Path | None = None, sample_games: int = SAMPLE_GAMES,
                   check: str | Path | None = None, alpha0: float | None = None,
                   half_life: int | None = None, floor: float | None = None,
                   explore: float | None = None, targets: str | None = None,
                   check_every: int | None = None, chunk: int = 1000, out=None) -> Net:
    """Train (or resume) the race network of ``game``'s family up to ``games`` games.

    A new run samples its starts from ``sample_games`` self-play games of the shipped
    network (or copies the file ``starts``) into the run folder and starts from random
    weights with ``hidden`` units. The step size starts at ``alpha0`` and halves every
    ``half_life`` games down to ``floor``; ``explore`` is the share of turns that go on
    with a random move (the target stays the best move's value); ``targets`` "ply1"
    learns toward the mean over the 21 rolls (no exploration then); all five are kept in
    the run's metadata (a resumed run keeps its own unless a new value is given). ``check``
    is a rollouts file of ``tavli bench race`` to measure the error against at each
    check. Bad settings raise
    :class:`~tavli.errors.TrainingError` and a refused new run leaves nothing behind."""
    from tavli.bench.race import Rollouts
    from tavli.training.racegames import train_race, train_race_ply1

    out = out or sys.stdout
    if alpha0 is not None and not 0 < alpha0 <= 1:
        raise TrainingError("the initial step size must be in (0, 1]")
    if floor is not None and not 0 < floor <= 1:
        raise TrainingError("the step-size floor must be in (0, 1]")
    if half_life is not None and half_life < 1:
        raise TrainingError("the half-life must be at least 1 game")
    if explore is not None and not 0 <= explore < 1:
        raise TrainingError("the exploration share must be in [0, 1)")
    if targets is not None and targets not in TARGETS:
        raise TrainingError(f"targets must be one of {', '.join(TARGETS)}")
    if check_every is not None and check_every < 1:
        raise TrainingError("--check-every must be at least 1 game")
    if hidden < 1:
        raise TrainingError("a network needs at least 1 hidden unit")
    if sample_games < 10:
        raise TrainingError("--sample needs at least 10 games")
    rules = family_rules(game)
    family = rules.variant.family
    run = Path(run_dir or Path("runs") / f"{family}-race")
    ckpt = run / "checkpoint.npz"
    starts_file = run / "starts.npz"
    given = {k: v for k, v in (("alpha0", alpha0), ("half_life", half_life), ("floor", floor),
                                ("explore", explore), ("targets", targets),
                                ("check_every", check_every)) if v is not None}
    rolls = Rollouts.load(check) if check is not None else None
    if rolls is not None and rolls.family != family:
        raise TrainingError(f"{check} holds {rolls.family} rollouts, not {family}")
    resume = ckpt.exists()
    if resume:
        net = Net.load(ckpt)
        if family_of_net(net) != family or net.encoder != RACE:
            raise TrainingError(f"{ckpt} is not a {family} race network")
        net.meta.update(given)
        pool = RaceStarts.load(starts_file)
        print(f"resuming the {family} race network from {net.games} games", file=out)
    else:
        if starts is not None:
            pool = RaceStarts.load(starts)
            if pool.family != family:
                raise TrainingError(f"{starts} holds {pool.family} positions, not {family}")
        net = Net.random(rules.game, hidden=hidden, seed=seed, inputs="race")
        net.meta.update(SETTINGS, **given, games=0, seed=seed if seed is not None else 0,
                        kind="race")
        try:
            run.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise TrainingError(f"cannot use {run} as the run folder: {e.strerror or e}") \
                from None
        if starts is None:
            print(f"sampling race starts from {sample_games} self-play games", file=out,
                  flush=True)
            pool = sample_starts(rules.game, sample_games, int(net.meta["seed"]) + 7)
        pool.save(starts_file)
        print(f"{len(pool)} race starts", file=out)
        net.save(ckpt)
    cfg = {**SETTINGS, **net.meta}
    if cfg["targets"] == "ply1" and float(cfg["explore"]) > 0:
        raise TrainingError("1-ply targets go without exploration (--explore 0)")
    train_part, check_part = pool.split(CHECK_STARTS)
    ev = contact_evaluator(rules.game, race=net)
    plain = contact_evaluator(rules.game)
    scratch = _scratch_for(ev, plain)
    flags = rules.kernel_flags()
    stats = np.zeros(4)
    t0 = time.time()
    done0 = net.games
    every = int(cfg["check_every"])
    next_check = (net.games // every + 1) * every
    while net.games < games:
        n = min(chunk, games - net.games, next_check - net.games)
        alpha = alpha_at(net.games, cfg)
        seed = (int(net.meta["seed"]) * 1_000_003 + net.games) % 2**31
        if cfg["targets"] == "ply1":
            train_race_ply1(ev.tables, train_part.boards, train_part.turns, flags, n, alpha,
                            seed, scratch, stats)
        else:
            train_race(ev.tables, train_part.boards, train_part.turns, flags, n, alpha, seed,
                       scratch, stats, float(cfg["explore"]))
        net.meta["games"] = net.games + n
        net.meta["alpha"] = alpha
        net.save(ckpt)
        rate = (net.games - done0) / max(1e-9, time.time() - t0)
        print(f"\r{family} race: {net.games}/{games} games  {rate:6.0f} games/s  "
              f"alpha {alpha:.4f}", end="", file=out, flush=True)
        if net.games >= next_check or net.games >= games:
            next_check += every
            entry = _check_entry(net, ev, plain, check_part, rules, rolls, stats)
            entry.update(games=net.games, alpha=round(alpha, 5), games_per_s=round(rate, 1))
            with open(run / "log.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")
            print("\n" + json.dumps(entry), file=out, flush=True)
            net.save(run / f"net-{net.games}.npz")
            stats[:] = 0
    print(file=out)
    return net


def _check_entry(net: Net, ev: Evaluator, plain: Evaluator, check_part: RaceStarts,
                 rules: Rules, rolls, stats: np.ndarray) -> dict:
    """The figures of a check (see the module docstring)."""
    entry: dict = {"td_error": round(float(stats[2] / max(1.0, stats[1])), 4)}
    if len(check_part):
        ppg, se = pair_stats(race_match(ev, plain, check_part, rules, 4242))
        entry["vs_contact_net"] = {"ppg": round(ppg, 4), "se": round(se, 4),
                                   "games": 2 * len(check_part)}
    if rolls is not None:
        from tavli.bench.race import equity_errors

        err = equity_errors(ev, rolls, rules)
        entry["rollout_error"] = {"mae": round(float(err.mean()), 4),
                                  "se": round(float(err.std(ddof=1) / math.sqrt(len(err))),
                                              4)}
    return entry


