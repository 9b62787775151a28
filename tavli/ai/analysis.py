"""Analysis of a played game or match: the equity lost by each move against the best move,
every cube decision (backgammon), and the luck of each roll, with totals per player
(docs/ai.md, Analysis).

* Error of a move: best equity minus the chosen move's equity, both valued at the
  analysis ply (the chosen move is always valued at that ply, whatever the filter keeps).
  Marks: doubtful >= 0.04, bad >= 0.08, very bad >= 0.16 (gnubg's thresholds).
* In a match the moves are valued by the normalised match equity at the score and cube
  of the turn (:func:`tavli.play.cube.scoring.turn_weights`): judged by match winning chances.
* Cube decisions (:mod:`tavli.ai.cubeanalysis`): missed double, wrong double, wrong take,
  wrong pass, with the equity lost (normalised; in a match also in MWC), marked alike.
* Luck of a roll (:mod:`tavli.ai.luck`): the 0-ply value of the best move with this roll
  minus the average of that over all rolls — cubeful where the game has a cube.
* Totals per player: the error rates in millipoints (checker play per unforced move, cube
  per counted decision, overall per decision) and gnubg's rating label of the overall
  rate; the luck (normalised, per roll, gnubg's luck rating) and in the result's units
  (points, or MWC in a backgammon match); the actual result and the luck-adjusted one.
* Per turn also the class of the position before the roll (contact, race, bear-off) and
  the valuer that answers for it (contact net, race net, a bear-off database).

The result is deterministic: the same record and ply give the same analysis.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tavli.ai.analyzer import Analyzer
from tavli.ai.context import MAX_PLIES, EvalContext
from tavli.ai.cubeanalysis import ERRORS, CubeAnalysis, CubeMoment, TurnCube, judge, walk
from tavli.ai.luck import RollValues, luck_mark, luck_rating, opening_luck
from tavli.ai.marks import MARKS, mark
from tavli.engine.layout import SIDE_NAMES
from tavli.play.cube.scoring import turn_weights
from tavli.play.game import Game
from tavli.play.match import Match

RATINGS = ((2.0, "Supernatural"), (5.0, "World class"), (8.0, "Expert"),
           (12.0, "Advanced"), (18.0, "Intermediate"), (26.0, "Casual player"),
           (35.0, "Beginner"), (float("inf"), "Awful!"))
#: the deepest ply an analysis searches
MAX_PLY = MAX_PLIES
#: how many of its best moves an analysis keeps for rollouts (TurnAnalysis.top)
TOP = 3


def rating(error_rate: float) -> str:
    """gnubg's label for an error rate in millipoints per decision."""
    for limit, name in RATINGS:
        if error_rate < limit:
            return name
    return RATINGS[-1][1]


def review_ply(levels: dict[str, Any], base: int = -1) -> int:
    """The ply that judges the AI one ply deeper than it played: ``levels`` maps who
    played as the AI (e.g. ``"black's AI"``) to its level (a name or a ply); the deepest
    AI's ply plus one, at most :data:`MAX_PLY`, and at least ``base``. Without an AI:
    ``base``.

    >>> review_ply({"black's AI": "expert"}), review_ply({"the AI": "advanced"}, base=1)
    (2, 1)
    >>> review_ply({"white's AI": "worldclass"}), review_ply({}, base=1)
    (2, 1)
    """
    from tavli.ai.levels import parse_level

    if not levels:
        return base
    ai = max(parse_level(level).plies for level in levels.values())
    return max(base, min(ai + 1, MAX_PLY))


def ply_note(ply: int, levels: dict[str, Any]) -> str:
    """Why an analysis at ``ply`` judges the AI (``levels`` as :func:`review_ply`) fairly,
    or that it does not; empty without an AI.

    >>> ply_note(2, {"black's AI": "expert"})
    "one ply deeper than black's AI (expert, 1-ply)"
    >>> ply_note(2, {"white's AI": "worldclass"})
    "as deep as white's AI (worldclass, 2-ply): the deepest analysis"
    >>> ply_note(0, {"the AI": "expert"})
    'shallower than the AI (expert, 1-ply): it is judged by less than it saw'
    """
    from tavli.ai.levels import parse_level

    if not levels:
        return ""
    plies = {who: parse_level(level).plies for who, level in levels.items()}
    who = max(plies, key=lambda k: (plies[k], k))
    ai = plies[who]
    name = f"{who} ({levels[who]}, {ai}-ply)"
    if ply > ai:
        return (("one ply" if ply == ai + 1 else f"{ply - ai} plies") + f" deeper than {name}")
    if ply == ai:
        tail = ": the deepest analysis" if ply >= MAX_PLY else ": it is judged by itself"
        return f"as deep as {name}{tail}"
    return f"shallower than {name}: it is judged by less than it saw"


def ply_note_msg(ply: int, levels: dict[str, Any]) -> dict[str, Any] | None:
    """:func:`ply_note` as a catalogue message (:func:`tavli.i18n.msg`), or None.

    >>> ply_note_msg(2, {"black's AI": "expert"})["key"]
    'rv.note.deeper'
    """
    from tavli.ai.levels import parse_level
    from tavli.i18n import msg

    if not levels:
        return None
    plies = {who: parse_level(level).plies for who, level in levels.items()}
    who = max(plies, key=lambda k: (plies[k], k))
    ai = plies[who]
    level = str(levels[who])
    name = msg("rv.note.ai", who=msg("rv.who." + ("white" if who.startswith("white") else
                                                  "black" if who.startswith("black") else "ai")),
               level=msg(f"level.{level}") if level.isalpha() else level, ply=ai)
    if ply > ai:
        return (msg("rv.note.deeper", name=name) if ply == ai + 1 else
                msg("rv.note.deeper_n", name=name, n=ply - ai))
    if ply == ai:
        return msg("rv.note.same_deepest" if ply >= MAX_PLY else "rv.note.same", name=name)
    return msg("rv.note.shallower", name=name)


@dataclass
class TurnAnalysis:
    game: int
    number: int
    side: int
    dice: tuple[int, int]
    played: str
    best: str
    equity_played: float
    equity_best: float
    loss: float
    luck: float
    legal: int
    position: str
    win_before: float  # P(win) of white before the roll (0-ply), for a curve
    position_class: str = ""  # contact, race or bear-off (before the roll)
    evaluator: str = ""  # the valuer answering for it (tavli.ai.evaluator.VALUERS)
    luck_value: float = 0.0  # the luck in the result's units (points, or MWC in a match)
    unit: str = "points"
    slot: int = 0  # turns of all games (in order) played before it
    cube_state: dict[str, Any] | None = None  # the cube at the roll (backgammon)
    #: the position IDs after the analysis' best moves (at most :data:`TOP`; not in the
    #: JSON): what ``tavli analyse --rollout`` rolls out
    top: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        d = {"kind": "move", "game": self.game, "turn": self.number,
             "side": SIDE_NAMES[self.side],
             "dice": list(self.dice), "played": self.played, "best": self.best,
             "equity_played": round(self.equity_played, 4),
             "equity_best": round(self.equity_best, 4), "loss": round(self.loss, 4),
             "mark": mark(self.loss), "luck": round(self.luck, 4),
             "luck_value": round(self.luck_value, 4), "luck_mark": luck_mark(self.luck),
             "legal_moves": self.legal, "position": self.position,
             "white_win": round(self.win_before, 4), "class": self.position_class,
             "evaluator": self.evaluator}
        if self.cube_state is not None:
            d["cube_state"] = self.cube_state
        return d


Entry = TurnAnalysis | CubeAnalysis


@dataclass
class PlayerTotals:
    unforced: int = 0
    total_loss: float = 0.0
    luck: float = 0.0
    rolls: int = 0
    luck_value: float = 0.0
    marks: dict[str, int] = field(default_factory=lambda: {m: 0 for _, m in MARKS})
    cube_decisions: int = 0
    cube_loss: float = 0.0
    cube_loss_mwc: float = 0.0
    cube_errors: dict[str, int] = field(default_factory=lambda: {e: 0 for e in ERRORS})
    cube_marks: dict[str, int] = field(default_factory=lambda: {m: 0 for _, m in MARKS})

    @property
    def error_rate(self) -> float:
        """Overall: checker play and cube, millipoints per decision."""
        n = self.unforced + self.cube_decisions
        return 1000.0 * (self.total_loss + self.cube_loss) / n if n else 0.0

    def to_dict(self) -> dict[str, Any]:
        def rate(loss: float, n: int) -> float:
            return round(1000.0 * loss / n, 2) if n else 0.0

        per_roll = self.luck / self.rolls if self.rolls else 0.0
        return {"unforced_moves": self.unforced, "equity_lost": round(self.total_loss, 4),
                "checker_error_rate": rate(self.total_loss, self.unforced),
                "cube_decisions": self.cube_decisions,
                "cube_equity_lost": round(self.cube_loss, 4),
                "cube_error_rate": rate(self.cube_loss, self.cube_decisions),
                "cube_errors": dict(self.cube_errors), "cube_mistakes": dict(self.cube_marks),
                "error_rate": round(self.error_rate, 2), "rating": rating(self.error_rate),
                "luck": round(self.luck, 4), "rolls": self.rolls,
                "luck_rate": round(1000.0 * per_roll, 1), "luck_rating": luck_rating(per_roll),
                "luck_value": round(self.luck_value, 4), "mistakes": dict(self.marks)}


def games_of(obj: Game | Match) -> list[Game]:
    """The games of a game or match record."""
    return obj.games if isinstance(obj, Match) else [obj]


def _scores(obj: Game | Match) -> list[tuple[int, int] | None]:
    """The match score before each game (None: money play or a single game)."""
    if not isinstance(obj, Match):
        return [None]
    out: list[tuple[int, int] | None] = []
    s = [0, 0]
    for g in obj.games:
        out.append((s[0], s[1]))
        if g.outcome is not None and g.outcome.winner is not None:
            s[g.outcome.winner] += g.outcome.points
    return out


def turn_count(obj: Game | Match) -> int:
    """How many turns :func:`analyse_turns` goes through (every turn of every game)."""
    return sum(len(g.turns) for g in games_of(obj))


def result_of(obj: Game | Match) -> dict[str, Any]:
    """The actual result per side and its unit: points won (lost: negative), or in a
    backgammon match the MWC won (gnubg's way: per game, the match equity after its
    points minus before; a finished match from the start sums to its result minus the
    starting equity). Games not finished count nothing.

    >>> g = Game("backgammon", seed=1)
    >>> result_of(g)
    {'unit': 'points', 'white': 0.0, 'black': 0.0}
    """
    from tavli.ai.cubeanalysis import match_cube

    games = games_of(obj)
    target = obj.target if isinstance(obj, Match) else None
    unit = "points"
    res = [0.0, 0.0]
    for g, score in zip(games, _scores(obj), strict=True):
        out = g.outcome
        mwc_ci = match_cube(g, 0, 1, None, score, target) if score is not None else None
        if mwc_ci is not None:
            unit = "mwc"
        if out is None or out.winner is None:
            continue
        w = out.winner
        if mwc_ci is None:
            res[w] += out.points
            res[1 - w] -= out.points
            continue
        met, post = mwc_ci.table, mwc_ci.post_crawford
        a_w, a_l = target - score[w], target - score[1 - w]
        before = met.mwc(a_w, a_l, post)
        after = met.mwc(a_w - out.points, a_l, post or g.crawford)
        res[w] += after - before
        res[1 - w] -= after - before
    return {"unit": unit, "white": round(res[0], 4), "black": round(res[1], 4)}


class _Context:
    """What the analysis of one game needs besides its turns: the cube of each turn, its
    cube decisions, the analyzers (one per rule set) and decisions already valued."""

    def __init__(self) -> None:
        self.analyzers: dict[Any, Analyzer] = {}
        self.walks: dict[int, tuple[list[TurnCube], list[CubeMoment]]] = {}
        self.decisions: dict[tuple, Any] = {}

    def analyzer(self, rules) -> Analyzer:
        if rules not in self.analyzers:
            self.analyzers[rules] = Analyzer(rules)
        return self.analyzers[rules]


def analyse_turns(obj: Game | Match, ply: int = 1, start: int = 0,
                  stop: int | None = None) -> list[Entry]:
    """The analysis of turns ``start`` to ``stop`` (counted over the games in order) of a
    replayed game or match, so that a long review can be done in parts: each turn
    (:class:`TurnAnalysis`), preceded by the cube decisions taken before its roll
    (:class:`~tavli.ai.cubeanalysis.CubeAnalysis`); the part that ends with the last turn
    also has the cube decisions after it (a double passed ends a game)."""
    out: list[Entry] = []
    ctx = _Context()
    how = EvalContext(plies=ply)  # how every decision of the record is valued
    games = games_of(obj)
    total = turn_count(obj)
    end = total if stop is None else min(stop, total)
    target = obj.target if isinstance(obj, Match) else None
    k = 0
    for gi, (game, score) in enumerate(zip(games, _scores(obj), strict=True), 1):
        n = len(game.turns)
        if k > end:
            break
        if k + n < start:
            k += n
            continue
        cubes, moments = walk(game, score, target)
        an = ctx.analyzer(game.rules)
        weights = turn_weights(obj, gi - 1) if isinstance(obj, Match) else None
        for m in moments:
            slot = k + m.slot
            if start <= slot < end or slot == end == total:
                c = _analyse_cube(ctx, an, gi, m, slot, how)
                if c.counted:  # a clear "no double" is neither listed nor counted
                    out.append(c)
        for number, (pos, dice, chosen) in enumerate(game.turns, 1):
            k += 1
            if start < k <= end:
                score = weights[number - 1] if weights else None
                t = _analyse_turn(an, gi, number, pos, dice, chosen, how.at_score(score),
                                  cubes[number - 1])
                t.slot = k - 1
                out.append(t)
    out.sort(key=lambda e: (e.slot, e.game, isinstance(e, TurnAnalysis)))
    return out


def _analyse_cube(ctx: _Context, an: Analyzer, gi: int, m: CubeMoment, slot: int,
                  how: EvalContext) -> CubeAnalysis:
    from tavli.ai.cubeplay import decide_from

    ply = how.plies
    key = (gi, m.position.id(), m.cube, ply)
    d = ctx.decisions.get(key)
    if d is None:
        # cubeless outputs (money); the cube model adds the score
        probs = an.position_outputs(m.position, how)
        d = ctx.decisions[key] = decide_from(probs, m.position, m.cube, ply)
    verdict, loss, loss_mwc, counted = judge(d, m.kind, m.action)
    return CubeAnalysis(gi, m.slot + 1, m.side, m.kind, m.action, d.action, verdict, loss,
                        counted, d.nd, d.dt, d.dp, m.cube.cube,
                        m.cube.owner.name.lower().replace("opponent", "opp"),
                        m.position.id(), ply, d.mwc, loss_mwc, slot,
                        cube_state(m.cube, m.position.turn))


def _luck(an: Analyzer, pos, dice, cube: TurnCube) -> tuple[float, float]:
    """The luck of ``dice`` for the side to move in ``pos``: normalised and raw."""
    mine = RollValues.of(an, pos, cube.cube)
    if cube.opening and dice[0] != dice[1]:
        theirs = RollValues.of(an, pos.swap_turn(),
                               cube.cube.flip() if cube.cube is not None else None)
        return opening_luck(mine, theirs, dice)
    return mine.luck(dice)


def _analyse_turn(an: Analyzer, gi: int, number: int, pos, dice, chosen,
                  how: EvalContext, cube: TurnCube) -> TurnAnalysis:
    """One turn, valued as ``how`` says; at a match score (``how.score``:
    :class:`~tavli.play.cube.scoring.ScoreWeights` of the mover) the moves are valued by the
    normalised match equity (match winning chances)."""
    rules = an.rules
    score = how.score
    side = pos.turn
    o0 = an.position_outputs(pos)
    cls, valuer = an.position_valuer(pos)
    white_win = float(o0[0] if side == 0 else 1 - o0[0])
    luck, luck_value = _luck(an, pos, dice, cube)
    moves = pos.legal_moves(dice, rules)
    gv = None if how.is_money else score.kernel_weights(side)
    ranked0 = an.rank(pos, moves, how.at_plies(0)) if moves else []
    if len(moves) >= 2:
        ranked = an.rank(pos, moves, how)
        best = ranked[0]
        mine = next(r for r in ranked if r.move.after == chosen.after)
        if mine.ply != best.ply:
            o = an.searcher.outputs(chosen.after.array[None], side, best.ply, gv)[0]
            eq_played = float(an.equity(o, score))
        else:
            eq_played = mine.equity
        loss = max(0.0, best.equity - eq_played)
        best_text, eq_best = str(best.move), best.equity
        top = tuple(r.move.after.id() for r in ranked[:TOP])
    else:
        eq_best = eq_played = float(ranked0[0].equity) if moves else -float(
            an.equity(an.position_outputs(pos.swap_turn()), score and score.flip()))
        loss = 0.0
        top = ()
        best_text = str(chosen) if chosen is not None else ""
    ci = cube.cube
    unit = "mwc" if ci is not None and not ci.is_money else "points"
    return TurnAnalysis(gi, number, side, tuple(dice), str(chosen) if chosen is not None
                        else "", best_text, eq_played, eq_best, loss, luck, len(moves),
                        pos.id(), white_win, cls, valuer, luck_value, unit,
                        cube_state=None if ci is None else cube_state(ci, side), top=top)


def cube_state(ci, side: int) -> dict[str, Any]:
    """The cube as the page draws it: its value and its owner's name (None: centred),
    from :class:`~tavli.play.cube.info.CubeInfo` ``ci`` seen by ``side``."""
    from tavli.play.cube.info import Owner

    owner = None if ci.owner == Owner.CENTRED else side if ci.owner == Owner.ME else 1 - side
    return {"value": ci.cube, "owner": None if owner is None else SIDE_NAMES[owner],
            "used": True}


def summarise(entries: list[Entry], ply: int, result: dict[str, Any] | None = None,
              note: str = "") -> dict[str, Any]:
    """The result of :func:`analyse` from its entries: each turn, each cube decision, and
    totals per player; with the actual ``result`` (:func:`result_of`) also the
    luck-adjusted result, and ``note`` says why the analysis is at this ply."""
    totals = [PlayerTotals(), PlayerTotals()]
    turns, cube = [], []
    unit = result["unit"] if result else "points"
    for e in entries:
        tot = totals[e.side]
        if isinstance(e, CubeAnalysis):
            cube.append(e.to_dict())
            if e.counted:
                tot.cube_decisions += 1
                tot.cube_loss += e.loss
                tot.cube_loss_mwc += e.loss_mwc or 0.0
            if e.verdict in tot.cube_errors:
                tot.cube_errors[e.verdict] += 1
            if e.mark:
                tot.cube_marks[e.mark] += 1
            continue
        turns.append(e.to_dict())
        if e.legal >= 2:
            tot.unforced += 1
            tot.total_loss += e.loss
            m = mark(e.loss)
            if m:
                tot.marks[m] += 1
        tot.luck += e.luck
        tot.luck_value += e.luck_value
        tot.rolls += 1
        unit = e.unit if e.unit == "mwc" else unit
    players = {SIDE_NAMES[s]: totals[s].to_dict() for s in (0, 1)}
    for s in (0, 1):
        p = players[SIDE_NAMES[s]]
        p["luck_unit"] = unit
        if result is not None:
            actual = result[SIDE_NAMES[s]]
            p["result"] = actual
            p["luck_adjusted"] = round(actual - (totals[s].luck_value
                                                 - totals[1 - s].luck_value), 4)
        if unit == "mwc":
            p["cube_mwc_lost"] = round(totals[s].cube_loss_mwc, 4)
    out = {"ply": ply, "turns": turns, "cube": cube, "players": players}
    if note:
        out["ply_note"] = note
    return out


def analyse(obj: Game | Match, ply: int = 1, note: str = "") -> dict[str, Any]:
    """Analyse every turn and cube decision of a replayed game or match (see the module
    docstring); ``note``: why at this ply (:func:`review_ply`)."""
    return summarise(analyse_turns(obj, ply), ply, result_of(obj), note)


def _unit_text(value: float, unit: str) -> str:
    return f"{100 * value:+.2f}% MWC" if unit == "mwc" else f"{value:+.3f} points"


def format_analysis(result: dict[str, Any],
                    below: Callable[[dict[str, Any]], list[str]] | None = None) -> str:
    """The analysis as text: one line per turn (the roll written higher die first, 6-4)
    and per listed cube decision (``cube``), mistakes marked, then the totals; ``below``
    gives lines to print under a turn (its dict), e.g. its rollouts."""
    from tavli.engine.dice import dice_text

    note = result.get("ply_note")
    head = f"analysis at {result['ply']}-ply" + (f": {note}" if note else "")
    lines = [head + "; checker equities are cubeless, for the mover"]
    game = None
    rows = [(t["game"], t["turn"], 1, t) for t in result["turns"]]
    rows += [(c["game"], c["turn"], 0, c) for c in result.get("cube", [])]
    rows.sort(key=lambda r: r[:3])
    for gnum, _, _, t in rows:
        if gnum != game:
            game = gnum
            lines.append(f"-- game {game}")
        if t.get("kind") == "cube":
            text = f"{t['turn']:3d} {t['side']:5s} cube {t['text']}"
            if t["mark"]:
                text += f" [{t['mark']}]"
            lines.append(text)
            continue
        played = t["played"] or "(no move)"
        text = (f"{t['turn']:3d} {t['side']:5s} {dice_text(t['dice'])}  "
                f"{played:28s} eq {t['equity_played']:+.3f}  luck {t['luck']:+.3f}")
        if t.get("luck_mark"):
            text += f" ({t['luck_mark']})"
        if t["loss"] > 0:
            text += f"  loss {t['loss']:.3f}"
            if t["mark"]:
                text += f" [{t['mark']}] best {t['best']} ({t['equity_best']:+.3f})"
        if t.get("evaluator", "contact net") != "contact net":
            text += f"  ({t['evaluator']})"
        lines.append(text)
        if below is not None:
            lines.extend(below(t))
    lines.append("-- totals")
    for side, tot in result["players"].items():
        lines.extend(player_lines(side, tot))
    return "\n".join(lines)


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1 (``1 decision``, ``2 decisions``).

    >>> counted(1, "decision"), counted(0, "unforced move")
    ('1 decision', '0 unforced moves')
    """
    return f"{n} {word}" + ("" if n == 1 else "s")


def player_lines(side: str, tot: dict[str, Any]) -> list[str]:
    """A player's totals as text (the CLI's and the review page's summary)."""
    out = [f"{side:5s}  error rate {tot['error_rate']:6.1f} mp/decision ({tot['rating']}): "
           f"checker {tot.get('checker_error_rate', 0.0):.1f} mp over "
           f"{counted(tot['unforced_moves'], 'unforced move')}, equity lost "
           f"{tot['equity_lost']:.3f}, "
           "mistakes " + ", ".join(f"{k} {v}" for k, v in tot["mistakes"].items())]
    if tot.get("cube_decisions"):
        errs = ", ".join(f"{k} {v}" for k, v in tot["cube_errors"].items() if v) or "none"
        out.append(f"       cube {tot['cube_error_rate']:.1f} mp over "
                   f"{counted(tot['cube_decisions'], 'decision')}, equity lost "
                   f"{tot['cube_equity_lost']:.3f}; errors: {errs}")
    if "luck_rate" in tot:
        unit = tot.get("luck_unit", "points")
        luck = (f"       luck {tot['luck']:+.3f} over {counted(tot['rolls'], 'roll')} "
                f"({tot['luck_rate']:+.1f} m/roll, {tot['luck_rating']})")
        if unit == "mwc" or tot["luck_value"] != tot["luck"]:
            luck += f" = {_unit_text(tot['luck_value'], unit)}"
        if "result" in tot:
            luck += (f"; result {_unit_text(tot['result'], unit)}, luck-adjusted "
                     f"{_unit_text(tot['luck_adjusted'], unit)}")
        out.append(luck)
    elif "luck" in tot:
        out[0] += f", luck {tot['luck']:+.3f}"
    return out


__all__ = ["analyse", "analyse_turns", "summarise", "turn_count", "format_analysis", "rating",
           "mark", "review_ply", "ply_note", "ply_note_msg", "result_of", "player_lines", "MAX_PLY",
           "TOP", "games_of"]
