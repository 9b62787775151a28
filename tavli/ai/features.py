"""The "portes-2" inputs of the hitting family (Portes/backgammon): the raw board and the
features strong players count, computed exactly where that is cheap.

Every group is given for both sides, the side to move first, each in its own numbering
(so the inputs of a position do not depend on which colour is to move). The groups
(:data:`GROUPS`; docs/ai.md has the table):

* ``raw``: four units per point and side (``n >= 1``, ``n >= 2``, ``n >= 3``,
  ``(n - 3) / 2``), as the "portes" encoder; ``bar-off``: the bar / 2 and borne off / 15;
* ``race``: pip counts / 100, the pip difference / 50, contact;
* ``hits``: over the opponent's 36 rolls, the share that hit at least one of the side's
  blots, the share that hit two, and the mean pips lost to the farthest-advanced blot hit
  (/ 24); entering from the bar first, doubles' four steps, combination shots only over
  open points (contact positions only);
* ``escapes``: the share of the 36 rolls that let the side's rearmost checker escape
  (land beyond every opposing block among the eight points in front of it, over open
  points), and the containment: one minus the lowest such share over the points 13-24;
* ``anchors``: points held in the opponent's home board / 3, the most advanced of them
  (``(25 - p) / 6``), points held in the opponent's outer board / 6;
* ``timing``: pips the side can play without breaking a home-board point / 100 (checkers
  outside home to the 7-point, spares in home down to the 1-point);
* ``points``: home-board points / 6, outer-board points / 6, slots (blots on points 1-7)
  / 3, blots / 5;
* ``bar``: the share of rolls that enter a checker from the bar, the opponent's home
  board closed;
* ``prime``: the longest run of held points / 6 and its highest point / 24;
* ``back``: checkers on the bar or in the opponent's home board / 5, the rearmost
  checker's point / 25.

The ablation encoders ``portes-2-nohits`` and ``portes-2-noescapes`` leave one group at
zero (the measurements of docs/ai.md, Training, replay with them).

>>> from tavli.engine.board import Position
>>> x = np.zeros(N_PORTES2, np.float32)
>>> b = Position.start("backgammon").flat()
>>> encode_portes2(b, 0, x, 0) == N_PORTES2, round(36 * float(x[group_slice("escapes")][0]))
(True, 15)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tavli.ai.basics import _pips, _raw, is_contact

#: The input groups in order: (name, size).
GROUPS = (("raw", 192), ("bar-off", 4), ("race", 4), ("hits", 6), ("escapes", 4),
          ("anchors", 6), ("timing", 2), ("points", 8), ("bar", 4), ("prime", 4),
          ("back", 4))
N_PORTES2 = sum(n for _, n in GROUPS)


def group_slice(name: str) -> slice:
    """Where group ``name`` lies in the inputs."""
    k = 0
    for g, n in GROUPS:
        if g == name:
            return slice(k, k + n)
        k += n
    raise KeyError(name)


K_RACE = group_slice("race").start
K_HITS = group_slice("hits").start
K_ESC = group_slice("escapes").start
K_ANCH = group_slice("anchors").start
K_TIME = group_slice("timing").start
K_PTS = group_slice("points").start
K_BAR = group_slice("bar").start
K_PRIME = group_slice("prime").start
K_BACK = group_slice("back").start

#: Groups an ablation leaves at zero (bits of ``drop``).
DROP_HITS = 1
DROP_ESCAPES = 2

ESC_WINDOW = 8  # the blocks an escape must pass: those up to this many pips ahead
_BOARD = sum(1 << t for t in range(1, 25))  # bits 1..24


def _escape_table() -> np.ndarray:
    """``table[m]``: of the 36 rolls, how many let a checker escape when bit ``i`` of the
    12-bit ``m`` says the point ``i + 1`` pips ahead is blocked: land on an open point
    beyond the farthest block within :data:`ESC_WINDOW` pips, every point landed on on
    the way open (a double: up to four steps). No block in the window: all 36."""
    m = np.arange(4096)
    blocked = [np.zeros(4096, bool)] + [(m >> (d - 1)) & 1 == 1 for d in range(1, 13)]
    far = np.zeros(4096, np.int64)  # the farthest block in the window (0: none)
    for d in range(1, ESC_WINDOW + 1):
        far = np.where(blocked[d], d, far)

    def lands_past(d):
        if d > 12:
            return np.ones(4096, bool)
        return ~blocked[d] & (d > far)

    count = np.zeros(4096, np.int64)
    for a in range(1, 7):
        for c in range(a, 7):
            if a == c:
                ok = np.zeros(4096, bool)
                alive = np.ones(4096, bool)
                for j in range(1, 5):
                    d = j * a
                    if d <= 12:
                        alive &= ~blocked[d]
                    ok |= alive & (d > far)
                count += ok
            else:
                via = (~blocked[a]) | (~blocked[c])
                ok = lands_past(a) | lands_past(c) | (lands_past(a + c) & via)
                count += 2 * ok
    return np.where(far == 0, 36, count).astype(np.int64)


ESCAPES = _escape_table()


@njit(cache=True)
def _made_mask(b, r):
    """Bit ``t`` set where the side of row offset ``r`` holds its point ``t`` (1-24)."""
    m = 0
    for t in range(1, 25):
        if b[r + t] >= 2:
            m |= 1 << t
    return m


@njit(cache=True, inline="always")
def _escapes_at(omade, p):
    """Escaping rolls (of 36) of a checker on its point ``p`` (25: the bar), ``omade``
    the opponent's :func:`_made_mask` (in the opponent's numbering)."""
    return ESCAPES[(omade >> (26 - p)) & 0xFFF]


@njit(cache=True)
def _escapes(b, side):
    """``side``'s rearmost checker's escaping rolls and the containment: one minus the
    fewest escaping rolls over the points 13-24 (shares of 36)."""
    r = side * 26
    omade = _made_mask(b, (1 - side) * 26)
    back = 0
    for p in range(25, 0, -1):
        if b[r + p] > 0:
            back = p
            break
    worst = 36
    for p in range(13, 25):
        e = _escapes_at(omade, p)
        if e < worst:
            worst = e
    return _escapes_at(omade, back) / 36.0 if back > 0 else 0.0, 1.0 - worst / 36.0


@njit(cache=True, inline="always")
def _top_bit(m):
    t = 24
    while t > 0 and not (m >> t) & 1:
        t -= 1
    return t


@njit(cache=True, inline="always")  # called with constants: one compile, not one per value
def _pair_hits(b, o, a, c, src, blot, open_):
    """Non-double ``a``-``c`` (a < c): the set of blots the opponent (row offset ``o``)
    can hit and whether two can be hit. Everything in the opponent's numbering: ``src``
    his checkers on points 1-24, ``blot`` and ``open_`` the points where the blots are and
    where he may land."""
    k = b[o + 25]
    if k == 0:
        ha = (src >> a) & blot
        hc = (src >> c) & blot
        h = ha | hc | ((((src >> a) & open_) >> c) & blot) | ((((src >> c) & open_) >> a) & blot)
        if h & (h - 1) == 0:
            return h, False  # one blot within reach at most
        if ((ha >> c) & blot) != 0 or ((hc >> a) & blot) != 0:
            return h, True  # one checker hits twice
        for ta in range(1, 25):  # two checkers, one die each
            if (ha >> ta) & 1:
                for tc in range(1, 25):
                    if (hc >> tc) & 1 and tc != ta:
                        if ta + a != tc + c or b[o + ta + a] >= 2:
                            return h, True
        return h, False
    if k == 1:  # enter with one die, then any checker moves the other
        h = 0
        two = False
        for e, f in ((a, c), (c, a)):
            bit = 1 << (25 - e)
            if not open_ & bit:
                continue
            rest = blot & ~bit
            hf = ((src | bit) >> f) & rest
            h |= hf | (blot & bit)
            if blot & bit and hf:
                two = True
        return h, two
    both = (1 << (25 - a)) | (1 << (25 - c))  # two or more on the bar: both dice enter
    h = both & blot
    return h, h == both


@njit(cache=True, inline="always")  # called with constants: one compile, not one per value
def _double_hits(b, o, d, src, blot, open_):
    """The double ``d``-``d``: as :func:`_pair_hits` (checkers on the bar enter first)."""
    k = b[o + 25]
    steps = 4
    h = 0
    if k > 0:
        bit = 1 << (25 - d)
        if not open_ & bit:
            return 0, False
        steps = max(0, 4 - k)
        if blot & bit:
            h = bit
            blot = blot & ~bit
        src = src | bit
    first = h
    cur = src
    for _j in range(steps):
        cur = (cur >> d) & open_
        h |= cur & blot
    if first:
        return h, h != first
    if h & (h - 1) == 0:
        return h, False
    # two hits: one checker reaching its second blot, or two reaching different first ones
    b1 = 99
    t1 = -1
    b2 = 99
    for q in range(1, 25):
        if not (src >> q) & 1:
            continue
        f1 = 0
        ft = 0
        t = q
        for j in range(1, steps + 1):
            t -= d
            if t < 1 or not (open_ >> t) & 1:
                break
            if (blot >> t) & 1:
                if f1 == 0:
                    f1 = j
                    ft = t
                else:
                    return h, True
        if f1 == 0:
            continue
        if ft == t1:
            b1 = min(b1, f1)
        elif f1 < b1:
            b2 = b1
            b1 = f1
            t1 = ft
        elif f1 < b2:
            b2 = f1
    return h, b1 + b2 <= steps


@njit(cache=True)
def hit_rolls(b, side):
    """Over the opponent's 36 rolls: the share that hit at least one of ``side``'s blots,
    the share that hit two or more, and the mean of the pips the farthest-advanced blot
    hit loses (/ 24; 0 when none is hit). Checkers on the bar enter first; a combination
    shot lands on open points on its way; a double moves four steps."""
    r = side * 26
    o = (1 - side) * 26
    blot = 0
    block = 0
    src = 0
    for t in range(1, 25):  # the opponent's numbering: my point 25 - t
        n = b[r + 25 - t]
        if n == 1:
            blot |= 1 << t
        elif n >= 2:
            block |= 1 << t
        if b[o + t] > 0:
            src |= 1 << t
    if blot == 0:
        return 0.0, 0.0, 0.0
    open_ = _BOARD & ~block
    one = 0.0
    two = 0.0
    loss = 0.0
    for a in range(1, 7):
        for c in range(a, 7):
            if a == c:
                h, dbl = _double_hits(b, o, a, src, blot, open_)
                w = 1.0
            else:
                h, dbl = _pair_hits(b, o, a, c, src, blot, open_)
                w = 2.0
            if h:
                one += w
                loss += w * _top_bit(h)
                if dbl:
                    two += w
    return one / 36.0, two / 36.0, loss / (36.0 * 24.0)


@njit(cache=True)
def timing(b, side):
    """Pips ``side`` can play without breaking a home-board point: each checker outside
    its home board (the bar included) to the 7-point, each spare in the home board (a
    blot, or a third checker and more) down to the 1-point."""
    r = side * 26
    t = 0
    for p in range(7, 26):
        t += b[r + p] * (p - 6)
    for p in range(2, 7):
        n = b[r + p]
        t += (n if n == 1 else max(0, n - 2)) * (p - 1)
    return t


@njit(cache=True)
def _structure(b, side, x, k):
    """The anchors, points, bar, prime and back groups of ``side`` (its values at
    ``k`` within each group: 0 for the side to move, 1 for the opponent)."""
    r = side * 26
    o = (1 - side) * 26
    anchors = 0
    advanced = 0
    outer_op = 0
    home = 0
    outer = 0
    slots = 0
    blots = 0
    back = b[r + 25]
    run = 0
    best = 0
    top = 0
    for p in range(1, 25):
        n = b[r + p]
        if n == 1:
            blots += 1
            if p <= 7:
                slots += 1
        if n >= 2:
            if p <= 6:
                home += 1
            elif p <= 12:
                outer += 1
            elif p <= 18:
                outer_op += 1
            else:
                anchors += 1
                if advanced == 0:
                    advanced = 25 - p
            run += 1
            if run >= best:
                best = run
                top = p
        else:
            run = 0
        if p >= 19:
            back += n
    rear = 0
    for p in range(25, 0, -1):
        if b[r + p] > 0:
            rear = p
            break
    closed = 0  # the opponent's home points, where this side enters
    for t in range(1, 7):
        if b[o + t] >= 2:
            closed += 1
    x[K_ANCH + 3 * k] = anchors / 3.0
    x[K_ANCH + 3 * k + 1] = advanced / 6.0
    x[K_ANCH + 3 * k + 2] = outer_op / 6.0
    x[K_TIME + k] = timing(b, side) / 100.0
    x[K_PTS + 4 * k] = home / 6.0
    x[K_PTS + 4 * k + 1] = outer / 6.0
    x[K_PTS + 4 * k + 2] = slots / 3.0
    x[K_PTS + 4 * k + 3] = blots / 5.0
    x[K_BAR + 2 * k] = 1.0 - (closed / 6.0) ** 2
    x[K_BAR + 2 * k + 1] = 1.0 if closed == 6 else 0.0
    x[K_PRIME + 2 * k] = best / 6.0
    x[K_PRIME + 2 * k + 1] = top / 24.0 if best >= 2 else 0.0
    x[K_BACK + 2 * k] = back / 5.0
    x[K_BACK + 2 * k + 1] = rear / 25.0


@njit(cache=True)
def encode_portes2(b, me, x, drop):
    """The "portes-2" inputs of flat board ``b`` for ``me`` to move into ``x``, leaving
    the groups of the ``drop`` bits (``DROP_*``) at zero; returns the number written."""
    return _portes2(b, me, x, drop)


@njit(cache=True)
def encode_portes2_full(b, me, x):
    """:func:`encode_portes2` with every group, the shipped networks' inputs: compiled on
    its own (the body typed in, no second library to link) for the evaluator, which
    calls it by address (:func:`tavli.ai.encode.encoder_function`)."""
    return _portes2(b, me, x, 0)


@njit(cache=True)
def encode_portes2_nohits(b, me, x):
    """The ablation encoder "portes-2-nohits"."""
    return encode_portes2(b, me, x, DROP_HITS)


@njit(cache=True)
def encode_portes2_noescapes(b, me, x):
    """The ablation encoder "portes-2-noescapes"."""
    return encode_portes2(b, me, x, DROP_ESCAPES)


@njit(cache=True, inline="always")
def _portes2(b, me, x, drop):
    """The body of :func:`encode_portes2`."""
    x[:N_PORTES2] = 0.0
    op = 1 - me
    _raw(b, me, x, 0)
    _raw(b, op, x, 96)
    contact = is_contact(b)
    for k in range(2):
        side = me if k == 0 else op
        x[192 + 2 * k] = b[side * 26 + 25] * 0.5
        x[193 + 2 * k] = b[side * 26] / 15.0
        x[K_RACE + k] = _pips(b, side) / 100.0
        _structure(b, side, x, k)
        if contact:
            if not drop & DROP_HITS:
                p1, p2, loss = hit_rolls(b, side)
                x[K_HITS + 3 * k] = p1
                x[K_HITS + 3 * k + 1] = p2
                x[K_HITS + 3 * k + 2] = loss
            if not drop & DROP_ESCAPES:
                esc, contain = _escapes(b, side)
                x[K_ESC + 2 * k] = esc
                x[K_ESC + 2 * k + 1] = contain
    x[K_RACE + 2] = (_pips(b, me) - _pips(b, op)) / 50.0
    x[K_RACE + 3] = 1.0 if contact else 0.0
    return N_PORTES2
