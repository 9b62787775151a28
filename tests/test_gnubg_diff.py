"""Differential test of the legal-move generator against gnubg's (via gnubg-nn).

Compared against gnubg-nn 1.1.0a11: for positions from seeded random backgammon play
(with hits, checkers on the bar and bear-offs among them) the set of final positions of
:meth:`tavli.engine.board.Position.legal_moves` under backgammon rules equals that of
``gnubg_nn.moves``; under Portes rules (``must_play_higher`` off) it is the same set except
when only one die of a non-double can be played, where Portes also allows the lower die.

gnubg-nn's board is ``[opponent, mover]``, 25 counts each (index 0..23 = that side's points
1..24, index 24 = its bar); it returns the unchanged board as the only "move" when no move
is possible, which counts here as no move.
"""

from __future__ import annotations

import gnubg_nn  # noqa: E402
import numpy as np
import pytest

from tavli.bench.movegen import gnubg_board, sample_positions
from tavli.engine.board import Position
from tavli.engine.rules import Rules

GNUBG_VERSION = "1.1.0a11"
N_POSITIONS = 2400
SEED = 20240607


def gnubg_version() -> str:
    v = gnubg_nn.__version__
    return str(getattr(v, "version", v))


def test_gnubg_version_is_the_one_compared():
    print(f"gnubg-nn {gnubg_version()} (recorded: {GNUBG_VERSION})")
    assert gnubg_version() == GNUBG_VERSION, (
        f"these results were compared against gnubg-nn {GNUBG_VERSION}; installed is "
        f"{gnubg_version()}: re-run the comparison and update GNUBG_VERSION and the docstring")


def _key(arr: np.ndarray, me: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    b = gnubg_board(arr, me)
    return tuple(b[0]), tuple(b[1])


def _gnubg_finals(arr: np.ndarray, me: int, d1: int, d2: int) -> set:
    board = gnubg_board(arr, me)
    finals = {tuple(tuple(int(x) for x in side) for side in gnubg_nn.board_from_position_key(k))
              for k in gnubg_nn.moves(board, d1, d2)}
    if finals == {(tuple(board[0]), tuple(board[1]))}:
        return set()  # gnubg lists the unchanged board when the player cannot move
    return finals


@pytest.fixture(scope="module")
def sample():
    arrs, turns, dice = sample_positions("backgammon", N_POSITIONS, SEED)
    return arrs, turns, dice


def test_sample_covers_hits_bar_and_bearoff(sample):
    arrs, turns, dice = sample
    me = turns.astype(int)
    rows = arrs[np.arange(len(arrs)), me]
    on_bar = int((rows[:, 25] > 0).sum())
    bearoff = int(((rows[:, 7:26].sum(axis=1) == 0) & (rows[:, 0] < 15)).sum())
    rules = Rules.for_game("backgammon")
    hits = sum(
        any(f for m in Position("backgammon", arrs[k], int(me[k]), validate=False)
            .legal_moves(tuple(dice[k]), rules) for _, _, f in m.steps)
        for k in range(len(arrs)))
    doubles = int((dice[:, 0] == dice[:, 1]).sum())
    print(f"{len(arrs)} positions: {on_bar} with the mover on the bar, {bearoff} bear-off, "
          f"{hits} with a hit available, {doubles} doubles")
    assert len(arrs) >= 2000
    assert on_bar >= 100
    assert bearoff >= 100
    assert hits >= 100
    assert doubles >= 200


def test_backgammon_moves_equal_gnubg(sample):
    arrs, turns, dice = sample
    rules = Rules.for_game("backgammon")
    bad = []
    for k in range(len(arrs)):
        me, d1, d2 = int(turns[k]), int(dice[k, 0]), int(dice[k, 1])
        moves = Position("backgammon", arrs[k], me, validate=False).legal_moves((d1, d2), rules)
        ours = {_key(m.after.array, me) for m in moves}
        assert len(ours) == len(moves)  # one Move per distinct final position
        theirs = _gnubg_finals(arrs[k], me, d1, d2)
        if ours != theirs:
            bad.append((k, gnubg_board(arrs[k], me), d1, d2, len(ours), len(theirs)))
    assert not bad, f"{len(bad)} of {len(arrs)} positions differ from gnubg, e.g. {bad[:3]}"


def test_portes_moves_relate_to_gnubg(sample):
    """Portes lets a player who can use only one die of a non-double choose either."""
    arrs, turns, dice = sample
    rules = Rules.for_game("portes")
    assert not rules.must_play_higher
    free_choice = 0
    for k in range(len(arrs)):
        me, d1, d2 = int(turns[k]), int(dice[k, 0]), int(dice[k, 1])
        moves = Position("portes", arrs[k], me, validate=False).legal_moves((d1, d2), rules)
        ours = {_key(m.after.array, me) for m in moves}
        theirs = _gnubg_finals(arrs[k], me, d1, d2)
        if ours == theirs:
            continue
        free_choice += 1
        assert d1 != d2
        assert all(len(m.steps) == 1 for m in moves)
        assert theirs < ours
        # gnubg plays the higher die; the extra Portes moves play the lower one
        lo = min(d1, d2)
        for m in moves:
            if _key(m.after.array, me) not in theirs:
                (s, t, _), = m.steps
                assert t == s - lo or (t == 0 and s <= lo)
    print(f"{free_choice} positions where only one die was playable and Portes differs")
    assert free_choice >= 1
