"""Dama rule sets: ``box`` (the game box's text, default), ``russian`` and ``italian``.

>>> DamaRules.for_name("box")
DamaRules(name='box', huffing=True)
>>> DamaRules.for_name("russian").compulsory
True
>>> DamaRules.for_name("box", huffing=False).compulsory
True
>>> DamaRules.for_name("checkers")
Traceback (most recent call last):
...
tavli.errors.RuleError: unknown Dama rule set 'checkers' (choose box, russian, italian)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from tavli.engine.dama import movegen as mg
from tavli.engine.dama import squares
from tavli.engine.dama.sets import ALIASES, RULE_SETS
from tavli.errors import RuleError

#: PDN's GameType of each rule set (numeric notation; ``PDN_ALGEBRAIC`` for algebraic)
PDN_GAMETYPE = {"russian": "25,W,8,8,A0,0", "italian": "22,W,8,8,N2,1", "box": "25,W,8,8,N2,0"}
PDN_ALGEBRAIC = "25,W,8,8,A0,0"
PDN_NUMERIC = "25,W,8,8,N2,0"


@dataclass(frozen=True)
class DamaRules:
    """One rule set and its option.

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
    """

    name: str = "box"
    huffing: bool = field(default=True)

    def __post_init__(self) -> None:
        if self.name not in RULE_SETS:
            raise RuleError(f"unknown Dama rule set {self.name!r} "
                            f"(choose {', '.join(RULE_SETS)})")
        if self.name != "box" and self.huffing:
            object.__setattr__(self, "huffing", False)

    def __repr__(self) -> str:
        if self.name == "box":
            return f"DamaRules(name='box', huffing={self.huffing})"
        return f"DamaRules(name={self.name!r})"

    @classmethod
    def for_name(cls, name: str | DamaRules | None = None, huffing: bool | None = None,
                 ) -> DamaRules:
        """The rule set called ``name`` (``box``, ``russian``, ``italian`` or an alias)."""
        if isinstance(name, DamaRules):
            if huffing is None or name.name != "box":
                return name
            return cls("box", huffing)
        key = (name or "box").strip().lower().replace("-", "").replace("_", "")
        key = ALIASES.get(key, key)
        if key not in RULE_SETS:
            raise RuleError(f"unknown Dama rule set {name!r} (choose {', '.join(RULE_SETS)})")
        if key == "box":
            return cls("box", True if huffing is None else bool(huffing))
        return cls(key, False)

    # -- properties -------------------------------------------------------------------
    @property
    def has_huffing(self) -> bool:
        """The rule set offers the huffing option (the box rules; the others always
        compel a capture)."""
        return self.name == "box"

    @property
    def title_key(self) -> str:
        """The catalogue key of its name as players say it (``dama.rn.*``; the box rules
        without huffing are their own entry)."""
        return "dama.rn." + ("box_compulsory" if self.has_huffing and not self.huffing
                             else self.name)

    def pdn_gametype(self, algebraic: bool) -> str:
        """PDN's GameType tag for a game of these rules written in ``algebraic`` or numeric
        notation."""
        if self.notation == "algebraic" and not algebraic:
            return PDN_NUMERIC
        if self.notation == "numeric" and algebraic and self.name != "italian":
            return PDN_ALGEBRAIC
        return PDN_GAMETYPE[self.name]

    @property
    def italian_board(self) -> bool:
        """The mirrored board (dark square in each player's right-hand corner)."""
        return self.name == "italian"

    @property
    def compulsory(self) -> bool:
        return self.name != "box" or not self.huffing

    @property
    def flying_kings(self) -> bool:
        return self.name != "italian"

    @property
    def men_capture_backwards(self) -> bool:
        return self.name == "russian"

    @property
    def men_capture_kings(self) -> bool:
        return self.name != "italian"

    @property
    def promotion_continues(self) -> bool:
        """A man crowned in the middle of a capture goes on capturing as a king."""
        return self.name != "italian"

    @property
    def draw_plies(self) -> int:
        """Plies (half-moves) without a capture or a man's move that end the game drawn:
        30 (15 moves each) for ``box`` and ``russian``, 80 (40 each) for ``italian``."""
        return 80 if self.name == "italian" else 30

    @property
    def king_value(self) -> int:
        """A king's worth in men ×100 (the AI's material scale)."""
        return 250 if self.name == "italian" else 300

    @cached_property
    def flags(self) -> np.ndarray:
        """The rule flags of the compiled generator (see :mod:`tavli.engine.dama.movegen`)."""
        f = np.zeros(8, dtype=np.int64)
        f[mg.F_MEN_BACK] = self.men_capture_backwards
        f[mg.F_FLYING] = self.flying_kings
        f[mg.F_MAN_TAKES_KING] = self.men_capture_kings
        f[mg.F_PROMO_CONT] = self.promotion_continues
        f[mg.F_COMPULSORY] = self.compulsory
        f[mg.F_ITALIAN] = self.name == "italian"
        f[mg.F_HUFFING] = self.name == "box" and self.huffing
        return f

    @cached_property
    def geometry(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _geometry(self.italian_board)

    @property
    def notation(self) -> str:
        """The notation this rule set's players write moves in (:data:`NOTATIONS`):
        ``"algebraic"`` (Russian draughts: ``c3-d4``, ``c3:e5``, ``c3:e5:g3``) or
        ``"numeric"`` (Italian and the box rules: squares 1-32, ``22-18``, ``22x13``)."""
        return NOTATIONS[self.name][0]

    def move_text(self, move, full: bool | None = None) -> str:
        """``move`` (a :class:`~tavli.engine.dama.board.DamaMove`) in the players' notation of
        this rule set (:attr:`notation`); ``full``: every landing square of a capture
        (default: for a multiple capture, as the players write it, or when the short
        form is ambiguous, as the move's own text says).
        A huff first reads ``*5 22-18`` (``*b6 c3-d4``)."""
        if full is None:
            full = len(move.captures) > 1 or (bool(move.text) and
                                              move.text.split()[-1] != move.notation(self))
        text = NOTATIONS[self.name][1](move, self, full)
        if move.huff is not None:
            text = f"*{self.square_text(move.huff)} {text}"
        return text

    def square_text(self, square: int) -> str:
        """The square's name in :attr:`notation` (``22`` or ``c3``)."""
        return squares.name(square, self.italian_board, self.notation == "algebraic")

    @property
    def option_text(self) -> str:
        if self.name == "box":
            return "box" if self.huffing else "box (huffing=False)"
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


#: each rule set's notation: its name and the function that writes a move in it
NOTATIONS = {"box": ("numeric", numeric_notation), "russian": ("algebraic", algebraic_notation),
             "italian": ("numeric", numeric_notation)}


_GEO: dict[bool, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _geometry(italian: bool):
    if italian not in _GEO:
        _GEO[italian] = mg.geometry(italian)
    return _GEO[italian]
