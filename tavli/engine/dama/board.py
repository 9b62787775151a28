"""Dama positions, moves, square numbering and FEN.

Squares are numbered 1..32 row by row from Black's side, left to right as White sees the
board, as PDN does for the 8x8 games (White starts on 21..32, Black on 1..12):

* ``box`` and ``russian``: a1 is dark (a light square in each player's right-hand corner);
  square 1 is b8, 4 is h8, 5 is a7, 22 is c3, 29 is a1, 32 is g1. Russian draughts also
  has its own algebraic notation (``c3-d4``), which :mod:`tavli.play.dama.pdn` writes for it;
  both are read everywhere.
* ``italian``: the board is mirrored (FID: a dark square in each player's right-hand
  corner): square 1 is a8, 4 is g8, 5 is b7, 29 is b1, 32 is h1 — the numbering of the
  Federazione Italiana Dama and of pydraughts' ``italian`` variant.

>>> pos = Position.start("russian")
>>> pos.fen()
'W:W21-32:B1-12'
>>> [str(m) for m in pos.legal_moves()][:3]
['21-17', '22-17', '22-18']
>>> square_name(22, "russian", algebraic=True), square_name(22, "italian", algebraic=True)
('c3', 'd3')
>>> [str(m) for m in pos.play("22-18").play("11-15").legal_moves()]
['18x11']
>>> pos.play("22-19")
Traceback (most recent call last):
...
tavli.errors.IllegalMove: 22-19 is not a legal move here
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

import numpy as np

from tavli.engine.dama import movegen as mg
from tavli.engine.dama import squares
from tavli.engine.dama.rules import DamaRules
from tavli.errors import IllegalMove, InvalidPosition, ParseError

WHITE, BLACK = 0, 1
FULL = (1 << 32) - 1
START_WHITE = sum(1 << i for i in range(20, 32))
START_BLACK = sum(1 << i for i in range(12))
FILES = squares.FILES


def _rules(rules) -> DamaRules:
    return DamaRules.for_name(rules)


def square_coords(square: int, rules=None) -> tuple[int, int]:
    """``(rank, file)``, both 0-based from White's side and the a-file, of square 1..32."""
    return squares.coords(square, _rules(rules).italian_board)


def square_at(rank: int, file: int, rules=None) -> int | None:
    """The square number on ``(rank, file)`` (0-based), or None for a light square."""
    return squares.at(rank, file, _rules(rules).italian_board)


def square_name(square: int, rules=None, algebraic: bool = False) -> str:
    """``"22"`` or, with ``algebraic``, ``"c3"``."""
    return squares.name(square, _rules(rules).italian_board, algebraic)


MAX_DIGITS = 6  # longer numbers are never a square (nor read with int())


def shown(text: str, limit: int = 24) -> str:
    """``repr(text)``, shortened to ``limit`` characters and ``...`` for error messages."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} chars)"


def parse_square(text: str, rules=None) -> int:
    """Square number from ``"22"`` or ``"c3"``.

    >>> parse_square("c3", "russian"), parse_square("22", "russian")
    (22, 22)
    >>> parse_square("2\u00b2")
    Traceback (most recent call last):
    ...
    tavli.errors.ParseError: cannot read square '2²' (a number 1..32 or a name such as c3)
    """
    t = text.strip().lower()
    if t.isascii() and t.isdigit():
        n = int(t) if len(t) <= MAX_DIGITS else 0
        if 1 <= n <= 32:
            return n
        raise ParseError(f"square {shown(text)} is not 1..32")
    m = re.fullmatch(r"([a-h])([1-8])", t)
    if not m:
        raise ParseError(f"cannot read square {shown(text)} (a number 1..32 or a name "
                         f"such as c3)")
    sq = square_at(int(m.group(2)) - 1, FILES.index(m.group(1)), rules)
    if sq is None:
        raise ParseError(f"{text} is a light square on the {_rules(rules).name} board")
    return sq


# ----------------------------------------------------------------------------------------
# moves


@dataclass(frozen=True)
class DamaMove:
    """One move: start and end square (1..32), the landing squares of a capture (one per
    captured piece, the last is ``end``), the captured squares in order, whether the
    piece is a king, whether it is crowned, and under the box rules the piece huffed
    before it (``huff``) and, for a quiet move that declined a capture, the pieces that
    could have captured (``declined``)."""

    start: int
    end: int
    path: tuple[int, ...] = ()
    captures: tuple[int, ...] = ()
    king: bool = False
    promotes: bool = False
    huff: int | None = None
    declined: tuple[int, ...] = field(default=(), compare=False)
    text: str = field(default="", compare=False)

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    def notation(self, rules=None, algebraic: bool = False, full: bool = False) -> str:
        """``22-18`` / ``22x13`` (``full``: every landing square, ``22x13x6``)."""
        def name(s):
            return square_name(s, rules, algebraic)
        if not self.captures:
            return f"{name(self.start)}-{name(self.end)}"
        squares = [self.start] + (list(self.path) if full else [self.end])
        return "x".join(name(s) for s in squares)

    def __str__(self) -> str:
        return self.text or self.notation()

    def key(self) -> tuple:
        """What makes two moves the same move: start, end, captured set, promotion, huff."""
        return (self.start, self.end, frozenset(self.captures), self.promotes, self.huff)


def _move_from_row(row: np.ndarray) -> DamaMove:
    n = int(row[mg.C_NPATH])
    decl = int(row[mg.C_DECL])
    return DamaMove(
        start=int(row[mg.C_FROM]) + 1, end=int(row[mg.C_TO]) + 1,
        path=tuple(int(row[mg.C_PATH + j]) + 1 for j in range(n)),
        captures=tuple(int(row[mg.C_CSEQ + j]) + 1 for j in range(n)),
        king=bool(row[mg.C_KING]), promotes=bool(row[mg.C_PROMO]),
        huff=None if row[mg.C_HUFF] < 0 else int(row[mg.C_HUFF]) + 1,
        declined=tuple(i + 1 for i in range(32) if decl > 0 and (decl >> i) & 1))


class _Work(threading.local):
    def __init__(self) -> None:
        self.out = np.zeros((mg.MAXM * 4, mg.MW), dtype=np.int64)
        self.stk = mg.new_stack()


_WORK = _Work()


def move_rows(wm, wk, bm, bk, turn, huff, rules: DamaRules) -> np.ndarray:
    """The generator's rows for a position (a copy)."""
    nb, ray, raylen = rules.geometry
    n = mg.gen_actions(np.int64(wm), np.int64(wk), np.int64(bm), np.int64(bk),
                       np.int64(turn), np.int64(huff), _WORK.out, _WORK.stk, nb, ray, raylen,
                       rules.flags)
    return _WORK.out[:n].copy()


# ----------------------------------------------------------------------------------------
# positions


@dataclass(frozen=True)
class Position:
    """A Dama position: square masks (bit ``i`` = square ``i + 1``) of White's men and
    kings and Black's men and kings, the side to move (0 White, 1 Black), the rule set,
    and ``huff``: the mask of the opponent's pieces the side to move may huff (box rules,
    after the opponent declined a capture; 0 otherwise). Immutable and hashable."""

    wm: int
    wk: int
    bm: int
    bk: int
    turn: int = WHITE
    rules: DamaRules = field(default_factory=DamaRules)
    huff: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.rules, DamaRules):
            object.__setattr__(self, "rules", _rules(self.rules))
        masks = (self.wm, self.wk, self.bm, self.bk)
        if any(m < 0 or m > FULL for m in masks):
            raise InvalidPosition("square masks must be 32-bit")
        total = 0
        for m in masks:
            if total & m:
                raise InvalidPosition("two pieces on one square")
            total |= m
        if self.turn not in (WHITE, BLACK):
            raise InvalidPosition("turn must be 0 (White) or 1 (Black)")
        if (self.wm & mg.WHITE_PROMO) or (self.bm & mg.BLACK_PROMO):
            raise InvalidPosition("a man stands on its promotion row")

    # -- construction -----------------------------------------------------------------
    @classmethod
    def start(cls, rules=None) -> Position:
        return cls(START_WHITE, 0, START_BLACK, 0, WHITE, _rules(rules))

    @classmethod
    def from_fen(cls, fen: str, rules=None) -> Position:
        """Read a PDN FEN: ``W:W21-32:B1-12``, kings with ``K`` (``B:WK4,22:B5``),
        squares by number or, on any board, by name (``W:Wc3,Ke1:Bd6``)."""
        r = _rules(rules)
        text = fen.strip().strip('"').rstrip(".")
        parts = [p.strip() for p in text.split(":") if p.strip()]
        if not parts or parts[0].upper() not in ("W", "B"):
            raise ParseError(f"FEN {shown(fen, 60)} must start with W or B (side to move)")
        turn = WHITE if parts[0].upper() == "W" else BLACK
        masks = {"W": [0, 0], "B": [0, 0]}
        for part in parts[1:]:
            colour = part[0].upper()
            if colour not in masks:
                raise ParseError(f"FEN field {shown(part)} must start with W or B")
            for item in part[1:].split(","):
                item = item.strip()
                if not item:
                    continue
                king = item[0].upper() == "K"
                if king:
                    item = item[1:]
                if "-" in item:
                    a, b = item.split("-", 1)
                    lo, hi = parse_square(a, r), parse_square(b, r)
                    if lo > hi:
                        raise ParseError(f"FEN range {shown(item)} runs backwards")
                    squares = range(lo, hi + 1)
                else:
                    squares = [parse_square(item, r)]
                for s in squares:
                    masks[colour][1 if king else 0] |= 1 << (s - 1)
        return cls(masks["W"][0], masks["W"][1], masks["B"][0], masks["B"][1], turn, r)

    def with_rules(self, rules) -> Position:
        return Position(self.wm, self.wk, self.bm, self.bk, self.turn, _rules(rules),
                        self.huff)

    # -- text -------------------------------------------------------------------------
    def fen(self, algebraic: bool = False, ranges: bool = True) -> str:
        """PDN FEN, e.g. ``W:W21-32:B1-12`` (runs of men as ranges when ``ranges`` and
        numeric)."""
        def field_(men, kings):
            items = []
            squares = [s for s in range(1, 33) if (men | kings) >> (s - 1) & 1]
            i = 0
            while i < len(squares):
                s = squares[i]
                king = kings >> (s - 1) & 1
                j = i
                if ranges and not algebraic and not king:
                    while (j + 1 < len(squares) and squares[j + 1] == squares[j] + 1
                           and not kings >> (squares[j + 1] - 1) & 1):
                        j += 1
                if j - i >= 2:
                    items.append(f"{s}-{squares[j]}")
                    i = j + 1
                    continue
                items.append(("K" if king else "") + square_name(s, self.rules, algebraic))
                i += 1
            return ",".join(items)
        side = "W" if self.turn == WHITE else "B"
        return f"{side}:W{field_(self.wm, self.wk)}:B{field_(self.bm, self.bk)}"

    def piece_at(self, square: int) -> str:
        """``"w"``, ``"W"`` (king), ``"b"``, ``"B"`` or ``""``."""
        b = 1 << (square - 1)
        for mask, ch in ((self.wm, "w"), (self.wk, "W"), (self.bm, "b"), (self.bk, "B")):
            if mask & b:
                return ch
        return ""

    def board_text(self, numbers: bool = True, footer: bool = True) -> str:
        """An 8x8 diagram from White's side: ``w``/``b`` men, ``W``/``B`` kings, ``.``
        an empty dark square; with ``numbers``, the square numbers on the right; with
        ``footer``, a last line saying who is to move under which rules (English)."""
        lines = []
        for rank in range(7, -1, -1):
            cells, nums = [], []
            for file in range(8):
                s = square_at(rank, file, self.rules)
                if s is None:
                    cells.append(" ")
                else:
                    cells.append(self.piece_at(s) or ".")
                    nums.append(f"{s:2d}")
            row = f"{rank + 1} " + " ".join(cells)
            if numbers:
                row += "    " + " ".join(nums)
            lines.append(row.rstrip())
        lines.append("  " + " ".join(FILES))
        if not footer:
            return "\n".join(lines)
        side = "White" if self.turn == WHITE else "Black"
        lines.append(f"{side} to move ({self.rules.option_text})")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.board_text()

    # -- counts -----------------------------------------------------------------------
    def count(self, colour: int) -> tuple[int, int]:
        """``(men, kings)`` of ``colour``."""
        if colour == WHITE:
            return self.wm.bit_count(), self.wk.bit_count()
        return self.bm.bit_count(), self.bk.bit_count()

    # -- moves ------------------------------------------------------------------------
    def _rows(self) -> np.ndarray:
        return move_rows(self.wm, self.wk, self.bm, self.bk, self.turn, self.huff, self.rules)

    def legal_moves(self) -> list[DamaMove]:
        """Every legal move (each distinct capture sequence once); with pending huff
        rights (box rules) also each huff choice combined with the moves after it. The
        moves carry their text, with every landing square where two moves would read
        the same otherwise."""
        moves = [_move_from_row(r) for r in self._rows()]
        return _with_text(moves, self.rules)

    def moves_without_huff(self) -> list[DamaMove]:
        return [m for m in self.legal_moves() if m.huff is None]

    def is_game_over(self) -> bool:
        return len(self._rows()) == 0

    def play(self, move: DamaMove | str) -> Position:
        """The position after a legal move (a :class:`DamaMove` or its text)."""
        mv = self.find_move(move)
        row = self._row_of(mv)
        wm, wk, bm, bk, turn, huff = mg.make_move(
            np.int64(self.wm), np.int64(self.wk), np.int64(self.bm), np.int64(self.bk),
            np.int64(self.turn), row)
        return Position(int(wm), int(wk), int(bm), int(bk), int(turn), self.rules, int(huff))

    def _row_of(self, mv: DamaMove) -> np.ndarray:
        for r in self._rows():
            if _move_from_row(r).key() == mv.key():
                return r
        raise IllegalMove(f"{mv} is not a legal move here")

    def find_move(self, move: DamaMove | str) -> DamaMove:
        """The legal move meant by ``move`` (text such as ``22-18``, ``c3-d4``,
        ``22x13``, ``22x13x6``; ``*5 22-18`` or ``huff 5 22-18`` huffs square 5 first)."""
        legal = self.legal_moves()
        if isinstance(move, DamaMove):
            for m in legal:
                if m.key() == move.key():
                    return m
            raise IllegalMove(f"{move} is not a legal move here")
        return match_move(move, legal, self.rules)

    def null_huff(self) -> Position:
        """The same position with the huff right dropped."""
        return Position(self.wm, self.wk, self.bm, self.bk, self.turn, self.rules, 0)


def _with_text(moves: list[DamaMove], rules: DamaRules) -> list[DamaMove]:
    short: dict[tuple, int] = {}
    for m in moves:
        k = (m.huff, m.notation(rules))
        short[k] = short.get(k, 0) + 1
    out = []
    for m in moves:
        full = short[(m.huff, m.notation(rules))] > 1
        t = m.notation(rules, full=full)
        if m.huff is not None:
            t = f"*{m.huff} {t}"
        out.append(DamaMove(m.start, m.end, m.path, m.captures, m.king, m.promotes, m.huff,
                            m.declined, t))
    return out


def _trajectory(mv: DamaMove, rules: DamaRules) -> list[int]:
    """Every square the moving piece passes over or lands on after the start (an
    intermediate square in a move's text may be any of them)."""
    out = []
    cur = mv.start
    for nxt in mv.path or (mv.end,):
        (r0, f0), (r1, f1) = square_coords(cur, rules), square_coords(nxt, rules)
        dr = (r1 > r0) - (r1 < r0)
        df = (f1 > f0) - (f1 < f0)
        r, f = r0, f0
        while (r, f) != (r1, f1) and dr and df:
            r, f = r + dr, f + df
            out.append(square_at(r, f, rules))
        cur = nxt
    return out


_TOKEN = re.compile(r"[a-h][1-8]|[0-9]+", re.I)


def match_move(text: str, legal: list[DamaMove], rules) -> DamaMove:
    """The move in ``legal`` that ``text`` names; raise :class:`IllegalMove` or
    :class:`ParseError`."""
    r = _rules(rules)
    t = text.strip()
    if any(c.isnumeric() and not c.isascii() for c in t):
        raise ParseError(f"cannot read move {shown(text)}: squares are written with the "
                         f"digits 0-9")
    huff = None
    m = re.match(r"^(?:\*|huff\s+)([a-h][1-8]|[0-9]+)\s*[,;]?\s*(.*)$", t, re.I)
    if m:
        huff = parse_square(m.group(1), r)
        t = m.group(2)
    body = t.replace(":", "x").replace("X", "x")
    capture = "x" in body
    toks = _TOKEN.findall(body)
    if len(toks) < 2:
        raise ParseError(f"cannot read move {shown(text)} (e.g. 22-18, 22x13, c3-d4)")
    squares = [parse_square(s, r) for s in toks]
    cands = []
    for mv in legal:
        if mv.huff != huff or mv.start != squares[0] or mv.end != squares[-1]:
            continue
        if capture != mv.is_capture and not (len(squares) == 2 and "-" not in body
                                              and "x" not in body):
            continue
        mids = squares[1:-1]
        if mids:
            it = iter(_trajectory(mv, r))
            if not all(any(s == p for p in it) for s in mids):
                continue
        cands.append(mv)
    if len(cands) == 1:
        return cands[0]
    if not cands:
        raise IllegalMove(f"{text} is not a legal move here")
    # a shorter text that several moves share: the same position after each?
    if len({(c.start, c.end, frozenset(c.captures), c.promotes) for c in cands}) == 1:
        return cands[0]
    raise IllegalMove(f"{text} is ambiguous: {', '.join(str(c) for c in cands)}")
