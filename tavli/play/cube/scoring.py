"""How a game's outcomes count at a match score: :class:`ScoreWeights`, the weights that
make the AI's checker play match-aware.

At a given score (and cube value) the match winning chance (MWC) of the side to move is
linear in the network's five cubeless probabilities — win ``w``, win a gammon ``wg``, win a
backgammon ``wb``, lose a gammon ``lg``, lose a backgammon ``lb`` (cumulative, as
:mod:`tavli.ai.net` gives them). With ``W``, ``WG``, ``WB`` the MWCs after a single win, a
gammon and a backgammon, and ``L``, ``LG``, ``LB`` after the losses::

    MWC = L + (W - L) w + (WG - W) wg + (WB - WG) wb - (L - LG) lg - (LG - LB) lb

Normalised so that a single win is +1 and a single loss -1 (gnubg's way of turning match
equity into an equity), this is money play's formula with other weights::

    E = 2w - 1 + gw·wg + bw·wb - gl·lg - bl·lb,    MWC = (W + L) / 2 + E (W - L) / 2

``gw = (WG - W) / h``, ``bw = (WB - WG) / h``, ``gl = (L - LG) / h``, ``bl = (LG - LB) / h``
with ``h = (W - L) / 2``: the gammon values of :func:`tavli.play.cube.prices.gammon_values`.
Ranking moves by ``E`` ranks them by MWC exactly (cubeless); money play is
``gw = bw = gl = bl = 1``. The opponent's ``E`` is ``-E`` (its weights are the mirror:
``gl, bl, gw, bw``), so one set of weights serves both sides of a search.

* Backgammon matches: from the match equity table at the score and the cube's value
  (:meth:`ScoreWeights.from_cube`), Crawford and post-Crawford as the table has them.
* Tavli matches (no cube): from :class:`~tavli.play.cube.tavli_met.TavliEquity` with the next
  game of the rotation and its starter (the winner; the opening throw after a draw or with
  ``opening_each_game``) known (:meth:`ScoreWeights.from_tavli`). A Plakoto draw counts
  as half a win, as the network counts it: its MWC is taken as ``(W + L) / 2``.

>>> sw = ScoreWeights.from_cube(CubeInfo(length=5, away=(1, 2), post_crawford=True))
>>> sw.win_gammon, sw.lose_gammon > 1      # 1-away: my gammon is worth nothing
(0.0, True)
>>> round(ScoreWeights.money().equity([0.6, 0.2, 0.0, 0.1, 0.0]), 6)   # 2·0.6-1 + 0.2 - 0.1
0.3
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tavli.errors import OptionError
from tavli.play.cube.info import CubeInfo
from tavli.play.cube.tavli_met import MEASURED_RATES, Starter, TavliEquity

if TYPE_CHECKING:
    from tavli.play.game import Game
    from tavli.play.match import Match


@dataclass(frozen=True)
class ScoreWeights:
    """The weights of the normalised equity for the side to move (see the module), and the
    MWCs of its single win (``win``) and single loss (``lose``); ``win`` None: money play.
    ``context``: the score in words (``"5-point match, 1-away/2-away (post-Crawford)"``)."""

    win_gammon: float = 1.0
    win_backgammon: float = 1.0
    lose_gammon: float = 1.0
    lose_backgammon: float = 1.0
    win: float | None = None
    lose: float | None = None
    context: str = "money play"

    @classmethod
    def money(cls) -> ScoreWeights:
        """Money play: every weight 1, no MWC."""
        return cls()

    @property
    def is_money(self) -> bool:
        """Money play (no match score)."""
        return self.win is None

    @property
    def values(self) -> tuple[float, float, float, float]:
        """``(gw, bw, gl, bl)``: win gammon, win backgammon, lose gammon, lose backgammon."""
        return (self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon)

    def flip(self) -> ScoreWeights:
        """The same score from the opponent's view."""
        win = None if self.lose is None else 1.0 - self.lose
        lose = None if self.win is None else 1.0 - self.win
        return replace(self, win_gammon=self.lose_gammon, win_backgammon=self.lose_backgammon,
                       lose_gammon=self.win_gammon, lose_backgammon=self.win_backgammon,
                       win=win, lose=lose)

    def equity(self, outputs, count_bg: bool = True) -> float:
        """The normalised equity of five probabilities (the side to move's view);
        backgammons only with ``count_bg``."""
        w, wg, wb, lg, lb = (float(v) for v in outputs)
        e = 2.0 * w - 1.0 + self.win_gammon * wg - self.lose_gammon * lg
        if count_bg:
            e += self.win_backgammon * wb - self.lose_backgammon * lb
        return e

    def mwc(self, equity: float) -> float | None:
        """The MWC of a normalised equity (None in money play)."""
        if self.win is None or self.lose is None:
            return None
        return (self.win + self.lose) / 2 + equity * (self.win - self.lose) / 2

    def kernel_weights(self, side: int):
        """The weights as the compiled search takes them: float64[2, 4], row ``side`` these
        (``gw, bw, gl, bl``), the other row the opponent's (the mirror)."""
        import numpy as np

        gw, bw, gl, bl = self.values
        out = np.empty((2, 4), dtype=np.float64)
        out[side] = (gw, bw, gl, bl)
        out[1 - side] = (gl, bl, gw, bw)
        return out

    def to_dict(self) -> dict:
        """The weights, MWCs and context (``tavli hint --json``'s ``"score"``)."""
        doc: dict = {"context": self.context, "win_gammon": round(self.win_gammon, 4),
                     "win_backgammon": round(self.win_backgammon, 4),
                     "lose_gammon": round(self.lose_gammon, 4),
                     "lose_backgammon": round(self.lose_backgammon, 4)}
        if self.win is not None and self.lose is not None:
            doc.update(win_mwc=round(self.win, 4), lose_mwc=round(self.lose, 4))
        return doc

    # --- builders -----------------------------------------------------------------------
    @classmethod
    def from_mwcs(cls, win: tuple[float, float, float], lose: tuple[float, float, float],
                  context: str = "") -> ScoreWeights:
        """From the MWCs after a single win, a gammon and a backgammon (``win``) and after
        the same losses (``lose``)."""
        half = (win[0] - lose[0]) / 2
        if half <= 0:
            raise OptionError("a win must be worth more than a loss at this score")
        return cls((win[1] - win[0]) / half, (win[2] - win[1]) / half,
                   (lose[0] - lose[1]) / half, (lose[1] - lose[2]) / half,
                   win[0], lose[0], context)

    @classmethod
    def from_cube(cls, ci: CubeInfo) -> ScoreWeights:
        """A backgammon-style score (:class:`~tavli.play.cube.info.CubeInfo`; money play: every
        weight 1, whatever Jacoby says, as the checker play has always counted)."""
        if ci.is_money:
            return cls.money()
        a, b = ci.away
        post = ci.post_crawford or ci.crawford
        met = ci.table
        win = tuple(met.mwc(a - k * ci.cube, b, post) for k in (1, 2, 3))
        lose = tuple(met.mwc(a, b - k * ci.cube, post) for k in (1, 2, 3))
        tag = " (Crawford)" if ci.crawford else " (post-Crawford)" if ci.post_crawford else ""
        cube = f", cube {ci.cube}" if ci.cube > 1 else ""
        return cls.from_mwcs(win, lose,  # type: ignore[arg-type]
                             f"{ci.length}-point match, {a}-away/{b}-away{tag}{cube}")

    @classmethod
    def from_tavli(cls, target: int, score: tuple[int, int], game: str,
                   rotation: tuple[str, ...] = ("portes", "plakoto", "fevga"),
                   opening_each_game: bool = False) -> ScoreWeights:
        """A Tavli match to ``target`` at ``score`` (my points, the opponent's), during
        ``game`` of ``rotation``: the next game follows it in the rotation, started by this
        game's winner (by the opening throw with ``opening_each_game``)."""
        if game not in rotation:
            raise OptionError(f"{game!r} is not in the rotation {'/'.join(rotation)}")
        me, opp = score
        for s in score:
            if not 0 <= s < target:
                raise OptionError(f"a score must be 0..{target - 1} during a game of a "
                                  f"{target}-point match, got {s}")
        eq = _tavli_equity(target, tuple(rotation))
        nxt = rotation[(rotation.index(game) + 1) % len(rotation)]

        def after(mine: int, theirs: int, starter: Starter) -> float:
            if mine >= target:
                return 1.0
            if theirs >= target:
                return 0.0
            return eq.mwc(mine, theirs, nxt, Starter.OPENING if opening_each_game else starter)

        win = tuple(after(me + k, opp, Starter.ME) for k in (1, 2, 2))
        lose = tuple(after(me, opp + k, Starter.OPPONENT) for k in (1, 2, 2))
        return cls.from_mwcs(win, lose,  # type: ignore[arg-type]
                             f"{target}-point Tavli match, {me}-{opp}, {game} (next {nxt})")

    @classmethod
    def for_game(cls, game: Game, match: Match | None = None,
                 side: int | None = None) -> ScoreWeights:
        """The weights for ``side`` (default the side to move) in ``game`` of ``match``
        (default ``game.match``; none: money play). A Tavli rotation (Portes, Plakoto,
        Fevga) uses the Tavli match equity; other matches the backgammon table at the
        score and cube (the table extended past its 25 points, as gnubg does:
        :func:`tavli.play.cube.met.extended_mwc`)."""
        match = match if match is not None else getattr(game, "match", None)
        if match is None:
            return cls.money()
        me = game.position.turn if side is None else side
        score = match.score
        if game is match.game and game.is_over:
            raise OptionError("the game is over: its points are in the match score")
        mine = (score[me], score[1 - me])
        rotation = tuple(match.rotation)
        if all(g in MEASURED_RATES for g in rotation) and not game.rules.cube:
            return cls.from_tavli(match.target, mine, game.rules.game_name, rotation,
                                  bool(getattr(match, "opening_each_game", False)))
        return cls.from_cube(CubeInfo.from_game(game, match, side=me))


@functools.lru_cache(maxsize=16)
def _tavli_equity(target: int, rotation: tuple[str, ...]) -> TavliEquity:
    return TavliEquity(target, rotation)


def match_state(game: Game, match: Match | None = None) -> dict | None:
    """A small picklable record of the match around ``game`` (for the web's worker
    processes: :func:`weights_from_state` rebuilds the weights), or None in money play."""
    match = match if match is not None else getattr(game, "match", None)
    if match is None:
        return None
    return {"target": match.target, "score": list(match.score),
            "rotation": list(match.rotation), "game": game.rules.game_name,
            "crawford": bool(game.crawford), "cube": game.cube_value,
            "owner": game.cube_owner, "cube_used": bool(game.rules.cube),
            "opening_each_game": bool(getattr(match, "opening_each_game", False))}


def weights_from_state(state: dict | None, side: int) -> ScoreWeights:
    """The weights for ``side`` from a :func:`match_state` record (None: money play)."""
    if not state:
        return ScoreWeights.money()
    target = int(state["target"])
    score = (int(state["score"][side]), int(state["score"][1 - side]))
    rotation = tuple(state["rotation"])
    if all(g in MEASURED_RATES for g in rotation) and not state.get("cube_used"):
        return ScoreWeights.from_tavli(target, score, state["game"], rotation,
                                       bool(state.get("opening_each_game")))
    ci = cube_info_from_state(state, side)
    if ci.length > ci.table.length:
        return ScoreWeights.money()
    return ScoreWeights.from_cube(ci)


def cube_info_from_state(state: dict, side: int) -> CubeInfo:
    """The :class:`~tavli.play.cube.info.CubeInfo` of ``side`` from a :func:`match_state`
    record (a backgammon match)."""
    from tavli.play.cube.info import Owner

    target = int(state["target"])
    away = (target - int(state["score"][side]), target - int(state["score"][1 - side]))
    owner = state.get("owner")
    own = (Owner.CENTRED if owner is None else Owner.ME if owner == side else Owner.OPPONENT)
    crawford = bool(state.get("crawford"))
    post = 1 in away and max(away) > 1 and not crawford
    return CubeInfo(cube=int(state.get("cube", 1)), owner=own, length=target, away=away,
                    crawford=crawford, post_crawford=post,
                    cube_used=bool(state.get("cube_used", True)))


def turn_weights(match: Match, index: int) -> list[ScoreWeights]:
    """The weights of the side to move at each turn of ``match.games[index]`` (the score
    before that game, the cube as it stood at the turn): what an analysis of a played
    match values the moves by."""
    from tavli.play.history import Beaver, Pass, Play, Take

    game = match.games[index]
    score = [0, 0]
    for g in match.games[:index]:
        if g.outcome is not None and g.outcome.winner is not None:
            score[g.outcome.winner] += g.outcome.points
    target = match.target
    rotation = tuple(match.rotation)
    tavli = all(g in MEASURED_RATES for g in rotation) and not game.rules.cube
    cube, owner = 1, None
    out: list[ScoreWeights] = []
    memo: dict[tuple, ScoreWeights] = {}
    for a in game.history:
        if isinstance(a, Take):
            cube, owner = cube * 2, a.side
        elif isinstance(a, Beaver):
            cube, owner = cube * 4, 1 - a.side
        elif isinstance(a, Play | Pass):
            side = a.side
            key = (side, cube, owner)
            if key not in memo:
                mine = (score[side], score[1 - side])
                if tavli:
                    memo[key] = ScoreWeights.from_tavli(
                        target, mine, game.rules.game_name, rotation,
                        bool(getattr(match, "opening_each_game", False)))
                else:
                    memo[key] = weights_from_state(
                        {"target": target, "score": score, "rotation": list(rotation),
                         "game": game.rules.game_name, "crawford": game.crawford,
                         "cube": cube, "owner": owner, "cube_used": bool(game.rules.cube)},
                        side)
            out.append(memo[key])
    return out

