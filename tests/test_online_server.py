"""The online server (``tavli serve``): the HTTP API and the WebSocket protocol, with
Starlette's test client — whole games between two players watched by a spectator,
resync, every refusal leaving the game unchanged, and two server processes sharing one
PostgreSQL."""

from __future__ import annotations

import json
import random
import time
import warnings

import anyio
import pytest
from conftest import recv, served

from tavli.online.app import create_online_app
from tavli.online.fairdice import new_client_seed, verify_record
from tavli.online.protocol import BURST, MAX_MESSAGE
from tavli.online.routes import SEAT_HEADER

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def timeless(state):
    """A state without what changes as time passes (how long a seat has been away)."""
    return {k: v for k, v in state.items() if k != "absent"}


def _client(db, **kw) -> TestClient:
    return TestClient(create_online_app(db, allowed_hosts=["testserver"], **kw))


def until(ws, pred, timeout: float = 10.0) -> dict:
    """Read ``ws`` until a message satisfies ``pred``; that message."""
    seen = []
    while True:
        try:
            m = recv(ws, timeout)
        except TimeoutError:
            raise AssertionError(f"no such message; got {seen[-3:]}") from None
        if pred(m):
            return m
        seen.append(m)


def drain(ws, timeout: float = 0.3) -> list[dict]:
    """Every message that arrives within ``timeout`` seconds of the last."""
    out = []
    while True:
        try:
            out.append(recv(ws, timeout))
        except TimeoutError:
            return out


def _create(c: TestClient, **game) -> dict:
    r = c.post("/api/online/games", json={"game": {"variant": "portes", "opponent": "human",
                                                   **game}, "name": "Ann"})
    assert r.status_code == 201, r.text
    return r.json()


def _join(c: TestClient, new: dict) -> None:
    r = c.post(f"/api/online/games/{new['id']}/join",
               json={"token": new["invite_token"], "name": "Bob"})
    assert r.status_code == 200, r.text
    assert r.json()["side"] == "black"


def _hello(ws, token=None, seq=None) -> dict:
    msg: dict = {"type": "hello"}
    if token is not None:
        msg["token"] = token
    if seq is not None:
        msg["seq"] = seq
    ws.send_json(msg)
    return until(ws, lambda m: m["type"] in ("welcome", "error"))


def _act(ws, seq: int, action: dict) -> dict:
    """Send an action; the ack, or the error refusing it."""
    ws.send_json({"type": "act", "seq": seq, "action": action})
    return until(ws, lambda m: m["type"] in ("ack", "error") and m.get("seq") == seq)


def _next_action(c: TestClient, game_id: str, rng: random.Random) -> dict:
    g = c.app.state.games.table(game_id).game
    if g.phase in ("opening", "roll"):
        return {"type": "roll"}
    return {"type": "move", "move": str(rng.choice(g.legal_moves()))}


def test_create_join_and_state_over_http(tmp_path):
    with _client(tmp_path / "o.sqlite3") as c:
        new = _create(c)
        assert new["side"] == "white" and new["invite_side"] == "black"
        assert len(new["token"]) >= 22 and new["token"] != new["invite_token"]  # >= 128 bits
        assert new["invite"] == f"http://testserver/online/{new['id']}#seat={new['invite_token']}"
        assert new["watch"] == f"http://testserver/online/{new['id']}"
        assert new["state"]["status"] == "open" and new["state"]["seq"] == 0
        stored = c.app.state.games.store.seats(new["id"])
        assert all(new["token"] not in str(s) and new["invite_token"] not in str(s)
                   for s in stored)  # only hashes
        _join(c, new)
        r = c.get(f"/api/online/games/{new['id']}", headers={SEAT_HEADER: new["token"]})
        assert r.json()["side"] == "white" and r.json()["state"]["status"] == "playing"
        r = c.get(f"/api/online/games/{new['id']}")
        assert r.json()["side"] is None and r.json()["state"]["seats"][1]["name"] == "Bob"
        # refusals: a forged seat, a second join, a bad body, an unknown game
        r = c.get(f"/api/online/games/{new['id']}", headers={SEAT_HEADER: "forged"})
        assert r.status_code == 403 and r.json()["code"] == "access_denied"
        r = c.post(f"/api/online/games/{new['id']}/join",
                   json={"token": new["invite_token"], "name": "Eve"})
        assert r.status_code == 409 and "joined already" in r.json()["error"]
        r = c.post(f"/api/online/games/{new['id']}/join",
                   json={"token": "forged-token", "name": "Eve"})
        assert r.status_code == 403
        r = c.post("/api/online/games", json={"game": {"variant": "nope"}, "name": "Ann"})
        assert r.status_code == 422
        for dama in ("dama", "russian"):  # the app's Dama is not played online
            r = c.post("/api/online/games", json={"game": {"variant": dama}, "name": "Ann"})
            assert r.status_code == 422 and "not played online" in r.json()["error"]
        r = c.post("/api/online/games", json={"game": {"variant": "portes", "seed": 3},
                                              "name": "Ann"})
        assert r.status_code == 422 and "fair dice" in r.json()["error"]
        r = c.post("/api/online/games", content=b"{nope", headers={
            "content-type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "malformed_json"
        assert c.get("/api/online/games/doesnotexist").status_code == 404
        assert c.get("/api/online/games/doesnotexist/record").status_code == 404
        assert c.app.state.games.view(new["id"])["seq"] == 1  # only the join


def test_a_whole_portes_game_two_players_and_a_spectator(tmp_path):
    rng = random.Random(7)
    with _client(tmp_path / "o.sqlite3", rate=1e6) as c:  # faster than people play
        new = _create(c)
        _join(c, new)
        gid = new["id"]
        with c.websocket_connect(f"/ws/online/{gid}") as white, \
                c.websocket_connect(f"/ws/online/{gid}") as black, \
                c.websocket_connect(f"/ws/online/{gid}") as watcher:
            ws = {"white": white, "black": black}
            assert _hello(white, new["token"])["side"] == "white"
            assert _hello(black, new["invite_token"])["side"] == "black"
            w = _hello(watcher)
            assert w["side"] is None and w["state"]["seq"] == 1
            p = until(white, lambda m: m["type"] == "presence" and m["spectators"])
            assert p["seats"] == {"white": True, "black": True} and p["spectators"] == 1
            seq = 1
            for side in ("white", "black"):
                seq += 1
                assert _act(ws[side], seq, {"type": "seed",
                                            "seed": new_client_seed()})["type"] == "ack"
            for _ in range(3000):
                v = c.app.state.games.view(gid)
                if v["status"] == "over":
                    break
                seq = v["seq"] + 1
                answer = _act(ws[v["turn"]], seq, _next_action(c, gid, rng))
                assert answer == {"type": "ack", "seq": seq}
            else:
                raise AssertionError("the game did not end")
            final = c.app.state.games.view(gid)
            assert final["outcome"]["winner"] in ("white", "black")
            # the spectator saw every action once, in order, and the final state
            seen: list[int] = []
            last = None
            while last is None or last["seq"] < final["seq"]:  # 10 s at most per message
                m = recv(watcher)
                if m["type"] == "update":
                    seen += [a["seq"] for a in m["actions"]]
                    last = m["state"]
            assert seen == list(range(2, final["seq"] + 1))
            assert last == final
        rec = c.get(f"/api/online/games/{gid}/record").json()
        rolls, problems = verify_record(rec)
        assert problems == [] and rolls > 10


def _started(c: TestClient):
    """A Portes game with both seats joined and seeded, at the opening roll."""
    new = _create(c)
    _join(c, new)
    games = c.app.state.games
    for n, tok in enumerate((new["token"], new["invite_token"])):
        games.act(new["id"], tok, 2 + n, {"type": "seed", "seed": new_client_seed()})
    return new


def test_reconnect_and_resync(tmp_path):
    with _client(tmp_path / "o.sqlite3") as c:
        new = _started(c)
        gid = new["id"]
        with c.websocket_connect(f"/ws/online/{gid}") as white:
            w = _hello(white, new["token"])
            assert w["state"]["seq"] == 3 and w["state"]["legal_moves"] == []
            assert _act(white, 4, {"type": "roll"})["type"] == "ack"
        # white is gone; black acts meanwhile (through the service: another process)
        games = c.app.state.games
        v = games.view(gid)
        if v["phase"] == "move":
            tok = new["token"] if v["turn"] == "white" else new["invite_token"]
            g = games.table(gid).game
            games.act(gid, tok, 5, {"type": "move", "move": str(g.legal_moves()[0])})
        now = games.view(gid)
        with c.websocket_connect(f"/ws/online/{gid}") as white:
            w = _hello(white, new["token"], seq=3)  # the last action it saw
            assert [a["seq"] for a in w["actions"]] == list(range(4, now["seq"] + 1))
            assert w["actions"][0]["action"] == {"type": "roll"}
            assert timeless(w["state"]) == timeless(now)
            if now["phase"] == "move":  # the moves the page offers
                g = games.table(gid).game
                assert [m["move"] for m in now["legal_moves"]] == [
                    str(m) for m in g.legal_moves()]
        with c.websocket_connect(f"/ws/online/{gid}") as white:
            w = _hello(white, new["token"])  # no number: the state alone
            assert w["actions"] == [] and timeless(w["state"]) == timeless(now)
        with c.websocket_connect(f"/ws/online/{gid}") as white:
            w = _hello(white, new["token"], seq=now["seq"] + 50)  # from the future
            assert w["actions"] == [] and timeless(w["state"]) == timeless(now)


def test_presence(tmp_path):
    with _client(tmp_path / "o.sqlite3") as c:
        new = _started(c)
        gid = new["id"]
        with c.websocket_connect(f"/ws/online/{gid}") as white:
            _hello(white, new["token"])
            with c.websocket_connect(f"/ws/online/{gid}") as black:
                _hello(black, new["invite_token"])
                until(white, lambda m: m["type"] == "presence" and m["seats"]["black"])
            m = until(white, lambda m: m["type"] == "presence" and not m["seats"]["black"])
            assert m["seats"] == {"white": True, "black": False}


def test_refusals_change_nothing(tmp_path):
    with _client(tmp_path / "o.sqlite3") as c:
        new = _started(c)
        gid = new["id"]
        store = c.app.state.games.store

        def snapshot():
            return store.game(gid).record, len(store.actions(gid))

        with c.websocket_connect(f"/ws/online/{gid}") as white, \
                c.websocket_connect(f"/ws/online/{gid}") as black, \
                c.websocket_connect(f"/ws/online/{gid}") as watcher:
            # before hello: acting is refused
            e = _act(white, 4, {"type": "roll"})
            assert e["code"] == "hello_first"
            # a forged token: refused, the connection may say hello again
            e = _hello(white, "forged-token-forged-token")
            assert e["type"] == "error" and e["code"] == "access_denied"
            assert _hello(white, new["token"])["side"] == "white"
            e = _hello(white, new["token"])
            assert e["code"] == "wrong_state"  # hello once
            _hello(black, new["invite_token"])
            _hello(watcher)
            assert _act(white, 4, {"type": "roll"})["type"] == "ack"
            before = snapshot()
            v = c.app.state.games.view(gid)
            mover = white if v["turn"] == "white" else black
            other = black if mover is white else white
            g = c.app.state.games.table(gid).game
            move = str(g.legal_moves()[0])
            cases = [
                (watcher, 5, {"type": "move", "move": move}, "access_denied"),  # spectator
                (other, 5, {"type": "move", "move": move}, "wrong_state"),   # other seat
                (mover, 4, {"type": "move", "move": move}, "stale"),         # replayed
                (mover, 9, {"type": "move", "move": move}, "stale"),         # from the future
                (mover, 5, {"type": "move", "move": "1/2 3/4"}, None),       # illegal
                (mover, 5, {"type": "move", "move": move, "side": "black"}, "invalid"),
                (mover, 5, {"type": "fly"}, "invalid"),
            ]
            for ws, seq, action, code in cases:
                e = _act(ws, seq, action)
                assert e["type"] == "error" and e["error"], (action, e)
                if code is not None:
                    assert e["code"] == code, (action, e)
                else:
                    assert e["code"] in ("illegal_move", "invalid"), e
                assert snapshot() == before
            # malformed, oversized, binary, unknown: one clear error each, still usable
            for raw, code in [("{nope", "malformed_json"), ("[1, 2]", "invalid"),
                              ('{"type": "shout"}', "invalid"),
                              ('{"type": "act", "seq": "5", "action": {}}', "invalid"),
                              (json.dumps({"type": "ping", "data": "x" * MAX_MESSAGE}),
                               "too_large")]:
                mover.send_text(raw)
                e = until(mover, lambda m: m["type"] == "error")
                assert e["code"] == code, (raw[:40], e)
                assert len(e["error"]) < 200 and "\n" not in e["error"]
            mover.send_bytes(b'{"type": "ping"}')
            assert until(mover, lambda m: m["type"] == "error")["code"] == "invalid"
            assert snapshot() == before
            assert _act(mover, 5, {"type": "move", "move": move})["type"] == "ack"
            # the same action resent (its ack lost): refused, applied once
            e = _act(mover, 5, {"type": "move", "move": move})
            assert e["code"] == "stale"
            assert len(store.actions(gid)) == before[1] + 1


def test_a_flood_is_limited(tmp_path):
    with _client(tmp_path / "o.sqlite3") as c:
        new = _started(c)
        gid = new["id"]
        before = len(c.app.state.games.store.actions(gid))
        with c.websocket_connect(f"/ws/online/{gid}") as white:
            _hello(white, new["token"])
            n = BURST * 3
            for i in range(n):
                white.send_json({"type": "ping", "data": i})
            answers = [until(white, lambda m: m["type"] in ("pong", "error"))
                       for _ in range(n)]
            refused = [a for a in answers if a["type"] == "error"]
            assert refused and all(a["code"] == "rate_limited" for a in refused)
            assert sum(a["type"] == "pong" for a in answers) >= BURST - 1  # hello took one
            anyio.run(anyio.sleep, 0.3)
            white.send_json({"type": "ping", "data": "again"})  # usable once it slows down
            assert until(white, lambda m: m["type"] in ("pong", "error")) == {
                "type": "pong", "data": "again"}
        assert len(c.app.state.games.store.actions(gid)) == before


def test_connections_per_address_are_limited(tmp_path):
    with _client(tmp_path / "o.sqlite3", per_address=2) as c:
        new = _started(c)
        url = f"/ws/online/{new['id']}"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b:
            _hello(a), _hello(b)
            with c.websocket_connect(url) as third:
                assert recv(third)["code"] == "too_many_connections"
        with c.websocket_connect(url) as again:  # the others have closed
            assert _hello(again)["type"] == "welcome"


def test_handshake_checks(tmp_path):
    from starlette.websockets import WebSocketDisconnect

    with _client(tmp_path / "o.sqlite3") as c:
        new = _started(c)
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect(f"/ws/online/{new['id']}",
                                     headers={"origin": "http://evil.example"}):
                pass
        with c.websocket_connect(f"/ws/online/{new['id']}",
                                 headers={"origin": "http://testserver"}) as ws:
            assert _hello(ws)["type"] == "welcome"
        with c.websocket_connect("/ws/online/nosuchgame") as ws:
            assert recv(ws)["code"] == "not_found"


def test_an_ai_seat_is_played_by_the_server(tmp_path):
    class InlinePool:  # the AI's decisions in a thread, not in worker processes
        async def run(self, fn, *args, timeout=None):
            from starlette.concurrency import run_in_threadpool

            return await run_in_threadpool(fn, *args)

    app = create_online_app(tmp_path / "o.sqlite3", allowed_hosts=["testserver"],
                            pool=InlinePool())
    with TestClient(app) as c:
        r = c.post("/api/online/games", json={"game": {"variant": "portes", "opponent": "ai",
                                                       "level": "beginner"}, "name": "Ann"})
        new = r.json()
        assert new["invite_token"] is None and new["invite"] is None
        gid = new["id"]
        with c.websocket_connect(f"/ws/online/{gid}") as ws:
            _hello(ws, new["token"])
            assert _act(ws, 1, {"type": "seed", "seed": new_client_seed()})["type"] == "ack"
            rng = random.Random(3)
            games = c.app.state.games
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                v = games.view(gid)
                black_moves = sum(a.side == "black" and a.action["type"] == "move"
                                  for a in games.store.actions(gid))
                if black_moves >= 2 or v["status"] == "over":
                    break
                if v["turn"] == "white" or v["phase"] == "opening":
                    a = _act(ws, v["seq"] + 1, _next_action(c, gid, rng))
                    assert a["type"] == "ack", (a, v)
                else:
                    time.sleep(0.05)  # the server plays black
            # the AI's actions reached the player's connection
            # (the AI may still be acting: wait until the connection has caught up)
            ups = [m for m in drain(ws) if m["type"] == "update"]
            deadline = time.monotonic() + 20
            while ups[-1]["state"]["seq"] != games.view(gid)["seq"] \
                    and time.monotonic() < deadline:
                ups += [m for m in drain(ws) if m["type"] == "update"]
            assert ups[-1]["state"]["seq"] == games.view(gid)["seq"]
            assert black_moves >= 2


@pytest.mark.parametrize("online_db", ["postgresql"], indirect=True)
def test_two_servers_share_one_postgresql(online_db):
    one, two = _client(online_db), _client(online_db)
    with one as c1, two as c2:
        new = _create(c1)
        gid = new["id"]
        r = c2.post(f"/api/online/games/{gid}/join",
                    json={"token": new["invite_token"], "name": "Bob"})
        assert r.status_code == 200
        with c1.websocket_connect(f"/ws/online/{gid}") as white, \
                c2.websocket_connect(f"/ws/online/{gid}") as black, \
                c2.websocket_connect(f"/ws/online/{gid}") as watcher:
            assert _hello(white, new["token"])["state"]["seq"] == 1  # the join, in two
            _hello(black, new["invite_token"])
            _hello(watcher)
            assert _act(white, 2, {"type": "seed", "seed": new_client_seed()})["type"] == "ack"
            m = until(watcher, lambda m: m["type"] == "update" and m["state"]["seq"] == 2,
                      timeout=5)
            assert m["actions"][-1]["side"] == "white"
            assert _act(black, 3, {"type": "seed", "seed": new_client_seed()})["type"] == "ack"
            until(white, lambda m: m["type"] == "update" and m["state"]["seq"] == 3, timeout=5)
            assert _act(white, 4, {"type": "roll"})["type"] == "ack"
            m = until(black, lambda m: m["type"] == "update" and m["state"]["seq"] == 4,
                      timeout=5)
            assert m["actions"][-1]["action"] == {"type": "roll"}
            assert m["state"]["dice"] is not None or m["state"]["phase"] == "opening"
            # the same number from the other process: refused
            assert _act(black, 4, {"type": "roll"})["code"] == "stale"


@pytest.mark.parametrize("online_db", ["postgresql"], indirect=True)
def test_presence_across_two_servers(online_db):
    one, two = _client(online_db, presence_beat=0.1), _client(online_db, presence_beat=0.1)
    with one as c1, two as c2:
        new = _create(c1)
        _join(c2, new)
        gid = new["id"]
        with c1.websocket_connect(f"/ws/online/{gid}") as white:
            _hello(white, new["token"])
            with c2.websocket_connect(f"/ws/online/{gid}") as black:
                _hello(black, new["invite_token"])
                m = until(white, lambda m: m["type"] == "presence" and m["seats"]["black"])
                assert m["seats"] == {"white": True, "black": True}
                m = until(black, lambda m: m["type"] == "presence" and m["seats"]["white"])
            t0 = time.monotonic()
            m = until(white, lambda m: m["type"] == "presence" and not m["seats"]["black"])
            assert m["seats"] == {"white": True, "black": False}
            assert time.monotonic() - t0 < 2


def test_serve_refuses_a_bad_db_or_port_in_one_line(tmp_path, capsys):
    from tavli.cli import main

    assert main(["serve", "--db", "postgresql://u:secret@h:x/db"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "malformed" in err and "secret" not in err
    assert main(["serve", "--port", "70000", "--db", str(tmp_path / "o.sqlite3")]) == 2
    assert "--port" in capsys.readouterr().err


def test_a_backgammon_match_with_the_cube(tmp_path):
    with _client(tmp_path / "o.sqlite3", rate=1e6) as c:
        new = _create(c, variant="backgammon", points=3)
        assert new["state"]["kind"] == "match" and new["state"]["score"] == [0, 0]
        _join(c, new)
        gid = new["id"]
        games = c.app.state.games
        with c.websocket_connect(f"/ws/online/{gid}") as white, \
                c.websocket_connect(f"/ws/online/{gid}") as black:
            ws = {"white": white, "black": black}
            _hello(white, new["token"]), _hello(black, new["invite_token"])
            for n, side in enumerate(("white", "black")):
                assert _act(ws[side], 2 + n, {"type": "seed",
                                              "seed": new_client_seed()})["type"] == "ack"
            rng = random.Random(5)
            for _ in range(20):  # to the first turn where the side to roll may double
                v = games.view(gid)
                if v["can_double"]:
                    break
                _act(ws[v["turn"]], v["seq"] + 1, _next_action(c, gid, rng))
            assert v["can_double"] and v["phase"] == "roll"
            doubler, taker = v["turn"], "black" if v["turn"] == "white" else "white"
            assert _act(ws[doubler], v["seq"] + 1, {"type": "double"})["type"] == "ack"
            v = games.view(gid)
            assert v["phase"] == "double" and v["turn"] == taker
            e = _act(ws[doubler], v["seq"] + 1, {"type": "take"})  # not his to answer
            assert e["code"] == "wrong_state"
            assert _act(ws[taker], v["seq"] + 1, {"type": "take"})["type"] == "ack"
            v = games.view(gid)
            assert v["cube"] == {"value": 2, "owner": taker} and v["phase"] == "roll"
            assert _act(ws[taker], v["seq"] + 1, {"type": "resign", "value": "single"}
                        )["type"] == "ack"
            v = games.view(gid)
            assert v["score"] == ([2, 0] if doubler == "white" else [0, 2])
            assert _act(ws[doubler], v["seq"] + 1, {"type": "next"})["type"] == "ack"
            v = games.view(gid)
            assert v["outcome"] is None and v["score"] == ([2, 0] if doubler == "white" else [0, 2])


def test_a_real_server_with_uvicorn_and_websockets(tmp_path):
    """The stack `tavli serve` runs: uvicorn's WebSocket protocol, its frame limit."""
    import httpx
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from tavli.online.protocol import MAX_FRAME

    app = create_online_app(tmp_path / "o.sqlite3", allowed_hosts=["127.0.0.1"])
    with served(app, ws_max_size=MAX_FRAME) as base:
        new = httpx.post(f"{base}/api/online/games", json={
            "game": {"variant": "fevga", "opponent": "human"}, "name": "Ann"}).json()
        url = base.replace("http:", "ws:") + f"/ws/online/{new['id']}"
        with connect(url, origin=base) as ws:
            ws.send(json.dumps({"type": "hello", "token": new["token"]}))
            assert json.loads(ws.recv(timeout=10))["side"] == "white"
            ws.send(json.dumps({"type": "act", "seq": 1, "action": {"type": "seed",
                                                                     "seed": "abcdefgh"}}))
            got = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
            assert {"type": "ack", "seq": 1} in got
            ws.send("x" * (MAX_FRAME + 1))  # over uvicorn's frame limit: closed
            with pytest.raises(ConnectionClosed):
                for _ in range(10):
                    ws.recv(timeout=10)
        with pytest.raises(Exception, match="403"):
            connect(url, origin="http://evil.example")


def test_no_hello_closes_and_a_bug_is_one_error(tmp_path, monkeypatch):
    from tavli.online import protocol

    monkeypatch.setattr(protocol, "HELLO_TIMEOUT", 0.3)
    with _client(tmp_path / "o.sqlite3") as c:
        new = _started(c)
        with c.websocket_connect(f"/ws/online/{new['id']}") as ws:
            assert recv(ws)["code"] == "timeout"
        games = c.app.state.games

        def broken(*args):
            raise RuntimeError("boom")

        with c.websocket_connect(f"/ws/online/{new['id']}") as ws:
            _hello(ws, new["token"])
            monkeypatch.setattr(games, "act", broken)
            e = _act(ws, 4, {"type": "roll"})
            assert e["code"] == "internal" and "boom" not in e["error"]
            ws.send_json({"type": "ping", "data": 2})  # still usable
            assert until(ws, lambda m: m["type"] == "pong")["data"] == 2


def test_http_flood_from_one_address_is_refused(tmp_path):
    with _client(tmp_path / "o.sqlite3", http_rate=0.01, http_burst=3) as c:
        codes = [c.post("/api/online/games", json={
            "game": {"variant": "portes", "opponent": "human"}, "name": "Ann"}).status_code
            for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        r = c.post("/api/online/games", json={
            "game": {"variant": "portes", "opponent": "human"}, "name": "Ann"})
        assert r.json()["code"] == "rate_limited" and int(r.headers["retry-after"]) >= 1
        assert len(c.app.state.games.store.games()) == 3  # the refused changed nothing
        gid = c.app.state.games.store.games()[0].id
        r = c.post(f"/api/online/games/{gid}/join", json={"token": "x" * 30, "name": "Bob"})
        assert r.status_code == 429  # joins count too
        assert c.get(f"/api/online/games/{gid}").status_code == 200  # reads: their own bucket


def test_online_records_import_into_the_local_app(tmp_path):
    """An online game's record — a turn rolled and not yet played, then the game resigned
    with those dice out — imports into the local app as a review (issue 31: 422 before)."""
    from tavli.web.app import create_app

    local = TestClient(create_app(tmp_path / "local.sqlite3", allowed_hosts=["testserver"]))
    with _client(tmp_path / "o.sqlite3") as c:
        new = _started(c)
        gid, games = new["id"], c.app.state.games
        games.act(gid, new["token"], 4, {"type": "roll"})
        v = games.view(gid)
        token = new["token"] if v["turn"] == "white" else new["invite_token"]
        if v["phase"] != "move":  # the opening throw gave black the first turn: roll again
            games.act(gid, token, v["seq"] + 1, {"type": "roll"})
            v = games.view(gid)
        assert v["phase"] == "move"
        rolled = c.get(f"/api/online/games/{gid}/record").json()
        r = local.post("/api/records", json=rolled)
        assert r.status_code == 201, r.text
        assert r.json()["phase"] == "move" and r.json()["dice"] == v["dice"]
        games.act(gid, token, v["seq"] + 1, {"type": "resign", "value": "gammon"})
        resigned = c.get(f"/api/online/games/{gid}/record").json()
        assert any("resign" in ev for ev in resigned["games"][0]["events"])
        r = local.post("/api/records", json=resigned)
        assert r.status_code == 201, r.text
        st = r.json()
        assert st["phase"] == "over" and st["finished"], st
        assert (st["players"]["white"]["name"], st["players"]["black"]["name"]) == \
            ("Ann", "Bob")


def test_every_message_is_answered_even_one_that_is_not_text(tmp_path):
    """A lone surrogate (JSON's "\\ud800": no UTF-8 encodes it) in a value or a field's
    name is refused with one error, as any bad message is, and stored nowhere."""
    with _client(tmp_path / "o.sqlite3") as c:
        new = _create(c)
        gid = new["id"]
        store = c.app.state.games.store
        before = len(store.actions(gid))
        with c.websocket_connect(f"/ws/online/{gid}") as ws:
            for raw in ('{"type": "ping", "data": "\\ud800"}',
                        '{"type": "ping", "\\ud800": 1}',
                        '{"type": "hello", "token": "\\udfff"}'):
                ws.send_text(raw)
                e = recv(ws, 5)
                assert e["type"] == "error" and e["code"] == "invalid", (raw, e)
                assert "surrogate" in e["error"]
            _hello(ws, new["token"])
            ws.send_json({"type": "act", "seq": 1, "action": {"type": "join",
                                                             "name": "Ann\ud800"}})
            e = until(ws, lambda m: m["type"] == "error")
            assert e["code"] == "invalid" and "surrogate" in e["error"]
            ws.send_json({"type": "ping", "data": "still here"})
            assert until(ws, lambda m: m["type"] == "pong")["data"] == "still here"
        assert len(store.actions(gid)) == before


def test_a_message_echoing_any_text_is_sent():
    """What the server sends is ASCII JSON: even a lone surrogate it echoes (a bug's
    message, say) is sent as its escape rather than lost."""
    from tavli.online.hub import Conn

    class Socket:  # Starlette's WebSocket as the server's transport sees it
        def __init__(self) -> None:
            self.sent: list[bytes] = []

        async def send_text(self, text: str) -> None:
            self.sent.append(text.encode("utf-8"))  # what goes on the wire

        async def send_json(self, data) -> None:
            await self.send_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False))

    ws = Socket()
    anyio.run(Conn(ws, "g").send, {"type": "pong", "data": "\ud800 Ζ"})
    assert [json.loads(b) for b in ws.sent] == [{"type": "pong", "data": "\ud800 Ζ"}]


def test_a_badly_formed_client_seed_is_invalid(tmp_path):
    """docs/server.md: "not an object with a known type and its fields: invalid"."""
    with _client(tmp_path / "o.sqlite3") as c:
        new = _create(c)
        _join(c, new)
        gid = new["id"]
        store = c.app.state.games.store
        with c.websocket_connect(f"/ws/online/{gid}") as ws:
            _hello(ws, new["token"])
            seq = len(store.actions(gid)) + 1
            for seed in ("cy-seed", "x" * 129, "spaces are no seed", "ünïcödé-seed"):
                e = _act(ws, seq, {"type": "seed", "seed": seed})
                assert e["type"] == "error" and e["code"] == "invalid", (seed, e)
            assert len(store.actions(gid)) == seq - 1
            assert _act(ws, seq, {"type": "seed", "seed": "good-seed_1"})["type"] == "ack"


def test_frames_that_are_not_utf8_are_one_log_line(tmp_path):
    """uvicorn closes a text frame that is not UTF-8 (1007) and logs a traceback each
    time: the server's log gets one warning line, no traceback, however many come."""
    import logging

    import httpx
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from tavli.online.badframes import quiet_bad_frames
    from tavli.online.protocol import MAX_FRAME

    class Kept(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.DEBUG)
            self.records: list[logging.LogRecord] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.records.append(record)

    kept = Kept()
    log = logging.getLogger("uvicorn.error")
    quiet_bad_frames().last = None  # whatever another test of this process logged
    app = create_online_app(tmp_path / "o.sqlite3", allowed_hosts=["127.0.0.1"])
    try:
        with served(app, ws_max_size=MAX_FRAME, ws="websockets-sansio") as base:
            log.addHandler(kept)  # after uvicorn's own logging set-up
            new = httpx.post(f"{base}/api/online/games", json={
                "game": {"variant": "fevga", "opponent": "human"}, "name": "Ann"}).json()
            url = base.replace("http:", "ws:") + f"/ws/online/{new['id']}"
            for _ in range(20):
                with connect(url, origin=base) as ws:
                    ws.send(b"\xff\xfe not UTF-8", text=True)
                    with pytest.raises(ConnectionClosed) as closed:
                        ws.recv(timeout=10)
                    assert closed.value.rcvd.code == 1007
            with connect(url, origin=base) as ws:  # the server goes on
                ws.send(json.dumps({"type": "ping", "data": 1}))
                assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "data": 1}
    finally:
        log.removeHandler(kept)
    assert len(kept.records) == 1, [r.getMessage() for r in kept.records]
    record = kept.records[0]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "not UTF-8" in record.getMessage() and "\n" not in record.getMessage()
