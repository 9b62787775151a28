"""Supervised rounds (``tavli train-round``): label, fit, measure, keep only a better net.

A round, with the current net as the teacher (its :class:`~tavli.ai.evaluator.Evaluator`:
the contact net, the race net if one is given, the bear-off databases):

1. **label** positions of one class from the teacher's self-play with a deeper target
   (:mod:`tavli.training.labels`: 2-ply by default), in chunk files, in parallel;
2. **fit** a student to them, starting from the teacher's weights
   (:func:`~tavli.training.fitting.fit_labels`: validation, early stopping); labels of earlier
   rounds with the same teacher (rounds whose student was not kept) are fitted too;
3. **measure** the student (with the teacher's race net and databases) against the
   teacher: duplicate-dice games at 0-ply, compiled (:func:`~tavli.ai.fastplay.
   compiled_match`), points per game ± one standard error;
4. **keep** the student as the next teacher only if it is significantly better (its
   points per game at least ``z`` standard errors above 0).

Rounds repeat until ``rounds`` are done or two successive rounds bring no significant
gain. Every step is resumable: the run folder holds each round's labels, fit state and
match result, and ``rounds.json`` the history; running the same command again goes on
where it stopped. ``best.npz`` is the current net.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from tavli.ai.encode import family_name
from tavli.ai.evaluator import Evaluator
from tavli.ai.net import Net
from tavli.compute import Compute, as_compute
from tavli.errors import OptionError, TrainingError
from tavli.training.distill import encoded
from tavli.training.fitting import FitSettings, Student, digest, fit_labels
from tavli.training.labels import (
    LabelSettings,
    chunk_seed,
    dataset_files,
    label_run,
    load_chunks,
    summary,
)


@dataclass(frozen=True)
class RoundSettings:
    """A run's settings: positions labelled a round, the labelling and fitting settings,
    the games of the student-teacher match (an even number), the significance needed to
    keep a student (standard errors), and the seed of the rounds' labels and dice (round
    ``r`` labels from the seed ``chunk_seed(seed, 1000 + r)``, whatever ``labels.seed``
    says, and plays its match with the dice of seed ``1000 seed + r``)."""

    positions: int = 50_000
    labels: LabelSettings = field(default_factory=LabelSettings)
    fit: FitSettings = field(default_factory=FitSettings)
    games: int = 10_000
    z: float = 2.0
    seed: int = 1

    def check(self) -> None:
        self.labels.check()
        self.fit.check()
        if self.positions < 1:
            raise TrainingError("a round needs at least 1 position")
        if self.games < 2 or self.games % 2:
            raise TrainingError("the match needs an even number of games, at least 2")
        if not self.z >= 0:
            raise TrainingError("the significance z must be at least 0")

    def as_dict(self) -> dict:
        return asdict(self)


def _net_digest(net: Net) -> str:
    return digest(net.W1, net.b1, net.W2, net.b2)


class Run:
    """A run folder and its history (``rounds.json``)."""

    def __init__(self, folder: Path, start: Net, race: Net | None,
                 settings: RoundSettings, log, labels: Path | None = None) -> None:
        self.folder = folder
        self.labels = labels
        self.race = race
        self.settings = settings
        self.log = log
        self.path = folder / "rounds.json"
        same = settings.as_dict()
        del same["positions"]  # may change between calls (label_run)
        head = {"family": family_name(start.family), "start": _net_digest(start),
                "race": None if race is None else _net_digest(race), "settings": same}
        if self.path.exists():
            try:
                self.state = json.loads(self.path.read_text(encoding="utf-8"))
                old = {k: self.state[k] for k in head}
            except (ValueError, KeyError, TypeError):
                raise TrainingError(f"{self.path}: not a rounds file") from None
            if old != head:
                diff = _differences(old, head)
                raise TrainingError(f"{folder} is a run of other settings or nets (differing: "
                                    f"{', '.join(diff)}); use another --run folder")
        else:
            folder.mkdir(parents=True, exist_ok=True)
            start.save(folder / "round-0.npz")
            shutil.copyfile(folder / "round-0.npz", folder / "best.npz")
            self.state = dict(head, current="round-0.npz", rounds=[])
            self.save()

    def save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.state, indent=1) + "\n", encoding="utf-8")
        tmp.replace(self.path)

    @property
    def rounds(self) -> list[dict]:
        return self.state["rounds"]

    def labels_folder(self, r: int) -> Path:
        """Where round ``r`` keeps its labels: ``round-R/labels`` in the run folder, or the
        dataset folder the run was given (round 1; ``DATASET-round-R`` after it)."""
        if self.labels is None:
            return self.folder / f"round-{r}" / "labels"
        return self.labels if r == 1 else self.labels.with_name(
            f"{self.labels.name}-round-{r}")

    def current(self) -> Net:
        return Net.load(self.folder / self.state["current"])

    def evaluator(self, net: Net) -> Evaluator:
        return Evaluator(net, self.race)

    def stalled(self) -> bool:
        """Two successive finished rounds brought no significant gain."""
        last = [r for r in self.rounds if "kept" in r][-2:]
        return len(last) == 2 and not any(r["kept"] for r in last)


def _differences(old: dict, new: dict, prefix: str = "") -> list[str]:
    out = []
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k), new.get(k)
        if isinstance(a, dict) and isinstance(b, dict):
            out += _differences(a, b, f"{prefix}{k}.")
        elif a != b:
            out.append(prefix + k)
    return out


def play_round(run: Run, r: int, compute: Compute) -> dict:
    """Round ``r`` (1, 2, …) of ``run``: label, fit, measure, keep or not, the labels and
    the match where ``compute`` says. Returns its record (also in ``rounds.json``)."""
    from tavli.ai.fastplay import NET, match_job
    from tavli.ai.shipped import training_rules

    s, log, folder = run.settings, run.log, run.folder / f"round-{r}"
    if len(run.rounds) < r:
        teacher_file = run.state["current"]
        run.rounds.append({"round": r, "teacher": teacher_file})
        run.save()
    rec = run.rounds[r - 1]
    teacher = Net.load(run.folder / rec["teacher"])
    rules = training_rules(family_name(teacher.family))
    count_bg = bool(rules.backgammons)
    print(f"round {r}: teacher {rec['teacher']} ({teacher!r})", file=log, flush=True)

    lset = LabelSettings(**dict(asdict(s.labels), seed=chunk_seed(s.seed, 1000 + r)))
    labels = run.labels_folder(r)
    where = os.path.relpath(labels, run.folder)
    if rec.get("labels", where) != where:
        kept = os.path.normpath(run.folder / rec["labels"])
        raise TrainingError(f"round {r} keeps its labels in {kept}, "
                            f"not {labels}: give the same --labels as before")
    rec["labels"] = where
    run.save()
    files = label_run(run.evaluator(teacher), lset, s.positions, labels, compute, log)
    # the labels of earlier rounds with this teacher are valid targets too
    same = [q for q in run.rounds[:r - 1] if q["teacher"] == rec["teacher"] and "labels" in q]
    for q in same:
        files += dataset_files(run.folder / q["labels"])
    data = load_chunks(files, family_name(teacher.family))
    rec["positions"] = len(data.boards)
    run.save()

    X = encoded(teacher, data.boards, data.sides)
    v0 = Student(teacher.W1, teacher.b1, teacher.W2, teacher.b2).outputs(X)
    print(f"labels: {summary(data, v0, count_bg)}", file=log, flush=True)
    meta = dict(teacher.meta, version="supervised",
                note=f"supervised round {r}: {s.labels.targets} targets of "
                     f"{len(data.boards)} {s.labels.cls} positions")
    fit = fit_labels(teacher, X, data.labels.astype(np.float32), data.games_of, folder / "fit",
                     s.fit, count_bg, meta, log)
    rec["fit"] = {"best_epoch": fit.best_epoch, "start_error": round(fit.start_error, 6),
                  "best_error": round(fit.best_error, 6), "epochs": len(fit.history)}
    run.save()
    if fit.best_epoch == 0:
        print("the student never beat the teacher's own held-out error: not kept",
              file=log, flush=True)
        rec.update(kept=False, match=None)
        run.save()
        return rec

    match_path = folder / "match.json"
    if match_path.exists():
        match = json.loads(match_path.read_text(encoding="utf-8"))
    else:
        pairs = s.games // 2
        seed = 1000 * s.seed + r  # `tavli bench strength ... --seed` replays it
        res = match_job(run.evaluator(fit.net), NET, run.evaluator(teacher), NET, rules,
                        pairs, seed, compute)
        ppg = float(res.mean())
        se = float(res.std(ddof=1) / math.sqrt(len(res)))
        match = {"games": len(res), "seed": seed, "ppg": ppg, "se": se,
                 "wins": int((res > 0).sum())}
        match_path.write_text(json.dumps(match) + "\n", encoding="utf-8")
    kept = match["ppg"] >= s.z * match["se"] and match["ppg"] > 0
    print(f"student vs teacher: {match['ppg']:+.4f} ± {match['se']:.4f} points a game "
          f"({match['games']} games, duplicate dice, seed {match['seed']}): "
          f"{'kept' if kept else 'not kept'}", file=log, flush=True)
    rec.update(match=match, kept=kept, student=f"round-{r}/fit/student.npz")
    if kept:
        run.state["current"] = rec["student"]
        shutil.copyfile(run.folder / rec["student"], run.folder / "best.npz")
    run.save()
    return rec


def train_rounds(start: Net, folder: str | Path, settings: RoundSettings = RoundSettings(),
                 rounds: int = 1, race: Net | None = None,
                 compute: Compute | int | None = None, log=None,
                 labels: str | Path | None = None) -> Net:
    """Supervised rounds from the network ``start`` in the run folder ``folder`` (see the
    module's text): up to ``rounds`` rounds in all (a rerun resumes and may raise it),
    stopping early after two successive rounds without significant gain; the labelling
    and the matches run where ``compute`` says (:class:`~tavli.compute.Compute`, or a
    number of local processes; default one per core). ``labels``: a dataset folder to
    keep the labels in (one that is committed, :mod:`tavli.training.dataset`; round 1's,
    later rounds' beside it: :meth:`Run.labels_folder`) instead of the run folder.
    Returns the current (best) network."""
    log = log or sys.stdout
    settings.check()
    if rounds < 1:
        raise TrainingError("rounds must be at least 1")
    if race is not None and race.family != start.family:
        raise TrainingError("the race network is of another family than the start one")
    try:
        compute = as_compute(compute, None)
    except OptionError as e:
        raise TrainingError(str(e)) from None
    run = Run(Path(folder), start, race, settings, log,
              None if labels is None else Path(labels))
    for r in range(1, rounds + 1):
        if r <= len(run.rounds) and "kept" in run.rounds[r - 1]:
            continue  # finished before
        if run.stalled():
            break
        play_round(run, r, compute)
    if run.stalled():
        print("two successive rounds brought no significant gain: stopping", file=log,
              flush=True)
    print(f"current net: {run.state['current']} (copied to {run.folder / 'best.npz'})",
          file=log, flush=True)
    return run.current()

