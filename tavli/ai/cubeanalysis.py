"""Cube analysis of played games: every cube decision of a backgammon game or match, what
was done, what was proper, and the equity it lost (gnubg's way; docs/ai.md, Analysis).

A game's history is walked with the cube and the score as they stood (:func:`walk`):

* before each roll where the side on roll could usefully double (the cube centred or
  his, not the Crawford game, not dead; not the first roll of a game at the start
  position) he decided: he doubled (``Double``) or he rolled ("no double");
* after a double, the opponent took, beavered or passed.

Each decision is valued by :func:`tavli.ai.cubeplay.decide_from` (cubeless probabilities
at the analysis ply, made cubeful by Janowski's model with the cube and score of that
moment: money equity per unit of the cube, or in a match MWC and normalised equity):

* **missed double**: no double where doubling was proper — loses
  ``min(DT, DP) - ND``;
* **wrong double**: a double where no double was proper (not good enough, or too good) —
  loses ``ND - min(DT, DP)``;
* **wrong take**: a take where passing was proper — the taker loses ``DT - DP``;
* **wrong pass**: a pass where taking was proper — loses ``DP - DT``.

A decision is *listed and counted* (in the error rate, as gnubg's "close or actual" cube
decisions) when it was a double, a take or a pass, or when no double was played and
doubling was within :data:`CLOSE` of the proper action (or proper): the many clear "no
double" decisions of a game are neither listed nor counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tavli.ai.marks import ERROR_LIMIT, mark
from tavli.engine.board import Position
from tavli.engine.layout import SIDE_NAMES
from tavli.play.cube.cubeful import CubeDecision
from tavli.play.cube.info import CubeInfo, Owner
from tavli.play.game import Game
from tavli.play.history import Beaver, Double, Drop, Opening, Pass, Play, Roll, Take

#: a "no double" is listed and counted when doubling is within this of the proper action
CLOSE = 0.16
ERRORS = ("missed double", "wrong double", "wrong take", "wrong pass")


@dataclass(frozen=True)
class TurnCube:
    """What one turn's luck needs: the cube from the mover's view (None: no cube) and
    whether its dice were the opening throw."""

    cube: CubeInfo | None
    opening: bool


@dataclass(frozen=True)
class CubeMoment:
    """One cube decision found in a game's history: ``slot`` turns of the game were
    played before it; ``side`` decided; ``kind`` ``double`` (the side on roll) or
    ``take`` (the answer); ``action`` what he did (``no double``, ``double``, ``take``,
    ``beaver``, ``pass``); ``position`` (the doubler on roll) and ``cube`` (from the
    doubler's view) as they were."""

    slot: int
    side: int
    kind: str
    action: str
    position: Position
    cube: CubeInfo


def match_cube(game: Game, side: int, value: int, owner: int | None,
               score: tuple[int, int] | None, target: int | None) -> CubeInfo | None:
    """The cube state from ``side``'s view with the cube at ``value`` owned by ``owner``
    (None: centred), at the match score ``score`` (points of white and black before the
    game) of a match to ``target`` (None: money play). None for a game without a cube or
    a match longer than the match equity table."""
    rules = game.rules
    if not rules.cube:
        return None
    own = (Owner.CENTRED if owner is None else Owner.ME if owner == side else Owner.OPPONENT)
    if score is None or target is None:
        return CubeInfo(cube=value, owner=own, jacoby=bool(rules.jacoby),
                        beavers=bool(rules.beavers))
    away = (target - score[side], target - score[1 - side])
    ci = CubeInfo(cube=value, owner=own, length=target, away=away, crawford=game.crawford,
                  post_crawford=1 in away and max(away) > 1 and not game.crawford)
    return ci if target <= ci.table.length else None


def walk(game: Game, score: tuple[int, int] | None = None, target: int | None = None,
         ) -> tuple[list[TurnCube], list[CubeMoment]]:
    """The cube of every turn of ``game`` (for its luck) and its cube decisions, with the
    match score before the game ``score`` of a match to ``target`` (None: money play)."""
    turns: list[TurnCube] = []
    moments: list[CubeMoment] = []
    pos = game.start_position
    start = Position.start(game.rules).array
    value, owner = 1, None
    decided = False   # the side on roll has doubled (and been taken): no second decision
    opening = False   # the next turn plays the opening throw
    offer: CubeMoment | None = None

    def cube(side: int) -> CubeInfo | None:
        return match_cube(game, side, value, owner, score, target)

    for a in game.history:
        if isinstance(a, Opening):
            if a.starter is not None:
                pos = Position(game.rules.game, pos.array, a.starter, validate=False)
                opening = not game.rules.opening_reroll
        elif isinstance(a, Roll):
            ci = cube(a.side)
            at_start = not turns and (pos.array == start).all()
            if (not decided and ci is not None and ci.can_double(Owner.ME)
                    and not at_start):
                moments.append(CubeMoment(len(turns), a.side, "double", "no double", pos, ci))
            decided = opening = False
        elif isinstance(a, Double):
            ci = cube(a.side)
            if ci is not None:
                offer = CubeMoment(len(turns), a.side, "double", "double", pos, ci)
                moments.append(offer)
            decided = True
        elif isinstance(a, Take | Beaver | Drop):
            action = {Take: "take", Beaver: "beaver", Drop: "pass"}[type(a)]
            if offer is not None:
                moments.append(CubeMoment(len(turns), a.side, "take", action, offer.position,
                                          offer.cube))
            offer = None
            if not isinstance(a, Drop):
                value *= 4 if isinstance(a, Beaver) else 2
                owner = a.side
        elif isinstance(a, Play | Pass):
            turns.append(TurnCube(cube(a.side), opening))
            pos = a.move.after if isinstance(a, Play) else pos.swap_turn()
            decided = opening = False
    return turns, moments


@dataclass
class CubeAnalysis:
    """One cube decision analysed (see the module docstring); equities from the
    doubler's view: ``nd``, ``dt``, ``dp`` normalised, ``mwc`` the three MWCs in a match;
    ``loss`` normalised (per unit of the cube), ``loss_mwc`` in a match."""

    game: int
    turn: int  # the turn (of its game) it comes before; one past the last at a game's end
    side: int
    kind: str
    action: str
    proper: str
    verdict: str  # "correct" or one of ERRORS
    loss: float
    counted: bool
    nd: float
    dt: float
    dp: float
    cube_value: int
    owner: str
    position: str
    ply: int
    mwc: tuple[float, float, float] | None = None
    loss_mwc: float | None = None
    slot: int = 0  # turns of all games (in order) played before it
    cube_state: dict[str, Any] | None = None  # the cube before the decision, for the page

    @property
    def mark(self) -> str:
        return mark(self.loss)

    @property
    def text(self) -> str:
        """One line: who did what, the proper action, the verdict."""
        who = SIDE_NAMES[self.side]
        re = "redouble" if self.owner == "me" else "double"
        did = {"no double": f"{who} did not {re}",
               "double": f"{who} {re}d to {2 * self.cube_value}",
               "take": f"{who} took", "beaver": f"{who} beavered (a take)",
               "pass": f"{who} passed"}[self.action]
        out = f"{did} (proper: {self.proper})"
        if self.verdict != "correct":
            out += f" — {self.verdict}, −{self.loss:.3f}"
            if self.loss_mwc is not None:
                out += f" ({100 * self.loss_mwc:.2f}% MWC)"
        return out

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": "cube", "game": self.game, "turn": self.turn,
            "side": SIDE_NAMES[self.side], "decision": self.kind, "action": self.action,
            "proper": self.proper, "verdict": self.verdict, "loss": round(self.loss, 4),
            "mark": self.mark, "counted": self.counted,
            "equities": {"no_double": round(self.nd, 4), "double_take": round(self.dt, 4),
                         "double_pass": round(self.dp, 4)},
            "cube": self.cube_value, "owner": self.owner, "position": self.position,
            "ply": self.ply, "text": self.text}
        if self.cube_state is not None:
            d["cube_state"] = self.cube_state
        if self.mwc is not None:
            d["mwc"] = dict(zip(("no_double", "double_take", "double_pass"),
                                (round(m, 4) for m in self.mwc), strict=True))
            d["loss_mwc"] = round(self.loss_mwc or 0.0, 4)
        return d


def judge(d: CubeDecision, kind: str, action: str) -> tuple[str, float, float | None, bool]:
    """``(verdict, loss, loss in MWC or None, counted)`` of ``action`` against the
    decision ``d`` (see the module docstring); a loss under gnubg's least error
    (:data:`~tavli.ai.marks.ERROR_LIMIT`, 0.04) is no error: the verdict is "correct",
    the loss is kept for the error rate.

    >>> from tavli.play.cube.cubeful import decide
    >>> d = decide((0.72, 0.1, 0.0, 0.02, 0.0), CubeInfo(), 0.68)
    >>> d.action
    'Double, take'
    >>> judge(d, "double", "no double")[:2] == ("missed double", d.dt - d.nd)
    True
    >>> judge(d, "take", "pass")[0], judge(d, "take", "take")[0]
    ('wrong pass', 'correct')
    """
    verdict, loss, loss_mwc, counted = _verdict(d, kind, action)
    if verdict != "correct" and loss < ERROR_LIMIT:
        return "correct", loss, loss_mwc, counted
    return verdict, loss, loss_mwc, counted


def _verdict(d: CubeDecision, kind: str, action: str
             ) -> tuple[str, float, float | None, bool]:
    """What :func:`judge` answers before small losses are forgiven."""
    m = d.mwc
    if kind == "double":
        dbl, nd = min(d.dt, d.dp), d.nd
        dbl_m = min(m[1], m[2]) if m is not None else None
        if action == "no double":
            counted = dbl > nd - CLOSE
            if dbl > nd:
                return ("missed double", dbl - nd,
                        None if m is None else max(0.0, dbl_m - m[0]), True)
            return "correct", 0.0, (None if m is None else 0.0), counted
        if nd > dbl:
            return ("wrong double", nd - dbl, None if m is None else max(0.0, m[0] - dbl_m),
                    True)
        return "correct", 0.0, (None if m is None else 0.0), True
    if action in ("take", "beaver"):
        if d.dt > d.dp:
            return ("wrong take", d.dt - d.dp, None if m is None else max(0.0, m[1] - m[2]),
                    True)
    elif d.dp > d.dt:
        return "wrong pass", d.dp - d.dt, None if m is None else max(0.0, m[2] - m[1]), True
    return "correct", 0.0, (None if m is None else 0.0), True


__all__ = ["walk", "match_cube", "judge", "CubeAnalysis", "CubeMoment", "TurnCube", "CLOSE",
           "ERRORS"]
