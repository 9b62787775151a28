"""The ``dama`` commands, terminal play and the benchmark."""

import argparse
import io

import pytest

from tavli.bench.dama import bench_dama
from tavli.cli import main as tavli_main
from tavli.cli.dama import MAX_PERFT_DEPTH, register
from tavli.tui.dama import play_tui


def run(capsys, *argv):
    assert tavli_main(["dama", *argv]) == 0
    return capsys.readouterr().out


def test_registers_on_a_parser():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="command")
    register(sub)
    args = p.parse_args(["dama", "moves", "start", "--rules", "italian"])
    assert args.func.__name__ == "cmd_moves" and args.rules == "italian"


def test_moves_show_perft_hint(capsys):
    assert run(capsys, "moves", "start", "--rules", "russian").split() == [
        "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
    assert "c3xe5" in run(capsys, "moves", "W:Wc3,g3:Bd4,h8", "--algebraic")
    assert run(capsys, "moves", "W:Wc3,g3:Bd4,h8", "--no-huffing").split() == ["22x15"]
    assert "W:W21-32:B1-12" in run(capsys, "show", "start")
    out = run(capsys, "perft", "--rules", "italian", "--depth", "4")
    assert "perft(4) = 1469" in out
    assert "score" in run(capsys, "hint", "start", "--level", "1")


def test_bad_input_is_an_error(capsys):
    assert tavli_main(["dama", "moves", "X:nonsense"]) == 2
    assert "error" in capsys.readouterr().err


def test_terminal_game_scripted(tmp_path):
    out = []
    lines = iter(["help", "moves", "22-19", "22-18", "hint", "fen",
                  f"save {tmp_path / 'g.pdn'}", "resign"])
    g = play_tui("russian", level="1", input_fn=lambda _: next(lines),
                 print_fn=lambda *a: out.append(" ".join(map(str, a))))
    text = "\n".join(out)
    assert "error: 22-19 is not a legal move here" in text
    assert "Black (AI) plays" in text and "Game over: 0-1 (resignation)" in text
    assert g.moves[0].start == 22
    assert (tmp_path / "g.pdn").read_text().startswith("[Event")


def test_ai_against_ai_in_the_terminal():
    g = play_tui("box", level="1", white="ai", black="ai", print_fn=lambda *a: None)
    assert g.is_over()


def test_bench_prints_ratio():
    lines = []
    res = bench_dama(positions=2, depth=2, start_depth=5, print_fn=lines.append)
    assert res["russian"]["start_perft"]["leaves"] == 7482
    assert res["italian"]["start_perft"]["leaves"] == 7361
    if "ratio" in res["russian"]:
        assert res["russian"]["counts_agree"] and res["italian"]["counts_agree"]
    assert len(lines) == 4


def tavli_error(capsys, *argv):
    """Run ``tavli dama ...`` (the main command, which reports only tavli's own errors)
    and return its one-line error message."""
    assert tavli_main(["dama", *argv]) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    lines = cap.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tavli: error: "), cap.err
    return lines[0]


def test_non_ascii_digits_and_huge_numbers(capsys, tmp_path):
    assert "cannot read square '²'" in tavli_error(capsys, "show", "W:W\u00b2:B1")
    assert "not 1..32" in tavli_error(capsys, "moves", "W:W1-99999:B1")
    f = tmp_path / "g.pdn"
    f.write_text('[FEN "W:W\u00b2:B1"]\n\n*\n', encoding="utf-8")
    assert "bad FEN tag" in tavli_error(capsys, "pdn", str(f))
    f.write_text('[Rules "box"]\n\n1. *\u00b2 22-18 *\n', encoding="utf-8")
    assert "move 1 (huff ² before 22-18)" in tavli_error(capsys, "pdn", str(f))
    f.write_text("1. " + "9" * 5000 + "-18 *\n", encoding="utf-8")
    assert len(tavli_error(capsys, "pdn", str(f))) < 200


def test_unreadable_pdn_files(capsys, tmp_path):
    assert tavli_error(capsys, "pdn", str(tmp_path / "none.pdn")) == (
        f"tavli: error: cannot read {tmp_path / 'none.pdn'}: No such file or directory")
    assert tavli_error(capsys, "pdn", str(tmp_path)) == (
        f"tavli: error: cannot read {tmp_path}: Is a directory")
    bad = tmp_path / "bad.pdn"
    bad.write_bytes(b'[Event "\xff\xfe"]\n')
    assert tavli_error(capsys, "pdn", str(bad)).startswith(
        f"tavli: error: cannot read {bad}: not UTF-8 text")


def test_bad_numbering_in_pdn(capsys, tmp_path):
    f = tmp_path / "g.pdn"
    for text, msg in [('[GameType "25,W,8,8,NX,0"]\n\n1. 22-18 *\n', "'NX' must be N0"),
                      ('[GameType "25,W,8,8,N0,0"]\n\n1. 33-29 *\n', "move 1 (33-29)"),
                      ('[GameType "25,W,8,8,N0,0"]\n[FEN "W:WK33:B1"]\n\n*\n', "bad FEN"),
                      ('[GameType "25,W,8,8,N0,0"]\n\n{huff 40} 1. 10-14 *\n', "huff 40")]:
        f.write_text(text, encoding="utf-8")
        assert msg in tavli_error(capsys, "pdn", str(f))


def test_perft_depth_is_capped(capsys):
    assert tavli_error(capsys, "perft", "--depth", "100000000000", "start") == (
        f"tavli: error: --depth: perft goes to depth {MAX_PERFT_DEPTH} at most, "
        f"got 100000000000")
    assert tavli_error(capsys, "match", "--depth", "21", "--games", "1").startswith(
        "tavli: error: the minimax player's depth must be from 1 to 20, got 21")


@pytest.mark.parametrize("command", [["play"], ["play", "--white", "ai"], ["hint", "start"],
                                     ["match", "--games", "1"]])
@pytest.mark.parametrize("level", ["zzz", "time:inf", "depth:0", "depth:99999"])
def test_level_checked_before_anything_starts(capsys, monkeypatch, command, level):
    monkeypatch.setattr("sys.stdin", io.StringIO("22-18\nresign\n"))
    assert "Dama AI level" in tavli_error(capsys, *command, "--level", level)
