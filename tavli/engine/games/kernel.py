"""What compiled code is told about the rules, and the one end-of-game verdict.

Compiled code never sees a variant: it gets the rules as one tuple of small integers,
:meth:`tavli.engine.rules.Rules.kernel_flags` (indices ``F_*`` below), and branches on the rule
set (``flags[F_KERNEL]``: HITTING, PINNING or RUNNING, :mod:`tavli.engine.games`), so a new
variant that plays by an existing rule set needs no compiled code.

:func:`verdict` judges the end of a game after a turn, for :class:`tavli.play.game.Game`,
self-play training, the search and the analysis alike.

>>> from tavli.engine.rules import Rules
>>> Rules.for_game("backgammon").kernel_flags()
(0, 1, 0, 0, 1)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tavli.engine.games import PINNING
from tavli.engine.games.fevga import (
    PRIME_FORBID,
    PRIME_MUST_OPEN,
    PRIME_OFF,
    QUARTER_OFF,
    QUARTER_OPPONENT,
    QUARTER_OWN,
)
from tavli.engine.games.plakoto import mother_pinned_rec
from tavli.engine.layout import CHECKERS, NSLOTS

# indices of the rule flags
F_KERNEL = 0       # HITTING, PINNING or RUNNING
F_HIGHER = 1       # must_play_higher (0/1)
F_QUARTER = 2      # Fevga starting-quarter rule (QUARTER_*)
F_PRIME = 3        # Fevga prime rule (PRIME_*)
F_BACKGAMMONS = 4  # backgammons count (0/1)

# kinds of game end (the verdict's third value)
GOES_ON = 0
SINGLE = 1
GAMMON = 2
BACKGAMMON = 3
MOTHER = 4
DRAW = 5
KIND_NAMES = ("", "single", "gammon", "backgammon", "mother", "draw")

_QUARTER = {"off": QUARTER_OFF, "own": QUARTER_OWN, "opponent": QUARTER_OPPONENT}
_PRIME = {"off": PRIME_OFF, "must_open": PRIME_MUST_OPEN, "forbid": PRIME_FORBID}


def rule_flags(kernel: int, must_play_higher: bool, starting_quarter_rule: str,
               prime_rule: str, backgammons: bool) -> tuple[int, int, int, int, int]:
    """The flags tuple of a rule set's values (see the module docstring)."""
    return (int(kernel), int(must_play_higher), _QUARTER[starting_quarter_rule],
            _PRIME[prime_rule], int(backgammons))


@njit(cache=True)
def verdict(b, flags):
    """Is the game over in the flat board ``b`` (a board array's 104 values, row after
    row, or a record of :mod:`tavli.engine.movegen`) at the end of a turn? Returns ``(winner,
    points, kind)``: ``(-1, 0, GOES_ON)`` while play goes on, ``(-1, 0, DRAW)`` for
    Plakoto's two pinned mothers; points before the cube."""
    if flags[F_KERNEL] == PINNING:
        m0 = mother_pinned_rec(b, np.int64(0))  # not literals: one compile
        m1 = mother_pinned_rec(b, np.int64(1))
        if m0 and m1:
            return -1, 0, DRAW
        if m0 and b[NSLOTS + 24] == 0:
            return 1, 2, MOTHER
        if m1 and b[24] == 0:
            return 0, 2, MOTHER
    for side in range(2):
        if b[side * NSLOTS] == CHECKERS:
            o = (1 - side) * NSLOTS
            if b[o] > 0:
                return side, 1, SINGLE
            if flags[F_BACKGAMMONS]:
                # the winner's home board (his points 1..6) is the loser's 19..24
                back = b[o + 25]
                for p in range(19, 25):
                    back += b[o + p]
                if back > 0:
                    return side, 3, BACKGAMMON
            return side, 2, GAMMON
    return -1, 0, GOES_ON


def judge(arr: np.ndarray, flags: tuple[int, ...]) -> tuple[int | None, int, str] | None:
    """:func:`verdict` on a board array, in Python terms: ``(winner, points, kind)`` with
    ``winner`` None for a draw, or None while play goes on."""
    # a writable flat copy, the board type of the compiled callers (a read-only array is
    # another type to Numba: verdict would be compiled twice on a first run)
    w, pts, kind = verdict(np.array(arr, dtype=np.int8).reshape(-1), flags)
    if kind == GOES_ON:
        return None
    return (None if w < 0 else int(w)), int(pts), KIND_NAMES[kind]
