"""gnubg-nn as the benchmarks' yardstick (a test extra: never a runtime dependency).

The benchmarks (:mod:`tavli.bench.ai`) put gnubg's figures beside ours when the PyPI
package ``gnubg-nn`` is installed; :func:`load` says when it is not. Its board is
``[opponent, mover]``, 25 counts each (index 0..23 = that side's points 1..24, index 24
its bar): :func:`tavli.bench.movegen.gnubg_board`.

Its own rollout, ``gnubg_nn.rollout``, cannot be used: in gnubg-nn 1.1.0a11 the binding
hands the board converter the address of its games count instead of the board's, so the
rollout plays out whatever the stack held (the figures change from call to call and
``std=1`` or a fourth argument crashes the process), and ``cubeful_rollout``'s argument
list does not match its keywords (SystemError). :func:`playout` therefore plays gnubg's
rollout trials from Python: its 0-ply move (``best_move``, which values every legal move
with its networks and databases) for each roll until the game ends, dice as ours (first
roll stratified), no luck adjustment.
"""

from __future__ import annotations

import random
from types import ModuleType

NOTE = "gnubg-nn reference unavailable (pip install gnubg-nn to compare)"


def load() -> ModuleType | None:
    """The ``gnubg_nn`` module, or None when it is not installed."""
    try:
        import gnubg_nn
    except ImportError:
        return None
    return gnubg_nn


def version(g: ModuleType) -> str:
    """gnubg-nn's version string."""
    v = g.__version__
    return str(getattr(v, "version", v))


def _outcome(board) -> tuple[float, float, float, float, float]:
    """The outputs, for the side that has just borne off its last checker, of gnubg's
    board after its move (the loser to move: row 1)."""
    loser = board[1]
    gammon = sum(loser) == 15
    backgammon = gammon and any(loser[18:25])
    return 1.0, float(gammon), float(backgammon), 0.0, 0.0


def playout(g: ModuleType, board, trial: int, seed: int) -> tuple[float, ...]:
    """One rollout trial of gnubg's 0-ply player from ``board`` (gnubg's, the mover to
    roll): the five outputs from the mover's view. The first roll is roll ``trial mod
    36``, the others come from Python's generator seeded with ``(seed, trial)``."""
    rng = random.Random(seed * 1_000_003 + trial)
    best_move, from_key = g.best_move, g.board_from_position_key
    mine = True
    k = trial % 36
    d1, d2 = k // 6 + 1, k % 6 + 1
    while True:
        _, key = best_move(board, d1, d2, b=1)
        board = from_key(key)  # the next mover's view: row 0 is who just moved
        if sum(board[0]) == 0:
            o = _outcome(board)
            return o if mine else (0.0, o[3], o[4], o[1], o[2])
        mine = not mine
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
