"""Differential test against pydraughts (a test extra): the same set of legal moves for
the ``russian`` and ``italian`` rule sets on random positions with kings and
multi-captures. Moves are compared as (start, end, captured squares), pydraughts'
squares converted through its own notation (Russian: its algebraic names; Italian: its
numbers, which are ours)."""

import random

import draughts  # noqa: E402
import draughts.convert as convert  # noqa: E402
import pytest

from tavli.engine.dama.board import Position, parse_square

N_PLAY = 700
N_PLACED = 800


def pydraughts_moves(pos: Position) -> set:
    variant = pos.rules.name
    fen = pos.fen(algebraic=variant == "russian", ranges=False)
    board = draughts.Board(variant, fen)
    moves, caps = board._legal_moves_board()

    def conv(n):
        if variant == "russian":
            return parse_square(convert._numeric_to_algebraic_square(str(n), 4), "russian")
        return n

    out = set()
    for mv, cp in zip(moves, caps, strict=True):
        captured = frozenset(conv(x) for x in cp if x is not None)
        out.add((conv(mv[0][0]), conv(mv[-1][1]), captured))
    return out


def our_moves(pos: Position) -> set:
    return {(m.start, m.end, frozenset(m.captures)) for m in pos.legal_moves()}


def played_positions(rules: str, n: int, rng: random.Random) -> list[Position]:
    out: list[Position] = []
    while len(out) < n:
        p = Position.start(rules)
        for _ in range(150):
            moves = p.legal_moves()
            if not moves:
                break
            out.append(p)
            p = p.play(rng.choice(moves))
    return out[:n]


def placed_positions(rules: str, n: int, rng: random.Random) -> list[Position]:
    """Random legal-looking placements, dense in the middle, many kings."""
    out = []
    while len(out) < n:
        squares = list(range(32))
        rng.shuffle(squares)
        k = rng.randint(4, 16)
        masks = [0, 0, 0, 0]
        for i, sq in enumerate(squares[:k]):
            white = i % 2 == 0
            king = rng.random() < 0.35
            if not king and ((white and sq < 4) or (not white and sq >= 28)):
                king = True
            masks[(0 if white else 2) + (1 if king else 0)] |= 1 << sq
        p = Position(*masks, turn=rng.randint(0, 1), rules=rules)
        out.append(p)
    return out


@pytest.mark.parametrize("rules", ["russian", "italian"])
def test_same_moves_as_pydraughts(rules):
    rng = random.Random(20240 + len(rules))
    positions = played_positions(rules, N_PLAY, rng) + placed_positions(rules, N_PLACED, rng)
    with_kings = multi = 0
    mismatches = []
    for p in positions:
        ours = our_moves(p)
        theirs = pydraughts_moves(p)
        if ours != theirs:
            mismatches.append((p.fen(), sorted(ours - theirs), sorted(theirs - ours)))
        with_kings += bool(p.wk or p.bk)
        multi += any(len(m[2]) >= 2 for m in ours)
    assert not mismatches, mismatches[:5]
    assert len(positions) >= 1000
    assert with_kings >= 500 and multi >= 100, (with_kings, multi)


@pytest.mark.parametrize("rules", ["russian", "italian"])
def test_move_texts_read_back_and_pydraughts_texts_are_understood(rules):
    rng = random.Random(77)
    for p in placed_positions(rules, 300, rng):
        legal = p.legal_moves()
        for m in legal:
            assert p.find_move(str(m)).key() == m.key()
            full = m.notation(p.rules, algebraic=True, full=True)
            assert p.find_move(full).key() == m.key()
        board = draughts.Board(rules, p.fen(algebraic=rules == "russian", ranges=False))
        for mv in board.legal_moves():
            text = mv.pdn_move
            if rules == "russian":  # its numbers count from a1: use its square names
                text = convert._number_to_algebraic(text, variant="russian")
            ours = p.find_move(text)
            assert len(ours.captures) == len(mv.captures or [])
