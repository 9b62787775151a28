"""The "portes-2" inputs (tavli/ai/features.py): sizes, each feature on hand-made positions,
symmetry between the colours, and a portes-2 network that trains, saves, loads and plays."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest

from tavli import Position
from tavli.ai.context import EvalContext
from tavli.ai.encode import (
    ENCODERS,
    PORTES2,
    PORTES2_NOESCAPES,
    PORTES2_NOHITS,
    encode,
    encoder_family,
    n_inputs,
)
from tavli.ai.features import ESCAPES, GROUPS, N_PORTES2, group_slice, hit_rolls, timing
from tavli.ai.net import Net
from tavli.engine.games import HITTING
from tavli.engine.rules import Rules
from tavli.errors import NetError, TrainingError

BG = "backgammon"


def inputs(p: Position, code: int = PORTES2) -> np.ndarray:
    x = np.full(n_inputs(code), 7.0, np.float32)  # the encoder clears what it leaves out
    assert encode(p.flat(), p.turn, code, x) == N_PORTES2
    return x


def group(p: Position, name: str, code: int = PORTES2) -> list[float]:
    return inputs(p, code)[group_slice(name)].tolist()


def test_sizes_and_registration():
    assert N_PORTES2 == sum(n for _, n in GROUPS) == n_inputs(PORTES2) == 238
    assert ENCODERS["portes-2"] == PORTES2 and encoder_family(PORTES2) == HITTING
    assert n_inputs(PORTES2_NOHITS) == n_inputs(PORTES2_NOESCAPES) == N_PORTES2
    x = inputs(Position.start(BG))
    assert np.isfinite(x).all() and (x >= 0).all()
    assert x[4 * 23] == 1.0 and x[4 * 23 + 1] == 1.0  # raw: my 24-point holds two


def test_one_blot_six_pips_from_one_checker():
    # my blot on 20 (his 5), his checker on his 11: any 6 (11), 5-1 and 4-2 (4), 3-3 and
    # 2-2 (2): 17 rolls; a hit costs the blot 5 pips
    p = Position.from_points(BG, {20: 1, 6: 14}, {11: 1, 1: 14})
    assert hit_rolls(p.flat(), 0) == pytest.approx((17 / 36, 0.0, 17 / 36 * 5 / 24))
    hits = group(p, "hits")
    assert hits[:3] == pytest.approx([17 / 36, 0.0, 17 / 36 * 5 / 24])
    # his lone checker is a blot 6 pips in front of mine: the same 17 rolls, 14 pips lost
    assert hits[3:] == pytest.approx([17 / 36, 0.0, 17 / 36 * 14 / 24])
    # my point 17 (his 8) made: 3-3 must stop there
    q = Position.from_points(BG, {20: 1, 17: 2, 6: 12}, {11: 1, 1: 14})
    assert hit_rolls(q.flat(), 0)[0] == pytest.approx(16 / 36)
    # and 2-2 too when his 9 (my 16) is made as well; 4-2 still goes by his 7
    r = Position.from_points(BG, {20: 1, 17: 2, 16: 2, 6: 10}, {11: 1, 1: 14})
    assert hit_rolls(r.flat(), 0)[0] == pytest.approx(15 / 36)


def test_his_blot_is_counted_for_him():
    # the same shot seen the other way: my checker on my 11, his blot on his 20
    p = Position.from_points(BG, {11: 1, 1: 14}, {20: 1, 6: 14}, turn=0)
    assert group(p, "hits")[3:] == pytest.approx([17 / 36, 0.0, 17 / 36 * 5 / 24])


def test_two_blots_hit_with_one_roll():
    # my blots on 20 and 19 (his 5 and 6), his checker on his 11: only 5-1 hits both
    p = Position.from_points(BG, {20: 1, 19: 1, 6: 13}, {11: 1, 1: 14})
    one, two, _ = hit_rolls(p.flat(), 0)
    assert two == pytest.approx(2 / 36)
    # any 5 or 6, 4-1, 3-2, 4-2 (by 7, open), 3-3, 2-2 (8 pips, open), 1-1 (4 of them: no)
    assert one == pytest.approx((20 + 2 + 2 + 2 + 1 + 1) / 36)
    # two checkers of his, one die each: his 11 and his 10, blots at 6 pips from each
    q = Position.from_points(BG, {20: 1, 21: 1, 6: 13}, {11: 1, 10: 1, 1: 13})
    assert hit_rolls(q.flat(), 0)[1] > 2 / 36


def test_checkers_on_the_bar_enter_first():
    # my blot on 3 (his 22, where he enters with a 3), my 6 made (his 19: a 6 stays out)
    one_bar = Position.from_points(BG, {3: 1, 6: 14}, {25: 1, 1: 14})
    # any 3 (11), 2-1 (enter and go on to 22), 1-1 (enter on 24, two more steps): 14
    assert hit_rolls(one_bar.flat(), 0)[0] == pytest.approx(14 / 36)
    two_bar = Position.from_points(BG, {3: 1, 6: 14}, {25: 2, 1: 13})
    # both checkers enter first: 2-1 no longer hits; 1-1 still does (two steps left)
    assert hit_rolls(two_bar.flat(), 0)[0] == pytest.approx(12 / 36)


def test_hits_agree_with_the_legal_moves():
    """On positions of random play, the shares equal the best legal move's hits for the
    turns where legality (both dice must be played) does not forbid the hit."""
    rules = Rules.for_game(BG)
    rng = random.Random(3)
    p = Position.start(BG)
    checked = 0
    while checked < 12:
        d = (rng.randint(1, 6), rng.randint(1, 6))
        moves = p.legal_moves(d, rules)
        p = rng.choice(moves).after if moves else p.swap_turn()
        if p.is_finished():
            p = Position.start(BG)
            continue
        side = 1 - p.turn  # the blots of the side that just moved
        if not any(p.array[side, q] == 1 for q in range(1, 25)):
            continue
        mine = hit_rolls(p.flat(), side)
        counts = np.zeros(2)
        for a in range(1, 7):
            for c in range(a, 7):
                best = max((int(m.after.array[side, 25] - p.array[side, 25])
                            for m in p.legal_moves((a, c), rules)), default=0)
                counts += (1 if a == c else 2) * np.array([best >= 1, best >= 2])
        assert counts[0] / 36 <= mine[0] + 1e-9 and counts[1] / 36 <= mine[1] + 1e-9
        assert mine[0] - counts[0] / 36 < 0.2
        checked += 1


def test_escapes_and_containment():
    start = Position.start(BG)
    # from my 24: past his 6- and 8-points (my 19, 17): 6-2 6-3 6-4 6-5 5-3 5-4 (12),
    # 2-2 3-3 4-4; not 6-6 (his midpoint, my 12, stops the second six) nor 5-5
    esc = group(start, "escapes")
    assert esc[0] == pytest.approx(15 / 36) and esc == pytest.approx(esc[2:] + esc[2:])
    # behind a full prime (his 2-7, my 23-18): no escape, fully contained
    primed = Position.from_points(BG, {24: 1, 6: 14}, {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2,
                                                         8: 3})
    assert group(primed, "escapes")[:2] == [0.0, 1.0]
    # nothing in front within eight points: every roll escapes
    assert ESCAPES[0] == 36 and ESCAPES[0b111111] == 0
    free = Position.from_points(BG, {24: 1, 6: 14}, {23: 1, 12: 14})
    assert group(free, "escapes")[0] == 1.0
    # a race: no hits, no escapes
    race = Position.from_points(BG, {6: 1, 5: 14}, {5: 1, 6: 14})  # blots, no contact
    assert group(race, "escapes") == [0.0] * 4 and group(race, "hits") == [0.0] * 6
    assert group(race, "race")[3] == 0.0


def test_anchors_points_prime_back():
    p = Position.from_points(BG, {24: 2, 20: 2, 15: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 1},
                             {6: 5, 8: 3, 13: 5, 24: 2})
    anchors = group(p, "anchors")
    assert anchors[:3] == pytest.approx([2 / 3, 5 / 6, 1 / 6])  # 24 and 20; 15
    pts = group(p, "points")
    assert pts[:4] == pytest.approx([1 / 6, 3 / 6, 1 / 3, 1 / 5])  # 6; 7 8 9; slot on 5
    assert group(p, "prime")[:2] == pytest.approx([4 / 6, 9 / 24])  # 6-9
    assert group(p, "back")[:2] == pytest.approx([4 / 5, 24 / 25])
    # timing: 24s 2*18, 20s 2*14, 15s 2*9, 9s 2*3, 8s 2*2, 7s 2*1, the blot on 5: 4
    assert timing(p.flat(), 0) == 36 + 28 + 18 + 6 + 4 + 2 + 4
    assert group(p, "timing")[0] == pytest.approx(0.98)


def test_closed_board_and_bar():
    closed = Position.from_points(BG, {25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2,
                                                         8: 3})
    bar = group(closed, "bar")
    assert bar[:2] == [0.0, 1.0]  # I cannot enter: his board is closed
    assert bar[2:] == pytest.approx([1 - (1 / 6) ** 2, 0.0])  # my 6-point: his 19
    assert group(closed, "bar-off")[0] == 0.5
    assert group(closed, "points")[4] == 1.0  # his six home points


def test_race_features():
    p = Position.from_points(BG, {6: 5, 13: 5}, {6: 10})
    race = group(p, "race")
    assert race == pytest.approx([0.95, 0.6, 0.35 / 0.5, 0.0])  # no contact


def _positions(n: int, seed: int) -> list[Position]:
    rules = Rules.for_game(BG)
    rng = random.Random(seed)
    out = []
    p = Position.start(BG)
    while len(out) < n:
        d = (rng.randint(1, 6), rng.randint(1, 6))
        moves = p.legal_moves(d, rules)
        p = rng.choice(moves).after if moves else p.swap_turn()
        if p.is_finished():
            p = Position.start(BG)
        out.append(p)
    return out


@pytest.mark.parametrize("code", [PORTES2, PORTES2_NOHITS, PORTES2_NOESCAPES])
def test_same_inputs_from_either_side(code):
    for p in _positions(150, 11):
        swapped = Position(p.game, p.array[[1, 0, 3, 2]], turn=1 - p.turn)
        assert np.array_equal(inputs(p, code), inputs(swapped, code))


def test_ablations_leave_their_group_at_zero():
    for p in _positions(60, 12):
        full = inputs(p)
        for code, name in ((PORTES2_NOHITS, "hits"), (PORTES2_NOESCAPES, "escapes")):
            x = inputs(p, code)
            sl = group_slice(name)
            assert not x[sl].any()
            rest = np.ones(N_PORTES2, bool)
            rest[sl] = False
            assert np.array_equal(x[rest], full[rest])


def test_a_portes2_net_trains_saves_loads_and_plays(tmp_path, capsys):
    from tavli.ai.analyzer import Analyzer
    from tavli.ai.fastplay import NET, RANDOM, compiled_match
    from tavli.cli import main
    from tavli.training.selfplay import train_games

    net = Net.random(BG, hidden=8, seed=2, inputs="portes-2")
    assert net.W1.shape == (N_PORTES2, 8) and net.encoder == PORTES2
    rules = Rules.for_game(BG)
    before = net.W1.copy()
    stats = np.zeros(4)
    train_games(net.weights, np.array(Position.start(BG).array), rules.kernel_flags(), 5,
                0.1, 1, net.scratch(), stats, 0.0, 0.0)
    assert stats[0] == 5 and not np.array_equal(before, net.W1)
    path = tmp_path / "p2.npz"
    net.save(path)
    back = Net.load(path)
    assert back.encoder == PORTES2 and np.array_equal(back.W1, net.W1)
    assert "inputs='portes-2'" in repr(back)
    pos = [Position.start(BG)]
    assert np.allclose(back.evaluate(pos), net.evaluate(pos))
    res = compiled_match(back, NET, None, RANDOM, rules, 3, 1)
    assert res.shape == (6,)
    moves = pos[0].legal_moves((3, 1), rules)
    ranked = Analyzer(rules, back).rank(pos[0], moves, EvalContext(plies=1))
    assert ranked and ranked[0].equity >= ranked[-1].equity
    assert main(["bench", "strength", f"net:{path}", "random", "--games", "4"]) == 0
    assert "4 games" in capsys.readouterr().out


def test_train_takes_the_inputs_option(tmp_path, capsys):
    from tavli.cli import main
    from tavli.training.train import train

    run = tmp_path / "r"
    assert main(["train", BG, "--games", "20", "--run", str(run), "--inputs", "portes-2",
                 "--hidden", "4", "--check-every", "20", "--check-pairs", "5"]) == 0
    net = Net.load(run / "checkpoint.npz")
    assert net.meta["inputs"] == "portes-2" and net.encoder == PORTES2 and net.games == 20
    capsys.readouterr()
    for args, why in ((["--inputs", "nope"], "unknown inputs 'nope': one of portes, "),
                      (["--inputs", "plakoto"], "the plakoto inputs are for plakoto"),
                      (["--inputs", "portes"], "reads the portes-2 inputs, not portes")):
        assert main(["train", BG, "--games", "30", "--run", str(run)] + args) == 2
        err = capsys.readouterr().err
        assert why in err and err.count("\n") == 1
    with pytest.raises(TrainingError, match="are for portes networks, not plakoto"):
        train("plakoto", 10, tmp_path / "p", inputs="portes-2", out=io.StringIO())
    assert not (tmp_path / "p").exists()
    with pytest.raises(NetError, match="not for plakoto"):
        Net.random("plakoto", hidden=2, inputs="portes-2")
