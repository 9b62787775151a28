"""Exact positions for the ``box`` rules (and a few Russian/Italian contrasts)."""

import pytest

from tavli.engine.dama.board import WHITE, Position, parse_square
from tavli.errors import IllegalMove, WrongState
from tavli.play.dama.game import DamaGame


def texts(fen, rules="box", captures_only=False, **kw):
    pos = Position.from_fen(fen, rules if not kw else None)
    if kw:
        from tavli.engine.dama.rules import DamaRules
        pos = pos.with_rules(DamaRules.for_name(rules, **kw))
    return {m.notation(pos.rules, algebraic=True, full=True) for m in pos.legal_moves()
            if m.captures or not captures_only}


def sq(name):
    return parse_square(name, "box")


def test_men_capture_forward_only():
    fen = "W:Wd4:Bc5,e3,h8"
    assert texts(fen, "box", captures_only=True) == {"d4xb6"}
    assert texts(fen, "russian", captures_only=True) == {"d4xb6", "d4xf2"}


def test_capture_optional_with_huffing_compulsory_without():
    fen = "W:Wd4,g1:Bc5,h8"
    with_huffing = texts(fen, "box")
    assert "d4xb6" in with_huffing and "g1-h2" in with_huffing and "d4-e5" in with_huffing
    assert texts(fen, "box", huffing=False) == {"d4xb6"}


def test_flying_king_captures_from_a_distance():
    fen = "W:WKa1:Be5,h8,a7"
    assert texts(fen, "box", captures_only=True) == {"a1xf6", "a1xg7"}
    assert texts(fen, "box", huffing=False) == {"a1xf6", "a1xg7"}
    # Italian kings are not flying: nothing to capture from a1
    assert texts("W:W32:B14,1", "italian", captures_only=True) == set()


def test_king_must_land_where_it_can_go_on_capturing():
    # a1 takes c3 and may land on d4, e5 or f6; only from e5 can it take d6 next
    fen = "W:WKa1:Bc3,d6,h8"
    assert texts(fen, "box", huffing=False) == {"a1xe5xc7", "a1xe5xb8"}


def test_chain_changes_direction():
    fen = "W:Wc3:Bd4,d6,h8"
    assert texts(fen, "box", captures_only=True) == {"c3xe5xc7"}
    pos = Position.from_fen(fen, "box")
    (mv,) = [m for m in pos.legal_moves() if m.captures]
    assert mv.captures == (sq("d4"), sq("d6"))
    after = pos.play(mv)
    assert after.piece_at(sq("c7")) == "w" and not after.piece_at(sq("d4"))
    assert not after.piece_at(sq("d6"))


def test_promotion_during_a_capture_goes_on_as_flying_king():
    fen = "W:Wd6:Be7,g7,h2"
    assert texts(fen, "box", captures_only=True) == {"d6xf8xh6"}
    pos = Position.from_fen(fen, "box")
    (mv,) = [m for m in pos.legal_moves() if m.captures]
    assert mv.promotes
    after = pos.play(mv)
    assert after.piece_at(sq("h6")) == "W"
    # Italian: a man crowned by a capture stops there
    it = Position.from_fen("W:W10:B6,1", "italian")
    (mv,) = [m for m in it.legal_moves() if m.captures]
    assert mv.promotes and len(mv.captures) == 1


def test_quiet_move_to_last_row_crowns():
    pos = Position.from_fen("W:Wc7:Bh6", "box")
    mv = pos.find_move("c7-b8")
    assert mv.promotes and pos.play(mv).piece_at(sq("b8")) == "W"


def test_huffing_removes_the_piece_that_should_have_captured():
    g = DamaGame("box", start="W:Wc3,g3:Bd4,h8")
    g.play("g3-h4")
    assert g.turn == 1 and g.huff_candidates == [sq("c3")]
    g.huff(sq("c3"))
    assert g.position.piece_at(sq("c3")) == "" and g.position.count(WHITE) == (1, 0)
    assert g.huff_candidates == []
    g.play("d4-e3")
    assert g.record[-2].huffed == sq("c3")


def test_huffing_opponent_picks_among_several():
    g = DamaGame("box", start="W:Wc3,e3,a1:Bd4,h8")
    g.play("a1-b2")
    assert sorted(g.huff_candidates) == sorted([sq("c3"), sq("e3")])
    with pytest.raises(WrongState):
        g.huff(sq("b2"))
    g.huff(sq("e3"))
    assert g.position.piece_at(sq("c3")) == "w" and g.position.piece_at(sq("e3")) == ""


def test_huffing_follows_the_piece_that_moved_away():
    g = DamaGame("box", start="W:Wc3:Bd4,h8")
    g.play("c3-b4")
    assert g.huff_candidates == [sq("b4")]


def test_huff_right_is_optional_and_lapses():
    g = DamaGame("box", start="W:Wc3,g3:Bd4,h8")
    g.play("g3-h4")
    g.play("h8-g7")
    assert g.position.count(WHITE) == (2, 0)
    # Black's d4 could have taken c3 in turn and did not: now White may huff it
    assert g.huff_candidates == [sq("d4")]
    g.play("c3xe5")
    assert g.huff_candidates == []


def test_no_huffing_after_a_capture_or_without_the_option():
    g = DamaGame("box", start="W:Wc3,g3:Bd4,h8")
    g.play("c3xe5")
    assert g.huff_candidates == []
    g2 = DamaGame("box", huffing=False, start="W:Wc3,g3:Bd4,h8")
    with pytest.raises(IllegalMove):
        g2.play("g3-h4")


def test_win_by_blocking():
    g = DamaGame("box", start="B:Wb4,c3:Ba5")
    assert g.is_over() and g.winner() == WHITE and g.result == "1-0"
    assert g.end_reason() == "no legal move"


def test_win_by_capturing_everything():
    g = DamaGame("box", start="W:Wc3:Bd4")
    g.play("c3xe5")
    assert g.result == "1-0" and g.end_reason() == "no pieces left"


def test_italian_men_do_not_capture_kings_and_priorities():
    # man on 22 (d3) next to a black king on 18: no capture
    assert texts("W:W22:BK18,1", "italian", captures_only=True) == set()
    # a king and a man can each take one piece: the king must
    pos = Position.from_fen("W:W22,K23:B18,19,1", "italian")
    caps = [m for m in pos.legal_moves() if m.captures]
    assert caps and all(m.king for m in caps)
    # most pieces first
    pos = Position.from_fen("W:Wd1,f1:Bc2,c4,g2,a8", "italian")
    assert {m.notation(pos.rules, algebraic=True, full=True)
            for m in pos.legal_moves()} == {"d1xb3xd5"}


def test_russian_man_crowned_in_capture_goes_on():
    assert texts("W:Wd6:Be7,g7,h2", "russian", captures_only=True) == {"d6xf8xh6"}


def _random_positions(n, seed, kings_only=False):
    import random

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        squares = rng.sample(range(32), rng.randint(3, 14))
        masks = [0, 0, 0, 0]
        for i, s in enumerate(squares):
            white = i % 2 == 0
            king = kings_only or rng.random() < 0.3 or (white and s < 4) or (not white and s >= 28)
            masks[(0 if white else 2) + (1 if king else 0)] |= 1 << s
        out.append(masks + [rng.randint(0, 1)])
    return out


def test_box_kings_are_russian_kings():
    from tavli.engine.dama.rules import DamaRules

    box = DamaRules.for_name("box", huffing=False)
    for wm, wk, bm, bk, turn in _random_positions(300, 11, kings_only=True):
        a = Position(wm, wk, bm, bk, turn, box)
        b = Position(wm, wk, bm, bk, turn, "russian")
        assert {m.key() for m in a.legal_moves()} == {m.key() for m in b.legal_moves()}


def test_huffing_adds_exactly_the_quiet_moves():
    from tavli.engine.dama.rules import DamaRules

    strict = DamaRules.for_name("box", huffing=False)
    for wm, wk, bm, bk, turn in _random_positions(300, 12):
        free = Position(wm, wk, bm, bk, turn, "box").legal_moves()
        forced = Position(wm, wk, bm, bk, turn, strict).legal_moves()
        caps = {m.key() for m in free if m.captures}
        assert caps == {m.key() for m in forced if m.captures}
        quiet = [m for m in free if not m.captures]
        if caps:
            assert all(m.declined for m in quiet)
            assert {m.key() for m in forced} == caps
        else:
            assert not any(m.declined for m in quiet)
            assert {m.key() for m in forced} == {m.key() for m in quiet}
