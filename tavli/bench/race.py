"""``tavli bench race``: how well a race network values races, against rollouts.

Race-class positions are sampled from self-play of the family's evaluator (one position
of each game that reaches a race, drawn at random among its race positions), each is
played out to the end ``trials`` times (:mod:`tavli.ai.rollout`: 0-ply play by the full
evaluator, contact network, race network and bear-off databases; the first two rolls run
through all 1,296 pairs, plain means), and the cubeless equity of the side to
move by each network at 0-ply is compared with the rollout's mean: the mean absolute
error of the race network and of the contact network alone, each ± its standard error
over the positions, their paired difference, and the root-mean-square errors with the
rollouts' own noise taken out (``sqrt(mean(err^2) - mean(se^2))``). With ``--games N``
the two evaluators also play N duplicate games from the positions (the same dice twice,
seats swapped): the race network's points per game ± SE.

The positions and their rollouts can be kept in a file (``--rollouts FILE``: made when
missing, read when present), so later networks are measured on the same ones (``tavli
train-race --check FILE`` logs the error at each check).
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tavli.ai.context import RolloutContext
from tavli.ai.evaluator import E_RACE, Evaluator
from tavli.ai.net import N_OUT, Net, equity, read_npz, write_npz
from tavli.ai.race import RACE
from tavli.compute import Compute
from tavli.engine.games import find_variant
from tavli.engine.rules import Rules
from tavli.errors import NetError, OptionError

TRIALS = 1296
POSITIONS = 500


@dataclass
class Rollouts:
    """Race positions (flat boards, side to move) with their rollouts: the mean points
    for the side to move, its standard error and the frequencies of the five outputs
    (``outputs``: win, win gammon, win backgammon, lose gammon, lose backgammon), over
    ``trials`` play-outs by ``player``."""

    family: str
    boards: np.ndarray
    turns: np.ndarray
    means: np.ndarray
    ses: np.ndarray
    outputs: np.ndarray
    trials: int
    seed: int
    player: str

    def save(self, path: str | Path, partial: bool = False) -> None:
        """Write the file (atomically). ``partial``: rollouts of the first positions
        only, a run under way (:func:`rollouts_of`)."""
        meta = {"family": self.family, "trials": self.trials, "seed": self.seed,
                "player": self.player, "partial": partial}
        write_npz(path, boards=self.boards, turns=self.turns, means=self.means, ses=self.ses,
                  outputs=self.outputs,
                  meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8))

    @classmethod
    def load(cls, path: str | Path, partial: bool = False) -> Rollouts:
        """The rollouts saved in ``path``; :class:`OptionError` when it is not such a
        file (``partial``: a run under way's file, rollouts of its first positions)."""
        z = read_npz(path, ("boards", "turns", "means", "ses", "outputs", "meta"),
                     "rollouts", "a race rollouts", OptionError)
        try:
            meta = json.loads(bytes(z["meta"]).decode())
            r = cls(find_variant(meta["family"]).family,
                    np.ascontiguousarray(z["boards"], dtype=np.int8),
                    np.ascontiguousarray(z["turns"], dtype=np.int64),
                    np.asarray(z["means"], dtype=np.float64),
                    np.asarray(z["ses"], dtype=np.float64),
                    np.asarray(z["outputs"], dtype=np.float64), int(meta["trials"]),
                    int(meta["seed"]), str(meta["player"]))
            n = len(r.boards)
            m = len(r.means) if partial else n
            ok = (r.boards.shape == (n, 104) and r.turns.shape == (n,) and n > 1
                  and bool(meta.get("partial", False)) == partial
                  and r.means.shape == (m,) and r.ses.shape == (m,)
                  and r.outputs.shape == (m, N_OUT))
        except (ValueError, KeyError, TypeError, AttributeError):
            ok = False
        if not ok:
            raise OptionError(f"{path}: not a race rollouts file")
        return r


def _valued(ev: Evaluator, rolls: Rollouts, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    out, used = ev.evaluate_arrays(rolls.boards.reshape(-1, 4, 26), rolls.turns)
    return np.asarray(equity(out, bool(rules.backgammons))), used


def equity_errors(ev: Evaluator, rolls: Rollouts, rules: Rules) -> np.ndarray:
    """``|equity by ev at 0-ply - rollout mean|`` for each position."""
    eq, _ = _valued(ev, rolls, rules)
    return np.abs(eq - rolls.means)


def rollouts_of(ev: Evaluator, rules: Rules, boards: np.ndarray, turns: np.ndarray,
                trials: int, seed: int, player: str, progress=None, compute: Compute | int = 1,
                partial: str | Path | None = None) -> Rollouts:
    """The positions (flat boards, ``turns[k]`` to move) rolled out ``trials`` times each
    by ``ev`` at 0-ply to the end (:mod:`tavli.ai.rollout`: plain means, stratified first
    rolls; position ``k`` takes the rollout seed ``seed * 100,000 + k``), the trials of a
    position where ``compute`` says (:mod:`tavli.compute`; the figures do not depend on it). With
    ``partial`` the positions done so far are saved there every few positions, and a run
    of the same positions and settings resumes from it."""
    from tavli.ai.rollout import Runner, summarize
    from tavli.engine.board import Position

    n = len(boards)
    part = Path(partial) if partial is not None else None
    done = _resume(part, rules.variant.family, boards, turns, trials, seed, player)
    means = np.zeros(n)
    ses = np.zeros(n)
    outputs = np.zeros((n, N_OUT))
    k0 = 0
    if done is not None:
        k0 = len(done.means)
        means[:k0], ses[:k0], outputs[:k0] = done.means, done.ses, done.outputs
        if progress is not None:
            print(f"rollouts: resuming after {k0}/{n} positions ({part})", file=progress)
    count_bg = bool(rules.backgammons)

    def rolled(k: int) -> Rollouts:
        return Rollouts(rules.variant.family, boards, turns, means[:k], ses[:k],
                        outputs[:k], trials, seed, player)

    plain = RolloutContext(games=trials, luck=False)  # each position's own seed below
    with Runner(ev, rules, compute) as runner:
        for k in range(k0, n):
            pos = Position(rules.game, boards[k].reshape(4, 26), int(turns[k]), validate=False)
            res, _ = runner.run(pos, plain.with_seed((seed * 100_000 + k) % 2**32))
            r = summarize(res, count_bg, False)
            means[k], ses[k], outputs[k] = r.plain_equity, r.plain_equity_se, r.plain_outputs
            if (k + 1) % 10 == 0:
                if part is not None and k + 1 < n:
                    rolled(k + 1).save(part, partial=True)
                if progress is not None:
                    print(f"\rrollouts: {k + 1}/{n} positions", end="", file=progress,
                          flush=True)
    if progress is not None:
        print(file=progress)
    return rolled(n)


def _resume(part: Path | None, family: str, boards: np.ndarray, turns: np.ndarray,
            trials: int, seed: int, player: str) -> Rollouts | None:
    """The positions done before, from the partial file ``part``, when it holds a run of
    the same positions and settings; None when there is none (or it is of another run)."""
    if part is None or not part.exists():
        return None
    try:
        r = Rollouts.load(part, partial=True)
    except OptionError:
        return None
    same = (r.family == family and r.trials == trials and r.seed == seed
            and r.player == player and np.array_equal(r.boards, boards)
            and np.array_equal(r.turns, turns) and len(r.means) <= len(boards))
    return r if same else None


def make_rollouts(ev: Evaluator, rules: Rules, positions: int, trials: int, seed: int,
                  player: str, progress=None, compute: Compute | int = 1,
                  partial: str | Path | None = None) -> Rollouts:
    """``positions`` race positions from self-play of ``ev`` (seed ``seed``), rolled out
    ``trials`` times each by ``ev`` (:func:`rollouts_of`, ``compute`` and ``partial`` as
    there)."""
    from tavli.bench.racegames import sample_starts

    game = rules.game
    boards = []
    turns = []
    k = 0
    while sum(len(b) for b in boards) < positions:
        got = sample_starts(game, positions + 50, seed * 1000 + k, pick_any=True,
                            evaluator=ev)
        boards.append(got.boards)
        turns.append(got.turns)
        k += 1
    b = np.concatenate(boards)[:positions]
    t = np.concatenate(turns)[:positions]
    return rollouts_of(ev, rules, b, t, trials, seed, player, progress, compute, partial)


def _stats(err: np.ndarray) -> tuple[float, float]:
    return float(err.mean()), float(err.std(ddof=1) / math.sqrt(len(err)))


def bench_race(game: str, positions: int = POSITIONS, trials: int = TRIALS, seed: int = 1,
               rollouts: str | Path | None = None, race: str | Path | None = None,
               net: str | Path | None = None, games: int = 0, out=None,
               progress=None, compute: Compute | int = 1) -> dict:
    """Measure (see the module docstring), print and return the figures. The rollouts
    run where ``compute`` says; with ``rollouts`` they are saved as they go in
    ``ROLLOUTS.part.npz`` (a run stopped resumes there, removed at the end)."""
    from tavli.ai.shipped import family_rules, load_race_net, shipped_net, shipped_race_net
    from tavli.bench.racegames import pair_stats, race_match

    out = out or sys.stdout
    rules = family_rules(game)
    family = rules.variant.family
    contact = Net.load(net) if net is not None else shipped_net(rules.game)
    if contact.family != rules.variant.kernel or contact.encoder == RACE:
        raise NetError(f"{net} is not a {family} contact network")
    racenet = load_race_net(race, game) if race is not None else shipped_race_net(rules.game)
    if racenet is None:
        raise NetError(f"no race network ships for {family}: name one with --race FILE")
    full = Evaluator(contact, race=racenet)
    plain = Evaluator(contact)
    t0 = time.time()
    path = Path(rollouts) if rollouts is not None else None
    if path is not None and path.exists():
        rolls = Rollouts.load(path)
        if rolls.family != family:
            raise OptionError(f"{path} holds {rolls.family} rollouts, not {family}")
    else:
        if positions < 2 or trials < 2:
            raise OptionError("the race benchmark needs at least 2 positions and 2 trials")
        player = f"{contact!r} + race {racenet!r}"
        part = None if path is None else path.with_name(path.name + ".part.npz")
        rolls = make_rollouts(full, rules, positions, trials, seed, player, progress, compute,
                              part)
        if path is not None:
            rolls.save(path)
            part.unlink(missing_ok=True)
    eq_race, used = _valued(full, rolls, rules)
    eq_plain, _ = _valued(plain, rolls, rules)
    if (used != E_RACE).any():
        n = int((used != E_RACE).sum())
        print(f"  ({n} positions valued by a bear-off database, not the race network)",
              file=out)
    e_race = np.abs(eq_race - rolls.means)
    e_plain = np.abs(eq_plain - rolls.means)
    noise = float(np.mean(rolls.ses ** 2))
    figures: dict = {"family": family, "positions": len(rolls.boards), "trials": rolls.trials,
                     "seed": rolls.seed, "rollout_se": float(rolls.ses.mean())}
    for name, e in (("race_net", e_race), ("contact_net", e_plain)):
        m, se = _stats(e)
        figures[name] = {"mae": m, "se": se,
                         "rmse": math.sqrt(max(0.0, float(np.mean(e ** 2)) - noise))}
    figures["difference"] = dict(zip(("mean", "se"), _stats(e_race - e_plain), strict=True))
    dt = time.time() - t0
    print(f"race benchmark: {family} ({rules.game_name} rules), {figures['positions']} race "
          f"positions from self-play (seed {rolls.seed}), rollouts of {rolls.trials} games "
          f"each by {rolls.player}, {dt:.1f} s", file=out)
    print(f"  rollouts' standard error: mean {figures['rollout_se']:.4f}", file=out)
    print(f"  {'':14s} {'mean abs error':>20s}  {'rms error, noise removed':>24s}", file=out)
    for label, key in (("race net", "race_net"), ("contact net", "contact_net")):
        f = figures[key]
        print(f"  {label:14s} {f['mae']:>11.4f} ± {f['se']:.4f}  {f['rmse']:>24.4f}", file=out)
    d = figures["difference"]
    print(f"  {'difference':14s} {d['mean']:>+11.4f} ± {d['se']:.4f}  (paired, race - contact)",
          file=out)
    if games > 0:
        from tavli.bench.racegames import RaceStarts

        starts = RaceStarts(family, rolls.boards, rolls.turns)
        res = np.concatenate([race_match(full, plain, starts, rules, seed * 7919 + 1000 * r)
                              for r in range(math.ceil(games / (2 * len(starts))))])[:games]
        ppg, se = pair_stats(res)
        figures["duplicate"] = {"games": len(res), "ppg": ppg, "se": se}
        print(f"  duplicate races from these positions, race net vs contact net: "
              f"{len(res)} games, {ppg:+.4f} ± {se:.4f} points a game (1 SE)", file=out)
    return figures
