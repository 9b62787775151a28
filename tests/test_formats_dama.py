"""Dama through the common record and file-format layer: PDN as a format of
:mod:`tavli.play.formats`, Dama games in the tavli JSON record, ``tavli convert`` and
``tavli replay``, the import limits, and the formats that cannot hold a game saying so."""

from __future__ import annotations

import json
import random
import time

import pytest

from tavli.cli import main as tavli_main
from tavli.engine.dama.board import Position
from tavli.errors import RecordError, RecordShapeError
from tavli.play.dama.game import DamaGame
from tavli.play.formats import FORMATS, dumps, format_of, loads, read, write
from tavli.play.game import Game
from tavli.play.match import Match
from tavli.play.record import (
    MAX_EVENTS,
    MAX_GAMES,
    MAX_TOTAL,
    load,
    load_record,
    record_of,
    save,
)

RULES = [("box", None), ("box", False), ("russian", None), ("italian", None)]


def random_game(rules: str, seed: int, huffing: bool | None = None, plies: int = 120,
                start: str | None = None) -> DamaGame:
    """A game of random moves and huffs (some games end, most stop after ``plies``)."""
    rng = random.Random(seed)
    g = DamaGame(rules, huffing=huffing, start=start)
    for _ in range(plies):
        if g.is_over():
            break
        if g.huff_candidates and rng.random() < 0.7:
            g.huff(rng.choice(g.huff_candidates))
            if g.is_over():
                break
        g.play(rng.choice(g.legal_moves()))
    return g


def plies(g: DamaGame) -> list[str]:
    return [str(p) for p in g.record]


def same_game(a: DamaGame, b: DamaGame) -> bool:
    return (a.rules == b.rules and plies(a) == plies(b) and a.position == b.position
            and a.start == b.start and a.result == b.result and a.end_reason() == b.end_reason())


# --- the JSON record ----------------------------------------------------------------------
@pytest.mark.parametrize("rules,huffing", RULES)
def test_json_round_trip(rules, huffing):
    for seed in range(4):
        g = random_game(rules, seed, huffing)
        rec = record_of(g)
        assert rec["format"] == "tavli-record" and rec["match"] is None
        assert rec["games"][0]["rules"] == g.rules.to_dict()  # as a dice game's rules
        assert rec["games"][0]["rules"]["game"] == ("dama" if rules == "box" else rules)
        back = load_record(json.dumps(rec))
        assert same_game(back, g)
        assert record_of(back) == rec


def test_json_record_shape():
    g = DamaGame(start="W:Wc3,g3:Bd4,h8")
    g.play("24-20")
    g.huff(22)
    doc = record_of(g)["games"][0]
    assert doc == {"rules": {"game": "dama", "huffing": True},
                   "start": "W:W22,24:B4,18",
                   "events": [{"side": "white", "move": "24-20"},
                              {"side": "black", "huff": 22}],
                   "position": "B:W20:B4,18", "result": None}


def test_the_end_is_recorded_and_replayed():
    g = random_game("russian", 1, plies=6)
    g.resign(1)
    doc = record_of(g)["games"][0]
    assert doc["events"][-1] == {"side": "black", "resign": True}
    assert doc["result"] == {"winner": "white", "points": 1, "kind": "resignation"}
    assert same_game(load_record(record_of(g)), g)
    d = random_game("italian", 2, plies=8)
    d.agree_draw()
    assert record_of(d)["games"][0]["result"] == {"winner": None, "points": 0,
                                                  "kind": "agreement"}
    assert same_game(load_record(record_of(d)), d)
    over = random_game("box", 5, plies=400)
    assert over.is_over() and record_of(over)["games"][0]["result"]["kind"] in (
        "no_move", "no_pieces", "repetition", "quiet")
    assert same_game(load_record(record_of(over)), over)


def test_several_games_in_one_record(tmp_path):
    games = [random_game("box", 1), random_game("italian", 2)]
    save(games, tmp_path / "two.json")
    back = load(tmp_path / "two.json")
    assert isinstance(back, list) and all(map(same_game, back, games))


def _record(events, **game):
    doc = {"rules": {"game": "russian"}, "events": events, **game}
    return {"format": "tavli-record", "version": 1, "seed": None, "match": None,
            "games": [doc]}


@pytest.mark.parametrize("record,message", [
    (_record([{"side": "white", "move": "22-18"}, {"side": "black", "move": "22-18"}]),
     "game 1, event 2: 22-18 is not a legal move here"),
    (_record([{"side": "black", "move": "11-15"}]),
     "game 1, event 1: the record says black plays, but white is to move"),
    (_record([{"side": "white", "huff": 22}]), "game 1, event 1: square 22 cannot be huffed"),
    (_record([{"side": "white", "move": 2218}]), "game 1, event 1: unknown event"),
    (_record([{"side": "white", "move": "22-18"}], position="W:W21-32:B1-12"),
     "game 1: the replay ends in B:W18,21,23-32:B1-12, the record says W:W21-32:B1-12"),
    (_record([], result={"winner": "white", "points": 1, "kind": "resignation"}),
     "the record's result"),
    (_record([], start="X:nonsense"), "game 1: start:"),
    ({**_record([]), "games": [{"rules": {"game": "russian", "huffing": True}}]},
     "rule option 'huffing' applies to box only, not russian"),
    ({**_record([]), "games": [{"rules": {"game": "dama", "huffing": "maybe"}}]},
     "rule option 'huffing' takes true or false"),
    ({**_record([]), "games": [{"rules": {"game": "dama", "crawford": True}}]},
     "rule option 'crawford' applies to backgammon only, not box"),
    ({**_record([]), "games": [{"rules": {"game": "dama", "nack": True}}]},
     "unknown rule option 'nack'"),
    ({**_record([]), "match": {"target": 3, "variant": "dama"}}, "has no match"),
    ({**_record([]), "games": [{"rules": {"game": "dama"}}, {"rules": {"game": "portes"}}]},
     "game 2: a record holds Dama games or dice games, not both"),
])
def test_a_bad_record_is_one_error_and_nothing_loaded(record, message):
    with pytest.raises(RecordError) as e:
        load_record(record)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_record_is_bounded_before_its_replay():
    ply = {"side": "white", "move": "22-18"}
    with pytest.raises(RecordError, match=f"game 1: too many events: 1,001 .at most "
                                          f"{MAX_EVENTS:,}"):
        load_record(_record([ply] * (MAX_EVENTS + 1)))  # illegal from ply 2: not replayed
    many = {**_record([]), "games": [{"rules": {"game": "dama"}}] * (MAX_GAMES + 1)}
    with pytest.raises(RecordError, match="too many games"):
        load_record(many)
    long = {**_record([]), "games": [{"rules": {"game": "dama"}, "events": [ply] * 900}] * 6}
    with pytest.raises(RecordError, match=f"at most {MAX_TOTAL:,}"):
        load_record(long)


# --- PDN as a format ----------------------------------------------------------------------
def test_pdn_is_a_format():
    assert "pdn" in FORMATS
    assert format_of("games.PDN") == "pdn" and format_of("x.json", "pdn") == "pdn"


@pytest.mark.parametrize("rules,huffing", RULES)
def test_pdn_round_trips_through_the_common_entry_points(tmp_path, rules, huffing):
    g = random_game(rules, 7, huffing)
    assert same_game(loads(dumps(g, "pdn"), "pdn"), g)
    write(g, tmp_path / "g.pdn")
    assert same_game(read(tmp_path / "g.pdn"), g)
    write(read(tmp_path / "g.pdn"), tmp_path / "g.json")  # PDN -> JSON -> PDN
    write(read(tmp_path / "g.json"), tmp_path / "back.pdn")
    assert (tmp_path / "back.pdn").read_text() == (tmp_path / "g.pdn").read_text()


def test_a_pdn_file_of_several_games_keeps_its_tags(tmp_path):
    text = ('[Event "first"]\n[White "A"]\n[Result "1-0"]\n[Rules "box"]\n\n'
            '1. 22-18 11-15 2. 18x11 8x15 1-0\n\n'
            '[Event "second"]\n[GameType "22,W,8,8,N2,1"]\n\n1. 22-18 (1. 21-17) 12-16 *\n')
    games = loads(text, "pdn")
    assert [g.rules.name for g in games] == ["box", "italian"]
    assert [len(g.moves) for g in games] == [4, 2]
    pdn = dumps(games, "pdn")
    assert '[White "A"]' in pdn and '[Event "second"]' in pdn
    assert pdn.count("[Event ") == 2 and "1. 22-18 11-15 2. 18x11 8x15 1-0" in pdn
    via_json = dumps(loads(dumps(games, "json"), "json"), "pdn")
    assert via_json == pdn


@pytest.mark.parametrize("obj,fmt,message", [
    (DamaGame("russian"), "mat", ".mat files hold backgammon games only (as gnubg plays "
                                 "them), not Dama: save it as PDN (.pdn) or a tavli record"),
    ([DamaGame("box")], "sgf", ".sgf files hold backgammon games only"),
    (Game("portes", seed=1), "pdn", ".pdn files hold Dama games only, not portes"),
    (Match(3, "backgammon", seed=1), "pdn", ".pdn files hold Dama games only, not a match"),
])
def test_a_format_that_cannot_hold_the_game_says_so(obj, fmt, message):
    with pytest.raises(RecordError) as e:
        dumps(obj, fmt)
    assert str(e.value).startswith(message)


def _pdn_games(n: int, ply_pairs: int) -> str:
    game = "[Rules \"russian\"]\n\n" + " ".join(["22-18 11-15 18-22 15-11"] * ply_pairs) + " *\n"
    return "\n".join([game] * n)


@pytest.mark.parametrize("text,message", [
    (_pdn_games(MAX_GAMES + 1, 1), f"too many games: 101 (at most {MAX_GAMES})"),
    (_pdn_games(1, 251), f"game 1: too many plies: 1,004 (at most {MAX_EVENTS:,})"),
    (_pdn_games(6, 240), f"too many plies: 5,760 (at most {MAX_TOTAL:,} in all"),
    ("", "no game in the PDN text"),
    ('[Event "x"]\n\n1. 22-18 (11-15\n', "a variation '(' is not closed"),
    ('[Rules "checkers"]\n\n1. 22-18 *\n', "Rules tag: unknown Dama rule set 'checkers'"),
    ('[GameType "21"]\n\n1. 22-18 *\n', "GameType 21 is not a Dama rule set"),
    ('[FEN "W:W33:B1"]\n\n*\n', "bad FEN tag"),
    ('[Event "a"]\n1. 22-18 *\n\n[Event "b"]\n1. 22-19 *\n', "game 2: move 1 (22-19)"),
    ("\x00\x01 hello world {[}", "move 1"),
])
def test_a_damaged_or_too_large_pdn_is_one_error(text, message):
    with pytest.raises(RecordError) as e:
        loads(text, "pdn")
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_byte_order_mark_is_skipped():
    assert loads('\ufeff[Rules "italian"]\n\n1. 22-18 *\n', "pdn").rules.name == "italian"


def test_nested_variations_are_read_in_linear_time():
    text = "[Event \"x\"]\n\n1. 22-18 " + "(" * 100_000 + ")" * 100_000 + " 11-15 *\n"
    t = time.perf_counter()
    assert len(loads(text, "pdn").moves) == 2
    assert time.perf_counter() - t < 2


# --- the commands ---------------------------------------------------------------------------
def run(capsys, *argv) -> tuple[int, str, str]:
    code = tavli_main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


TWO = ('[Event "a"]\n[Rules "box"]\n\n1. 22-18 11-15 2. 18x11 8x15 *\n\n'
       '[Event "b"]\n[GameType "22,W,8,8,N2,1"]\n\n1. 22-18 12-16 *\n')
TWO_LINES = ["game 1: box, 4 moves, result *, final W:W21,23-32:B1-7,9,10,12,15",
             "game 2: italian, 2 moves, result *, final W:W18,21,23-32:B1-11,16"]


def test_convert_pdn_and_json_and_replay(capsys, tmp_path):
    src = tmp_path / "two.pdn"
    src.write_text(TWO)
    assert run(capsys, "replay", str(src)) == (0, "\n".join(TWO_LINES) + "\n", "")
    code, out, _ = run(capsys, "convert", str(src), str(tmp_path / "two.json"))
    assert code == 0 and out == f"{src} -> {tmp_path / 'two.json'}: 2 Dama games\n"
    code, out, _ = run(capsys, "convert", str(tmp_path / "two.json"), str(tmp_path / "b.txt"),
                       "--format", "pdn")
    assert code == 0 and out.endswith(": 2 Dama games\n")
    assert run(capsys, "replay", str(tmp_path / "b.txt"), "--from", "pdn")[1].splitlines() \
        == TWO_LINES
    assert run(capsys, "replay", str(tmp_path / "two.json"))[1].splitlines() == TWO_LINES
    one = tmp_path / "one.pdn"
    write(random_game("italian", 3, plies=1), one)
    code, out, _ = run(capsys, "--lang", "it", "convert", str(one), str(tmp_path / "one.json"))
    assert out.endswith(": una partita di dama\n")
    assert run(capsys, "replay", str(one))[1].startswith("game 1: italian, 1 move, result *")


def test_replay_prints_dice_games_too(capsys, tmp_path):
    g = Game("portes", seed=3)
    for _ in range(4):
        g.roll()
        g.play(g.legal_moves()[0] if g.legal_moves() else None)
    save(g, tmp_path / "p.json")
    code, out, _ = run(capsys, "replay", str(tmp_path / "p.json"))
    assert out == f"game 1: portes, 4 turns, not over, final {g.position.id()}\n"
    g.resign(g.turn, "single")
    save(g, tmp_path / "p.json")
    assert f"wins 1 point (resign), final {g.position.id()}" in run(
        capsys, "replay", str(tmp_path / "p.json"))[1]


def error_of(capsys, *argv) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    return err.strip()


def test_the_commands_refuse_mismatches_with_one_line(capsys, tmp_path):
    src = tmp_path / "two.pdn"
    src.write_text(TWO)
    assert error_of(capsys, "convert", str(src), str(tmp_path / "x.mat")).startswith(
        "tavli: error: .mat files hold backgammon games only (as gnubg plays them), not Dama")
    assert not (tmp_path / "x.mat").exists()
    save(Game("fevga", seed=1), tmp_path / "f.json")
    assert error_of(capsys, "convert", str(tmp_path / "f.json"), str(tmp_path / "f.pdn")) == (
        "tavli: error: .pdn files hold Dama games only, not fevga: save it as a tavli "
        "record (.json)")
    save(random_game("box", 1, plies=4), tmp_path / "d.json")
    assert error_of(capsys, "analyse", str(tmp_path / "d.json")) == (
        "tavli: error: a Dama record: tavli analyse takes Portes, Plakoto, Fevga and "
        "backgammon games only")
    assert "a Dama record: --resume takes" in error_of(
        capsys, "play", "--tui", "--resume", str(tmp_path / "d.json"))


def test_replay_reports_damaged_pdn_files(capsys, tmp_path):
    """What ``tavli dama pdn`` reported (tests/test_dama_cli.py), through ``tavli replay``."""
    f = tmp_path / "g.pdn"
    for text, message in [
            ('[FEN "W:W\u00b2:B1"]\n\n*\n', "bad FEN tag"),
            ('[Rules "box"]\n\n1. *\u00b2 22-18 *\n', "move 1 (huff ² before 22-18)"),
            ('[GameType "25,W,8,8,NX,0"]\n\n1. 22-18 *\n', "'NX' must be N0"),
            ('[GameType "25,W,8,8,N0,0"]\n\n1. 33-29 *\n', "move 1 (33-29)"),
            ('[GameType "25,W,8,8,N0,0"]\n\n{huff 40} 1. 10-14 *\n', "huff 40")]:
        f.write_text(text, encoding="utf-8")
        assert message in error_of(capsys, "replay", str(f))
    f.write_text("1. " + "9" * 5000 + "-18 *\n", encoding="utf-8")
    assert len(error_of(capsys, "replay", str(f))) < 200
    assert error_of(capsys, "replay", str(tmp_path / "none.pdn")) == (
        f"tavli: error: cannot read {tmp_path / 'none.pdn'}: No such file or directory")


# --- the web app: a Dama record is refused before any replay -------------------------------
def test_the_web_import_refuses_a_dama_record():
    from tavli.web.records import check_record

    with pytest.raises(RecordShapeError, match="a record of Dama games"):
        check_record(record_of(DamaGame("box")))


def test_a_position_outside_the_start_is_kept():
    g = random_game("russian", 4, plies=10, start="B:WK4,22:BKc5,d6")
    back = load_record(record_of(g))
    assert back.start == g.start == Position.from_fen("B:WK4,22:BKc5,d6", "russian")
    assert same_game(back, g)
