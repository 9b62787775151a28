"""The evaluator: which valuer answers for a position, by its class, as gnubg does.

A position falls in one class (:func:`position_class`):

* **contact**: some checker still has to pass an opposing one, or (Plakoto) a checker is
  pinned: the family's contact network;
* **race**: the sides can no longer meet: the race network where one is given (else the
  contact network), its gammon and backgammon outputs set to 0 where the board rules
  them out (:func:`tavli.ai.race.race_sanity`: a loser with a checker off, or none left
  in the winner's home board);
* **bear-off**: every checker of both sides on its home points 1-6 or off: the bear-off
  databases (:mod:`tavli.ai.bearoff`), exact; the two-sided one up to 6 checkers a side,
  the one-sided one with the race formula above that.

When the sides cannot meet depends on the geometry of the family: in Portes, backgammon
and Plakoto (opposite directions) once each side's rearmost checker has passed the
other's; in Fevga (both sides run the same way round) once both have all their checkers
in their last two quarters (points 1-12), past the other's path.

Compiled code takes the evaluator as one value, :data:`Tables` (:meth:`Evaluator.tables`);
:func:`evaluate` values a position with it and says which valuer answered
(``E_CONTACT``, ``E_RACE``, ``E_BEAROFF1``, ``E_BEAROFF2``: :data:`VALUERS` names them).
The networks' weights hand their encoders over by address (:mod:`tavli.engine.firstclass`):
one compiled ``evaluate`` serves every family without compiling any encoder into itself,
and the searches receive ``evaluate`` itself the same way (:func:`evaluate_function`).

>>> from tavli.engine.board import Position
>>> ev = Evaluator.shipped("portes")
>>> out, used = ev.evaluate([Position.start("portes")])
>>> VALUERS[used[0]], out.shape
('contact net', (1, 5))
"""

from __future__ import annotations

import functools
from collections import namedtuple

import numpy as np
from numba import njit, typeof, types
from numba.extending import typeof_impl

from tavli.ai.bearoff import bearoff_outputs, empty_tables, load_tables
from tavli.ai.encode import is_contact
from tavli.ai.net import N_OUT, Net, NetError, Scratch, forward, make_scratch
from tavli.ai.race import race_sanity
from tavli.ai.shipped import family_net, family_race_net
from tavli.engine.firstclass import FirstClass, TypedCall
from tavli.engine.games import PINNING, RUNNING, Variant, find_variant

C_CONTACT, C_RACE, C_BEAROFF = range(3)
CLASSES = ("contact", "race", "bear-off")

E_CONTACT, E_RACE, E_BEAROFF1, E_BEAROFF2 = range(4)
VALUERS = ("contact net", "race net", "bear-off database (one-sided)",
           "bear-off database (two-sided)")

class Tables(namedtuple("Tables", "contact race bo1 bo2")):
    """An evaluator as compiled code takes it (:meth:`Evaluator.tables`): the contact
    network's :data:`~tavli.ai.net.Weights`, the race network's (no hidden units when
    there is none; each with its encoder, called by address) and the one-sided and
    two-sided bear-off tables (empty when not used).

    Its Numba type is worked out once and kept: Numba's quick typing of arguments does
    not know the encoders' kind of value and would type the whole value again, array by
    array, at every kernel call (80 microseconds; a position's evaluation takes two)."""

    def numba_type(self):
        """Its Numba type (worked out at the first kernel call)."""
        tp = self.__dict__.get("_numba_type")
        if tp is None:
            tp = types.BaseTuple.from_types([typeof(v) for v in self], Tables)
            self.__dict__["_numba_type"] = tp
        return tp

    def __reduce__(self):
        return Tables, tuple(self)  # the values, not the kept type


typeof_impl.register(Tables)(lambda val, c: val.numba_type())


@njit(cache=True)
def position_class(b, family):
    """The class of the flat board ``b`` in rule family ``family`` (``C_CONTACT``,
    ``C_RACE`` or ``C_BEAROFF``), whoever is to move."""
    home = True
    for side in range(2):
        r = side * 26
        if b[r + 25] > 0:
            return C_CONTACT
        for p in range(7, 25):
            if b[r + p] > 0:
                home = False
                break
    if family == PINNING:
        for p in range(52, 104):
            if b[p] != 0:
                return C_CONTACT  # a pinned checker
    if home:
        return C_BEAROFF
    if family == RUNNING:
        for side in range(2):
            r = side * 26
            for p in range(13, 25):
                if b[r + p] > 0:
                    return C_CONTACT
        return C_RACE
    return C_CONTACT if is_contact(b) else C_RACE


@njit(cache=True, inline="always")
def _evaluate(ev, b, side, family, x, h, out):
    """The outputs for ``side`` to move in flat board ``b`` (into ``out``; ``x``, ``h``:
    work arrays of the inputs and hidden units, sized for the larger network) by the
    valuer of its class; returns which valuer answered (``E_*``)."""
    cls = position_class(b, family)
    if cls == C_BEAROFF and ev.bo1.shape[0] > 0:
        used = bearoff_outputs(ev.bo1, ev.bo2, b, side, out)
        if used == 1:
            return E_BEAROFF1
        if used == 2:
            return E_BEAROFF2
    if cls != C_CONTACT and ev.race.b1.shape[0] > 0:
        ev.race.enc(b, side, x)
        forward(ev.race, x, h, out)
        race_sanity(b, side, out)
        return E_RACE
    ev.contact.enc(b, side, x)
    forward(ev.contact, x, h, out)
    if cls != C_CONTACT:
        race_sanity(b, side, out)
    return E_CONTACT


@njit(cache=True)
def evaluate(ev, b, side, family, x, h, out):
    """:func:`_evaluate` compiled on its own, once: what the searches call (typed into
    each of them, it made every search compile it again; docs/design.md)."""
    return _evaluate(ev, b, side, family, x, h, out)


def evaluate_function(tables: Tables) -> FirstClass:
    """:func:`evaluate` as a value compiled code calls by address, for evaluators of the
    type of ``tables`` (every family's is one type): the searches receive it so, and are
    compiled without it (:mod:`tavli.engine.firstclass`)."""
    return _evaluate_function(typeof(tables))


@functools.cache
def _evaluate_function(tables_type) -> FirstClass:
    work = types.float32[::1]
    return FirstClass(evaluate, types.int64(tables_type, types.int8[::1], types.int64,
                                            types.int64, work, work, work))


@njit(cache=True)
def evaluate_many(ev, boards, turns, family, x, h, y, out, used):
    """Outputs (and valuers) of ``ev`` for flat boards ``int8[N, >=104]``, each for its
    side ``turns[k]`` to move (``x``, ``h``, ``y``: work arrays of the inputs, hidden
    units and outputs)."""
    for k in range(boards.shape[0]):
        used[k] = _evaluate(ev, boards[k], turns[k], family, x, h, y)
        for q in range(N_OUT):
            out[k, q] = y[q]


class Evaluator:
    """A family's valuers together: the contact network, an optional race network and
    the bear-off databases (:mod:`tavli.ai.bearoff`; ``bearoff=False`` goes without).

    ``race`` must read the same family as ``contact``."""

    def __init__(self, contact: Net, race: Net | None = None, bearoff: bool = True) -> None:
        if race is not None and race.family != contact.family:
            raise NetError("the race network is of another family than the contact one")
        self.contact = contact
        self.race = race
        self.family = contact.family
        self.bearoff = bearoff
        if bearoff:
            bo1, bo2 = load_tables()
        else:
            bo1, bo2 = empty_tables()
        race = race or _empty_net(contact.encoder)
        self._tables = Tables(contact.weights, race.weights, bo1, bo2)
        self._evaluate_many = TypedCall(evaluate_many)  # its arguments' types never change

    @classmethod
    def shipped(cls, game: int | str) -> Evaluator:
        """The evaluator shipped for ``game``'s family: its networks and the databases."""
        return shipped_evaluator(game)

    @property
    def tables(self) -> Tables:
        """The evaluator as compiled code takes it (the arrays themselves)."""
        return self._tables

    @property
    def n_inputs(self) -> int:
        """The inputs of the larger network (work arrays are sized for it)."""
        return max(self.contact.W1.shape[0], self.race.W1.shape[0] if self.race else 0)

    @property
    def hidden(self) -> int:
        """The hidden units of the larger network."""
        return max(self.contact.hidden, self.race.hidden if self.race else 0)

    def scratch(self, states: int, hash_size: int) -> Scratch:
        """Work arrays (:data:`~tavli.ai.net.Scratch`) that fit every network here."""
        if states < 1 or hash_size & (hash_size - 1) or hash_size < 2 * states:
            raise ValueError("scratch needs states >= 1 and a power-of-two hash_size of at "
                             "least 2 * states")
        return make_scratch(self.n_inputs, self.hidden, states, hash_size)

    def evaluate_arrays(self, boards: np.ndarray,
                        turns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Outputs for board arrays ``(N, 4, 26)`` with ``turns[k]`` to move, and which
        valuer answered for each (codes of :data:`VALUERS`)."""
        flat = np.ascontiguousarray(boards, dtype=np.int8).reshape(len(boards), 104)
        out = np.zeros((len(boards), N_OUT), dtype=np.float32)
        used = np.zeros(len(boards), dtype=np.int64)
        if not flat.flags.writeable:  # one compiled type (every argument's is fixed here)
            flat = flat.copy()
        turns = np.ascontiguousarray(turns, dtype=np.int64).reshape(len(flat))
        f4 = np.float32  # the three work arrays only (a whole Scratch: 25 arrays a call)
        self._evaluate_many(self._tables, flat, turns, int(self.family),
                            np.zeros(self.n_inputs, f4), np.zeros(self.hidden, f4),
                            np.zeros(N_OUT, f4), out, used)
        return out, used

    def evaluate(self, positions) -> tuple[np.ndarray, np.ndarray]:
        """Outputs and valuers for :class:`tavli.engine.board.Position` objects."""
        boards = np.stack([p.array for p in positions])
        return self.evaluate_arrays(boards, np.array([p.turn for p in positions]))

    def __repr__(self) -> str:
        return f"Evaluator({self.contact!r}, race={self.race!r}, bearoff={self.bearoff})"


def shipped_evaluator(game: int | str | Variant) -> Evaluator:
    """The evaluator shipped for ``game``'s family: its trained network, its race network
    where one ships, and the bear-off databases (:class:`~tavli.ai.evaluator.Evaluator`;
    built once per family)."""
    family = find_variant(game).family
    return _family_evaluator(family)


@functools.cache
def _family_evaluator(family: str) -> Evaluator:
    return Evaluator(family_net(family), race=family_race_net(family))


def as_evaluator(net: Net | Evaluator | None, game: int | str | Variant) -> Evaluator:
    """``net`` as an evaluator: a network alone values contact and race positions, with
    the bear-off databases; None is the shipped evaluator of ``game``."""
    if net is None:
        return shipped_evaluator(game)
    if isinstance(net, Evaluator):
        return net
    return Evaluator(net)


def _empty_net(encoder: int) -> Net:
    """A network with no hidden units: "none" for compiled code."""
    from tavli.ai.encode import encoder_family, encoder_name, n_inputs

    n = n_inputs(encoder)
    return Net(encoder_family(encoder), np.zeros((n, 0)), np.zeros(0), np.zeros((0, N_OUT)),
               np.zeros(N_OUT), {"inputs": encoder_name(encoder)})


