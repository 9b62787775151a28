"""TD(lambda) self-play training, resumable from a checkpoint, with a periodic strength check.

``tavli train GAME`` keeps its state in a run folder (default ``runs/<family>/``):

* ``checkpoint.npz`` — the weights with the games played so far (written atomically after
  every chunk, so an interrupted run loses at most one chunk);
* ``log.jsonl`` — one JSON line per strength check: games trained, points per game and
  win rate against fixed opponents (pubeval for Portes/backgammon, the greedy heuristic
  for Plakoto and Fevga with half the check's pairs, the random player and the first
  checkpoint of the run for every family), games per second.

Training runs the compiled self-play of :mod:`tavli.ai.fastplay`: both sides play the
greedy 0-ply move of the same network and the network moves its output for each position
toward that of the next (the final result at the end): TD(0), or with ``--lambda`` toward
the lambda-return (a decaying mix of all later evaluations and the result).
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tavli.ai.encode import ENCODERS, encoder_code, encoder_family, encoder_name, family_name
from tavli.ai.fastplay import NET, PUBEVAL, RANDOM, compiled_match
from tavli.ai.net import Net, Scratch
from tavli.ai.race import RACE
from tavli.ai.shipped import training_rules
from tavli.engine.board import Position
from tavli.engine.games import HITTING, find_variant
from tavli.engine.rules import Rules
from tavli.errors import TrainingError
from tavli.training.selfplay import train_games, train_games_ply1

HALF_LIFE = 300_000
FLOOR = 0.01
# a run's schedule settings (kept in its metadata) and their defaults
ALPHA0 = 0.1
SETTINGS = {"alpha0": ALPHA0, "half_life": HALF_LIFE, "floor": FLOOR, "explore": 0.0, "lambda": 0.0,
            "targets": "td", "check_every": 50_000, "check_pairs": 1000}
TARGETS = ("td", "ply1")


def alpha_schedule(games: int, alpha0: float = ALPHA0, floor: float = FLOOR,
                   half_life: int = HALF_LIFE) -> float:
    """The TD step size after ``games`` games: halves every ``half_life`` games, down to
    ``floor``."""
    return max(floor, alpha0 * 0.5 ** (games / half_life))


@dataclass
class StrengthResult:
    """The outcome of a strength check: A's points per game, their standard error, A's
    share of games won, and how many games were played."""

    points_per_game: float
    stderr: float
    win_rate: float
    games: int


def strength(net_a: Net | None, kind_a: int, net_b: Net | None, kind_b: int, rules: Rules,
             pairs: int, seed: int, scratch: Scratch | None = None) -> StrengthResult:
    """Duplicate-dice games (money scoring, no cube) between two compiled players."""
    res = compiled_match(net_a, kind_a, net_b, kind_b, rules, pairs, seed, scratch)
    n = len(res)
    return StrengthResult(float(res.mean()), float(res.std(ddof=1) / math.sqrt(n)),
                          float((res > 0).mean()), n)


def train(game: str, games: int, run_dir: str | Path | None = None, *, hidden: int = 80,
          chunk: int = 1000, check_every: int | None = None, check_pairs: int | None = None,
          seed: int | None = None, out=None, start_from: str | Path | None = None,
          half_life: int | None = None, floor: float | None = None,
          explore: float | None = None, lam: float | None = None,
          targets: str | None = None, alpha0: float | None = None,
          inputs: str | None = None) -> Net:
    """Train (or resume) the network of ``game``'s family up to ``games`` games in total.

    A new run starts from random weights, or from the weights file ``start_from`` (e.g.
    the shipped network) with the games it has already played. The step size starts at
    ``alpha0`` and halves every ``half_life`` games down to ``floor``; ``explore`` is the
    share of turns played at random; ``lam`` is TD's lambda (0: TD(0)); ``targets``
    "ply1" moves each position toward its 1-ply value (the mean over the 21 rolls)
    instead of the roll played (no lambda or exploration then; about 20 times slower). A
    strength check every ``check_every`` games plays ``check_pairs`` pairs of games. All
    eight are kept in the run's metadata: a resumed run keeps its own, unless a new value
    is given. ``inputs`` names the encoder of a new network
    (:data:`~tavli.ai.encode.ENCODERS`; the family's own by default), kept in its
    metadata; a resumed run or a starting network must already read it. A setting out of
    range, a run folder that cannot be made or a starting network of another family raises
    :class:`~tavli.errors.TrainingError`, and a refused new run leaves nothing behind."""
    out = out or sys.stdout
    if half_life is not None and half_life < 1:
        raise TrainingError("the half-life must be at least 1 game")
    if alpha0 is not None and not 0 < alpha0 <= 1:
        raise TrainingError("the initial step size must be in (0, 1]")
    if floor is not None and not 0 < floor <= 1:
        raise TrainingError("the step-size floor must be in (0, 1]")
    if explore is not None and not 0 <= explore < 1:
        raise TrainingError("the exploration share must be in [0, 1)")
    if lam is not None and not 0 <= lam < 1:
        raise TrainingError("lambda must be in [0, 1)")
    if check_every is not None and check_every < 1:
        raise TrainingError("--check-every must be at least 1 game")
    if check_pairs is not None and check_pairs < 5:
        raise TrainingError("--check-pairs must be at least 5")
    if targets is not None and targets not in TARGETS:
        raise TrainingError(f"targets must be one of {', '.join(TARGETS)}")
    given = {k: v for k, v in (("alpha0", alpha0), ("half_life", half_life), ("floor", floor),
                                ("explore", explore), ("lambda", lam), ("targets", targets),
                                ("check_every", check_every), ("check_pairs", check_pairs))
             if v is not None}
    family = find_variant(game).family
    if inputs is not None:
        _check_inputs(inputs, family)
    run = Path(run_dir or Path("runs") / family)
    ckpt = run / "checkpoint.npz"
    first = run / "initial.npz"
    rules = training_rules(family)
    flags = rules.kernel_flags()
    resume = ckpt.exists()
    if resume:
        net = Net.load(ckpt)
        _same_inputs(net, inputs, f"the run in {run}")
        net.meta.update(given)
    else:
        if start_from is not None:
            net = Net.load(start_from)
            if family_name(net.family) != family:
                raise TrainingError(f"{start_from} is not a {family} network")
            _same_inputs(net, inputs, str(start_from))
        else:
            net = Net.random(rules.game, hidden=hidden, seed=seed, inputs=inputs)
            net.meta.update(games=0)
        net.meta["inputs"] = encoder_name(net.encoder)
        net.meta.setdefault("seed", seed if seed is not None else 0)
        net.meta.update(SETTINGS, **given)
    cfg = {**SETTINGS, **net.meta}  # runs from before a setting existed: its default
    if cfg["targets"] == "ply1" and (float(cfg["lambda"]) > 0 or float(cfg["explore"]) > 0):
        raise TrainingError("1-ply targets go without lambda and exploration")
    if resume:
        print(f"resuming {family} from {net.games} games", file=out)
    else:  # all checked: the run folder is made now, so a refused run leaves nothing
        try:
            run.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            why = e.strerror or e
            raise TrainingError(f"cannot use {run} as the run folder: {why}") from None
        if start_from is not None:
            print(f"starting {family} from {start_from} ({net.games} games)", file=out)
        net.save(first)
        net.save(ckpt)
    initial = Net.load(first) if first.exists() else None
    scratch = net.scratch()  # for training and the checks (the initial net is as large)
    stats = np.zeros(4)
    start = np.array(Position.start(rules).array)
    t0 = time.time()
    done0 = net.games
    check_every = int(cfg["check_every"])
    check_pairs = int(cfg["check_pairs"])
    next_check = (net.games // check_every + 1) * check_every
    while net.games < games:
        n = min(chunk, games - net.games)
        alpha = alpha_schedule(net.games, float(cfg["alpha0"]),
                               half_life=int(cfg["half_life"]), floor=float(cfg["floor"]))
        base_seed = int(net.meta.get("seed", 0)) * 1_000_003 + net.games
        stats[:] = 0
        if cfg["targets"] == "ply1":
            train_games_ply1(net.weights, start, flags, n, alpha, base_seed % (2**31), scratch,
                             stats)
        else:
            train_games(net.weights, start, flags, n, alpha, base_seed % (2**31), scratch,
                        stats, float(cfg["explore"]), float(cfg["lambda"]))
        net.meta["games"] = net.games + n
        net.meta["alpha"] = alpha
        net.save(ckpt)
        rate = (net.games - done0) / max(1e-9, time.time() - t0)
        print(f"\r{family}: {net.games}/{games} games  {rate:6.0f} games/s  "
              f"plies/game {stats[1] / max(1, stats[0]):5.1f}  alpha {alpha:.3f}", end="",
              file=out, flush=True)
        if net.games >= next_check or net.games >= games:
            next_check += check_every
            entry: dict = {"games": net.games, "time": round(time.time(), 1),
                           "games_per_s": round(rate, 1), "alpha": round(alpha, 4)}
            seed_eval = 12345
            if rules.variant.kernel == HITTING:  # pubeval plays the hitting games
                m = strength(net, NET, None, PUBEVAL, rules, check_pairs, seed_eval, scratch)
                entry["vs_pubeval"] = {"ppg": round(m.points_per_game, 3),
                                       "se": round(m.stderr, 3), "win": round(m.win_rate, 3)}
            m = strength(net, NET, None, RANDOM, rules, check_pairs // 5, seed_eval, scratch)
            entry["vs_random"] = {"ppg": round(m.points_per_game, 3),
                                  "win": round(m.win_rate, 3)}
            if rules.variant.kernel != HITTING:
                entry["vs_greedy"] = _vs_greedy(net, rules, check_pairs // 2, seed_eval)
            if initial is not None:
                m = strength(net, NET, initial, NET, rules, check_pairs // 5, seed_eval,
                             scratch)
                entry["vs_initial"] = {"ppg": round(m.points_per_game, 3),
                                       "win": round(m.win_rate, 3)}
            with open(run / "log.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")
            print("\n" + json.dumps(entry), file=out, flush=True)
            snap = run / f"net-{net.games}.npz"
            net.save(snap)
    print(file=out)
    return net


def _check_inputs(inputs: str, family: str) -> None:
    """Refuse an encoder that does not exist or reads another family's boards."""
    if inputs not in ENCODERS:
        raise TrainingError(f"unknown inputs {inputs[:40]!r}: one of {', '.join(ENCODERS)}")
    if encoder_code(inputs) == RACE:
        raise TrainingError("the race inputs are for race networks: tavli train-race")
    fam = encoder_family(encoder_code(inputs))
    if family_name(fam) != family:
        raise TrainingError(f"the {inputs} inputs are for {family_name(fam)} networks, not "
                            f"{family}")


def _same_inputs(net: Net, inputs: str | None, what: str) -> None:
    """A network carried on (a resumed run, ``--from``) keeps its encoder."""
    if inputs is not None and encoder_name(net.encoder) != inputs:
        raise TrainingError(f"{what} reads the {encoder_name(net.encoder)} inputs, not "
                            f"{inputs}")


def _vs_greedy(net: Net, rules: Rules, pairs: int, seed: int) -> dict:
    """The net at 0-ply against the greedy heuristic (played in Python: about 30 games a
    second)."""
    from tavli.ai.neural import NeuralPlayer
    from tavli.bench.strength import Result, play_pairs
    from tavli.play.players import GreedyPlayer

    res = play_pairs(NeuralPlayer(0, net=net), GreedyPlayer(), rules, max(1, pairs), seed)
    r = Result(len(res), res)
    return {"ppg": round(r.ppg, 3), "win": round(r.wins / r.games, 3),
            "share": round(r.share, 3), "games": r.games}
