"""Dama in its players' notation (issue 20): Russian draughts in algebraic notation
(``c3-d4``, ``c3:e5``, ``c3:e5:g3``), the Italian and box rules in numeric notation
(squares 1-32, ``22-18``, ``22x15``, ``22x15x8``). The rule set owns its notation
(:meth:`DamaRules.move_text`); the API sends it, the PDN files still round-trip, and a
move typed in it is read back (the TUI's input)."""

from __future__ import annotations

import pytest
from test_web_dama import new as create

from tavli.engine.dama.board import Position
from tavli.play.dama.game import DamaGame
from tavli.play.dama.pdn import read_pdn, write_pdn

# (rules, FEN, the texts of the legal moves in the players' notation)
CASES = [
    # Russian: a move, a capture, a multiple capture (a man captures backwards too)
    ("russian", "W:Wc3:Bh8", ["c3-b4", "c3-d4"]),
    ("russian", "W:Wc3:Bd4,h8", ["c3:e5"]),
    ("russian", "W:Wc3:Bd4,f4,h8", ["c3:e5:g3"]),
    # box: squares numbered from the top; capturing is optional (huffing)
    ("box", "W:Wc3:Bh8", ["22-17", "22-18"]),
    ("box", "W:Wc3:Bd4,h8", ["22x15", "22-17"]),
    ("box", "W:Wc3:Bd4,f6,a7", ["22x15x8", "22-17"]),
    # Italian: the mirrored board, FID numbering, compulsory capture
    ("italian", "W:Wd3:Bg8", ["22-18", "22-19"]),
    ("italian", "W:Wd3:Be4,g8", ["22x15"]),
    ("italian", "W:Wd3:Be4,e6,a8", ["22x15x6"]),
]


@pytest.mark.parametrize("rules,fen,texts", CASES)
def test_each_rule_set_writes_moves_in_its_players_notation(rules, fen, texts):
    pos = Position.from_fen(fen, rules)
    moves = pos.legal_moves()
    assert [pos.rules.move_text(m) for m in moves] == texts
    assert pos.rules.notation == ("algebraic" if rules == "russian" else "numeric")
    # each text reads back as its move (what a player types in the terminal)
    for m, text in zip(moves, texts, strict=True):
        assert pos.find_move(text).key() == m.key()


def test_the_api_sends_the_players_notation(client):
    st = create(client, rules="russian", opponent="human")
    assert st["notation"] == "algebraic" and st["rules_key"] == "dama.rn.russian"
    texts = {m["notation"] for m in st["legal_moves"]}
    assert "c3-d4" in texts and all("-" in t and t[0].isalpha() for t in texts)
    r = client.post(f"/api/games/{st['id']}/move", json={"move": "c3-d4"})
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["history"] == [{"side": "white", "text": "c3-d4"}]
    assert st["last"]["notation"] == "c3-d4"
    st = create(client, rules="italian", opponent="human")
    assert st["notation"] == "numeric" and all(m["notation"][0].isdigit()
                                               for m in st["legal_moves"])
    st = create(client, rules="box", level="expert")
    assert st["levels"] == {"black": "expert"} and st["rules_key"] == "dama.rn.box"


@pytest.mark.parametrize("rules", ["russian", "italian", "box"])
def test_pdn_still_round_trips(rules):
    g = DamaGame(rules)
    for _ in range(12):
        if g.is_over():
            break
        g.play(g.legal_moves()[-1])
    back = read_pdn(write_pdn(g))
    assert [str(p) for p in back.record] == [str(p) for p in g.record]
    assert back.position.fen() == g.position.fen()


def test_the_tui_shows_and_reads_the_russian_notation(dama_terminal):
    g, text = dama_terminal(["moves", "c3-d4", "quit"], "--opponent", "human", game="russian")
    assert any("c3-d4" in line and "a3-b4" in line for line in text.splitlines())
    assert [g.rules.move_text(p.move) for p in g.record] == ["c3-d4"]
