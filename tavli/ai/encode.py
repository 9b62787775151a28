"""Network inputs: a raw board encoding plus expert features, one encoder per rule family.

Every encoder reads a flat board (``int8``, at least 104 entries: ``b[row * 26 + col]`` is
the layout array of :mod:`tavli.engine.layout`) and writes the inputs for the side ``me`` *to
move* into a float32 vector. Both sides are described in their own numbering, mover
first, so the network sees every position from the side to move.

Raw part (all families), per side and point: ``n >= 1``, ``n >= 2``, ``n >= 3``,
``(n - 3) / 2``; then borne off / 15 (and the bar / 2 where there is one).

Features:

* Portes/backgammon: pip count, blots, direct (1-6) and indirect (7-12) shooters at the
  blots, home-board points, longest prime, anchors in the opponent's home, checkers back;
  contact; pip difference.
* Plakoto: pin flags per point (mine and the opponent's), the mother checkers (how many
  left on the 24-point, the mother alone, the mother pinned), pip count, blots exposed to
  direct shots, home-board points, longest prime, pinned and pinning counts; per side,
  the blots' exposure (the share of the 36 rolls that let an opposing checker land on
  each free blot, summed, and weighted by how far back the blot stands), the lone
  mother's exposure, points held (two or more checkers, or a pinned opposing checker)
  and the longest run of them; contact; per side, over the opponent's 36 rolls (blocked
  points in between respected): the share that pin some free blot, the share that pin
  the lone mother, and the expected depth of the deepest blot pinned.
* Fevga: pip count, first checker locked, not yet started, points held, longest run of
  held points, starting-quarter points held, mobility per die (1..6), trapped by a prime;
  pip difference.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit, types

from tavli.ai.basics import _longest_run, _pips, _raw, is_contact
from tavli.ai.features import (
    N_PORTES2,
    encode_portes2_full,
    encode_portes2_noescapes,
    encode_portes2_nohits,
)
from tavli.ai.race import N_RACE, RACE, encode_race
from tavli.engine.dice import SHOT_ROLLS
from tavli.engine.firstclass import FirstClass
from tavli.engine.games import HITTING, PINNING, RUNNING, VARIANTS, find_variant
from tavli.engine.games.fevga import fevga_opp

N_RAW = 192
N_PORTES = N_RAW + 4 + 16 + 2
N_PLAKOTO = N_RAW + 2 + 48 + 6 + 14 + 1 + 11 + 6
N_FEVGA = N_RAW + 2 + 24 + 2 + 1


PORTES2, PORTES2_NOHITS, PORTES2_NOESCAPES = 3, 4, 5

#: The encoders by name: a network's metadata names the one it was trained with
#: (``inputs``; the family's own when absent). Codes 0-2 are the families' first encoders
#: (their kernel codes, :mod:`tavli.engine.games`); "portes-2" (:mod:`tavli.ai.features`) reads
#: hitting-family boards, and its two ablations leave one group of inputs at zero; "race"
#: (:mod:`tavli.ai.race`) is the race networks' encoder, shared by every family.
ENCODERS: dict[str, int] = {"portes": HITTING, "plakoto": PINNING, "fevga": RUNNING,
                            "portes-2": PORTES2, "portes-2-nohits": PORTES2_NOHITS,
                            "portes-2-noescapes": PORTES2_NOESCAPES, "race": RACE}


def encoder_code(name: str) -> int:
    """The code of the encoder called ``name`` (:data:`ENCODERS`); KeyError if unknown."""
    return ENCODERS[name]


ANY_FAMILY = -1  # what encoder_family says of the race encoder: it reads every family


def encoder_family(code: int) -> int:
    """The rule family (kernel code) whose boards encoder ``code`` reads; ``ANY_FAMILY``
    for the race encoder, which reads every family's.

    >>> encoder_family(encoder_code("portes-2")) == HITTING
    True
    """
    if code == RACE:
        return ANY_FAMILY
    return code if code < PORTES2 else HITTING


def encoder_fits(code: int, family: int) -> bool:
    """Whether encoder ``code`` reads the boards of rule family ``family``.

    >>> encoder_fits(encoder_code("race"), PINNING), encoder_fits(PORTES2, RUNNING)
    (True, False)
    """
    return encoder_family(code) in (family, ANY_FAMILY)


def encoder_name(code: int) -> str:
    """The name of encoder ``code``.

    >>> encoder_name(encoder_code("plakoto"))
    'plakoto'
    """
    return next(k for k, v in ENCODERS.items() if v == code)


def n_inputs(family: int) -> int:
    """Input size of encoder ``family`` (a code of :data:`ENCODERS`; the first three are
    the rule families' kernel codes of :mod:`tavli.engine.games`)."""
    if family == RACE:
        return N_RACE
    if family == PINNING:
        return N_PLAKOTO
    if family == RUNNING:
        return N_FEVGA
    if family >= PORTES2:
        return N_PORTES2
    return N_PORTES


@njit(cache=True, inline="always")
def _free_blot(b, r, o, p, plakoto):
    """Is ``side``'s (row offset ``r``) point ``p`` a blot the opponent (``o``) can land
    on? In Plakoto not when it is pinned or holds a pinned opposing checker."""
    if b[r + p] != 1:
        return False
    return not (plakoto and (b[o + 25 - p] > 0 or b[52 + r + p] == 1))


@njit(cache=True, inline="always")  # called with constants: one compile, not one per value
def _shots_at(b, r, o, p, lo, hi, plakoto, weights):
    """Opposing checkers (bar included) ``lo..hi`` pips behind point ``p``, each counted
    ``weights[distance]``; a pinned checker (Plakoto) does not shoot."""
    q0 = 25 - p  # the point in the opponent's numbering
    total = 0.0
    for q in range(q0 + lo, min(q0 + hi, 25) + 1):
        if b[o + q] > 0 and not (plakoto and b[52 + o + q] == 1):
            total += weights[q - q0]
    return total


_ONES = np.ones(13, dtype=np.float64)
_SHOT_ROLLS = np.array(SHOT_ROLLS, dtype=np.float64)


@njit(cache=True, inline="always")  # called with constants: one compile, not one per value
def _shooters(b, side, lo, hi, plakoto):
    """Opposing points (bar included) ``lo..hi`` pips behind each blot of ``side``."""
    r = side * 26
    o = (1 - side) * 26
    total = 0
    for p in range(1, 25):
        if _free_blot(b, r, o, p, plakoto):
            total += int(_shots_at(b, r, o, p, lo, hi, plakoto, _ONES))
    return total


@njit(cache=True)
def encode_portes(b, me, x):
    """Inputs of the Portes/backgammon network; returns the number written."""
    x[:N_PORTES] = 0.0
    op = 1 - me
    _raw(b, me, x, 0)
    _raw(b, op, x, 96)
    k = N_RAW
    for side in (me, op):
        x[k] = b[side * 26 + 25] * 0.5
        x[k + 1] = b[side * 26] / 15.0
        k += 2
    pm = _pips(b, me)
    po = _pips(b, op)
    contact = is_contact(b)
    for side in (me, op):
        r = side * 26
        blots = 0
        home = 0
        anchors = 0
        back = b[r + 25]
        for p in range(1, 25):
            n = b[r + p]
            if n == 1:
                blots += 1
            if n >= 2:
                if p <= 6:
                    home += 1
                if p >= 19:
                    anchors += 1
            if p >= 19:
                back += n
        x[k] = _pips(b, side) / 100.0
        x[k + 1] = blots / 5.0
        x[k + 2] = _shooters(b, side, 1, 6, False) / 10.0 if contact else 0.0
        x[k + 3] = _shooters(b, side, 7, 12, False) / 10.0 if contact else 0.0
        x[k + 4] = home / 6.0
        x[k + 5] = _longest_run(b, side, 2) / 6.0
        x[k + 6] = anchors / 2.0
        x[k + 7] = back / 5.0
        k += 8
    x[k] = 1.0 if contact else 0.0
    x[k + 1] = (pm - po) / 50.0
    return N_PORTES


@njit(cache=True, inline="always")
def _raw_and_off(b, me, x, n):
    """Clear the ``n`` inputs, then the raw counts of both sides and each side's borne-off
    share (games with no bar); returns the next input's index."""
    x[:n] = 0.0
    _raw(b, me, x, 0)
    _raw(b, 1 - me, x, 96)
    x[N_RAW] = b[me * 26] / 15.0
    x[N_RAW + 1] = b[(1 - me) * 26] / 15.0
    return N_RAW + 2


@njit(cache=True)
def encode_plakoto(b, me, x):
    k = _raw_and_off(b, me, x, N_PLAKOTO)
    op = 1 - me
    for side in (me, op):
        for p in range(1, 25):
            x[k + p - 1] = b[52 + side * 26 + p]
        k += 24
    for side in (me, op):
        r = side * 26
        x[k] = b[r + 24] / 15.0
        x[k + 1] = 1.0 if b[r + 24] == 1 else 0.0
        x[k + 2] = 1.0 if (b[r + 24] == 1 and b[52 + r + 24] == 1) else 0.0
        k += 3
    for side in (me, op):
        r = side * 26
        o = (1 - side) * 26
        blots = 0
        home = 0
        pinned = 0
        pinning = 0
        for p in range(1, 25):
            n = b[r + p]
            if n == 1 and b[o + 25 - p] == 0:
                blots += 1
            if n >= 2 and p <= 6:
                home += 1
            pinned += b[52 + r + p]
            pinning += b[52 + o + p]
        x[k] = _pips(b, side) / 200.0
        x[k + 1] = blots / 5.0
        x[k + 2] = _shooters(b, side, 1, 6, True) / 10.0
        x[k + 3] = home / 6.0
        x[k + 4] = _longest_run(b, side, 2) / 6.0
        x[k + 5] = pinned / 3.0
        x[k + 6] = pinning / 3.0
        k += 7
    x[k] = (_pips(b, me) - _pips(b, op)) / 100.0
    k += 1
    for side in (me, op):
        e, ew, em = _plakoto_exposure(b, side)
        held, run = _plakoto_held(b, side)
        x[k] = e
        x[k + 1] = ew
        x[k + 2] = em
        x[k + 3] = held / 6.0
        x[k + 4] = run / 6.0
        k += 5
    x[k] = 1.0 if is_contact(b) else 0.0
    k += 1
    for side in (me, op):
        p_any, p_mother, loss = _plakoto_pin_rolls(b, side)
        x[k] = p_any
        x[k + 1] = p_mother
        x[k + 2] = loss
        k += 3
    return N_PLAKOTO


@njit(cache=True)
def _plakoto_pin_rolls(b, side):
    """Over the opponent's 36 rolls, for ``side``'s free blots: the share of rolls that pin
    at least one (a checker landing with one die, or with both when a point in between
    is open to it), the share that pin the lone mother, and the expected point / 24 of
    the farthest-back blot that can be pinned."""
    r = side * 26
    o = (1 - side) * 26
    # in the opponent's numbering: blots at t, its movable checkers, points open to it
    blots = np.zeros(15, dtype=np.int64)
    nb = 0
    for p in range(24, 0, -1):
        if _free_blot(b, r, o, p, True) and nb < 15:
            blots[nb] = 25 - p
            nb += 1
    if nb == 0:
        return 0.0, 0.0, 0.0
    shooter = np.zeros(25, dtype=np.bool_)
    open_ = np.zeros(25, dtype=np.bool_)
    for q in range(1, 25):
        shooter[q] = b[o + q] > 0 and b[52 + o + q] == 0
        open_[q] = b[r + 25 - q] <= 1 and b[52 + o + q] == 0
    mother_t = 1 if _free_blot(b, r, o, 24, True) else 0  # a lone mother (his point 1)
    p_any = 0.0
    p_mother = 0.0
    loss = 0.0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            w = 1.0 if d1 == d2 else 2.0
            hit_any = False
            deepest = 0  # my point of the farthest-back pinnable blot
            for i in range(nb):
                t = blots[i]
                ok = False
                if d1 == d2:
                    q = t
                    for _j in range(4):
                        q += d1
                        if q > 24:
                            break
                        if shooter[q]:
                            ok = True
                            break
                        if not open_[q]:
                            break
                else:
                    if t + d1 <= 24 and shooter[t + d1]:
                        ok = True
                    elif t + d2 <= 24 and shooter[t + d2]:
                        ok = True
                    elif t + d1 + d2 <= 24 and shooter[t + d1 + d2] and (
                            open_[t + d1] or open_[t + d2]):
                        ok = True
                if ok:
                    hit_any = True
                    if 25 - t > deepest:
                        deepest = 25 - t
                    if t == mother_t:
                        p_mother += w
            if hit_any:
                p_any += w
                loss += w * deepest / 24.0
    return p_any / 36.0, p_mother / 36.0, loss / 36.0


@njit(cache=True)
def _plakoto_exposure(b, side):
    """For ``side``'s free blots (alone, not pinned, no opposing checker under them):
    the summed share of the 36 rolls that bring an unpinned opposing checker onto each,
    the same weighted by the blot's point / 24, and that share for a lone mother."""
    r = side * 26
    o = (1 - side) * 26
    total = 0.0
    weighted = 0.0
    mother = 0.0
    for p in range(1, 25):
        if not _free_blot(b, r, o, p, True):
            continue
        share = min(_shots_at(b, r, o, p, 1, 12, True, _SHOT_ROLLS), 36.0) / 36.0
        total += share
        weighted += share * p / 24.0
        if p == 24:
            mother = share
    return total, weighted, mother


@njit(cache=True)
def _plakoto_held(b, side):
    """Points ``side`` holds (two or more checkers, or one pinning an opposing checker)
    and the longest run of them."""
    r = side * 26
    o = (1 - side) * 26
    held = 0
    best = 0
    run = 0
    for p in range(1, 25):
        if b[r + p] >= 2 or (b[r + p] >= 1 and b[52 + o + 25 - p] == 1):
            held += 1
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return held, best


@njit(cache=True)
def encode_fevga(b, me, x):
    k = _raw_and_off(b, me, x, N_FEVGA)
    op = 1 - me
    for side in (me, op):
        r = side * 26
        o = (1 - side) * 26
        locked = b[r + 24] == 14
        if locked:
            locked = False
            for p in range(12, 24):
                if b[r + p] > 0:
                    locked = True
        held = 0
        quarter = 0
        for p in range(1, 25):
            if b[r + p] > 0:
                held += 1
                if p >= 19:
                    quarter += 1
        x[k] = _pips(b, side) / 200.0
        x[k + 1] = 1.0 if locked else 0.0
        x[k + 2] = 1.0 if b[r + 24] == 15 else 0.0
        x[k + 3] = held / 12.0
        x[k + 4] = _longest_run(b, side, 1) / 6.0
        x[k + 5] = quarter / 6.0
        for d in range(1, 7):
            mob = 0
            for p in range(d + 1, 25):
                if b[r + p] > 0 and b[o + fevga_opp(p - d)] == 0:
                    if not (p == 24 and locked):
                        mob += 1
            x[k + 5 + d] = mob / 8.0
        k += 12
    # trapped: every opposing checker on board directly behind a six-prime of the other
    for side in (me, op):
        r = side * 26
        o = (1 - side) * 26
        at = 0
        many = False
        for q in range(1, 25):
            if b[o + q] > 0:
                if at != 0:
                    many = True
                at = q
        trapped = at >= 7 and not many
        if trapped:
            for q in range(at - 6, at):
                if b[r + fevga_opp(q)] == 0:
                    trapped = False
        x[k] = 1.0 if trapped else 0.0
        k += 1
    x[k] = (_pips(b, me) - _pips(b, op)) / 100.0
    return N_FEVGA


def encode(b: np.ndarray, me: int, family: int, x: np.ndarray) -> int:
    """Write into ``x`` the inputs of encoder ``family`` (a code of :data:`ENCODERS`: the
    rule families' own are their kernel codes; Portes and backgammon share the hitting one)
    for the flat board ``b`` seen by ``me``; returns their number. Compiled code takes the
    encoder itself as a value instead (:func:`encoder_function`)."""
    return encoder_function(family).dispatcher(b, me, x)


#: how the evaluator calls an encoder (:func:`encoder_function`): flat board, side, inputs
ENCODER_SIGNATURE = types.int64(types.int8[::1], types.int64, types.float32[::1])


@functools.cache
def encoder_function(code: int) -> FirstClass:
    """Encoder ``code`` (:data:`ENCODERS`) as a value compiled code calls by address (the
    evaluator's tables hold their networks' two: :mod:`tavli.engine.firstclass`), with
    :data:`ENCODER_SIGNATURE`.

    >>> encoder_function(encoder_code("race")).dispatcher is encode_race
    True
    """
    fn = {RACE: encode_race, PINNING: encode_plakoto, RUNNING: encode_fevga,
          HITTING: encode_portes, PORTES2: encode_portes2_full,
          PORTES2_NOHITS: encode_portes2_nohits,
          PORTES2_NOESCAPES: encode_portes2_noescapes}[code]
    return FirstClass(fn, ENCODER_SIGNATURE)


def encode_position(position) -> np.ndarray:
    """Inputs for a :class:`tavli.engine.board.Position` seen by its side to move.

    >>> from tavli.engine.board import Position
    >>> encode_position(Position.start("portes")).shape
    (214,)
    """
    fam = position.variant.kernel
    x = np.zeros(n_inputs(fam), dtype=np.float32)
    encode(position.flat(), position.turn, fam, x)
    return x


def family_of(game: int | str) -> int:
    """The rule family (encoder and network) of a game, by code or name: its rule set, so
    Portes and backgammon share one.

    >>> family_of("backgammon") == family_of("portes"), family_of("tapa") == PINNING
    (True, True)
    """
    return find_variant(int(game) if isinstance(game, np.integer) else game).kernel


def family_name(family: int) -> str:
    """The name of a rule family's network: the ``family`` of the first game registered
    with that rule set (``portes``, ``plakoto``, ``fevga``).

    >>> family_name(family_of("backgammon"))
    'portes'
    """
    return next(v.family for v in VARIANTS if v.kernel == family)
