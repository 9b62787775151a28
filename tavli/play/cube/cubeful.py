"""Cubeful equity from cubeless probabilities: Janowski's model with a cube efficiency,
for money play and matches, and the cube decision (no double / double, take / double,
pass, too good, beaver) it implies.

The model (written for this project after R. Janowski, "Take-points in money games",
1993, and the way gnubg applies it at 0-ply; see docs/ai.md, Cubeful equity):

* The five cubeless probabilities ``(win, win_gammon, win_backgammon, lose_gammon,
  lose_backgammon)`` of the side to move give, at cube value ``v``, its value *given* it
  wins, ``W(v)``, and given it loses, ``L(v)`` — in money play points (``v·(1 + g + b)/p``),
  in a match the average match winning chance (MWC) of its wins / losses from the MET.
  ``C(v)``: the value of cashing ``v`` (the opponent passes), ``D(v)``: of passing ``v``.
* **Dead cube** (nobody will turn it again): ``E_dead = p·W(v) + (1-p)·L(v)``.
* **Live cube** (a continuous game, each side doubles at the last moment the other can
  still take): the value is piecewise linear in ``p`` through ``(0, L)``, ``(TP, D)``
  when the opponent may double, ``(CP, C)`` when I may, and ``(1, W)``. ``TP`` (my take
  point of the opponent's double) and ``CP`` (my cash point) come from the same model one
  cube level up, down to the level where the cube is dead (the doubler's wins already win
  the match, or the cube is at 64): at a dead level the taker's value is linear between
  ``(0, L)`` and ``(1, W)``. Money play without gammons gives ``TP = 20%``, ``CP = 80%``.
* **Cube efficiency** ``x``: ``E = x·E_live + (1-x)·E_dead``. ``x`` depends on the
  position's class (:func:`efficiency`): 0.68 in contact, and in races and bear-offs
  ``0.55 + 0.00125·pips`` (the pips of the side to move) clamped to ``[0.6, 0.7]`` —
  the values gnubg uses: a long race keeps more of the cube's value than a short one,
  where market losers are rare.
* Decisions: ``ND`` (no double: the cube as it is), ``DT`` (double, take: cube ``2v``
  owned by the opponent), ``DP`` (double, pass: ``C(v)``), all from the doubler's view;
  money equities are per unit of the current cube (``DP = +1``); in a match the MWCs are
  also given as equities, ``(2·mwc - C - D) / (C - D)`` (so ``DP = +1`` there too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tavli.play.cube.info import MAX_CUBE, CubeInfo, Owner

#: cube efficiency in contact positions (gnubg's value)
X_CONTACT = 0.68
#: race and bear-off efficiency: X_RACE_BASE + X_RACE_PER_PIP · pips, clamped to X_RACE_RANGE
X_RACE_BASE, X_RACE_PER_PIP, X_RACE_RANGE = 0.55, 0.00125, (0.6, 0.7)

# the gnubg proper-action phrases
NO_DOUBLE_TAKE = "No double, take"
NO_DOUBLE_BEAVER = "No double, beaver"
DOUBLE_TAKE = "Double, take"
DOUBLE_PASS = "Double, pass"
TOO_GOOD_PASS = "Too good to double, pass"
TOO_GOOD_TAKE = "Too good to double, take"
NO_CUBE = "No double (the cube is not available)"


def efficiency(cls: str, pips: int = 0) -> float:
    """The cube efficiency ``x`` for a position of class ``cls`` ("contact", "race",
    "bear-off") with ``pips`` the pip count of the side to move.

    >>> efficiency("contact"), efficiency("race", 100), efficiency("bear-off", 20)
    (0.68, 0.675, 0.6)
    """
    if cls == "contact":
        return X_CONTACT
    lo, hi = X_RACE_RANGE
    return round(min(max(X_RACE_BASE + X_RACE_PER_PIP * pips, lo), hi), 6)


class _Scorer:
    """The values of the game's ends for the side to move: money points or MWC."""

    def __init__(self, probs, ci: CubeInfo) -> None:
        p = np.clip(np.asarray(probs, dtype=np.float64)[:5], 0.0, 1.0)
        self.p = float(p[0])
        self.ci = ci
        win, lose = max(self.p, 1e-9), max(1.0 - self.p, 1e-9)
        # the shares of wins / losses that are single, gammon (not bg), backgammon
        wg, wb = min(p[1], win), min(p[2], p[1])
        lg, lb = min(p[3], lose), min(p[4], p[3])
        self.win_mix = ((win - wg) / win, (wg - wb) / win, wb / win)
        self.lose_mix = ((lose - lg) / lose, (lg - lb) / lose, lb / lose)
        self._memo: dict[tuple[str, int], float] = {}  # W, L, cash and take points by cube

    def value(self, points: int) -> float:
        """My value when the game ends with ``points`` to me (negative: to the opponent)."""
        ci = self.ci
        if ci.is_money:
            return float(points)
        a, b = ci.away
        post = ci.post_crawford or ci.crawford
        if points >= 0:
            return ci.table.mwc(a - points, b, post)
        return ci.table.mwc(a, b + points, post)

    def _gammons_count(self, v: int) -> bool:
        ci = self.ci
        return not (ci.is_money and ci.jacoby and v == 1 and ci.owner == Owner.CENTRED)

    def W(self, v: int) -> float:
        """Expected value given I win, cube ``v``."""
        key = ("W", v)
        if key not in self._memo:
            self._memo[key] = self._W(v)
        return self._memo[key]

    def _W(self, v: int) -> float:
        k = (1, 2, 3) if self._gammons_count(v) else (1, 1, 1)
        return sum(m * self.value(n * v) for m, n in zip(self.win_mix, k, strict=True))

    def L(self, v: int) -> float:
        """Expected value given I lose, cube ``v``."""
        key = ("L", v)
        if key not in self._memo:
            self._memo[key] = self._L(v)
        return self._memo[key]

    def _L(self, v: int) -> float:
        k = (1, 2, 3) if self._gammons_count(v) else (1, 1, 1)
        return sum(m * self.value(-n * v) for m, n in zip(self.lose_mix, k, strict=True))

    def can_double(self, side: Owner, v: int) -> bool:
        """Whether ``side`` could usefully double a cube of ``v`` it holds."""
        ci = self.ci
        if not ci.cube_used or ci.crawford or v >= MAX_CUBE:
            return False
        return ci.is_money or v < ci.away[int(side)]

    # -- the live-cube decision points, as my winning chance ---------------------------
    def cash_point(self, v: int) -> float:
        """My winning chance from which the opponent passes my double from ``v``."""
        key = ("cash_point", v)
        if key not in self._memo:
            self._memo[key] = self._cash_point(v)
        return self._memo[key]

    def _cash_point(self, v: int) -> float:
        top = 2 * v
        if self.can_double(Owner.OPPONENT, top):
            t = self.take_point(top)
            lo = self.value(-top)  # he redoubles at my take point and I pass
            return _clip(t + (1 - t) * _share(self.value(v) - lo, self.W(top) - lo))
        lo = self.L(top)
        return _clip(_share(self.value(v) - lo, self.W(top) - lo))

    def take_point(self, v: int) -> float:
        """My lowest winning chance to take the opponent's double from ``v``."""
        key = ("take_point", v)
        if key not in self._memo:
            self._memo[key] = self._take_point(v)
        return self._memo[key]

    def _take_point(self, v: int) -> float:
        top = 2 * v
        pass_value = self.value(-v)
        if self.can_double(Owner.ME, top):
            c = self.cash_point(top)
            lo = self.L(top)
            return _clip(c * _share(pass_value - lo, self.value(top) - lo))
        lo = self.L(top)
        return _clip(_share(pass_value - lo, self.W(top) - lo))

    def dead(self, v: int) -> float:
        return self.p * self.W(v) + (1 - self.p) * self.L(v)

    def live(self, v: int, owner: Owner) -> float:
        xs, ys = [0.0], [self.L(v)]
        if owner != Owner.ME and self.can_double(Owner.OPPONENT, v):
            xs.append(self.take_point(v))
            ys.append(self.value(-v))
        if owner != Owner.OPPONENT and self.can_double(Owner.ME, v):
            xs.append(max(self.cash_point(v), xs[-1]))
            ys.append(self.value(v))
        xs.append(1.0)
        ys.append(self.W(v))
        return float(np.interp(self.p, xs, ys))

    def cubeful(self, v: int, owner: Owner, x: float) -> float:
        return x * self.live(v, owner) + (1 - x) * self.dead(v)


def _share(num: float, den: float) -> float:
    return num / den if abs(den) > 1e-12 else 0.0


def _clip(t: float) -> float:
    return min(max(t, 0.0), 1.0)


def cubeful_equity(probs, ci: CubeInfo, x: float) -> float:
    """The cubeful value for the side to move (before its roll) with the cube as ``ci``
    holds it: money equity per unit of the current cube, or in a match the MWC.

    >>> ci = CubeInfo()
    >>> p = (0.6, 0.0, 0.0, 0.0, 0.0)
    >>> round(cubeful_equity(p, ci, 0.0), 6)     # dead cube: the cubeless equity
    0.2
    >>> round(cubeful_equity(p, ci, 1.0), 3)     # fully live, centred: 2(p-.2)/.6 - 1
    0.333
    """
    s = _Scorer(probs, ci)
    e = s.cubeful(ci.cube, ci.owner, x)
    return float(e / ci.cube if ci.is_money else e)


@dataclass(frozen=True)
class CubeDecision:
    """A cube decision for the side to move, before its roll.

    ``nd``, ``dt``, ``dp``: the equities of No double, Double/take, Double/pass (per unit
    of the current cube; in a match the MWCs converted, see the module); ``mwc``: the
    three MWCs in a match, else None; ``action``: the proper action in gnubg's words;
    ``double`` / ``take`` / ``beaver``: what the doubler and taker should do; ``x``: the
    cube efficiency used; ``probs``: the cubeless probabilities; ``cubeless``: their
    cubeless money equity; ``cube``: the :class:`CubeInfo`; ``ply``: the search depth of
    the probabilities; ``available``: whether the side to move may double at all."""

    nd: float
    dt: float
    dp: float
    action: str
    double: bool
    take: bool
    beaver: bool
    available: bool
    x: float
    probs: tuple[float, ...]
    cubeless: float
    cube: CubeInfo
    mwc: tuple[float, float, float] | None = None
    ply: int = 0
    note: str = ""
    #: what the probabilities come from when not a search ("rollout")
    source: str = ""

    @property
    def best(self) -> float:
        """The equity of the proper action."""
        if not self.available:
            return self.nd
        return max(self.nd, min(self.dt, self.dp))

    @property
    def margin(self) -> float:
        """How clear the decision is: the smaller of the doubler's margin (between no
        double and double) and the taker's (between take and pass)."""
        if not self.available:
            return float("inf")
        return min(abs(self.nd - min(self.dt, self.dp)), abs(self.dt - self.dp))

    def to_dict(self) -> dict[str, Any]:
        """The decision as JSON-ready data (``tavli hint --json``)."""
        d: dict[str, Any] = {
            "action": self.action, "double": self.double, "take": self.take,
            "beaver": self.beaver, "available": self.available,
            "equities": {"no_double": self.nd, "double_take": self.dt,
                         "double_pass": self.dp},
            "cubeless": self.cubeless, "probabilities": list(self.probs), "x": self.x,
            "ply": self.ply, "cube": self.cube.cube, "owner": self.cube.owner.name.lower(),
        }
        if self.source:
            d["source"] = self.source
        if self.mwc is not None:
            d["mwc"] = dict(zip(("no_double", "double_take", "double_pass"), self.mwc,
                                strict=True))
            d["match"] = {"length": self.cube.length, "away": list(self.cube.away),
                          "crawford": self.cube.crawford,
                          "post_crawford": self.cube.post_crawford}
        if self.note:
            d["note"] = self.note
        return d

    def lines(self) -> list[str]:
        """The decision as gnubg prints it."""
        d = "redouble" if self.cube.owner == Owner.ME else "double"
        rows = [(f"No {d}", self.nd, 0), (f"{d.capitalize()}/Take", self.dt, 1),
                (f"{d.capitalize()}/Pass", self.dp, 2)]
        best = self.best
        p = self.probs
        out = [f"Cubeless equity {self.cubeless:+.3f}  ({self.source or f'{self.ply}-ply'}, "
               "cube efficiency "
               f"{self.x:.2f})",
               f"  win {p[0]:.3f}  gammon {p[1]:.3f}  bg {p[2]:.3f}  |  lose "
               f"{1 - p[0]:.3f}  gammon {p[3]:.3f}  bg {p[4]:.3f}",
               "Cubeful equities:"]
        for i, (name, e, k) in enumerate(rows, 1):
            diff = "" if abs(e - best) < 5e-7 else f" ({e - best:+.3f})"
            mwc = f"  MWC {100 * self.mwc[k]:.2f}%" if self.mwc is not None else ""
            out.append(f"{i}. {name:<16}{e:+.3f}{mwc}{diff}")
        out.append(f"Proper cube action: {self.action}{self._action_margin()}")
        if self.note:
            out.append(self.note)
        return out

    def _action_margin(self) -> str:
        if not self.available:
            return ""
        other = [self.nd, min(self.dt, self.dp)]
        return f" ({abs(other[0] - other[1]):.3f})"

    def __str__(self) -> str:
        return "\n".join(self.lines())


#: the proper actions by their catalogue keys (``cube.act.<key>``, ``.re`` for a redouble)
_ACTION_KEYS = {NO_DOUBLE_TAKE: "no_double_take", NO_DOUBLE_BEAVER: "no_double_beaver",
                DOUBLE_TAKE: "double_take", DOUBLE_PASS: "double_pass",
                TOO_GOOD_PASS: "too_good_pass", TOO_GOOD_TAKE: "too_good_take"}
#: why the cube is not available, by its catalogue key (``cube.why.<key>``)
_WHY_KEYS = {"the Crawford game": "crawford", "the opponent owns the cube": "opponent",
             "the game is played without the cube": "unused", "the cube is dead": "dead",
             "the cube is at its highest": "highest", "the cube is not available": "none"}


def action_msg(action: str) -> dict[str, Any]:
    """The proper cube ``action`` (as :func:`decide` writes it) as a catalogue message
    (:func:`tavli.i18n.msg`), for the page and the terminal to write in their language.

    >>> action_msg("Redouble, take")
    {'key': 'cube.act.double_take.re', 'params': {}}
    >>> action_msg("No double (the Crawford game)")["params"]["why"]["key"]
    'cube.why.crawford'
    """
    from tavli.i18n import msg

    re = "redouble" in action.lower()
    base = (action.replace("No redouble", "No double").replace("Redouble,", "Double,")
            .replace("to redouble", "to double"))
    tail = ".re" if re else ""
    if base in _ACTION_KEYS:
        return msg(f"cube.act.{_ACTION_KEYS[base]}{tail}")
    why = base.partition("(")[2].rstrip(")")
    return msg(f"cube.act.none{tail}", why=msg(f"cube.why.{_WHY_KEYS.get(why, 'none')}"))


def decide(probs, ci: CubeInfo, x: float, ply: int = 0) -> CubeDecision:
    """The cube decision for the side to move with cubeless ``probs`` (before its roll),
    the cube and score ``ci`` and cube efficiency ``x``.

    >>> d = decide((0.9, 0.0, 0.0, 0.0, 0.0), CubeInfo(), 0.68)
    >>> d.action, round(d.dt, 3)
    ('Double, pass', 1.532)
    >>> decide((0.6, 0.0, 0.0, 0.0, 0.0), CubeInfo(), 0.68).action
    'No double, take'
    """
    s = _Scorer(probs, ci)
    v = ci.cube
    probs_t = tuple(float(q) for q in np.asarray(probs, dtype=np.float64)[:5])
    cubeless = probs_t[0] * 2 - 1 + probs_t[1] - probs_t[3] + probs_t[2] - probs_t[4]
    nd_raw = s.cubeful(v, ci.owner, x)
    available = s.can_double(Owner.ME, v) and ci.owner != Owner.OPPONENT
    if available:
        dt_raw = s.cubeful(2 * v, Owner.OPPONENT, x)
    else:
        dt_raw = nd_raw
    dp_raw = s.value(v)
    nd_raw, dt_raw, dp_raw = float(nd_raw), float(dt_raw), float(dp_raw)
    mwc: tuple[float, float, float] | None = None
    if ci.is_money:
        nd, dt, dp = nd_raw / v, dt_raw / v, dp_raw / v
    else:
        c, d_ = s.value(v), s.value(-v)
        nd, dt, dp = (float(_share(2 * m - c - d_, c - d_)) for m in (nd_raw, dt_raw, dp_raw))
        mwc = (nd_raw, dt_raw, dp_raw)
    note = ""
    if ci.free_drop and ci.away[0] > 1:
        note = "(post-Crawford, even away: the leader has a free drop)"
    if not available:
        why = ("the Crawford game" if ci.crawford else
               "the opponent owns the cube" if ci.owner == Owner.OPPONENT else
               "the game is played without the cube" if not ci.cube_used else
               "the cube is dead" if not ci.is_money else "the cube is at its highest")
        action = (("No redouble" if ci.owner == Owner.ME else "No double") + f" ({why})")
        return CubeDecision(nd, nd, dp, action, False, True, False, False, x, probs_t,
                            cubeless, ci, mwc, ply, note)
    take = bool(dt <= dp)
    beaver = bool(take and ci.is_money and ci.beavers and dt < 0)
    double = bool(min(dt, dp) > nd)
    re = ci.owner == Owner.ME
    if double:
        action = DOUBLE_TAKE if take else DOUBLE_PASS
    elif not take:
        action = TOO_GOOD_PASS
    elif nd > dp:
        action = TOO_GOOD_TAKE
    else:
        action = NO_DOUBLE_BEAVER if beaver else NO_DOUBLE_TAKE
    if re:
        action = (action.replace("No double", "No redouble")
                  .replace("Double,", "Redouble,").replace("to double", "to redouble"))
    return CubeDecision(nd, dt, dp, action, double, take, beaver, True, x, probs_t,
                        cubeless, ci, mwc, ply, note)
