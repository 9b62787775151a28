"""Where the network loses equity to gnubg: both players' choices on the same positions.

``tavli bench choices`` plays games between our neural player and gnubg-nn (test extra)
at the same depth, random dice, each side moving by its own choice. At every turn with
more than one legal move, *both* players choose a move for the position and roll; where
the choices differ, a judge values the two positions after them (the opponent to roll)
and the difference is the equity one choice loses to the other. Two judges are used, so
that neither player is only judged by itself: gnubg at ``judge_ply`` (its
``probabilities``), and our evaluator at ``judge_ply`` (the search's valuation of the
positions after the moves). A position where the move ends the game is valued exactly.

Each decision is counted once, whoever actually played it, in the position's class
(contact / race / bear-off, :func:`~tavli.ai.evaluator.position_class`, before the move)
and its game phase (by the turn's number in the game: opening up to turn 10, middle game
11-30, late 31 on). The figure per group is the mean over its decisions of
``judge(our choice) - judge(gnubg's choice)`` (mover's view, money equity, cubeless):
negative where we choose worse, with its standard error over the decisions.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass, field

import numpy as np

from tavli.ai.context import EvalContext
from tavli.bench.gnubg_ref import NOTE, load, version
from tavli.engine.rules import Rules
from tavli.errors import OptionError
from tavli.play.players import Player

PHASES = ((10, "opening (turns 1-10)"), (30, "middle (11-30)"), (10**9, "late (31+)"))


@dataclass
class Tally:
    """Decisions of one group and their equity differences (ours minus gnubg's choice)."""

    decisions: int = 0
    differ: int = 0
    by_gnubg: list[float] = field(default_factory=list)
    by_ours: list[float] = field(default_factory=list)

    def add(self, same: bool, d_gnubg: float, d_ours: float) -> None:
        self.decisions += 1
        if not same:
            self.differ += 1
        self.by_gnubg.append(d_gnubg)
        self.by_ours.append(d_ours)

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
    """Values the positions after two moves by gnubg and by our evaluator."""

    def __init__(self, g, analyzer, ply: int) -> None:
        self.g, self.analyzer, self.ply = g, analyzer, ply

    def values(self, position, moves) -> tuple[list[float], list[float]]:
        from tavli.bench.movegen import gnubg_board

        mover = position.turn
        arr = np.stack([m.after.array for m in moves])
        ours = [_equity(o) for o in self.analyzer.searcher.outputs(arr, mover, self.ply)]
        theirs = []
        for m, mine in zip(moves, ours, strict=True):
            if m.after.is_finished():
                theirs.append(mine)  # exact: the game is over
                continue
            p = self.g.probabilities(gnubg_board(m.after.array, 1 - mover), self.ply)
            theirs.append(-_equity(p))
        return theirs, ours


class _Recorder(Player):
    """Both players at once (a :class:`~tavli.play.players.Player` for either side): at each
    turn it asks our analyzer and gnubg for their choices, tallies the difference, and
    plays the choice of the side to move's player."""

    name = "choices"

    def __init__(self, analyzer, gnubg, ply: int, judges: _Judges) -> None:
        from tavli.ai.evaluator import CLASSES

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
        if same:
            dg = do = 0.0
        else:
            (vg_m, vg_t), (vo_m, vo_t) = self.judges.values(position, [mine, theirs])
            dg, do = vg_m - vg_t, vo_m - vo_t
        cls, _valuer = self.analyzer.position_valuer(position)
        for t in (self.classes[cls], self.phases[_phase(self.turn_no)], self.total):
            t.add(same, dg, do)
        return mine if position.turn == self.ours_side else theirs


def bench_choices(game: str = "backgammon", games: int = 100, ply: int = 0,
                  gnubg_ply: int | None = None, judge_ply: int = 2, seed: int = 1,
                  out=None, progress=None) -> dict:
    """Play ``games`` games of our player at ``ply`` against gnubg at ``gnubg_ply`` (by
    default the same), compare both choices at every turn, print the breakdown and return
    it (``{"classes": {...}, "phases": {...}, "all": {...}}``, each group's decisions,
    differing choices and mean differences with their SE under both judges)."""
    from tavli.ai.analyzer import Analyzer
    from tavli.bench.strength import GnubgPlayer
    from tavli.play.game import Game
    from tavli.play.players import play_game

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
    rec = _Recorder(Analyzer(rules), GnubgPlayer(ply=gply), ply,
                    _Judges(g, Analyzer(rules), judge_ply))
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
            f"{games} games (seed {seed}); judges at {judge_ply}-ply")
    print(head, file=out)
    print("  per decision: judge(our choice) - judge(gnubg's), mover's view, ± 1 SE; "
          "negative = we choose worse", file=out)
    print(f"  {'group':22s} {'decisions':>9s} {'differ':>7s} {'gnubg judge':>18s} "
          f"{'our judge':>18s}", file=out)
    doc: dict = {"ply": ply, "gnubg_ply": gply, "judge_ply": judge_ply, "games": games,
                 "seed": seed}

    def row(name: str, t: Tally) -> dict:
        mg, sg = Tally.mean_se(t.by_gnubg)
        mo, so = Tally.mean_se(t.by_ours)
        print(f"  {name:22s} {t.decisions:9d} {t.differ:7d} {mg:+9.4f} ± {sg:.4f} "
              f"{mo:+9.4f} ± {so:.4f}", file=out)
        return {"decisions": t.decisions, "differ": t.differ, "gnubg_judge": [mg, sg],
                "our_judge": [mo, so]}

    doc["classes"] = {c: row(c, t) for c, t in classes.items()}
    doc["phases"] = {n: row(n, t) for n, t in phases.items()}
    doc["all"] = row("all", total)
    return doc
