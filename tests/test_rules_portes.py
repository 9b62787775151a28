"""Portes and international backgammon (RULES.md, "Portes", "International backgammon",
"Start of a game"): hitting, the bar, entering, scoring, the doubling cube and the
opening roll.

Black's point ``q`` is white's ``25 - q``.
"""

from __future__ import annotations

import pytest

from tavli import GameOver, IllegalMove, Position, Rules, WrongState
from tavli.engine.dice import ScriptedDice
from tavli.play.game import Game, Outcome, base_result


def P(game, white, black, turn=0):
    return Position.from_points(game, white, black, turn)


def moves(pos, dice, **options):
    rules = Rules.for_game(pos.game, options) if options else None
    return sorted(str(m) for m in pos.legal_moves(dice, rules))


CLOSED = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}          # black's home board, all made
FIVE_CLOSED = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 7: 5}     # white's 19 (black's 6) open


# --- hitting and the bar ------------------------------------------------------------------

@pytest.mark.parametrize("game", ["portes", "backgammon"])
def test_hit_sends_the_blot_to_the_bar(game):
    # black's blot on his 18 = white's 7
    pos = P(game, {13: 2, 6: 13}, {18: 1, 1: 14})
    m = pos.find_move("13/7* 13/12", "61")
    assert str(m) == "13/7* 13/12"
    assert m.steps == ((13, 7, True), (13, 12, False))
    assert m.after.bar(1) == 1 and m.after.points(1)[18] == 0
    assert m.after.points(0)[7] == 1
    assert m.after.turn == 1


def test_black_hits_white():
    # white's blot on his 20 = black's 5; black 11/5* with a 6
    pos = P("portes", {20: 1, 6: 14}, {11: 2, 1: 13}, turn=1)
    after = pos.play("11/5* 11/10", "61")
    assert after.bar(0) == 1 and after.points(0)[20] == 0
    assert after.points(1)[5] == 1 and after.turn == 0


def test_two_hits_in_one_turn():
    pos = P("portes", {13: 2, 6: 13}, {18: 1, 20: 1, 1: 13})  # blots on white's 7 and 5
    after = pos.play("13/7* 6/5*", "61")
    assert after.bar(1) == 2


def test_two_checkers_block_a_point():
    pos = P("portes", {13: 2, 6: 13}, {18: 2, 1: 13})  # black holds white's 7
    assert not any(str(m).startswith("13/7") for m in pos.legal_moves("61"))
    with pytest.raises(IllegalMove, match="blocked"):
        pos.play("13/7 13/12", "61")


def test_bar_enters_before_anything_else():
    pos = P("portes", {25: 1, 13: 14}, {3: 1, 6: 14})
    legal = pos.legal_moves("31")
    assert sorted(str(m) for m in legal) == [
        "bar/21", "bar/22* 13/12", "bar/22*/21", "bar/24 13/10"]
    assert all(m.steps[0][0] == 25 for m in legal)
    with pytest.raises(IllegalMove, match="bar must be entered first"):
        pos.play("13/10 13/12", "31")
    after = pos.play("bar/22* 13/12", "31")
    assert after.bar(0) == 0 and after.bar(1) == 1


def test_entering_against_a_closed_board_passes():
    pos = P("portes", {25: 1, 13: 14}, CLOSED)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert pos.legal_moves((d1, d2)) == []
    g = Game("portes", position=pos)
    g.set_dice((6, 6))
    with pytest.raises(IllegalMove, match="passes"):
        g.play("bar/19")
    g.play(None)
    assert g.position == pos.swap_turn() and g.turn == 1


def test_entering_against_a_partly_closed_board():
    pos = P("portes", {25: 1, 13: 14}, FIVE_CLOSED)
    assert moves(pos, "61") == ["bar/19 13/12"]  # 19/18 is blocked (black's 7)
    assert moves(pos, "55") == []
    assert moves(pos, "66") == ["bar/1", "bar/19 13/1 13/7", "bar/19 13/7(3)", "bar/7 13/7"]


def test_two_on_the_bar_and_only_one_can_enter():
    pos = P("portes", {25: 2, 13: 13}, FIVE_CLOSED)
    assert moves(pos, "61") == ["bar/19"]
    assert moves(pos, "61", must_play_higher=True) == ["bar/19"]
    after = pos.play("bar/19", "61")
    assert after.bar(0) == 1
    assert moves(pos, "66") == ["bar/13(2)", "bar/19(2) 13/1", "bar/19(2) 13/7(2)",
                                "bar/7 bar/19"]


# --- scoring -------------------------------------------------------------------------------

PORTES = Rules.for_game("portes")
PORTES_BG = Rules.for_game("portes", ["backgammons=true"])
BACKGAMMON = Rules.for_game("backgammon")


@pytest.mark.parametrize("white,black,rules,expected", [
    ({}, {6: 14}, PORTES, (0, 1, "single")),
    ({}, {6: 15}, PORTES, (0, 2, "gammon")),
    ({}, {20: 1, 6: 14}, PORTES, (0, 2, "gammon")),          # no triple by default
    ({}, {20: 1, 6: 14}, PORTES_BG, (0, 3, "backgammon")),   # in the winner's home
    ({}, {25: 1, 6: 14}, PORTES_BG, (0, 3, "backgammon")),   # on the bar
    ({}, {18: 1, 6: 14}, PORTES_BG, (0, 2, "gammon")),
    ({}, {20: 1, 6: 13}, PORTES_BG, (0, 1, "single")),       # one borne off
    ({}, {20: 1, 6: 14}, BACKGAMMON, (0, 3, "backgammon")),
    ({}, {6: 14}, BACKGAMMON, (0, 1, "single")),
    ({6: 14}, {}, PORTES, (1, 1, "single")),
    ({19: 1, 6: 14}, {}, BACKGAMMON, (1, 3, "backgammon")),
    ({1: 1}, {6: 15}, PORTES, None),
])
def test_base_result(white, black, rules, expected):
    pos = P(rules.game_name, white, black)
    assert base_result(pos, rules) == expected


def test_scoring_options_defaults():
    assert Rules.for_game("portes").backgammons is False
    assert Rules.for_game("backgammon").backgammons is True
    assert Rules.for_game("portes").cube is False


def test_game_ends_with_the_last_checker_off():
    g = Game("portes", position=P("portes", {1: 1}, {6: 15}),
             dice=ScriptedDice([2, 1]))
    assert g.roll() == (2, 1)
    g.play("1/off")
    assert g.is_over and g.phase == "over"
    assert g.outcome == Outcome(0, 2, "gammon")
    with pytest.raises(GameOver):
        g.roll()


# --- the doubling cube (backgammon) -----------------------------------------------------

def bg_game(position=None, options=(), dice=(), **kw):
    return Game(Rules.for_game("backgammon", list(options)), position=position,
                dice=ScriptedDice(list(dice)), **kw)


def test_cube_defaults():
    r = Rules.for_game("backgammon")
    assert (r.cube, r.crawford, r.jacoby, r.beavers) == (True, True, False, False)


def test_double_take_and_ownership():
    g = bg_game(dice=[3, 1, 6, 5, 4, 4])
    assert not g.can_double()                       # nobody has thrown yet
    with pytest.raises(WrongState):
        g.double()
    assert g.roll() == (3, 1) and g.turn == 0      # the opening dice are the first move
    assert not g.can_double()                       # the dice are out
    with pytest.raises(WrongState, match="before rolling"):
        g.double()
    g.play("8/5 6/5")
    assert g.turn == 1 and g.can_double()
    g.double()
    assert g.phase == "double" and g.turn == 0      # white must answer
    with pytest.raises(WrongState):
        g.roll()
    g.take()
    assert (g.cube_value, g.cube_owner, g.phase, g.turn) == (2, 0, "roll", 1)
    assert not g.can_double()                       # black no longer has access
    with pytest.raises(WrongState, match="opponent"):
        g.double()
    assert g.roll() == (6, 5)
    g.play("24/13")
    assert g.turn == 0 and g.can_double()           # the owner may redouble
    g.double()
    g.take()
    assert (g.cube_value, g.cube_owner) == (4, 1)
    assert g.events[2:] == [
        {"side": "black", "double": 2}, {"side": "white", "take": True},
        {"side": "black", "dice": [6, 5], "move": "24/13"},
        {"side": "white", "double": 4}, {"side": "black", "take": True}]


def test_drop_loses_the_current_cube_value():
    g = bg_game(first=0)
    g.double()
    g.drop()
    assert g.outcome == Outcome(0, 1, "drop") and g.is_over
    with pytest.raises(GameOver):
        g.roll()

    g = bg_game(first=0, dice=[3, 1])
    g.double()
    g.take()
    g.roll()
    g.play("8/5 6/5")
    g.double()          # black redoubles to 4
    g.drop()
    assert g.outcome == Outcome(1, 2, "drop")


def test_answers_need_a_double():
    g = bg_game(first=0)
    for answer in (g.take, g.drop):
        with pytest.raises(WrongState, match="no double"):
            answer()


def test_cube_multiplies_the_result():
    g = bg_game(P("backgammon", {1: 1}, {20: 1, 6: 14}), dice=[2, 1])
    g.double()
    g.take()
    g.roll()
    g.play("1/off")
    assert g.outcome == Outcome(0, 6, "backgammon")


def test_no_cube_in_tavli_games_or_when_switched_off():
    for game in ("portes", "plakoto", "fevga"):
        g = Game(game, first=0)
        assert not g.can_double()
        with pytest.raises(WrongState, match="without the doubling cube"):
            g.double()
    g = bg_game(first=0, options=["cube=false"])
    assert not g.can_double()
    with pytest.raises(WrongState):
        g.double()


def test_no_doubling_in_the_crawford_game():
    g = bg_game(first=0, crawford=True, match_play=True)
    assert not g.can_double()
    with pytest.raises(WrongState, match="Crawford"):
        g.double()


NEAR_GAMMON = P("backgammon", {1: 1}, {6: 15})


def test_jacoby_gammon_counts_only_after_a_double():
    g = bg_game(NEAR_GAMMON, options=["jacoby=true"], dice=[2, 1])
    g.roll()
    g.play("1/off")
    assert g.outcome.points == 1

    g = bg_game(NEAR_GAMMON, options=["jacoby=true"], dice=[2, 1])
    g.double()
    g.take()
    g.roll()
    g.play("1/off")
    assert g.outcome == Outcome(0, 4, "gammon")


def test_jacoby_off_and_in_match_play():
    g = bg_game(NEAR_GAMMON, dice=[2, 1])
    g.roll()
    g.play("1/off")
    assert g.outcome == Outcome(0, 2, "gammon")

    g = bg_game(NEAR_GAMMON, options=["jacoby=true"], dice=[2, 1], match_play=True)
    g.roll()
    g.play("1/off")
    assert g.outcome == Outcome(0, 2, "gammon")


def test_beaver():
    g = bg_game(first=0, options=["beavers=true"])
    g.double()
    g.beaver()
    assert (g.cube_value, g.cube_owner, g.phase, g.turn) == (4, 1, "roll", 0)
    assert not g.can_double()
    assert g.events == [{"side": "white", "double": 2}, {"side": "black", "beaver": True}]


def test_beaver_not_allowed_by_default_or_in_a_match():
    g = bg_game(first=0)
    g.double()
    with pytest.raises(WrongState, match="beaver"):
        g.beaver()
    assert g.phase == "double"
    g = bg_game(first=0, options=["beavers=true"], match_play=True)
    g.double()
    with pytest.raises(WrongState):
        g.beaver()


# --- the opening roll ------------------------------------------------------------------

@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga"])
def test_tavli_opening_starter_throws_both_dice(game):
    g = Game(game, dice=ScriptedDice([5, 2, 6, 6]))
    assert g.phase == "opening"
    assert g.roll() == (6, 6)            # he may open with a double
    assert g.turn == 0 and g.first == 0
    assert g.events == [{"opening": [5, 2]}]

    g = Game(game, dice=ScriptedDice([2, 5, 3, 1]))
    assert g.roll() == (3, 1) and g.turn == 1


@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga"])
def test_tavli_opening_ties_are_thrown_again(game):
    g = Game(game, dice=ScriptedDice([4, 4, 1, 1, 2, 5, 3, 3]))
    assert g.roll() == (3, 3) and g.turn == 1
    assert g.events == [{"opening": [4, 4]}, {"opening": [1, 1]}, {"opening": [2, 5]}]


def test_backgammon_uses_the_opening_dice():
    g = bg_game(dice=[5, 2])
    assert g.roll() == (5, 2) and g.turn == 0
    g = bg_game(dice=[2, 5])
    assert g.roll() == (5, 2) and g.turn == 1    # black's die first
    g = bg_game(dice=[6, 6, 3, 1, 4, 4])
    assert g.roll() == (3, 1) and g.turn == 0
    assert g.events == [{"opening": [6, 6]}, {"opening": [3, 1]}]
    g.play("8/5 6/5")
    assert g.roll() == (4, 4) and g.turn == 1   # later throws are two dice of one side


def test_opening_reroll_option_flips_the_default():
    assert Rules.for_game("backgammon").opening_reroll is False
    assert all(Rules.for_game(g).opening_reroll for g in ("portes", "plakoto", "fevga"))
    g = bg_game(options=["opening_reroll=true"], dice=[5, 2, 4, 4])
    assert g.roll() == (4, 4) and g.turn == 0
    g = Game(Rules.for_game("portes", ["opening_reroll=false"]), dice=ScriptedDice([2, 5]))
    assert g.roll() == (5, 2) and g.turn == 1


def test_opening_throw_never_gives_a_backgammon_double():
    for w in range(1, 7):
        for b in range(1, 7):
            if w == b:
                continue
            g = bg_game(dice=[w, b])
            d = g.roll()
            assert d[0] != d[1]
            assert g.turn == (0 if w > b else 1)
            assert sorted(d) == sorted((w, b))
