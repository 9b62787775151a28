"""The ``dama`` commands, terminal play and the benchmark."""

import argparse

from tavli.dama.bench import bench_dama
from tavli.dama.cli import add_dama_commands, main
from tavli.dama.tui import play_tui


def run(capsys, *argv):
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_registers_on_a_parser():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="command")
    add_dama_commands(sub)
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
    assert main(["moves", "X:nonsense"]) == 2
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
