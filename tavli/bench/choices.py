"""Where the network loses equity: both players' choices on the same positions, and what
each loses against the judge's best.

``tavli bench choices`` plays games between our neural player and gnubg-nn (test extra)
at the same depth, random dice, each side moving by its own choice. At every turn with
more than one legal move, *both* players choose a move for the position and roll, and
gnubg at ``judge_ply`` (its ``probabilities`` of the positions after the moves, the
opponent to roll) judges them:

* **loss per decision**: what each choice loses against the best move the judge knows
  (gnubg's own best move at ``judge_ply``, or either player's choice where the judge
  values that one higher): ours beside gnubg's, on the same positions, so that gnubg's
  own loss is the yardstick (a precise one: head-to-head games are noisy);
* a second opinion on the two choices where they differ: our evaluator at
  ``judge_ply`` (the search's valuation of the positions after them), ``our choice -
  gnubg's``, so that gnubg is not the only judge.

A position where the move ends the game is valued exactly. Each decision is counted once,
whoever actually played it, in the position's class by gnubg's own classification
(contact, crashed, race, bear-off: ``classify``, before the move) and its game phase (by
the turn's number in the game: opening up to turn 10, middle game 11-30, late 31 on).
Figures are means over a group's decisions (mover's view, money equity, cubeless) with
their standard errors; ``ours - gnubg`` is the paired difference of the losses.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass, field

import numpy as np

from tavli.ai.analyzer import Analyzer
from tavli.ai.context import EvalContext
from tavli.bench.gnubg_ref import NOTE, load, version
from tavli.bench.movegen import gnubg_board
from tavli.bench.strength import GnubgPlayer
from tavli.engine.games.kernel import verdict
from tavli.engine.rules import Rules
from tavli.errors import OptionError
from tavli.play.game import Game
from tavli.play.players import Player, play_game

PHASES = ((10, "opening (turns 1-10)"), (30, "middle (11-30)"), (10**9, "late (31+)"))
CLASSES = ("contact", "crashed", "race", "bear-off")
#: gnubg-nn's ``classify`` codes (``c_contact`` …) to the classes' names
GNUBG_CLASSES = {5: "contact", 4: "crashed", 3: "race", 2: "bear-off", 1: "bear-off"}


@dataclass
class Tally:
    """Decisions of one group: whether the choices differed, each choice's loss against the
    judge's best, and our judge's difference of the two choices (ours minus gnubg's)."""

    decisions: int = 0
    differ: int = 0
    our_loss: list[float] = field(default_factory=list)
    gnubg_loss: list[float] = field(default_factory=list)
    by_ours: list[float] = field(default_factory=list)

    def add(self, same: bool, our_loss: float, gnubg_loss: float, d_ours: float) -> None:
        self.decisions += 1
        if not same:
            self.differ += 1
        self.our_loss.append(our_loss)
        self.gnubg_loss.append(gnubg_loss)
        self.by_ours.append(d_ours)

    @property
    def paired(self) -> list[float]:
        return [a - b for a, b in zip(self.our_loss, self.gnubg_loss, strict=True)]

    @staticmethod
    def mean_se(values: list[float]) -> tuple[float, float]:
        a = np.asarray(values, dtype=float)
        if len(a) == 0:
            return math.nan, math.nan
        se = float(a.std(ddof=1) / math.sqrt(len(a))) if len(a) > 1 else math.nan
        return float(a.mean()), se


def _phase(turn: int) -> str:
    return next(name for last, name in PHASES if turn <= last)


def _equity(p) -> float:
    """Money equity of the five outputs (win, win gammon, win backgammon, lose gammon,
    lose backgammon)."""
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]


class _Judges:
    """gnubg at ``ply`` judges the positions after moves; our evaluator gives a second
    opinion."""

    def __init__(self, g, analyzer, ply: int, rules: Rules) -> None:
        self.g, self.analyzer, self.ply, self.rules = g, analyzer, ply, rules
        self.player = GnubgPlayer(ply)

    def gnubg(self, after, mover: int) -> float:
        """gnubg's equity for ``mover`` of the position ``after`` his move."""
        if after.is_finished():  # exact: the mover has won these points
            return float(verdict(after.flat(), self.rules.kernel_flags())[1])
        return -_equity(self.g.probabilities(gnubg_board(after.array, 1 - mover), self.ply))

    def best(self, position, dice, moves, rules):
        """The judge's own best move at its ply."""
        return self.player.choose_move(position, dice, moves, rules)

    def ours(self, position, moves) -> list[float]:
        """Our evaluator's equities of the positions after ``moves`` (at the judge's ply)."""
        arr = np.stack([m.after.array for m in moves])
        return [_equity(o) for o in self.analyzer.searcher.outputs(arr, position.turn,
                                                                   self.ply)]

    def losses(self, position, dice, moves, rules, mine, theirs) -> tuple[float, float]:
        """What ``mine`` and ``theirs`` lose against the best the judge knows."""
        values = {}
        for m in (mine, theirs, self.best(position, dice, moves, rules)):
            key = m.after.id()
            if key not in values:
                values[key] = self.gnubg(m.after, position.turn)
        top = max(values.values())
        return top - values[mine.after.id()], top - values[theirs.after.id()]


class _Recorder(Player):
    """Both players at once (a :class:`~tavli.play.players.Player` for either side): at each
    turn it asks our analyzer and gnubg for their choices, tallies what each loses, and
    plays the choice of the side to move's player."""

    name = "choices"

    def __init__(self, analyzer, gnubg, ply: int, judges: _Judges) -> None:
        self.analyzer, self.gnubg, self.ply, self.judges = analyzer, gnubg, ply, judges
        self.classes = {c: Tally() for c in CLASSES}
        self.phases = {name: Tally() for _, name in PHASES}
        self.total = Tally()
        self.ours_side, self.turn_no = 0, 0

    def new_game(self, ours_side: int) -> None:
        self.ours_side, self.turn_no = ours_side, 0

    def cube_action(self, game) -> str:
        return "take" if game.phase == "double" else "roll"

    def choose_move(self, position, dice, moves, rules):
        self.turn_no += 1
        if not moves:
            return None
        if len({m.after.id() for m in moves}) < 2:
            return moves[0]
        mine = self.analyzer.rank(position, list(moves), EvalContext(plies=self.ply))[0].move
        theirs = self.gnubg.choose_move(position, dice, moves, rules)
        same = mine.after.id() == theirs.after.id()
        ours_loss, gnubg_loss = self.judges.losses(position, dice, moves, rules, mine,
                                                   theirs)
        do = 0.0
        if not same:
            vo_m, vo_t = self.judges.ours(position, [mine, theirs])
            do = vo_m - vo_t
        cls = GNUBG_CLASSES[self.gnubg.g.classify(gnubg_board(position.array,
                                                              position.turn))]
        for t in (self.classes[cls], self.phases[_phase(self.turn_no)], self.total):
            t.add(same, ours_loss, gnubg_loss, do)
        return mine if position.turn == self.ours_side else theirs


def bench_choices(game: str = "backgammon", games: int = 100, ply: int = 0,
                  gnubg_ply: int | None = None, judge_ply: int = 2, seed: int = 1,
                  out=None, progress=None, net=None) -> dict:
    """Play ``games`` games of our player at ``ply`` (the network ``net``, a
    :class:`~tavli.ai.net.Net` or an evaluator; default the shipped one) against gnubg at
    ``gnubg_ply`` (by default the same), judge both choices at every turn, print the
    breakdown and return it (``{"classes": {...}, "phases": {...}, "all": {...}}``: each
    group's decisions, differing choices, both losses, their paired difference and our
    judge's difference, means with their SE)."""
    out = out or sys.stdout
    g = load()
    if g is None:
        raise OptionError(f"bench choices needs gnubg-nn: {NOTE}")
    rules = Rules.for_game(game)
    if rules.variant.family != "portes":
        raise OptionError("bench choices compares with gnubg: backgammon or Portes only")
    if games < 1:
        raise OptionError("bench choices needs at least one game")
    for name, p in (("ply", ply), ("gnubg ply", gnubg_ply), ("judge ply", judge_ply)):
        if p is not None and p not in (0, 1, 2):
            raise OptionError(f"the {name} must be 0, 1 or 2")
    if rules.cube:
        rules = rules.with_options({"cube": False})
    gply = ply if gnubg_ply is None else gnubg_ply
    g.set.score(0, 0, 0)  # money play: gnubg's score is global (another bench may set it)
    ours = Analyzer(rules, net)
    rec = _Recorder(ours, GnubgPlayer(ply=gply), ply, _Judges(g, ours, judge_ply, rules))
    rng = random.Random(seed)
    for k in range(games):
        rec.new_game(ours_side=k % 2)
        play_game(Game(rules, seed=rng.randrange(2**31)), (rec, rec))
        if progress is not None:
            print(f"\r{k + 1}/{games} games, {rec.total.decisions} decisions", end="",
                  file=progress, flush=True)
    classes, phases, total = rec.classes, rec.phases, rec.total
    if progress is not None:
        print(file=progress)
    head = (f"choices: ours {ply}-ply vs gnubg {gply}-ply (gnubg-nn {version(g)}), {game}, "
            f"{games} games (seed {seed}); judged by gnubg at {judge_ply}-ply")
    print(head, file=out)
    print("  per decision, ± 1 SE: each choice's loss against the best move the judge "
          "knows; ours - gnubg (paired; positive = we lose more); where the choices "
          "differ, our evaluator's second opinion: our choice - gnubg's", file=out)
    print(f"  {'group':22s} {'decisions':>9s} {'differ':>7s} {'our loss':>17s} "
          f"{'gnubg loss':>17s} {'ours - gnubg':>18s} {'our judge':>18s}", file=out)
    doc: dict = {"ply": ply, "gnubg_ply": gply, "judge_ply": judge_ply, "games": games,
                 "seed": seed}

    def row(name: str, t: Tally) -> dict:
        figures = {"our_loss": Tally.mean_se(t.our_loss),
                   "gnubg_loss": Tally.mean_se(t.gnubg_loss),
                   "paired": Tally.mean_se(t.paired), "our_judge": Tally.mean_se(t.by_ours)}
        cells = " ".join(f"{m:+9.4f} ± {e:.4f}" for m, e in figures.values())
        print(f"  {name:22s} {t.decisions:9d} {t.differ:7d} {cells}", file=out)
        return {"decisions": t.decisions, "differ": t.differ,
                **{k: list(v) for k, v in figures.items()}}

    doc["classes"] = {c: row(c, t) for c, t in classes.items()}
    doc["phases"] = {n: row(n, t) for n, t in phases.items()}
    doc["all"] = row("all", total)
    return doc
