"""``tavli bench cube``: the AI's match cube decisions against gnubg-nn's
``evaluate_cube_decision`` (a test extra: never a runtime dependency).

Positions: backgammon positions before a roll met in games of the shipped evaluator at
0-ply against itself (:func:`tavli.bench.ai.selfplay_positions`), a random one in
:data:`STRIDE` kept, each given a random match state (:func:`sample_cases`): a match of
3, 5, 7 or 9 points, the side to move 2 or more away, the opponent any number away (1-away
is a post-Crawford game: the Crawford game has no cube decision), the cube centred or
(when both are 2 or more away, two times in five) owned by the side to move at a value
below its away count, so that it may double.

For each, our decision (:func:`tavli.cube_decision` at ``ply``) beside gnubg's proper
action (:func:`gnubg_cube`). What gnubg-nn answers, found by reading its binding and by
experiment (gnubg-nn 1.1.0a11):

* it is Joseph Heled's analysis library of gnubg-nn, not the gnubg program's cube code:
  match play only (money play raises "Not implemented for money"); the position as gnubg's
  20-letter key of ``[opponent, mover]`` with ``s=b"O"`` (with ``s=b"X"`` the key's first
  row is the one on roll); ``set.score(mover_away, opponent_away, crawford)`` (it also puts
  the cube back to 1), then ``set.cube(value, b"O")`` when the mover owns it (a cube the
  opponent owns is refused: "side does not own cube");
* ``evaluate_cube_decision(key, n=PLY, s=b"O", i=1)`` returns ``(double, take, too_good,
  mwc_no_double, mwc_double_take, mwc_double_pass)``: match winning chances by its own
  match equity table (not Kazaross-XG2) after a 0-ply network evaluation (``n=0``) or its
  cubeful search ``n`` plies deep; ``p=PROBS`` replaces its evaluation by given cubeless
  probabilities (at ``n=0``);
* when the mover's away count is at most the cube it answers "no double, take" with the
  MWCs of the call before (never asked here).

**gnubg's proper action** is one of four classes, from its three flags exactly as its
``setDecision`` sets them: *Double, take*; *Double, pass*; *No double* (the opponent would
take); *Too good* (no double, the opponent would pass). Ours maps the same way from
:class:`~tavli.play.cube.cubeful.CubeDecision` (``double``, ``take``), so our "Too good to
double, take" is *No double* here. **gnubg's margin** is the equity a wrong answer costs
at the closer of the two choices in the action — min(|ND − min(DT, DP)|, |DT − DP|) —
with the MWCs turned into gnubg's normalised equity ``(2·mwc − C − D) / (C − D)`` (C, D:
gnubg's MWC after winning / losing the cube's value, so that Double, pass is +1).
Agreement is counted where that margin exceeds 0.05.

Second line: gnubg's cube model on *our* cubeless probabilities (``p=``, ``n=0``) — the
cube logic alone, the networks set aside.
"""

from __future__ import annotations

import math
import random
import sys
import time
from dataclasses import dataclass
from types import ModuleType

from tavli.bench import gnubg_ref
from tavli.engine.board import Position
from tavli.errors import RuleError
from tavli.play.cube.info import CubeInfo, Owner

GAME = "backgammon"
#: match lengths the cases are drawn from
LENGTHS = (3, 5, 7, 9)
#: one self-play position in STRIDE (on average) becomes a case
STRIDE = 6
#: the margin (gnubg's normalised equity) above which a decision counts as clear
MARGIN = 0.05
CLASSES = ("No double", "Double, take", "Double, pass", "Too good")


@dataclass(frozen=True)
class Case:
    """A position before the roll with its match state (from the mover's view)."""

    position: Position
    cube: CubeInfo

    @property
    def score_text(self) -> str:
        ci = self.cube
        own = ("centred" if ci.owner == Owner.CENTRED else
               f"{ci.cube} mine" if ci.owner == Owner.ME else f"{ci.cube} theirs")
        post = " post-Crawford" if ci.post_crawford else ""
        return f"{ci.length}pt {ci.away[0]}a/{ci.away[1]}a{post} cube {own}"

    def ids(self) -> str:
        """gnubg's ``PositionID:MatchID`` of the case."""
        from tavli.play.formats.matchid import MatchState, match_id

        ci, me = self.cube, self.position.turn
        score = [0, 0]
        score[me], score[1 - me] = ci.length - ci.away[0], ci.length - ci.away[1]
        owner = (None if ci.owner == Owner.CENTRED else me if ci.owner == Owner.ME
                 else 1 - me)
        st = MatchState(cube_value=ci.cube, cube_owner=owner, on_roll=me,
                        crawford=ci.crawford, turn=me, length=ci.length,
                        score=(score[0], score[1]))
        return f"{self.position.gnubg_id()}:{match_id(st)}"


@dataclass(frozen=True)
class Verdict:
    """One side's decision: the class, the three equities (normalised; Double, pass is
    +1) and the margin of the closer choice."""

    action: str
    nd: float
    dt: float
    dp: float

    @property
    def margin(self) -> float:
        return min(abs(self.nd - min(self.dt, self.dp)), abs(self.dt - self.dp))

    def text(self) -> str:
        return (f"{self.action} (ND {self.nd:+.3f} DT {self.dt:+.3f} DP {self.dp:+.3f})")


def action_class(double: bool, take: bool) -> str:
    """The class of a decision from the doubler's and the taker's choices."""
    if double:
        return "Double, take" if take else "Double, pass"
    return "No double" if take else "Too good"


def sample_cases(n: int, seed: int = 1) -> list[Case]:
    """``n`` cases (see the module): self-play positions with random match states."""
    from tavli.bench.ai import selfplay_positions

    rng = random.Random(seed)
    arrs, turns = selfplay_positions(n * STRIDE, seed)
    picks = sorted(rng.sample(range(len(arrs)), n))
    cases = []
    for i in picks:
        pos = Position(GAME, arrs[i], int(turns[i]), validate=False)
        length = rng.choice(LENGTHS)
        me = rng.randint(2, length)
        opp = rng.randint(1, length)
        value, owner = 1, Owner.CENTRED
        if opp > 1 and rng.random() < 0.4:
            values = [v for v in (2, 4, 8) if v < me]
            if values:
                value, owner = rng.choice(values), Owner.ME
        ci = CubeInfo(cube=value, owner=owner, length=length, away=(me, opp),
                      post_crawford=opp == 1)
        cases.append(Case(pos, ci))
    return cases


def gnubg_cube(g: ModuleType, case: Case, ply: int = 0,
               probs: tuple[float, ...] | None = None) -> Verdict:
    """gnubg-nn's decision in ``case`` (see the module) at ``ply`` (0-2), on its own
    evaluation or on the cubeless ``probs`` given (then at 0-ply)."""
    from tavli.bench.movegen import gnubg_board

    ci, pos = case.cube, case.position
    me, opp = ci.away
    if ci.is_money or ci.crawford or ci.owner == Owner.OPPONENT or me <= ci.cube:
        raise RuleError("gnubg-nn decides match cubes that the side on roll may turn")
    g.set.score(me, opp, 0)
    if ci.owner == Owner.ME:
        g.set.cube(ci.cube, b"O")
    key = g.key_of_board(gnubg_board(pos.array, pos.turn))
    kw = {}
    if probs is not None:
        kw["p"] = tuple(min(max(float(x), 0.0), 1.0) for x in probs[:5])
        ply = 0
    double, take, too_good, nd, dt, dp = g.evaluate_cube_decision(key, n=ply, v=ply, s=b"O",
                                                                  i=1, **kw)
    g.set.score(0, 0, 0)  # money play and the cube at 1 again for whatever comes next
    # (left at the match's score, gnubg's best_move chose by match equity afterwards)
    lose = 0.0 if opp <= ci.cube else (1 + g.equities.value(me, opp - ci.cube)) / 2
    win = dp  # its MWC when the opponent passes: it has won the cube's value
    span = win - lose if abs(win - lose) > 1e-9 else 1e-9

    def eq(m: float) -> float:
        return (2 * m - win - lose) / span

    return Verdict(action_class(bool(double), bool(take)), eq(nd), eq(dt), eq(dp))


def our_cube(case: Case, ply: int = 0):
    """Our decision in ``case``: the :class:`~tavli.play.cube.cubeful.CubeDecision` and its
    :class:`Verdict`."""
    from tavli.ai.context import EvalContext
    from tavli.ai.cubeplay import cube_decision

    d = cube_decision(case.position, case.cube, EvalContext(plies=ply))
    return d, Verdict(action_class(d.double, d.take), d.nd, d.dt, d.dp)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a share ``k`` of ``n``.

    >>> [round(x, 3) for x in wilson(90, 100)]
    [0.826, 0.945]
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, c - h), min(1.0, c + h)


@dataclass
class Row:
    case: Case
    ours: Verdict
    gnubg: Verdict
    model: Verdict  # gnubg's cube model on our probabilities


@dataclass
class CubeBench:
    rows: list[Row]
    margin: float

    @property
    def clear(self) -> list[Row]:
        return [r for r in self.rows if r.gnubg.margin > self.margin]

    def agreement(self, which: str = "gnubg", rows: list[Row] | None = None
                  ) -> tuple[int, int]:
        rows = self.clear if rows is None else rows
        same = sum(1 for r in rows if r.ours.action == getattr(r, which).action)
        return same, len(rows)


def need_gnubg() -> ModuleType:
    g = gnubg_ref.load()
    if g is None:
        raise RuleError("tavli bench cube needs the gnubg-nn package: pip install "
                        "'tavli[bench]' (or pip install gnubg-nn)")
    return g


def run_cube_bench(positions: int = 1000, ply: int = 0, gnubg_ply: int = 0, seed: int = 1,
                   margin: float = MARGIN, cases: list[Case] | None = None) -> CubeBench:
    """Our decisions and gnubg's on ``positions`` sampled cases (or the ``cases`` given)."""
    g = need_gnubg()
    if ply not in (0, 1, 2) or gnubg_ply not in (0, 1, 2):
        raise RuleError("the plies must be 0, 1 or 2")
    rows = []
    for case in cases if cases is not None else sample_cases(positions, seed):
        d, ours = our_cube(case, ply)
        rows.append(Row(case, ours, gnubg_cube(g, case, gnubg_ply),
                        gnubg_cube(g, case, 0, d.probs)))
    return CubeBench(rows, margin)


def _share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    pct = 100 * k / n if n else 0.0
    return f"{k} of {n} = {pct:.1f}% (95% interval {100 * lo:.1f}-{100 * hi:.1f}%)"


def bench_cube(positions: int = 1000, ply: int = 0, gnubg_ply: int = 0, seed: int = 1,
               out=None) -> CubeBench:
    """Run and print (see the module)."""
    out = out or sys.stdout
    g = need_gnubg()
    t0 = time.time()
    res = run_cube_bench(positions, ply, gnubg_ply, seed)
    dt = time.time() - t0
    clear = res.clear
    print(f"cube decisions: {len(res.rows)} backgammon positions from 0-ply self-play "
          f"(seed {seed}), {'/'.join(map(str, LENGTHS))}-point matches, {dt:.1f} s", file=out)
    print(f"  ours: tavli.cube_decision at {ply}-ply; gnubg: gnubg-nn {gnubg_ref.version(g)} "
          f"evaluate_cube_decision at {gnubg_ply}-ply (its network and its MET)", file=out)
    same, n = res.agreement("gnubg")
    print(f"  clear decisions (gnubg's margin > {res.margin:.2f}): {n} of {len(res.rows)}",
          file=out)
    verdict = "met" if n and wilson(same, n)[0] >= 0.9 else \
        "met (point estimate)" if n and same / n >= 0.9 else "NOT met"
    print(f"  same proper action: {_share(same, n)}; bar >= 90%: {verdict}", file=out)
    for cls in CLASSES:
        rows = [r for r in clear if r.gnubg.action == cls]
        if rows:
            k, m = res.agreement("gnubg", rows)
            print(f"    gnubg {cls:<13} {k:4d} of {m:4d} agree", file=out)
    k, m = res.agreement("gnubg", res.rows)
    print(f"  all positions: {_share(k, m)}", file=out)
    mclear = [r for r in res.rows if r.model.margin > res.margin]
    k, m = res.agreement("model", mclear)
    print(f"  gnubg's cube model on our probabilities (margin > {res.margin:.2f}): "
          f"{_share(k, m)}", file=out)
    bad = sorted((r for r in clear if r.ours.action != r.gnubg.action),
                 key=lambda r: -r.gnubg.margin)
    if bad:
        print(f"  disagreements ({len(bad)}), gnubg's margin largest first:", file=out)
    for r in bad:
        print(f"    {r.case.ids()}  {r.case.score_text}  margin {r.gnubg.margin:.3f}",
              file=out)
        print(f"      ours:  {r.ours.text()}", file=out)
        print(f"      gnubg: {r.gnubg.text()}", file=out)
    return res
