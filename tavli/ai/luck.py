"""The luck of a roll, as gnubg measures it: the value of the best move (by 0-ply) with
the roll thrown, minus the average of that value over the rolls that could have come.

The value is the mover's **cubeful** value where the game has a doubling cube (Janowski's
model on the 0-ply probabilities of the position after the move, with the opponent on
roll and the cube as it stands: :mod:`tavli.play.cube.cubeful`) — per unit of the cube in
money play, the match winning chance (MWC) in a match — and the cubeless equity in games
without a cube. Each roll's luck is given twice: *normalised* (money equity per unit of
the cube; in a match the MWC turned into equity at the cube's value, as gnubg's
``mwc2eq``) and in the *result's units* (points: the normalised value times the cube, or
MWC in a match), which are what the luck-adjusted result subtracts.

The opening roll (the two opening dice played as the first turn, never a double) is
measured against the 30 opening throws that could have come: 15 that this side wins and
plays, 15 that the opponent wins and plays (so winning the opening is luck too).

>>> from tavli import Position
>>> from tavli.engine.rules import Rules
>>> from tavli.ai.neural import Analyzer
>>> an = Analyzer(Rules.for_game("backgammon"))
>>> v = RollValues.of(an, Position.start("backgammon"), None)
>>> v.norm.shape, round(float(v.luck((6, 5))[0] - v.luck((2, 1))[0]), 2) > 0
((21,), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from tavli.ai.net import N_OUT, flip
from tavli.ai.search import ROLLS, _after_value, v0
from tavli.engine.board import Dice, Position
from tavli.engine.games.kernel import F_KERNEL
from tavli.engine.movegen import generate
from tavli.play.cube.cubeful import cubeful_equity
from tavli.play.cube.info import CubeInfo

#: gnubg's marks of one roll's (normalised) luck
LUCK_MARKS = ((0.6, "very lucky"), (0.3, "lucky"), (-0.3, ""), (-0.6, "unlucky"),
              (float("-inf"), "very unlucky"))
#: gnubg's luck rating of a player, by his average (normalised) luck per roll
LUCK_RATINGS = ((0.06, "Go to Las Vegas"), (0.03, "Good dice, man!"), (-0.03, "None"),
                (-0.06, "Bad dice, man!"), (float("-inf"), "Go to bed"))
_WEIGHTS = ROLLS[:, 2].astype(np.float64) / 36.0


def luck_mark(luck: float) -> str:
    """gnubg's mark of one roll's normalised luck: very lucky > 0.6, lucky > 0.3,
    unlucky < -0.3, very unlucky < -0.6.

    >>> luck_mark(0.45), luck_mark(-0.7), luck_mark(0.1)
    ('lucky', 'very unlucky', '')
    """
    if luck > 0.3:
        return "very lucky" if luck > 0.6 else "lucky"
    if luck < -0.3:
        return "very unlucky" if luck < -0.6 else "unlucky"
    return ""


def luck_rating(per_roll: float) -> str:
    """gnubg's luck rating from a player's average normalised luck per roll.

    >>> luck_rating(0.07), luck_rating(0.0), luck_rating(-0.04)
    ('Go to Las Vegas', 'None', 'Bad dice, man!')
    """
    for limit, name in LUCK_RATINGS:
        if per_roll > limit:
            return name
    return LUCK_RATINGS[-1][1]


@njit(cache=True)
def best_after_each_roll(net, st, side, flags, s, out, boards):
    """For each of the 21 rolls (:data:`tavli.ai.search.ROLLS`): the 0-ply outputs (the
    mover's view) after ``side``'s best move by 0-ply in the board array ``st`` (into
    ``out[r]``) and that position (into ``boards[r]``, flat; the board itself when the
    roll has no move)."""
    family = flags[F_KERNEL]
    x, h, tmp, cand, best = s.x, s.h, s.tmp, s.cand, s.best
    buf, table = s.buf, s.table
    outp = table.shape[0] - buf.shape[0]
    flat = st.reshape(104)
    for r in range(ROLLS.shape[0]):
        n = generate(st, side, ROLLS[r, 0], ROLLS[r, 1], flags, buf, table)
        if n <= 0:
            v0(net, flat, 1 - side, family, x, h, tmp)
            flip(tmp, best)
            for q in range(104):
                boards[r, q] = flat[q]
        else:
            be = -1e18
            for j in range(n):
                i = table[outp + j]
                e = _after_value(net, buf[i], side, flags, x, h, tmp, cand)
                if e > be:
                    be = e
                    for k in range(N_OUT):
                        best[k] = cand[k]
                    for q in range(104):
                        boards[r, q] = buf[i, q]
        for k in range(N_OUT):
            out[r, k] = best[k]


def roll_index(dice: Dice) -> int:
    """The row of ``dice`` in :data:`tavli.ai.search.ROLLS`.

    >>> roll_index((6, 5)), roll_index((1, 1))
    (19, 0)
    """
    lo, hi = sorted(int(d) for d in dice)
    return int(np.nonzero((ROLLS[:, 0] == lo) & (ROLLS[:, 1] == hi))[0][0])


def _win_lose(ci: CubeInfo) -> tuple[float, float]:
    """The MWC of winning and of losing the cube's value now (gnubg's mwc2eq scale)."""
    a, b = ci.away
    post = ci.post_crawford or ci.crawford
    return ci.table.mwc(a - ci.cube, b, post), ci.table.mwc(a, b - ci.cube, post)


def to_norm(mwc: float, ci: CubeInfo) -> float:
    """An MWC as normalised equity at the score and cube of ``ci`` (``-1`` losing the
    cube's value, ``+1`` winning it)."""
    w, lo = _win_lose(ci)
    return (2.0 * mwc - w - lo) / (w - lo) if w > lo else 0.0


@dataclass(frozen=True)
class RollValues:
    """The mover's value after his best move with each of the 21 rolls: ``norm``
    (normalised) and ``raw`` (in the result's units: points or MWC)."""

    norm: np.ndarray
    raw: np.ndarray
    mwc: bool = False  # the raw values are MWCs (a match with the cube)

    @classmethod
    def of(cls, an, position: Position, cube: CubeInfo | None) -> RollValues:
        """The values for the side to move in ``position`` (before its roll) with the cube
        ``cube`` from its view (None: a game without a cube, cubeless equity)."""
        from tavli.ai.cubeplay import position_efficiency

        side = position.turn
        st = np.array(position.array, dtype=np.int8, copy=True)
        outs = np.zeros((len(ROLLS), N_OUT), dtype=np.float32)
        boards = np.zeros((len(ROLLS), 104), dtype=np.int8)
        searcher = an.searcher
        best_after_each_roll(searcher.evaluator.tables, st, side, searcher.flags,
                             searcher.scratch, outs, boards)
        if cube is None or not cube.cube_used:
            eq = np.asarray(an.equity(outs), dtype=np.float64)
            return cls(eq, eq.copy())
        opp = cube.flip()
        norm = np.zeros(len(ROLLS))
        raw = np.zeros(len(ROLLS))
        for r, (o, b) in enumerate(zip(outs, boards, strict=True)):
            after = Position._trusted(position.game, b.reshape(4, 26), 1 - side)
            _, x = position_efficiency(after)
            probs = (1.0 - o[0], o[3], o[4], o[1], o[2])
            e = cubeful_equity(probs, opp, x)
            if cube.is_money:
                norm[r] = -e
                raw[r] = -e * cube.cube
            else:
                raw[r] = 1.0 - e
                norm[r] = to_norm(raw[r], cube)
        return cls(norm, raw, not cube.is_money)

    def mean(self) -> tuple[float, float]:
        """The average over the 36 rolls, normalised and raw."""
        return float(self.norm @ _WEIGHTS), float(self.raw @ _WEIGHTS)

    def luck(self, dice: Dice) -> tuple[float, float]:
        """The luck of ``dice``: its value minus the average (normalised, raw)."""
        i = roll_index(dice)
        m = self.mean()
        return float(self.norm[i] - m[0]), float(self.raw[i] - m[1])


def opening_luck(mine: RollValues, theirs: RollValues, dice: Dice) -> tuple[float, float]:
    """The luck of an opening throw ``dice`` (not a double) played by the side whose
    values are ``mine``: against the 30 opening throws, the 15 he wins (``mine``) and the
    15 the opponent wins (``theirs``: the opponent's values on roll at the start, turned
    to this side's view: negated, or one minus the MWC)."""
    single = ROLLS[:, 0] != ROLLS[:, 1]
    i = roll_index(dice)
    other_raw = 1.0 - theirs.raw if theirs.mwc else -theirs.raw
    mean_norm = (mine.norm[single].sum() - theirs.norm[single].sum()) / 30.0
    mean_raw = (mine.raw[single].sum() + other_raw[single].sum()) / 30.0
    return float(mine.norm[i] - mean_norm), float(mine.raw[i] - mean_raw)


__all__ = ["RollValues", "opening_luck", "luck_mark", "luck_rating", "roll_index",
           "to_norm", "best_after_each_roll", "LUCK_RATINGS"]
