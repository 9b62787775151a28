"""The browser app's HTTP API: every endpoint, bad input, and resuming after a restart."""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tavli.engine.board import Position
from tavli.play.game import Game
from tavli.play.players import GreedyPlayer, RandomPlayer, play_game
from tavli.play.record import game_record, load_record
from tavli.web.app import create_app


def new(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def post(client, gid, what, body=None, status=200):
    r = client.post(f"/api/games/{gid}/{what}", json=body) if body is not None else \
        client.post(f"/api/games/{gid}/{what}")
    assert r.status_code == status, r.text
    return r.json()


def steps_of(move):
    return [s[:2] for s in move["steps"]]


def human_turn(client, st):
    """Roll for the side to act (human) and return the state with dice out (passes
    happen by themselves, so this may be the next side's roll)."""
    if st["phase"] in ("opening", "roll"):
        st = post(client, st["id"], "roll")
    return st


def reviewed(client, gid, limit=300, **params):
    """GET the review until it is made (202 answers carry the progress meanwhile)."""
    import time

    for _ in range(limit * 10):
        r = client.get(f"/api/games/{gid}/review", params=params)
        if r.status_code != 202:
            return r
        p = r.json()
        assert p["status"] == "running" and 0 <= p["done"] <= p["total"], p
        time.sleep(0.1)
    raise AssertionError("the review was not made in time")


def assert_error(r, status, *words):
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) >= {"error"} and isinstance(body["error"], str) and body["error"]
    for w in words:
        assert w in body["error"], body["error"]
    return body


# --- creating games ------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["portes", "plakoto", "fevga", "backgammon", "tavli"])
def test_create_every_variant(client, variant):
    st = new(client, variant=variant, seed=1)
    assert st["variant"] == variant
    assert st["kind"] == ("match" if variant == "tavli" else "game")
    assert st["game"] == ("portes" if variant == "tavli" else variant)
    assert st["phase"] == "opening" and st["dice"] is None and st["legal_moves"] == []
    assert st["players"]["black"]["type"] == "ai" and st["players"]["white"]["type"] == "human"
    assert st["players"]["black"]["engine"] in ("neural", "greedy")
    assert st["position"]["game"] == st["game"]
    assert Position.from_id(st["position_id"]).game_name == st["game"]
    assert st["pips"]["white"] == st["pips"]["black"]
    assert st["target"] == (5 if variant == "tavli" else None)
    assert st["cube"]["used"] == (variant == "backgammon")
    assert client.get(f"/api/games/{st['id']}").json() == st


def test_create_options(client):
    st = new(client, variant="plakoto", opponent="human", first="black", seed=2)
    assert st["phase"] == "roll" and st["turn"] == "black"
    assert all(p["type"] == "human" for p in st["players"].values())
    st = new(client, variant="fevga", points=3, opponent="ai", ai_side="white", level="beginner")
    assert st["kind"] == "match" and st["target"] == 3
    assert st["players"]["white"] == {"type": "ai", "level": "beginner",
                                      "engine": st["players"]["white"]["engine"]}
    pos = Position.from_points("portes", {1: 2}, {1: 2}, turn=0)
    st = new(client, variant="portes", position=pos.id(), seed=4)
    assert st["position_id"] == pos.id() and st["phase"] == "roll"
    st = new(client, variant="backgammon", rules={"jacoby": True})
    assert st["rules"]["jacoby"] is True
    # matches as long as the engine plays them (its match equity table reaches 99 points)
    st = new(client, variant="backgammon", points=31)
    assert st["kind"] == "match" and st["target"] == 31


@pytest.mark.parametrize("body,status,words", [
    (b"{not json", 400, ["malformed JSON"]),
    (b"[1, 2]", 422, ["JSON object"]),
    (json.dumps({"variant": "chess"}).encode(), 422, ["variant"]),
    (json.dumps({"points": 0}).encode(), 422, ["points"]),
    (json.dumps({"points": "many"}).encode(), 422, ["points"]),
    (json.dumps({"points": 100}).encode(), 422, ["points"]),
    (json.dumps({"colour": "red"}).encode(), 422, ["colour", "unknown field"]),
    (json.dumps({"level": "godlike"}).encode(), 422, ["level"]),
    (json.dumps({"opponent": "robot"}).encode(), 422, ["opponent"]),
    (json.dumps({"variant": "tavli", "first": "white"}).encode(), 422, ["single games"]),
    (json.dumps({"variant": "portes", "position": "xyz"}).encode(), 422, []),
    (json.dumps({"variant": "portes", "rules": {"nonsense": 1}}).encode(), 422, ["nonsense"]),
])
def test_create_bad_input(client, body, status, words):
    r = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert_error(r, status, *words)
    assert client.get("/api/games").json()["games"] == []


def test_unknown_game_id(client):
    for method, path in [("get", ""), ("post", "/roll"), ("post", "/move"), ("post", "/ai"),
                         ("post", "/double"), ("post", "/take"), ("post", "/drop"),
                         ("post", "/next"), ("get", "/hint"), ("get", "/review"),
                         ("get", "/record"), ("delete", "")]:
        kw = {"json": {"move": "24/18"}} if path == "/move" else {}
        r = getattr(client, method)(f"/api/games/nope{path}", **kw)
        assert_error(r, 404, "nope")
    assert_error(client.get("/api/nothing-here"), 404)


# --- playing ---------------------------------------------------------------------------------

def test_roll_move_by_text_and_by_steps(client):
    st = new(client, variant="portes", opponent="human", seed=7)
    gid = st["id"]
    st = post(client, gid, "roll")
    assert st["phase"] == "move" and st["last"]["kind"] == "opening"
    assert st["history"][0]["opening"] == st["last"]["opening"][-1]
    side, dice = st["turn"], st["dice"]
    text = st["legal_moves"][0]["move"]
    st2 = post(client, gid, "move", {"move": text, "side": side})
    assert st2["last"] == {**st2["last"], "kind": "move", "side": side, "move": text,
                           "dice": dice}
    assert st2["last"]["before"]["id"] == st["position_id"]
    assert st2["turn"] != side and st2["phase"] == "roll"
    st3 = post(client, gid, "roll")
    mv = st3["legal_moves"][-1]
    # steps in any order, as the page sends them
    st4 = post(client, gid, "move", {"steps": list(reversed(steps_of(mv)))})
    assert st4["last"]["move"] == mv["move"]
    g = load_record(client.get(f"/api/games/{gid}/record").json())
    assert g.position.id() == st4["position_id"]


def test_illegal_and_malformed_moves_change_nothing(client):
    st = new(client, variant="portes", opponent="human", seed=5, first="white")
    gid = st["id"]
    # before rolling
    assert_error(client.post(f"/api/games/{gid}/move", json={"move": "24/18"}), 409, "roll")
    st = post(client, gid, "roll")
    before = client.get(f"/api/games/{gid}").json()
    bad = [
        ({"move": "24/1"}, 422, ["illegal move"]),
        ({"move": "hello"}, 422, []),
        ({"move": ""}, 422, ["empty"]),
        ({"steps": [[24, 1]]}, 422, ["illegal move", "24/1"]),
        ({"steps": [[24, 99]]}, 422, ["0-25"]),
        ({"steps": [["x", 3]]}, 422, ["bar"]),
        ({"steps": [[24]]}, 422, ["steps"]),
        ({"steps": []}, 422, ["empty"]),
        ({"move": "24/18", "steps": [[24, 18]]}, 422, ["either"]),
        ({}, 422, ["either"]),
        ({"move": 42}, 422, ["move"]),
        ({"move": "24/18", "extra": 1}, 422, ["unknown field"]),
        ({"move": st["legal_moves"][0]["move"], "side": "black"}, 409, ["white's turn"]),
        ({"move": st["legal_moves"][0]["move"], "side": "green"}, 422, ["side"]),
    ]
    for body, status, words in bad:
        assert_error(client.post(f"/api/games/{gid}/move", json=body), status, *words)
    assert_error(client.post(f"/api/games/{gid}/move", content=b"{oops",
                             headers={"Content-Type": "application/json"}), 400, "JSON")
    assert_error(client.post(f"/api/games/{gid}/move"), 422, "body")
    assert_error(client.post(f"/api/games/{gid}/roll"), 409, "dice")
    assert client.get(f"/api/games/{gid}").json() == before


def test_players_and_the_ai(client):
    st = new(client, variant="fevga", seed=11, ai_side="black", first="black")
    gid = st["id"]
    assert st["ai_to_act"] and st["turn"] == "black"
    assert_error(client.post(f"/api/games/{gid}/roll"), 409, "AI")
    st = post(client, gid, "ai")
    assert st["last"]["kind"] in ("roll", "pass") and st["last"]["side"] == "black"
    if st["phase"] == "move":
        assert st["ai_to_act"]
        assert_error(client.post(f"/api/games/{gid}/move",
                                 json={"move": st["legal_moves"][0]["move"]}), 409, "AI")
        st = post(client, gid, "ai")
        assert st["last"]["kind"] == "move" and st["last"]["steps"]
        assert st["last"]["before"]["turn"] == "black"
    assert st["turn"] == "white" and not st["ai_to_act"]
    assert_error(client.post(f"/api/games/{gid}/ai"), 409, "person")
    st = human_turn(client, st)
    assert st["turn"] == "white" and st["phase"] == "move"


def test_opening_throw_by_the_player_against_an_ai_starter(client):
    for seed in range(20):
        st = new(client, variant="portes", seed=seed)
        st = post(client, st["id"], "roll")
        if st["turn"] == "black":
            break
    assert st["last"]["kind"] == "opening" and st["last"]["side"] == "black"
    assert st["ai_to_act"] and st["phase"] == "move"
    st = post(client, st["id"], "ai")
    assert st["last"]["kind"] == "move" and st["turn"] == "white"


def test_no_legal_move_passes_by_itself(client):
    # white on the bar against a closed board: no roll enters
    black = {p: 2 for p in range(1, 7)}
    black[13] = 3
    pos = Position.from_points("portes", {25: 1, 13: 14}, black, turn=0)
    st = new(client, variant="portes", opponent="human", position=pos.id(), seed=3)
    st = post(client, st["id"], "roll")
    assert st["last"]["kind"] == "pass" and st["last"]["side"] == "white"
    assert len(st["last"]["dice"]) == 2
    assert st["turn"] == "black" and st["phase"] == "roll"
    assert "cannot move" in st["message"]
    assert st["history"][-1]["move"] == ""


def test_cube_double_take_drop(client):
    st = new(client, variant="backgammon", opponent="human", first="white", seed=9)
    gid = st["id"]
    assert st["cube"]["can_double"]
    assert_error(client.post(f"/api/games/{gid}/take"), 409, "no double")
    st = post(client, gid, "double", {"side": "white"})
    assert st["phase"] == "double" and st["turn"] == "black"
    assert_error(client.post(f"/api/games/{gid}/roll"), 409, "take or drop")
    assert_error(client.post(f"/api/games/{gid}/take", json={"side": "white"}), 409, "black")
    st = post(client, gid, "take")
    assert st["cube"] == {**st["cube"], "value": 2, "owner": "black"}
    assert st["phase"] == "roll" and st["turn"] == "white" and not st["cube"]["can_double"]
    assert_error(client.post(f"/api/games/{gid}/double"), 409)
    st = post(client, gid, "roll")
    st = post(client, gid, "move", {"move": st["legal_moves"][0]["move"]}) \
        if st["phase"] == "move" else st
    assert st["turn"] == "black"
    st = post(client, gid, "double")
    st = post(client, gid, "drop")
    assert st["phase"] == "over" and st["finished"]
    assert st["outcome"] == {"winner": "black", "points": 2, "kind": "drop"}
    assert st["winner"] == "black" and st["score"] == {"white": 0, "black": 2}
    # nothing is allowed after the end
    for what in ("roll", "double", "take", "drop", "ai"):
        assert_error(client.post(f"/api/games/{gid}/{what}"), 409, "over")
    assert_error(client.post(f"/api/games/{gid}/move", json={"move": "24/18"}), 409, "over")
    assert_error(client.post(f"/api/games/{gid}/next"), 409, "single game")
    assert_error(client.get(f"/api/games/{gid}/hint"), 409, "roll")


def _finish_game_by_first_moves(client, st):
    gid = st["id"]
    for _ in range(600):
        if st["phase"] == "over":
            return st
        if st["phase"] in ("opening", "roll"):
            st = post(client, gid, "roll")
        elif st["phase"] == "move":
            st = post(client, gid, "move", {"steps": steps_of(st["legal_moves"][0])})
    raise AssertionError("the game did not end")


def test_match_next_game_and_end(client):
    st = new(client, variant="tavli", points=1, opponent="human", seed=21)
    gid = st["id"]
    st = _finish_game_by_first_moves(client, st)
    assert st["kind"] == "match" and st["outcome"] is not None
    if st["outcome"]["winner"] is None:  # a Plakoto draw cannot happen in Portes
        pytest.fail("Portes cannot be drawn")
    assert st["finished"] and st["winner"] == st["outcome"]["winner"]
    assert_error(client.post(f"/api/games/{gid}/next"), 409, "match is over")
    assert_error(client.post(f"/api/games/{gid}/roll"), 409, "over")

    st = new(client, variant="tavli", points=3, opponent="human", seed=22)
    gid = st["id"]
    st = _finish_game_by_first_moves(client, st)
    if not st["finished"]:
        assert_error(client.post(f"/api/games/{gid}/roll"), 409, "next")
        st = post(client, gid, "next")
        assert st["game"] == "plakoto" and st["game_number"] == 2
        assert st["phase"] in ("roll", "opening") and st["outcome"] is None
        assert sum(st["score"].values()) >= 1
        assert_error(client.post(f"/api/games/{gid}/next"), 409, "not over")


def test_hint_ranks_moves(client):
    st = new(client, variant="portes", opponent="human", seed=3, first="white")
    gid = st["id"]
    assert_error(client.get(f"/api/games/{gid}/hint"), 409, "roll")
    st = post(client, gid, "roll")
    h = client.get(f"/api/games/{gid}/hint").json()
    assert h["side"] == "white" and h["dice"] == st["dice"]
    assert len(h["moves"]) == len(st["legal_moves"])
    legal = {m["move"] for m in st["legal_moves"]}
    assert {m["move"] for m in h["moves"]} == legal
    if h["engine"] == "neural":
        top = [m for m in h["moves"] if m["ply"] == h["ply"]]
        eq = [m["equity"] for m in top]
        assert eq == sorted(eq, reverse=True)
        assert all(0 <= m["win"] <= 1 for m in h["moves"])
    assert all(m["steps"] for m in h["moves"])
    h0 = client.get(f"/api/games/{gid}/hint", params={"level": "advanced"}).json()
    assert h0["ply"] in (0, h["ply"])
    assert_error(client.get(f"/api/games/{gid}/hint", params={"level": "god"}), 422, "level")
    # a hint changes nothing
    assert client.get(f"/api/games/{gid}").json()["dice"] == st["dice"]


# --- records, review, list -------------------------------------------------------------------

def _played_record(variant="fevga", seed=8):
    g = Game(variant, seed=seed)
    play_game(g, (GreedyPlayer(), RandomPlayer(seed=1)))
    return game_record(g, seed)


def test_export_import_and_review(client):
    rec = _played_record()
    r = client.post("/api/records", json=rec)
    assert r.status_code == 201, r.text
    st = r.json()
    gid = st["id"]
    assert st["imported"] and st["phase"] == "over" and st["finished"]
    assert not st["ai_to_act"]
    assert client.get(f"/api/games/{gid}/record").json() == rec
    r = client.get(f"/api/games/{gid}/record", params={"download": "true"})
    assert "attachment" in r.headers["content-disposition"]
    # review only
    st2 = new(client, variant="portes")
    for what in ("roll", "ai", "double"):
        assert_error(client.post(f"/api/games/{gid}/{what}"), 409)
    assert client.get(f"/api/games/{st2['id']}").status_code == 200

    rv = reviewed(client, gid, ply=0)
    if st["players"]["white"].get("engine") == "greedy":
        return
    assert rv.status_code == 200, rv.text
    rv = rv.json()
    turns = load_record(rec).turns
    assert len(rv["curve"]) == len(rv["turns"]) == len(turns)
    assert all(0 <= c["white_win"] <= 1 for c in rv["curve"])
    assert rv["mistakes"], "random play makes mistakes"
    losses = [m["loss"] for m in rv["mistakes"]]
    assert losses == sorted(losses, reverse=True)
    for m in rv["mistakes"]:
        assert m["mark"] and m["best"] != m["played"]
        assert rv["turns"][m["index"]]["position"] == m["position"]
        assert Position.from_json(m["board"]).id() == m["position"]
    assert set(rv["players"]) == {"white", "black"}
    assert_error(client.get(f"/api/games/{gid}/review", params={"ply": 7}), 422, "ply")


def test_import_bad_records(client):
    assert_error(client.post("/api/records", content=b"{]",
                             headers={"Content-Type": "application/json"}), 400, "JSON")
    assert_error(client.post("/api/records", json=[1]), 422, "object")
    assert_error(client.post("/api/records", json={"format": "other"}), 422, "record")
    rec = _played_record()
    rec["games"][0]["events"][3]["move"] = "24/1"
    assert_error(client.post("/api/records", json=rec), 422, "event 4")
    assert client.get("/api/games").json()["games"] == []


def test_review_of_a_played_game(client):
    pos = Position.from_points("portes", {1: 1, 2: 1, 6: 2}, {1: 1, 2: 1, 6: 2})
    st = new(client, variant="portes", position=pos.id(), seed=1, ai_side="black")
    gid = st["id"]
    for _ in range(40):
        if st["phase"] == "over":
            break
        if st["ai_to_act"]:
            st = post(client, gid, "ai")
        elif st["phase"] == "roll":
            st = post(client, gid, "roll")
        else:
            st = post(client, gid, "move", {"steps": steps_of(st["legal_moves"][-1])})
    assert st["phase"] == "over"
    rv = reviewed(client, gid)
    if st["players"]["black"]["engine"] == "greedy":
        assert_error(rv, 409, "network")
        return
    rv = rv.json()
    # one ply deeper than the AI (expert: 1-ply), and the review says so
    assert rv["ply"] == 2 and len(rv["curve"]) == len([e for e in st["history"] if "dice" in e])
    assert rv["ply_note"] == "one ply deeper than black's AI (expert, 1-ply)"
    assert rv["summary"][-1] == "Analysis at 2-ply: one ply deeper than black's AI (expert, 1-ply)"
    from tavli.i18n import text
    assert [text("en", m) for m in rv["summary_msgs"]] == rv["summary"]
    assert text("el", rv["summary_msgs"][-1]) == \
        "Ανάλυση σε βάθος 2: ένα επίπεδο βαθύτερα από τον υπολογιστή των μαύρων (έμπειρος, βάθος 1)"
    again = client.get(f"/api/games/{gid}/review")  # kept: the same answer at once
    assert again.status_code == 200 and again.json() == rv


def test_list_and_delete(client):
    a = new(client, variant="portes")
    b = new(client, variant="tavli", points=7, opponent="human")
    games = client.get("/api/games").json()["games"]
    assert {g["id"] for g in games} == {a["id"], b["id"]}
    by_id = {g["id"]: g for g in games}
    assert by_id[b["id"]]["kind"] == "match" and by_id[b["id"]]["status"] == "playing"
    assert by_id[b["id"]]["title"].startswith("Tavli match to 7")
    assert by_id[a["id"]]["score"] == [0, 0]
    assert client.delete(f"/api/games/{a['id']}").status_code == 204
    assert_error(client.get(f"/api/games/{a['id']}"), 404)
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [b["id"]]


def test_page_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200 and "<svg id=\"board\"" in r.text
    for name in ("app.js", "style.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.text) > 1000
    assert "http://" not in client.get("/").text.replace("http://www.w3.org", "")
    assert_error(client.get("/static/missing.js"), 404)


# --- the database --------------------------------------------------------------------------

def _script(client, gid, actions):
    st = None
    for a in actions:
        if a == "roll":
            st = post(client, gid, "roll")
        elif a == "ai":
            st = post(client, gid, "ai")
        else:  # play the n-th legal move
            st = client.get(f"/api/games/{gid}").json()
            st = post(client, gid, "move", {"steps": steps_of(st["legal_moves"][a])})
    return st


def _clean(st):
    return {k: v for k, v in st.items() if k != "id"}


@pytest.mark.parametrize("stop", [1, 2, 3, 4, 5])
def test_restart_resumes_with_the_same_dice(tmp_path, stop):
    """A game saved in SQLite resumes after a restart exactly where it was, and the seeded
    dice go on as if the server had never stopped (also with dice thrown, not played)."""
    actions = ["roll", 0, "roll", 1, "roll", 0, "roll", 0]
    body = {"variant": "portes", "opponent": "human", "seed": 12}
    # without a restart
    c1 = TestClient(create_app(tmp_path / "a.db", allowed_hosts=["testserver"]))
    gid1 = new(c1, **body)["id"]
    _script(c1, gid1, actions[:stop])
    mid1 = c1.get(f"/api/games/{gid1}").json()
    end1 = _script(c1, gid1, actions[stop:])
    # with a restart after `stop` actions
    c2 = TestClient(create_app(tmp_path / "b.db", allowed_hosts=["testserver"]))
    gid2 = new(c2, **body)["id"]
    _script(c2, gid2, actions[:stop])
    c3 = TestClient(create_app(tmp_path / "b.db", allowed_hosts=["testserver"]))
    mid2 = c3.get(f"/api/games/{gid2}").json()
    assert _clean(mid2) == _clean(mid1)
    end2 = _script(c3, gid2, actions[stop:])
    assert _clean(end2) == _clean(end1)


def test_restart_resumes_match_and_ai_game(db):
    c = TestClient(create_app(db, allowed_hosts=["testserver"]))
    st = new(c, variant="tavli", points=3, seed=5)
    gid = st["id"]
    st = post(c, gid, "roll")
    for _ in range(4):
        if st["ai_to_act"]:
            st = post(c, gid, "ai")
        elif st["phase"] == "roll":
            st = post(c, gid, "roll")
        elif st["phase"] == "move":
            st = post(c, gid, "move", {"move": st["legal_moves"][0]["move"]})
    c2 = TestClient(create_app(db, allowed_hosts=["testserver"]))
    again = c2.get(f"/api/games/{gid}").json()
    assert again == st
    assert [g["id"] for g in c2.get("/api/games").json()["games"]] == [gid]


def test_every_action_is_saved_at_once(db):
    from tavli.store.factory import open_local

    c = TestClient(create_app(db, allowed_hosts=["testserver"]))
    st = new(c, variant="plakoto", opponent="human", seed=2)
    st = post(c, st["id"], "roll")
    with open_local(db) as store:
        row = store.get(st["id"])
    assert row["status"] == "playing" and row["meta"]["pending"] == st["dice"]
    assert load_record(row["record"]).position.id() == st["position_id"]


# --- the command line --------------------------------------------------------------------

def test_tavli_play_routes_to_web_or_terminal(monkeypatch, capsys):
    from tavli import cli, tui
    from tavli.web import server

    seen = []
    monkeypatch.setattr(tui, "run", lambda args: seen.append(("tui", args)) or 0)
    monkeypatch.setattr(server, "run", lambda args: seen.append(("web", args)) or 0)
    assert cli.main(["play", "--tui", "--game", "portes"]) == 0
    assert cli.main(["play", "--no-browser", "--port", "9999", "--host", "127.0.0.1",
                     "--db", "x.db"]) == 0
    assert [k for k, _ in seen] == ["tui", "web"]
    args = seen[1][1]
    assert (args.no_browser, args.port, args.host, args.db) == (True, 9999, "127.0.0.1", "x.db")


def test_web_refuses_terminal_options(capsys):
    from tavli import cli

    for opts in (["--resume", "saved.json"], ["--seed", "1"], ["--game", "plakoto"]):
        assert cli.main(["play", *opts]) == 2
        assert "--tui" in capsys.readouterr().err


def test_tavli_play_serves_and_prints_the_url(tmp_path):
    import re
    import subprocess
    import sys
    import urllib.request

    db = tmp_path / "sub" / "games.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from tavli.cli import main; sys.exit(main())",
         "play", "--no-browser", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        url = m.group(0)
        # at once: the address printed already listens (the page waits, is not refused)
        page = urllib.request.urlopen(url, timeout=60).read().decode()
        assert "<svg id=\"board\"" in page
        req = urllib.request.Request(url + "api/games", data=b'{"variant": "portes"}',
                                     headers={"Content-Type": "application/json"})
        assert json.load(urllib.request.urlopen(req, timeout=10))["game"] == "portes"
        assert db.exists()
    finally:
        proc.terminate()
        proc.wait(10)


def test_imported_files_show_their_players_names(client):
    """A .mat or .sgf file's player names reach the state the players panel draws, and
    the app's export gives them back (issue 31)."""
    from tavli.play.formats import dumps as dump_text
    from tavli.play.formats import loads as load_text
    from tavli.play.match import Match

    m = Match(3, "backgammon", seed=4, opening_each_game=True)
    for _ in range(6):
        g = m.game
        g.roll() if g.phase in ("roll", "opening") else g.play(
            g.legal_moves()[0] if g.legal_moves() else None)
    m.names = ("Ann", "Bob")
    for fmt in ("mat", "sgf"):
        r = client.post("/api/records", json={"text": dump_text(m, fmt), "name": f"m.{fmt}"})
        assert r.status_code == 201, r.text
        st = r.json()
        assert st["players"]["white"]["name"] == "Ann"
        assert st["players"]["black"]["name"] == "Bob"
        text = client.get(f"/api/games/{st['id']}/record", params={"format": fmt}).text
        assert load_text(text, fmt).names == ("Ann", "Bob")


def _to_double(client, gid, st):
    """Play on (both sides people) until the side to act may double before its roll."""
    for _ in range(200):
        if st["phase"] == "roll" and st["cube"]["can_double"]:
            return st
        if st["phase"] in ("opening", "roll"):
            st = post(client, gid, "roll", {"side": st["turn"]})
        elif st["phase"] == "move":
            moves = st["legal_moves"]
            st = post(client, gid, "move", {"side": st["turn"],
                                             "move": moves[0]["move"] if moves else ""})
    raise AssertionError("no double came")


def test_beavers_through_the_api(client):
    """Money play with beavers: the doubled side beavers (the cube goes to 4 and stays
    with him); without beavers, or in a match, the API refuses (issue 31)."""
    st = new(client, variant="backgammon", opponent="human", seed=5,
             rules={"beavers": True})
    gid = st["id"]
    st = _to_double(client, gid, st)
    doubler = st["turn"]
    st = post(client, gid, "double", {"side": doubler})
    taker = st["turn"]
    assert st["phase"] == "double" and st["cube"]["can_beaver"] and taker != doubler
    st = post(client, gid, "beaver", {"side": taker})
    assert st["cube"]["value"] == 4 and st["cube"]["owner"] == taker
    assert st["last"]["kind"] == "beaver" and not st["cube"]["can_beaver"]
    assert client.get(f"/api/games/{gid}/record").json()["games"][0]["events"][-1] == \
        {"side": taker, "beaver": True}
    plain = new(client, variant="backgammon", opponent="human", seed=5)
    plain = _to_double(client, plain["id"], plain)
    plain = post(client, plain["id"], "double", {"side": plain["turn"]})
    assert not plain["cube"]["can_beaver"]
    assert_error(client.post(f"/api/games/{plain['id']}/beaver",
                             json={"side": plain["turn"]}), 409, "beaver")
