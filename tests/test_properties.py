"""Property tests (hypothesis) over random play and random positions in all four games:
checker counts, legal moves that replay step by step, no duplicate final positions,
agreement with a brute-force reading of RULES.md (and with gnubg for backgammon),
round trips of position IDs, JSON documents and game records, and games that end.
"""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavli import Position, Rules
from tavli.engine.games import find_variant
from tavli.engine.movegen import apply_step, step_code
from tavli.play.game import Game
from tavli.play.record import game_record, load_record

GAMES = ("portes", "plakoto", "fevga", "backgammon")
PORTES, PLAKOTO, FEVGA, BACKGAMMON = (find_variant(g).code for g in GAMES)


def opponent_point(game, p):
    return find_variant(game).opponent_point(p)
DIE = st.integers(1, 6)
DICE = st.tuples(DIE, DIE)


# --- a brute-force reading of RULES.md, independent of tavli.engine.movegen --------------------

def _step(a, me, s, d, game):
    """The board after ``me`` moves a checker from ``s`` by ``d``, or None if illegal.
    ``a`` is a list of four lists of 26 ints (the layout of tavli.engine.layout)."""
    op = 1 - me
    mine = a[me]
    if mine[s] == 0 or (s != 25 and mine[25] > 0):
        return None
    if game == PLAKOTO and a[2 + me][s]:
        return None                                   # pinned
    if (game == FEVGA and s == 24 and mine[24] == 14
            and any(mine[p] for p in range(12, 24))):
        return None                                   # the first checker has not passed
    t = s - d
    if t >= 1:
        q = opponent_point(game, t)
        c = a[op][q]
        if game == FEVGA and c >= 1:
            return None
        if c >= 2:
            return None
        if game == PLAKOTO and c == 1 and not a[2 + op][q] and mine[t] > 0:
            return None                               # a lone pinner of my checker
    else:
        if any(mine[p] for p in range(7, 26)):
            return None
        if game == PLAKOTO and any(a[2 + me][1:25]):
            return None
        if t < 0 and any(mine[p] for p in range(s + 1, 7)):
            return None
    b = [list(r) for r in a]
    b[me][s] -= 1
    if game == PLAKOTO and b[me][s] == 0:
        b[2 + op][25 - s] = 0                         # the last pinner leaves: release
    if t <= 0:
        b[me][0] += 1
        return b
    q = opponent_point(game, t)
    if game in (PORTES, BACKGAMMON) and b[op][q] == 1:
        b[op][q] = 0
        b[op][25] += 1
    if game == PLAKOTO and b[op][q] == 1 and not b[2 + op][q] and b[me][t] == 0:
        b[2 + op][q] = 1
    b[me][t] += 1
    return b


def _traps(a, me):
    """Fevga: ``me`` holds the six points right in front of all the opponent's checkers."""
    op = 1 - me
    where = [q for q in range(1, 25) if a[op][q]]
    if len(where) != 1 or where[0] < 7:
        return False
    r = where[0]
    return all(a[me][opponent_point(FEVGA, q)] for q in range(r - 6, r))


def reference_moves(pos, dice, rules):
    """The set of final boards (tuples) RULES.md allows, following its suggested order."""
    game, me = pos.game, pos.turn
    d1, d2 = dice
    a0 = pos.array.astype(int).tolist()
    key = lambda b: tuple(tuple(r) for r in b)  # noqa: E731
    levels = [{(key(a0), ()): a0}]
    for _ in range(4 if d1 == d2 else 2):
        nxt = {}
        for (_, used), b in levels[-1].items():
            avail = {d1} if d1 == d2 else {d1, d2} - set(used)
            for d in avail:
                for s in range(1, 26):
                    nb = _step(b, me, s, d, game)
                    if nb is not None:
                        nxt[(key(nb), tuple(sorted(used + (d,))))] = nb
        if not nxt:
            break
        levels.append(nxt)

    def end_ok(b):
        if game != FEVGA:
            return True
        mode = rules.starting_quarter_rule
        if mode != "off":
            lo = 19 if mode == "own" else 7
            if all(b[me][p] for p in range(lo, lo + 6)):
                return False
        return not (rules.prime_rule == "forbid" and _traps(b, me))

    for level in reversed(levels[1:]):
        best = [(k, used, b) for (k, used), b in level.items() if end_ok(b)]
        if best:
            break
    else:
        return set()
    if d1 != d2 and len(best[0][1]) == 1 and rules.must_play_higher:
        higher = [c for c in best if c[1] == (max(dice),)]
        best = higher or best
    if game == FEVGA and rules.prime_rule == "must_open" and _traps(a0, me):
        freeing = [c for c in best if not _traps(c[2], me)]
        best = freeing or best
    return {c[0] for c in best}


def board_key(pos):
    return tuple(tuple(r) for r in pos.array.astype(int).tolist())


def replays_step_by_step(move):
    """Some assignment of the dice plays ``move.steps`` with movegen's single steps."""
    before = move.before
    d1, d2 = move.dice
    pool = [d1] * 4 if d1 == d2 else [d1, d2]
    for order in set(itertools.permutations(pool, len(move.steps))):
        arr = np.array(before.array)
        for (s, t, flag), d in zip(move.steps, order, strict=True):
            if (t > 0 and s - d != t) or (t == 0 and d < s):
                break
            if step_code(arr, before.turn, s, d, before.variant.kernel) != 0:
                break
            if bool(apply_step(arr, before.turn, s, d, before.variant.kernel)) != flag:
                break
        else:
            if np.array_equal(arr, move.after.array):
                return True
    return False


# --- checks on one position and roll ---------------------------------------------------

def check_counts(pos):
    a = pos.array.astype(int)
    for side in (0, 1):
        assert a[side].sum() == 15
        assert (a[side] >= 0).all()
    assert set(np.unique(a[2:])) <= {0, 1}
    if pos.game != PLAKOTO:
        assert not a[2:].any()
    if pos.game in (PLAKOTO, FEVGA):
        assert a[0, 25] == 0 and a[1, 25] == 0
    pos.validate()


def check_ids(pos):
    assert Position.from_id(pos.id()) == pos
    doc = pos.to_json()
    assert Position.from_json(json.loads(json.dumps(doc))) == pos
    assert Position.from_id(json.dumps(doc)) == pos
    if pos.game in (PORTES, BACKGAMMON):
        gid = pos.gnubg_id()
        assert len(gid) == 14
        assert Position.from_gnubg_id(gid, pos.game, pos.turn) == pos


def check_roll(pos, dice, rules, *, sample_text=4):
    legal = pos.legal_moves(dice, rules)
    afters = [m.after for m in legal]
    assert len(set(afters)) == len(afters), "duplicate final positions"
    assert [m.after for m in pos.legal_moves(dice, rules)] == afters  # fixed order
    assert {board_key(a) for a in afters} == reference_moves(pos, dice, rules)
    for k, m in enumerate(legal):
        assert m.before == pos and m.after.turn == 1 - pos.turn
        check_counts(m.after)
        assert replays_step_by_step(m), (pos.id(), dice, str(m))
        if k < sample_text or k == len(legal) - 1:
            assert pos.find_move(str(m), dice, rules) == m
            assert pos.find_move(m, dice, rules) == m
    return legal


def random_rules(game, rnd):
    opts = {"must_play_higher": rnd.random() < 0.5}
    if game == "fevga":
        opts["starting_quarter_rule"] = rnd.choice(["own", "opponent", "off"])
        opts["prime_rule"] = rnd.choice(["must_open", "forbid", "off"])
    return Rules.for_game(game, opts)


# --- random play -------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), rolls=st.lists(DICE, min_size=1, max_size=60),
       rnd=st.randoms(use_true_random=False))
def test_random_play_invariants(game, rolls, rnd):
    rules = Rules.for_game(game)
    pos = Position.start(game, rnd.randint(0, 1))
    for dice in rolls:
        check_counts(pos)
        check_ids(pos)
        legal = check_roll(pos, dice, rules)
        alt = random_rules(game, rnd)
        assert {board_key(m.after) for m in pos.legal_moves(dice, alt)} == \
            reference_moves(pos, dice, alt)
        pos = rnd.choice(legal).after if legal else pos.swap_turn()
        if pos.is_finished():
            check_counts(pos)
            check_ids(pos)
            break


# --- random positions ------------------------------------------------------------------

@st.composite
def positions(draw, game):
    g = Position.start(game).game
    top = 25 if g in (PORTES, BACKGAMMON) else 24
    point = st.one_of(st.integers(1, 6), st.integers(1, top), st.integers(19, top))
    white = draw(st.lists(point, max_size=15))
    black = draw(st.lists(point, max_size=15))
    arr = np.zeros((4, 26), dtype=np.int64)
    for p in white:
        arr[0, p] += 1
    for q in black:
        arr[1, q] += 1
    arr[0, 0] = 15 - len(white)
    arr[1, 0] = 15 - len(black)
    for p in range(1, 25):
        q = opponent_point(g, p)
        w, b = arr[0, p], arr[1, q]
        if not (w and b):
            continue
        if g == PLAKOTO and w == 1 and (b > 1 or draw(st.booleans())):
            arr[2, p] = 1
        elif g == PLAKOTO and b == 1:
            arr[3, q] = 1
        else:   # both sides cannot share the point: send black's checkers off
            arr[1, 0] += b
            arr[1, q] = 0
    _first_checker_passed(arr, g)
    return Position(g, arr.astype(np.int8), draw(st.integers(0, 1)))


def _first_checker_passed(arr, game):
    """Fevga: no play leaves two checkers off the 24-point before the first has passed
    the opponent's start (11 or lower, or off); where the draw did, one goes off."""
    if game != FEVGA:
        return
    for side in (0, 1):
        a = arr[side]
        if a[24] <= 13 and not (a[0] or a[1:12].any()):
            low = min(p for p in range(12, 25) if a[p])
            a[low] -= 1
            a[0] += 1


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(GAMES), dice=DICE,
       rnd=st.randoms(use_true_random=False))
def test_random_positions_match_the_reference(data, game, dice, rnd):
    pos = data.draw(positions(game))
    check_counts(pos)
    check_ids(pos)
    check_roll(pos, dice, random_rules(game, rnd), sample_text=2)


@st.composite
def fevga_positions(draw):
    """Fevga positions near its special rules: a locked first checker, a crowded starting
    quarter, or a six-prime with the opponent's checkers right behind it."""
    arr = np.zeros((4, 26), dtype=np.int64)
    kind = draw(st.sampled_from(["first", "quarter", "prime"]))
    if kind == "first":
        arr[0, 24] = 14
        arr[0, draw(st.integers(1, 23))] = 1
        for q in draw(st.lists(st.integers(1, 24), max_size=15)):
            arr[1, q] += 1
    elif kind == "quarter":
        for p in draw(st.lists(st.integers(5, 24), min_size=5, max_size=15)):
            arr[0, p] += 1
        for q in draw(st.lists(st.integers(1, 24), max_size=15)):
            arr[1, q] += 1
    else:
        low = draw(st.integers(1, 17))
        for p in range(low, low + 6):
            arr[0, p] = 1
        for p in draw(st.lists(st.integers(1, 24), max_size=9)):
            arr[0, p] += 1
        behind = opponent_point(FEVGA, low + 6)       # black's point right behind it
        arr[1, behind] = draw(st.integers(1, 15))
    for side in (0, 1):
        arr[side, 0] = 15 - arr[side, 1:].sum()
    for p in range(1, 25):                            # clear shared points (black leaves)
        q = opponent_point(FEVGA, p)
        if arr[0, p] and arr[1, q]:
            arr[1, 0] += arr[1, q]
            arr[1, q] = 0
    _first_checker_passed(arr, FEVGA)
    return Position(FEVGA, arr.astype(np.int8), 0)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=fevga_positions(), dice=DICE, rnd=st.randoms(use_true_random=False))
def test_fevga_special_rules_match_the_reference(pos, dice, rnd):
    check_roll(pos, dice, random_rules("fevga", rnd), sample_text=2)


def test_gnubg_agrees_on_backgammon_moves():
    """gnubg-nn's move generator as an oracle for backgammon (and Portes with the
    higher-die rule), over seeded random play."""
    import gnubg_nn

    rnd = random.Random(2024)
    checked = 0
    for game in ("backgammon", "portes"):
        rules = Rules.for_game(game, {"must_play_higher": True})
        for _ in range(12):
            pos = Position.start(game, rnd.randint(0, 1))
            while not pos.is_finished():
                dice = (rnd.randint(1, 6), rnd.randint(1, 6))
                a = pos.array.astype(int)
                board = [a[1 - pos.turn][1:26].tolist(), a[pos.turn][1:26].tolist()]
                assert gnubg_nn.position_id(board) == pos.gnubg_id()
                ours = []
                for m in pos.legal_moves(dice, rules):
                    b = m.after.array.astype(int)
                    ours.append(gnubg_nn.key_of_board(
                        [b[1 - pos.turn][1:26].tolist(), b[pos.turn][1:26].tolist()]))
                assert sorted(ours) == sorted(gnubg_nn.moves(board, *dice)), \
                    (pos.id(), dice)
                checked += 1
                legal = pos.legal_moves(dice, rules)
                pos = rnd.choice(legal).after if legal else pos.swap_turn()
    assert checked > 1000


# --- whole games -----------------------------------------------------------------------

MAX_TURNS = 3000


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1),
       rnd=st.randoms(use_true_random=False))
def test_random_games_end_and_records_round_trip(game, seed, rnd):
    g = Game(game, seed=seed)
    for _ in range(MAX_TURNS):
        if g.is_over:
            break
        g.roll()
        legal = g.legal_moves()
        before = g.position
        g.play(rnd.choice(legal) if legal else None)
        me = before.turn
        if legal:   # pips only go down for the mover
            assert g.position.pip_count(me) < before.pip_count(me)
    assert g.is_over, "a random game did not end"
    out = g.outcome
    assert out.kind in {"single", "gammon", "backgammon", "mother", "draw"}
    expected_points = {"single": 1, "gammon": 2, "backgammon": 3, "mother": 2, "draw": 0}
    assert out.points == expected_points[out.kind]
    if out.kind in ("single", "gammon", "backgammon"):
        assert g.position.off(out.winner) == 15
    if out.kind == "mother":
        assert game == "plakoto" and g.position.mother_pinned(1 - out.winner)
    back = load_record(json.dumps(game_record(g)))
    assert back.position == g.position and back.outcome == g.outcome
    assert back.history == g.history and back.events == g.events
    assert game_record(back) == game_record(g)
