"""tavli.rl.dama: Dama's research state against the engine's positions and DamaGame."""

import random

import numpy as np
import pytest

import tavli.rl.dama as dama
from tavli.engine.dama.board import Position
from tavli.errors import IllegalMove, RuleError, WrongState
from tavli.play.dama.game import DamaGame
from tavli.rl.base import TERMINAL
from tavli.rl.dama import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    SAME_ROUTE,
    DamaState,
    RouteOverflow,
    decode,
)
from tavli.rl.games import GAMES, make_state

RULE_SETS = ("box", "russian", "italian")


def mask(squares) -> int:
    return sum(1 << (s - 1) for s in squares)


def reference_codes(moves) -> dict[tuple, int]:
    """The documented codes, computed apart from the kernel: per route (start, end), the
    rank in the order (no huff first, huffed square, captured mask, promotion)."""
    routes: dict[tuple[int, int], list] = {}
    for m in moves:
        routes.setdefault((m.start, m.end), []).append(m)
    codes = {}
    for (start, end), group in routes.items():
        group.sort(key=lambda m: (m.huff or 0, mask(m.captures), m.promotes))
        for k, m in enumerate(group):
            codes[m.key()] = ((start - 1) * 32 + end - 1) * SAME_ROUTE + k
    return codes


def random_states(rules, games, seed, start=None):
    """Every state of ``games`` random games (the state before each step)."""
    rng = random.Random(seed)
    for _ in range(games):
        s = DamaState(rules, start=start)
        while not s.is_terminal():
            yield s
            s.step(rng.choice(s.legal_actions().tolist()))
        yield s


@pytest.mark.parametrize("rules", RULE_SETS)
def test_codes_are_the_documented_ones_for_the_engines_moves(rules):
    """Over random games the legal codes decode to exactly the engine's legal moves, each
    move's code is the documented one whatever order the moves come in, codes are
    distinct, increasing int64 and every move's text names it."""
    rng = random.Random(5)
    for s in random_states(rules, 6, seed=1):
        codes = s.legal_actions()
        assert codes.dtype == np.int64 and np.all(np.diff(codes) > 0)
        if s.is_terminal():
            assert len(codes) == 0
            continue
        engine = s.position().legal_moves()
        rng.shuffle(engine)
        expected = reference_codes(engine)
        assert {m.key(): c for c, m in s.legal_moves().items()} == expected
        assert sorted(expected.values()) == codes.tolist()
        texts = [s.action_to_string(int(c)) for c in codes]
        assert len(set(texts)) == len(texts)
        code = int(codes[rng.randrange(len(codes))])
        assert s.action_for(s.action_to_string(code)) == code


@pytest.mark.parametrize("rules", RULE_SETS)
def test_routes_never_overflow_in_random_play(rules):
    most = 0
    for s in random_states(rules, 150, seed=2):
        if not s.is_terminal():
            most = max(most, max(decode(int(c))[2] for c in s.legal_actions()))
    assert most < SAME_ROUTE // 2   # box: k = 4 at most in these games, the others 0 or 1
    if rules == "box":
        assert most >= 2   # huff choices do share routes


def test_a_crowded_route_is_refused_clearly():
    """A man with two capture routes to one square, and twelve pieces to huff (a huff
    right the game cannot give, but Position holds): 2 x 9 moves on one route."""
    p = Position.from_fen("W:Wc1:Bb2,b4,d2,d4,a7,c7,e7,g7,b8,d8,f8,h8", "box")
    crowded = Position(p.wm, p.wk, p.bm, p.bk, 0, p.rules, huff=p.bm)
    with pytest.raises(RouteOverflow, match="more than 16 legal moves share a start and end"):
        DamaState("box", start=crowded)


def play_both(rules, seed, start=None, cautious=False):
    """A random game stepped in DamaState and DamaGame side by side; returns both.
    ``cautious``: moves that neither capture nor give a capture first (long games)."""
    rng = random.Random(seed)
    s, g = DamaState(rules, start=start), DamaGame(rules, start=start)
    while True:
        assert s.position() == g.position
        assert s.is_terminal() == g.is_over()
        if g.is_over():
            return s, g
        legal = s.legal_moves()
        assert {m.key() for m in legal.values()} == {
            m.key() for m in g.position.legal_moves()}
        assert s.player == g.turn
        codes = sorted(legal)
        if cautious:
            codes = [c for c in codes if not legal[c].captures and not gives_capture(s, c)
                     ] or codes
        code = rng.choice(codes)
        s.step(code)
        g.play(legal[code])


def gives_capture(s, code):
    after = s.clone()
    after.step(code)
    return any(m.captures for m in after.legal_moves().values())


def assert_same_result(s, g):
    w = g.winner()
    assert s.winner == (-1 if w is None else w)
    assert s.returns() == {None: (0, 0), 0: (1, -1), 1: (-1, 1)}[w]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_random_games_go_as_in_dama_game(rules):
    """Step by step the same position, the same legal moves, the same end and result as
    tavli's own DamaGame (huffs included: the box rules' huff is a ply of the game)."""
    for seed in range(4):
        s, g = play_both(rules, seed)
        assert_same_result(s, g)
        assert s.player == TERMINAL and s.plies == len(g.moves)


@pytest.mark.parametrize("rules,start", [
    ("russian", "W:WKc1,Ka1:BKf8,Kh8"),
    ("box", "W:WKa1,Kc1,g1:BKf8,Kh8,b8"),
    ("italian", "W:WK29,K30:BK3,K4"),
])
def test_the_quiet_ply_limit_as_in_dama_game(rules, start):
    """Kings (and a few men) that neither capture nor give a capture: the quiet-ply limit
    (and repetitions) end these games as DamaGame ends them."""
    reasons = set()
    for seed in range(4):
        s, g = play_both(rules, seed, start, cautious=True)
        reasons.add(g.end_reason())
        assert_same_result(s, g)
    assert f"{g.rules.draw_plies // 2} moves each without a capture or a man's move" in reasons


@pytest.mark.parametrize("rules,start,moves", [
    ("russian", "W:WKc1:BKf8", ["c1-d2", "f8-e7", "d2-c1", "e7-f8"] * 2),
    # the position after Black's huff (Black to move) comes back twice: DamaGame counts
    # it, as a ply of its own
    ("box", "W:WKa1,c3,Kg1:Bd4,Kh8",
     ["g1-h2", "*22 h8-g7", "h2-g1", "g7-h8", "g1-h2", "h8-g7", "h2-g1", "g7-h8", "g1-h2"]),
])
def test_threefold_repetition_as_in_dama_game(rules, start, moves):
    s, g = DamaState(rules, start=start), DamaGame(rules, start=start)
    for text in moves:
        assert not s.is_terminal() and not g.is_over()
        s.step(s.action_for(text))
        g.play(text)
        assert s.observation(0)[161] == pytest.approx(g.quiet_plies / g.rules.draw_plies)
        assert s.observation(0)[162] == (g.repetitions() - 1) / 2
    assert g.draw_reason() == "threefold repetition"
    assert s.is_terminal() and s.player == TERMINAL and s.returns() == (0, 0)
    assert g.quiet_plies == (len(moves) - 1 if rules == "box" else len(moves))


@pytest.mark.parametrize("rules", RULE_SETS)
def test_an_illegal_action_is_refused_and_changes_nothing(rules):
    s = DamaState(rules)
    rng = random.Random(3)
    for _ in range(5):
        s.step(rng.choice(s.legal_actions().tolist()))
    before = (s.legal_actions(), s.observation(0), s.position(), s.player, s.plies)
    legal = set(s.legal_actions().tolist())
    not_legal = next(c for c in range(NUM_ACTIONS) if c not in legal)
    for bad in (not_legal, -1, NUM_ACTIONS, 10**30):
        with pytest.raises(IllegalMove):
            s.step(bad)
    for bad in ("22-18", 1.5, None):
        with pytest.raises(IllegalMove, match="integer code"):
            s.step(bad)
    after = (s.legal_actions(), s.observation(0), s.position(), s.player, s.plies)
    assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])
    assert before[2:] == after[2:]
    assert s.action_to_string(not_legal).count("#") == 1


def test_the_end_refuses_steps():
    s = DamaState("russian", start="W:W22:B18")   # White takes Black's last piece
    s.step(s.action_for("22x15"))
    assert s.is_terminal() and s.player == TERMINAL and s.returns() == (1, -1)
    assert len(s.legal_actions()) == 0 and s.legal_moves() == {}
    with pytest.raises(IllegalMove, match="over"):
        s.step(0)


def test_clones_are_independent():
    s = DamaState("box")
    rng = random.Random(4)
    for _ in range(10):
        s.step(rng.choice(s.legal_actions().tolist()))
    c = s.clone()
    code = int(c.legal_actions()[0])
    obs = s.observation(1)
    c.step(code)
    assert np.array_equal(s.observation(1), obs) and c.position() != s.position()
    s.step(code)
    assert c.position() == s.position()
    assert np.array_equal(c.observation(0), s.observation(0))
    assert np.array_equal(c.legal_actions(), s.legal_actions())


def test_room_for_the_moves_grows(monkeypatch):
    """A state made with room for 2 moves grows it and plays as one made with room."""
    roomy = DamaState("box")
    monkeypatch.setattr(dama, "START_CAPACITY", 2)
    small = DamaState("box")
    rng = random.Random(8)
    while not roomy.is_terminal():
        assert np.array_equal(small.legal_actions(), roomy.legal_actions())
        code = rng.choice(roomy.legal_actions().tolist())
        small.step(code)
        roomy.step(code)
    assert small.is_terminal() and small.returns() == roomy.returns()
    assert len(small.moves) > 2


def test_no_chance_and_reset():
    s = DamaState("italian")
    assert s.chance_outcomes() == []
    with pytest.raises(WrongState):
        s.throw((3, 1))
    first = s.legal_actions()
    s.step(int(first[0]))
    assert s.player == 1
    s.reset(seed=9)
    assert s.player == 0 and s.plies == 0 and np.array_equal(s.legal_actions(), first)


def turned_round(p: Position) -> Position:
    """The same game with the colours swapped and the board turned round."""
    def turn(m):
        return sum(1 << (31 - i) for i in range(32) if m >> i & 1)
    return Position(turn(p.bm), turn(p.bk), turn(p.wm), turn(p.wk), 1 - p.turn, p.rules,
                    turn(p.huff))


@pytest.mark.parametrize("rules", RULE_SETS)
def test_observations_see_the_board_from_the_observers_side(rules):
    start = DamaState(rules)
    white, black = start.observation(0), start.observation(1)
    assert white.shape == (OBSERVATION_SIZE,) and white.dtype == np.float32
    assert white[:128].sum() == 24 and white[:32].sum() == 12 and white[64:96].sum() == 12
    flag = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    flag[160] = 1
    assert np.array_equal(white - black, flag)   # the start looks the same to both
    for s in random_states(rules, 2, seed=6):
        if s.is_terminal() or s.plies % 7:
            continue
        other = DamaState(rules, start=turned_round(s.position()))
        fresh = DamaState(rules, start=s.position())
        for side in (0, 1):
            assert np.array_equal(fresh.observation(side), other.observation(1 - side))
        assert len(other.legal_actions()) == len(s.legal_actions())
    with pytest.raises(ValueError):
        start.observation(2)


def test_make_state_names_the_rule_sets():
    assert [n for n in GAMES if n in RULE_SETS] == list(RULE_SETS)
    assert make_state("dama").rules.name == "box"
    assert make_state("shashki").rules.name == "russian"
    assert make_state("box", huffing=False).rules.compulsory
    with pytest.raises(RuleError):
        make_state("italian", huffing=True)
