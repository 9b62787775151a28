"""Terminal play driven through ``tavli play`` with scripted standard input."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from tavli.cli import main
from tavli.engine.board import Position
from tavli.errors import TavliError
from tavli.play import record
from tavli.play.game import Game
from tavli.play.match import Match


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch):
    """The terminal speaks the environment's language: these tests read English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)


def test_the_terminal_in_the_players_language(monkeypatch, capsys):
    args = ["--tui", "--game", "portes", "--points", "1", "--seed", "5", "--white", "greedy",
            "--opponent", "random"]
    rc, out, err = play(monkeypatch, capsys, [*args, "--lang", "el"])
    assert rc == 0, err
    assert "Τέλος παιχνιδιού: κερδίζουν τα " in out and "Ζαριά αρχής: λευκά" in out
    assert "Game over" not in out and "Opening throw" not in out
    monkeypatch.setenv("LANG", "de_DE.UTF-8")            # the environment's language
    rc, out, err = play(monkeypatch, capsys, args)
    assert rc == 0 and "Spiel vorbei: " in out and "Eröffnungswurf: Weiß" in out
    monkeypatch.setenv("LC_ALL", "it_IT.UTF-8")          # LC_ALL first
    rc, out, err = play(monkeypatch, capsys, args)
    assert rc == 0 and "Partita finita: vince il " in out
    # the CLI's messages stay English
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--game", "nope"])
    assert rc != 0 and "nope" in err and "unknown" in err.lower()


def load(path):
    """The game or match a saved file holds; it saves again exactly as the file has it."""
    obj = record.load(path)
    data = json.loads(open(path, encoding="utf-8").read())
    again = record.record_of(obj)
    assert (again["match"], again["games"]) == (data["match"], data["games"])
    return obj


def play(monkeypatch, capsys, args, lines=()):
    """Run ``tavli play ARGS`` with ``lines`` on standard input; (status, out, err)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    rc = main(["play", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def cli(monkeypatch, capsys, argv, lines=()):
    """Run ``tavli ARGV``; (status, out with whitespace runs made single spaces, err)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, " ".join(out.split()), err


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
    from tavli.play.record import game_record

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
                        ["--tui", "--game", "portes", "--points", "2", "--seed", "12",
                         "--save", str(path)], ["1", ""] * 400)
    assert rc == 0, err
    m = load(path)
    assert isinstance(m, Match) and m.target == 2 and m.is_over
    assert len(m.games) >= 2, "pick a seed whose first game is not decisive"
    assert "Game over:" in out and "Next: game 2, Portes" in out
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
    for command in ("hint ", "undo ", "resign [V]"):
        assert f"\n  {command}" in out
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


# --- the neural AI as opponent ------------------------------------------------------------

def test_the_default_opponent_is_the_neural_ai_at_level_expert(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.json"
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--game", "portes", "--points", "1",
                                              "--seed", "3", "--save", str(path)], [])
    assert rc == 0, err
    assert "black ● (neural AI, level expert)" in out
    assert "black: neural, expert" in out  # the panel beside the board
    assert "black (neural:expert) rolls" in out  # black starts with seed 3
    assert json.loads(path.read_text())["tui"] == {"white": "human", "black": "neural:expert"}


def test_neural_levels_play_as_the_neural_player(monkeypatch, capsys, tmp_path):
    from tavli.ai.neural import NeuralPlayer

    path = tmp_path / "g.json"
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "fevga", "--points", "1", "--seed", "5",
                         "--white", "beginner", "--opponent", "neural:advanced",
                         "--save", str(path)])
    assert rc == 0, err
    assert "white (neural:beginner) rolls" in out and "black (neural:advanced) rolls" in out
    assert "white ○ (neural AI, level beginner) against black ● (neural AI, level advanced)" \
        in out or "white ● (neural AI, level beginner) against black ● (neural AI, level " \
        "advanced)" in out
    assert "black: neural, advanced" in out and "Game over:" in out
    assert json.loads(path.read_text())["tui"] == {"white": "neural:beginner",
                                                   "black": "neural:advanced"}
    g = load(path)
    assert g.is_over
    ai = NeuralPlayer("advanced")  # no noise: black's every choice is the network's
    checked = 0
    for pos, dice, move in g.turns:
        moves = pos.legal_moves(dice, g.rules)
        if pos.turn == 1 and len(moves) > 1:
            assert ai.choose_move(pos, dice, moves, g.rules) == move
            checked += 1
    assert checked > 5


def test_resume_keeps_the_ai_and_its_level(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.json"
    base = ["--tui", "--game", "portes", "--points", "1", "--seed", "3"]
    play(monkeypatch, capsys, base + ["--opponent", "casual", "--save", str(path)], ["quit"])
    assert json.loads(path.read_text())["tui"]["black"] == "neural:casual"
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--resume", str(path)],
                        ["1", "", "quit"])
    assert rc == 0, err
    assert "Resumed" in out and "(neural AI, level casual)" in out
    assert "black (neural:casual) rolls" in out
    data = json.loads(path.read_text())
    assert data["tui"]["black"] == "neural:casual"
    # a level that the file names wrongly: a clear error, the file left as it was
    data["tui"]["black"] = "neural:wizard"
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--resume", str(path)], [])
    assert rc == 2 and "the black player saved in" in err and "wizard" in err
    assert path.read_bytes() == before


def test_unknown_players_list_the_choices_before_play(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.json"
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--opponent", "wizard",
                                              "--save", str(path)])
    assert rc == 2 and out == "" and not path.exists()
    assert len(err.strip().splitlines()) == 1
    assert "--opponent: unknown player 'wizard'" in err
    for name in ("human", "random", "greedy", "neural:LEVEL", "beginner", "worldclass"):
        assert name in err
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--white", "neural:wizard"])
    assert rc == 2 and out == "" and "--white: unknown level 'wizard'" in err


def test_without_a_trained_network_the_ai_is_the_greedy_player(monkeypatch, capsys, tmp_path):
    from tavli.ai import neural as ai_neural
    from tavli.play.players import GreedyPlayer

    monkeypatch.setattr(ai_neural, "has_shipped_net", lambda game: False)
    path = tmp_path / "g.json"
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "plakoto", "--points", "1", "--seed", "2",
                         "--white", "expert", "--save", str(path)])
    assert rc == 0, err
    assert "(greedy AI: no trained network for Plakoto is installed)" in out
    assert "black: greedy (no net)" in out
    g = load(path)
    greedy = GreedyPlayer()
    for pos, dice, move in g.turns:
        moves = pos.legal_moves(dice, g.rules)
        if moves:
            assert greedy.choose_move(pos, dice, moves, g.rules) == move


# --- hint, undo, resign ---------------------------------------------------------------------

HOT_SEAT = ["--tui", "--game", "portes", "--points", "1", "--seed", "3", "--opponent", "human"]


def test_hint_ranks_the_moves_as_tavli_hint_does(monkeypatch, capsys):
    g = opened("portes", 3)
    moves = [str(m) for m in g.legal_moves()]
    rc, out, err = cli(monkeypatch, capsys,
                       ["hint", "portes", g.position.id(), "--dice",
                        f"{g.dice[0]}{g.dice[1]}", "--json"])
    assert rc == 0, err
    ranked = json.loads(out)["moves"]
    rc, out, err = play(monkeypatch, capsys, HOT_SEAT, ["hint", "quit"])
    assert rc == 0, err
    assert "Hint for 5-2 (neural AI, 1-ply" in out
    hint = out.split("Hint for")[1].splitlines()[1:7]
    for r, line in zip(ranked[:5], hint, strict=False):  # best first, numbered as listed
        number, move, equity = line.split(".", 1)[0], line.split(".", 1)[1][:-7], line[-6:]
        assert int(number) == moves.index(r["move"]) + 1
        assert move.strip() == r["move"] and abs(float(equity) - r["equity"]) < 6e-4
    assert hint[5].strip() == f"({len(moves) - 5} more moves rank lower)"


def test_hint_without_a_network_and_before_a_roll(monkeypatch, capsys):
    from tavli.ai import neural as ai_neural
    from tavli.play.players import GreedyPlayer

    monkeypatch.setattr(ai_neural, "has_shipped_net", lambda game: False)
    g = opened("portes", 3)
    best = GreedyPlayer().choose_move(g.position, g.dice, g.legal_moves(), g.rules)
    rc, out, err = play(monkeypatch, capsys, HOT_SEAT, ["hint", "quit"])
    assert "greedy heuristic: no trained network for portes" in out
    first = out.split("best first):")[1].splitlines()[1]
    assert f". {best} " in first
    # backgammon: before the roll there is no roll to rank
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "backgammon", "--points", "1", "--seed", "6",
                         "--opponent", "human"], ["1", "", "hint", "quit"])
    assert "✗ a hint ranks the moves of a roll: roll the dice first" in out


def test_a_move_is_shown_and_played_once_confirmed(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.json"
    g = opened("portes", 3)
    side = g.turn
    moves = g.legal_moves()
    rc, out, err = play(monkeypatch, capsys, HOT_SEAT + ["--save", str(path)],
                        ["undo", "1", "undo", "2", "", "quit"])
    assert rc == 0, err
    assert "✗ nothing to take back" in out
    assert f"Enter plays {moves[0]}; undo takes it back" in out
    # the entered move is drawn on the board before it is confirmed
    before_undo = out.split("Taken back.")[0]
    assert f"pips {moves[0].after.pip_count(side):>3}" in before_undo.split(
        f"Enter plays {moves[0]}")[0].split("to play")[-1]
    assert "Taken back." in out and f"{SIDE_NAMES_[side]} plays {moves[1]}." in out
    assert f"plays {moves[0]}." not in out
    assert [str(m) for m in load(path).moves] == [str(moves[1])]
    # another move at the confirmation replaces the one entered; quitting there plays none
    rc, out, err = play(monkeypatch, capsys, HOT_SEAT + ["--save", str(tmp_path / "h.json")],
                        ["1", "3", "", "4", "quit"])
    assert rc == 0, err
    g.play(moves[2])
    g.roll()
    h = load(tmp_path / "h.json")
    assert [str(m) for m in h.moves] == [str(moves[2])]
    assert h.position == g.position and h.dice == g.dice  # the 4th move was not played
    assert f"The move you entered ({g.legal_moves()[3]}) was not played." in out


SIDE_NAMES_ = ("white", "black")


def test_resign_against_the_ai(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.json"
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "portes", "--points", "1", "--seed", "3",
                         "--save", str(path)],
                        ["resign", "no", "resign triple", "resign", "single"])
    assert rc == 0, err
    assert "resign the game (1 point) or a gammon (2 points)? single, gammon or no" in out
    assert "Play goes on." in out
    assert "✗ resign single or gammon here, not 'triple'" in out
    assert "white resigns the game; black accepts and wins 1 point." in out
    assert "Game over: black wins 1 point (resign)." in out
    g = load(path)
    assert g.is_over and (g.outcome.winner, g.outcome.points, g.outcome.kind) == (1, 1, "resign")


def test_resign_hot_seat_backgammon_asks_the_value_and_the_opponent(monkeypatch, capsys):
    args = ["--tui", "--game", "backgammon", "--points", "1", "--seed", "6",
            "--opponent", "human"]
    rc, out, err = cli(monkeypatch, capsys, ["play", *args],
                       ["1", "", "resign gammon", "no", "resign", "backgammon", "yes"])
    assert rc == 0, err
    assert "black resigns a gammon. white ○: accept and win 2 points? yes or no" in out
    assert "black resigns a gammon; white declines: play goes on." in out
    assert ("black ●: resign the game (1 point) or a gammon (2 points) or a backgammon "
            "(3 points)? single, gammon, backgammon or no") in out
    assert "black resigns a backgammon; white accepts and wins 3 points." in out
    assert "Game over: white wins 3 points (resign)." in out


def test_a_match_goes_on_after_a_resignation_with_the_same_dice(monkeypatch, capsys,
                                                               tmp_path):
    base = ["--tui", "--game", "portes", "--points", "3", "--seed", "9", "--opponent", "human"]
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    resign = ["resign", "yes", "yes"]  # resign the game; the other side accepts
    rc, out, err = play(monkeypatch, capsys, base + ["--save", str(whole)],
                        resign + ["", "1", "", "quit"])
    assert rc == 0, err
    assert "Score: white 0, black 1" in out or "Score: white 1, black 0" in out
    rc, out, err = play(monkeypatch, capsys, base + ["--save", str(part)], resign + ["quit"])
    rc, out, err = play(monkeypatch, capsys, ["--tui", "--resume", str(part)],
                        ["", "1", "", "quit"])
    assert rc == 0, err
    a, b = json.loads(whole.read_text()), json.loads(part.read_text())
    assert len(a["games"]) == 2 and a["games"][0]["events"][-1]["resign"] == "single"
    assert a["games"] == b["games"]  # the second game throws the same dice
    m = load(whole)
    assert isinstance(m, Match) and len(m.games[1].moves) == 1


# --- resume command, dice -------------------------------------------------------------------

def test_the_printed_resume_command_resumes(monkeypatch, capsys, tmp_path):
    import shlex

    (tmp_path / "my games").mkdir()
    path = tmp_path / "my games" / "game 1.json"
    rc, out, err = play(monkeypatch, capsys, HOT_SEAT + ["--save", str(path)], ["1", "", "quit"])
    assert rc == 0, err
    command = out.split("resume with: ")[1].splitlines()[0]
    argv = shlex.split(command)
    assert argv == ["tavli", "play", "--tui", "--resume", str(path)]
    rc, out, err = cli(monkeypatch, capsys, argv[1:], ["quit"])
    assert rc == 0, err
    assert "Resumed: game 1, where it stopped." in out
    assert len(load(path).moves) == 1


def test_dice_are_shown_higher_first(monkeypatch, capsys):
    import re

    for seed in range(100):  # a roll thrown lower die first
        g = Game("portes", seed=seed)
        g.roll()
        if g.dice[0] < g.dice[1]:
            break
    lo, hi = g.dice
    args = ["--tui", "--game", "portes", "--points", "1", "--seed", str(seed),
            "--opponent", "human"]
    rc, out, err = play(monkeypatch, capsys, args, ["quit"])
    assert f"to play {hi}-{lo} >" in out and f"dice {hi}-{lo}" in out
    assert f"{lo}-{hi}" not in out
    bar = next(x for x in out.splitlines() if "BAR" in x)
    assert re.findall(r"\d", bar.split("│")[3] + bar.split("│")[1]) == [str(hi), str(lo)]
    # the bots' rolls too
    rc, out, err = play(monkeypatch, capsys,
                        ["--tui", "--game", "fevga", "--points", "1", "--seed", "5",
                         "--white", "greedy", "--opponent", "random"])
    rolls = re.findall(r"rolls (\d)-(\d)", out)
    assert len(rolls) > 20 and all(a >= b for a, b in rolls)
