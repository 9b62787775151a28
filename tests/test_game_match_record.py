"""Games (phases, errors, seeded dice), matches (Tavli rotation, single variant, starter,
target, draws, Crawford) and JSON records (round trips, atomic save, malformed input)."""

from __future__ import annotations

import json
import random

import pytest

from tavli import GameOver, IllegalMove, Position, RecordError, WrongState
from tavli.engine.dice import DiceSource, ScriptedDice
from tavli.play.game import Game, Outcome
from tavli.play.match import Match
from tavli.play.record import game_record, load, load_record, match_record, save

MAX_TURNS = 3000


def play_out(g, rng):
    """Play random legal moves until the game ends; return the number of turns."""
    for turn in range(MAX_TURNS):
        if g.is_over:
            return turn
        g.roll()
        legal = g.legal_moves()
        g.play(rng.choice(legal) if legal else None)
    raise AssertionError("the game did not end")


def finish(m, winner=0, gammon=False):
    """End the match's current game at once: the winner bears off his last checker.
    (Puts a near-final position into the game; the match only sees the outcome.)"""
    g = m.game
    name = g.rules.game_name
    loser = {6: 15} if gammon else {6: 14}
    if winner == 0:
        pos = Position.from_points(name, {1: 1}, loser, 0)
    else:
        pos = Position.from_points(name, loser, {1: 1}, 1)
    g.position = pos
    g.set_dice((2, 1))
    g.play("1/off")
    assert g.is_over and g.outcome.winner == winner
    return g.outcome


# --- game phases ------------------------------------------------------------------------

def test_game_phases_and_wrong_state():
    g = Game("portes", dice=ScriptedDice([5, 2, 3, 1, 6, 4]))
    assert g.phase == "opening" and g.legal_moves() == []
    with pytest.raises(WrongState, match="roll"):
        g.play("13/10 13/12")
    with pytest.raises(WrongState):
        g.take()
    assert g.roll() == (3, 1)
    assert g.phase == "move" and g.turn == 0 and len(g.legal_moves()) == 16
    with pytest.raises(WrongState, match="already out"):
        g.roll()
    with pytest.raises(WrongState):
        g.set_dice((1, 1))
    with pytest.raises(IllegalMove, match="cannot be passed"):
        g.play(None)
    with pytest.raises(IllegalMove):
        g.play("")
    m = g.play("8/5 6/5")
    assert str(m) == "8/5 6/5" and g.moves == [m]
    assert g.phase == "roll" and g.turn == 1 and g.dice is None
    assert g.events == [{"opening": [5, 2]},
                        {"side": "white", "dice": [3, 1], "move": "8/5 6/5"}]
    assert g.roll() == (6, 4) and g.turn == 1


def test_set_dice_for_analysis():
    g = Game("fevga", first=1)
    assert g.phase == "roll" and g.turn == 1
    g.set_dice("66")
    assert [str(m) for m in g.legal_moves()] == ["24/18"]
    g.play("24/18")
    assert g.position.points(1)[18] == 1 and g.turn == 0


def test_game_over_refuses_everything():
    g = Game("backgammon", position=Position.from_points("backgammon", {1: 1}, {6: 14}),
             dice=ScriptedDice([3, 2]))
    g.roll()
    g.play("1/off")
    assert g.outcome == Outcome(0, 1, "single") and str(g.outcome) == \
        "white wins 1 point (single)"
    for action in (g.roll, g.double, g.take, g.drop, lambda: g.play("1/off"),
                   lambda: g.play(None), lambda: g.set_dice((1, 2))):
        with pytest.raises(GameOver):
            action()
    assert g.legal_moves() == []


def test_outcome_dict():
    assert Outcome(1, 2, "mother").to_dict() == {"winner": "black", "points": 2,
                                                 "kind": "mother"}
    assert Outcome(None, 0, "draw").to_dict() == {"winner": None, "points": 0,
                                                  "kind": "draw"}


@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga", "backgammon"])
def test_seeded_games_reproduce(game):
    runs = []
    for _ in range(2):
        g = Game(game, seed=1234)
        play_out(g, random.Random(99))
        runs.append((g.events, g.position, g.outcome))
    assert runs[0] == runs[1]
    other = Game(game, seed=4321)
    play_out(other, random.Random(99))
    assert other.events != runs[0][0]


def test_dice_sources():
    assert isinstance(Game("portes").dice_source.rng, random.SystemRandom)
    assert isinstance(DiceSource().rng, random.SystemRandom)
    assert not isinstance(DiceSource(seed=1).rng, random.SystemRandom)
    a, b = DiceSource(seed=7), DiceSource(seed=7)
    assert [a.die() for _ in range(50)] == [b.die() for _ in range(50)]
    rolls = {DiceSource().die() for _ in range(500)}
    assert rolls == {1, 2, 3, 4, 5, 6}
    s = ScriptedDice([1, 6])
    assert (s.die(), s.die()) == (1, 6)
    with pytest.raises(RecordError):
        s.die()
    with pytest.raises(RecordError):
        ScriptedDice([7]).die()


def test_game_from_position_of_another_game():
    with pytest.raises(WrongState):
        Game("portes", position=Position.start("fevga"))


# --- matches --------------------------------------------------------------------------

def test_tavli_rotation():
    m = Match(target=5, seed=1)
    assert m.variant == "tavli" and m.target == 5
    names = []
    for _ in range(5):
        names.append(m.game.rules.game_name)
        finish(m, 0)
        if not m.is_over:
            m.next_game()
    assert names == ["portes", "plakoto", "fevga", "portes", "plakoto"]
    assert m.score == (5, 0) and m.is_over and m.winner == 0
    with pytest.raises(GameOver):
        m.next_game()


def test_default_match_is_tavli_to_five():
    m = Match(seed=1)
    assert (m.target, m.variant, m.game.rules.game_name) == (5, "tavli", "portes")
    assert all(not r.cube for r in m.rules.values())


@pytest.mark.parametrize("variant,name", [("fevga", "fevga"), ("narde", "fevga"),
                                          ("portes", "portes"), ("backgammon", "backgammon")])
def test_single_variant_match(variant, name):
    m = Match(target=3, variant=variant, seed=2)
    seen = []
    while not m.is_over:
        seen.append(m.game.rules.game_name)
        finish(m, len(seen) % 2)
        if not m.is_over:
            m.next_game()
    assert set(seen) == {name} and len(seen) == 5
    assert m.score == (2, 3) and m.winner == 1


def test_bad_match_settings():
    from tavli import RuleError

    for target in (0, 100, "5", 2.5, True):
        with pytest.raises(RuleError):
            Match(target=target)
    with pytest.raises(RuleError):
        Match(variant="portes", rules={"fevga": {}})


def test_winner_starts_the_next_game_without_opening_throw():
    m = Match(target=5, seed=3)
    finish(m, 1)
    g = m.next_game()
    assert g is m.game and g.rules.game_name == "plakoto"
    assert g.phase == "roll" and g.first == 1 and g.turn == 1
    g.roll()
    assert g.turn == 1 and not any("opening" in e for e in g.events)
    with pytest.raises(WrongState):
        Match(target=5, seed=3).next_game()        # the current game is not over


def test_target_reached_ends_the_match():
    m = Match(target=3, seed=4)
    assert finish(m, 0, gammon=True) == Outcome(0, 2, "gammon")
    assert not m.is_over and m.winner is None
    m.next_game()
    finish(m, 1, gammon=True)
    assert m.score == (2, 2) and not m.is_over
    m.next_game()
    finish(m, 0, gammon=True)
    assert m.score == (4, 2) and m.is_over and m.winner == 0
    with pytest.raises(GameOver, match="over"):
        m.next_game()


def test_plakoto_draw_scores_nothing_and_rotation_moves_on():
    m = Match(target=3, seed=5)
    finish(m, 0)
    g = m.next_game()
    assert g.rules.game_name == "plakoto"
    # white's mother is pinned already; white pins black's mother: both pinned
    g.position = Position.from_points("plakoto", {24: 1, 3: 1, 6: 13},
                                      {24: 1, 1: 1, 10: 13}, 0, pinned=[(0, 24)])
    g.set_dice((2, 1))
    g.play("6/5 3/1^")
    assert g.outcome == Outcome(None, 0, "draw")
    assert m.score == (1, 0) and not m.is_over
    nxt = m.next_game()
    assert nxt.rules.game_name == "fevga"
    assert nxt.phase == "opening"                   # nobody won: an opening throw again


def test_crawford_game_flagged_once():
    m = Match(target=2, variant="backgammon", seed=6)
    g = m.game
    assert not g.crawford and g.match_play
    g.set_dice((3, 1))
    g.play("8/5 6/5")
    assert g.can_double()
    g.double()
    g.drop()                                        # black wins 1: 0-1, match point - 1
    assert m.score == (0, 1)
    g = m.next_game()
    assert g.crawford and not g.can_double()
    with pytest.raises(WrongState, match="Crawford"):
        g.double()
    finish(m, 0)                                    # 1-1
    g = m.next_game()
    assert not g.crawford and g.can_double()        # post-Crawford: doubling again
    g.double()
    g.take()
    assert g.cube_value == 2
    finish(m, 0)
    assert m.score == (3, 1) and m.winner == 0


def test_crawford_option_off():
    m = Match(target=2, variant="backgammon", rules={"backgammon": {"crawford": False}},
              seed=6)
    g = m.game
    g.set_dice((3, 1))
    g.play("8/5 6/5")
    g.double()
    g.drop()
    assert not m.next_game().crawford


def test_no_beavers_in_a_match():
    m = Match(target=3, variant="backgammon",
              rules={"backgammon": {"beavers": True, "jacoby": True}}, seed=7)
    g = m.game
    g.set_dice((3, 1))
    g.play("8/5 6/5")
    g.double()
    with pytest.raises(WrongState):
        g.beaver()


# --- records ----------------------------------------------------------------------------

def _assert_same_game(a, b):
    """``a`` is ``b`` replayed: the same state, history and record."""
    assert a.position == b.position
    assert a.outcome == b.outcome
    assert a.history == b.history
    assert a.events == b.events
    assert game_record(a) == game_record(b)
    assert a.rules == b.rules
    assert (a.cube_value, a.cube_owner, a.phase) == (b.cube_value, b.cube_owner, b.phase)


@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga", "backgammon"])
def test_game_record_json_round_trip(game):
    g = Game(game, seed=11)
    play_out(g, random.Random(5))
    rec = game_record(g)
    text = json.dumps(rec)
    back = load_record(text)
    _assert_same_game(back, g)
    assert game_record(back) == rec
    assert load_record(rec).position == g.position


def test_unfinished_game_record_round_trip():
    g = Game("plakoto", seed=12)
    rng = random.Random(1)
    for _ in range(7):
        g.roll()
        legal = g.legal_moves()
        g.play(rng.choice(legal) if legal else None)
    back = load_record(json.dumps(game_record(g)))
    assert back.position == g.position and back.outcome is None
    assert (back.phase, back.turn) == ("roll", g.turn)
    g.roll()                                           # dice thrown, not yet played
    back = load_record(json.dumps(game_record(g)))
    assert back.position == g.position and back.outcome is None
    assert (back.phase, back.dice) == ("move", g.dice)
    assert back.legal_moves() == g.legal_moves()


def test_record_of_an_opening_throw_without_first_roll():
    g = Game("portes", dice=ScriptedDice([2, 5]))
    assert g.opening_throw() == 1
    assert (g.phase, g.turn) == ("roll", 1)
    back = load_record(json.dumps(game_record(g)))
    assert (back.phase, back.turn, back.first) == ("roll", 1, 1)
    assert back.events == [{"opening": [2, 5]}]


def test_record_of_a_game_from_a_set_position_and_with_options():
    from tavli import Rules

    start = Position.from_points("fevga", {24: 14, 11: 1}, {24: 15}, 1)
    g = Game(Rules.for_game("fevga", ["starting_quarter_rule=off"]), position=start,
             seed=3)
    play_out(g, random.Random(2))
    rec = game_record(g)
    assert rec["games"][0]["start"] == start.id()
    back = load_record(json.dumps(rec))
    _assert_same_game(back, g)
    assert back.start_position == start


def test_cube_actions_round_trip():
    g = Game("backgammon", seed=21)
    g.roll()
    g.play(g.legal_moves()[0])
    g.double()
    g.take()
    g.roll()
    legal = g.legal_moves()
    g.play(legal[0] if legal else None)
    g.double()
    g.drop()
    assert g.outcome == Outcome(0, 2, "drop") or g.outcome == Outcome(1, 2, "drop")
    back = load_record(json.dumps(game_record(g)))
    _assert_same_game(back, g)


def test_match_record_json_round_trip():
    m = Match(target=3, seed=31)
    rng = random.Random(3)
    while True:
        play_out(m.game, rng)
        if m.is_over:
            break
        m.next_game()
    rec = match_record(m)
    back = load_record(json.dumps(rec))
    assert isinstance(back, Match)
    assert back.score == m.score and back.winner == m.winner and back.is_over
    assert len(back.games) == len(m.games)
    for a, b in zip(back.games, m.games, strict=True):
        _assert_same_game(a, b)
    assert match_record(back)["games"] == rec["games"]


def test_backgammon_match_record_with_cube_round_trip():
    m = Match(target=3, variant="backgammon", seed=41)
    rng = random.Random(4)
    while not m.is_over:
        g = m.game
        turns = 0
        while not g.is_over:
            turns += 1
            if turns % 9 == 0 and g.can_double():
                g.double()
                if rng.random() < 0.7:
                    g.take()
                else:
                    g.drop()
                    break
            g.roll()
            legal = g.legal_moves()
            g.play(rng.choice(legal) if legal else None)
        if not m.is_over:
            m.next_game()
    back = load_record(json.dumps(match_record(m)))
    assert back.score == m.score
    for a, b in zip(back.games, m.games, strict=True):
        _assert_same_game(a, b)
        assert a.crawford == b.crawford


def test_save_and_load(tmp_path):
    g = Game("portes", seed=51)
    play_out(g, random.Random(6))
    path = tmp_path / "game.json"
    path.write_text("x" * 200_000)                      # an old, longer file
    save(g, path)
    assert json.loads(path.read_text()) == game_record(g)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    _assert_same_game(load(path), g)
    save(game_record(g), path)                          # a dict is saved as it is
    _assert_same_game(load(str(path)), g)


def test_save_failure_keeps_the_old_file(tmp_path, monkeypatch):
    import tavli.play.record as record

    path = tmp_path / "game.json"
    path.write_text("old contents")
    with pytest.raises(TypeError):
        save({"format": "tavli-record", "bad": object()}, path)
    assert path.read_text() == "old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(record.os, "replace", broken_replace)
    with pytest.raises(OSError):
        save(Game("fevga", seed=1), path)
    assert path.read_text() == "old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_load_missing_or_binary_file(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "nope.json")
    bad = tmp_path / "bin.json"
    bad.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(RecordError):
        load(bad)


def _small_record():
    g = Game("portes", dice=ScriptedDice([5, 2, 3, 1, 6, 4, 2, 2]))
    for _ in range(3):
        g.roll()
        g.play(g.legal_moves()[0])
    return game_record(g)


def _tampered(change):
    rec = json.loads(json.dumps(_small_record()))
    change(rec)
    return rec


def test_small_record_loads():
    rec = _small_record()
    assert [e.get("dice") for e in rec["games"][0]["events"]] == [None, [3, 1], [6, 4],
                                                                 [2, 2]]
    assert load_record(rec).position.id() == rec["games"][0]["position"]


def _set_event(k, key, value):
    def change(rec):
        rec["games"][0]["events"][k][key] = value
    return change


@pytest.mark.parametrize("data,message", [
    ("{not json", "not valid JSON"),
    ("", "not valid JSON"),
    ("[1, 2]", "not a tavli record"),
    (json.dumps({"format": "other"}), "not a tavli record"),
    (_tampered(lambda r: r.update(version=99)), "version"),
    (_tampered(lambda r: r.update(games=[])), "no games"),
    (_tampered(lambda r: r.update(games=[1])), "object"),
    (_tampered(_set_event(1, "dice", [3, 9])), "not 1..6"),
    (_tampered(_set_event(1, "dice", [0, 1])), "not 1..6"),
    (_tampered(_set_event(1, "dice", ["3", 1])), "not 1..6"),
    (_tampered(_set_event(1, "dice", [3])), "two"),
    (_tampered(_set_event(1, "side", "green")), "side"),
    (_tampered(_set_event(1, "move", "13/1")), "event 2"),
    (_tampered(_set_event(2, "move", "6/off 6/2")), "event 3"),
    (_tampered(_set_event(1, "move", "")), "cannot be passed"),
    (_tampered(_set_event(1, "move", 42)), "text"),
    (_tampered(lambda r: r["games"][0]["events"].append("hello")), "object"),
    (_tampered(lambda r: r["games"][0]["events"].append({"what": 1})), "unknown event"),
    (_tampered(lambda r: r["games"][0]["events"].append({"double": 2})), "cube"),
    (_tampered(lambda r: r["games"][0].update(position="AOBz8AEw4HPwATA")),
     "replay ends in"),
    (_tampered(lambda r: r["games"][0].update(
        result={"winner": "white", "points": 1, "kind": "single"})), "result"),
    (_tampered(lambda r: r["games"][0].update(rules={"game": "chess"})), "unknown game"),
    (_tampered(lambda r: r["games"][0].update(rules={"game": "portes", "x": 1})),
     "unknown rule option"),
    (_tampered(lambda r: r["games"][0]["events"].insert(2, {"opening": [1, 2]})),
     "opening"),
])
def test_malformed_records(data, message):
    with pytest.raises(RecordError, match=message):
        load_record(data)


def test_malformed_record_file(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_tampered(_set_event(1, "move", "13/1"))))
    with pytest.raises(RecordError):
        load(path)
