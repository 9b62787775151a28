"""The browser app's cube hint, its gnubg .mat / .sgf export and import, the continuation
of an imported record and the position's IDs (docs/web.md), through the HTTP API."""

from __future__ import annotations

import random

from test_formats import random_play, summary
from test_web_api import assert_error, new, post

from tavli import cube_decision
from tavli.ai.context import MONEY_0PLY, ONE_PLY
from tavli.engine.board import Position
from tavli.play.cube.info import CubeInfo, Owner
from tavli.play.formats import dumps, loads
from tavli.play.formats.xgid import parse_xgid
from tavli.play.game import Game
from tavli.play.match import Match
from tavli.play.record import game_record, match_record

ACTIONS = {"No double, take", "No double, beaver", "Double, take", "Double, pass",
           "Too good to double, pass", "Too good to double, take"}


def hint(client, gid, **params):
    r = client.get(f"/api/games/{gid}/cube-hint", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def in_english(h):
    """The hint's messages for the page (keys) read as its English texts."""
    from tavli.i18n import gettext, text

    assert text("en", h["situation_msg"]) == h["situation"]
    assert gettext("en", h["advice_key"]) == h["advice"]
    assert text("en", h["action_msg"]) == h["action"]
    assert [gettext("en", r["name_key"]) for r in h["rows"]] == [r["name"] for r in h["rows"]]
    for lang in ("el", "it", "de"):
        assert text(lang, h["situation_msg"]) != h["situation"]


def rows_agree(h, d):
    """The answer's figures are the decision's (from the doubler's view)."""
    assert [r["equity"] for r in h["rows"]] == [round(x, 4) for x in (d.nd, d.dt, d.dp)]
    assert h["action"] == d.action and h["take"] == d.take and h["double"] == d.double
    assert sum(r["best"] for r in h["rows"]) == 1
    best = next(r for r in h["rows"] if r["best"])
    assert best["diff"] is None
    assert all(abs(r["diff"] - (r["equity"] - best["equity"])) < 2e-4 for r in h["rows"]
               if not r["best"])
    p = h["probabilities"]
    assert abs(p["win"] + p["lose"] - 1) < 1e-3
    assert 0 <= p["win_backgammon"] <= p["win_gammon"] <= p["win"]
    assert h["lines"][-1].startswith("Proper cube action: ")


# --- the cube hint ------------------------------------------------------------------------

def test_cube_hint_before_the_roll_and_on_a_double(client):
    st = new(client, variant="backgammon", opponent="human", first="white", seed=9)
    gid = st["id"]
    assert st["phase"] == "roll" and st["cube_hint"]
    h = hint(client, gid, level="advanced")          # 0-ply: quick
    assert h["role"] == "double" and h["side"] == h["doubler"] == "white"
    assert h["ply"] == 0 and h["situation"] == "Money play, cube centred"
    assert [r["name"] for r in h["rows"]] == ["No double", "Double, take", "Double, pass"]
    d = cube_decision(Position.from_id(st["position_id"]), CubeInfo(), MONEY_0PLY)
    rows_agree(h, d)
    in_english(h)
    assert h["action"] in ACTIONS and h["advice"].startswith("Roll: no double")
    assert h["mwc"] is None and all(r["mwc"] is None for r in h["rows"])
    # a hint changes nothing
    assert client.get(f"/api/games/{gid}").json()["history"] == st["history"]

    st = post(client, gid, "double", {"side": "white"})
    assert st["phase"] == "double" and st["turn"] == "black" and st["cube_hint"]
    h = hint(client, gid, level="advanced")
    assert h["role"] == "take" and h["side"] == "black" and h["doubler"] == "white"
    rows_agree(h, d)          # the same decision, answered by the taker
    assert h["advice"] == ("Take." if d.take else "Pass.")
    assert next(r for r in h["rows"] if r["best"])["name"] == \
        ("Double, take" if d.take else "Double, pass")

    st = post(client, gid, "take")
    # white cannot redouble black's cube: no decision is due, for white or anyone
    assert st["phase"] == "roll" and not st["cube"]["can_double"] and not st["cube_hint"]
    assert_error(client.get(f"/api/games/{gid}/cube-hint"), 409, "no cube decision is due")
    st = post(client, gid, "roll")
    assert not st["cube_hint"]
    assert_error(client.get(f"/api/games/{gid}/cube-hint"), 409, "before the roll")
    # black owns the cube: before his roll he may redouble
    if st["phase"] == "move":
        st = post(client, gid, "move", {"move": st["legal_moves"][0]["move"]})
    assert st["turn"] == "black" and st["phase"] == "roll" and st["cube_hint"]
    h = hint(client, gid, level="advanced")
    assert h["rows"][0]["name"] == "No redouble" and "cube 2 owned by the doubler" in \
        h["situation"]
    d = cube_decision(Position.from_id(st["position_id"]), CubeInfo(cube=2, owner=Owner.ME),
                      MONEY_0PLY)
    rows_agree(h, d)
    in_english(h)


def test_cube_hint_errors(client):
    assert_error(client.get("/api/games/nope/cube-hint"), 404, "nope")
    st = new(client, variant="portes", opponent="human", first="white", seed=3)
    assert not st["cube_hint"]
    assert_error(client.get(f"/api/games/{st['id']}/cube-hint"), 409,
                 "without the doubling cube")
    st = new(client, variant="backgammon", opponent="human", first="white", seed=3)
    assert_error(client.get(f"/api/games/{st['id']}/cube-hint", params={"level": "god"}),
                 422, "level")
    r = client.get(f"/api/games/{st['id']}/cube-hint", params={"level": "god"})
    assert r.json()["code"] == "invalid"
    # the default level (expert) thinks at 1-ply, as the move hint does
    h = hint(client, st["id"])
    assert h["ply"] == 1
    rows_agree(h, cube_decision(Position.from_id(st["position_id"]), CubeInfo(), ONE_PLY))


def test_cube_hint_in_a_match_reads_the_score(client):
    st = new(client, variant="backgammon", points=5, opponent="human", seed=4)
    st = post(client, st["id"], "roll")           # the opening throw: someone moves
    gid = st["id"]
    for _ in range(4):
        if st["phase"] == "move":
            st = post(client, gid, "move", {"steps": [s[:2] for s in
                                                      st["legal_moves"][0]["steps"]]})
    assert st["phase"] == "roll" and st["cube_hint"]
    h = hint(client, gid, level="advanced")
    assert h["situation"].startswith("5-point match, 5-away/5-away")
    assert all(0 < r["mwc"] < 1 for r in h["rows"]) and set(h["mwc"]) == {
        "no_double", "double_take", "double_pass"}
    ci = CubeInfo(length=5, away=(5, 5))
    rows_agree(h, cube_decision(Position.from_id(st["position_id"]), ci, MONEY_0PLY))


# --- the position's IDs -------------------------------------------------------------------

def test_position_ids_in_the_state(client):
    st = new(client, variant="backgammon", points=3, opponent="human", seed=5)
    st = post(client, st["id"], "roll")
    ids = st["ids"]
    assert ids["position_id"] == st["position_id"]
    pos = Position.from_id(st["position_id"])
    gnubg_pos, mid = ids["gnubg"].split(":")
    assert gnubg_pos == pos.gnubg_id() and len(mid) == 12
    assert Position.from_id(ids["gnubg"], "backgammon") == pos
    xpos, xst = parse_xgid(ids["xgid"])
    assert xpos == pos and xst.length == 3 and xst.dice is not None
    assert sorted(xst.dice) == sorted(st["dice"])
    st = new(client, variant="plakoto", opponent="human", seed=5)
    assert st["ids"] == {"position_id": st["position_id"], "gnubg": None, "xgid": None}


# --- export and import --------------------------------------------------------------------

def _match(seed: int, length: int = 3) -> Match:
    m = Match(length, "backgammon", seed=seed, opening_each_game=True)
    random_play(m.game, random.Random(seed), 4000, m)
    return m


def test_export_and_import_mat_and_sgf(client):
    m = _match(2)
    assert m.is_over
    st = client.post("/api/records", json=match_record(m)).json()
    gid = st["id"]
    assert st["formats"] == ["json", "mat", "sgf"]
    rows = client.get("/api/games").json()["games"]
    assert rows[0]["formats"] == ["json", "mat", "sgf"]
    for fmt in ("mat", "sgf"):
        r = client.get(f"/api/games/{gid}/record", params={"format": fmt, "download": True})
        assert r.status_code == 200, r.text
        assert f'filename="tavli-{gid}.{fmt}"' in r.headers["content-disposition"]
        assert r.headers["content-type"].startswith("text/plain" if fmt == "mat"
                                                    else "application/x-go-sgf")
        text = r.text
        assert text == dumps(m, fmt)
        # the content tells the format, whatever the file's name
        r = client.post("/api/records", json={"text": text, "name": "from-a-friend.txt"})
        assert r.status_code == 201, r.text
        back = r.json()
        assert back["imported"] and back["finished"] and back["kind"] == "match"
        assert back["score"] == st["score"] and back["target"] == 3
        assert back["title"] == "Backgammon match to 3 (imported)"
        # the same moves and cube actions, game by game
        rec = client.get(f"/api/games/{back['id']}/record").json()
        from tavli.play.record import load_record

        assert summary(load_record(rec)) == summary(m)
        assert loads(client.get(f"/api/games/{back['id']}/record",
                                params={"format": fmt}).text, fmt).score == m.score
    # a tavli record sent as a file's text imports as well
    import json

    r = client.post("/api/records", json={"text": json.dumps(match_record(m)),
                                          "name": "x.sgf"})
    assert r.status_code == 201, r.text


def test_export_refuses_what_gnubg_files_cannot_hold(client):
    st = new(client, variant="portes", opponent="human", seed=1)
    assert st["formats"] == ["json"]
    assert_error(client.get(f"/api/games/{st['id']}/record", params={"format": "mat"}), 422,
                 "backgammon", "format=json")
    pos = Position.from_points("backgammon", {6: 5, 8: 3}, {6: 5, 8: 3})
    st = new(client, variant="backgammon", opponent="human", seed=1, position=pos.id())
    assert st["formats"] == ["json"]
    assert_error(client.get(f"/api/games/{st['id']}/record", params={"format": "sgf"}), 422,
                 "opening position")
    assert_error(client.get(f"/api/games/{st['id']}/record", params={"format": "txt"}), 422)
    assert_error(client.get("/api/games/nope/record", params={"format": "mat"}), 404)


def test_damaged_files_are_refused_and_nothing_changes(client):
    m = _match(3)
    mat, sgf = dumps(m, "mat"), dumps(m, "sgf")
    import re

    bad = {
        # cut inside a move (a .mat cut between lines reads as an unfinished match)
        "truncated .mat": mat[: mat.index("/", len(mat) // 2) + 1],
        "truncated .sgf": sgf[: len(sgf) // 2],
        "wrong move .mat": re.sub(r"(\d\d: )(\S+)", r"\g<1>1/24", mat, count=3),
        "wrong move .sgf": re.sub(r";B\[(\d\d)(..)", r";B[\g<1>za", sgf, count=1),
        "garbage": "\x00\x01 hello world {[}",
        "empty": "",
        "a picture": "\x89PNG\r\n\x1a\n",
        "not json": "{ this is not json",
        "json list": "[1, 2]",
    }
    before = client.get("/api/games").json()
    for name, text in bad.items():
        for fname in ("game.mat", "game.sgf", "game.json", None):
            r = client.post("/api/records", json={"text": text, "name": fname})
            body = assert_error(r, 422, "cannot be read")
            assert "\n" not in body["error"], (name, body["error"])
            assert body["code"] == "invalid_record", (name, body)
    assert_error(client.post("/api/records", json={"text": mat, "nmae": "x"}), 422, "nmae")
    assert_error(client.post("/api/records", json={"text": 5}), 422, "string")
    # too many games or turns: refused before anything is replayed
    big = mat.replace(" 3 point match", " 25 point match") + "\n Game 2\n" * 120
    assert_error(client.post("/api/records", json={"text": big}), 422, "too many games")
    # a Portes record is not a gnubg file, but a tavli record still imports as it is
    assert client.get("/api/games").json() == before


def test_body_limit_applies_to_uploads(client):
    r = client.post("/api/records", json={"text": " " * (5 * 1024 * 1024), "name": "x.mat"})
    assert r.status_code == 413
    assert client.get("/api/games").json()["total"] == 0


# --- an imported record goes on --------------------------------------------------------------

def test_imported_file_continues(client):
    m = Match(5, "backgammon", seed=11, opening_each_game=True)
    random_play(m.game, random.Random(11), 60, m)
    assert not m.is_over
    up = client.post("/api/records", json={"text": dumps(m, "sgf"), "name": "m.sgf"}).json()
    gid = up["id"]
    assert up["imported"] and up["can_continue"] and not up["finished"]
    assert_error(client.post(f"/api/games/{gid}/roll"), 409, "review only")
    assert_error(client.post(f"/api/games/{gid}/continue", json={"level": "god"}), 422,
                 "level")
    st = client.post(f"/api/games/{gid}/continue", json={})
    assert st.status_code == 201, st.text
    st = st.json()
    assert not st["imported"] and not st["can_continue"] and st["id"] != gid
    assert st["position_id"] == up["position_id"] and st["score"] == up["score"]
    assert st["title"].endswith("(continued) (practice)") and st["practice"]
    # the player takes the side to act, the AI the other
    assert st["players"][st["turn"]]["type"] == "human"
    other = "black" if st["turn"] == "white" else "white"
    assert st["players"][other]["type"] == "ai"
    if st["phase"] in ("roll", "opening"):
        st = post(client, st["id"], "roll")
    assert st["phase"] in ("move", "roll", "double") and st["history"]
    # the import itself is unchanged, and still for review only
    again = client.get(f"/api/games/{gid}").json()
    assert again["imported"] and again["history"] == up["history"]
    # two players, and the errors
    st2 = client.post(f"/api/games/{gid}/continue", json={"opponent": "human"}).json()
    assert {p["type"] for p in st2["players"].values()} == {"human"} and not st2["practice"]
    assert_error(client.post(f"/api/games/{st2['id']}/continue", json={}), 409, "imported")
    done = client.post("/api/records", json=game_record(_finished_game())).json()
    assert not done["can_continue"]
    assert_error(client.post(f"/api/games/{done['id']}/continue", json={}), 409, "over")
    assert_error(client.post("/api/games/nope/continue", json={}), 404)


def _finished_game() -> Game:
    g = Game("backgammon", seed=4)
    random_play(g, random.Random(4), 2000)
    assert g.is_over
    return g
