"""Fevga (RULES.md, "Fevga" and "Geometry"): the opening 6-6, the first-checker rule, the
single blocking checker, the starting-quarter rule and the six-prime rule with each of
their option values, scoring and the same-direction geometry.

Both sides move the same way: black's point ``q`` is white's ``((q + 11) % 24) + 1``, so
black's 24 (his start) is white's 12, black's 19 is white's 7, black's 8 is white's 20.
"""

from __future__ import annotations

import pytest

from tavli import IllegalMove, InvalidPosition, Position, Rules
from tavli.engine.dice import ScriptedDice
from tavli.engine.games import find_variant
from tavli.play.game import Game, Outcome, base_result

R = Rules.for_game("fevga")


def P(white, black, turn=0):
    return Position.from_points("fevga", white, black, turn)


def unreachable(white, black, turn=0):
    """A set-up no play reaches (black's 15 checkers all past his start without one having
    passed white's): refused as a position, but the generator's rules still apply to it,
    which the prime tests use to put every black checker right behind a prime."""
    arr = P(white, {11: 15}, turn).array.copy()
    arr[1] = 0
    for q, n in black.items():
        arr[1, q] = n
    arr[1, 0] = 15 - arr[1].sum()
    return Position("fevga", arr, turn, validate=False)


def moves(pos, dice, **options):
    rules = Rules.for_game("fevga", options) if options else None
    return sorted(str(m) for m in pos.legal_moves(dice, rules))


def test_defaults():
    assert (R.must_play_higher, R.starting_quarter_rule, R.prime_rule) == (
        True, "own", "must_open")


# --- the opening and the first checker -------------------------------------------------

@pytest.mark.parametrize("turn", [0, 1])
def test_opening_six_six_plays_one_checker_and_loses_the_rest(turn):
    start = Position.start("fevga", turn)
    legal = start.legal_moves("66")
    assert [str(m) for m in legal] == ["24/18"]
    assert len(legal[0].steps) == 1
    with pytest.raises(IllegalMove, match="blocked"):
        start.play("24/18/12", "66")
    with pytest.raises(IllegalMove, match="first checker"):
        start.play("24/18(2)", "66")


@pytest.mark.parametrize("dice,expected", [
    ("11", ["24/20"]), ("22", ["24/16"]), ("33", ["24/15"]), ("44", ["24/16"]),
    ("55", ["24/4", "24/9 24/19"]), ("65", ["24/13"]), ("31", ["24/20"]),
])
def test_first_checker_from_the_start(dice, expected):
    assert moves(Position.start("fevga"), dice) == expected


def test_every_opening_moves_a_single_checker_until_it_passes():
    start = Position.start("fevga")
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for m in start.legal_moves((d1, d2)):
                left = 15 - m.after.points(0)[24]
                if left > 1:     # a second checker left only after the first passed 12
                    assert min(p for p in range(1, 24) if m.after.points(0)[p]) <= 11


def test_first_checker_must_pass_the_opponents_start():
    # the first checker on 14: 14/11 passes black's start, then 24/23 may follow
    assert moves(P({24: 14, 14: 1}, {24: 15}), "31") == ["14/10", "24/23 14/11"]
    assert moves(P({24: 14, 13: 1}, {24: 15}), "21") == ["13/10", "24/23 13/11"]
    with pytest.raises(IllegalMove, match="first checker"):
        P({24: 14, 14: 1}, {24: 15}).play("24/21 14/13", "31")
    # once it stands on 11 the others are free
    assert moves(P({24: 14, 11: 1}, {24: 15}), "31") == [
        "11/7", "24/20", "24/21 11/10", "24/21 24/23", "24/23 11/8"]


def test_first_checker_state():
    start = Position.start("fevga")
    assert not start.first_checker_locked(0) and not start.first_checker_passed(0)
    locked = start.play("24/18", "66")
    assert locked.first_checker_locked(0) and not locked.first_checker_passed(0)
    assert locked.to_json()["white"]["first_checker"] == "locked"
    assert locked.to_json()["black"]["first_checker"] == "unmoved"
    passed = P({24: 14, 11: 1}, {24: 15})
    assert passed.first_checker_passed(0) and not passed.first_checker_locked(0)
    assert passed.to_json()["white"]["first_checker"] == "passed"


def test_single_opposing_checker_blocks():
    # black's lone checker on his 8 = white's 20
    pos = P({24: 15}, {8: 1, 24: 14})
    assert moves(pos, "42") == ["24/18"]
    with pytest.raises(IllegalMove, match="blocked"):
        pos.play("24/20/18", "42")


# --- starting quarter -----------------------------------------------------------------

# white holds 20-24; 24/19 would complete 19-24
OWN_Q = P({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 9: 1}, {24: 15})
# white holds 7-11; 13/12 would complete 7-12 (black's start quarter); black's 8 = white's 20
OPP_Q = P({11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 13: 1, 16: 1, 1: 8}, {8: 15})


def test_starting_quarter_own():
    off = set(moves(OWN_Q, "51", starting_quarter_rule="off"))
    own = set(moves(OWN_Q, "51", starting_quarter_rule="own"))
    assert off - own == {"24/19 24/23", "24/19 9/8"}
    assert own <= off and len(off) == 33
    assert {"24/19 20/19", "24/19 23/22", "24/18"} <= own   # 19-24 not all held at the end
    assert set(moves(OWN_Q, "51")) == own                    # the default
    assert set(moves(OWN_Q, "51", starting_quarter_rule="opponent")) == off
    with pytest.raises(IllegalMove, match="starting quarter"):
        OWN_Q.play("24/19 9/8", "51")


def test_starting_quarter_opponent():
    off = set(moves(OPP_Q, "21", starting_quarter_rule="off"))
    opp = set(moves(OPP_Q, "21", starting_quarter_rule="opponent"))
    assert off - opp == {"16/14 13/12"}
    assert opp <= off
    assert set(moves(OPP_Q, "21", starting_quarter_rule="own")) == off
    assert set(moves(OPP_Q, "21")) == off


# --- the six-prime ---------------------------------------------------------------------

# white holds 1-6; all black's checkers (his 19 = white's 7) stand right behind it
TRAP = unreachable({1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 20: 9}, {19: 15})
FREEING_61 = ["20/14 2/1", "20/14 3/2", "20/14 4/3", "20/14 5/4", "20/14 6/5"]
ALL_66 = ["20/14(4)", "20/2 20/14", "20/8 20/14(2)", "20/8(2)"]


def test_trapped_side_cannot_move():
    assert TRAP.swap_turn().legal_moves("61") == []


def test_prime_must_open_when_possible():
    assert moves(TRAP, "61", prime_rule="must_open") == FREEING_61
    assert moves(TRAP, "61") == FREEING_61
    for text in FREEING_61:   # black can move again afterwards
        after = TRAP.play(text, "61")
        assert any(after.legal_moves((d1, d2)) for d1 in range(1, 7) for d2 in range(1, 7))
    with pytest.raises(IllegalMove):
        TRAP.play("20/14 20/19", "61")


def test_prime_obligation_lapses_when_no_turn_frees():
    # with 6-6 no prime checker can move (no bearing off with 9 checkers outside)
    assert moves(TRAP, "66", prime_rule="must_open") == ALL_66


def test_prime_forbid():
    assert moves(TRAP, "61", prime_rule="forbid") == FREEING_61
    assert moves(TRAP, "66", prime_rule="forbid") == []
    # completing such a prime is forbidden too: 8/6 with 20/19
    pos = unreachable({1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 8: 1, 20: 9}, {19: 15})
    free = set(moves(pos, "21", prime_rule="off"))
    assert free - set(moves(pos, "21", prime_rule="forbid")) == {"20/19 8/6"}
    assert set(moves(pos, "21", prime_rule="must_open")) == free


def test_prime_off():
    assert moves(TRAP, "61", prime_rule="off") == sorted(
        FREEING_61 + ["20/13", "20/14 20/19"])
    assert moves(TRAP, "66", prime_rule="off") == ALL_66


def test_no_obligation_when_the_opponent_can_move():
    # one black checker elsewhere (his 1 = white's 13): the prime traps nobody
    pos = P({1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 20: 9}, {19: 14, 1: 1})
    assert moves(pos, "61") == moves(pos, "61", prime_rule="off")


# --- scoring and geometry --------------------------------------------------------------

def test_fevga_scoring():
    assert base_result(P({}, {24: 14}), R) == (0, 1, "single")
    assert base_result(P({}, {24: 15}), R) == (0, 2, "gammon")
    assert base_result(P({24: 15}, {}), R) == (1, 2, "gammon")
    g = Game(R, position=P({2: 1}, {11: 15}), dice=ScriptedDice([6, 3]))
    g.roll()
    g.play("2/off")
    assert g.outcome == Outcome(0, 2, "gammon")


def test_geometry_mapping():
    opp = find_variant("fevga").opponent_point
    assert opp(24) == 12 and opp(12) == 24
    assert [opp(p) for p in range(1, 7)] == [13, 14, 15, 16, 17, 18]
    assert all(opp(opp(p)) == p for p in range(1, 25))


def test_opponents_start_is_my_twelve_point():
    # black's 15 on his 24 block white's 12: with 1-1 the first checker on 13 is stuck and
    # the others may not leave 24 yet, so white passes
    pos = P({13: 1, 24: 14}, {24: 15})
    assert pos.legal_moves("11") == []
    assert moves(pos, "21") == ["13/10", "24/23 13/11"]
    with pytest.raises(IllegalMove, match="blocked"):
        pos.play("13/12/10", "21")
    # and black cannot land on white's start (his 12) while white is there
    blk = P({24: 15}, {13: 1, 24: 14}, turn=1)
    assert blk.legal_moves("11") == []
    with pytest.raises(IllegalMove, match="blocked"):
        blk.play("13/12/10", "21")


def test_same_direction_board_picture():
    from tavli import InvalidPosition

    # white's 13 is black's 1: one point, so both sides cannot stand there
    with pytest.raises(InvalidPosition):
        P({13: 1, 24: 14}, {1: 1, 24: 14})
    # white's 13 and black's 13 (= white's 1) are different points
    pos = P({13: 1, 24: 14}, {13: 1, 24: 14})
    assert pos.points(0)[13] == 1 and pos.points(1)[13] == 1


# --- positions no play reaches -------------------------------------------------------

@pytest.mark.parametrize(("white", "black"), [
    ({24: 13, 20: 1, 15: 1}, {24: 15}),       # two have left 24, none past black's start
    ({24: 15}, {19: 15}),                     # all of black's behind white's start
    ({24: 1, 12: 14}, {24: 15}),
])
def test_positions_the_first_checker_rule_cannot_reach_are_refused(white, black):
    with pytest.raises(InvalidPosition, match="first-checker rule"):
        P(white, black)
    with pytest.raises(InvalidPosition, match="first-checker rule"):
        P(black, white)


@pytest.mark.parametrize(("white", "black"), [
    ({24: 13, 20: 1, 11: 1}, {24: 15}),       # the first one has passed: others may leave
    ({24: 13, 20: 1}, {24: 15}),              # one off: it passed long ago
    ({24: 14, 15: 1}, {24: 15}),              # only the first one has left
    ({6: 15}, {11: 15}),
])
def test_reachable_first_checker_positions_are_accepted(white, black):
    assert P(white, black).first_checker_passed(0) == (white.get(24, 0) < 14
                                                        or sum(white.values()) < 15)
