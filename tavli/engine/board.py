"""The position and move value types, shared by every consumer.

A :class:`Position` is immutable and hashable: the game, the side to move and the board
array of :mod:`tavli.engine.layout` (each side's checkers in its own numbering, plus Plakoto pin
flags). :meth:`Position.legal_moves` is the one source of truth for what may be played.

>>> pos = Position.start("portes")
>>> moves = pos.legal_moves((3, 1))
>>> len(moves), str(moves[0])
(16, '24/21 24/23')
>>> after = pos.play("8/5 6/5", (3, 1))
>>> after.turn, after.points(0)[5]
(1, 2)
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from tavli.engine import ids, notation, render
from tavli.engine.dice import dice_text
from tavli.engine.games import Variant, find_variant
from tavli.engine.layout import BAR, CHECKERS, OFF, SIDE_NAMES
from tavli.engine.rules import Rules
from tavli.engine.view import Dice, Step
from tavli.errors import IllegalMove, InvalidPosition, ParseError

_DICE = re.compile(r"\s*([0-9])\s*[-,/x]?\s*([0-9])\s*")


def parse_dice(dice: str | Sequence[int]) -> Dice:
    """Read dice given as ``"31"``, ``"3-1"``, ``"3 1"`` (or ``3,1``, ``3/1``, ``3x1``) or a
    pair of ints. Nothing else may follow: ``"66x"`` is refused.

    >>> parse_dice("64"), parse_dice([2, 5]), parse_dice(" 5 - 2 ")
    ((6, 4), (2, 5), (5, 2))
    >>> parse_dice("66x")
    Traceback (most recent call last):
    ...
    tavli.errors.ParseError: dice must be two digits 1-6 such as 31 or 3-1, got '66x'
    """
    if isinstance(dice, str):
        m = _DICE.fullmatch(dice)
        if m is None:
            raise ParseError(f"dice must be two digits 1-6 such as 31 or 3-1, got {dice!r}")
        vals = (int(m[1]), int(m[2]))
    else:
        try:
            vals = tuple(int(x) for x in dice)  # type: ignore[assignment]
        except (TypeError, ValueError):
            raise ParseError(f"dice must be two numbers 1-6, got {dice!r}") from None
        if len(vals) != 2:
            raise ParseError(f"dice must be two numbers 1-6, got {dice!r}")
    if not all(1 <= v <= 6 for v in vals):
        raise ParseError(f"each die must be 1-6, got {dice!r}")
    return vals[0], vals[1]  # type: ignore[return-value]


_local = threading.local()


def _workspace():
    ws = getattr(_local, "ws", None)
    if ws is None:
        from tavli.engine.movegen import Workspace

        ws = _local.ws = Workspace()
    return ws


class Position:
    """An immutable position of Portes, Plakoto, Fevga or backgammon.

    ``array`` is ``int8[4, 26]`` as described in :mod:`tavli.engine.layout`; ``turn`` is the side
    to move (0 = white, 1 = black).
    """

    __slots__ = ("game", "turn", "_arr", "_bytes", "__dict__")

    def __init__(self, game: str | int | Variant, array: np.ndarray, turn: int = 0,
                 *, validate: bool = True) -> None:
        self.game = find_variant(game).code
        if turn not in (0, 1):
            raise InvalidPosition(f"turn must be 0 (white) or 1 (black), got {turn!r}")
        self.turn = int(turn)
        arr = np.array(array, dtype=np.int8, copy=True)
        if arr.shape != (4, 26):
            raise InvalidPosition(f"board array must have shape (4, 26), got {arr.shape}")
        arr.setflags(write=False)
        self._arr = arr
        self._bytes = arr.tobytes()
        if validate:
            self.validate()

    @classmethod
    def _trusted(cls, game: int, arr: np.ndarray, turn: int) -> Position:
        """A position from a read-only array the engine produced (no copy, no checks)."""
        p = cls.__new__(cls)
        p.game = game
        p.turn = turn
        p._arr = arr
        p._bytes = arr.tobytes()
        return p

    # --- construction -------------------------------------------------------------------
    @classmethod
    def start(cls, game: str | int | Variant | Rules, turn: int = 0) -> Position:
        """The starting position of ``game`` (or of the game of ``Rules``, whose options
        may choose the start) with ``turn`` to move."""
        if isinstance(game, Rules):
            return cls(game.game, game.variant.start_array(game.options()), turn,
                       validate=False)
        v = find_variant(game)
        return cls(v.code, v.start_array(), turn, validate=False)

    @classmethod
    def from_points(cls, game: str | int | Variant, white: dict[int, int], black: dict[int, int],
                    turn: int = 0, *, pinned: Iterable[tuple[int, int]] = ()) -> Position:
        """Build a position from ``{point: count}`` per side (own numbering; 25 = bar).

        Checkers not placed are borne off. ``pinned`` lists ``(side, point)`` pairs of
        pinned checkers (Plakoto).

        >>> p = Position.from_points("portes", {6: 2}, {1: 15})
        >>> p.off(0), p.pip_count(0)
        (13, 12)
        """
        arr = np.zeros((4, 26), dtype=np.int16)
        for side, pts in ((0, white), (1, black)):
            for p, n in pts.items():
                if not isinstance(p, int) or not 1 <= p <= 25:
                    raise InvalidPosition(f"point must be 1..24 or 25 (bar), got {p!r}")
                if not isinstance(n, int) or n < 0:
                    raise InvalidPosition(f"checker count must be >= 0, got {n!r}")
                arr[side, p] += n
            placed = int(arr[side, 1:].sum())
            if placed > CHECKERS:
                raise InvalidPosition(f"{SIDE_NAMES[side]} has {placed} checkers, more than 15")
            arr[side, OFF] = CHECKERS - placed
        for side, p in pinned:
            if side not in (0, 1) or not 1 <= p <= 24:
                raise InvalidPosition(f"bad pinned checker {(side, p)!r}")
            arr[2 + side, p] = 1
        return cls(game, arr.astype(np.int8), turn)

    # --- validation ---------------------------------------------------------------------
    def validate(self) -> None:
        """Raise :class:`InvalidPosition` unless the position can occur in its game."""
        a = self._arr.astype(np.int16)
        v = self.variant
        if (a < 0).any():
            raise InvalidPosition("checker counts cannot be negative")
        for side in (0, 1):
            total = int(a[side].sum())
            if total != CHECKERS:
                raise InvalidPosition(
                    f"{SIDE_NAMES[side]} has {total} checkers; every side has 15")
            pins = a[2 + side]
            if pins[OFF] or pins[BAR] or ((pins != 0) & (pins != 1)).any():
                raise InvalidPosition("pin flags must be 0 or 1 on points 1..24")
        problem = v.validate(a)
        for p in range(1, 25):
            if problem:
                break
            if a[0, p] and a[1, v.opponent_point(p)]:
                problem = v.shares_point(a, p)
        if problem:
            raise InvalidPosition(problem)

    # --- value semantics ----------------------------------------------------------------
    @property
    def array(self) -> np.ndarray:
        """The board array (read-only)."""
        return self._arr

    def flat(self) -> np.ndarray:
        """A writable flat copy of the board array (int8[104]), as compiled code takes a
        board: the searches' boards are writable, and a read-only one is another type to
        Numba, which would compile every kernel it reaches a second time.

        >>> b = Position.start("portes").flat()
        >>> b.shape, b.dtype, b.flags.writeable
        ((104,), dtype('int8'), True)
        """
        return np.array(self._arr, dtype=np.int8).reshape(-1)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self.game == other.game
                and self.turn == other.turn and self._bytes == other._bytes)

    def __hash__(self) -> int:
        return hash((self.game, self.turn, self._bytes))

    def __repr__(self) -> str:
        return f"Position({self.variant.name!r}, {self.id()!r})"

    def __str__(self) -> str:
        return render.ascii_board(self)

    # --- queries ------------------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        """The game (see :mod:`tavli.engine.games`)."""
        return find_variant(self.game)

    @property
    def game_name(self) -> str:
        """The game's name (``"portes"``, ``"fevga"``...)."""
        return self.variant.name

    def points(self, side: int) -> list[int]:
        """Checkers of ``side`` per point, index = its own point number (index 0 unused)."""
        return [0] + [int(x) for x in self._arr[side, 1:25]]

    def bar(self, side: int) -> int:
        """Checkers of ``side`` on the bar."""
        return int(self._arr[side, BAR])

    def off(self, side: int) -> int:
        """Checkers ``side`` has borne off."""
        return int(self._arr[side, OFF])

    def pinned(self, side: int) -> tuple[int, ...]:
        """Points (own numbering) where a checker of ``side`` is pinned (Plakoto)."""
        return tuple(int(p) for p in np.nonzero(self._arr[2 + side])[0])

    def pip_count(self, side: int) -> int:
        """The pips ``side`` needs to bear off every checker (the bar counts 25)."""
        a = self._arr[side]
        return int(sum(p * int(a[p]) for p in range(1, 26)))

    def first_checker_locked(self, side: int) -> bool:
        """Fevga: does the first-checker rule still keep ``side``'s other checkers on its
        24-point? (Always False in the other games.)"""
        return self.variant.first_checker_locked(self._arr, side)

    def first_checker_passed(self, side: int) -> bool:
        """Fevga: has ``side``'s first checker passed the opponent's start (so the rule no
        longer restricts anything)?"""
        return self.variant.first_checker_passed(self._arr, side)

    def mother_pinned(self, side: int) -> bool:
        """Plakoto: is ``side``'s mother checker pinned?"""
        return self.variant.mother_pinned(self._arr, side)

    def is_finished(self) -> bool:
        """A side has borne off all 15 (Plakoto's mother-checker end is judged by Game)."""
        return bool(self._arr[0, OFF] == CHECKERS or self._arr[1, OFF] == CHECKERS)

    def swap_turn(self) -> Position:
        """The same checkers with the other side to move (a pass)."""
        return Position(self.game, self._arr, 1 - self.turn, validate=False)

    # --- moves --------------------------------------------------------------------------
    def _rules(self, rules: Rules | None) -> Rules:
        if rules is None:
            return _default_rules(self.game)
        if not isinstance(rules, Rules):
            raise TypeError("rules must be a tavli.Rules")
        if rules.game != self.game:
            raise IllegalMove(
                f"rules are for {rules.game_name}, the position is {self.game_name}")
        return rules

    def legal_moves(self, dice: str | Sequence[int], rules: Rules | None = None) -> list[Move]:
        """Every legal turn with ``dice``: one :class:`Move` per distinct final position,
        in a fixed order. Empty when the side to move cannot move (it passes)."""
        d1, d2 = parse_dice(dice)
        flags = self._rules(rules).kernel_flags()
        ws = _workspace()
        n = ws.run(self._arr, self.turn, d1, d2, flags)
        if n == 0:
            return []
        idx = ws.out[:n]
        block = ws.states[idx].copy()  # one copy for all final positions
        block.setflags(write=False)
        raw_steps = ws.steps[idx].tolist()
        game, turn, dd = self.game, 1 - self.turn, (d1, d2)
        moves = []
        for j in range(n):
            after = Position._trusted(game, block[j], turn)
            moves.append(Move(self, after, dd, _step_tuple(raw_steps[j])))
        return moves

    def play(self, move: Move | str, dice: str | Sequence[int] | None = None,
             rules: Rules | None = None) -> Position:
        """The position after ``move`` (a :class:`Move` or its text); the opponent is then
        to move. Text needs ``dice``. Raises :class:`IllegalMove` with the reason."""
        return self.find_move(move, dice, rules).after

    def find_move(self, move: Move | str, dice: str | Sequence[int] | None = None,
                  rules: Rules | None = None) -> Move:
        """The legal :class:`Move` that ``move`` (object or text) denotes."""
        if isinstance(move, Move):
            if move.before != self:
                raise IllegalMove("that move belongs to another position")
            if dice is not None and tuple(sorted(parse_dice(dice))) != tuple(sorted(move.dice)):
                raise IllegalMove(f"that move was made with {dice_text(move.dice)}, not "
                                  f"{dice_text(parse_dice(dice))}")
            legal = self.legal_moves(move.dice, rules)
            for m in legal:
                if m.after == move.after:
                    return m
            raise IllegalMove(f"{move} is not legal here")
        if dice is None:
            raise IllegalMove("dice are needed to play a move given as text")
        return notation.match_move(self, str(move), parse_dice(dice), self._rules(rules))

    # --- formats ------------------------------------------------------------------------
    def id(self) -> str:
        """The tavli position ID (see :mod:`tavli.engine.ids`), worked out once."""
        text = self.__dict__.get("_id")
        if text is None:
            text = self.__dict__["_id"] = ids.position_id(self)
        return text

    @classmethod
    def from_id(cls, text: str, game: str | int | None = None) -> Position:
        """The position ``text`` gives: a tavli position ID, a gnubg Position ID, ``start``
        (with ``game``) or a JSON document (:func:`tavli.engine.ids.parse_position`)."""
        return ids.parse_position(text, cls, game)

    @classmethod
    def from_gnubg_id(cls, text: str, game: str | int = "backgammon", turn: int = 0
                      ) -> Position:
        """The position of gnubg's Position ID ``text`` with ``turn`` to move (it holds
        no turn) in ``game`` (Portes or backgammon)."""
        return ids.parse_gnubg_id(text, cls, game, turn)

    def gnubg_id(self) -> str:
        """gnubg's Position ID (Portes and backgammon), from the side to move's view."""
        return ids.gnubg_position_id(self)

    def to_json(self) -> dict:
        """The JSON position document (docs/formats.md)."""
        return ids.position_to_json(self)

    @classmethod
    def from_json(cls, doc: dict) -> Position:
        """The position a JSON position document describes (checked like an ID)."""
        return ids.position_from_json(doc, cls)


def _step_tuple(raw: list[list[int]]) -> tuple[Step, ...]:
    """Steps ``[[from, to, flag], ...]`` up to the first "from 0" terminator."""
    out = []
    for s, t, f in raw:
        if s == 0:
            break
        out.append((s, t, bool(f)))
    return tuple(out)


_DEFAULT_RULES: dict[int, Rules] = {}


def _default_rules(game: int) -> Rules:
    r = _DEFAULT_RULES.get(game)
    if r is None:
        r = _DEFAULT_RULES[game] = Rules.for_game(game)
    return r


class _once:
    """A property computed once per instance (``functools.cached_property`` without its
    lock: Python 3.11 holds one lock per property across all instances while computing,
    which serializes the threads of a server; a race here computes the same value twice)."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


class Move:
    """One legal turn: the position before and after, the dice, and the single checker
    steps ``(from, to, hit_or_pin)`` in the order they were played (25 = bar, 0 = off).

    ``str(move)`` is the canonical notation (``24/18 13/11``, ``bar/22*``, ``8/4(2)``,
    ``13/9^`` for a Plakoto pin).
    """

    __slots__ = ("before", "after", "dice", "steps", "__dict__")

    def __init__(self, before: Position, after: Position, dice: Dice,
                 steps: tuple[Step, ...]) -> None:
        self.before = before
        self.after = after
        self.dice = dice
        self.steps = steps

    @_once
    def marked_steps(self) -> tuple[Step, ...]:
        """The steps with the marks the notation shows: in Plakoto only the pins that
        still hold when the turn ends (a pin made and released within the turn counts
        for nothing)."""
        steps = self.steps
        if self.before.variant.pins:
            held = self.after.array[3 - self.before.turn]
            steps = tuple((s, t, f and bool(held[25 - t])) for s, t, f in steps)
        return steps

    @_once
    def notation(self) -> str:
        return notation.format_steps(self.marked_steps, self.before.game)

    def seen_by(self, side: int) -> str:
        """The move written in ``side``'s numbering (the mover's own when he is ``side``):
        how the player ``side`` sees the opponent's checkers go on his board.

        >>> m = Position.start("portes").find_move("24/18 13/11", (6, 2))
        >>> m.seen_by(0), m.seen_by(1)
        ('24/18 13/11', '1/7 12/14')
        """
        return notation.format_steps_seen(self.marked_steps, self.before.game,
                                          self.before.turn, side)

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Move({self.notation!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Move) and self.before == other.before
                and self.after == other.after)

    def __hash__(self) -> int:
        return hash((self.before, self.after))
