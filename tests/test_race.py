"""Race networks: position classes, the race encoder, TD training from race positions,
duplicate races and rollouts, the shipped race networks, which valuer a hint or an
analysis names, and the commands' errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tavli.ai.encode import ENCODERS, encode, n_inputs
from tavli.ai.evaluator import (
    C_BEAROFF,
    C_CONTACT,
    C_RACE,
    E_CONTACT,
    E_RACE,
    VALUERS,
    Evaluator,
    position_class,
)
from tavli.ai.net import Net, equity
from tavli.ai.race import N_RACE, PER_SIDE, PIP_DIFF, RACE, encode_race
from tavli.engine.board import Position
from tavli.engine.games import HITTING, PINNING, RUNNING
from tavli.errors import OptionError

FAMILIES = ("portes", "plakoto", "fevga")


def cls(game: str, white: dict, black: dict, pinned=()) -> int:
    pos = Position.from_points(game, white, black, pinned=pinned)
    return int(position_class(pos.flat(), pos.variant.kernel))


# --- position classes -----------------------------------------------------------------------

@pytest.mark.parametrize("game", ["portes", "backgammon", "plakoto"])
def test_classes_opposite_directions(game):
    assert cls(game, {24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}) == C_CONTACT
    # white's rearmost on 13 (black's 12), black's on 11: they have passed each other
    assert cls(game, {13: 1, 6: 14}, {11: 1, 6: 14}) == C_RACE
    # black's rearmost on 13 (white's 12) still has white's 13 in front of it: contact
    assert cls(game, {13: 1, 6: 14}, {13: 1, 6: 14}) == C_CONTACT
    assert cls(game, {13: 15}, {11: 15}) == C_RACE
    assert cls(game, {7: 1, 3: 5}, {6: 4}) == C_RACE  # one checker still outside
    assert cls(game, {6: 1, 3: 5}, {6: 4, 1: 2}) == C_BEAROFF
    assert cls(game, {2: 3}, {}) == C_BEAROFF  # black has borne off all


def test_classes_bar_and_pins():
    assert cls("portes", {25: 1, 6: 5}, {6: 10}) == C_CONTACT  # on the bar
    # Plakoto: no checker left to pass, but black's on his 5 is pinned by white's: contact
    assert cls("plakoto", {20: 1, 6: 10}, {5: 1, 4: 10}, pinned=[(1, 5)]) == C_CONTACT
    assert cls("plakoto", {19: 1, 6: 10}, {5: 1, 4: 10}) == C_RACE


def test_classes_fevga():
    # Fevga: race only once every checker of both sides is on its own points 1..12
    assert cls("fevga", {12: 3, 7: 5, 2: 7}, {12: 4, 1: 11}) == C_RACE
    assert cls("fevga", {13: 1, 7: 5, 2: 7}, {12: 4, 2: 11}) == C_CONTACT
    assert cls("fevga", {12: 3, 7: 5, 2: 7}, {13: 1, 1: 11}) == C_CONTACT
    assert cls("fevga", {6: 3, 2: 7}, {5: 4, 1: 11}) == C_BEAROFF
    # past each other in the Portes sense but not in Fevga's: contact
    assert cls("fevga", {14: 5, 10: 10}, {10: 15}) == C_CONTACT


# --- the race encoder -----------------------------------------------------------------------

def test_race_encoder_registered_and_sized():
    assert ENCODERS["race"] == RACE and n_inputs(RACE) == N_RACE == 288
    assert PER_SIDE == 24 * 5 + 14 + 9
    net = Net.random("fevga", hidden=3, seed=1, inputs="race")
    assert net.W1.shape == (N_RACE, 3) and net.encoder == RACE


def test_race_encoder_values():
    # white (to move): 6 on his 1, 1 on 3, 1 on 8, 1 on 20, 6 off; black: 5 on his 6, 10 off
    pos = Position.from_points("portes", {1: 6, 3: 1, 8: 1, 20: 1}, {6: 5})
    x = np.zeros(N_RACE, dtype=np.float32)
    assert encode_race(pos.flat(), 0, x) == N_RACE
    assert x[0:5].tolist() == [1, 1, 1, 1, 1.0]  # point 1: six checkers: (6 - 4) / 2
    assert x[5:10].tolist() == [0] * 5
    assert x[10:15].tolist() == [1, 0, 0, 0, 0]  # point 3: one
    off = x[120:134]
    assert off.tolist() == [1] * 6 + [0] * 8
    f = x[134:143]
    pips = 6 + 3 + 8 + 20
    # pips, outside, crossovers, gaps, stacked, low; rolls: to finish, the gammon (none:
    # one is off), the backgammon (20 -> 18)
    np.testing.assert_allclose(f, [pips / 100, 2 / 15, (1 + 3) / 15, 1 / 5, 3 / 10, 6 / 15,
                                   pips / 81.7, 0, 2 / 81.7], rtol=1e-6)
    g = x[PER_SIDE + 134:PER_SIDE + 143]
    np.testing.assert_allclose(g, [30 / 100, 0, 0, 5 / 5, 2 / 10, 0, 30 / 81.7, 0, 0],
                               rtol=1e-6)
    # none off: the gammon race counts the pips home and the lowest home point
    y = np.zeros(N_RACE, dtype=np.float32)
    gammon = Position.from_points("portes", {9: 2, 4: 13}, {1: 1})
    encode_race(gammon.flat(), 1, y)
    np.testing.assert_allclose(y[PER_SIDE + 134 + 6:PER_SIDE + 143],
                               [max(70 / 8.17, 15 / 2.33) / 10, (6 + 4) / 81.7, 0], rtol=1e-6)
    assert x[PER_SIDE + 5 * 5:PER_SIDE + 5 * 5 + 5].tolist() == [1, 1, 1, 1, 0.5]
    np.testing.assert_allclose(x[PIP_DIFF], (pips - 30) / 50, rtol=1e-6)
    np.testing.assert_allclose(x[PIP_DIFF + 1], 5 * (30 - pips) / (pips + 1), rtol=1e-6)
    # the same through the dispatcher, and only N_RACE inputs written
    y = np.full(N_RACE + 10, 7.0, dtype=np.float32)
    encode(pos.flat(), 0, RACE, y)
    assert (y[:N_RACE] == x).all() and (y[N_RACE:] == 7.0).all()


def test_race_encoder_colour_symmetry():
    rng = np.random.default_rng(3)
    for _ in range(20):
        a = np.zeros((4, 26), dtype=np.int8)
        for side in (0, 1):
            pts = rng.choice(np.arange(1, 13), size=4, replace=False)
            counts = rng.multinomial(int(rng.integers(1, 16)), np.ones(4) / 4)
            a[side, pts] = counts
            a[side, 0] = 15 - counts.sum()
        mirror = a[[1, 0, 3, 2]]
        for me in (0, 1):
            x = np.zeros(N_RACE, dtype=np.float32)
            y = np.zeros(N_RACE, dtype=np.float32)
            encode_race(a.reshape(104), me, x)
            encode_race(mirror.reshape(104), 1 - me, y)
            assert (x == y).all()


# --- training -------------------------------------------------------------------------------

def _sure_wins(game: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Race positions where the side to move bears off his last checker whatever he rolls,
    with the result's outputs: a single win, or a gammon (and in backgammon a
    backgammon) when the loser has borne off none."""
    from tavli.ai.shipped import family_rules

    rules = family_rules(game)
    cases = [({1: 1}, {6: 3}, [1, 0, 0, 0, 0]),
             ({2: 1}, {5: 15}, [1, 1, 0, 0, 0]),
             ({1: 1}, {6: 2, 5: 2}, [1, 0, 0, 0, 0])]
    if rules.backgammons:
        cases.append(({1: 1}, {20: 1, 6: 14}, [1, 1, 1, 0, 0]))
    boards, turns, targets = [], [], []
    for k, (me, him, tgt) in enumerate(cases):
        side = k % 2
        white, black = (me, him) if side == 0 else (him, me)
        pos = Position.from_points(rules.game, white, black, side)
        boards.append(pos.flat())
        turns.append(side)
        targets.append(tgt)
    return np.array(boards), np.array(turns, dtype=np.int64), np.array(targets, np.float32)


def no_databases(game: str, race: Net) -> Evaluator:
    """The shipped contact network with ``race``, without the bear-off databases (so that
    the race network values the bear-offs the tests train on)."""
    from tavli.ai.shipped import shipped_net

    return Evaluator(shipped_net(game), race=race, bearoff=False)


@pytest.mark.parametrize("game", FAMILIES)
def test_training_moves_the_race_net_toward_its_targets(game):
    from tavli.ai.shipped import family_rules
    from tavli.bench.racegames import _scratch_for
    from tavli.training.racegames import train_race

    rules = family_rules(game)
    boards, turns, targets = _sure_wins(game)
    net = Net.random(rules.game, hidden=4, seed=2, inputs="race")
    ev = no_databases(rules.game, net)
    before, used = ev.evaluate_arrays(boards.reshape(-1, 4, 26), turns)
    assert (used == E_RACE).all()
    err0 = np.abs(before - targets).mean()
    stats = np.zeros(4)
    train_race(ev.tables, boards, turns, rules.kernel_flags(), 300, 0.5, 7, _scratch_for(ev),
               stats, 0.0)
    after, _ = ev.evaluate_arrays(boards.reshape(-1, 4, 26), turns)
    err1 = np.abs(after - targets).mean()
    assert stats[0] == 300 and stats[1] == 300  # each game: one turn, then it is over
    assert err1 < 0.5 * err0
    assert net.W1.any() and ev.tables.race.W1 is net.W1  # trained in place


def test_one_update_moves_toward_the_result():
    from tavli.ai.shipped import family_rules
    from tavli.bench.racegames import _scratch_for
    from tavli.training.racegames import train_race

    rules = family_rules("fevga")
    boards, turns, targets = _sure_wins("fevga")
    net = Net.random(rules.game, hidden=4, seed=5, inputs="race")
    ev = no_databases(rules.game, net)
    one = slice(1, 2)  # a mars: win and gammon
    y0, _ = ev.evaluate_arrays(boards[one].reshape(-1, 4, 26), turns[one])
    train_race(ev.tables, boards[one], turns[one], rules.kernel_flags(), 1, 0.1, 1,
               _scratch_for(ev), np.zeros(4), 0.0)
    y1, _ = ev.evaluate_arrays(boards[one].reshape(-1, 4, 26), turns[one])
    assert np.abs(y1 - targets[one]).mean() < np.abs(y0 - targets[one]).mean()
    assert y1[0, 0] > y0[0, 0] and y1[0, 1] > y0[0, 1]


def test_sampled_starts_are_races_and_training_runs(tmp_path):
    from tavli.bench.racegames import RaceStarts, sample_starts
    from tavli.training.racetrain import train_race_net

    starts = sample_starts("portes", 40, 3)
    assert 20 <= len(starts) <= 40 and starts.family == "portes"
    assert all(position_class(b, HITTING) == C_RACE for b in starts.boards)
    any_ = sample_starts("fevga", 20, 4, pick_any=True)
    assert all(position_class(b, RUNNING) == C_RACE for b in any_.boards)
    f = tmp_path / "starts.npz"
    starts.save(f)
    back = RaceStarts.load(f)
    assert (back.boards == starts.boards).all() and (back.turns == starts.turns).all()
    out = []

    class Out:
        def write(self, s):
            out.append(s)

        def flush(self):
            pass

    run = tmp_path / "run"
    net = train_race_net("backgammon", 300, run, hidden=5, seed=1, starts=f,
                         check_every=200, chunk=100, out=Out())
    assert net.games == 300 and net.encoder == RACE and net.hidden == 5
    log = [json.loads(s) for s in (run / "log.jsonl").read_text().splitlines()]
    assert [e["games"] for e in log] == [200, 300]
    assert log[0]["vs_contact_net"]["games"] == 2 * (len(starts) // 10)  # a tenth, twice
    assert (run / "net-200.npz").exists() and (run / "starts.npz").exists()
    # resumed: it goes on from the checkpoint
    net = train_race_net("portes", 400, run, check_every=1000, chunk=100, out=Out())
    assert net.games == 400 and net.hidden == 5
    assert "resuming the portes race network from 300 games" in "".join(out)


# --- duplicate races and rollouts -----------------------------------------------------------

def test_duplicate_races_of_one_player_cancel_and_rollouts_of_decided_races():
    from tavli.ai.shipped import family_rules
    from tavli.bench.race import rollouts_of
    from tavli.bench.racegames import RaceStarts, contact_evaluator, race_match

    rules = family_rules("plakoto")
    ev = contact_evaluator(rules.game)
    starts = RaceStarts("plakoto", *_sure_wins("plakoto")[:2])
    res = race_match(ev, ev, starts, rules, 1)
    assert res.tolist() == [1, -1, 2, -2, 1, -1]  # the mover wins; the same player either side
    sample = RaceStarts("plakoto", np.array([Position.from_points(
        "plakoto", {6: 3, 5: 2}, {6: 2, 4: 1}).flat()]), np.array([1]))
    res = race_match(ev, ev, sample, rules, 2)
    assert res[0] == -res[1] and res[0] != 0
    boards, turns, _ = _sure_wins("plakoto")
    r = rollouts_of(ev, rules, boards, turns, 36, 1, "test")
    assert r.means.tolist() == [1, 2, 1] and r.ses.tolist() == [0, 0, 0]
    assert r.outputs.tolist() == [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 0, 0, 0, 0]]
    # a race the side to move loses: the figures are his
    lost = np.array([Position.from_points("plakoto", {6: 5}, {1: 1}, 0).flat()])
    r = rollouts_of(ev, rules, lost, np.array([0]), 36, 1, "test")
    assert r.means.tolist() == [-1] and r.outputs.tolist() == [[0, 0, 0, 0, 0]]


def test_bench_race_prints_both_errors(tmp_path):
    from tavli.bench.race import Rollouts, bench_race

    race = Net.random("fevga", hidden=3, seed=1, inputs="race")
    race.save(tmp_path / "race.npz")
    lines = []

    class Out:
        def write(self, s):
            lines.append(s)

    f = tmp_path / "roll.npz"
    fig = bench_race("fevga", positions=4, trials=6, seed=2, rollouts=f,
                     race=tmp_path / "race.npz", games=8, out=Out())
    text = "".join(lines)
    assert "race net" in text and "contact net" in text and "duplicate races" in text
    assert fig["positions"] == 4 and fig["trials"] == 6 and fig["duplicate"]["games"] == 8
    r = Rollouts.load(f)
    assert len(r.boards) == 4 and all(position_class(b, RUNNING) == C_RACE for b in r.boards)
    assert (np.abs(r.means) <= 2).all() and (r.ses >= 0).all()
    np.testing.assert_allclose(equity(r.outputs, False), r.means, atol=1e-9)
    # a second run reads the same rollouts: the same figures
    again = bench_race("fevga", rollouts=f, race=tmp_path / "race.npz", out=Out())
    assert again["race_net"] == fig["race_net"] and again["contact_net"] == fig["contact_net"]


def test_race_rollouts_same_with_processes_and_resume_from_partial(tmp_path):
    from tavli.ai.shipped import family_rules
    from tavli.bench.race import Rollouts, rollouts_of
    from tavli.bench.racegames import contact_evaluator, sample_starts

    rules = family_rules("fevga")
    ev = contact_evaluator(rules.game)
    got = sample_starts(rules.game, 12, 5, pick_any=True, evaluator=ev)
    boards, turns = got.boards[:12], got.turns[:12]
    one = rollouts_of(ev, rules, boards, turns, 72, 3, "test")
    two = rollouts_of(ev, rules, boards, turns, 72, 3, "test", compute=2)
    np.testing.assert_array_equal(one.means, two.means)
    np.testing.assert_array_equal(one.outputs, two.outputs)
    # a run stopped after 10 positions left them in the partial file; a rerun resumes
    part = tmp_path / "r.part.npz"
    Rollouts(one.family, boards, turns, one.means[:10] + 5.0, one.ses[:10],
             one.outputs[:10], 72, 3, "test").save(part, partial=True)
    resumed = rollouts_of(ev, rules, boards, turns, 72, 3, "test", partial=part)
    np.testing.assert_array_equal(resumed.means[:10], one.means[:10] + 5.0)  # not redone
    np.testing.assert_array_equal(resumed.means[10:], one.means[10:])
    # a partial file of other settings is not used; a partial file is no finished one
    other = rollouts_of(ev, rules, boards, turns, 72, 4, "test", partial=part)
    assert not np.array_equal(other.means[:10], resumed.means[:10])
    with pytest.raises(OptionError, match="not a race rollouts file"):
        Rollouts.load(part)


# --- shipped race networks ------------------------------------------------------------------

@pytest.mark.parametrize("game", ["portes", "backgammon", "plakoto", "fevga"])
def test_shipped_race_nets_load_and_answer_races(game):
    from importlib import resources

    from tavli.ai.evaluator import shipped_evaluator
    from tavli.ai.shipped import shipped_race_net

    race = shipped_race_net(game)
    assert race is not None and race.encoder == RACE
    family = Position.start(game).variant.family
    ref = resources.files("tavli").joinpath("data", f"{family}-race.npz")
    assert ref.stat().st_size < 300_000
    ev = shipped_evaluator(game)
    assert ev.race is race
    home = {12: 5, 8: 5, 3: 5} if family == "fevga" else {8: 5, 6: 5, 3: 5}
    pos = Position.from_points(game, home, home, 1)
    out, used = ev.evaluate([pos, Position.start(game)])
    assert used.tolist() == [E_RACE, E_CONTACT]
    # black to move, equal counts: he is ahead by the roll (rollouts: +0.20 Portes,
    # +0.16 Fevga, whose race net says +0.09 here)
    assert equity(out[0]) > 0.05


# --- which valuer answered ------------------------------------------------------------------

def _hint(capsys, *argv):
    from tavli.cli import main

    assert main(["hint", *argv]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(("white", "black", "cls_name", "valuers"), [
    (None, None, "contact", ["contact net"]),
    ({8: 5, 6: 5, 3: 5}, {9: 5, 6: 5, 2: 5}, "race", ["race net"]),
    ({6: 5, 3: 5, 1: 5}, {5: 5, 2: 5, 1: 5}, "bear-off", [v for v in VALUERS if "bear" in v]
     + ["race net"]),
])
def test_hint_names_the_class_and_the_valuer(capsys, white, black, cls_name, valuers):
    from tavli.ai.evaluator import shipped_evaluator

    pos = Position.start("portes") if white is None else Position.from_points(
        "portes", white, black)
    doc = json.loads(_hint(capsys, "portes", pos.id(), "--dice", "31", "--level", "0",
                           "--json"))
    assert doc["class"] == cls_name and doc["evaluator"] in valuers and doc["moves"]
    assert doc["evaluator"] == VALUERS[shipped_evaluator("portes").evaluate([pos])[1][0]]
    text = _hint(capsys, "portes", pos.id(), "--dice", "31", "--level", "0")
    assert text.splitlines()[-1] == f"position: {cls_name}; evaluator: {doc['evaluator']}"


def test_hint_batch_and_web_hint_name_the_valuer(capsys, monkeypatch):
    import io

    from tavli.cli import main
    from tavli.web.workers import hint_moves

    race = Position.from_points("plakoto", {8: 5, 6: 5, 3: 5}, {9: 5, 6: 5, 2: 5})
    monkeypatch.setattr("sys.stdin", io.StringIO(f"plakoto {race.id()} 31 0\n"))
    assert main(["hint", "--batch"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert (line["class"], line["evaluator"]) == ("race", "race net") and line["moves"]
    from tavli.engine.rules import Rules

    got = hint_moves({"engine": "neural", "ply": 0, "rules": Rules.for_game("plakoto").to_dict(),
                      "position": race.id(), "dice": [3, 1]})
    assert (got["class"], got["evaluator"]) == ("race", "race net") and got["moves"]


def test_analysis_names_the_valuer_of_each_turn():
    from tavli.ai.analysis import analyse, format_analysis
    from tavli.engine.rules import Rules
    from tavli.play.game import Game
    from tavli.play.players import GreedyPlayer, play_game

    g = Game(Rules.for_game("fevga"), seed=5)  # a game with a race phase and a bear-off
    play_game(g, (GreedyPlayer(), GreedyPlayer()))
    res = analyse(g, ply=0)
    seen = {(t["class"], t["evaluator"]) for t in res["turns"]}
    assert ("contact", "contact net") in seen and ("race", "race net") in seen
    assert all(t["class"] in ("contact", "race", "bear-off") for t in res["turns"])
    text = format_analysis(res)
    assert "(race net)" in text


# --- commands: one-line errors --------------------------------------------------------------

def _run(capsys, argv) -> tuple[int, str, str]:
    from tavli.cli import build_parser, run_command

    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:
        out = capsys.readouterr()
        return int(e.code), out.out, out.err
    code = run_command(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_bad_command_lines(capsys, tmp_path):
    contact = Net.random("fevga", hidden=2, seed=1)
    contact.save(tmp_path / "contact.npz")
    race = Net.random("fevga", hidden=2, seed=1, inputs="race")
    race.save(tmp_path / "race.npz")
    Net.random("plakoto", hidden=2, seed=1, inputs="race").save(tmp_path / "prace.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"nope")
    cases = [
        (["train-race", "fevga", "--alpha", "2", "--run", str(tmp_path / "r")],
         "the initial step size must be in (0, 1]"),
        (["train-race", "fevga", "--starts", str(junk), "--run", str(tmp_path / "r")],
         f"{junk}: not a race starts file"),
        (["train-race", "fevga", "--starts", str(tmp_path / "none.npz"), "--run",
          str(tmp_path / "r")], "cannot read race starts"),
        (["train-race", "fevga", "--check", str(junk), "--run", str(tmp_path / "r")],
         f"{junk}: not a race rollouts file"),
        (["train-race", "fevga", "--games", "0"], "a whole number of at least 1"),
        (["train-race", "chess"], "chess"),
        (["bench", "race", "--game", "fevga", "--race", str(tmp_path / "contact.npz")],
         "is not a race network"),
        (["bench", "race", "--game", "fevga", "--race", str(tmp_path / "prace.npz")],
         "is a plakoto race network, not fevga"),
        (["bench", "race", "--game", "fevga", "--rollouts", str(junk)],
         f"{junk}: not a race rollouts file"),
        (["bench", "race", "x"], "usage: tavli bench race"),
        (["bench", "race", "--trials", "1"], "a whole number of at least 2"),
        (["bench", "strength", f"net:{tmp_path / 'contact.npz'}+race:{tmp_path / 'contact.npz'}",
          "random", "--game", "fevga", "--games", "2"], "is not a race network"),
        (["bench", "strength", f"net:{tmp_path / 'race.npz'}", "random", "--game", "fevga",
          "--games", "2"], "is a race network"),
        (["bench", "strength", "neural+race:", "random", "--game", "fevga", "--games", "2"],
         "+race: needs a race network file or 'off'"),
        (["bench", "strength", "random+race:off", "neural", "--game", "fevga", "--games", "2"],
         "+race: goes with a neural or net:FILE player"),
    ]
    for argv, words in cases:
        code, out, err = _run(capsys, argv)
        assert code == 2 and out == "", argv
        assert words in _one_line(err), (argv, err)
    assert not (tmp_path / "r").exists()  # a refused run leaves nothing behind


def test_strength_players_with_and_without_the_race_net(tmp_path):
    from tavli.ai.shipped import shipped_net, shipped_race_net
    from tavli.bench.strength import parse_player
    from tavli.engine.rules import Rules

    rules = Rules.for_game("plakoto")
    shipped_race_net("plakoto").save(tmp_path / "r.npz")
    shipped_net("plakoto").save(tmp_path / "c.npz")
    with_race = parse_player("neural:0", rules).net
    without = parse_player("neural:0+race:off", rules).net
    assert with_race.race is shipped_race_net("plakoto") and without.race is None
    assert parse_player(f"net:{tmp_path / 'c.npz'}", rules).net.race is None
    both = parse_player(f"net:{tmp_path / 'c.npz'}+race:{tmp_path / 'r.npz'}", rules)
    assert isinstance(both.net, Evaluator) and both.net.race.hidden == with_race.race.hidden
    assert both.compiled is not None
    from tavli.bench.strength import run_strength

    r = run_strength("neural:0", "neural:0+race:off", "plakoto", games=20, seed=3)
    assert r.games == 20


def test_race_file_is_a_race_network_of_its_family():
    data = Path(__file__).resolve().parent.parent / "tavli" / "data"
    for family, kernel in (("portes", HITTING), ("plakoto", PINNING), ("fevga", RUNNING)):
        net = Net.load(data / f"{family}-race.npz")
        assert net.family == kernel and net.encoder == RACE
        assert 32 <= net.hidden <= 128 and net.games >= 50_000
