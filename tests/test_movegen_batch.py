"""The batch API gives exactly what Position.legal_moves gives, and both agree with a slow
reference generator built only from the single-step rules (``step_code``/``apply_step``)."""

from __future__ import annotations

import numpy as np
import pytest

from tavli.bench.movegen import sample_positions
from tavli.engine.board import Position
from tavli.engine.games import RUNNING
from tavli.engine.games.fevga import (
    PRIME_FORBID,
    PRIME_MUST_OPEN,
    fevga_quarter_ok,
    fevga_traps,
)
from tavli.engine.movegen import OK, STAMP_LIMIT, Workspace, apply_step, legal_batch, step_code
from tavli.engine.rules import Rules

RULES = [
    Rules.for_game("portes"),
    Rules.for_game("portes", {"must_play_higher": True}),
    Rules.for_game("plakoto"),
    Rules.for_game("fevga"),
    Rules.for_game("fevga", {"prime_rule": "forbid", "starting_quarter_rule": "opponent"}),
    Rules.for_game("fevga", {"prime_rule": "off", "starting_quarter_rule": "off",
                             "must_play_higher": False}),
    Rules.for_game("backgammon"),
]
IDS = ["portes", "portes-higher", "plakoto", "fevga", "fevga-forbid-opp", "fevga-off",
       "backgammon"]


@pytest.fixture(scope="module")
def samples():
    out = {}
    for i, game in enumerate(("portes", "plakoto", "fevga", "backgammon")):
        out[game] = sample_positions(game, 3000, seed=100 + i)
    return out


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_batch_equals_legal_moves(samples, rules):
    arrs, turns, dice = (x[:400] for x in samples[rules.game_name])
    counts, results, steps = legal_batch(arrs, turns, dice, rules)
    assert counts.shape == (len(arrs),)
    assert results.shape == (counts.sum(), 4, 26) and steps.shape == (counts.sum(), 4, 3)
    row = 0
    for k in range(len(arrs)):
        pos = Position(rules.game, arrs[k], int(turns[k]), validate=False)
        moves = pos.legal_moves((int(dice[k, 0]), int(dice[k, 1])), rules)
        assert counts[k] == len(moves)
        for m in moves:
            assert np.array_equal(results[row], m.after.array)
            n = len(m.steps)
            assert [tuple(int(x) for x in s) for s in steps[row, :n]] == [
                (a, b, int(f)) for a, b, f in m.steps]
            assert n == 4 or steps[row, n, 0] == 0
            row += 1
    assert row == len(results)


def test_batch_grows_its_buffers(samples, monkeypatch):
    """Results that outgrow the first guess, and work buffers too small, are retried."""
    import tavli.engine.movegen as mg

    arrs, turns, dice = samples["plakoto"]
    rules = Rules.for_game("plakoto")
    want = legal_batch(arrs, turns, dice, rules)
    big = np.argsort(-want[0], kind="stable")[:3]  # the positions with the most moves
    assert want[0][big].sum() > 96  # more than the first guess (max(64, 32 n)) for 3 positions
    monkeypatch.setattr(mg._local, "ws", Workspace(size=64, hash_size=128))
    got = legal_batch(arrs[big], turns[big], dice[big], rules)
    assert mg.thread_workspace().size > 64
    starts = np.cumsum(want[0]) - want[0]
    rows = np.concatenate([np.arange(starts[k], starts[k] + want[0][k]) for k in big])
    assert np.array_equal(got[0], want[0][big])
    assert np.array_equal(got[1], want[1][rows])
    assert np.array_equal(got[2], want[2][rows])


def test_hash_stamps_wrap_around(samples):
    """When the stamp counter runs out the hash table is cleared and results stay equal."""
    arrs, turns, dice = (x[:60] for x in samples["plakoto"])
    flags = Rules.for_game("plakoto").kernel_flags()
    fresh, old = Workspace(), Workspace()
    old.table[0] = STAMP_LIMIT - 7
    for k in range(len(arrs)):
        args = (arrs[k], int(turns[k]), int(dice[k, 0]), int(dice[k, 1]), flags)
        n = fresh.run(*args)
        assert old.run(*args) == n
        for j in range(n):
            assert np.array_equal(fresh.states[fresh.out[j]], old.states[old.out[j]])
    assert old.table[0] < 1000


def test_batch_input_checks():
    rules = Rules.for_game("portes")
    start = Position.start("portes").array
    with pytest.raises(ValueError):
        legal_batch(start, [0], [(3, 1)], rules)
    with pytest.raises(ValueError):
        legal_batch(start[None], [0], [(3, 7)], rules)
    counts, results, steps = legal_batch(np.zeros((0, 4, 26), np.int8), [], np.zeros((0, 2)),
                                         rules)
    assert counts.shape == (0,) and results.shape == (0, 4, 26) and steps.shape == (0, 4, 3)


# --- a slow reference from the single-step rules ---------------------------------------------

def _rec(arr):
    return np.ascontiguousarray(arr).reshape(1, 104)


def reference_finals(arr, me, d1, d2, rules) -> set[bytes]:
    """Every final position by the six steps of :mod:`tavli.engine.movegen`, trying every order
    of the dice and every source (no canonical ordering, no shortcuts)."""
    kernel, must_higher, quarter, prime, _ = rules.kernel_flags()
    dice = [d1] * 4 if d1 == d2 else [max(d1, d2), min(d1, d2)]
    # level: {(board bytes, dice left as a tuple, first die used): board}
    level = {(arr.tobytes(), tuple(dice), 0): arr}
    levels = []
    while level:
        levels.append(level)
        nxt = {}
        for (_, left, first), a in level.items():
            for di, d in enumerate(left):
                if d in left[:di]:
                    continue
                for s in range(1, 26):
                    if step_code(a, me, s, d, kernel) != OK:
                        continue
                    b = a.copy()
                    apply_step(b, me, s, d, kernel)
                    rest = left[:di] + left[di + 1:]
                    nxt[(b.tobytes(), rest, first or d)] = b
        level = nxt

    def turn_ok(a):
        if kernel != RUNNING:
            return True
        if not fevga_quarter_ok(_rec(a), 0, me, quarter):
            return False
        return not (prime == PRIME_FORBID and fevga_traps(_rec(a), 0, me))

    for depth in range(len(levels) - 1, 0, -1):
        finals = [(a, first) for (_, _, first), a in levels[depth].items() if turn_ok(a)]
        if finals:
            break
    else:
        return set()
    if depth == 1 and d1 != d2 and must_higher:
        higher = [(a, f) for a, f in finals if f == max(d1, d2)]
        finals = higher or finals
    if kernel == RUNNING and prime == PRIME_MUST_OPEN and fevga_traps(_rec(arr), 0, me):
        opened = [(a, f) for a, f in finals if not fevga_traps(_rec(a), 0, me)]
        finals = opened or finals
    return {a.tobytes() for a, _ in finals}


def _reference_picks(arrs, turns, dice, rules, n_random=100, n_special=150):
    """The first ``n_random`` positions and up to ``n_special`` more where the rules about
    how many dice to play matter: one die of a non-double, part of a double, or none."""
    counts, _, steps = legal_batch(arrs, turns, dice, rules)
    starts = np.cumsum(counts) - counts
    special = []
    for k in range(n_random, len(arrs)):
        used = 0 if counts[k] == 0 else int((steps[starts[k], :, 0] != 0).sum())
        if used < (4 if dice[k, 0] == dice[k, 1] else 2):
            special.append(k)
    return list(range(n_random)) + special[:n_special]


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_generator_matches_single_step_reference(samples, rules):
    arrs, turns, dice = samples[rules.game_name]
    picks = _reference_picks(arrs, turns, dice, rules)
    assert len(picks) >= 150
    counts, results, _ = legal_batch(arrs[picks], turns[picks], dice[picks], rules)
    row = 0
    for j, k in enumerate(picks):
        ours = [results[row + i].tobytes() for i in range(counts[j])]
        row += counts[j]
        assert len(set(ours)) == len(ours)
        want = reference_finals(np.array(arrs[k]), int(turns[k]), int(dice[k, 0]),
                                int(dice[k, 1]), rules)
        assert set(ours) == want, (rules, arrs[k].tolist(), int(turns[k]), dice[k].tolist())
