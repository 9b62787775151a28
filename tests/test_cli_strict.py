"""The command line refuses what it cannot honour, in one line (docs/cli.md): dice with
trailing characters, an odd number of duplicate-dice games, --batch with a position,
moves of a finished game, huge arguments echoed back, --save onto a folder, a file that
is not a network, and argparse's own errors (no usage block)."""

from __future__ import annotations

import io
import json
import sys

import pytest

from tavli import Position
from tavli.cli import main
from tavli.engine.board import parse_dice
from tavli.errors import ParseError

# white has borne off all 15, black none: white has won a gammon (black to move)
OVER = Position.from_points("portes", {}, {6: 15}, 1)


def run(capsys, monkeypatch, argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str, prefix: str = "tavli: error: ") -> str:
    assert err.startswith(prefix) and err.count("\n") == 1, err
    assert "usage:" not in err and "Traceback" not in err
    return err[len(prefix):-1]


# --- dice -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["66x", "6-6-", "3--1", "3 1 2", "x31", "31/", "6 6 6"])
def test_dice_with_anything_more_are_refused(text):
    with pytest.raises(ParseError, match="two digits 1-6"):
        parse_dice(text)


@pytest.mark.parametrize(("text", "dice"), [("31", (3, 1)), ("3-1", (3, 1)), ("3 1", (3, 1)),
                                            (" 6x4 ", (6, 4)), ("5,2", (5, 2)),
                                            ("2/2", (2, 2))])
def test_dice_forms_still_read(text, dice):
    assert parse_dice(text) == dice


def test_moves_refuses_66x(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["moves", "portes", "start", "--dice", "66x"])
    assert code == 2 and out == ""
    assert "'66x'" in one_error_line(err)


# --- bench strength --games -------------------------------------------------------------

@pytest.mark.parametrize("games", ["3", "11"])
def test_odd_game_counts_are_refused(capsys, tmp_path, monkeypatch, games):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["bench", "strength", "greedy", "random", "--game", "portes", "--games", games])
    assert e.value.code == 2
    msg = one_error_line(capsys.readouterr().err, "tavli bench: error: ")
    assert msg == (f"argument --games: an even number of games is needed (dice are played "
                   f"twice), got '{games}'")
    assert list(tmp_path.iterdir()) == []


# --- --batch takes nothing else -----------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["moves", "portes", "start", "--dice", "31", "--batch"],
    ["moves", "portes", "--batch"],
    ["moves", "--batch", "--dice", "31"],
    ["hint", "portes", "start", "--batch"],
])
def test_batch_refuses_positional_arguments_and_dice(capsys, monkeypatch, argv):
    code, out, err = run(capsys, monkeypatch, argv, stdin="portes start 31\n")
    assert code == 2 and out == ""  # no line of standard input was answered
    msg = one_error_line(err)
    assert msg.startswith("--batch reads 'GAME POSITION DICE' lines from standard input")
    assert ("GAME, POSITION, --dice" in msg) == (argv[2:4] == ["start", "--dice"])


def test_batch_alone_still_works(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["moves", "--batch"], stdin="fevga start 66\n")
    assert code == 0 and err == ""
    assert [e["move"] for e in json.loads(out)["moves"]] == ["24/18"]


# --- a finished game ----------------------------------------------------------------------

@pytest.mark.parametrize("command", ["moves", "hint"])
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_finished_game_says_who_won(capsys, monkeypatch, command, json_flag):
    code, out, err = run(capsys, monkeypatch,
                         [command, "portes", OVER.id(), "--dice", "31", *json_flag])
    assert code == 2 and out == ""
    assert one_error_line(err) == "the game is over: white wins 2 points (gammon)"


def test_a_finished_game_in_batch_is_an_error_line(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["moves", "--batch"],
                         stdin=f"portes {OVER.id()} 31\nfevga start 66\n")
    assert code == 0 and err == ""
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0] == {"error": "line 1: the game is over: white wins 2 points (gammon)"}
    assert "moves" in lines[1]


def test_a_mother_checker_win_is_over_too(capsys, monkeypatch):
    # black's mother checker (his last on his 24-point) pinned by white: white has won
    pos = Position.from_points("plakoto", {1: 1, 6: 14}, {24: 1, 10: 14}, 1,
                               pinned=[(1, 24)])
    code, out, err = run(capsys, monkeypatch, ["moves", "plakoto", pos.id(), "-d", "21"])
    assert code == 2
    assert one_error_line(err) == "the game is over: white wins 2 points (mother)"


# --- huge arguments -----------------------------------------------------------------------

def test_a_huge_argument_is_not_echoed_in_full(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch,
                         ["moves", "portes", "A" * 100_000, "--dice", "31"])
    assert code == 2 and out == ""
    msg = one_error_line(err)
    assert len(msg) == 300 and msg.endswith("...")


@pytest.mark.parametrize("argv", [
    ["x" * 100_000],
    ["bench", "strength", "greedy", "random", "--games", "9" * 100_000],
    ["moves", "portes", "start", "--dice", "31", "--" + "z" * 100_000],
])
def test_a_huge_argument_in_a_usage_error_is_cut(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 400 and "usage:" not in err


# --- --save onto a folder, a file that is not a network -----------------------------------

def test_save_onto_a_directory_says_so(capsys, monkeypatch, tmp_path):
    code, out, err = run(capsys, monkeypatch, ["play", "--tui", "--save", str(tmp_path)])
    assert code == 2
    assert one_error_line(err) == f"{tmp_path} is a directory: --save needs a file name"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("content", [b"not weights\n", b"", b"PK\x03\x04 broken zip"])
def test_net_file_that_is_not_a_network(capsys, monkeypatch, tmp_path, content):
    junk = tmp_path / "weights.txt"
    junk.write_bytes(content)
    code, out, err = run(capsys, monkeypatch, ["bench", "strength", f"net:{junk}", "greedy",
                                               "--game", "plakoto", "--games", "2"])
    assert code == 2 and out == ""
    assert one_error_line(err) == f"{junk}: not a tavli network file"


def test_npz_without_the_network_arrays(capsys, monkeypatch, tmp_path):
    import numpy as np

    other = tmp_path / "other.npz"
    np.savez(other, a=np.zeros(3))
    code, out, err = run(capsys, monkeypatch, ["bench", "strength", f"net:{other}", "greedy",
                                               "--game", "plakoto", "--games", "2"])
    assert code == 2 and one_error_line(err) == f"{other}: not a tavli network file"


# --- argparse errors: one line --------------------------------------------------------------

@pytest.mark.parametrize(("argv", "prog", "words"), [
    (["frobnicate"], "tavli", "invalid choice: 'frobnicate'"),
    (["moves", "--bogus"], "tavli", "unrecognized arguments: --bogus"),
    (["moves", "portes", "start", "--dice"], "tavli moves", "expected one argument"),
    (["analyse"], "tavli analyse", "required: record"),
    (["hint", "portes", "start", "-d", "31", "extra"], "tavli", "unrecognized arguments"),
    (["bench", "nope"], "tavli bench", "invalid choice: 'nope'"),
    (["train", "plakoto", "--alpha", "fast"], "tavli train", "invalid float value"),
    (["distill"], "tavli distill", "required: STEP"),
    (["distill", "label", "t.npz"], "tavli distill label", "required"),
    (["perft", "dama", "--depth", "x"], "tavli perft", "argument --depth"),
    (["dama", "play", "--white", "robot"], "tavli dama", "invalid choice: 'robot'"),
    (["replay"], "tavli replay", "required: file"),
    (["play", "--port", "http"], "tavli play", "invalid int value"),
])
def test_usage_errors_are_one_line(capsys, argv, prog, words):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    msg = one_error_line(capsys.readouterr().err, f"{prog}: error: ")
    assert words in msg

