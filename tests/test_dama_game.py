"""DamaGame: undo, draws, results."""

import pytest

from tavli.engine.dama.board import Position
from tavli.errors import GameOver, ParseError, WrongState
from tavli.play.dama.game import DamaGame


def test_undo_restores_everything():
    g = DamaGame("box", start="W:Wc3,g3:Bd4,h8")
    before = g.position
    g.play("g3-h4")
    g.huff(22)
    g.undo()
    assert g.huff_candidates == [22]
    g.undo()
    assert g.position == before and g.record == []
    with pytest.raises(WrongState):
        g.undo()


def test_threefold_repetition():
    g = DamaGame("russian", start="W:WKc1:BKf8")
    for _ in range(2):
        for m in ("c1-d2", "f8-e7", "d2-c1", "e7-f8"):
            assert not g.is_over()
            g.play(m)
    assert g.repetitions() == 3
    assert g.is_over() and g.result == "1/2-1/2" and g.draw_reason() == "threefold repetition"
    with pytest.raises(GameOver):
        g.play("c1-d2")


@pytest.mark.parametrize("rules,plies", [("russian", 30), ("box", 30), ("italian", 80)])
def test_no_progress_rule(rules, plies):
    start = "W:WK29,K30:BK3,K4" if rules == "italian" else "W:WKa1,Kc1:BKf8,Kh8"
    g = DamaGame(rules, start=start)
    assert g.rules.draw_plies == plies
    seen = {}
    n = 0
    while not g.is_over():
        # quiet king moves that give the opponent no capture, new positions first
        best = None
        for m in g.legal_moves():
            after = g.position.play(m)
            if m.captures or any(x.captures for x in after.legal_moves()):
                continue
            key = (after.wk, after.bk, after.turn)
            if best is None or seen.get(key, 0) < best[0]:
                best = (seen.get(key, 0), m, key)
        g.play(best[1])
        seen[best[2]] = seen.get(best[2], 0) + 1
        n += 1
        assert n <= plies
    assert n == plies and g.result == "1/2-1/2"
    assert g.draw_reason() == f"{plies // 2} moves each without a capture or a man's move"


def test_man_move_resets_the_count():
    g = DamaGame("russian", start="W:WKc1,h2:BKf8")
    g.play("c1-d2")
    g.play("f8-e7")
    assert g.quiet_plies == 2
    g.play("h2-g3")
    assert g.quiet_plies == 0


def test_resign_and_agreement():
    g = DamaGame()
    g.resign()
    assert g.result == "0-1" and g.end_reason() == "resignation"
    g = DamaGame()
    g.agree_draw()
    assert g.result == "1/2-1/2"


BIG = "9" * 5000


@pytest.mark.parametrize("fen", ["W:W\u00b2:B1", "W:W\u0662\u0662:B1", "W:W1-99999:B1",
                                 f"W:W{BIG}:B1", "W:W5-1:B12", "W:W0:B1", "W:WK33:B1"])
def test_bad_fen_squares_are_parse_errors(fen):
    with pytest.raises(ParseError) as e:
        Position.from_fen(fen)
    assert "square" in str(e.value) or "range" in str(e.value)
    assert len(str(e.value)) < 200  # a 5000-digit number is not echoed whole


@pytest.mark.parametrize("move", [f"{BIG}-18", "\u00b22-18", "*\u00b2 22-18", f"*{BIG} 22-18",
                                  "\u0662\u0662-\u0661\u0668"])
def test_bad_move_squares_are_parse_errors_and_change_nothing(move):
    g = DamaGame("box")
    with pytest.raises(ParseError):
        g.play(move)
    assert g.record == [] and g.position == Position.start("box")
    assert [str(m) for m in g.legal_moves()][0] == "21-17"


def test_huff_by_square_text():
    g = DamaGame("box", start="W:Wc3,g3:Bd4,h8")
    g.play("g3-h4")
    for bad in ("\u00b2", BIG, "x"):
        with pytest.raises(ParseError):
            g.huff(bad)
    assert g.huff_candidates == [22]
    g.huff("c3")
    assert g.position.count(0) == (1, 0)
