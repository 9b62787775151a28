"""The bear-off databases (tavli/ai/bearoff.py): the index, the move lists against a plain
reading of the rules, the recursions against plain ones, consistency, gnubg's databases,
the files and the ``tavli bearoff`` command."""

from __future__ import annotations

import functools
import itertools
import json

import numpy as np
import pytest

from tavli import Position, Rules
from tavli.ai import bearoff as bo
from tavli.ai.net import write_npz
from tavli.cli import main
from tavli.engine.games.kernel import F_HIGHER

ROLLS = [(a, b, (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1)]
T = np.arange(bo.ROLLS)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The databases, built once into a temporary cache folder by :func:`load_tables`."""
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TAVLI_CACHE_DIR", str(folder))
        tables = bo.load_tables()
        assert bo.load_tables() is tables  # once per process
    assert (folder / bo.FILE_NAME).is_file()
    return folder, tables


@pytest.fixture(scope="module")
def positions():
    return bo.all_positions()


@pytest.fixture(scope="module")
def index(positions):
    """The positions' indices as a dict (counts tuple -> index)."""
    return {tuple(int(v) for v in row): k for k, row in enumerate(positions)}


def means(bo1, which=bo.ALL_OFF):
    return (bo1[:, which].astype(np.float64) * T).sum(axis=1)


def board(me, opp, me_side=0):
    """A flat board: ``me`` (counts on points 1..6) for ``me_side``, ``opp`` the other."""
    a = np.zeros((4, 26), dtype=np.int8)
    for side, counts in ((me_side, me), (1 - me_side, opp)):
        a[side, 1:1 + len(counts)] = counts
        a[side, 0] = 15 - sum(counts)
    return a.reshape(-1)


# --- plain rules and recursions, written apart from the engine --------------------------

def _steps(c, d):
    """Positions after one die ``d`` in a bear-off position ``c`` (counts on points 1..6)."""
    out = []
    for s in range(6, 0, -1):
        if c[s - 1] == 0:
            continue
        t = s - d
        if t < 0 and any(c[q - 1] for q in range(s + 1, 7)):
            continue  # a checker on a higher point must use the die
        n = list(c)
        n[s - 1] -= 1
        if t >= 1:
            n[t - 1] += 1
        out.append(tuple(n))
    return out


@functools.cache
def plain_moves(c, d1, d2):
    """Distinct final positions of the roll ``d1 d2``: the most dice, the higher die when
    only one can be played."""
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    finals: dict[tuple[int, int], set] = {}
    for order in orders:
        level = {c}
        for used, d in enumerate(order, 1):
            level = {m for x in level for m in _steps(x, d)}
            if not level:
                break
            finals.setdefault((used, order[0]), set()).update(level)
    if not finals:
        return frozenset({c})
    most = max(u for u, _ in finals)
    if most == 1 and d1 != d2 and (1, max(d1, d2)) in finals:
        return frozenset(finals[1, max(d1, d2)])
    return frozenset(set().union(*(v for (u, _), v in finals.items() if u == most)))


@functools.cache
def plain_rolls(c):
    """(expected rolls, distribution) to bear off ``c``, each roll minimising the mean."""
    dist = np.zeros(bo.ROLLS)
    if sum(c) == 0:
        dist[0] = 1
        return 0.0, dist
    e = 1.0
    for d1, d2, w in ROLLS:
        best = min(plain_moves(c, d1, d2), key=lambda m: plain_rolls(m)[0])
        e += w * plain_rolls(best)[0]
        dist[1:] += w * plain_rolls(best)[1][:-1]
    return e, dist


@functools.cache
def plain_win(me, opp):
    """P(win) of ``me`` on roll against ``opp``, both playing to win."""
    if sum(me) == 0:
        return 1.0
    if sum(opp) == 0:
        return 0.0
    return sum(w * max(1 - plain_win(opp, m) for m in plain_moves(me, d1, d2))
               for d1, d2, w in ROLLS)


def small(max_checkers):
    return [c for c in itertools.product(range(max_checkers + 1), repeat=6)
            if sum(c) <= max_checkers]


# --- the index ---------------------------------------------------------------------------

def test_index_is_a_bijection(positions, index):
    assert positions.shape == (bo.ONE_SIDED, 6) and len(index) == bo.ONE_SIDED
    assert (positions >= 0).all() and (positions.sum(axis=1) <= 15).all()
    for k in range(0, bo.ONE_SIDED, 7):
        assert bo.index_of_counts(positions[k].astype(np.int64)) == k
        assert bo.counts_of(k) == tuple(positions[k])
    # by checkers on the board: the first 924 are the positions of 6 or fewer
    n = positions.sum(axis=1)
    assert (np.diff(n) >= 0).all()
    assert (n[:bo.TWO_SIDED] <= 6).all() and n[bo.TWO_SIDED] == 7
    assert (n[:bo.FULL] < 15).all() and (n[bo.FULL:] == 15).all()
    # read from a flat board, either side; checkers elsewhere are ignored
    b = board((3, 2), (0, 0, 0, 0, 1, 2))
    b[26 + 12] = 1
    assert bo.one_sided_index(b, 0) == index[3, 2, 0, 0, 0, 0]
    assert bo.one_sided_index(b, 1) == index[0, 0, 0, 0, 1, 2]
    with pytest.raises(IndexError):
        bo.counts_of(bo.ONE_SIDED)


# --- the move lists ----------------------------------------------------------------------

def test_move_lists_follow_the_rules_read_plainly(positions, index):
    count = 210  # every position of up to 4 checkers
    starts, targets = bo.move_table(positions, count, bo.bearoff_flags())
    for k in range(count):
        c = tuple(int(v) for v in positions[k])
        for r, (d1, d2, _w) in enumerate(ROLLS):
            got = targets[starts[21 * k + r]:starts[21 * k + r + 1]]
            assert len(set(got)) == len(got)
            if k == 0:
                assert len(got) == 0
            else:
                assert set(got) == {index[m] for m in plain_moves(c, d1, d2)}, (c, d1, d2)


def test_every_game_and_must_play_higher_give_the_same_lists(positions):
    """Why the files are not keyed by a rule option (see the module docstring)."""
    count = 3003  # up to 8 checkers
    ref = bo.move_table(positions, count, bo.bearoff_flags())
    assert bo.bearoff_flags()[F_HIGHER] == 1
    for game, options in (("backgammon", ["must_play_higher=false"]), ("portes", []),
                          ("plakoto", ["must_play_higher=true"]), ("fevga", [])):
        flags = Rules.for_game(game, options).kernel_flags()
        starts, targets = bo.move_table(positions, count, flags)
        assert (starts == ref[0]).all(), game
        for q in range(0, 21 * count, 37):
            a, z = starts[q], starts[q + 1]
            assert sorted(targets[a:z]) == sorted(ref[1][a:z])


# --- the recursions ----------------------------------------------------------------------

def test_one_sided_matches_a_plain_recursion(built, index):
    bo1 = built[1][0]
    for c in small(4):
        e, dist = plain_rolls(c)
        k = index[c]
        assert np.abs(bo1[k, bo.ALL_OFF] - dist).max() < 1e-6, c
        assert abs(means(bo1[k:k + 1])[0] - e) < 1e-5
        assert bo1[k, bo.FIRST_OFF, 0] == 1  # some are off already
    # one checker on the 6-point bears off at once with 27 rolls of 36
    assert bo1[index[0, 0, 0, 0, 0, 1], bo.ALL_OFF, 1] == pytest.approx(0.75)


def test_two_sided_matches_a_plain_recursion(built, index):
    bo2 = built[1][1]
    cases = small(3)
    worst = max(abs(float(bo2[index[a], index[b]]) - plain_win(a, b))
                for a in cases for b in cases if sum(a) and sum(b))
    assert worst < 1e-6
    assert bo2[index[1, 0, 0, 0, 0, 0], index[0, 0, 0, 0, 0, 1]] == 1
    assert bo2[index[0, 0, 0, 0, 0, 1], index[1, 0, 0, 0, 0, 0]] == pytest.approx(0.75)
    assert bo2[index[0, 0, 0, 0, 0, 1], 0] == 0 and (bo2[0] == 1).all()


def test_first_checker_off(built, index):
    bo1 = built[1][0]
    k = index[0, 0, 0, 0, 0, 15]
    # a checker bears off at once from fifteen on the 6-point with a 6, 5-1, 4-2, 3-3, 2-2
    assert bo1[k, bo.FIRST_OFF, 1] == pytest.approx(17 / 36)
    assert bo1[index[15, 0, 0, 0, 0, 0], bo.FIRST_OFF, 1] == 1
    assert (bo1[:bo.FULL, bo.FIRST_OFF, 0] == 1).all()
    assert (bo1[bo.FULL:, bo.FIRST_OFF, 0] == 0).all()
    assert (means(bo1, bo.FIRST_OFF) <= means(bo1) + 1e-6).all()


def test_distributions_are_consistent(built, positions, index):
    bo1, bo2 = built[1]
    assert bo1.shape == (bo.ONE_SIDED, 2, bo.ROLLS) and bo1.dtype == np.float32
    assert bo2.shape == (bo.TWO_SIDED, bo.TWO_SIDED) and bo2.dtype == np.float32
    assert np.abs(bo1.sum(axis=2, dtype=np.float64) - 1).max() < 1e-5
    assert (bo1 >= 0).all() and (bo1[:, :, -1] == 0).all()  # 30 rolls at most
    assert bo1[0, bo.ALL_OFF, 0] == 1
    mean = means(bo1)
    assert mean.max() == pytest.approx(means(bo1[[index[0, 0, 0, 0, 0, 15]]])[0])
    # a checker fewer never needs more rolls, nor wins less often
    keys = positions.astype(np.int64) @ (16 ** np.arange(6))
    order = np.argsort(keys)
    for p in range(6):
        ks = np.flatnonzero(positions[:, p] > 0)
        fewer = order[np.searchsorted(keys[order], keys[ks] - 16 ** p)]
        assert (positions[fewer, p] == positions[ks, p] - 1).all()
        assert (mean[fewer] <= mean[ks] + 1e-5).all()
        two = ks < bo.TWO_SIDED
        assert (bo2[fewer[two]] >= bo2[ks[two]] - 1e-6).all()
        assert (bo2[:, fewer[two]] <= bo2[:, ks[two]] + 1e-6).all()


def test_two_sided_and_race_formula_agree_closely(built):
    """The race formula treats the sides as independent and plays to save rolls, not to
    win: close to the exact two-sided value, not equal."""
    bo1, bo2 = built[1]
    n = bo.TWO_SIDED
    me = bo1[:n, bo.ALL_OFF].astype(np.float64)
    opp_ge = np.cumsum(me[:, ::-1], axis=1)[:, ::-1]  # P(needs >= t)
    race = me @ opp_ge.T
    diff = np.abs(race - bo2)[1:, 1:]
    print(f"two-sided against the race formula: max {diff.max():.4f}, "
          f"mean {diff.mean():.6f}")
    assert diff.max() < 0.02 and diff.mean() < 1e-3
    # and bearoff_outputs without bo2 gives the formula
    out = np.zeros(5, dtype=np.float32)
    i, j = 500, 700
    b = board(bo.counts_of(i), bo.counts_of(j))
    assert bo.bearoff_outputs(bo1, bo.empty_tables()[1], b, 0, out) == 1
    assert out[0] == pytest.approx(race[i, j], abs=1e-6)
    assert bo.bearoff_outputs(bo1, bo2, b, 0, out) == 2
    assert out[0] == bo2[i, j] and not out[1:].any()


# --- against gnubg -----------------------------------------------------------------------

def test_one_sided_matches_gnubg(built, positions):
    """gnubg's one-sided database also minimises the mean; it keeps probabilities in 16
    bits and chooses moves on those rounded values, so where two moves' means differ by
    less than its rounding (about 1e-5) it may pick the other one, whose distribution can
    differ by up to a few 1e-3 at the same mean."""
    import gnubg_nn as gnubg  # a test extra (pyproject.toml)
    bo1 = built[1][0]
    rng = np.random.default_rng(17)
    ks = rng.choice(np.arange(1, bo.ONE_SIDED), 200, replace=False)
    dist_diff, mean_diff = [], []
    for k in ks:
        ref = np.zeros(bo.ROLLS)
        g = gnubg.bearoff_probabilities(tuple(int(v) for v in positions[k]))
        ref[1:1 + len(g)] = g  # gnubg's entry t is t + 1 rolls
        dist_diff.append(np.abs(bo1[k, bo.ALL_OFF] - ref).max())
        mean_diff.append(abs(means(bo1[[k]])[0] - (ref * T).sum()))
    dist_diff, mean_diff = np.array(dist_diff), np.array(mean_diff)
    print(f"gnubg, 200 positions: distributions max {dist_diff.max():.2e}, "
          f"{(dist_diff > 1e-4).sum()} over 1e-4; means max {mean_diff.max():.2e}")
    assert mean_diff.max() < 5e-4  # means of gnubg's rounded entries
    assert (dist_diff <= 1e-4).mean() >= 0.98 and dist_diff.max() < 5e-3


def test_a_difference_from_gnubg_is_a_near_tie(built, index):
    """(1,0,4,1,2,1): gnubg's distribution differs by 2e-3. With 2-2 two moves lead to
    positions whose means differ by 4e-5, the order gnubg's rounded values reverse."""
    import gnubg_nn as gnubg  # a test extra (pyproject.toml)
    bo1 = built[1][0]
    c = (1, 0, 4, 1, 2, 1)
    g = np.zeros(bo.ROLLS)
    got = gnubg.bearoff_probabilities(c)
    g[1:1 + len(got)] = got
    assert np.abs(bo1[index[c], bo.ALL_OFF] - g).max() > 1e-3
    mine, other = (1, 1, 4, 0, 2, 0), (2, 0, 3, 1, 2, 0)
    assert {mine, other} <= plain_moves(c, 2, 2)
    m = means(bo1[[index[mine], index[other]]])
    assert 0 < m[1] - m[0] < 1e-4  # ours is better, barely

    def gmean(x):
        p = gnubg.bearoff_probabilities(x)
        return sum((t + 1) * v for t, v in enumerate(p))

    assert gmean(other) < gmean(mine)  # gnubg's rounded means order them the other way


def test_outputs_match_gnubg(built, positions):
    """gnubg's 0-ply evaluation of a bear-off uses its own databases: two-sided (6 points,
    6 checkers) exact, else the one-sided race with gammons, as here."""
    import gnubg_nn as gnubg  # a test extra (pyproject.toml)
    tables = built[1]
    rng = np.random.default_rng(5)
    worst = {1: 0.0, 2: 0.0}
    for lo, hi in ((1, bo.TWO_SIDED), (bo.TWO_SIDED, bo.ONE_SIDED), (bo.FULL, bo.ONE_SIDED)):
        for _ in range(70):
            i, j = (int(v) for v in rng.integers(lo, hi, 2))
            me, opp = tuple(positions[i]), tuple(positions[j])
            how, out = bo.position_outputs(board(me, opp).reshape(4, 26), 0, tables)
            ref = gnubg.probabilities([list(opp) + [0] * 19, list(me) + [0] * 19], 0)
            worst[how] = max(worst[how], float(np.abs(out - np.array(ref)).max()))
    print(f"gnubg's outputs: two-sided max {worst[2]:.2e}, one-sided max {worst[1]:.2e}")
    assert worst[2] < 1e-4 and worst[1] < 2e-4


# --- valuing positions -------------------------------------------------------------------

def test_outputs_only_for_pure_bear_offs(built):
    bo1, bo2 = built[1]
    out = np.full(5, -1.0, dtype=np.float32)
    start = Position.start("backgammon").array.reshape(-1).copy()
    assert bo.bearoff_outputs(bo1, bo2, start, 0, out) == 0 and (out == -1).all()
    b = board((3, 2, 0, 0, 0, 1), (0, 0, 4, 4, 4, 3))
    assert bo.bearoff_outputs(bo1, bo2, b, 0, out) == 1
    for slot in (7, 24, 25, 26 + 7, 26 + 25):  # a checker outside, on the bar
        other = b.copy()
        other[slot] += 1
        other[0 if slot < 26 else 26] -= 1
        assert not bo.is_pure_bearoff(other)
        assert bo.bearoff_outputs(bo1, bo2, other, 0, out) == 0
    pinned = b.copy()
    pinned[2 * 26 + 1] = 1  # a Plakoto pin flag
    assert bo.bearoff_outputs(bo1, bo2, pinned, 0, out) == 0
    e1, e2 = bo.empty_tables()
    assert e1.shape == (0, 2, 32) and e2.shape == (0, 0) and e1.dtype == np.float32
    assert bo.bearoff_outputs(e1, e2, b, 0, out) == 0
    assert bo.bearoff_outputs(bo1, e2, board((1,), (2,)), 0, out) == 1


def test_outputs_for_either_side_and_gammons(built):
    bo1, bo2 = built[1]
    out0 = np.zeros(5, dtype=np.float32)
    out1 = np.zeros(5, dtype=np.float32)
    me, opp = (8, 7, 0, 0, 0, 0), (0, 0, 0, 0, 0, 15)
    assert bo.bearoff_outputs(bo1, bo2, board(me, opp, 0), 0, out0) == 1
    assert bo.bearoff_outputs(bo1, bo2, board(me, opp, 1), 1, out1) == 1
    assert (out0 == out1).all()
    assert 0.9 < out0[0] < 1 and 0 < out0[1] < 0.01
    assert out0[3] == 0 and out0[2] == out0[4] == 0  # my first checker is off at once
    bo.bearoff_outputs(bo1, bo2, board(opp, me, 0), 0, out1)  # his view, him to move
    assert 0 < out1[3] < 0.01 and out1[1] == 0 and 0 < out1[0] < 0.1
    # no gammon against a side with a checker off
    bo.bearoff_outputs(bo1, bo2, board(me, (0, 0, 0, 0, 0, 14), 0), 0, out0)
    assert out0[1] == 0 and out0[0] > 0.9
    bo.bearoff_outputs(bo1, bo2, board(opp, (8, 6, 0, 0, 0, 0), 0), 0, out1)
    assert out1[1] == 0 and out1[3] > 0  # he may still lose one


# --- files -------------------------------------------------------------------------------

def test_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("TAVLI_CACHE_DIR", str(tmp_path / "own"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert bo.cache_dir() == tmp_path / "own"
    monkeypatch.delenv("TAVLI_CACHE_DIR")
    assert bo.cache_dir() == tmp_path / "xdg" / "tavli"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert bo.cache_dir() == tmp_path / ".cache" / "tavli"
    assert bo.default_path().name == f"bearoff-v{bo.FORMAT}.npz"


def test_first_use_builds_and_says_so(built, monkeypatch, tmp_path, capsys):
    made = []

    def fake_build(path=None, progress=None):
        made.append(path)
        path.write_bytes((built[0] / bo.FILE_NAME).read_bytes())
        return path

    monkeypatch.setenv("TAVLI_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(bo, "build", fake_build)
    assert bo.load_tables(build_if_missing=False)[0].shape[0] == 0  # none, not built
    assert made == []
    tables = bo.load_tables()
    assert made == [tmp_path / bo.FILE_NAME] and tables[0].shape[0] == bo.ONE_SIDED
    err = capsys.readouterr().err
    assert err.startswith("tavli: building the bear-off databases, once: about ")
    assert err.count("\n") == 1
    assert bo.load_tables() is tables and capsys.readouterr().err == ""


def test_bad_files_give_one_clear_error(monkeypatch, tmp_path):
    path = tmp_path / bo.FILE_NAME
    path.write_text("not a database")
    with pytest.raises(bo.BearoffError, match="not a tavli bear-off database.*--force"):
        bo.load(path)
    monkeypatch.setenv("TAVLI_CACHE_DIR", str(tmp_path))
    with pytest.raises(bo.BearoffError, match="not a tavli bear-off database"):
        bo.load_tables()  # a broken file is reported, not rebuilt behind the user's back
    meta = np.frombuffer(json.dumps({}).encode(), dtype=np.uint8)
    write_npz(path, one_sided=np.zeros((3, 2, 32), np.float32),
              two_sided=np.zeros((924, 924), np.float32), meta=meta)
    with pytest.raises(bo.BearoffError, match="wrong shape"):
        bo.load(path)
    bad = np.zeros((bo.ONE_SIDED, 2, 32), np.float32)
    write_npz(path, one_sided=bad, two_sided=np.zeros((924, 924), np.float32), meta=meta)
    with pytest.raises(bo.BearoffError, match="not probabilities"):
        bo.load(path)
    with pytest.raises(bo.BearoffError, match="cannot read"):
        bo.load(tmp_path / "missing.npz")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(bo.BearoffError, match="cannot make the folder"):
        bo.build(blocker / "sub" / bo.FILE_NAME)


# --- the command -------------------------------------------------------------------------

def test_cli_show(built, index, monkeypatch, capsys):
    monkeypatch.setenv("TAVLI_CACHE_DIR", str(built[0]))
    assert main(["bearoff", "show", "3,2"]) == 0
    out = capsys.readouterr().out
    assert "3 2 0 0 0 0 (5 checkers, 7 pips" in out and "rolls 2: 0.305556, 3: 0.694444" in out
    pos = Position.from_points("backgammon", {1: 3, 2: 2}, {5: 1, 6: 2}, turn=1)
    assert main(["bearoff", "show", pos.id()]) == 0
    out = capsys.readouterr().out
    p = float(built[1][1][index[0, 0, 0, 0, 1, 2], index[3, 2, 0, 0, 0, 0]])
    assert out.startswith("black (to move)") and f"black wins with {p:.6f}" in out
    pos = Position.from_points("plakoto", {3: 15}, {6: 10, 5: 5})
    assert main(["bearoff", "show", "plakoto", pos.id(), "--dir", str(built[0])]) == 0
    out = capsys.readouterr().out
    assert "win gammon" in out and "to bear off the first: mean" in out


def test_cli_build(built, monkeypatch, tmp_path, capsys):
    assert main(["bearoff", "build", "--dir", str(built[0])]) == 0
    assert "already built" in capsys.readouterr().out
    made = []
    monkeypatch.setattr(bo, "build", lambda path, progress=None: made.append(path)
                        or path.parent.mkdir(exist_ok=True) or path.write_bytes(b"x"))
    assert main(["bearoff", "build", "--dir", str(built[0] / "new")]) == 0
    assert made == [built[0] / "new" / bo.FILE_NAME]
    assert "built the bear-off databases in" in capsys.readouterr().out
    assert main(["bearoff", "build", "--force", "--dir", str(built[0] / "new")]) == 0
    assert len(made) == 2


@pytest.mark.parametrize("argv, words", [
    (["bearoff", "show", "nonsense"], "position ID"),
    (["bearoff", "show", "9,9"], "18 checkers"),
    (["bearoff", "show", "backgammon", "start"], "not a bear-off position"),
    (["bearoff", "show"], "usage"),
    (["bearoff", "show", "3,2", "--dir", "{tmp}/none"], "no bear-off databases"),
    (["bearoff", "build", "--dir", "{tmp}/file"], "not a folder"),
    (["bearoff", "build", "--dir", "{tmp}/file/sub"], "cannot make the folder"),
])
def test_cli_bad_input_is_one_line(built, monkeypatch, tmp_path, capsys, argv, words):
    monkeypatch.setenv("TAVLI_CACHE_DIR", str(built[0]))
    (tmp_path / "file").write_text("")
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("tavli: error: ") and err.count("\n") == 1, err
    assert words in err
