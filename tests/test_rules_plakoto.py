"""Plakoto (RULES.md, "Plakoto"): pinning, the pinned checker, the pinner's point, the
mother checker (win, play on, later win, draw, pins that do not last), bearing off while
pinned, and scoring.

Black's point ``q`` is white's ``25 - q``. A position's pins are given as
``(side, point)`` of the pinned checker in its own numbering.
"""

from __future__ import annotations

import pytest

from tavli import IllegalMove, Position, Rules
from tavli.engine.dice import ScriptedDice
from tavli.play.game import Game, Outcome, base_result

R = Rules.for_game("plakoto")


def P(white, black, turn=0, pinned=()):
    return Position.from_points("plakoto", white, black, turn, pinned=pinned)


def moves(pos, dice):
    return sorted(str(m) for m in pos.legal_moves(dice))


def finals(pos, dice, texts):
    """The legal final positions equal those of ``texts`` (notation-independent)."""
    got = [m.after for m in pos.legal_moves(dice)]
    want = {pos.play(t, dice) for t in texts}
    return len(got) == len(want) and set(got) == want


# white's checker on his 9 pins black's lone checker on his 16 (the same point)
PINNED = P({9: 1, 24: 14}, {16: 1, 20: 1, 24: 13}, turn=1, pinned=[(1, 16)])


def test_landing_on_a_lone_checker_pins_it():
    pos = P({13: 2, 24: 13}, {16: 1, 24: 14})
    m = pos.find_move("13/9^ 13/11", "42")
    assert str(m) == "13/9^ 13/11"
    assert (13, 9, True) in m.steps
    a = m.after
    assert a.pinned(1) == (16,) and a.pinned(0) == ()
    assert a.points(0)[9] == 1 and a.points(1)[16] == 1   # both stay on the point
    assert a.bar(1) == 0                                  # no hitting, no bar
    assert "13/9^ 13/11" in moves(pos, "42")


def test_black_pins_white():
    pos = P({20: 1, 24: 14}, {9: 1, 24: 14}, turn=1)     # white's 20 = black's 5
    a = pos.play("9/5^ 24/21", "43")
    assert a.pinned(0) == (20,) and a.pinned(1) == ()


def test_pinned_checker_cannot_move():
    assert moves(PINNED, "41") == ["20/15", "24/19", "24/20 24/23"]
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            for m in PINNED.legal_moves((d1, d2)):
                assert all(s != 16 and t != 16 for s, t, _ in m.steps)
    with pytest.raises(IllegalMove, match="pinned"):
        PINNED.play("16/12 24/23", "41")


def test_pinned_side_cannot_land_on_the_pinners_point():
    with pytest.raises(IllegalMove, match="blocked"):
        PINNED.play("20/16 24/23", "41")


def test_pinner_may_add_checkers():
    pos = P({9: 1, 13: 1, 24: 13}, {16: 1, 24: 14}, pinned=[(1, 16)])
    assert "24/23 13/9" in moves(pos, "41")
    a = pos.play("24/23 13/9", "41")
    assert a.points(0)[9] == 2 and a.pinned(1) == (16,)


def test_release_when_the_pinner_leaves():
    pos = P({9: 1, 13: 1, 24: 13}, {16: 1, 24: 14}, pinned=[(1, 16)])
    a = pos.play("9/4", "41")
    assert a.pinned(1) == () and a.points(1)[16] == 1
    # black's checker is free again (and pins white's blot on 13 = his 12)
    assert finals(a, "41", ["16/11", "24/19", "24/20 16/15", "24/20 24/23",
                            "24/23 16/12^"])


def test_pin_holds_while_a_pinner_is_left():
    pos = P({9: 2, 24: 13}, {16: 1, 24: 14}, pinned=[(1, 16)])
    assert moves(pos, "41") == ["24/19", "24/20 24/23", "24/20 9/8", "24/23 9/5", "9/4",
                                "9/5 9/8"]
    assert pos.play("9/5 9/8", "41").pinned(1) == ()
    assert pos.play("9/4", "41").pinned(1) == (16,)


def test_two_opposing_checkers_block():
    pos = P({13: 2, 24: 13}, {16: 2, 24: 13})
    assert not any("/9" in str(m) for m in pos.legal_moves("42"))
    with pytest.raises(IllegalMove, match="blocked"):
        pos.play("13/9 13/11", "42")


def test_a_lone_pinner_blocks_the_pinned_side():
    # white's checker on 9 is pinned by black's single checker there
    pos = P({9: 1, 13: 1, 24: 13}, {16: 1, 24: 14}, pinned=[(0, 9)])
    with pytest.raises(IllegalMove, match="blocked"):
        pos.play("13/9 24/23", "41")
    assert all(t != 9 for m in pos.legal_moves("41") for _, t, _ in m.steps)


# --- the mother checker -------------------------------------------------------------------

def test_pinning_the_mother_with_own_start_empty_wins_two():
    # black (to move) pins white's last checker on white's 24 (= black's 1)
    pos = P({24: 1, 6: 14}, {4: 1, 10: 14}, turn=1)
    after = pos.play("10/9 4/1^", "31")
    assert after.mother_pinned(0)
    assert base_result(after, R) == (1, 2, "mother")
    g = Game(R, position=pos, dice=ScriptedDice([3, 1]))
    g.roll()
    g.play("4/1^ 10/9")
    assert g.outcome == Outcome(1, 2, "mother")


def test_white_pins_blacks_mother():
    pos = P({4: 1, 10: 14}, {24: 1, 6: 14})
    assert base_result(pos.play("10/9 4/1^", "31"), R) == (0, 2, "mother")


ON_PIN = P({24: 1, 6: 14}, {4: 1, 10: 13, 24: 1}, turn=1)  # black keeps one on his 24


def test_mother_pinned_while_pinner_keeps_his_start_play_goes_on():
    after = ON_PIN.play("10/9 4/1^", "31")
    assert after.mother_pinned(0)
    assert base_result(after, R) is None
    # pinning and emptying the 24-point in the same turn wins at once
    assert base_result(ON_PIN.play("24/23 4/1^", "31"), R) == (1, 2, "mother")


def test_later_turn_emptying_the_pinners_start_wins():
    g = Game(R, position=ON_PIN, dice=ScriptedDice([3, 1, 2, 1, 6, 5]))
    g.roll()
    g.play("10/9 4/1^")
    assert not g.is_over
    g.roll()
    g.play("6/4 6/5")
    assert not g.is_over
    g.roll()
    g.play("24/13")
    assert g.outcome == Outcome(1, 2, "mother")


def test_later_turn_keeping_the_start_goes_on():
    g = Game(R, position=ON_PIN, dice=ScriptedDice([3, 1, 2, 1, 6, 5]))
    g.roll()
    g.play("10/9 4/1^")
    g.roll()
    g.play("6/4 6/5")
    g.roll()
    g.play("10/4 10/5")
    assert not g.is_over and g.position.mother_pinned(0)


def test_both_mothers_pinned_is_a_draw():
    # white's mother is already pinned (black's 1); white pins black's mother with 3/1^
    pos = P({24: 1, 3: 1, 6: 13}, {24: 1, 1: 1, 10: 13}, pinned=[(0, 24)])
    assert base_result(pos, R) is None
    assert moves(pos, "21") == ["6/3", "6/4 3/2", "6/4 6/5", "6/5 3/1^"]
    after = pos.play("6/5 3/1^", "21")
    assert after.mother_pinned(0) and after.mother_pinned(1)
    assert base_result(after, R) == (None, 0, "draw")
    g = Game(R, position=pos, dice=ScriptedDice([2, 1]))
    g.roll()
    g.play("3/1^ 6/5")
    assert g.outcome == Outcome(None, 0, "draw") and g.is_over


def test_pin_made_and_released_in_one_turn_counts_for_nothing():
    # black pins the mother with 4/1^ and bears the same checker off with the 1
    pos = P({24: 1, 6: 14}, {4: 1, 2: 1, 3: 13}, turn=1)
    released = pos.play("4/1^/off", "31")
    assert not released.mother_pinned(0) and released.pinned(0) == ()
    assert base_result(released, R) is None
    assert released == pos.play("4/3/off", "31")
    assert base_result(pos.play("4/1^ 3/2", "31"), R) == (1, 2, "mother")
    assert finals(pos, "31", ["3/off 2/1^", "3/off 3/2", "4/1^ 2/1", "4/1^ 3/2", "4/off"])
    wins = [base_result(m.after, R) for m in pos.legal_moves("31")]
    assert sorted(wins, key=str) == [(1, 2, "mother")] * 3 + [None] * 2


def test_mother_flags_in_json():
    after = ON_PIN.play("10/9 4/1^", "31")
    doc = after.to_json()
    assert doc["white"]["mother_pinned"] is True and doc["black"]["mother_pinned"] is False
    assert doc["white"]["pinned"] == [24]
    assert Position.from_json(doc) == after


# --- bearing off and scoring ---------------------------------------------------------------

def test_no_bearing_off_while_pinned():
    # white's checker on 4 is pinned by black's (his 21); black's 14 hold white's 1-point
    pos = P({6: 2, 5: 2, 4: 1}, {21: 1, 24: 14}, pinned=[(0, 4)])
    assert moves(pos, "65") == []
    assert moves(pos, "61") == ["6/5"]
    assert moves(pos, "21") == ["5/2", "6/3"]
    with pytest.raises(IllegalMove, match="pinned"):
        pos.play("6/off 6/5", "61")
    free = P({6: 2, 5: 2, 4: 1}, {12: 15})
    assert moves(free, "65") == ["6/off 5/off", "6/off 6/1"]


def test_plakoto_scoring():
    assert base_result(P({}, {6: 14}), R) == (0, 1, "single")
    assert base_result(P({}, {6: 15}), R) == (0, 2, "gammon")
    assert base_result(P({20: 1, 6: 14}, {}), R) == (1, 2, "gammon")
    g = Game(R, position=P({1: 1}, {6: 15}), dice=ScriptedDice([4, 2]))
    g.roll()
    g.play("1/off")
    assert g.outcome == Outcome(0, 2, "gammon")


def test_plakoto_has_no_bar():
    from tavli import InvalidPosition

    with pytest.raises(InvalidPosition):
        P({25: 1, 24: 14}, {24: 15})
