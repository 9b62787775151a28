"""Dama through the common commands (``tavli moves|show|hint dama ...``, ``tavli perft``,
``tavli bench``, ``tavli play --tui --game dama``), the old ``tavli dama`` lines and the
benchmark."""

import io
import json

import pytest

from tavli.bench.dama import bench_dama
from tavli.cli import main as tavli_main
from tavli.cli.args import dama_rule_set
from tavli.cli.common import dama_rules_for
from tavli.cli.dama import MAX_PERFT_DEPTH, modern_argv
from tavli.errors import RuleError
from tavli.play.dama.pdn import read_pdn


def run(capsys, *argv):
    assert tavli_main(list(argv)) == 0
    return capsys.readouterr().out


def test_dama_games_are_named_in_one_place():
    assert [dama_rule_set(n).name for n in ("dama", "box", "russian", "Shashki", "italian")
            ] == ["box", "box", "russian", "russian", "italian"]
    assert dama_rule_set("portes") is None and dama_rule_set(None) is None
    assert dama_rules_for("dama", ["huffing=false"]).compulsory
    for game, options, words in [("russian", ["huffing=true"], "applies to box only"),
                                 ("russian", ["huffing=no"], "applies to box only"),
                                 ("dama", ["jacoby=true"], "applies to backgammon only"),
                                 ("dama", ["nack=true"], "unknown rule option 'nack'"),
                                 ("dama", ["huffing=maybe"], "takes true or false"),
                                 ("dama", ["huffing"], "NAME=VALUE")]:
        with pytest.raises(RuleError, match=words):
            dama_rules_for(game, options)


def test_moves_show_perft_hint(capsys):
    assert run(capsys, "moves", "russian", "start").split() == [
        "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
    assert "c3xe5" in run(capsys, "moves", "dama", "W:Wc3,g3:Bd4,h8", "--algebraic")
    assert run(capsys, "moves", "dama", "W:Wc3,g3:Bd4,h8",
               "--rule", "huffing=false").split() == ["22x15"]
    assert json.loads(run(capsys, "moves", "box", "W:Wc3,g3:Bd4,h8", "--rule",
                          "huffing=false", "--json")) == {"moves": [{"move": "22x15"}]}
    assert "W:W21-32:B1-12" in run(capsys, "show", "dama", "start")
    out = run(capsys, "perft", "italian", "--depth", "4")
    assert "perft(4) = 1469" in out
    assert "score" in run(capsys, "hint", "dama", "start", "--level", "1")
    doc = json.loads(run(capsys, "hint", "shashki", "start", "--level", "beginner", "--json"))
    assert doc["depth"] == 2 and doc["move"] in run(capsys, "moves", "russian", "start")


def test_the_help_names_the_dama_games(capsys):
    for command in ("moves", "show", "hint"):
        with pytest.raises(SystemExit):
            tavli_main([command, "--help"])
        assert "backgammon|dama|russian|italian" in capsys.readouterr().out


def test_dice_options_are_refused_for_dama(capsys):
    assert "--dice: not for Dama" in tavli_error(capsys, "moves", "dama", "start", "-d", "31")
    assert "--match: not for Dama" in tavli_error(capsys, "hint", "dama", "start",
                                                  "--match", "5")
    assert "--algebraic names Dama's squares" in tavli_error(capsys, "moves", "portes",
                                                             "start", "--algebraic")
    assert "perft counts Dama's moves" in tavli_error(capsys, "perft", "portes")
    assert "applies to box only" in tavli_error(capsys, "moves", "italian", "start",
                                                 "--rule", "huffing=true")


def test_the_old_dama_lines_say_the_new_command_and_run_it(capsys):
    assert modern_argv(["dama", "moves", "start", "--rules", "italian"]) == [
        "moves", "italian", "start"]
    assert modern_argv(["--lang", "el", "dama", "play", "--black", "human",
                        "--no-huffing"]) == [
        "--lang", "el", "play", "--tui", "--game", "dama", "--rule", "huffing=false",
        "--white", "human", "--opponent", "human"]
    assert modern_argv(["dama", "match", "--rules", "russian", "--level", "1"])[:5] == [
        "bench", "strength", "neural:1", "minimax:4", "--game"]
    assert modern_argv(["dama", "pdn", "g.pdn"]) == ["replay", "g.pdn"]
    assert modern_argv(["moves", "dama", "start"]) == ["moves", "dama", "start"]
    capsys.readouterr()
    assert run(capsys, "dama", "moves", "start", "--rules", "russian").split()[0] == "21-17"
    assert capsys.readouterr().err == ""  # said once, with the run (below)
    assert tavli_main(["dama", "show", "start"]) == 0
    assert "'tavli dama show' is now 'tavli show dama start'" in capsys.readouterr().err


def test_bad_input_is_an_error(capsys):
    assert tavli_main(["moves", "dama", "X:nonsense"]) == 2
    assert "error" in capsys.readouterr().err


def test_terminal_game_scripted(tmp_path, dama_terminal):
    g, text = dama_terminal(["help", "moves", "22-19", "22-18", "hint", "fen",
                             f"save {tmp_path / 'g.pdn'}", "resign"],
                            "--opponent", "neural:1", game="russian")
    assert "error: 22-19 is not a legal move here" in text
    assert "Black (AI) plays" in text and "Game over: 0-1 (resignation)" in text
    assert g.moves[0].start == 22
    saved = (tmp_path / "g.pdn").read_text()
    assert saved.startswith("[Event") and '[Result "0-1"]' in saved  # saved after every move
    assert '[Black "neural:beginner"]' in saved


def test_ai_against_ai_in_the_terminal(dama_terminal):
    g, _text = dama_terminal([], "--white", "neural:1", "--opponent", "beginner")
    assert g.is_over()


def test_a_game_saved_is_resumed(tmp_path, dama_terminal, capsys):
    path = tmp_path / "g.pdn"
    _g, text = dama_terminal(["22-18", "quit"], "--rule", "huffing=false", "--opponent",
                             "neural:1", "--save", str(path))
    assert f"resume with: tavli play --tui --resume {path}" in text
    g, text = dama_terminal(["quit"], "--resume", str(path), game=None)
    assert "Resumed" in text and "White: player, Black: AI (beginner)" in text
    assert len(g.moves) == 2 and g.rules.compulsory and g.turn == 0
    assert "--rule cannot be combined with --resume" in tavli_error(
        capsys, "play", "--tui", "--resume", str(path), "--rule", "huffing=true")
    path.write_text(path.read_text().replace('[Result "*"]', '[Result "1-0"]'))
    assert "the game is over (1-0)" in tavli_error(capsys, "play", "--tui", "--resume",
                                                   str(path))


def test_dice_options_are_refused_in_the_dama_terminal(capsys):
    assert "--points: not for Dama" in tavli_error(capsys, "play", "--tui", "--game", "dama",
                                                   "--points", "3")
    assert "unknown player 'greedy' for Dama" in tavli_error(
        capsys, "play", "--tui", "--game", "italian", "--opponent", "greedy")
    assert "--position: a Dama start" in tavli_error(capsys, "play", "--tui", "--game",
                                                     "portes", "--position", "W:W21:B1")


def test_bench_prints_ratio():
    lines = []
    res = bench_dama(positions=2, depth=2, start_depth=5, print_fn=lines.append)
    assert res["russian"]["start_perft"]["leaves"] == 7482
    assert res["italian"]["start_perft"]["leaves"] == 7361
    if "ratio" in res["russian"]:
        assert res["russian"]["counts_agree"] and res["italian"]["counts_agree"]
    assert len(lines) == 4


def test_the_ai_against_minimax(capsys):
    res = json.loads(run(capsys, "bench", "strength", "neural:1", "minimax:2", "--game",
                         "russian", "--games", "2"))
    assert res["games"] == 2 and res["rules"] == "russian"
    assert "usage: tavli bench strength neural[:LEVEL] minimax" in tavli_error(
        capsys, "bench", "strength", "greedy", "random", "--game", "dama", "--games", "2")


def tavli_error(capsys, *argv):
    """Run ``tavli ...`` (the main command, which reports only tavli's own errors) and
    return its one-line error message."""
    assert tavli_main(list(argv)) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    lines = cap.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tavli: error: "), cap.err
    return lines[0]


def test_non_ascii_digits_and_huge_numbers(capsys, tmp_path):
    assert "cannot read square '²'" in tavli_error(capsys, "show", "dama", "W:W\u00b2:B1")
    assert "not 1..32" in tavli_error(capsys, "moves", "dama", "W:W1-99999:B1")
    f = tmp_path / "g.pdn"
    f.write_text('[FEN "W:W\u00b2:B1"]\n\n*\n', encoding="utf-8")
    assert "bad FEN tag" in tavli_error(capsys, "replay", str(f))
    f.write_text('[Rules "box"]\n\n1. *\u00b2 22-18 *\n', encoding="utf-8")
    assert "move 1 (huff ² before 22-18)" in tavli_error(capsys, "replay", str(f))
    f.write_text("1. " + "9" * 5000 + "-18 *\n", encoding="utf-8")
    assert len(tavli_error(capsys, "replay", str(f))) < 200


def test_unreadable_pdn_files(capsys, tmp_path):
    assert tavli_error(capsys, "replay", str(tmp_path / "none.pdn")) == (
        f"tavli: error: cannot read {tmp_path / 'none.pdn'}: No such file or directory")
    assert tavli_error(capsys, "replay", str(tmp_path), "--from", "pdn") == (
        f"tavli: error: cannot read {tmp_path}: Is a directory")
    latin = tmp_path / "latin.pdn"  # the common reader takes Latin-1 text too (old files)
    latin.write_bytes(b'[Event "\xff\xfe"]\n22-18 *\n')
    assert run(capsys, "replay", str(latin)).startswith("game 1: russian, 1 move, result *")
    binary = tmp_path / "bin.pdn"
    binary.write_bytes(b'[Event "\xff\x00"]\n')
    assert tavli_error(capsys, "replay", str(binary)) == (
        f"tavli: error: {binary} is not a text file")


def test_bad_numbering_in_pdn(capsys, tmp_path):
    f = tmp_path / "g.pdn"
    for text, msg in [('[GameType "25,W,8,8,NX,0"]\n\n1. 22-18 *\n', "'NX' must be N0"),
                      ('[GameType "25,W,8,8,N0,0"]\n\n1. 33-29 *\n', "move 1 (33-29)"),
                      ('[GameType "25,W,8,8,N0,0"]\n[FEN "W:WK33:B1"]\n\n*\n', "bad FEN"),
                      ('[GameType "25,W,8,8,N0,0"]\n\n{huff 40} 1. 10-14 *\n', "huff 40")]:
        f.write_text(text, encoding="utf-8")
        assert msg in tavli_error(capsys, "replay", str(f))


def test_perft_depth_is_capped(capsys):
    assert tavli_error(capsys, "perft", "dama", "start", "--depth", "100000000000") == (
        f"tavli: error: --depth: perft goes to depth {MAX_PERFT_DEPTH} at most, "
        f"got 100000000000")
    assert tavli_error(capsys, "bench", "strength", "neural", "minimax:21", "--game", "dama",
                       "--games", "2").startswith(
        "tavli: error: the minimax player's depth must be from 1 to 20, got 21")


@pytest.mark.parametrize("command", [
    ["play", "--tui", "--game", "dama", "--opponent", "neural:{}"],
    ["play", "--tui", "--game", "russian", "--white", "ai:{}"],
    ["hint", "dama", "start", "--level", "{}"],
    ["bench", "strength", "neural:{}", "minimax", "--game", "italian", "--games", "2"]])
@pytest.mark.parametrize("level", ["zzz", "time:inf", "depth:0", "depth:99999"])
def test_level_checked_before_anything_starts(capsys, monkeypatch, command, level):
    monkeypatch.setattr("sys.stdin", io.StringIO("22-18\nresign\n"))
    assert "Dama AI level" in tavli_error(capsys, *(w.format(level) for w in command))


def test_pdn_replay_reads_a_saved_game(tmp_path, dama_terminal, capsys):
    path = tmp_path / "g.pdn"
    dama_terminal(["22-18", "resign"], "--opponent", "human", "--save", str(path))
    assert read_pdn(path.read_text()).moves[0].start == 22
    assert run(capsys, "replay", str(path)).startswith(
        "game 1: box, 1 move, result *, final B:W18,21,23-32:B1-12")
    assert tavli_main(["dama", "pdn", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("game 1: box, 1 move,")
    assert "'tavli dama pdn' is now 'tavli replay " in err


@pytest.mark.parametrize("option", [["--jobs", "2"], ["--ray"], ["--ray-address", "h:1"],
                                    ["--log", "x.jsonl"]])
def test_the_dice_games_job_options_are_refused_for_dama(capsys, option):
    assert tavli_main(["bench", "strength", "neural:0", "minimax:1", "--game", "italian",
                       *option]) == 2
    assert "not for Dama" in capsys.readouterr().err
