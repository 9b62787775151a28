"""The online server's HTTP API fuzzed by schemathesis against its own schema
(``/api/openapi.json``), on SQLite: a real server (uvicorn), the headers a page sends, real
game ids, seat tokens, usernames and sessions in the requests so that the handlers are
reached, and for every answer: no 5xx, a declared status, content type and headers, a
body the schema describes, in bounded time (tests/fuzzing.py)."""

from __future__ import annotations

import time

import httpx
import pytest
import schemathesis
from conftest import served
from fuzzing import Page, call, config, page_headers, pick

from tavli.online.accounts import FAST, LoginLimits
from tavli.online.app import create_online_app
from tavli.online.fairdice import new_client_seed
from tavli.online.players import COOKIE, GAMES

#: the limits out of the way: the fuzzer is one address sending thousands of requests
OPEN = {"http_rate": 1e6, "http_burst": 10**6, "hasher": FAST,
        "login_limits": LoginLimits(free=10**6, per_address=10**6)}


def _set_up(base: str) -> dict[str, list[str]]:
    """Players with accounts and games in each state — open (its invited seat free),
    listed in the lobby, playing (joined, seeded, rolled), over (resigned) — set up as the
    pages would, each route's answers checked against the schema on the way."""
    ann, bob, cat = (Page(base, SCHEMA) for _ in range(3))
    for page, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
        page.ask("POST", "/api/account/signup", 201,
                 {"username": name, "password": "correct horse"})
    games, tokens = [], []

    def create(variant: str = "portes", **extra) -> dict:
        new = ann.ask("POST", "/api/online/games", 201, {
            "game": {"variant": variant, "opponent": "human"}, "name": "Ann", **extra})
        games.append(new["id"])
        tokens.append(new["token"])
        return new

    create()                                  # open: its invited seat free
    create(listed=True)                       # a seek of the lobby
    seek = bob.ask("POST", "/api/online/play-now", json={
        "game": {"variant": "fevga", "opponent": "human"}, "name": "Bob"})
    assert not seek["matched"]
    taken = cat.ask("POST", "/api/online/play-now", json={
        "game": {"variant": "fevga", "opponent": "human"}, "name": "Cat"})
    assert taken["matched"] and taken["id"] == seek["id"]
    games.append(seek["id"])
    tokens += [seek["token"], taken["token"]]
    for ending in (False, True):              # playing, and over
        new = create("backgammon", clock={"reserve": 600, "delay": 12})
        joined = bob.ask("POST", "/api/online/games/{game_id}/join",
                         json={"token": new["invite_token"], "name": "Bob"},
                         game_id=new["id"])
        tokens.append(new["invite_token"])
        seats = (new["token"], new["invite_token"])
        actions = [{"type": "seed", "seed": new_client_seed()},
                   {"type": "seed", "seed": new_client_seed()}, {"type": "roll"}]
        if ending:
            actions.append({"type": "resign", "value": "single"})
        for seq, action in enumerate(actions, joined["state"]["seq"] + 1):
            _act(base, new["id"], seats, seq, action)
    seat = {"X-Tavli-Seat": new["token"]}
    ann.ask("GET", "/api/online/games/{game_id}", headers=seat, game_id=new["id"])
    ann.ask("GET", "/api/online/games/{game_id}/record", game_id=new["id"])
    for fmt in ("json", "mat"):
        ann.ask("GET", "/api/online/games/{game_id}/export", params={"format": fmt},
                game_id=new["id"])
    review = SCHEMA["/api/online/games/{game_id}/review"]["GET"]
    while (r := ann.http.get(f"/api/online/games/{new['id']}/review")).status_code == 202:
        review.validate_response(r)  # its progress
        time.sleep(0.2)
    review.validate_response(r)
    ann.ask("POST", "/api/online/games/{game_id}/chat/settings", json={"on": True},
            headers=seat, game_id=new["id"])
    ann.ask("POST", "/api/online/games/{game_id}/chat", json={"text": "gg"}, headers=seat,
            game_id=new["id"])
    bob.ask("GET", "/api/online/games/{game_id}/chat", game_id=new["id"])
    for path in ("/api/account", "/api/online/lobby", "/api/info", "/api/i18n"):
        ann.ask("GET", path)
    ann.ask("GET", "/api/players/{username}", username="Ann")
    ann.ask("GET", "/api/leaderboard/{game}", game="backgammon")
    ann.ask("POST", "/api/account/claim", json={"seats": [{"game": games[0],
                                                             "token": tokens[0]}]})
    cat.ask("POST", "/api/account/password", json={"old": "correct horse",
                                                    "new": "battery staple"})
    cat.ask("POST", "/api/account/logout")
    cat.ask("POST", "/api/account/login", json={"username": "Cat",
                                                 "password": "battery staple"})
    cat.ask("POST", "/api/account/delete", json={"password": "battery staple"})
    return {"game_id": games, "token": tokens, "username": ["Ann", "Bob"],
            "session": [ann.cookies[COOKIE], bob.cookies[COOKIE]],
            "game": list(GAMES)}


def _act(base: str, game_id: str, seats: tuple[str, str], seq: int, action: dict) -> None:
    """An action over the game's WebSocket, by the seat whose turn it is (either for a
    seed: each seeds its own, white first)."""
    import json

    from websockets.sync.client import connect

    url = base.replace("http", "ws") + f"/ws/online/{game_id}"
    mover = seats[seq % 2] if action["type"] == "seed" else None
    for token in ([mover] if mover else seats):
        with connect(url, origin=base) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))
            while True:
                m = json.loads(ws.recv(timeout=30))
                if m["type"] in ("ack", "error") and m.get("seq") == seq:
                    break
            if m["type"] == "ack":
                return
    raise AssertionError(f"{action} refused: {m}")


@pytest.fixture(scope="module")
def online_api(tmp_path_factory):
    """The server on a free port over a SQLite file, set up: ``(base URL, real values)``."""
    app = create_online_app(tmp_path_factory.mktemp("fuzz") / "online.sqlite3",
                            allowed_hosts=["127.0.0.1"], **OPEN)
    with served(app) as base:
        r = httpx.get(f"{base}/api/openapi.json", timeout=60)
        assert r.json() == SCHEMA.raw_schema  # the schema generated from is the server's
        yield base, _set_up(base)


SCHEMA = schemathesis.openapi.from_dict(create_online_app(":memory:").openapi(),
                                        config=config())


@SCHEMA.parametrize()
def test_every_answer_is_the_schemas(case, online_api):
    base, real = online_api
    for name in ("game_id", "username", "game"):
        if name in case.path_parameters:
            case.path_parameters[name] = pick(case.path_parameters[name], real[name])
    headers = dict(case.headers or {})
    for key in [k for k in headers if k.lower() == "x-tavli-seat"]:
        headers[key] = pick(headers[key], real["token"])
    case.headers = headers
    if case.path == "/api/account/logout":  # a session of its own: the others go on
        r = httpx.post(f"{base}/api/account/login", headers=page_headers(base),
                       json={"username": "Ann", "password": "correct horse"}, timeout=60)
        case.cookies = {COOKIE: r.cookies[COOKIE]}
    else:
        given = (case.cookies or {}).get(COOKIE, case.path)
        case.cookies = {COOKIE: pick(given, real["session"], keep_one_in=3)}
    call(case, base)
