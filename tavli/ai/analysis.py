"""Analysis of a played game or match: the equity lost by each move against the best move
and the luck of each roll, with totals per player.

* Error of a move: best equity minus the chosen move's equity, both valued at the
  analysis ply (the chosen move is always valued at that ply, whatever the filter keeps).
  Marks: doubtful >= 0.04, bad >= 0.08, very bad >= 0.16 (gnubg's thresholds).
* Luck of a roll (0-ply): the equity of the best move with this roll minus the average of
  that over all 36 rolls.
* Totals per player: the error rate in millipoints per unforced move and a rating label
  (gnubg's scale), total luck.
* In a match every equity is the normalised match equity at the score and cube of the
  turn (:func:`tavli.cube.scoring.turn_weights`): moves are judged by match winning
  chances.
* Per turn also the class of the position before the roll (contact, race, bear-off) and
  the valuer that answers for it (contact net, race net, a bear-off database).

The result is deterministic: the same record and ply give the same analysis.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from ..layout import SIDE_NAMES
from ..match import Match
from .neural import Analyzer

RATINGS = ((2.0, "Supernatural"), (5.0, "World class"), (8.0, "Expert"),
           (12.0, "Advanced"), (18.0, "Intermediate"), (26.0, "Casual player"),
           (35.0, "Beginner"), (float("inf"), "Awful!"))
MARKS = ((0.16, "very bad"), (0.08, "bad"), (0.04, "doubtful"))


def rating(error_rate: float) -> str:
    """gnubg's label for an error rate in millipoints per unforced move."""
    for limit, name in RATINGS:
        if error_rate < limit:
            return name
    return RATINGS[-1][1]


def mark(loss: float) -> str:
    for limit, name in MARKS:
        if loss >= limit:
            return name
    return ""


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

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "turn": self.number, "side": SIDE_NAMES[self.side],
                "dice": list(self.dice), "played": self.played, "best": self.best,
                "equity_played": round(self.equity_played, 4),
                "equity_best": round(self.equity_best, 4), "loss": round(self.loss, 4),
                "mark": mark(self.loss), "luck": round(self.luck, 4),
                "legal_moves": self.legal, "position": self.position,
                "white_win": round(self.win_before, 4), "class": self.position_class,
                "evaluator": self.evaluator}


@dataclass
class PlayerTotals:
    unforced: int = 0
    total_loss: float = 0.0
    luck: float = 0.0
    marks: dict[str, int] = field(default_factory=lambda: {m: 0 for _, m in MARKS})

    @property
    def error_rate(self) -> float:
        return 1000.0 * self.total_loss / self.unforced if self.unforced else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"unforced_moves": self.unforced, "equity_lost": round(self.total_loss, 4),
                "error_rate": round(self.error_rate, 2), "rating": rating(self.error_rate),
                "luck": round(self.luck, 4), "mistakes": dict(self.marks)}


def _games(obj: Game | Match) -> list[Game]:
    return obj.games if isinstance(obj, Match) else [obj]


def turn_count(obj: Game | Match) -> int:
    """How many turns :func:`analyse_turns` goes through (every turn of every game)."""
    return sum(len(g.turns) for g in _games(obj))


def analyse_turns(obj: Game | Match, ply: int = 1, start: int = 0,
                  stop: int | None = None) -> list[TurnAnalysis]:
    """The analysis of turns ``start`` to ``stop`` (counted over the games in order) of a
    replayed game or match, so that a long review can be done in parts."""
    out: list[TurnAnalysis] = []
    analyzers: dict[Any, Analyzer] = {}
    k = 0
    for gi, game in enumerate(_games(obj), 1):
        rules = game.rules
        scores = None
        for number, (pos, dice, chosen) in enumerate(game.turns, 1):
            k += 1
            if k <= start:
                continue
            if stop is not None and k > stop:
                return out
            if rules not in analyzers:
                analyzers[rules] = Analyzer(rules)
            if scores is None and isinstance(obj, Match):  # values at the match score
                from ..cube.scoring import turn_weights

                scores = turn_weights(obj, gi - 1)
            out.append(_analyse_turn(analyzers[rules], gi, number, pos, dice, chosen, ply,
                                     scores[number - 1] if scores else None))
    return out


def _analyse_turn(an: Analyzer, gi: int, number: int, pos, dice, chosen,
                  ply: int, score=None) -> TurnAnalysis:
    rules = an.rules
    side = pos.turn
    o0 = an.position_outputs(pos, 0)
    cls, valuer = an.position_valuer(pos)
    white_win = float(o0[0] if side == 0 else 1 - o0[0])
    # luck: best 0-ply equity with this roll against the average over all rolls
    gv = None if score is None or score.is_money else score.kernel_weights(side)
    avg = float(an.equity(an.position_outputs(pos, 1, score), score))
    moves = pos.legal_moves(dice, rules)
    if moves:
        ranked0 = an.rank(pos, moves, 0, score)
        luck = ranked0[0].equity - avg
    else:
        o = an.position_outputs(pos.swap_turn(), 0)
        luck = -float(an.equity(o, score and score.flip())) - avg
    if len(moves) >= 2:
        ranked = an.rank(pos, moves, ply, score)
        best = ranked[0]
        mine = next(r for r in ranked if r.move.after == chosen.after)
        if mine.ply != best.ply:
            o = an.searcher.outputs(chosen.after.array[None], side, best.ply, gv)[0]
            eq_played = float(an.equity(o, score))
        else:
            eq_played = mine.equity
        loss = max(0.0, best.equity - eq_played)
        best_text, eq_best = str(best.move), best.equity
    else:
        eq_best = eq_played = float(ranked0[0].equity) if moves else -float(
            an.equity(an.position_outputs(pos.swap_turn(), 0), score and score.flip()))
        loss = 0.0
        best_text = str(chosen) if chosen is not None else ""
    return TurnAnalysis(gi, number, side, tuple(dice), str(chosen) if chosen is not None
                        else "", best_text, eq_played, eq_best, loss, luck, len(moves),
                        pos.id(), white_win, cls, valuer)


def summarise(turns: list[TurnAnalysis], ply: int) -> dict[str, Any]:
    """The result of :func:`analyse` from its turns: each turn, and totals per player."""
    totals = [PlayerTotals(), PlayerTotals()]
    for t in turns:
        tot = totals[t.side]
        if t.legal >= 2:
            tot.unforced += 1
            tot.total_loss += t.loss
            m = mark(t.loss)
            if m:
                tot.marks[m] += 1
        tot.luck += t.luck
    return {"ply": ply, "turns": [t.to_dict() for t in turns],
            "players": {SIDE_NAMES[s]: totals[s].to_dict() for s in (0, 1)}}


def analyse(obj: Game | Match, ply: int = 1) -> dict[str, Any]:
    """Analyse every turn of a replayed game or match (see the module docstring)."""
    return summarise(analyse_turns(obj, ply), ply)


def format_analysis(result: dict[str, Any]) -> str:
    """The analysis as text: one line per turn (the roll written higher die first, 6-4),
    mistakes marked, then the totals."""
    from ..dice import dice_text

    lines = [f"analysis at {result['ply']}-ply (equities are cubeless, for the mover)"]
    game = None
    for t in result["turns"]:
        if t["game"] != game:
            game = t["game"]
            lines.append(f"-- game {game}")
        played = t["played"] or "(no move)"
        text = (f"{t['turn']:3d} {t['side']:5s} {dice_text(t['dice'])}  "
                f"{played:28s} eq {t['equity_played']:+.3f}  luck {t['luck']:+.3f}")
        if t["loss"] > 0:
            text += f"  loss {t['loss']:.3f}"
            if t["mark"]:
                text += f" [{t['mark']}] best {t['best']} ({t['equity_best']:+.3f})"
        if t.get("evaluator", "contact net") != "contact net":
            text += f"  ({t['evaluator']})"
        lines.append(text)
    lines.append("-- totals")
    for side, tot in result["players"].items():
        lines.append(f"{side:5s}  error rate {tot['error_rate']:6.1f} mp/move "
                     f"({tot['rating']}), {tot['unforced_moves']} unforced moves, equity "
                     f"lost {tot['equity_lost']:.3f}, luck {tot['luck']:+.3f}, mistakes "
                     + ", ".join(f"{k} {v}" for k, v in tot["mistakes"].items()))
    return "\n".join(lines)


__all__ = ["analyse", "analyse_turns", "summarise", "turn_count", "format_analysis", "rating",
           "mark"]
