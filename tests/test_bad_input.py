"""Bad input found by a bug hunt: non-ASCII digits, huge or deeply nested JSON, over-long
moves, files a save must not replace, bad paths. Each gets a clear error and changes
nothing."""

from __future__ import annotations

import io
import json
import os
import time
import warnings

import pytest

from tavli.ai.levels import parse_level
from tavli.cli import main
from tavli.engine.board import Position, parse_dice
from tavli.engine.notation import parse_move
from tavli.errors import ParseError, RecordError, RuleError
from tavli.play.game import Game
from tavli.play.record import game_record, load, load_record, save

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

DEEP = '{"game": ' + "[" * 100_000 + "]" * 100_000 + "}"
HUGE = "9" * 5000


def test_superscript_digits_are_not_numbers():
    with pytest.raises(ParseError, match="dice must be two digits"):
        parse_dice("²1")
    with pytest.raises(RuleError, match="unknown level"):
        parse_level("²")
    with pytest.raises(RuleError) as e:
        parse_level("1" * 5000)
    assert len(str(e.value)) < 200  # the message does not echo the whole input
    assert parse_level("2").plies == 2 and parse_level("2").noise == 0.0


def test_moves_of_more_than_four_steps_are_refused_at_once():
    pos = Position.start("backgammon")
    t = time.perf_counter()
    for text in ["6/5 " * 36, "13/11 " * 40, "24/18 " * 5000, "13/7(4) 8/2"]:
        with pytest.raises(ParseError, match="at most four steps"):
            parse_move(text)
        with pytest.raises(ParseError):
            pos.find_move(text, (1, 1))
    assert time.perf_counter() - t < 5  # once over a minute
    assert len(parse_move("24/20*/16/12/8")) == 1
    assert str(pos.find_move("13/7(2) 8/2(2)", (6, 6))) == "13/7(2) 8/2(2)"


def test_huge_numbers_and_deep_nesting_in_json():
    with pytest.raises(ParseError, match="not valid JSON"):
        Position.from_id(DEEP)
    with pytest.raises(ParseError, match="not valid JSON"):
        Position.from_id('{"game": "portes", "turn": ' + HUGE + "}")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(DEEP)
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record('{"format": "tavli-record", "version": ' + HUGE + "}")


def test_record_fields_are_typed():
    g = Game("backgammon", seed=2)
    g.roll()
    g.play(g.legal_moves()[0])
    rec = game_record(g)
    assert load_record(json.dumps(rec)).position == g.position
    with pytest.raises(RecordError, match="version"):
        load_record(json.dumps({**rec, "version": True}))
    bad = json.loads(json.dumps(rec))
    bad["games"][0]["crawford"] = "no"
    with pytest.raises(RecordError, match="crawford must be true or false"):
        load_record(json.dumps(bad))


def test_save_keeps_permissions_and_follows_links(tmp_path):
    g = Game("plakoto", seed=1)
    real = tmp_path / "real"
    real.mkdir()
    target = real / "saved.json"
    save(g, target)
    os.chmod(target, 0o644)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    g.roll()
    g.play(g.legal_moves()[0])
    save(g, link)
    assert link.is_symlink()  # still a link, and the file it names has the new game
    assert load(target).position == g.position
    assert oct(os.stat(target).st_mode & 0o777) == oct(0o644)


def tui(monkeypatch, capsys, args, lines=()):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    rc = main(["play", "--tui", *args])
    return rc, *capsys.readouterr()


def test_save_never_replaces_another_file(monkeypatch, capsys, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    rc, out, err = tui(monkeypatch, capsys, ["--game", "fevga", "--points", "1", "--seed", "1",
                                             "--save", str(notes)], ["quit"])
    assert rc == 2 and "exists" in err and "--resume" in err
    assert notes.read_text() == "my notes\n"
    # saving over the game being resumed is how resuming works
    kept = tmp_path / "kept.json"
    rc, out, err = tui(monkeypatch, capsys, ["--game", "portes", "--points", "1", "--seed", "1",
                                             "--opponent", "human", "--save", str(kept)],
                       ["quit"])
    assert rc == 0, err
    rc, out, err = tui(monkeypatch, capsys, ["--resume", str(kept), "--save", str(kept)],
                       ["quit"])
    assert rc == 0, err
    # and the in-game save command refuses another existing file too
    before = kept.read_text()
    rc, out, err = tui(monkeypatch, capsys, ["--game", "portes", "--points", "1", "--seed", "2",
                                             "--opponent", "human"],
                       [f"save {notes}", f"save {kept}", "quit"])
    assert rc == 0, err
    assert out.count("exists: choose another name") == 2
    assert notes.read_text() == "my notes\n" and kept.read_text() == before


def test_bad_paths_for_runs_and_logs(tmp_path, capsys):
    f = tmp_path / "runfile"
    f.write_text("x")
    assert main(["train", "portes", "--games", "1", "--run", str(f)]) == 2
    assert "cannot use" in capsys.readouterr().err
    binlog = tmp_path / "bin.dat"
    binlog.write_bytes(b"\xff\xfe")
    for log in (tmp_path, binlog):
        assert main(["bench", "strength", "random", "random", "--games", "2",
                     "--log", str(log)]) == 2
        assert "cannot read the strength log" in capsys.readouterr().err
    assert binlog.read_bytes() == b"\xff\xfe"


def test_web_answers_4xx_to_the_same_input():
    from tavli.web.app import create_app

    client = TestClient(create_app(":memory:", allowed_hosts=["testserver"]))
    r = client.post("/api/games", json={"level": "²"})
    assert r.status_code == 422 and "unknown level" in r.json()["error"]
    for raw in ('{"seed": ' + HUGE + "}", DEEP):
        r = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
        if len(raw) > 64 * 1024:  # larger than a request body may be (4 MB for records)
            assert r.status_code == 413 and "larger than" in r.json()["error"]
        else:
            assert r.status_code == 400 and r.json()["code"] == "malformed_json"
        r = client.post("/api/records", content=raw,
                        headers={"content-type": "application/json"})
        assert r.status_code == 400
    st = client.post("/api/games", json={"variant": "backgammon", "opponent": "human",
                                         "seed": 2, "first": "white"}).json()
    gid = st["id"]
    r = client.get(f"/api/games/{gid}/record", params={"download": "maybe"})
    assert r.status_code == 422 and "download" in r.json()["error"]
    st = client.post(f"/api/games/{gid}/roll").json()
    before = client.get(f"/api/games/{gid}").json()
    r = client.post(f"/api/games/{gid}/move", json={"steps": [["²", "off"]]})
    assert r.status_code == 422 and "step point" in r.json()["error"]
    t = time.perf_counter()
    r = client.post(f"/api/games/{gid}/move", json={"move": "6/5 " * 36})
    assert r.status_code == 422 and time.perf_counter() - t < 5
    r = client.get(f"/api/games/{gid}/hint", params={"level": "²"})
    assert r.status_code == 422
    assert client.get(f"/api/games/{gid}").json() == before


def test_bytes_that_are_not_text_on_stdin_are_bad_lines():
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}  # strict decoding, as a desktop locale
    r = subprocess.run([sys.executable, "-m", "tavli", "moves", "--batch"],
                       input=b"portes start 31\n\xff\nportes start 21\n", capture_output=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.decode().splitlines()]
    assert len(lines) == 3 and "error" in lines[1]
    assert "moves" in lines[0] and "moves" in lines[2]


def test_position_ids_with_unused_bits_set_are_refused():
    good = Position.start("portes").id()
    assert Position.from_id(good) == Position.start("portes")
    last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    # the last character carries unused low bits: flip one of them
    bad = good[:-1] + last[last.index(good[-1]) ^ 1]
    with pytest.raises(ParseError, match=f"not a canonical position ID.*{good}"):
        Position.from_id(bad)


def test_batch_errors_quote_a_huge_line_briefly(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("portes " + "A" * 1_000_000 + " 31\n"))
    assert main(["moves", "--batch"]) == 0
    err = json.loads(capsys.readouterr().out)["error"]
    assert err.startswith("line 1: ") and len(err) < 400


@pytest.mark.parametrize("opt", ["--resume", "--save"])
def test_empty_file_names_are_refused(opt, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    rc, out, err = tui(monkeypatch, capsys, ["--seed", "1", opt, ""], ["quit"])
    assert rc == 2 and f"{opt} needs a file name" in err
    assert list(tmp_path.iterdir()) == []


def test_seeds_are_bounded_in_new_games_and_records():
    """A seed is a setting, 0 to 2^32 - 1 as on the command line: a 4,001-digit one is
    refused by a new game and by an imported record, and nothing is stored."""
    from tavli.web.app import create_app

    MAX_SEED = 2**32 - 1  # noqa: N806 - docs/web.md's bound
    client = TestClient(create_app(":memory:", allowed_hosts=["testserver"]))
    huge = int("9" * 4001)
    for seed in (huge, MAX_SEED + 1, -1):
        r = client.post("/api/games", json={"variant": "portes", "seed": seed})
        assert r.status_code == 422 and r.json()["code"] == "invalid", r.text
        assert "seed" in r.json()["error"] and len(r.json()["error"]) < 300
    r = client.post("/api/games", json={"variant": "portes", "seed": MAX_SEED})
    assert r.status_code == 201
    record = client.get(f"/api/games/{r.json()['id']}/record").json()
    assert record["seed"] == MAX_SEED
    for seed in (huge, -5):
        r = client.post("/api/records", json={**record, "seed": seed})
        assert r.status_code == 422 and r.json()["code"] == "invalid_record", r.text
        assert len(r.json()["error"]) < 300
    assert client.get("/api/games").json()["total"] == 1


@pytest.mark.parametrize("name, shown", [("A\u0010b", "A b"), ("A\u000bb", "A b"),
                                         ("A\u009ab", "A b"), ("\u202eAnn", "Ann"),
                                         ("A\u2028b", "A b")])
def test_names_are_printable_text(tmp_path, name, shown):
    """A display name with a control or format character (a bidirectional override, a
    line separator) is refused online and made a space in an imported record."""
    from tavli.online.app import create_online_app
    from tavli.web.app import create_app

    with TestClient(create_online_app(tmp_path / "o.sqlite3",
                                      allowed_hosts=["testserver"])) as c:
        game = {"variant": "portes", "opponent": "human"}
        r = c.post("/api/online/games", json={"game": game, "name": name})
        assert r.status_code == 422 and r.json()["code"] == "invalid", r.text
        new = c.post("/api/online/games", json={"game": game, "name": "Ann"}).json()
        r = c.post(f"/api/online/games/{new['id']}/join",
                   json={"token": new["invite_token"], "name": name})
        assert r.status_code == 422 and r.json()["code"] == "invalid", r.text
        assert c.app.state.games.view(new["id"])["status"] == "open"  # nobody joined
    local = TestClient(create_app(":memory:", allowed_hosts=["testserver"]))
    st = local.post("/api/games", json={"variant": "portes", "opponent": "human"}).json()
    record = local.get(f"/api/games/{st['id']}/record").json()
    r = local.post("/api/records", json={**record, "names": {"white": name, "black": "Bob"}})
    assert r.status_code == 201, r.text
    assert r.json()["players"]["white"]["name"] == shown


def test_a_record_holding_a_lone_surrogate_is_refused():
    """JSON may write a lone surrogate ("\\ud800"), which is no text: an imported record
    or file holding one is refused at once (its answer, echoing it, could not be sent:
    a 500 before) and nothing is stored."""
    from tavli.web.app import create_app

    client = TestClient(create_app(":memory:", allowed_hosts=["testserver"]))
    st = client.post("/api/games", json={"variant": "portes", "opponent": "human"}).json()
    record = client.get(f"/api/games/{st['id']}/record").json()
    text = json.dumps({**record, "names": {"white": "NAME", "black": "Bob"}})
    for bad in ('"\\ud800"', '"A\\udfffB"'):
        raw = text.replace('"NAME"', bad)
        for body in (raw, json.dumps({"text": raw, "name": "game.json"})):
            r = client.post("/api/records", content=body,
                            headers={"content-type": "application/json"})
            assert r.status_code == 422 and r.json()["code"] == "invalid_record", r.text
            assert "surrogate" in r.json()["error"]
    assert client.get("/api/games").json()["total"] == 1
