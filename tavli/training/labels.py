"""Labelled positions for supervised rounds (``tavli train-round``): positions of one class
from self-play of the evaluator, valued by a deeper search of the same evaluator.

Which positions (both from 0-ply self-play of the teacher :class:`~tavli.ai.evaluator.
Evaluator`, contact net, race net and bear-off databases together):

* **played** (kind ``K_PLAYED``): a position before the roll, sampled on a share
  ``every`` of the turns (not the first of a game, which is always the same);
* **disputed** (kinds ``K_CHOICE0`` and ``K_CHOICE1``): on a share ``screen`` of the
  turns the best moves by 0-ply (at most 8, within 0.16 of the best, as the 1-ply search
  filters) are valued at 1-ply too; when the 1-ply choice is another move than the 0-ply
  one, both after-positions (the opponent to move) are labelled: one of them the net
  values wrongly, and these are the positions where its errors cost moves.

Only positions of the class asked for are kept (:func:`~tavli.ai.evaluator.
position_class`; contact by default: race and bear-off positions have valuers of their
own). Targets, all from the full evaluator, never from another program:

* ``ply2``: the 2-ply outputs (:func:`~tavli.ai.search.v2`);
* ``ply1``: the 1-ply outputs (cheap: tests, quick rounds);
* ``rollout``: a truncated rollout (:mod:`tavli.ai.playout`): ``trials`` play-outs of
  ``depth`` turns (0: to the end) at 0-ply, the first roll stratified over the 36, each
  valued by the evaluator where it stops (or by the result where the game ended),
  averaged; with ``luck`` the luck of every roll is taken out (gnubg's variance
  reduction: far less noise, about 20 times the work a turn).

A run is cut in chunks of ``chunk`` positions; chunk ``c`` plays its own games from a seed
of its own (:func:`chunk_seed`), so the labels do not depend on how many processes make
them (``jobs``), and each finished chunk is a file (``chunk-00000.npz``…) that a resumed
run keeps.

>>> from tavli.ai.net import Net
>>> ev = Evaluator(Net.random("portes", hidden=4, seed=1))
>>> c = label_chunk(ev, LabelSettings(targets="ply1", every=0.5, screen=0.0), 0, 5)
>>> c.boards.shape, c.labels.shape, set(c.kinds.tolist())
((5, 104), (5, 5), {0})
"""

from __future__ import annotations

import json
import sys
import time
from collections import namedtuple
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from numba import njit

from tavli.ai.encode import family_name
from tavli.ai.evaluator import CLASSES, Evaluator, evaluate, position_class
from tavli.ai.fastplay import MAX_PLIES, new_game, throw
from tavli.ai.net import N_OUT, money_equity
from tavli.ai.playout import RES, Trials, play_trials
from tavli.ai.search import SEARCH_STATES, _after_value, v1, v2
from tavli.compute import Compute, as_compute, open_pool
from tavli.engine.board import Position
from tavli.engine.games.kernel import F_BACKGAMMONS, F_KERNEL
from tavli.engine.movegen import generate
from tavli.errors import OptionError, TrainingError
from tavli.training import dataset
from tavli.training.fitting import digest

TARGETS = ("ply2", "ply1", "rollout")
T_PLY2, T_PLY1, T_ROLLOUT = range(3)
K_PLAYED, K_CHOICE0, K_CHOICE1 = range(3)
KINDS = ("played", "0-ply choice", "1-ply choice")
ANY_CLASS = -1
SCREEN_KEEP = 8  # moves valued at 1-ply when a turn is screened ...
SCREEN_WITHIN = 0.16  # ... within this equity of the 0-ply best (as the 1-ply search)

Config = namedtuple("Config", "cls every screen target trials depth luck")
Config.__doc__ = """A labelling's settings as compiled code takes them: the class kept
(``ANY_CLASS`` for all), the share of turns whose position is labelled, the share of turns
screened for a disputed choice, the target (``T_*``), and the rollout's trials, depth
and luck (0/1)."""

Rows = namedtuple("Rows", "boards sides labels v0 kinds games")
Rows.__doc__ = """Labelled rows as compiled code fills them: flat boards int8[N, 104], the
side to move int8[N], the target outputs float32[N, 5], the evaluator's own (0-ply)
outputs float32[N, 5], the kind (``K_*``) int8[N], the game of the chunk int32[N]."""


@njit(cache=True)
def _rollout(ev, st, side, flags, cfg, s, out):
    """Truncated rollout of the board array ``st`` (``side`` to move; not changed) by
    :func:`tavli.ai.playout.play_trials`: ``cfg.trials`` trials of at most ``cfg.depth``
    turns (0: to the end) at 0-ply, the first roll stratified, with the luck of every roll
    taken out when ``cfg.luck``; the mean outputs for ``side`` (clipped to [0, 1]) into
    ``out``. The rollout draws its dice from a seed drawn here and this kernel's stream
    goes on from another, so labelling stays one random stream."""
    seed = np.random.randint(1, 2147483647)
    after = np.random.randint(0, 2147483647)
    res = np.zeros((cfg.trials, RES))
    play_trials(ev, st.reshape(104), side, flags,
                Trials(seed, 0, cfg.trials, 0, cfg.depth, 0, cfg.luck), s, res)
    np.random.seed(after)
    for k in range(N_OUT):
        m = 0.0
        for t in range(cfg.trials):
            m += res[t, k] - res[t, N_OUT + k]  # the outcome less the luck (0 without)
        out[k] = min(1.0, max(0.0, m / cfg.trials))


@njit(cache=True)
def _add(ev, st, side, kind, game, flags, cfg, s, rows, n):
    """Row ``n`` of ``rows``: the board array ``st`` (not changed) with ``side`` to move,
    its target outputs, its 0-ply outputs, ``kind`` and ``game``. Returns ``n + 1``."""
    sf = st.reshape(104)
    for k in range(104):
        rows.boards[n, k] = sf[k]
    rows.sides[n] = side
    rows.kinds[n] = kind
    rows.games[n] = game
    evaluate(ev, sf, side, flags[F_KERNEL], s.x, s.h, s.y)
    for k in range(N_OUT):
        rows.v0[n, k] = s.y[k]
    if cfg.target == T_PLY2:
        v2(ev, st, side, flags, s, s.acc)
    elif cfg.target == T_PLY1:
        v1(ev, st, side, flags, s, True, s.acc)
    else:
        _rollout(ev, st, side, flags, cfg, s, s.acc)
    for k in range(N_OUT):
        rows.labels[n, k] = s.acc[k]
    return n + 1


@njit(cache=True)
def _in_class(b, family, cls):
    return cls == ANY_CLASS or position_class(b, family) == cls


@njit(cache=True)
def _one_ply_choice(ev, me, m, order, flags, s):
    """The record (in ``s.buf``) of the move that 1-ply prefers among the 0-ply best of
    the ``m`` generated (``order``: their indices, best first by ``s.scores``): at most
    ``SCREEN_KEEP`` within ``SCREEN_WITHIN`` of the best. Uses the second move buffers."""
    buf, table, scores, st2, acc2 = s.buf, s.table, s.scores, s.st2, s.acc2
    outp = table.shape[0] - buf.shape[0]
    count_bg = flags[F_BACKGAMMONS] != 0
    sf2 = st2.reshape(104)
    top = scores[order[0]]
    best = -1e18
    bi = table[outp + order[0]]
    for jj in range(min(SCREEN_KEEP, m)):
        j = order[jj]
        if scores[j] < top - SCREEN_WITHIN or scores[j] > 500.0:
            break
        i = table[outp + j]
        for k in range(104):
            sf2[k] = buf[i, k]
        v1(ev, st2, 1 - me, flags, s, True, acc2)
        e = -money_equity(acc2, count_bg)
        if e > best:
            best = e
            bi = i
    return bi


@njit(cache=True)
def label_rows(ev, start, flags, cfg, seed, s, rows):
    """Fill ``rows`` (:data:`Rows`) with labelled positions from 0-ply self-play of the
    evaluator ``ev`` (:data:`~tavli.ai.evaluator.Tables`) from the board array ``start``,
    drawing from NumPy's generator seeded with ``seed``; ``cfg``: :data:`Config`.
    Returns the number of games begun."""
    np.random.seed(seed)
    family = flags[F_KERNEL]
    buf, table, scores = s.buf, s.table, s.scores
    outp = table.shape[0] - buf.shape[0]
    gb = np.zeros((4, 26), np.int8)  # the game's board
    gf = gb.reshape(104)
    c0 = np.zeros((4, 26), np.int8)  # after-positions of a disputed turn
    c1 = np.zeros((4, 26), np.int8)
    f0, f1 = c0.reshape(104), c1.reshape(104)
    cap = rows.boards.shape[0]
    # int64 from the start: a call with a constant argument (0, K_PLAYED) compiles the
    # callee for that literal first, then again for int64 (_add: four times, 7 s)
    n = np.int64(0)
    g = np.int64(0)
    while n < cap:
        me = new_game(gb, start)
        for plies in range(1, MAX_PLIES + 2):  # cut off after MAX_PLIES
            if np.random.random() < cfg.every and plies > 1 and _in_class(gf, family, cfg.cls):
                n = _add(ev, gb, me, np.int64(K_PLAYED), g, flags, cfg, s, rows, n)
                if n >= cap:
                    break
            d1, d2 = throw()
            m = generate(gb, me, d1, d2, flags, buf, table)
            if m <= 0:
                if plies > MAX_PLIES:
                    break
                me = 1 - me
                continue
            for j in range(m):
                scores[j] = _after_value(ev, buf[table[outp + j]], me, flags, s.x, s.h, s.tmp,
                                         s.cand)
            order = np.argsort(-scores[:m])
            i0 = table[outp + order[0]]
            won = scores[order[0]] > 500.0
            i1 = i0
            if np.random.random() < cfg.screen and m > 1 and not won:
                i1 = _one_ply_choice(ev, me, m, order, flags, s)
            for k in range(104):
                f0[k] = buf[i0, k]
                f1[k] = buf[i1, k]
            if i1 != i0:
                for c, kind in ((c0, K_CHOICE0), (c1, K_CHOICE1)):
                    if n < cap and _in_class(c.reshape(104), family, cfg.cls):
                        n = _add(ev, c, 1 - me, kind, g, flags, cfg, s, rows, n)
            for k in range(104):
                gf[k] = f0[k]
            if won or plies > MAX_PLIES or n >= cap:
                break
            me = 1 - me
        g += 1
    return g


@dataclass(frozen=True)
class LabelSettings:
    """What a labelling run labels and how (see the module's text): the target, the
    class kept (a name of :data:`~tavli.ai.evaluator.CLASSES` or "any"), the shares of
    turns labelled and screened, the rollout's trials, depth and luck, positions per
    chunk and the seed."""

    targets: str = "ply2"
    cls: str = "contact"
    every: float = 0.1
    screen: float = 0.1
    trials: int = 36
    depth: int = 7
    luck: bool = False
    chunk: int = 1000
    seed: int = 1

    def check(self) -> None:
        if self.targets not in TARGETS:
            raise TrainingError(f"unknown targets {self.targets!r}: one of "
                                f"{', '.join(TARGETS)}")
        if self.cls not in CLASSES + ("any",):
            raise TrainingError(f"unknown position class {self.cls!r}: one of "
                                f"{', '.join(CLASSES + ('any',))}")
        if not (0 <= self.every <= 1 and 0 <= self.screen <= 1) \
                or self.every + self.screen <= 0:
            raise TrainingError("the shares of turns labelled (every) and screened (screen) "
                                "must lie in [0, 1], not both 0")
        if self.trials < 1 or self.depth < 0 or self.chunk < 1:
            raise TrainingError("rollout trials and the chunk size must be at least 1, the "
                                "depth at least 0")

    def config(self) -> Config:
        cls = ANY_CLASS if self.cls == "any" else CLASSES.index(self.cls)
        return Config(cls, float(self.every), float(self.screen),
                      TARGETS.index(self.targets), int(self.trials), int(self.depth),
                      int(self.luck))


def chunk_seed(seed: int, c: int) -> int:
    """The random seed of chunk ``c`` of a run of ``seed`` (independent streams).

    >>> chunk_seed(1, 0) != chunk_seed(1, 1) != chunk_seed(2, 0)
    True
    """
    return int(np.random.SeedSequence([seed, c]).generate_state(1)[0])


@dataclass
class Chunk:
    """Labelled positions of one chunk (index ``index``; -1 for several together): flat
    boards int8[N, 104], sides to move, target outputs float32[N, 5] (the float16 values
    the dataset keeps: :mod:`tavli.training.dataset`), kinds (``K_*``) and the self-play
    game each came from."""

    boards: np.ndarray
    sides: np.ndarray
    labels: np.ndarray
    kinds: np.ndarray
    games_of: np.ndarray
    index: int
    family: str

    FIELDS = ("boards", "sides", "labels", "kinds", "games_of", "index", "family")

    @property
    def games(self) -> int:
        """The self-play games its positions came from."""
        return len(np.unique(self.games_of))

    def records(self) -> np.ndarray:
        return dataset.records(self.family, self.boards, self.sides, self.kinds,
                               self.games_of, self.labels)

    def save(self, folder: str | Path) -> None:
        """Write it into the dataset folder ``folder`` (its file and checksum)."""
        dataset.write_chunk(folder, self.index, self.records())

    @classmethod
    def from_records(cls, rec: np.ndarray, index: int, family: str) -> Chunk:
        boards, sides = dataset.positions(family, rec)
        return cls(boards, sides, rec["targets"].astype(np.float32), rec["kind"].astype(np.int8),
                   rec["game"].astype(np.int32), index, family)

    @classmethod
    def load(cls, path: str | Path, family: str, sums: dict[str, str] | None = None
             ) -> Chunk:
        """Chunk file ``path`` of ``family`` labels, checked against its folder's sums."""
        path = Path(path)
        return cls.from_records(dataset.read_chunk(path, family, sums),
                                dataset.chunk_index(path), family)


def label_chunk(ev: Evaluator, settings: LabelSettings, c: int, size: int,
                rules=None, scratch=None) -> Chunk:
    """Chunk ``c`` of a run: ``size`` labelled positions (see the module's text)."""
    from tavli.ai.shipped import training_rules

    settings.check()
    family = family_name(ev.family)
    rules = rules or training_rules(family)
    rows = Rows(np.zeros((size, 104), np.int8), np.zeros(size, np.int8),
                np.zeros((size, N_OUT), np.float32), np.zeros((size, N_OUT), np.float32),
                np.zeros(size, np.int8), np.zeros(size, np.int32))
    s = scratch if scratch is not None else ev.scratch(SEARCH_STATES, 2 * SEARCH_STATES)
    start = np.array(Position.start(rules).array, dtype=np.int8)
    label_rows(ev.tables, start, rules.kernel_flags(), settings.config(),
               chunk_seed(settings.seed, c), s, rows)
    # the dataset keeps float16 targets: every consumer sees those values
    labels = rows.labels.astype(np.float16).astype(np.float32)
    return Chunk(rows.boards, rows.sides, labels, rows.kinds, rows.games, c, family)


# --- a run: chunks in files, in parallel, resumable ------------------------------------

def chunk_path(folder: Path, c: int) -> Path:
    return folder / dataset.chunk_name(c)


def chunk_sizes(positions: int, chunk: int) -> list[int]:
    """The sizes of a run's chunks.

    >>> chunk_sizes(2500, 1000)
    [1000, 1000, 500]
    """
    return [min(chunk, positions - c) for c in range(0, positions, chunk)]


def _label_setup(ev: Evaluator, settings: LabelSettings):
    from tavli.ai.shipped import training_rules

    return (ev, settings, training_rules(family_name(ev.family)),
            ev.scratch(SEARCH_STATES, 2 * SEARCH_STATES))


def _label_task(state, task: tuple[int, int]) -> tuple[int, Chunk, float]:
    """Label chunk ``c`` of ``size`` positions: (c, the chunk, seconds). The chunk comes
    back to the caller, which writes it (a worker of a cluster may have another disk)."""
    ev, settings, rules, scratch = state
    c, size = task
    t0 = time.time()
    return c, label_chunk(ev, settings, c, size, rules, scratch), time.time() - t0


def run_meta(ev: Evaluator, settings: LabelSettings) -> dict:
    """What a labels folder was made with (``meta.json``): the teacher, the settings."""
    race, t = ev.race, ev.tables
    return {"family": family_name(ev.family),
            "teacher": digest(ev.contact.W1, ev.contact.b1, ev.contact.W2, ev.contact.b2),
            "race": None if race is None else digest(race.W1, race.b1, race.W2, race.b2),
            "bearoff": digest(t.bo1, t.bo2) if ev.bearoff else None, **asdict(settings),
            "format": dataset.FORMAT}


def label_run(ev: Evaluator, settings: LabelSettings, positions: int, folder: str | Path,
              compute: Compute | int | None = None, log=None) -> list[Path]:
    """Label ``positions`` positions with the teacher ``ev`` into the dataset folder
    ``folder`` (:mod:`tavli.training.dataset`: chunk files, their checksums and
    ``meta.json``) where ``compute`` says (:class:`~tavli.compute.Compute`, or a
    number of local processes; default one per core): the chunks are the same wherever
    they were labelled. A folder holding
    a run with the same teacher and settings is resumed: its finished chunks are kept
    (``positions`` may differ from the first call's: a chunk is the same whatever the
    total, but for the last one's size, which is labelled again where it changed).
    Returns the chunk files."""
    log = log or sys.stdout
    settings.check()
    if positions < 1:
        raise TrainingError("the number of positions must be at least 1")
    try:
        compute = as_compute(compute, None)
    except OptionError as e:
        raise TrainingError(str(e)) from None
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    meta = run_meta(ev, settings)
    meta_path = folder / "meta.json"
    if meta_path.exists():
        try:
            old = json.loads(meta_path.read_text(encoding="utf-8"))
        except ValueError:
            raise TrainingError(f"{meta_path}: not a labels run's meta file") from None
        if old != meta:
            diff = sorted(k for k in set(old) | set(meta) if old.get(k) != meta.get(k))
            raise TrainingError(f"{folder} holds labels of another run (differing: "
                                f"{', '.join(diff)}); use another folder")
    else:
        meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    for tmp in folder.glob(".tmp-*"):  # a write cut short
        tmp.unlink()
    sizes = chunk_sizes(positions, settings.chunk)
    have = dataset.finished(folder)
    todo = [(c, n) for c, n in enumerate(sizes) if have.get(c) != n]
    done = len(sizes) - len(todo)
    if done:
        print(f"{done} of {len(sizes)} chunks already labelled", file=log, flush=True)
    t0 = time.time()
    labelled = 0

    def report(c: int, chunk: Chunk, dt: float) -> None:
        nonlocal done, labelled
        chunk.save(folder)
        done += 1
        labelled += len(chunk.boards)
        rate = labelled / max(1e-9, time.time() - t0)
        print(f"chunk {c}: {len(chunk.boards)} positions from {chunk.games} games in "
              f"{dt:.0f} s; {done}/{len(sizes)} chunks ({rate:.1f} positions/s)", file=log,
              flush=True)

    if todo:
        if len(todo) > 1 and not compute.here:
            print(f"labelling on {compute.describe()}", file=log, flush=True)
            label_chunk(ev, settings, 0, 1)  # compile here once; the workers load the cache
        else:
            compute = Compute()
        with open_pool(compute, _label_setup, (ev, settings)) as pool:
            for res in pool.map(_label_task, todo):
                report(*res)
    return [chunk_path(folder, c) for c in range(len(sizes))]


def dataset_files(folder: str | Path) -> list[Path]:
    """The finished chunk files of a dataset folder, in order."""
    folder = Path(folder)
    return [chunk_path(folder, c) for c in sorted(dataset.finished(folder))]


def load_chunks(paths: list[Path], family: str) -> Chunk:
    """The chunks in ``paths`` (each checked against its folder's checksums) as one
    (``index`` -1); ``games_of`` becomes a number unique over the chunks (chunk index
    times a million plus the game)."""
    sums: dict[Path, dict[str, str]] = {}
    chunks = []
    for p in map(Path, paths):
        if p.parent not in sums:
            sums[p.parent] = dataset.read_sums(p.parent)
        chunks.append(Chunk.load(p, family, sums[p.parent]))
    if not chunks:
        raise TrainingError("no labels to load")
    return Chunk(*(np.concatenate([getattr(c, k) for c in chunks]) for k in
                   ("boards", "sides", "labels", "kinds")),
                 np.concatenate([c.index * 1_000_000 + c.games_of.astype(np.int64)
                                 for c in chunks]), -1, family)


def summary(chunk: Chunk, v0: np.ndarray, count_bg: bool = True) -> str:
    """A line on labelled positions: how many of each kind, and the mean gap between the
    teacher's own (0-ply) equity, its outputs ``v0``, and the target's (how wrong 0-ply is
    on them)."""
    from tavli.ai.net import equity

    gap = np.abs(equity(v0, count_bg) - equity(chunk.labels, count_bg))
    parts = []
    for k, name in enumerate(KINDS):
        sel = chunk.kinds == k
        if sel.any():
            parts.append(f"{name} {int(sel.sum())} (|V0 - target| {gap[sel].mean():.4f})")
    return (f"{len(chunk.boards)} positions from {chunk.games} games: " + ", ".join(parts))

