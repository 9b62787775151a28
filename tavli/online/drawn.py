"""What the online page draws: the board fields of an online game's state
(``state.board``, docs/server.md), made by the engine as ``tavli play``'s state has them,
so the page's board code (``tavli/web/static/board.js``) draws and plays an online game
with no rule of its own.

``board`` holds ``mover`` (the side whose turn it is to move, as positions number it),
``position`` (the position as JSON: per side its points, bar, off, pins), ``pips``,
``opposite`` (how the two sides number the points), ``turn_tree`` (every order of single
checker steps the dice allow, :func:`tavli.web.steps.turn_tree`; None before the dice are
out), ``dice_text``, ``cube_used`` (the game plays with the doubling cube),
``resign_values`` (what a resignation may concede now), ``target`` and ``game_number`` (a
match's), ``games`` (each game's name and result) and ``last``: the last turn of the game
(``side``, ``dice``, ``move``, ``steps`` and ``frames``, the boards after each step, for
the page to animate the opponent's checkers; ``pass`` for a turn without a move) and
``last_moves``: each side's last turn, for the board's marks (:func:`last_marks`).
"""

from __future__ import annotations

from typing import Any

from tavli.engine.dice import dice_text
from tavli.engine.layout import SIDE_NAMES
from tavli.play.game import Game
from tavli.play.history import Pass, Play
from tavli.play.match import Match

_FRAMES = "_online_frames"  # where a move keeps its frames (last_turn)
_NONE = object()


def last_turn(g: Game) -> dict[str, Any] | None:
    """The game's last turn played (a move with its frames, or a pass), else None."""
    from tavli.web.steps import move_frames

    for a in reversed(g.history):
        if isinstance(a, Pass):
            return {"side": SIDE_NAMES[a.side], "dice": list(a.dice), "pass": True,
                    "move": "", "steps": [], "frames": None}
        if isinstance(a, Play):
            steps = [[f, t, bool(h)] for f, t, h in a.move.steps]
            # the frames of a move never change: worked out once, kept with the move (the
            # states after it and after the next roll show them); nobody changes a state
            frames = a.move.__dict__.get(_FRAMES, _NONE)
            if frames is _NONE:
                try:
                    frames = move_frames(a.move.before, a.dice, steps)
                except (ValueError, IndexError):
                    frames = None
                a.move.__dict__[_FRAMES] = frames
            return {"side": SIDE_NAMES[a.side], "dice": list(a.dice), "pass": False,
                    "move": str(a.move), "steps": steps, "frames": frames}
    return None


def last_marks(g: Game) -> dict[str, dict[str, Any] | None]:
    """The last turn of each side (None before its first), for the board's marks and
    the screen reader's words: tavli play's ``last_moves``
    (:func:`tavli.web.shown.last_moves`) in the mover's numbering, without the frames."""
    from tavli.web.shown import last_moves

    return last_moves(g, None, frames=False)


def board_view(obj: Game | Match) -> dict[str, Any]:
    """The ``board`` fields of the state of the game or match ``obj``."""
    from tavli.web.steps import board_fields

    m = obj if isinstance(obj, Match) else None
    g = m.game if m is not None else obj
    assert isinstance(g, Game)
    pos = g.position
    live = not g.is_over
    return {
        "mover": SIDE_NAMES[pos.turn],
        "position": pos.to_json(),
        "pips": {"white": pos.pip_count(0), "black": pos.pip_count(1)},
        **board_fields(g, person=True),
        "dice_text": dice_text(g.dice) if g.dice else None,
        "cube_used": bool(g.rules.cube),
        "resign_values": g.resign_values() if live else [],
        "target": m.target if m is not None else None,
        "game_number": len(m.games) if m is not None else 1,
        "games": [{"game": x.rules.game_name,
                   "result": x.outcome.to_dict() if x.outcome else None}
                  for x in (m.games if m is not None else [g])],
        "match_over": m.is_over if m is not None else g.is_over,
        "last": last_turn(g),
        "last_moves": last_marks(g),
    }


__all__ = ["board_view", "last_turn", "last_marks"]
