"""PDN and FEN for Dama: tags per rule set, round trips, pydraughts interchange."""

import random

import pytest

from tavli.engine.dama.board import Position
from tavli.errors import RecordError
from tavli.play.dama.game import DamaGame
from tavli.play.dama.pdn import read_pdn, read_pdn_games, write_pdn
from tests.test_formats_dama import random_game  # one random player for both files


@pytest.mark.parametrize("rules", ["box", "russian", "italian"])
@pytest.mark.parametrize("notation", [None, "numeric", "algebraic"])
def test_round_trip(rules, notation):
    for seed in range(4):
        g = random_game(rules, seed)
        text = write_pdn(g, {"Event": "test"}, notation=notation)
        h = read_pdn(text)
        assert h.rules == g.rules
        assert [str(p) for p in h.record] == [str(p) for p in g.record]
        assert h.position == g.position
        assert h.result == g.result


def test_game_type_tags():
    assert '[GameType "25,W,8,8,A0,0"]' in write_pdn(DamaGame("russian"))
    assert '[GameType "22,W,8,8,N2,1"]' in write_pdn(DamaGame("italian"))
    box = write_pdn(DamaGame("box"))
    assert '[GameType "25,W,8,8,N2,0"]' in box and '[Rules "box"]' in box
    assert '[Huffing "yes"]' in box and '[FEN "W:W21-32:B1-12"]' in box
    assert '[Huffing "no"]' in write_pdn(DamaGame("box", huffing=False))


def test_huff_comment_is_replayed():
    g = DamaGame("box", start="W:Wc3,g3:Bd4,h8")
    g.play("g3-h4")
    g.huff(22)
    g.play("d4-c3")
    text = write_pdn(g)
    assert "{huff 22}" in text
    h = read_pdn(text)
    assert h.position.fen() == "W:W20:B4,22"


def test_fen_forms():
    p = Position.from_fen("W:W21-32:B1-12", "russian")
    assert p == Position.start("russian")
    k = Position.from_fen("B:WK4,22:BKc5,e5", "russian")
    assert k.turn == 1 and k.piece_at(4) == "W" and k.piece_at(14) == "B"
    assert Position.from_fen(k.fen(), "russian") == k
    assert Position.from_fen(k.fen(algebraic=True), "russian") == k
    assert Position.from_fen('"W:W21-32:B1-12."', "italian") == Position.start("italian")


def test_reads_other_numberings_and_several_games():
    # N0: square 1 is a1 (pydraughts' numbering for Russian): 10-14 is c3-d4 = our 22-18
    text = ('[GameType "25,W,8,8,N0,0"]\n\n1. 10-14 23-19 *\n\n'
            '[GameType "22"]\n\n1. 22-18 {a comment} (1. 21-17) 11-15 $1 *\n')
    a, b = read_pdn_games(text)
    assert [str(m) for m in a.moves] == ["22-18", "11-15"]
    assert b.rules.name == "italian" and [str(m) for m in b.moves] == ["22-18", "11-15"]


def test_illegal_move_in_record():
    with pytest.raises(RecordError):
        read_pdn('[GameType "25"]\n\n1. 22-19 *\n')


@pytest.mark.parametrize("variant", ["russian", "italian"])
def test_pydraughts_interchange(variant):
    import draughts
    import draughts.PDN as pdn
    rng = random.Random(5)
    b = draughts.Board(variant)
    for _ in range(80):
        ms = b.legal_moves()
        if not ms or b.is_over():
            break
        b.push(rng.choice(ms))
    theirs = pdn.PDNWriter(filename="", board=b).pdn_text
    g = read_pdn(theirs)
    assert len(g.moves) == len(b.move_stack)
    back = pdn.PDNReader(pdn_text=write_pdn(g)).games[0]
    bb = draughts.Board(variant, back.tags["FEN"])
    for m in back.moves:
        bb.push(draughts.Move(bb, pdn_move=m))
    assert bb.fen == b.fen


N0 = '[GameType "25,W,8,8,N0,0"]\n'


@pytest.mark.parametrize("text,where", [
    ('[FEN "W:W\u00b2:B1"]\n\n*\n', "FEN"),
    ('[Rules "box"]\n\n1. *\u00b2 22-18 *\n', "huff"),
    ('1. ' + "9" * 5000 + '-18 *\n', "move 1"),
    ('[GameType "25,W,8,8,NX,0"]\n\n1. 22-18 *\n', "NX"),
    ('[GameType "25,W,8,8,N7,0"]\n\n1. 22-18 *\n', "N7"),
    (N0 + '\n1. 33-29 *\n', "move 1 (33-29)"),
    (N0 + '\n1. ' + "9" * 5000 + '-18 *\n', "move 1"),
    (N0 + '\n{huff 40} 1. 10-14 *\n', "huff 40"),
    (N0 + '\n1. *\u00b2 10-14 *\n', "huff"),
    (N0 + '[FEN "W:W40:B1"]\n\n*\n', "FEN"),
    (N0 + '[FEN "W:W0:B1"]\n\n*\n', "FEN"),
    (N0 + '[FEN "W:WK33:B1"]\n\n*\n', "FEN"),
    (N0 + '[FEN "W:W1-99999:B1"]\n\n*\n', "FEN"),
    (N0 + '[FEN "W:W1-' + "9" * 5000 + ':B1"]\n\n*\n', "FEN"),
    (N0 + '[FEN "W:W5-1:B12"]\n\n*\n', "FEN"),
    (N0 + '[FEN "W:W\u00b2:B1"]\n\n*\n', "FEN"),
])
def test_bad_squares_and_numberings_are_record_errors(text, where):
    with pytest.raises(RecordError) as e:
        read_pdn_games(text)
    assert where in str(e.value) and len(str(e.value)) < 300


def test_other_numbering_fen_and_huff():
    # N0 (square 1 on a1): 1-4 is our 29-32, 29-32 is our 1-4; the FEN may be quoted
    # and end with a period, fields may have spaces, as from_fen allows
    g = read_pdn(N0 + '[FEN "W:W1-4, K5:B 29-32."]\n\n*\n')
    assert g.start.fen() == "W:WK25,29-32:B1-4"
    # box: W:Wc3,g3:Bd4,h8 in N0; White's g3-h4 declines c3xe5, Black huffs c3
    box = ('[Rules "box"]\n[GameType "25,W,8,8,N0,0"]\n[FEN "W:W10,12:B14,32"]\n\n'
           '1. 12-16 {huff 10} 14-11 *\n')
    g = read_pdn(box)
    assert [str(p) for p in g.record] == ["24-20", "*22", "18-23"]
