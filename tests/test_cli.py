"""The ``tavli`` command (docs/cli.md): ``tavli moves`` text, JSON and batch output, the
position forms, ``--rule``, ``tavli show`` and the one-line errors with exit status 2.
Called in-process through ``tavli.cli.main`` except for one run of the installed script.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tavli import Position, Rules
from tavli.cli import main

NO_MOVE = Position.from_points("portes", {25: 1, 13: 14},
                               {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
HIGHER = Position.from_points("portes", {24: 1, 1: 14}, {8: 2})
PINNED = Position.from_points("plakoto", {9: 1, 24: 14}, {16: 1, 20: 1, 24: 13}, 1,
                              pinned=[(1, 16)])


def run(capsys, monkeypatch, argv, stdin=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def expected_entries(pos, dice, rules=None):
    out = []
    for m in pos.legal_moves(dice, rules):
        e = {"move": str(m), "position": m.after.id()}
        if pos.game_name in ("portes", "backgammon"):
            e["gnubg_id"] = m.after.gnubg_id()
        out.append(e)
    return out


# --- tavli moves ----------------------------------------------------------------------

def test_moves_text(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["moves", "portes", "start", "--dice", "31"])
    assert code == 0 and err == ""
    assert out.splitlines() == [str(m) for m in Position.start("portes").legal_moves("31")]
    assert len(out.splitlines()) == 16


def test_moves_text_no_move(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["moves", "portes", NO_MOVE.id(), "-d", "66"])
    assert code == 0
    assert out == "no legal move with 6-6: the turn passes\n"


@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga", "backgammon"])
def test_moves_json_shape(capsys, monkeypatch, game):
    code, out, err = run(capsys, monkeypatch,
                         ["moves", game, "start", "--dice", "31", "--json"])
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert list(doc) == ["moves"]
    keys = {"move", "position", "gnubg_id"} if game in ("portes", "backgammon") else \
        {"move", "position"}
    assert doc["moves"] and all(set(e) == keys for e in doc["moves"])
    assert doc["moves"] == expected_entries(Position.start(game), "31")
    for e in doc["moves"]:
        after = Position.from_id(e["position"])
        assert after.turn == 1 and after.game_name == game


def test_moves_json_fevga_opening(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["moves", "fevga", "start", "--dice", "66",
                                             "--json"])
    assert json.loads(out) == {"moves": [
        {"move": "24/18", "position": Position.start("fevga").play("24/18", "66").id()}]}


def test_moves_json_empty(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["moves", "portes", NO_MOVE.id(), "--dice",
                                             "55", "--json"])
    assert code == 0 and json.loads(out) == {"moves": []}


def test_position_forms_agree(capsys, monkeypatch):
    start = Position.start("backgammon")
    forms = [("start", None), (start.id(), None), (start.gnubg_id(), None),
             ("-", json.dumps(start.to_json()))]
    outs = []
    for text, stdin in forms:
        code, out, err = run(capsys, monkeypatch,
                             ["moves", "backgammon", text, "--dice", "42", "--json"], stdin)
        assert code == 0, err
        outs.append(json.loads(out))
    assert all(o == outs[0] for o in outs)
    assert outs[0]["moves"] == expected_entries(start, "42")


def test_gnubg_id_for_portes(capsys, monkeypatch):
    after = Position.start("portes").play("8/5 6/5", "31")   # black to move
    code, out, _ = run(capsys, monkeypatch,
                       ["moves", "portes", after.gnubg_id(), "--dice", "64", "--json"])
    # a gnubg ID holds no turn: it is read with white to move, from the mover's view
    mirrored = Position("portes", after.array[[1, 0, 2, 3]], 0)
    assert json.loads(out)["moves"] == expected_entries(mirrored, "64")


def test_json_document_on_stdin_plakoto(capsys, monkeypatch):
    doc = json.dumps(PINNED.to_json())
    code, out, _ = run(capsys, monkeypatch, ["moves", "plakoto", "-", "--dice", "41",
                                             "--json"], stdin=doc)
    assert code == 0
    assert [e["move"] for e in json.loads(out)["moves"]] == [
        str(m) for m in PINNED.legal_moves("41")]
    assert sorted(e["move"] for e in json.loads(out)["moves"]) == [
        "20/15", "24/19", "24/20 24/23"]


def test_rule_option(capsys, monkeypatch):
    base = ["moves", "portes", HIGHER.id(), "--dice", "61"]
    _, out, _ = run(capsys, monkeypatch, base)
    assert sorted(out.splitlines()) == ["24/18", "24/23"]
    _, out, _ = run(capsys, monkeypatch, base + ["--rule", "must_play_higher=true"])
    assert out.splitlines() == ["24/18"]
    fevga = Position.from_points("fevga", {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 9: 1},
                                 {24: 15})
    _, out, _ = run(capsys, monkeypatch, ["moves", "fevga", fevga.id(), "--dice", "51",
                                          "--rule", "starting_quarter_rule=off",
                                          "--rule", "prime_rule=forbid", "--json"])
    rules = Rules.for_game("fevga", ["starting_quarter_rule=off", "prime_rule=forbid"])
    assert json.loads(out)["moves"] == expected_entries(fevga, "51", rules)
    assert "24/19 9/8" in {e["move"] for e in json.loads(out)["moves"]}


def test_batch(capsys, monkeypatch):
    lines = [
        "portes start 31",
        "",
        "# a comment",
        "fevga start 66",
        "portes XXXXX 31",
        "chess start 31",
        "portes start 71",
        "portes start",
        f"plakoto {PINNED.id()} 41",
        f"portes {NO_MOVE.id()} 66",
    ]
    code, out, err = run(capsys, monkeypatch, ["moves", "--batch"], "\n".join(lines) + "\n")
    assert code == 0
    rows = [json.loads(x) for x in out.splitlines()]
    assert len(rows) == 8
    assert rows[0] == {"moves": expected_entries(Position.start("portes"), "31")}
    assert rows[1] == {"moves": expected_entries(Position.start("fevga"), "66")}
    for k in (2, 3, 4, 5):
        assert list(rows[k]) == ["error"] and isinstance(rows[k]["error"], str)
    assert "chess" in rows[3]["error"] and "71" in rows[4]["error"]
    # every error names its input line (blank and comment lines count)
    assert [rows[k]["error"].split(":")[0] for k in (2, 3, 4, 5)] == [
        "line 5", "line 6", "line 7", "line 8"]
    assert rows[6] == {"moves": expected_entries(PINNED, "41")}
    assert rows[7] == {"moves": []}


def test_batch_with_rule(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch,
                       ["moves", "--batch", "--rule", "must_play_higher=true"],
                       f"portes {HIGHER.id()} 61\nfevga start 31\n")
    rows = [json.loads(x) for x in out.splitlines()]
    assert [e["move"] for e in rows[0]["moves"]] == ["24/18"]
    assert rows[1]["moves"][0]["move"] == "24/20"


# --- tavli show -----------------------------------------------------------------------

@pytest.mark.parametrize("pos", [
    Position.start("portes"), Position.start("fevga", 1), PINNED,
    Position.start("backgammon").play("8/5 6/5", "31"),
    Position.from_points("fevga", {24: 14, 18: 1}, {24: 15}),
])
def test_show_json_round_trip(capsys, monkeypatch, pos):
    code, out, _ = run(capsys, monkeypatch, ["show", pos.id(), "--json"])
    assert code == 0
    doc = json.loads(out)
    assert doc == pos.to_json() and doc["id"] == pos.id()
    assert Position.from_json(doc) == pos
    code, out2, _ = run(capsys, monkeypatch, ["show", pos.game_name, "-", "--json"], out)
    assert code == 0 and json.loads(out2) == doc


def test_show_text(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["show", "portes", "start"])
    assert code == 0 and Position.start("portes").id() in out
    assert out == str(Position.start("portes")) + "\n"


def test_show_gnubg_id(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["show", "4HPwATDgc/ABMA", "--json"])
    assert json.loads(out)["game"] == "backgammon"
    code, out, _ = run(capsys, monkeypatch, ["show", "portes", "4HPwATDgc/ABMA", "--json"])
    assert json.loads(out) == Position.start("portes").to_json()


# --- errors ---------------------------------------------------------------------------

@pytest.mark.parametrize("argv,stdin,words", [
    (["moves", "portes", "AAAA", "--dice", "31"], None, "position ID"),
    (["moves", "portes", "#" * 15, "--dice", "31"], None, "position ID"),
    (["moves", "portes", "start", "--dice", "71"], None, "1-6"),
    (["moves", "portes", "start", "--dice", "3"], None, "dice"),
    (["moves", "chess", "start", "--dice", "31"], None, "unknown game"),
    (["moves", "portes", "start", "--dice", "31", "--rule", "foo=1"], None, "foo"),
    (["moves", "portes", "start", "--dice", "31", "--rule", "prime_rule=off"], None,
     "prime_rule"),
    (["moves", "fevga", "start", "--dice", "31", "--rule", "prime_rule=maybe"], None,
     "maybe"),
    (["moves", "portes", "start", "--dice", "31", "--rule", "must_play_higher"], None,
     "NAME=VALUE"),
    (["moves", "fevga", Position.start("portes").id(), "--dice", "31"], None, "portes"),
    (["moves", "fevga", "4HPwATDgc/ABMA", "--dice", "31"], None, "gnubg"),
    (["moves", "portes", "start"], None, "usage"),
    (["moves", "portes", "-", "--dice", "31"], "", "standard input"),
    (["moves", "portes", "-", "--dice", "31"], "{not json", "JSON"),
    (["moves", "portes", "-", "--dice", "31"], '{"game": "portes"}', "white"),
    (["moves", "portes", "-", "--dice", "31"],
     json.dumps({"game": "portes", "white": {"points": [15] + [0] * 23},
                 "black": {"points": [0] * 23 + [15]}}), "both sides"),
    (["show", "start"], None, "game"),
    (["show", "portes", "nonsense-id!"], None, "position ID"),
])
def test_bad_input_gives_one_line_and_status_2(capsys, monkeypatch, argv, stdin, words):
    code, out, err = run(capsys, monkeypatch, argv, stdin)
    assert code == 2
    assert out == ""
    assert err.startswith("tavli: error: ") and err.endswith("\n")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert words.lower() in err.lower()


def test_installed_command(tmp_path):
    exe = Path(sys.executable).with_name("tavli")
    assert exe.exists(), exe
    res = subprocess.run([str(exe), "moves", "fevga", "start", "--dice", "66", "--json"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == {"moves": [
        {"move": "24/18", "position": Position.start("fevga").play("24/18", "66").id()}]}
    res = subprocess.run([str(exe), "moves", "portes", "start", "--dice", "9"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith("tavli: error: ") and res.stderr.count("\n") == 1
