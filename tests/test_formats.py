"""Game and match files: gnubg's Match ID, XGID, .mat and .sgf, checked against Debian's
gnubg (run as a subprocess; ``make test`` provisions it: scripts/provision_gnubg.py) and
by pure-Python round trips."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tavli.engine.board import Position
from tavli.errors import RecordError
from tavli.play.formats import dumps, loads, read, write
from tavli.play.formats.matchid import MatchState, match_id, parse_match_id
from tavli.play.formats.xgid import parse_xgid, xgid
from tavli.play.game import Game
from tavli.play.history import Beaver, Double, Drop, Pass, Play, Take
from tavli.play.match import Match

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"
_IDS = re.compile(r"Position ID: (\S+)\s+Match ID\s*: (\S+)")


def gnubg(commands: list[str], tmp: Path) -> str:
    """Run gnubg's text interface on ``commands`` (its standard input); its output."""
    assert os.access(GNUBG, os.X_OK), ("Debian's gnubg is needed: apt-get install gnubg "
                                       "(make test installs it as root)")
    done = subprocess.run([GNUBG, "-t", "-q", "-r"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120,
                          input="\n".join(commands) + "\n", cwd=tmp)
    return done.stdout


def _each(commands) -> list[str]:
    """Each command, then the board, then a marker (an unknown command gnubg names)."""
    return [c for cmd in commands for c in (cmd, "show board", "tavlimark")]


def _shown(out: str) -> list[tuple[str, str]]:
    """The IDs gnubg showed last before each marker."""
    return [_IDS.findall(chunk)[-1] for chunk in out.split("tavlimark")[:-1]]


def random_play(g: Game, rng: random.Random, steps: int, m: Match | None = None) -> None:
    """Play ``steps`` random actions (cube actions and resignations included)."""
    for _ in range(steps):
        if g.is_over:
            if m is None or m.is_over:
                return
            g = m.next_game()
        if g.phase == "double":
            r = rng.random()
            g.take() if r < 0.6 else g.drop()
        elif g.phase in ("roll", "opening"):
            if g.phase == "roll" and g.can_double() and rng.random() < 0.08:
                g.double()
            elif rng.random() < 0.004:
                g.resign(g.turn, rng.choice(g.resign_values()))
            else:
                g.roll()
        else:
            legal = g.legal_moves()
            g.play(rng.choice(legal) if legal else None)


def summary(obj: Game | Match) -> list:
    """What two copies of a game must share: every action's side, kind, dice (as a set)
    and resulting position, and the outcome."""
    out = []
    for g in (obj.games if isinstance(obj, Match) else [obj]):
        acts = []
        for a in g.history:
            if isinstance(a, Play):
                acts.append((a.side, "play", sorted(a.dice), a.move.after.id()))
            elif isinstance(a, Pass):
                acts.append((a.side, "pass", sorted(a.dice)))
            elif isinstance(a, Double | Take | Drop | Beaver):
                acts.append((a.side, type(a).__name__))
        out.append((acts, str(g.outcome)))
    return out


def random_match(seed: int, length: int = 5, steps: int = 4000) -> Match:
    m = Match(length, "backgammon", seed=seed, opening_each_game=True)
    random_play(m.game, random.Random(seed), steps, m)
    return m


# --- Match ID --------------------------------------------------------------------------
def test_match_id_round_trip_fields():
    st = MatchState(cube_value=8, cube_owner=1, on_roll=0, crawford=False, turn=1,
                    double_offered=True, dice=None, length=11, score=(3, 9), jacoby=True)
    assert parse_match_id(match_id(st)) == st
    with pytest.raises(Exception, match="Match ID"):
        parse_match_id("not-an-id!!")


def _states(n: int) -> list[tuple[str, Match]]:
    out = []
    rng = random.Random(18)
    for k in range(n):
        m = Match(rng.choice([3, 5, 7, 9]), "backgammon", seed=k, opening_each_game=True)
        random_play(m.game, rng, rng.randrange(5, 400), m)
        g = m.game
        if g.phase == "double" or g.is_over or g.phase == "opening":
            continue  # gnubg's set matchid refuses an offered double
        out.append((f"{g.position.gnubg_id()}:{match_id(m)}", m))
    return out


def test_match_ids_equal_gnubgs(tmp_path):
    states = _states(80)
    assert len(states) >= 40, len(states)
    shown = _shown(gnubg(_each(f"set gnubgid {ids}" for ids, _ in states), tmp_path))
    assert [f"{p}:{mi}" for p, mi in shown] == [ids for ids, _ in states]
    # and parse_position reads the combined form
    ids, m = states[0]
    assert Position.from_id(ids, "backgammon") == m.game.position


def _gnubg_starts(tmp: Path) -> list[tuple[str, str, str]]:
    """gnubg's own Match IDs: money sessions with the Jacoby rule on and off, a match
    at 0-0, at 4-2 and in its Crawford game; (case, Position ID, Match ID) each."""
    cases = [("money, Jacoby", ["set jacoby on", "new session"]),
             ("money, no Jacoby", ["set jacoby off", "new session"]),
             ("match, Jacoby set", ["set jacoby on", "new match 5"]),
             ("match at 4-2", ["set jacoby off", "new match 5", "set score 4 2"]),
             ("Crawford game", ["set jacoby on", "new match 7", "set score 6 3",
                                "set crawford on"])]
    out = gnubg(["set player 0 human", "set player 1 human"]
                + _each("\n".join(cmds) for _, cmds in cases), tmp)
    shown = _shown(out)
    assert len(shown) == len(cases), out[-2000:]
    return [(name, p, mi) for (name, _), (p, mi) in zip(cases, shown, strict=True)]


def test_match_ids_made_by_gnubg_round_trip(tmp_path):
    """The Jacoby bit as gnubg writes it (set when the rule is *not* in effect): tavli
    reads gnubg's own IDs to the right rule and state, writes them back unchanged, and
    makes the same ID from its own game in the same state."""
    from dataclasses import replace

    from tavli.engine.dice import ScriptedDice
    from tavli.engine.rules import Rules
    from tavli.play.formats.matchid import state_of

    expect = {"money, Jacoby": (True, 0, (0, 0), False),
              "money, no Jacoby": (False, 0, (0, 0), False),
              "match, Jacoby set": (False, 5, (0, 0), False),
              "match at 4-2": (False, 5, (2, 4), False),  # gnubg's player 0 is black
              "Crawford game": (False, 7, (3, 6), True)}
    for name, pos_id, mid in _gnubg_starts(tmp_path):
        st = parse_match_id(mid)
        assert (st.jacoby, st.length, st.score, st.crawford) == expect[name], (name, mid)
        assert match_id(st) == mid, name
        money = st.length == 0
        g = Game(Rules("backgammon", jacoby=st.jacoby) if money else "backgammon",
                 first=st.on_roll, dice=ScriptedDice(st.dice), match_play=not money,
                 crawford=st.crawford)
        g.roll()
        assert g.position.gnubg_id() == pos_id, name
        ours = state_of(g) if money else replace(state_of(g), length=st.length,
                                                 score=st.score)
        assert match_id(ours) == mid, name


@pytest.mark.parametrize("text, says", [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:9:0:0:5:10", "score of 9 cannot stand"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:5:0:5:10", "score of 5 cannot stand"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:0:1:5:10", "Crawford game needs"),
    ("4HPwATDgc/ABMA:cImuAJAAEAAE", "score of 9 cannot stand"),
])
def test_impossible_match_scores_are_refused(text, says, capsys):
    """An ID whose score cannot happen in its match length: one clear error, from the
    library and from ``tavli show``."""
    from tavli.cli import main
    from tavli.errors import ParseError

    with pytest.raises(ParseError, match=says):
        Position.from_id(text, "backgammon")
    assert main(["show", text]) != 0
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


# --- XGID -------------------------------------------------------------------------------
def test_xgid_round_trip_and_gnubg(tmp_path):
    rng = random.Random(5)
    cases = []
    for k in range(20):
        m = Match(rng.choice([3, 5, 7]), "backgammon", seed=100 + k, opening_each_game=True)
        random_play(m.game, rng, rng.randrange(5, 300), m)
        if m.game.is_over or m.game.phase in ("opening", "double"):
            continue
        x = xgid(m)
        pos, st = parse_xgid(x)
        assert pos == m.game.position and st.score == m.score and st.dice == \
            (tuple(m.game.dice) if m.game.phase == "move" else None)
        assert xgid(pos, st) == x
        cases.append((x, pos, st))
    shown = _shown(gnubg(_each(f"set xgid {x}" for x, _, _ in cases), tmp_path))
    assert len(shown) == len(cases)
    for (x, pos, st), (gp, gm) in zip(cases, shown, strict=True):
        g = parse_match_id(gm)
        if g.on_roll != st.on_roll:  # gnubg puts the side on roll at X: swap back
            sw = {0: 1, 1: 0, None: None}
            g = MatchState(g.cube_value, sw[g.cube_owner], sw[g.on_roll], g.crawford,
                           g.state, sw[g.turn], g.double_offered, g.resignation, g.dice,
                           g.length, (g.score[1], g.score[0]), g.jacoby)
        assert gp == pos.gnubg_id(), x
        assert (g.cube_value, g.cube_owner, g.on_roll, g.crawford, sorted(g.dice or ()),
                g.length, g.score) == (st.cube_value, st.cube_owner, st.on_roll,
                                       st.crawford, sorted(st.dice or ()), st.length,
                                       st.score), x


def test_xgid_in_parse_position():
    x = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
    assert Position.from_id(x, "backgammon") == parse_xgid(x)[0]


# --- .mat and .sgf ----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["mat", "sgf"])
def test_round_trip_random_matches(fmt):
    for seed in range(6):
        m = random_match(seed)
        back = loads(dumps(m, fmt), fmt)
        assert summary(back) == summary(m)
        assert back.score == m.score
    g = Game("backgammon", seed=3)
    random_play(g, random.Random(3), 300)
    assert summary(loads(dumps(g, fmt), fmt)) == summary(g)


@pytest.mark.parametrize("fmt", ["mat", "sgf", "json"])
def test_player_names_survive_export_and_import(fmt):
    m = random_match(4, length=3)
    m.names = ("Ann  Lee", "Bob]\\ 2")
    back = loads(dumps(m, fmt), fmt)
    assert back.names == ("Ann Lee", "Bob]\\ 2") and summary(back) == summary(m)
    m.names = None  # unnamed: the files say white and black, and read back unnamed
    assert loads(dumps(m, fmt), fmt).names is None


def test_imported_game_continues():
    m = Match(5, "backgammon", seed=9, opening_each_game=True)
    random_play(m.game, random.Random(9), 40, m)
    back = loads(dumps(m, "sgf"), "sgf")
    assert back.game.position == m.game.position
    random_play(back.game, random.Random(1), 20, back)  # it plays on


def test_not_backgammon_is_refused():
    g = Game("portes", seed=1)
    g.roll()
    with pytest.raises(RecordError, match="backgammon games only"):
        dumps(g, "mat")


def test_gnubg_files_import_and_ours_export(tmp_path):
    """gnubg plays a match against itself; its .mat and .sgf import alike; tavli's export
    imports into gnubg, whose re-export gives back the same games and the players'
    names."""
    out = gnubg(["set seed 18", "set player 0 gnubg", "set player 1 gnubg",
                 "set player 0 chequerplay evaluation plies 0",
                 "set player 1 chequerplay evaluation plies 0",
                 "set player 0 cubedecision evaluation plies 0",
                 "set player 1 cubedecision evaluation plies 0",
                 "new match 5", "set player 0 name Ann", "set player 1 name Bob",
                 f"export match mat {tmp_path}/g.mat",
                 f"save match {tmp_path}/g.sgf", "show board"], tmp_path)
    gm, gs = read(tmp_path / "g.mat"), read(tmp_path / "g.sgf")
    assert summary(gm) == summary(gs)
    assert gm.names == gs.names == ("Bob", "Ann")  # gnubg's player 0 is tavli's black
    assert gm.is_over and any(isinstance(a, Double) for g in gm.games for a in g.history)
    last_pos, last_mid = _IDS.findall(out)[-1]
    assert gm.game.position.gnubg_id() == last_pos
    write(gm, tmp_path / "t.mat")
    write(gm, tmp_path / "t.sgf")
    out = gnubg([f"import mat {tmp_path}/t.mat", f"export match mat {tmp_path}/b1.mat",
                 f"load match {tmp_path}/t.sgf", f"export match mat {tmp_path}/b2.mat"],
                tmp_path)
    assert "rror" not in out
    assert summary(read(tmp_path / "b1.mat")) == summary(gm)
    assert summary(read(tmp_path / "b2.mat")) == summary(gm)
    assert read(tmp_path / "b1.mat").names == read(tmp_path / "b2.mat").names == gm.names


@pytest.mark.parametrize("where, props", [
    ("root", "AE[a:y]AW[ff]AB[cc]"), ("node", ";AW[ff]"), ("root", "AB[aa]")])
def test_sgf_set_up_positions_are_refused_by_name(where, props):
    """A game that starts from a set-up position (gnubg's ``set board``) is never
    imported as if it started from the opening: the error names the properties."""
    text = dumps(Game("backgammon", seed=3), "sgf")
    text = text.replace("AP[tavli]", "AP[tavli]" + props, 1) if where == "root" else \
        text.replace("\n", "\n" + props + "\n", 1)
    with pytest.raises(RecordError) as e:
        loads(text, "sgf")
    names = [p for p in ("AE", "AW", "AB") if p + "[" in props]
    assert "sets up a position (" + ", ".join(sorted(names, key=("AB", "AW", "AE").index)) \
        in str(e.value), str(e.value)


@pytest.mark.parametrize("fmt", ["mat", "sgf"])
@pytest.mark.parametrize("kind", ["time", "abandoned"])
def test_a_forfeited_match_re_imports(fmt, kind):
    """A match forfeited online ends on "Wins 7 points" (the points the winner still
    needed), which no resignation gives: it re-imports as the forfeit it was."""
    m = Match(7, "backgammon", seed=3, opening_each_game=True)
    random_play(m.game, random.Random(3), 12, m)
    m.game.forfeit(m.game.turn, kind)
    assert m.is_over and m.game.outcome.points == 7
    back = loads(dumps(m, fmt), fmt)
    assert back.is_over and back.score == m.score
    assert (back.game.outcome.winner, back.game.outcome.points) == \
        (m.game.outcome.winner, 7)
    text = dumps(m, fmt).replace("Wins 7 points", "Wins 5 points").replace("+7", "+5")
    with pytest.raises(RecordError, match="nor what a forfeit gives"):
        loads(text, fmt)


def test_a_mat_file_cut_between_lines_says_it_is_unfinished(tmp_path, capsys):
    """A .mat cut between two lines is a valid unfinished match: tavli replay and
    convert say so on stderr (issue 31: it passed unnoticed)."""
    from tavli.cli import main

    m = random_match(2, length=3)
    assert m.is_over
    lines = dumps(m, "mat").splitlines()
    cut = tmp_path / "cut.mat"
    cut.write_text("\n".join(lines[:len(lines) * 2 // 3]) + "\n")
    assert not read(cut).is_over
    assert main(["replay", str(cut)]) == 0
    err = capsys.readouterr().err
    assert "ends before the match is over" in err and "unfinished match" in err
    assert main(["convert", str(cut), str(tmp_path / "cut.sgf")]) == 0
    assert "ends before the match is over" in capsys.readouterr().err
    whole = tmp_path / "whole.mat"
    write(m, whole)
    assert main(["replay", str(whole)]) == 0
    assert capsys.readouterr().err == ""


def test_a_gnubg_game_set_up_from_a_position_is_refused_by_name(tmp_path):
    """gnubg's ``set board`` writes the position as AE/AW/AB in a node of its .sgf:
    tavli refuses the file naming them, never replaying it from the opening."""
    gnubg(["set player 0 human", "set player 1 human", "new session",
           "set board simple 0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0",
           f"save game {tmp_path}/setup.sgf"], tmp_path)
    with pytest.raises(RecordError, match=r"sets up a position \(AB, AW, AE\)"):
        read(tmp_path / "setup.sgf")


# --- damaged files ----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["mat", "sgf"])
def test_damaged_files(fmt):
    text = dumps(random_match(2, length=3), fmt)
    bad = {
        "truncated": text[: len(text) // 2],
        "garbage": "\x00\x01 hello world {[}",
        "empty": "",
    }
    if fmt == "mat":
        bad["wrong move"] = re.sub(r"(\d\d: )(\S+)", r"\g<1>1/24", text, count=3)
    else:
        bad["wrong move"] = re.sub(r";B\[(\d\d)(..)", r";B[\g<1>za", text, count=1)
    for name, t in bad.items():
        with pytest.raises(RecordError) as e:
            loads(t, fmt)
        msg = str(e.value)
        assert "\n" not in msg and msg, name
