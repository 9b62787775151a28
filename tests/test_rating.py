"""The FIBS rating formula (tavli/online/rating.py) against tables published from it."""

from __future__ import annotations

import pytest

from tavli.online.rating import Rated, change, factor, upset, win_chance

# GoldToken's wiki, "Ratings in Practice" (backgammon: the FIBS formula, players with 400
# points of experience or more): the rating change for a win and for a loss against an
# opponent rated so much above (+) or below (-), in 1-, 3-, 5-, 7- and 9-point matches;
# to a tenth, except four whole numbers as the table writes them (to the unit).
LENGTHS = (1, 3, 5, 7, 9)
GOLDTOKEN = {
    +1000: ((3.0, -1.0), (6.1, -0.8), (8.3, -0.6), (10.1, -0.5), (11.6, -0.4)),
    +500: ((2.6, -1.4), (5.1, -1.9), (7, -2), (8.7, -1.9), (10.2, -1.8)),
    +250: ((2.3, -1.7), (4.3, -2.6), (5.9, -3.1), (7.2, -3.4), (8.4, -3.6)),
    0: ((2.0, -2.0), (3.5, -3.5), (4.5, -4.5), (5.3, -5.3), (6.0, -6.0)),
    -250: ((1.7, -2.3), (2.6, -4.3), (3.1, -5.9), (3.4, -7.2), (3.6, -8.4)),
    -500: ((1.4, -2.6), (1.9, -5.1), (2, -7), (1.9, -8.7), (1.8, -10.2)),
}

# rec.games.backgammon (bkgm.com/rgb, "batting average for favorite to maintain his
# rating"): the favourite's chance to win, 1 - P_upset, by rating difference and length
BATTING_LENGTHS = (1, 3, 5, 7, 9, 11)
BATTING = {
    100: (.529, .550, .564, .576, .585, .594),
    200: (.557, .598, .626, .648, .666, .682),
    300: (.585, .645, .684, .714, .738, .759),
    400: (.613, .689, .737, .772, .799, .822),
    500: (.640, .730, .784, .821, .849, .871),
    600: (.666, .768, .824, .861, .888, .908),
    700: (.691, .802, .858, .894, .918, .935),
}


@pytest.mark.parametrize("above", sorted(GOLDTOKEN))
def test_rating_changes_match_the_published_table(above):
    me = Rated(1500.0, 400)
    opponent = Rated(1500.0 + above, 400)
    for n, (win, loss) in zip(LENGTHS, GOLDTOKEN[above], strict=True):
        won, _ = change(me, opponent, n, winner=0)
        lost, _ = change(me, opponent, n, winner=1)
        tol = 0.51 if isinstance(win, int) else 0.051
        assert won.rating - me.rating == pytest.approx(win, abs=tol), (above, n)
        assert lost.rating - me.rating == pytest.approx(loss, abs=tol), (above, n)


@pytest.mark.parametrize("diff", sorted(BATTING))
def test_the_favourites_chance_matches_the_published_table(diff):
    for n, chance in zip(BATTING_LENGTHS, BATTING[diff], strict=True):
        assert 1 - upset(1500 + diff, 1500, n) == pytest.approx(chance, abs=0.0006)
        assert win_chance(1500 + diff, 1500, n) == pytest.approx(chance, abs=0.0006)
        assert win_chance(1500, 1500 + diff, n) == pytest.approx(1 - chance, abs=0.0006)


def test_a_25_point_match_between_players_50_apart():
    # a Mathematica notebook on the FIBS ratings: fp[50, 25] = 0.5714631174083814...
    assert win_chance(1550, 1500, 25) == pytest.approx(0.5714631174083814, rel=1e-12)


def test_experience_speeds_a_newcomer_up_and_is_each_players_own():
    assert [factor(e) for e in (0, 100, 250, 400, 5000)] == [5.0, 4.0, 2.5, 1.0, 1.0]
    new, old = change(Rated(1500, 0), Rated(1500, 1000), 1, winner=0)
    assert new == Rated(1510.0, 1) and old == Rated(1498.0, 1001)
    # the formula is zero-sum between two experienced players
    a, b = change(Rated(1712.5, 900), Rated(1488.0, 450), 7, winner=1)
    assert a.rating + b.rating == pytest.approx(1712.5 + 1488.0)
    assert b.rating > 1488.0 and a.experience == 907 and b.experience == 457


def test_a_result_that_cannot_be_is_refused():
    with pytest.raises(ValueError, match="at least one point"):
        change(Rated(), Rated(), 0, winner=0)
    with pytest.raises(ValueError, match="0 or 1"):
        change(Rated(), Rated(), 3, winner=2)
