"""A game of Dama: play and undo, huffing (box rules), game end and draws.

* **End**: a player who has no piece or no legal move on his turn loses.
* **Draws**: by agreement (:meth:`DamaGame.agree_draw`); by threefold repetition (the same
  pieces on the same squares with the same side to move for the third time); and after
  a fixed number of plies without a capture, a huff or a man's move — 30 plies (15 moves
  each) under ``box`` and ``russian``, 80 plies (40 moves each) under ``italian``
  (:attr:`tavli.engine.dama.rules.DamaRules.draw_plies`).
* **Huffing** (``box`` with ``huffing=True``): capturing is optional, but when a player
  could capture and plays a quiet move instead, the opponent may, before his own move,
  remove ("huff") the piece that should have captured — any one of them if several
  could (:attr:`DamaGame.huff_candidates`, :meth:`DamaGame.huff`). The right lapses once
  he moves.

>>> g = DamaGame("russian")
>>> for m in ("22-18", "11-15"):
...     _ = g.play(m)
>>> [str(m) for m in g.legal_moves()]
['18x11']
>>> _ = g.undo(); len(g.moves)
1

Huffing: White's man on c3 could take d4 but moves elsewhere; Black huffs it.

>>> g = DamaGame(start="W:Wc3,g3:Bd4,h8")
>>> [str(m) for m in g.legal_moves()]
['22x15', '22-17', '24-19', '24-20']
>>> _ = g.play("24-20"); g.huff_candidates
[22]
>>> g.huff(22); g.position.count(0)
(1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tavli.engine.dama.board import BLACK, WHITE, DamaMove, Position, parse_square
from tavli.engine.dama.rules import DamaRules
from tavli.engine.dama.sets import DEFAULT_RULE_SET
from tavli.errors import GameOver, IllegalMove, WrongState
from tavli.i18n import msg


@dataclass(frozen=True)
class Ply:
    """One entry of the game record: a move, or a huff (``move`` None, ``huffed`` the
    square removed), by ``colour``."""

    colour: int
    move: DamaMove | None = None
    huffed: int | None = None

    def __str__(self) -> str:
        return f"*{self.huffed}" if self.move is None else str(self.move)


#: how often the same position (pieces and side to move) must occur to draw the game
REPETITION_DRAW = 3


#: why the rules end a game (:func:`judge`): it goes on, a draw by threefold repetition, a
#: draw by the quiet-ply limit, the side to move cannot move
GOES_ON, REPETITION, QUIET_LIMIT, NO_MOVE = 0, 1, 2, 3


def judge(repetitions: int, quiet_plies: int, draw_plies: int, can_move: bool,
          turn: int) -> tuple[bool, int, int]:
    """The rules' verdict on a position in numbers: ``(over, winner, why)``, ``winner``
    -1 for none or a draw, ``why`` one of :data:`GOES_ON`, :data:`REPETITION`,
    :data:`QUIET_LIMIT`, :data:`NO_MOVE`. A draw by rule comes first (the position has
    occurred :data:`REPETITION_DRAW` times, or ``draw_plies`` plies have passed without a
    capture, a huff or a man's move); else the side to move (``turn``) loses when he
    cannot move (no legal move, or no piece left). Plain integers only, so that the
    batched environment (:mod:`tavli.rl.dama_vector`) compiles this very function.

    >>> judge(1, 0, 30, False, WHITE), judge(3, 0, 30, True, WHITE), judge(1, 29, 30, True, BLACK)
    ((True, 1, 3), (True, -1, 1), (False, -1, 0))
    """
    if repetitions >= REPETITION_DRAW:
        return True, -1, REPETITION
    if quiet_plies >= draw_plies:
        return True, -1, QUIET_LIMIT
    if not can_move:
        return True, 1 - turn, NO_MOVE
    return False, -1, GOES_ON


def rule_draw(repetitions: int, quiet_plies: int, draw_plies: int) -> str | None:
    """Why the rules draw the game now (:func:`judge`), in words, or None."""
    why = judge(repetitions, quiet_plies, draw_plies, True, WHITE)[2]
    if why == REPETITION:
        return "threefold repetition"
    if why == QUIET_LIMIT:
        return f"{draw_plies // 2} moves each without a capture or a man's move"
    return None


def verdict(repetitions: int, quiet_plies: int, draw_plies: int, can_move: bool,
            turn: int) -> tuple[bool, int | None]:
    """The rules' verdict on a position (agreement and resignation aside), the one
    :class:`DamaGame` and the research environments (:mod:`tavli.rl.dama`) read:
    ``(over, winner)``, ``winner`` None for none or a draw (:func:`judge`).

    >>> verdict(1, 0, 30, False, WHITE), verdict(3, 0, 30, False, WHITE)
    ((True, 1), (True, None))
    >>> verdict(1, 29, 30, True, BLACK), verdict(1, 30, 30, True, BLACK)
    ((False, None), (True, None))
    """
    over, winner, _ = judge(repetitions, quiet_plies, draw_plies, can_move, turn)
    return over, (None if winner < 0 else winner)


class DamaGame:
    """A game under one rule set, from the start or from ``start`` (a :class:`Position`
    or a FEN)."""

    def __init__(self, rules: str | DamaRules = DEFAULT_RULE_SET, huffing: bool | None = None,
                 start: Position | str | None = None) -> None:
        self.rules = DamaRules.for_name(rules, huffing)
        if start is None:
            pos = Position.start(self.rules)
        elif isinstance(start, Position):
            pos = start.with_rules(self.rules)
        else:
            pos = Position.from_fen(start, self.rules)
        self.start = pos
        self._positions: list[Position] = [pos]
        self._quiet: list[int] = [0]
        self.record: list[Ply] = []
        self._agreed = False
        self._resigned: int | None = None

    # -- state --------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def turn(self) -> int:
        return self.position.turn

    @property
    def moves(self) -> list[DamaMove]:
        """The moves played so far (huffs left out)."""
        return [p.move for p in self.record if p.move is not None]

    @property
    def quiet_plies(self) -> int:
        """Plies since the last capture, huff or man's move."""
        return self._quiet[-1]

    @property
    def huff_candidates(self) -> list[int]:
        """Squares of the opponent's pieces the side to move may huff now."""
        h = self.position.huff
        return [s for s in range(1, 33) if h >> (s - 1) & 1]

    def legal_moves(self) -> list[DamaMove]:
        """The moves of the side to move (a pending huff right is not applied: call
        :meth:`huff` first to use it)."""
        if self.is_over():
            return []
        return self.position.moves_without_huff()

    # -- actions ------------------------------------------------------------------------
    def huff(self, square: int | str) -> None:
        """Remove the opponent's piece on ``square`` (one of :attr:`huff_candidates`)."""
        if self.is_over():
            raise GameOver("the game is over")
        sq = parse_square(square, self.rules) if isinstance(square, str) else int(square)
        if sq not in self.huff_candidates:
            raise WrongState(f"square {sq} cannot be huffed now "
                             f"(candidates: {self.huff_candidates or 'none'})")
        p = self.position
        b = ~(1 << (sq - 1))
        np_ = Position(p.wm & b, p.wk & b, p.bm & b, p.bk & b, p.turn, p.rules, 0)
        self._positions.append(np_)
        self._quiet.append(0)
        self.record.append(Ply(p.turn, None, sq))

    def play(self, move: DamaMove | str) -> DamaMove:
        """Play a legal move (object or text); a text ``*5 22-18`` huffs 5 first.
        Returns the move played."""
        if self.is_over():
            raise GameOver("the game is over")
        p = self.position
        if isinstance(move, str) and move.strip().startswith("*"):
            parts = move.strip()[1:].split(None, 1)
            if len(parts) == 2:
                self.huff(parse_square(parts[0], self.rules))
                return self.play(parts[1])
        if isinstance(move, DamaMove) and move.huff is not None:
            self.huff(move.huff)
            move = DamaMove(move.start, move.end, move.path, move.captures, move.king,
                            move.promotes)
            p = self.position
        base = p.null_huff() if p.huff else p
        mv = base.find_move(move)
        after = base.play(mv)
        man = not mv.king
        self._positions.append(after)
        self._quiet.append(0 if (mv.captures or man) else self._quiet[-1] + 1)
        self.record.append(Ply(p.turn, mv))
        return mv

    def undo(self) -> Ply:
        """Take back the last move or huff."""
        if not self.record:
            raise WrongState("nothing to undo")
        self._positions.pop()
        self._quiet.pop()
        self._agreed = False
        self._resigned = None
        return self.record.pop()

    def agree_draw(self) -> None:
        self._agreed = True

    def resign(self, colour: int | None = None) -> None:
        self._resigned = self.turn if colour is None else colour

    # -- end ----------------------------------------------------------------------------
    def repetitions(self) -> int:
        """How often the current position (pieces and side to move) has occurred."""
        p = self.position
        key = (p.wm, p.wk, p.bm, p.bk, p.turn)
        return sum(1 for q in self._positions if (q.wm, q.wk, q.bm, q.bk, q.turn) == key)

    def draw_reason(self) -> str | None:
        if self._agreed:
            return "agreement"
        return rule_draw(self.repetitions(), self.quiet_plies, self.rules.draw_plies)

    def _verdict(self) -> tuple[bool, int | None]:
        return verdict(self.repetitions(), self.quiet_plies, self.rules.draw_plies,
                       not self.position.is_game_over(), self.turn)

    def winner(self) -> int | None:
        """``WHITE`` (0), ``BLACK`` (1) or None (not over, or drawn)."""
        if self._resigned is not None:
            return 1 - self._resigned
        if self._agreed:
            return None
        return self._verdict()[1]

    def is_over(self) -> bool:
        return self._resigned is not None or self._agreed or self._verdict()[0]

    @property
    def result(self) -> str:
        """PDN result: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
        if not self.is_over():
            return "*"
        w = self.winner()
        if w is None:
            return "1/2-1/2"
        return "1-0" if w == WHITE else "0-1"

    def end_reason(self) -> str | None:
        if not self.is_over():
            return None
        if self._resigned is not None:
            return "resignation"
        d = self.draw_reason()
        if d:
            return d
        w, l = self.position.count(self.turn)
        return "no pieces left" if w + l == 0 else "no legal move"

    def __repr__(self) -> str:
        return (f"DamaGame({self.rules.option_text!r}, plies={len(self.record)}, "
                f"result={self.result!r})")


def colour_name(colour: int) -> str:
    """``White`` or ``Black`` (English; players read :func:`colour_msg`)."""
    return "White" if colour == WHITE else "Black"


def colour_msg(colour: int) -> dict[str, Any]:
    """The colour's name as a catalogue message, capitalised (``side.cap.white``)."""
    return msg("side.cap.white" if colour == WHITE else "side.cap.black")


#: :meth:`DamaGame.end_reason`'s words and their catalogue messages (``dama.reason.*``)
REASON_KEYS = {"resignation": "resignation", "agreement": "agreement",
               "threefold repetition": "repetition", "no pieces left": "no_pieces",
               "no legal move": "no_move"}


def reason_msg(game: DamaGame) -> dict[str, Any] | None:
    """Why the game ended (:meth:`DamaGame.end_reason`) as a catalogue message, None
    while it goes on.

    >>> g = DamaGame("russian"); g.resign(1); reason_msg(g)
    {'key': 'dama.reason.resignation', 'params': {}}
    """
    reason = game.end_reason()
    if reason is None:
        return None
    if reason in REASON_KEYS:
        return msg(f"dama.reason.{REASON_KEYS[reason]}")
    return msg("dama.reason.quiet", n=game.rules.draw_plies // 2)


__all__ = ["DamaGame", "Ply", "verdict", "rule_draw", "judge", "REPETITION_DRAW", "colour_name",
           "colour_msg", "reason_msg", "REASON_KEYS", "WHITE", "BLACK", "IllegalMove"]
