"""Rules shared by all four games (RULES.md, "The turn" and "Bearing off"): using the
full roll, doubles, the most dice, the higher-die option, bearing off, passing, move
notation and the errors of a move that cannot be played.

Positions are built with ``Position.from_points`` in each side's own numbering; in
Portes, Plakoto and backgammon black's point ``q`` is white's ``25 - q``, in Fevga black's
``q`` is white's ``((q + 11) % 24) + 1``.
"""

from __future__ import annotations

import numpy as np
import pytest

from tavli import IllegalMove, ParseError, Position, Rules
from tavli.engine.notation import format_steps, parse_move
from tavli.play.game import Game

GAMES = ("portes", "plakoto", "fevga", "backgammon")


def P(game, white, black, turn=0, pinned=()):
    return Position.from_points(game, white, black, turn, pinned=pinned)


def moves(pos, dice, **options):
    rules = Rules.for_game(pos.game, options) if options else None
    return sorted(str(m) for m in pos.legal_moves(dice, rules))


def pips_moved(move):
    side = move.before.turn
    return move.before.pip_count(side) - move.after.pip_count(side)


# --- the whole roll -------------------------------------------------------------------

OPENING_31 = sorted([
    "24/21 24/23", "24/20", "24/21 8/7", "24/21 6/5", "24/23 13/10", "13/9",
    "13/10 8/7", "13/10 6/5", "24/23 8/5", "8/5 8/7", "8/4", "8/5 6/5", "24/23 6/3",
    "8/7 6/3", "6/3 6/5", "6/2",
])


@pytest.mark.parametrize("game", ["portes", "backgammon"])
def test_both_dice_are_used_when_possible(game):
    start = Position.start(game)
    # 13/12 is blocked by black's five checkers on his 13-point
    assert moves(start, "31") == OPENING_31
    assert all(pips_moved(m) == 4 for m in start.legal_moves("31"))
    with pytest.raises(IllegalMove, match="must play 2 dice"):
        start.play("24/21", "31")


def test_dice_order_and_format_do_not_matter():
    start = Position.start("portes")
    expected = moves(start, "31")
    for dice in ("13", "3-1", "3 1", (1, 3), [3, 1]):
        assert moves(start, dice) == expected


def test_doubles_are_played_four_times():
    start = Position.start("portes")
    legal = start.legal_moves("22")
    assert legal
    assert all(len(m.steps) == 4 and pips_moved(m) == 8 for m in legal)
    names = {str(m) for m in legal}
    assert {"8/4(2)", "6/2(2)", "24/22(2) 6/4(2)", "13/11(2) 6/4(2)", "24/20(2)"} <= names
    assert "6/4(2) 8/6" not in names  # only three of the four twos
    with pytest.raises(IllegalMove, match="must play 4 dice"):
        start.play("6/4(2)", "22")


def test_opening_doubles_one_checker_all_the_way():
    start = Position.start("portes")
    assert "24/16" in moves(start, "22")
    assert start.find_move("24/22/20/18/16", "22").steps == (
        (24, 22, False), (22, 20, False), (20, 18, False), (18, 16, False))


def test_only_one_die_playable_either_rule():
    # white's runner on 24; black holds white's 18 and 17: 24/18 is blocked and after
    # 24/23 the 6 is blocked too; the 14 checkers on the 1-point cannot bear off
    pos = P("portes", {24: 1, 1: 14}, {7: 2, 8: 2})
    for higher in (True, False):
        assert moves(pos, "61", must_play_higher=higher) == ["24/23"]
    with pytest.raises(IllegalMove, match="blocked"):
        pos.play("24/18", "61")


def test_double_only_partly_playable():
    # black holds white's 15: of 3-3 only 24/21/18 can be played
    pos = P("portes", {24: 1, 1: 14}, {10: 2})
    legal = pos.legal_moves("33")
    assert [str(m) for m in legal] == ["24/18"]
    assert len(legal[0].steps) == 2
    with pytest.raises(IllegalMove, match="must play 2 dice"):
        pos.play("24/21", "33")


def test_most_dice_rule_beats_free_choice():
    # either die alone, or both with one checker: only the two-dice plays are legal
    pos = P("portes", {24: 1, 1: 14}, {9: 2})  # black blocks white's 16 only
    assert moves(pos, "61") == ["24/17"]
    assert moves(pos, "61", must_play_higher=False) == ["24/17"]


# --- the higher-die rule --------------------------------------------------------------

# one of the two dice can be played, but not both
HIGHER_DIE_CASES = {
    # 24/18 or 24/23; white's 17 is held by black
    "portes": (P("portes", {24: 1, 1: 14}, {8: 2}), ["24/18"], ["24/18", "24/23"]),
    "plakoto": (P("plakoto", {24: 1, 1: 14}, {8: 2}), ["24/18"], ["24/18", "24/23"]),
    "backgammon": (P("backgammon", {24: 1, 1: 14}, {8: 2}), ["24/18"], ["24/18", "24/23"]),
    # 16/10 or 16/15; a single black checker (his 21) blocks white's 9
    "fevga": (P("fevga", {16: 1, 1: 14}, {21: 1, 24: 14}), ["16/10"], ["16/10", "16/15"]),
}


@pytest.mark.parametrize("game", GAMES)
def test_higher_die_rule_option(game):
    pos, higher_only, free_choice = HIGHER_DIE_CASES[game]
    assert moves(pos, "61", must_play_higher=True) == higher_only
    assert moves(pos, "61", must_play_higher=False) == free_choice
    assert moves(pos, "16", must_play_higher=True) == higher_only


@pytest.mark.parametrize("game,default", [("portes", False), ("plakoto", False),
                                          ("fevga", True), ("backgammon", True)])
def test_higher_die_rule_defaults(game, default):
    assert Rules.for_game(game).must_play_higher is default
    pos, higher_only, free_choice = HIGHER_DIE_CASES[game]
    assert moves(pos, "61") == (higher_only if default else free_choice)


def test_higher_die_rule_message():
    pos = HIGHER_DIE_CASES["backgammon"][0]
    with pytest.raises(IllegalMove, match="higher"):
        pos.play("24/23", "61")
    assert pos.play("24/23", "61", Rules.for_game("backgammon", ["must_play_higher=false"]))


def test_higher_die_rule_settable_by_text():
    r = Rules.for_game("portes", ["must_play_higher=true"])
    assert r.must_play_higher is True
    assert Rules.for_game("fevga", ["must_play_higher=off"]).must_play_higher is False


# --- bearing off -------------------------------------------------------------------------
# black's checkers sit on his 1-point (white's 24), out of the way

def test_bear_off_from_the_exact_point():
    pos = P("portes", {6: 2}, {1: 2})
    assert moves(pos, "66") == ["6/off(2)"]  # the game ends after two of the four sixes
    after = pos.play("6/off(2)", "66")
    assert after.off(0) == 15 and after.is_finished()


def test_bear_off_exact_or_move_inside():
    # 6-3: 6/off 3/off, or 6/3 and then the 6 bears off from the highest point (3)
    pos = P("portes", {6: 1, 3: 1}, {1: 2})
    assert moves(pos, "63") == ["6/off", "6/off 3/off"]
    assert pos.play("6/off", "63").points(0)[3] == 1


def test_higher_die_bears_off_from_highest_point():
    pos = P("portes", {3: 1, 2: 1}, {1: 2})
    assert moves(pos, "65") == ["3/off 2/off"]


def test_must_move_inside_when_a_higher_point_is_occupied():
    # the 5 cannot bear off from the 4-point while a checker is on the 6-point
    pos = P("portes", {6: 1, 4: 1}, {1: 2})
    assert moves(pos, "51") == ["6/1 4/3", "6/off"]
    with pytest.raises(IllegalMove, match="higher point must use that die"):
        pos.play("4/off 6/5", "51")


def test_no_bear_off_with_a_checker_outside_home():
    pos = P("portes", {20: 1, 6: 14}, {12: 2})
    assert moves(pos, "65") == ["20/14 6/1", "20/9"]
    with pytest.raises(IllegalMove, match="every checker in the home board"):
        pos.play("6/off 20/15", "65")


def test_bear_off_after_coming_home_in_the_same_turn():
    # 7/6 and 6/off with the same checker is written 7/off
    pos = P("portes", {7: 1, 6: 1}, {1: 2})
    assert moves(pos, "61") == ["7/1 6/5", "7/off"]
    assert pos.play("7/6 6/off", "61") == pos.play("7/off", "61")


def test_bear_off_past_opposing_checkers_fevga():
    # a black checker (his 15) stands on white's 3-point
    pos = P("fevga", {6: 1, 5: 1}, {15: 1, 24: 14})
    assert moves(pos, "65") == ["6/1 5/off", "6/off 5/off"]


def test_bear_off_past_opposing_checkers_plakoto():
    # a lone black checker (his 22) on white's 3-point; black's 14 hold white's 1-point
    pos = P("plakoto", {6: 1, 5: 1}, {22: 1, 24: 14})
    assert moves(pos, "65") == ["6/off 5/off"]



def _unchecked(game, white, black, turn):
    """A set-up the position checks would refuse (one that no play reaches)."""
    arr = np.zeros((4, 26), dtype=np.int8)
    for side, pts in ((0, white), (1, black)):
        for p, n in pts.items():
            arr[side, p] = n
        arr[side, 0] = 15 - arr[side].sum()
    return Position(game, arr, turn, validate=False)

# --- passing ---------------------------------------------------------------------------

NO_MOVE = {
    # white on the bar against a closed board
    "portes": P("portes", {25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}),
    "backgammon": P("backgammon", {25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}),
    # white's only outside checker is pinned; no bearing off
    "plakoto": P("plakoto", {20: 1, 1: 14}, {5: 1, 12: 14}, pinned=[(0, 20)]),
    # black's 15 checkers (his 19) sit right behind white's prime on white's 1-6
    # (no play reaches it, so it is set up unchecked: the generator's rules still apply)
    "fevga": _unchecked("fevga", {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 20: 9}, {19: 15}, 1),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("dice", ["61", "66", "11", "35"])
def test_no_legal_move_gives_an_empty_list(game, dice):
    assert NO_MOVE[game].legal_moves(dice) == []


def test_playing_with_no_legal_move_says_the_turn_passes():
    with pytest.raises(IllegalMove, match="passes"):
        NO_MOVE["portes"].play("bar/19", "61")


def test_game_passes_only_without_a_legal_move():
    g = Game("portes", position=NO_MOVE["portes"])
    g.set_dice((6, 1))
    assert g.legal_moves() == []
    assert g.play(None) is None
    assert g.position == NO_MOVE["portes"].swap_turn()
    assert g.events[-1] == {"side": "white", "dice": [6, 1], "move": ""}


# --- notation --------------------------------------------------------------------------

def test_notation_two_checkers():
    start = Position.start("portes")
    assert "24/18 13/11" in moves(start, "62")
    assert str(start.find_move("13/11 24/18", "62")) == "24/18 13/11"


def test_notation_bar_entry_with_hit():
    pos = P("portes", {25: 1, 13: 14}, {3: 1, 6: 14})
    assert moves(pos, "31") == ["bar/21", "bar/22* 13/12", "bar/22*/21", "bar/24 13/10"]
    m = pos.find_move("bar/22*/21", "31")
    assert m.steps == ((25, 22, True), (22, 21, False))
    assert m.after.bar(1) == 1


def test_notation_hit_on_the_way():
    # 6-6: 13/7 hits black's blot (his 18), 7/1; 20/14 is blocked
    pos = P("portes", {13: 1, 20: 14}, {18: 1, 11: 2, 6: 12})
    assert moves(pos, "66") == ["13/7*/1"]
    assert pos.find_move("13/1", "66") == pos.find_move("13/7*/1", "66")


def test_notation_bear_off_and_repeats():
    assert moves(P("portes", {6: 1}, {1: 2}), "61") == ["6/off"]
    assert "8/4(2)" in moves(Position.start("portes"), "22")


def test_notation_pin_mark_plakoto():
    pos = P("plakoto", {13: 2, 24: 13}, {16: 1, 24: 14})
    assert "13/9^ 13/11" in moves(pos, "42")


def test_format_and_parse_helpers():
    assert format_steps(((24, 18, False), (13, 11, False)), 0) == "24/18 13/11"
    assert format_steps(((25, 22, True),), 0) == "bar/22*"
    assert format_steps(((13, 7, True), (7, 1, False)), 0) == "13/7*/1"
    assert format_steps(((6, 0, False),), 0) == "6/off"
    assert format_steps(((8, 6, False), (8, 6, False), (6, 4, False), (6, 4, False)),
                        0) == "8/4(2)"
    assert format_steps(((13, 9, True),), 1) == "13/9^"
    assert parse_move("bar/22* 13/7(2)") == [[25, 22], [13, 7], [13, 7]]
    assert parse_move("13/7*/1 6/off") == [[13, 7, 1], [6, 0]]


@pytest.mark.parametrize("text", [
    "foo", "", "   ", "13/13", "6/8", "off/5", "13/7(5)", "13/7(0)", "26/20", "13/x",
    "24-18", "24/18/", "/18", "bar/25", "13/off/5",
])
def test_parse_errors(text):
    with pytest.raises(ParseError):
        parse_move(text)
    with pytest.raises(ParseError):
        Position.start("portes").play(text, "62")


@pytest.mark.parametrize("dice", ["72", "0-1", "3", "333", "ab", "", (1, 2, 3), (0, 4), 31])
def test_bad_dice(dice):
    with pytest.raises(ParseError):
        Position.start("portes").legal_moves(dice)


def test_text_move_needs_dice():
    with pytest.raises(IllegalMove, match="dice"):
        Position.start("portes").play("24/18 13/11")


# --- illegal moves say why, and change nothing -----------------------------------------

@pytest.mark.parametrize("pos,text,dice,reason", [
    (Position.start("portes"), "24/19 13/11", "52", "blocked"),
    (Position.start("portes"), "7/1 8/6", "62", "no checker"),
    (Position.start("portes"), "6/off 6/4", "62", "every checker in the home board"),
    (P("portes", {25: 1, 13: 14}, {3: 1, 6: 14}), "13/10 13/12", "31", "bar"),
    (P("plakoto", {9: 1, 24: 14}, {16: 1, 20: 1, 24: 13}, turn=1, pinned=[(1, 16)]),
     "16/12 24/23", "41", "pinned"),
    (Position.start("fevga"), "24/18 24/23", "61", "first checker"),
    (P("fevga", {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 9: 1}, {24: 15}), "24/19 9/8", "51",
     "starting quarter"),
])
def test_illegal_move_messages(pos, text, dice, reason):
    before_id = pos.id()
    legal_before = [str(m) for m in pos.legal_moves(dice)]
    with pytest.raises(IllegalMove, match=reason):
        pos.play(text, dice)
    assert pos.id() == before_id
    assert [str(m) for m in pos.legal_moves(dice)] == legal_before


def test_failed_play_leaves_the_game_unchanged():
    g = Game("portes", seed=1)
    g.set_dice((5, 2))
    snapshot = (g.position, g.phase, g.dice, list(g.events), len(g.moves), g.turn)
    legal = [str(m) for m in g.legal_moves()]
    for bad in ("24/19 13/11", "13/7", "nonsense", "6/off 6/4"):
        with pytest.raises((IllegalMove, ParseError)):
            g.play(bad)
        assert (g.position, g.phase, g.dice, list(g.events), len(g.moves), g.turn) == snapshot
        assert [str(m) for m in g.legal_moves()] == legal
    g.play("13/8 13/11")
    assert g.phase == "roll" and g.turn == 1


def test_move_from_another_position_is_rejected():
    start = Position.start("portes")
    other = start.play("8/5 6/5", "31")
    m = other.legal_moves("31")[0]
    with pytest.raises(IllegalMove):
        start.play(m)
    m0 = start.legal_moves("31")[0]
    with pytest.raises(IllegalMove):
        start.play(m0, "62")
    assert start.play(m0) == m0.after


def test_move_after_has_the_opponent_to_move():
    for game in GAMES:
        start = Position.start(game)
        for m in start.legal_moves("31"):
            assert m.before is start or m.before == start
            assert m.after.turn == 1
            assert m.after.points(1) == start.points(1)
