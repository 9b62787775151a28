"""Terminal play driven through ``tavli play`` with scripted standard input."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from tavli.board import Position
from tavli.cli import main
from tavli.errors import TavliError
from tavli.game import Game
from tavli.match import Match
from tavli.record import load


def play(monkeypatch, capsys, args, lines=()):
    """Run ``tavli play ARGS`` with ``lines`` on standard input; (status, out, err)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    rc = main(["play", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def opened(game="portes", seed=3):
    """The library's own game with the same dice, after the opening throw."""
    g = Game(game, seed=seed)
    g.roll()
    return g


def engine_error(g, text):
    with pytest.raises(TavliError) as e:
        g.play(text)
    return str(e.value)


def test_illegal_malformed_then_legal_by_text_and_number(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.json"
    g = opened()
    first = g.position
    illegal = engine_error(g, "6/off")
    malformed = engine_error(g, "hello")
    assert g.position == first  # nothing changed in the library's game either
    text_move = str(g.legal_moves()[-1])
    g.play(text_move)
    g.roll()
    by_number = g.legal_moves()[1]
    g.play(by_number)

    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "portes", "--points", "1", "--seed", "3",
                         "--opponent", "human", "--save", str(path)],
                        ["6/off", "hello", "99", text_move, "", "2", "", "save", "quit"])
    assert rc == 0, err
    assert f"✗ {illegal}" in out and f"✗ {malformed}" in out
    assert "no move number 99" in out
    assert f"plays {text_move}." in out and f"plays {by_number}." in out
    assert f"Saved to {path}." in out and "resume with: tavli play --tui --resume" in out
    # the board: both rows of point numbers, the bar, pip counts, the legal moves
    assert "13 14 15 16 17 18      19 20 21 22 23 24" in out
    assert "12 11 10  9  8  7       6  5  4  3  2  1" in out
    assert "BAR" in out and "pips 167" in out and "Legal moves" in out

    saved = load(path)
    assert isinstance(saved, Game)
    assert saved.position == g.position
    assert [str(m) for m in saved.moves] == [text_move, str(by_number)]
    data = json.loads(path.read_text())
    assert data["seed"] == 3 and data["tui"]["white"] == "human"


TURNS = {  # what a hot-seat human types each turn: the first move, Enter to confirm it
    "portes": ["1", ""], "plakoto": ["1", ""], "fevga": ["1", ""],
    "backgammon": ["", "1", ""],  # the cube is offered before each roll: Enter rolls
}


@pytest.mark.parametrize("game,stop", [("plakoto", 4), ("portes", 0), ("fevga", 6),
                                       ("backgammon", 0), ("backgammon", 2),
                                       ("backgammon", 3)])
def test_resume_continues_as_if_never_stopped(monkeypatch, capsys, tmp_path, game, stop):
    base = ["--tui", "--game", game, "--points", "1", "--seed", "11", "--opponent", "human"]
    lines = ["1", ""] + TURNS[game] * 4
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    rc, _, _ = play(monkeypatch, capsys, base + ["--save", str(whole)], lines + ["quit"])
    assert rc == 0
    # stop (end of input) after a few lines, then resume from the file
    rc, _, _ = play(monkeypatch, capsys, base + ["--save", str(part)], lines[:stop])
    assert rc == 0
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--resume", str(part)],
                        lines[stop:] + ["quit"])
    assert rc == 0, err
    assert "Resumed" in out
    a, b = json.loads(whole.read_text()), json.loads(part.read_text())
    assert a["games"][0]["events"] == b["games"][0]["events"]
    assert len(b["games"][0]["events"]) >= 5
    assert a["tui"] == b["tui"]


def test_resume_keeps_the_dice_already_thrown(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.json"
    args = ["--tui", "--game", "portes", "--points", "1", "--opponent", "human"]
    play(monkeypatch, capsys, args + ["--save", str(path)], [])  # no seed: real dice
    kept = json.loads(path.read_text())["games"][0]["pending_dice"]
    for _ in range(3):  # quitting and resuming does not throw again
        rc, out, err = play(monkeypatch, capsys, ["--tui", "--resume", str(path)], [])
        assert rc == 0, err
        assert json.loads(path.read_text())["games"][0]["pending_dice"] == kept


def test_resume_a_broken_file_fails_and_leaves_it(monkeypatch, capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "tavli-record", "games": [')
    before = path.read_bytes()
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--resume", str(path)], ["1"])
    assert rc == 2
    assert "cannot resume from" in err and str(path) in err
    assert path.read_bytes() == before

    # valid JSON that does not replay
    g = Game("portes", seed=1)
    g.roll()
    g.play(g.legal_moves()[0])
    from tavli.record import game_record

    rec = game_record(g)
    rec["games"][0]["events"][-1]["move"] = "6/off"
    path.write_text(json.dumps(rec))
    before = path.read_bytes()
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--resume", str(path)], [])
    assert rc == 2 and "cannot resume" in err and path.read_bytes() == before

    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--resume", str(tmp_path / "missing.json")], [])
    assert rc == 2 and "cannot resume" in err


def test_resume_refuses_other_game_settings(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.json"
    play(monkeypatch, capsys, ["--tui", "--seed", "1", "--save", str(path)], ["quit"])
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--resume", str(path), "--game", "fevga"], [])
    assert rc == 2 and "--game" in err


def test_end_of_input_quits_and_saves(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.json"
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "fevga", "--points", "1", "--seed", "2",
                         "--save", str(path)], [])
    assert rc == 0 and "Bye." in out
    assert isinstance(load(path), Game)


def test_terminal_options_need_tui(monkeypatch, capsys):
    # plain `tavli play` starts the browser app; options of the terminal mode say so
    rc, out, err = play(monkeypatch, capsys, ["--seed", "1"], ["quit"])
    assert rc == 2
    assert "--tui" in err


def test_bot_against_bot_plays_a_game_to_the_end(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.json"
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "fevga", "--points", "1", "--seed", "5",
                         "--white", "greedy", "--opponent", "random", "--save", str(path)])
    assert rc == 0, err
    assert "Game over:" in out and "white (greedy) rolls" in out
    g = load(path)
    assert isinstance(g, Game) and g.is_over
    assert str(g.outcome) in out


def test_bot_match_runs_to_the_end(monkeypatch, capsys, tmp_path):
    path = tmp_path / "m.json"
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--points", "3", "--seed", "8", "--white", "greedy",
                         "--opponent", "greedy", "--save", str(path)])
    assert rc == 0, err
    m = load(path)
    assert isinstance(m, Match) and m.is_over
    w = m.winner
    assert f"wins the match {m.score[w]}-{m.score[1 - w]}" in out
    assert "Next: game 2" in out
    # resuming a finished match only shows how it ended
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--resume", str(path)])
    assert rc == 0 and "wins the match" in out


def test_match_against_a_bot_continues_to_the_next_game(monkeypatch, capsys, tmp_path):
    path = tmp_path / "m.json"
    # a human who always plays the first move (and presses Enter between games)
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "portes", "--points", "2", "--seed", "4",
                         "--save", str(path)], ["1", ""] * 400)
    assert rc == 0, err
    m = load(path)
    assert isinstance(m, Match) and m.target == 2 and m.is_over
    assert len(m.games) >= 2, "pick a seed whose first game is not decisive"
    assert "Game over:" in out and "Next: game 2, portes" in out
    assert "Press Enter to go on" in out and "wins the match" in out
    first = m.games[0].outcome
    assert m.games[1].first == first.winner  # the winner starts the next game


def test_cube_double_and_drop_hot_seat(monkeypatch, capsys):
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "backgammon", "--points", "1", "--seed", "6",
                         "--opponent", "human"],
                        ["1", "", "double", "drop"])
    assert rc == 0, err
    assert "doubles to 2" in out and "drops" in out
    assert "Game over: " in out and "(drop)" in out


def test_cube_commands_give_the_engines_message(monkeypatch, capsys):
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "portes", "--points", "1", "--seed", "3",
                         "--opponent", "human"], ["double", "take", "quit"])
    assert rc == 0
    assert "✗ portes is played without the doubling cube" in out
    assert "✗ there is no double to answer" in out


def test_help_and_moves(monkeypatch, capsys):
    g = opened("portes", 3)
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "portes", "--points", "1", "--seed", "3",
                         "--opponent", "human"], ["help", "moves", "quit"])
    assert rc == 0
    assert "save [FILE]" in out and "take, drop" in out
    for k, m in enumerate(g.legal_moves(), 1):
        assert f"{k}. {m}" in out


def test_bad_options(monkeypatch, capsys):
    rc, _, err = play(monkeypatch, capsys, ["--tui", "--opponent", "wizard"])
    assert rc == 2 and "--opponent" in err
    rc, _, err = play(monkeypatch, capsys, ["--tui", "--game", "chess"])
    assert rc == 2 and "unknown game" in err
    rc, _, err = play(monkeypatch, capsys, ["--tui", "--rule", "prime_rule=off",
                                            "--game", "portes"])
    assert rc == 2 and "prime_rule" in err
    rc, _, err = play(monkeypatch, capsys, ["--tui", "--points", "0"])
    assert rc == 2 and "1..99" in err


def test_tavli_match_rules_go_to_the_games_they_apply_to(monkeypatch, capsys, tmp_path):
    path = tmp_path / "m.json"
    rc, _, err = play(monkeypatch, capsys,
                      ["--tui", "--rule", "prime_rule=off", "--rule", "must_play_higher=true",
                       "--save", str(path)], ["quit"])
    assert rc == 0, err
    m = load(path)
    assert m.rules["fevga"].prime_rule == "off"
    assert all(r.must_play_higher for r in m.rules.values())


def board_text(pos: Position, view: int = 0) -> str:
    from tavli.tui import BoardView

    con = Console(file=io.StringIO(), width=80, color_system=None)
    view_ = BoardView(con)
    for line in view_.lines(pos, view):
        con.print(line)
    return con.file.getvalue()


def test_board_shows_counts_pins_bar_and_off():
    text = board_text(Position.start("plakoto"))
    assert "15" in text  # 15 checkers on one point: 4 discs and the count
    pos = Position.from_points("plakoto", {24: 14, 20: 1}, {24: 14, 5: 1},
                               pinned=[(1, 5)])  # black's 5 = white's 20, pinned
    text = board_text(pos)
    assert "[●]" in text
    pos = Position.from_points("portes", {25: 2, 6: 13}, {24: 2, 6: 5})
    lines = board_text(pos).splitlines()
    assert all(len(x) <= 52 for x in lines)
    # two on the bar; 13 on the 6-point: four discs and the count
    assert sum(x.count("○") for x in lines) == 2 + 4 and " 13 " in "\n".join(lines)
    assert "▮" in board_text(pos)  # black's borne-off checkers in the tray


def test_board_numbers_follow_the_viewer():
    text = board_text(Position.start("portes"), view=1)
    assert text.splitlines()[0].split()[:3] == ["12", "11", "10"]
    text = board_text(Position.start("fevga"), view=1)
    assert text.splitlines()[0].split()[:3] == ["1", "2", "3"]
