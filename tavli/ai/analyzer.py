"""Ranking moves with a network: gnubg-style move filtering between plies.

:class:`Analyzer` ranks every legal move of a roll (0-ply for all, then the best
candidates again at 1 and 2 plies) and values a position before its roll; the players,
hints, analysis and cube decisions all rank through it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tavli.ai.context import MONEY_0PLY, EvalContext
from tavli.ai.encode import family_name
from tavli.ai.evaluator import (
    CLASSES,
    VALUERS,
    Evaluator,
    as_evaluator,
    evaluate,
    position_class,
)
from tavli.ai.net import N_OUT, Net, NetError, equity
from tavli.ai.search import Searcher
from tavli.engine.board import Move, Position
from tavli.engine.rules import Rules
from tavli.play.cube.scoring import ScoreWeights


@dataclass
class RankedMove:
    """A move with its outputs (mover's view), equity and the ply it was valued at; at a
    match score the equity is the normalised match equity and ``mwc`` the match winning
    chance (:mod:`tavli.play.cube.scoring`)."""

    move: Move
    outputs: np.ndarray
    equity: float
    ply: int
    mwc: float | None = None

    def to_dict(self) -> dict:
        """The move, its equity, ply and outputs by name (``tavli hint --json``), and its
        ``mwc`` at a match score."""
        o = [round(float(v), 4) for v in self.outputs]
        doc = {"move": str(self.move), "equity": round(self.equity, 4), "ply": self.ply,
               "win": o[0], "win_gammon": o[1], "win_backgammon": o[2],
               "lose_gammon": o[3], "lose_backgammon": o[4],
               "position": self.move.after.id()}
        if self.mwc is not None:
            doc["mwc"] = round(self.mwc, 4)
        return doc


class Analyzer:
    """Ranks moves with a network, with gnubg-style move filtering between plies."""

    def __init__(self, rules: Rules, net: Net | Evaluator | None = None) -> None:
        self.rules = rules
        self.evaluator = as_evaluator(net, rules.variant)
        self.net = self.evaluator.contact
        if self.net.family != rules.variant.kernel:
            raise NetError(f"the network is for {family_name(self.net.family)}, the game "
                           f"{rules.game_name}")
        self.count_bg = bool(rules.backgammons)
        self.searcher = Searcher(self.evaluator, rules)

    def __repr__(self) -> str:
        return f"Analyzer({self.rules!r}, {self.evaluator!r})"

    def equity(self, outputs: np.ndarray, score: ScoreWeights | None = None) -> np.ndarray:
        """Cubeless equity of network outputs, backgammons counted where they score: money
        equity, or at a match ``score`` the normalised match equity
        (:class:`~tavli.play.cube.scoring.ScoreWeights`)."""
        if score is None or score.is_money:
            return np.asarray(equity(outputs, self.count_bg))
        y = np.asarray(outputs, dtype=np.float64)
        gw, bw, gl, bl = score.values
        e = 2 * y[..., 0] - 1 + gw * y[..., 1] - gl * y[..., 3]
        if self.count_bg:
            e = e + bw * y[..., 2] - bl * y[..., 4]
        return np.asarray(e)

    def rank(self, position: Position, moves: list[Move],
             ctx: EvalContext = MONEY_0PLY) -> list[RankedMove]:
        """``moves`` ranked best first; the leading ones (``ctx``'s move filters) valued at
        ``ctx.plies``. At a match score (``ctx.score``: the side to move's
        :class:`~tavli.play.cube.scoring.ScoreWeights`) every ply chooses and ranks by
        match winning chances, and each move has its MWC. The noise is the player's."""
        if not moves:
            return []
        score = ctx.score
        arr = np.stack([m.after.array for m in moves])
        mover = position.turn
        money = ctx.is_money
        gv = None if money else score.kernel_weights(mover)
        out = self.searcher.outputs(arr, mover, 0)
        eq = self.equity(out, score)
        plies = np.zeros(len(moves), dtype=int)
        for depth, keep, width in ctx.filters():
            if len(moves) == 1:
                break
            cand = [i for i in np.argsort(-eq, kind="stable") if plies[i] == depth - 1]
            cand = [i for i in cand[:keep] if eq[i] >= eq[cand[0]] - width]
            o = self.searcher.outputs(arr[cand], mover, depth, gv)
            out[cand] = o
            eq[cand] = self.equity(o, score)
            plies[cand] = depth
        order = sorted(range(len(moves)), key=lambda i: (-plies[i], -eq[i]))
        return [RankedMove(moves[i], out[i], float(eq[i]), int(plies[i]),
                           None if money else score.mwc(float(eq[i]))) for i in order]

    def position_valuer(self, position: Position) -> tuple[str, str]:
        """The class of ``position`` (``contact``, ``race`` or ``bear-off``:
        :data:`~tavli.ai.evaluator.CLASSES`) and the valuer that answers for it at 0-ply
        (``contact net``, ``race net``, a bear-off database:
        :data:`~tavli.ai.evaluator.VALUERS`)."""
        # a writable copy and the searches' own compiled evaluate: nothing to compile on a
        # first hint once the searches are (a read-only board would be another type)
        flat = position.flat()
        ev = self.evaluator
        cls = int(position_class(flat, ev.family))
        f4 = np.float32
        used = int(evaluate(ev.tables, flat, position.turn, ev.family, np.zeros(ev.n_inputs, f4),
                            np.zeros(ev.hidden, f4), np.zeros(N_OUT, f4)))
        return CLASSES[cls], VALUERS[used]

    def position_outputs(self, position: Position,
                         ctx: EvalContext = MONEY_0PLY) -> np.ndarray:
        """Outputs for the side to move in ``position`` (before its roll), searched
        ``ctx.plies`` deep; at a match score (``ctx.score``, the side to move's) the search
        chooses moves by it."""
        ply, score = ctx.plies, ctx.score
        if ply == 0:
            return self.evaluator.evaluate([position])[0][0]
        # the position seen as the after-position of the opponent's turn
        sw = position.swap_turn()
        gv = None if score is None or score.is_money else score.kernel_weights(position.turn)
        o = self.searcher.outputs(sw.array[None], sw.turn, ply, gv)[0]
        return np.array([1 - o[0], o[3], o[4], o[1], o[2]], dtype=np.float32)
