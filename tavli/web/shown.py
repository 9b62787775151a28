"""What the page shows in words and marks, worked out on the server (the page has no rules).

* :func:`numbering`: whose numbering the board's labels and the messages use;
* :func:`last_moves`: the last turn of each side, with the points its checkers left and
  reached and its text in the viewer's numbering;
* :func:`opening_text`: the opening throw as it happened, consistent with the dice drawn;
* :func:`event_text`: one line of the move list.

Rolls are written higher die first (:func:`tavli.dice.dice_text`).

>>> from tavli.game import Game
>>> g = Game("portes", seed=3)
>>> _ = g.roll()
>>> opening_text(g)
'Opening throw: white 2, black 5 — black starts and rolls 5-2.'
>>> _ = g.play("13/8 13/11")
>>> last_moves(g, 0)["black"]["shown"], last_moves(g, 0)["black"]["to"]
('12/17 12/14', [11, 8])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..dice import dice_text
from ..game import Game
from ..history import opening_throws
from ..layout import SIDE_NAMES
from .steps import move_frames


def numbering(players: Mapping[str, Mapping[str, Any]], turn: int) -> int:
    """The side whose numbering the page uses: the one person against the AI, else (two
    players on one device, or an imported record) the side to act."""
    humans = [i for i, s in enumerate(SIDE_NAMES) if players[s].get("type") == "human"]
    return humans[0] if len(humans) == 1 else turn


def _ends(steps: list[tuple[int, int, bool]]) -> tuple[list[int], list[int]]:
    """The points checkers left and came to rest on (not those a checker passed)."""
    froms = [f for f, _t, _h in steps]
    tos = [t for _f, t, _h in steps]
    for p in list(froms):
        if p in tos:
            froms.remove(p)
            tos.remove(p)
    return sorted(set(froms), reverse=True), sorted(set(tos), reverse=True)


def last_moves(game: Game, viewer: int) -> dict[str, dict[str, Any] | None]:
    """The last turn of each side in ``game`` (None before its first): ``turn`` (its
    number in the game), ``dice``, ``dice_text``, ``move`` (mover's numbering, as
    recorded), ``shown`` (the same move in ``viewer``'s numbering), ``steps``, ``from`` and
    ``to`` (mover's numbering; 25 the bar, 0 off; ``[]`` for a pass), ``pass`` and
    ``frames`` (the boards step by step, :func:`tavli.web.steps.move_frames`)."""
    out: dict[str, dict[str, Any] | None] = {s: None for s in SIDE_NAMES}
    for number in range(len(game.turns), 0, -1):
        before, dice, move = game.turns[number - 1]
        side = SIDE_NAMES[before.turn]
        if out[side] is not None:
            continue
        steps = [] if move is None else [(f, t, bool(h)) for f, t, h in move.steps]
        froms, tos = _ends(steps)
        out[side] = {"side": side, "turn": number, "dice": list(dice),
                     "dice_text": dice_text(dice),
                     "move": "" if move is None else str(move),
                     "shown": "" if move is None else move.seen_by(viewer),
                     "steps": [list(s) for s in steps], "from": froms, "to": tos,
                     "pass": move is None,
                     "frames": move_frames(before, dice, steps)}
        if all(out.values()):
            break
    return out


def opening_text(game: Game) -> str | None:
    """What the opening throw of ``game`` did (None when it had none or it is not thrown):
    the dice of each side (ties thrown again), who starts and the dice he plays — a new
    roll under ``opening_reroll`` (Tavli), else the two opening dice (backgammon)."""
    throws = opening_throws(game.history)
    if not throws:
        return None
    parts = [f"white {w}, black {b}" for w, b in throws]
    ties = "".join(f"{p} (a tie: thrown again); " for p in parts[:-1])
    w, b = throws[-1]
    starter = "white" if w > b else "black"
    text = f"Opening throw: {ties}{parts[-1]} — {starter} starts"
    dice = game.turns[0][1] if game.turns else game.dice
    if dice is None:
        return text + "."
    if game.rules.opening_reroll:
        return f"{text} and rolls {dice_text(dice)}."
    return f"{text} with {dice_text(dice)}."


def event_text(ev: Mapping[str, Any]) -> str:
    """One event of the record (:mod:`tavli.record`) as a line of the move list."""
    if "opening" in ev:
        w, b = ev["opening"]
        return f"opening throw: white {w}, black {b}"
    side = ev.get("side", "")
    if "dice" in ev:
        return f"{side} {dice_text(ev['dice'])}: {ev.get('move') or '(no move)'}"
    if "double" in ev:
        return f"{side} doubles to {ev['double']}"
    for word, text in (("take", "takes"), ("drop", "drops"), ("beaver", "beavers")):
        if ev.get(word):
            return f"{side} {text}"
    return f"{side} {' '.join(k for k in ev if k != 'side')}".strip()
