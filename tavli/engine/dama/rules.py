"""Dama's rules: a rule set (a variant of :mod:`tavli.engine.games.dama`) and its options.

>>> DamaRules.for_name("box")
DamaRules(name='box', huffing=True)
>>> DamaRules.for_name("russian").compulsory
True
>>> DamaRules.for_name("box", huffing=False).compulsory
True
>>> DamaRules.for_game("dama", ["huffing=off"]).to_dict()
{'game': 'dama', 'huffing': False}
>>> DamaRules.for_name("checkers")
Traceback (most recent call last):
...
tavli.errors.RuleError: unknown Dama rule set 'checkers' (choose box, russian, italian)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from tavli.engine.dama import movegen as mg
from tavli.engine.dama import squares
from tavli.engine.dama.sets import RULE_SETS
from tavli.engine.games import lookup, menu_name
from tavli.engine.games.base import option_games
from tavli.engine.games.dama import DamaVariant
from tavli.engine.options import OPTIONS, convert, option_pairs
from tavli.errors import RuleError

#: PDN's GameType tags for a game written in the other notation than its rule set's
PDN_ALGEBRAIC = "25,W,8,8,A0,0"
PDN_NUMERIC = "25,W,8,8,N2,0"


def dama_variant(name: str | DamaVariant | None) -> DamaVariant:
    """The Dama rule set called ``name`` (any of its names; None: the box rules)."""
    if isinstance(name, DamaVariant):
        return name
    v = lookup(str(name or RULE_SETS[0]).strip().replace("_", "").replace("-", ""))
    if not isinstance(v, DamaVariant):
        raise RuleError(f"unknown Dama rule set {name!r} (choose {', '.join(RULE_SETS)})")
    return v


@dataclass(frozen=True)
class DamaRules:
    """A rule set (:class:`~tavli.engine.games.dama.DamaVariant`, named by ``name``) and
    its option: ``huffing`` (the box rules only; the others always compel a capture).

    * ``box`` — the box text: men move and capture forward only, flying kings, captures
      chain and may turn; a man crowned during a capture goes on capturing as a king;
      capturing is optional, but with ``huffing=True`` (default) a player who could
      capture and did not may be huffed (see :mod:`tavli.play.dama.game`); with
      ``huffing=False`` capturing is compulsory (free choice between sequences).
    * ``russian`` — men capture backwards too, flying kings, a man crowned during a
      capture goes on capturing as a king, compulsory capture with free choice.
    * ``italian`` — FID rules: mirrored board, kings move one square, men capture
      forward only and cannot capture kings, compulsory capture with the priority
      rules.

    Every fact of a rule set is an attribute of its variant (``rules.variant``); the
    properties below read them.
    """

    name: str = RULE_SETS[0]
    huffing: bool = field(default=True)

    def __post_init__(self) -> None:
        v = dama_variant(self.name)
        object.__setattr__(self, "name", v.name)
        object.__setattr__(self, "_variant", v)
        if "huffing" not in v.options:
            object.__setattr__(self, "huffing", OPTIONS["huffing"].neutral)

    def __repr__(self) -> str:
        if self.has_huffing:
            return f"DamaRules(name={self.name!r}, huffing={self.huffing})"
        return f"DamaRules(name={self.name!r})"

    @classmethod
    def for_name(cls, name: str | DamaRules | DamaVariant | None = None,
                 huffing: bool | None = None) -> DamaRules:
        """The rule set called ``name`` (``box``, ``russian``, ``italian`` or an alias),
        with its default options unless ``huffing`` is given."""
        if isinstance(name, DamaRules):
            return name if huffing is None else name.with_options({"huffing": huffing})
        v = dama_variant(name)
        if huffing is None or "huffing" not in v.options:
            return cls.for_game(v)
        return cls.for_game(v, {"huffing": huffing})

    @classmethod
    def for_game(cls, game: str | DamaVariant,
                 options: Mapping[str, Any] | Iterable[str] | None = None) -> DamaRules:
        """The rule set ``game``'s defaults, then ``options`` (a mapping, or ``NAME=VALUE``
        strings as on the command line), as :meth:`tavli.engine.rules.Rules.for_game`."""
        v = dama_variant(game)
        base = cls(v.name, v.options.get("huffing", OPTIONS["huffing"].neutral))
        return base.with_options(options) if options else base

    def with_options(self, options: Mapping[str, Any] | Iterable[str]) -> DamaRules:
        """A copy with options changed; unknown names or values raise RuleError."""
        changes = dict(self.options())
        for name, value in option_pairs(options).items():
            if name not in self.variant.options:
                raise RuleError(f"rule option {name!r} applies to "
                                f"{', '.join(option_games(name))} only, not {self.name}")
            changes[name] = convert(OPTIONS[name], value)
        return DamaRules(self.name, **changes)

    # -- the game interface (as :class:`tavli.engine.rules.Rules`) -----------------------
    @property
    def variant(self) -> DamaVariant:
        """The rule set these rules are."""
        return self.__dict__["_variant"]

    @property
    def game_name(self) -> str:
        return self.name

    def options(self) -> dict[str, Any]:
        """The options that apply to this rule set, by name (what records store)."""
        return {name: getattr(self, name) for name in self.variant.options}

    def to_dict(self) -> dict[str, Any]:
        """The rule set's name (``dama`` for the box rules, as the command line says) and
        its options (what records hold), as :meth:`tavli.engine.rules.Rules.to_dict`."""
        return {"game": menu_name(self.variant), **self.options()}

    # -- properties: the variant's facts ------------------------------------------------
    @property
    def has_huffing(self) -> bool:
        """The rule set offers the huffing option (the box rules; the others always
        compel a capture)."""
        return "huffing" in self.variant.options

    @property
    def title_key(self) -> str:
        """The catalogue key of its name as players say it (``dama.rn.*``; the box rules
        without huffing are their own entry)."""
        return "dama.rn." + (f"{self.name}_compulsory" if self.has_huffing and not self.huffing
                             else self.name)

    def pdn_gametype(self, algebraic: bool) -> str:
        """PDN's GameType tag for a game of these rules written in ``algebraic`` or numeric
        notation."""
        if self.notation == "algebraic" and not algebraic:
            return PDN_NUMERIC
        if self.notation == "numeric" and algebraic and not self.italian_board:
            return PDN_ALGEBRAIC
        return self.variant.pdn_gametype

    @property
    def italian_board(self) -> bool:
        """The mirrored board (dark square in each player's right-hand corner)."""
        return self.variant.italian_board

    @property
    def compulsory(self) -> bool:
        return not self.huffing

    @property
    def flying_kings(self) -> bool:
        return self.variant.flying_kings

    @property
    def men_capture_backwards(self) -> bool:
        return self.variant.men_capture_backwards

    @property
    def men_capture_kings(self) -> bool:
        return self.variant.men_capture_kings

    @property
    def promotion_continues(self) -> bool:
        """A man crowned in the middle of a capture goes on capturing as a king."""
        return self.variant.promotion_continues

    @property
    def draw_plies(self) -> int:
        """Plies (half-moves) without a capture or a man's move that end the game drawn:
        30 (15 moves each) for ``box`` and ``russian``, 80 (40 each) for ``italian``."""
        return self.variant.draw_plies

    @property
    def king_value(self) -> int:
        """A king's worth in men ×100 (the AI's material scale)."""
        return self.variant.king_value

    @cached_property
    def flags(self) -> np.ndarray:
        """The rule flags of the compiled generator (see :mod:`tavli.engine.dama.movegen`)."""
        f = np.zeros(8, dtype=np.int64)
        f[mg.F_MEN_BACK] = self.men_capture_backwards
        f[mg.F_FLYING] = self.flying_kings
        f[mg.F_MAN_TAKES_KING] = self.men_capture_kings
        f[mg.F_PROMO_CONT] = self.promotion_continues
        f[mg.F_COMPULSORY] = self.compulsory
        f[mg.F_ITALIAN] = self.variant.capture_priority
        f[mg.F_HUFFING] = self.huffing
        return f

    @cached_property
    def geometry(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _geometry(self.italian_board)

    @property
    def notation(self) -> str:
        """The notation this rule set's players write moves in (:data:`NOTATIONS`):
        ``"algebraic"`` (Russian draughts: ``c3-d4``, ``c3:e5``, ``c3:e5:g3``) or
        ``"numeric"`` (Italian and the box rules: squares 1-32, ``22-18``, ``22x13``)."""
        return self.variant.notation

    def move_text(self, move, full: bool | None = None) -> str:
        """``move`` (a :class:`~tavli.engine.dama.board.DamaMove`) in the players' notation of
        this rule set (:attr:`notation`); ``full``: every landing square of a capture
        (default: for a multiple capture, as the players write it, or when the short
        form is ambiguous, as the move's own text says).
        A huff first reads ``*5 22-18`` (``*b6 c3-d4``)."""
        if full is None:
            full = len(move.captures) > 1 or (bool(move.text) and
                                              move.text.split()[-1] != move.notation(self))
        text = NOTATIONS[self.notation](move, self, full)
        if move.huff is not None:
            text = f"*{self.square_text(move.huff)} {text}"
        return text

    def square_text(self, square: int) -> str:
        """The square's name in :attr:`notation` (``22`` or ``c3``)."""
        return squares.name(square, self.italian_board, self.notation == "algebraic")

    @property
    def option_text(self) -> str:
        if self.has_huffing and not self.huffing:
            return f"{self.name} (huffing=False)"
        return self.name


def numeric_notation(move, rules: DamaRules, full: bool) -> str:
    """Italian and box notation: the squares 1-32 (:func:`tavli.engine.dama.board.square_name`),
    ``-`` for a move, ``x`` for a capture (``22-18``, ``22x13``, ``full``: ``22x13x6``)."""
    return move.notation(rules, algebraic=False, full=full)


def algebraic_notation(move, rules: DamaRules, full: bool) -> str:
    """Russian notation: squares as a1..h8, ``-`` for a move, ``:`` between the squares
    of a capture, every landing square of a multiple capture (``c3-d4``, ``c3:e5``,
    ``c3:e5:g3``; ``full`` changes nothing: the route is always written)."""
    def name(square: int) -> str:
        return squares.name(square, rules.italian_board, algebraic=True)

    if not move.captures:
        return f"{name(move.start)}-{name(move.end)}"
    return ":".join(name(s) for s in (move.start, *(move.path or (move.end,))))


#: the function that writes a move in each notation (``DamaVariant.notation``)
NOTATIONS = {"numeric": numeric_notation, "algebraic": algebraic_notation}


_GEO: dict[bool, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _geometry(italian: bool):
    if italian not in _GEO:
        _GEO[italian] = mg.geometry(italian)
    return _GEO[italian]
