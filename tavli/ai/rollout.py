"""Rollouts: a position valued by playing it out many times (``tavli rollout``).

:func:`rollout` values a position for the side to move, before its roll: each trial plays
the game to its end (or for ``truncate`` turns, then takes the evaluator's 0-ply value)
with the evaluator choosing every move at ``ply`` 0 or 1, in compiled code
(:mod:`tavli.ai.playout`). :func:`rollout_moves` rolls out the after-positions of
candidate moves of a roll (the same dice for each: their differences are measured more
closely than their values) and ranks them.

Variance reduction as gnubg's: the first roll of trial ``t`` is roll ``t mod 36`` (with a
number of trials divisible by 1296 the second roll is stratified too), and the luck of
every roll (the 0-ply value of its best move minus the mean over the 21 rolls) is taken
out of each trial's result. Both means are reported: ``plain_*`` (the outcomes) and the
luck-adjusted ones, with their standard errors (over the trials, as if independent: the
stratification makes them a little pessimistic).

Each trial's dice depend only on the seed and the trial's number, so a rollout gives the
same figures wherever it is played (:class:`~tavli.compute.Compute`: this process, local
processes, a Ray cluster).

>>> from tavli.engine.board import Position
>>> pos = Position.from_points("backgammon", {1: 1}, {1: 1, 2: 1}, 1)
>>> r = rollout(pos, RolloutContext(games=36, luck=False))
>>> r.trials, float(r.outputs[0])  # black to roll bears both checkers off with any roll
(36, 1.0)
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from tavli.ai.context import DEFAULT_ROLLOUT, EvalContext, RolloutContext
from tavli.ai.net import N_OUT, equity
from tavli.compute import Compute, Pool, as_compute, open_pool
from tavli.engine.board import Dice, Move, Position
from tavli.engine.rules import Rules
from tavli.errors import GameOver, OptionError

CHUNK = 36  # trials per compiled call: one pass through the first rolls
OUTPUT_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
PROGRESS_EVERY = 5.0  # seconds between progress lines when stderr is not a terminal


@dataclass
class RolloutResult:
    """A rollout's figures, for the side to move before its roll (a move's: for the side
    that played it). ``outputs``/``se``: the luck-adjusted means of the five
    probabilities (win, win gammon, win backgammon, lose gammon, lose backgammon) and
    their standard errors, ``equity``/``equity_se`` the cubeless equity's; ``plain_*``
    the same for the outcomes alone (equal to the adjusted ones without ``luck``)."""

    trials: int
    outputs: np.ndarray
    se: np.ndarray
    equity: float
    equity_se: float
    plain_outputs: np.ndarray
    plain_se: np.ndarray
    plain_equity: float
    plain_equity_se: float
    seconds: float = 0.0
    turns: float = 0.0  # turns played per trial, on average
    settings: dict = field(default_factory=dict)
    move: Move | None = None

    def to_dict(self) -> dict:
        """The figures as JSON values (``None`` for an SE of one trial)."""
        def num(v: float) -> float | None:
            return None if math.isnan(v) else round(float(v), 6)

        def named(a: np.ndarray) -> dict:
            return {k: num(v) for k, v in zip(OUTPUT_NAMES, a, strict=True)}

        d: dict = {}
        if self.move is not None:
            d["move"] = str(self.move)
            d["position"] = self.move.after.id()
        d.update(trials=self.trials, equity=num(self.equity), equity_se=num(self.equity_se),
                 **named(self.outputs), se=named(self.se),
                 plain={"equity": num(self.plain_equity),
                        "equity_se": num(self.plain_equity_se),
                        **named(self.plain_outputs), "se": named(self.plain_se)},
                 turns=round(self.turns, 2), seconds=round(self.seconds, 3),
                 **self.settings)
        return d

    def __repr__(self) -> str:
        what = f"{self.move}: " if self.move is not None else ""
        return (f"RolloutResult({what}{self.trials} trials, equity {self.equity:+.4f} ± "
                f"{self.equity_se:.4f}, plain {self.plain_equity:+.4f} ± "
                f"{self.plain_equity_se:.4f})")


class Runner:
    """Plays rollout trials with one evaluator and rule set, in this process or where
    ``compute`` says (:class:`~tavli.compute.Compute`, or a number of local processes;
    its workers kept until :meth:`close`): the trials are the same wherever they ran."""

    def __init__(self, evaluator, rules: Rules, compute: Compute | int = 1) -> None:
        from tavli.ai.search import SEARCH_STATES

        self.compute = as_compute(compute)  # refuses a number of workers below 1
        self.evaluator = evaluator
        self.rules = rules
        self.flags = rules.kernel_flags()
        self.count_bg = bool(rules.backgammons)
        self.scratch = evaluator.scratch(SEARCH_STATES, 2 * SEARCH_STATES)
        self._pool: Pool | None = None

    def _chunk(self, root: np.ndarray, side: int, cfg) -> np.ndarray:
        return _rollout_chunk((self.evaluator, self.flags, self.scratch), (root, side, cfg))

    def _pool_get(self) -> Pool:
        """The workers (started at the first rollout that needs them)."""
        if self._pool is None:
            self._pool = open_pool(self.compute, _rollout_setup, (self.evaluator, self.flags))
        return self._pool

    def close(self) -> None:
        """Stop the workers."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def run(self, position: Position, ctx: RolloutContext, progress: TextIO | None = None,
            label: str = "") -> tuple[np.ndarray, float]:
        """The result rows of the trials of ``position`` (its side to move, before the
        roll; :mod:`tavli.ai.playout`) rolled out as ``ctx`` says, and the seconds taken.
        With ``ctx.target_se`` it stops after the first run of 36 trials whose equity's
        standard error is below it."""
        from tavli.ai.playout import Trials

        games, luck, target_se = ctx.games, ctx.luck, ctx.target_se
        root = position.flat()
        side = int(position.turn)
        strat2 = int(games % 1296 == 0)
        starts = list(range(0, games, CHUNK))

        def cfg(first: int) -> Trials:
            return Trials(ctx.seed, first, min(CHUNK, games - first), ctx.ply,
                          ctx.truncate or 0, strat2, int(luck))

        meter = _Progress(progress, games, self.count_bg, label)
        rows: list[np.ndarray] = []
        t0 = time.perf_counter()

        def add(res: np.ndarray) -> bool:
            rows.append(res)
            done = np.concatenate(rows)
            meter.update(done, time.perf_counter() - t0)
            if target_se is None or len(done) < 2 * CHUNK:
                return False
            return _equity_se(done, self.count_bg, luck) < target_se

        stop = add(self._chunk(root, side, cfg(0)))  # here first: a cold cache compiles once
        if not stop and len(starts) > 1:
            if self.compute.here:
                for first in starts[1:]:
                    if add(self._chunk(root, side, cfg(first))):
                        break
            else:
                pool = self._pool_get()
                todo = deque(starts[1:])
                pending: deque = deque()
                while todo or pending:
                    while todo and len(pending) < 2 * pool.workers:
                        pending.append(pool.submit(_rollout_chunk,
                                                   (root, side, cfg(todo.popleft()))))
                    if add(pool.result(pending.popleft())):
                        for p in pending:  # let the chunks under way finish unused
                            pool.result(p)
                        break
        meter.close()
        return np.concatenate(rows), time.perf_counter() - t0


def _rollout_setup(evaluator, flags):
    from tavli.ai.search import SEARCH_STATES

    return evaluator, flags, evaluator.scratch(SEARCH_STATES, 2 * SEARCH_STATES)


def _rollout_chunk(state, task) -> np.ndarray:
    """A chunk of trials (``task``: the root board, its side, the trials' settings)."""
    from tavli.ai.playout import RES, play_trials

    evaluator, flags, scratch = state
    root, side, cfg = task
    res = np.zeros((cfg.n, RES))
    play_trials(evaluator.tables, root, side, flags, cfg, scratch, res)
    return res


def _equity_se(res: np.ndarray, count_bg: bool, luck: bool) -> float:
    out = res[:, :N_OUT] - (res[:, N_OUT:2 * N_OUT] if luck else 0.0)
    e = np.asarray(equity(out, count_bg))
    return float(e.std(ddof=1) / math.sqrt(len(e))) if len(e) > 1 else math.inf


class _Progress:
    """One updating line on a terminal (every chunk, at most 5 a second), else a line every
    few seconds; nothing without a stream."""

    def __init__(self, stream: TextIO | None, games: int, count_bg: bool, label: str) -> None:
        self.stream = stream
        self.tty = bool(stream is not None and getattr(stream, "isatty", lambda: False)())
        self.games = games
        self.count_bg = count_bg
        self.label = f"{label}: " if label else ""
        self.last = time.perf_counter()
        self.shown = False

    def update(self, res: np.ndarray, seconds: float) -> None:
        if self.stream is None:
            return
        now = time.perf_counter()
        if now - self.last < (0.2 if self.tty else PROGRESS_EVERY):
            return
        self.last = now
        n = len(res)
        out = res[:, :N_OUT] - res[:, N_OUT:2 * N_OUT]
        e = np.asarray(equity(out, self.count_bg))
        se = e.std(ddof=1) / math.sqrt(n) if n > 1 else math.nan
        line = (f"{self.label}{n}/{self.games} trials, equity {e.mean():+.4f} ± {se:.4f}, "
                f"{n / max(seconds, 1e-9):.0f} trials/s")
        if self.tty:
            self.stream.write("\r" + line[:120] + "\x1b[K")
            self.shown = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def summarize(res: np.ndarray, count_bg: bool, luck: bool, seconds: float = 0.0,
              settings: dict | None = None, move: Move | None = None) -> RolloutResult:
    """A :class:`RolloutResult` from trial rows (:mod:`tavli.ai.playout`), root side's
    view."""
    n = len(res)
    plain = res[:, :N_OUT]
    adj = plain - res[:, N_OUT:2 * N_OUT] if luck else plain

    def mean_se(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        se = a.std(axis=0, ddof=1) / math.sqrt(n) if n > 1 else np.full(a.shape[1:], math.nan)
        return a.mean(axis=0), se

    po, ps = mean_se(plain)
    ao, as_ = mean_se(adj)
    pe, pes = mean_se(np.asarray(equity(plain, count_bg))[:, None])
    ae, aes = mean_se(np.asarray(equity(adj, count_bg))[:, None])
    return RolloutResult(n, ao, as_, float(ae[0]), float(aes[0]), po, ps, float(pe[0]),
                         float(pes[0]), seconds, float(res[:, -1].mean()) if n else 0.0,
                         dict(settings or {}), move)


def _flip_rows(res: np.ndarray) -> np.ndarray:
    """Trial rows seen by the other side: outcomes flipped, luck (a difference) too."""
    out = res.copy()
    o, lk = res[:, :N_OUT], res[:, N_OUT:2 * N_OUT]
    out[:, 0] = 1.0 - o[:, 0]
    out[:, N_OUT] = -lk[:, 0]
    for a, b in ((1, 3), (2, 4), (3, 1), (4, 2)):
        out[:, a] = o[:, b]
        out[:, N_OUT + a] = lk[:, b]
    return out


def _setup(position: Position, evaluator, rules: Rules | None):
    from tavli.ai.encode import family_name
    from tavli.ai.evaluator import as_evaluator
    from tavli.ai.net import NetError
    from tavli.play.game import Outcome, base_result

    rules = rules or Rules.for_game(position.game)
    if rules.game != position.game:
        raise OptionError(f"the rules are {rules.game_name}'s, the position "
                          f"{position.game_name}'s")
    result = base_result(position, rules)
    if result is not None:
        raise GameOver(f"the game is over: {Outcome(*result)}")
    ev = as_evaluator(evaluator, rules.variant)
    if ev.family != rules.variant.kernel:
        raise NetError(f"the network is for {family_name(ev.family)}, the game "
                       f"{rules.game_name}")
    return ev, rules


def rollout(position: Position, ctx: RolloutContext = DEFAULT_ROLLOUT, evaluator=None, *,
            compute: Compute | int = 1, rules: Rules | None = None,
            progress: TextIO | None = None) -> RolloutResult:
    """Roll out ``position`` for its side to move, before the roll, as ``ctx`` says
    (:class:`~tavli.ai.context.RolloutContext`: the trials, their ply, truncation, seed,
    luck adjustment — with it the trials cost about 20 times more at 0-ply and the
    standard error falls several times — and the standard error to stop at), moves chosen
    by ``evaluator`` (a :class:`~tavli.ai.evaluator.Evaluator` or network; the shipped one
    by default), played where ``compute`` says (:class:`~tavli.compute.Compute`, or a
    number of local processes). ``progress``: a stream for a progress line (stderr)."""
    ev, rules = _setup(position, evaluator, rules)
    with Runner(ev, rules, compute) as runner:
        res, secs = runner.run(position, ctx, progress)
    return summarize(res, bool(rules.backgammons), ctx.luck, secs, ctx.settings())


def rollout_moves(position: Position, dice: Dice | str | None, moves: int | None = 5,
                  ctx: RolloutContext = DEFAULT_ROLLOUT, evaluator=None, *,
                  compute: Compute | int = 1,
                  rules: Rules | None = None, candidates: list[Move] | None = None,
                  progress: TextIO | None = None) -> list[RolloutResult]:
    """Roll out the after-positions of moves of ``dice`` in ``position`` (the best
    ``moves`` by 0-ply, all of them with None; or the given ``candidates``), each with the
    same trials and dice (``ctx`` and the rest as :func:`rollout`), and return them best
    first by the luck-adjusted equity, for the side that moves. A move that ends the game
    has its outcome exactly (0 trials)."""
    from tavli.ai.analyzer import Analyzer

    compute = as_compute(compute)  # refused before anything is ranked
    if moves is not None and (not isinstance(moves, int) or moves < 1):
        raise OptionError(f"moves must be at least 1 (or all), not {moves!r}")
    ev, rules = _setup(position, evaluator, rules)
    if candidates is None:
        legal = position.legal_moves(dice, rules)
        ranked = Analyzer(rules, ev).rank(position, legal, EvalContext())
        candidates = [r.move for r in ranked[:moves]]
    settings = ctx.settings()
    results = []
    with Runner(ev, rules, compute) as runner:
        for i, m in enumerate(candidates, 1):
            end = _game_over(m, rules)
            if end is not None:
                e = float(equity(end, bool(rules.backgammons)))
                zero = np.zeros(N_OUT)
                results.append(RolloutResult(0, end, zero, e, 0.0, end, zero, e, 0.0,
                                             settings=settings, move=m))
                continue
            res, secs = runner.run(m.after, ctx, progress, f"move {i}/{len(candidates)} {m}")
            results.append(summarize(_flip_rows(res), bool(rules.backgammons), ctx.luck,
                                     secs, settings, m))
    results.sort(key=lambda r: -r.equity)
    return results


def _game_over(move: Move, rules: Rules) -> np.ndarray | None:
    """The outcome (five outputs, the mover's view) of a move that ends the game, or
    None."""
    from tavli.ai.fastplay import terminal

    tgt = np.zeros(N_OUT, dtype=np.float32)
    b = move.after.flat()
    if math.isnan(terminal(b, move.before.turn, rules.kernel_flags(), tgt)):
        return None
    return tgt.astype(np.float64)


#: the English words of :func:`format_result` (the CLI passes them in its language)
WORDS = {"equity": "equity", "labels": ("win", "w g", "w bg", "l g", "l bg"),
         "adjusted": "adjusted", "plain": "plain"}


def format_result(r: RolloutResult, count_bg: bool, head: str = "",
                  words: dict | None = None) -> list[str]:
    """Text lines of a rollout: the adjusted and the plain equity and probabilities with
    their standard errors (the backgammon columns only where they count); ``words`` as
    :data:`WORDS`."""
    w = words or WORDS
    cols = [i for i in range(N_OUT) if count_bg or i not in (2, 4)]
    labels = w["labels"]
    width = {i: max(6, len(labels[i])) for i in cols}
    name_w = max(10, len(w["adjusted"]) + 1, len(w["plain"]) + 1)
    lines = [f"{head:<{name_w}} {w['equity']:>8}  "
             + " ".join(f"{labels[i]:>{width[i]}}" for i in cols)]
    rows = [(w["adjusted"], r.equity, r.equity_se, r.outputs, r.se)] if r.settings.get(
        "luck", True) else []
    rows.append((w["plain"], r.plain_equity, r.plain_equity_se, r.plain_outputs, r.plain_se))
    for name, e, se, o, s in rows:
        lines.append(f"{name:<{name_w}} {e:+8.4f}  "
                     + " ".join(f"{o[i]:{width[i]}.4f}" for i in cols))
        lines.append(f"{'  ± SE':<{name_w}} {se:8.4f}  "
                     + " ".join(f"{s[i]:{width[i]}.4f}" for i in cols))
    return lines


def describe(r: RolloutResult) -> str:
    """The settings of a rollout in words: trials, ply, truncation, seed, variance
    reduction."""
    s = r.settings
    cut = f"truncated after {s['truncate']} turns" if s.get("truncate") else "played out"
    vr = "luck-adjusted" if s.get("luck", True) else "no luck adjustment"
    return f"{s.get('ply', 0)}-ply, {cut}, stratified first rolls, {vr}, seed {s.get('seed')}"


__all__ = ["RolloutResult", "rollout", "rollout_moves", "Runner", "summarize",
           "format_result", "describe"]

