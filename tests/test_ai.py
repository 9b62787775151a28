"""The AI: encoders, network, equity, search, training, hint, analysis, pubeval."""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest

from tavli import Position
from tavli.ai.analyzer import Analyzer
from tavli.ai.context import EvalContext
from tavli.ai.encode import (
    N_FEVGA,
    N_PLAKOTO,
    N_PORTES,
    encode_position,
    encoder_function,
    n_inputs,
)
from tavli.ai.fastplay import NET, RANDOM, compiled_match, terminal
from tavli.ai.levels import parse_level
from tavli.ai.net import Net, equity, flip
from tavli.ai.neural import NeuralPlayer, PubevalPlayer
from tavli.ai.search import Searcher
from tavli.engine.games import PINNING
from tavli.engine.rules import Rules
from tavli.errors import RuleError, TavliError, TrainingError
from tavli.play.game import Game
from tavli.training.train import StrengthResult, strength


@pytest.mark.parametrize("game,size", [("portes", N_PORTES), ("backgammon", N_PORTES),
                                       ("plakoto", N_PLAKOTO), ("fevga", N_FEVGA)])
def test_encoder_shapes_and_start_values(game, size):
    x = encode_position(Position.start(game))
    assert x.shape == (size,) and x.dtype == np.float32
    assert np.isfinite(x).all()
    # raw part: the mover's 24-point holds 2 (portes) or 15 (others) checkers
    k = 4 * 23
    assert x[k] == 1.0 and x[k + 1] == 1.0
    assert x[k + 3] == (0.0 if game in ("portes", "backgammon") else 6.0)


def test_encoder_is_from_the_side_to_move():
    p = Position.from_points("portes", {6: 5, 3: 2}, {23: 2, 13: 5}, turn=0)
    q = Position(p.game, p.array[[1, 0, 3, 2]], turn=1)
    assert np.array_equal(encode_position(p), encode_position(q))


def test_plakoto_encoder_sees_pins_and_mother():
    p = Position.from_points("plakoto", {24: 14, 1: 1}, {24: 1, 10: 14}, turn=0,
                             pinned=[(1, 24)])
    x = encode_position(p)
    pins_me = x[192 + 2:192 + 2 + 24]
    pins_op = x[192 + 2 + 24:192 + 2 + 48]
    assert pins_me.sum() == 0 and pins_op[23] == 1.0
    mother = x[192 + 2 + 48:192 + 2 + 48 + 6]
    assert list(mother[3:]) == [pytest.approx(1 / 15), 1.0, 1.0]


def test_plakoto_encoder_exposure_held_points_and_contact():
    # my blot on 20 is 6 pips from his checker on his 11 (my 14), and that blot of his is
    # 6 pips from mine: 17 rolls of 36 each way
    p = Position.from_points("plakoto", {20: 1, 6: 14}, {11: 1, 1: 14}, turn=0)
    x = encode_position(p)[-17:-6]
    share = 17 / 36
    assert list(x[:5]) == pytest.approx([share, share * 20 / 24, 0.0, 1 / 6, 1 / 6])
    assert list(x[5:10]) == pytest.approx([share, share * 11 / 24, 0.0, 1 / 6, 1 / 6])
    assert x[10] == 1.0
    # pinned: neither blot is exposed any more, and the pinner holds the point
    q = Position.from_points("plakoto", {14: 1, 20: 1, 6: 13}, {11: 1, 1: 14}, turn=0,
                             pinned=[(1, 11)])
    y = encode_position(q)[-17:-6]
    assert y[5] == 0.0 and y[8] == pytest.approx(1 / 6)     # his blot is pinned
    assert y[3] == pytest.approx(2 / 6)                     # my 6 and 14 are held
    assert y[0] == 0.0                                      # he cannot move to hit mine
    race = Position.from_points("plakoto", {3: 15}, {2: 15}, turn=0)
    assert encode_position(race)[-7] == 0.0


def test_plakoto_encoder_pin_rolls_respect_blocked_points():
    # my blot on 20 (his 5), his checker on his 11: any 6, 5-1, 4-2, 3-3, 2-2 pin it
    p = Position.from_points("plakoto", {20: 1, 6: 14}, {11: 1, 1: 14}, turn=0)
    x = encode_position(p)[-6:]
    assert list(x[:3]) == pytest.approx([17 / 36, 0.0, 17 / 36 * 20 / 24])
    # my point 17 (his 8) made: 3-3 must stop there, so it no longer pins
    q = Position.from_points("plakoto", {20: 1, 17: 2, 6: 12}, {11: 1, 1: 14}, turn=0)
    assert encode_position(q)[-6] == pytest.approx(16 / 36)
    # a lone mother (my 24, his 1) four pips in front of his checkers: 4s, 3-1, 2-2, 1-1
    m = Position.from_points("plakoto", {24: 1, 6: 14}, {5: 15}, turn=0)
    assert list(encode_position(m)[-6:-3]) == pytest.approx([15 / 36, 15 / 36, 15 / 36])
    # seen from his side (him to move) the same numbers come second
    m1 = Position.from_points("plakoto", {24: 1, 6: 14}, {5: 15}, turn=1)
    assert list(encode_position(m1)[-6:]) == pytest.approx([0, 0, 0] + [15 / 36] * 3)


def test_network_shapes_save_load(tmp_path):
    net = Net.random("plakoto", hidden=16, seed=3)
    assert net.W1.shape == (n_inputs(PINNING), 16) and net.W2.shape == (16, 5)
    path = tmp_path / "n.npz"
    net.save(path)
    back = Net.load(path)
    assert np.array_equal(back.W1, net.W1) and back.family == PINNING
    out = back.evaluate([Position.start("plakoto"), Position.start("plakoto", 1)])
    assert out.shape == (2, 5) and ((out > 0) & (out < 1)).all()
    (tmp_path / "bad.npz").write_bytes(b"not a file")
    with pytest.raises(Exception, match="not a tavli network file"):
        Net.load(tmp_path / "bad.npz")


def test_equity_arithmetic():
    y = np.array([0.6, 0.2, 0.05, 0.1, 0.01])
    assert equity(y, True) == pytest.approx(2 * 0.6 - 1 + 0.2 - 0.1 + 0.05 - 0.01)
    assert equity(y, False) == pytest.approx(2 * 0.6 - 1 + 0.2 - 0.1)
    out = np.zeros(5, dtype=np.float32)
    flip(y.astype(np.float32), out)
    assert out.tolist() == pytest.approx([0.4, 0.1, 0.01, 0.2, 0.05])
    assert equity(out, True) == pytest.approx(-equity(y, True))
    # a certain single win is worth 1, a gammon 2, a backgammon 3, a draw 0
    assert equity([1, 0, 0, 0, 0]) == 1 and equity([1, 1, 0, 0, 0]) == 2
    assert equity([1, 1, 1, 0, 0]) == 3 and equity([0.5, 0, 0, 0, 0]) == 0


def test_terminal_values_for_each_scoring_rule():
    t = np.zeros(5, dtype=np.float32)
    single = Position.from_points("portes", {}, {6: 1})
    gammon = Position.from_points("portes", {}, {6: 15})
    bg = Position.from_points("backgammon", {}, {20: 15})
    portes, bgr = Rules("portes").kernel_flags(), Rules("backgammon").kernel_flags()
    plakoto, fevga = Rules("plakoto").kernel_flags(), Rules("fevga").kernel_flags()
    assert terminal(single.flat(), 0, portes, t) == 1.0 and t[0] == 1 and t[1] == 0
    assert terminal(gammon.flat(), 0, portes, t) == 2.0 and t[1] == 1
    assert terminal(bg.flat(), 0, bgr, t) == 3.0 and t[2] == 1
    assert terminal(bg.flat(), 0, portes, t) == 2.0 and t[2] == 0
    assert terminal(single.flat(), 1, portes, t) == -1.0 and t[0] == 0 and t[3] == 0
    assert terminal(bg.flat(), 1, bgr, t) == -3.0 and t[3] == 1 and t[4] == 1
    mother = Position.from_points("plakoto", {1: 1, 6: 14}, {24: 1, 12: 14}, pinned=[(1, 24)])
    assert terminal(mother.flat(), 0, plakoto, t) == 2.0 and t[1] == 1
    draw = Position.from_points("plakoto", {24: 1, 1: 1, 5: 13}, {24: 1, 1: 1, 5: 13},
                                pinned=[(0, 24), (1, 24)])
    assert terminal(draw.flat(), 0, plakoto, t) == 0.0 and t[0] == 0.5
    running = Position.start("fevga")
    assert np.isnan(terminal(running.flat(), 0, fevga, t))


def test_pubeval_matches_gnubg_choice():
    import gnubg_nn
    rng = random.Random(5)
    player = PubevalPlayer()
    checked = 0
    for seed in range(4):
        g = Game("backgammon", seed=seed)
        while not g.is_over:
            g.roll()
            moves = g.legal_moves()
            if len(moves) > 1:
                pos, me = g.position, g.position.turn
                a = pos.array
                board = [[int(v) for v in a[1 - me, 1:26]], [int(v) for v in a[me, 1:26]]]
                bm = gnubg_nn.pub_best_move(board, *g.dice)
                steps = " ".join(f"{'bar' if s == 24 else s + 1}/{'off' if t < 0 else t + 1}"
                                 for s, t in zip(bm[::2], bm[1::2], strict=True))
                theirs = pos.find_move(steps, g.dice, g.rules)
                ours = player.choose_move(pos, g.dice, moves, g.rules)
                assert ours.after == theirs.after
                checked += 1
            g.play(rng.choice(moves) if moves else None)
    assert checked > 100


@pytest.mark.parametrize(("targets", "lam", "games"),
                         [("td", 0.0, 300), ("td", 0.7, 1000), ("ply1", 0.0, 200)])
def test_training_improves_a_tiny_net_against_random(targets, lam, games):
    rules = Rules.for_game("fevga")
    net = Net.random("fevga", hidden=8, seed=7)
    # 800 games a side of the comparison: about 0.045 points a standard error, on the same dice
    before = strength(net, NET, None, RANDOM, rules, pairs=400, seed=99)
    assert isinstance(before, StrengthResult) and before.games == 800
    from tavli.training.selfplay import train_games, train_games_ply1

    stats = np.zeros(4)
    start = np.array(Position.start("fevga").array)
    args = (net.weights, start, rules.kernel_flags(), games, 0.1, 1, net.scratch(), stats)
    if targets == "ply1":
        train_games_ply1(*args)
    else:
        train_games(*args, 0.0, lam)
    assert stats[0] == games and stats[1] > 20 * games
    after = strength(net, NET, None, RANDOM, rules, pairs=400, seed=99)
    assert after.points_per_game > before.points_per_game + 0.15


def test_kernels_take_the_weights_and_the_work_arrays_as_one_value_each():
    """The network travels into compiled code as one value (its own arrays, so training
    updates the Net), the work arrays as another (made in one place), and no kernel takes
    more than ten arguments."""
    import inspect

    from tavli.ai import fastplay, search
    from tavli.ai import net as nets
    from tavli.training import distill, selfplay

    kernels = [nets.forward, nets.td_update, nets.evaluate_boards, fastplay._best_move,
               fastplay._play_roll, selfplay.train_games, selfplay.train_games_ply1,
               selfplay._lambda_updates, fastplay._choose, fastplay.play_games, search.v0,
               search._after_value, search.v1, search.v2, search.eval_moves,
               distill._add_label, distill._label_played, distill._label_candidates]
    for k in kernels:
        params = set(inspect.signature(k.py_func).parameters)
        assert len(params) <= 10, k.__name__
        assert not params & {"W1", "b1", "W2", "b2", "buf", "table", "buf2"}, k.__name__
    net = Net.random("plakoto", hidden=4, seed=1)
    assert all(a is b for a, b in zip(net.weights[:4], (net.W1, net.b1, net.W2, net.b2),
                                      strict=True))
    assert net.encoder == 1 and net.weights.enc == encoder_function(net.encoder)  # by address
    s = net.scratch(64, 128)
    assert s.x.shape == (net.W1.shape[0],) and s.h.shape == (4,) and s.buf.shape[0] == 64
    assert s.buf2.shape == s.buf.shape and s.scores.shape == (64,)
    with pytest.raises(ValueError):
        net.scratch(64, 100)  # not a power of two
    # a searcher reuses its work arrays call after call: they leave no trace in the outputs
    rules = Rules.for_game("plakoto")
    pos = Position.start("plakoto")
    arr = np.stack([m.after.array for m in pos.legal_moves([3, 1], rules)])
    searcher = Searcher(net, rules)
    first = searcher.outputs(arr, pos.turn, 2)
    searcher.outputs(arr[::-1], pos.turn, 1)
    assert np.array_equal(searcher.outputs(arr, pos.turn, 2), first)
    assert np.array_equal(Searcher(net, rules).outputs(arr, pos.turn, 2), first)
    # one scratch serves a match between networks of different sizes
    big = Net.random("plakoto", hidden=9, seed=2)
    res = compiled_match(net, NET, big, NET, rules, 5, 1, scratch=net.scratch())
    assert np.array_equal(res, compiled_match(net, NET, big, NET, rules, 5, 1))


def test_training_settings_out_of_range_are_tavli_errors(tmp_path, capsys):
    from tavli.cli import main
    from tavli.training.train import train

    assert issubclass(TrainingError, TavliError)
    with pytest.raises(TrainingError, match="half-life"):
        train("plakoto", 10, tmp_path / "r", half_life=0, out=io.StringIO())
    assert main(["train", "plakoto", "--games", "10", "--run", str(tmp_path / "r"),
                 "--half-life", "0"]) == 2
    assert capsys.readouterr().err == "tavli: error: the half-life must be at least 1 game\n"
    assert not (tmp_path / "r").exists()
    # refused after the settings are combined, or for the starting network: nothing left
    with pytest.raises(TrainingError, match="without lambda"):
        train("plakoto", 10, tmp_path / "r", targets="ply1", lam=0.5, out=io.StringIO())
    Net.random("fevga", hidden=2, seed=1).save(tmp_path / "fevga.npz")
    with pytest.raises(TrainingError, match="not a plakoto network"):
        train("plakoto", 10, tmp_path / "r", start_from=tmp_path / "fevga.npz",
              out=io.StringIO())
    assert not (tmp_path / "r").exists()


def test_exploring_self_play_plays_other_moves_and_finishes_games(tmp_path):
    from tavli.training.selfplay import train_games
    from tavli.training.train import train

    rules = Rules.for_game("plakoto")
    start = np.array(Position.start("plakoto").array)
    scratch = None
    runs = {}
    for explore in (0.0, 0.0, 0.5):
        net = Net.random("plakoto", hidden=4, seed=5)
        scratch = scratch or net.scratch()  # work arrays reused: the same games
        stats = np.zeros(4)
        train_games(net.weights, start, rules.kernel_flags(), 20, 0.05, 3, scratch, stats,
                    explore, 0.0)
        assert stats[0] == 20
        runs.setdefault(explore, []).append((stats.copy(), net.W1.copy()))
    (s0, w0), (s1, w1) = runs[0.0]
    assert np.array_equal(s0, s1) and np.array_equal(w0, w1)  # deterministic
    assert not np.array_equal(runs[0.5][0][1], w0)
    net = train("plakoto", 100, tmp_path, hidden=4, chunk=50, check_every=1000,
                check_pairs=10, seed=1, explore=0.1, out=io.StringIO())
    assert net.meta["explore"] == 0.1
    with pytest.raises(TrainingError):
        train("plakoto", 100, tmp_path / "z", explore=1.0, out=io.StringIO())


def test_one_ply_targets_are_kept_by_the_run(tmp_path):
    from tavli.training.train import train

    run = train("plakoto", 20, tmp_path, hidden=4, chunk=10, check_every=1000,
                check_pairs=10, seed=1, targets="ply1", out=io.StringIO())
    assert run.meta["targets"] == "ply1" and run.games == 20
    with pytest.raises(TrainingError):
        train("plakoto", 20, tmp_path / "b", targets="ply2", out=io.StringIO())
    with pytest.raises(TrainingError):
        train("plakoto", 20, tmp_path / "c", targets="ply1", lam=0.5, out=io.StringIO())


def test_lambda_returns_mix_later_targets_from_each_movers_view(tmp_path):
    from tavli.ai.net import flip
    from tavli.training.selfplay import _lambda_updates
    from tavli.training.train import train

    net = Net.random("plakoto", hidden=4, seed=5)
    rng = np.random.default_rng(0)
    xs = rng.random((4, net.W1.shape[0])).astype(np.float32)
    ts = rng.random((4, 5)).astype(np.float32)
    lam = 0.6
    # expected: G3 = t3 (the result), Gt = (1 - lam) t_t + lam flip(G_{t+1})
    want = ts.astype(np.float64).copy()
    for t in (2, 1, 0):
        f = np.empty(5, dtype=np.float32)
        flip(want[t + 1].astype(np.float32), f)
        want[t] = (1 - lam) * want[t] + lam * f
    w1 = net.W1.copy()
    scratch = net.scratch(states=8, hash_size=16)
    _lambda_updates(net.weights, xs, ts, 4, lam, 0.0, scratch)
    assert np.allclose(ts, want, atol=1e-6)
    assert np.array_equal(net.W1, w1)  # step size 0: targets only
    _lambda_updates(net.weights, xs, ts, 4, lam, 0.1, scratch)
    assert not np.array_equal(net.W1, w1)
    # TD(0) and TD(lambda) runs differ; lambda is kept in the run
    a = train("plakoto", 100, tmp_path / "a", hidden=4, chunk=50, check_every=1000,
              check_pairs=10, seed=1, out=io.StringIO())
    b = train("plakoto", 100, tmp_path / "b", hidden=4, chunk=50, check_every=1000,
              check_pairs=10, seed=1, lam=0.7, out=io.StringIO())
    assert a.meta["lambda"] == 0.0 and b.meta["lambda"] == 0.7
    assert not np.array_equal(a.W1, b.W1)
    assert train("plakoto", 150, tmp_path / "b", chunk=50, check_every=1000, check_pairs=10,
                 out=io.StringIO()).meta["lambda"] == 0.7
    with pytest.raises(TrainingError):
        train("plakoto", 100, tmp_path / "c", lam=1.0, out=io.StringIO())


def test_train_command_resumes_from_checkpoint(tmp_path, capsys):
    from tavli.training.train import train

    net = train("fevga", 200, tmp_path, hidden=4, chunk=100, check_every=200, check_pairs=10,
                seed=1)
    assert net.games == 200
    log = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert log[-1]["games"] == 200 and "vs_random" in log[-1]
    vg = log[-1]["vs_greedy"]
    assert vg["games"] == 10 and 0 <= vg["win"] <= 1 and 0 <= vg["share"] <= 1
    again = train("fevga", 300, tmp_path, chunk=100, check_every=1000, check_pairs=10)
    assert again.games == 300
    assert "resuming fevga from 200 games" in capsys.readouterr().out


def test_train_half_life_sets_the_step_size_and_is_kept(tmp_path):
    from tavli.training.train import alpha_schedule, train

    net = train("plakoto", 200, tmp_path, hidden=4, chunk=100, check_every=1000,
                check_pairs=10, seed=2, half_life=100, out=io.StringIO())
    assert net.meta["half_life"] == 100
    assert net.meta["alpha"] == pytest.approx(alpha_schedule(100, half_life=100))
    assert alpha_schedule(100, half_life=100) == pytest.approx(0.05)
    assert alpha_schedule(10**6, half_life=100) == 0.01  # the floor
    again = train("plakoto", 300, tmp_path, chunk=100, out=io.StringIO())
    assert again.meta["half_life"] == 100 and again.meta["floor"] == 0.01
    # the check settings are kept too (the check at the end played 10 pairs, not 1,000)
    assert again.meta["check_every"] == 1000 and again.meta["check_pairs"] == 10
    last = json.loads((tmp_path / "log.jsonl").read_text().splitlines()[-1])
    assert last["games"] == 300 and last["vs_greedy"]["games"] == 10
    assert again.meta["alpha"] == pytest.approx(0.025)
    # a lower floor given to a resumed run is kept from then on
    more = train("plakoto", 800, tmp_path, chunk=100, check_every=1000, check_pairs=10,
                 floor=0.002, out=io.StringIO())
    assert more.meta["floor"] == 0.002
    assert more.meta["alpha"] == pytest.approx(alpha_schedule(700, half_life=100, floor=0.002))
    assert more.meta["alpha"] < 0.01
    with pytest.raises(TrainingError):
        train("plakoto", 400, tmp_path / "x", half_life=0, out=io.StringIO())
    with pytest.raises(TrainingError):
        train("plakoto", 400, tmp_path / "y", floor=0.0, out=io.StringIO())
    with pytest.raises(TrainingError):
        train("plakoto", 400, tmp_path / "w", check_every=0, out=io.StringIO())


def test_train_initial_step_size_is_kept(tmp_path):
    from tavli.training.train import alpha_schedule, train

    net = train("plakoto", 200, tmp_path, hidden=4, chunk=100, check_every=1000,
                check_pairs=10, seed=2, half_life=100, alpha0=0.04, out=io.StringIO())
    assert net.meta["alpha0"] == 0.04
    assert net.meta["alpha"] == pytest.approx(0.02)  # 100 games in: one half-life
    again = train("plakoto", 300, tmp_path, chunk=100, out=io.StringIO())
    assert again.meta["alpha0"] == 0.04
    assert again.meta["alpha"] == pytest.approx(alpha_schedule(200, 0.04, half_life=100))
    assert again.meta["alpha"] == pytest.approx(0.01)
    for bad in (0.0, -0.1, 1.5):
        with pytest.raises(TrainingError):
            train("plakoto", 400, tmp_path / "z", alpha0=bad, out=io.StringIO())
        assert not (tmp_path / "z").exists()


def test_levels():
    assert parse_level(None) == EvalContext(plies=1)
    assert parse_level("worldclass") == EvalContext(plies=2) == parse_level("2")
    assert parse_level("beginner").noise > 0 and parse_level("beginner").plies == 0
    with pytest.raises(RuleError):
        parse_level("godlike")


@pytest.mark.parametrize("ply", [0, 1, 2])
def test_search_returns_a_legal_move_and_hint_is_ordered(ply):
    pos = Position.start("backgammon")
    rules = Rules.for_game("backgammon")
    moves = pos.legal_moves("31", rules)
    ranked = Analyzer(rules).rank(pos, moves, EvalContext(plies=ply))
    assert {r.move.after for r in ranked} == {m.after for m in moves}
    deepest = [r for r in ranked if r.ply == max(x.ply for x in ranked)]
    eq = [r.equity for r in deepest]
    assert eq == sorted(eq, reverse=True)
    assert ranked[0].ply == ply
    player = NeuralPlayer(ply)
    assert player.choose_move(pos, (3, 1), moves, rules) in moves


def test_neural_player_knows_the_opening_31():
    pos = Position.start("backgammon")
    moves = pos.legal_moves("31")
    best = NeuralPlayer("expert").choose_move(pos, (3, 1), moves, Rules.for_game("backgammon"))
    assert str(best) == "8/5 6/5"


def test_analysis_is_reproducible_and_flags_random_play(tmp_path):
    from tavli.ai.analysis import analyse, rating
    from tavli.play.players import GreedyPlayer, RandomPlayer, play_game
    from tavli.play.record import load, save

    g = Game("portes", seed=4)
    play_game(g, (GreedyPlayer(), RandomPlayer(seed=1)))
    save(g, tmp_path / "g.json")
    a1 = analyse(load(tmp_path / "g.json"), ply=0)
    a2 = analyse(load(tmp_path / "g.json"), ply=0)
    assert a1 == a2
    assert len(a1["turns"]) == len(g.turns)
    white, black = a1["players"]["white"], a1["players"]["black"]
    assert black["error_rate"] > white["error_rate"]
    assert rating(1.0) == "Supernatural" and rating(100) == "Awful!"
    for t in a1["turns"]:
        assert t["loss"] >= 0


def test_hint_cli_json_and_batch(capsys, monkeypatch):
    import io

    from tavli.cli import main

    assert main(["hint", "backgammon", "start", "--dice", "31", "--json", "--level", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["moves"][0]["move"] == "8/5 6/5" and len(out["moves"]) == 16
    monkeypatch.setattr("sys.stdin", io.StringIO("portes start 31 0\nfevga start 66\nx y 1\n"))
    assert main(["hint", "--batch"]) == 0
    lines = [json.loads(s) for s in capsys.readouterr().out.splitlines()]
    assert lines[0]["moves"][0]["move"] == "8/5 6/5"
    assert [m["move"] for m in lines[1]["moves"]] == ["24/18"]
    assert "error" in lines[2]
    # text: backgammon probabilities only where the scoring counts backgammons
    assert main(["hint", "backgammon", "start", "--dice", "31", "--level", "0"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert "w bg" in text[0] and text[1].split()[1:3] == ["8/5", "6/5"]
    assert len(text[1].split()) == 1 + 2 + 1 + 1 + 5  # rank, move, ply, equity, 5 figures
    assert main(["hint", "plakoto", "start", "--dice", "31", "--level", "0"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert "w bg" not in text[0] and "l g" in text[0]
    assert len(text[1].split()) == 1 + 2 + 1 + 1 + 3  # win, win gammon, lose gammon
