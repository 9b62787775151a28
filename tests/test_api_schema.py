"""The apps' schemas are exact (issue 48): every HTTP route declares its body, its answer
and its errors (a route added without them fails here), every error is the one error
model, and the WebSocket's schema (docs/server.md's last section, generated from the
models that read the messages) is up to date and describes every message of a game."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import jsonschema
import pytest
from conftest import recv

from tavli.online.app import create_online_app
from tavli.online.fairdice import new_client_seed
from tavli.online.messages import documented, schema_text, websocket_schema
from tavli.web.app import create_app
from tavli.web.openapi import declared

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.routing import APIRoute
    from fastapi.testclient import TestClient

SERVER_MD = Path(__file__).parent.parent / "docs" / "server.md"
#: POST routes that read no body
NO_BODY = {"/api/account/logout"}


def undeclared(app) -> list[str]:
    """What the ``/api/`` routes of ``app`` leave undeclared: the answer's model, the
    errors' model, a write's body."""
    problems = []
    for route in app.routes:
        if not isinstance(route, APIRoute) or not route.path.startswith("/api/") or \
                not route.include_in_schema:
            continue
        where = f"{sorted(route.methods)} {route.path}"
        answers = {int(k): v for k, v in route.responses.items()}
        status = route.status_code or 200
        ok = answers.get(status)
        if ok is None or (status != 204 and "model" not in ok):
            problems.append(f"{where}: no model of its {status} answer")
        errors = [s for s in answers if s >= 400]
        if not errors and not route.path.startswith(("/api/i18n", "/api/info", "/api/warmup")):
            problems.append(f"{where}: no error declared")
        for status in errors:
            if answers[status].get("model").__name__ != "ErrorBody":
                problems.append(f"{where}: its {status} is not the error model")
        body = (route.openapi_extra or {}).get("requestBody")
        if "POST" in route.methods and body is None and route.path not in NO_BODY:
            problems.append(f"{where}: no request body declared")
    return problems


@pytest.fixture(scope="module")
def apps():
    return create_app(":memory:"), create_online_app(":memory:")


def test_every_route_declares_its_body_answers_and_errors(apps):
    for app in apps:
        assert undeclared(app) == []


def test_a_route_added_without_declarations_is_found(apps):
    app = create_app(":memory:")

    @app.post("/api/games/{game_id}/fly")
    async def fly(game_id: str) -> dict:
        return {}

    @app.get("/api/half", **declared(None, 404))
    async def half() -> dict:
        return {}

    assert undeclared(app) == [
        "['POST'] /api/games/{game_id}/fly: no model of its 200 answer",
        "['POST'] /api/games/{game_id}/fly: no error declared",
        "['POST'] /api/games/{game_id}/fly: no request body declared",
        "['GET'] /api/half: no model of its 200 answer"]


def test_the_schemas_errors_are_the_apps(apps):
    """No FastAPI validation error (``{"detail": [...]}``), which the apps never answer:
    every 4xx and 5xx of every operation is the error model, with its codes listed."""
    for app in apps:
        schema = app.openapi()
        assert "HTTPValidationError" not in json.dumps(schema)
        for path, operations in schema["paths"].items():
            for method, op in operations.items():
                for status, answer in op["responses"].items():
                    if int(status) >= 400:
                        ref = answer["content"]["application/json"]["schema"]["$ref"]
                        assert ref.endswith("/ErrorBody"), (method, path, status)
                        assert "(code " in answer["description"]
                assert op["responses"].keys() & {"403"}, (method, path)
                if method == "post" and path not in NO_BODY:
                    assert "requestBody" in op and "400" in op["responses"], (method, path)


def published() -> dict:
    """The WebSocket schema as docs/server.md publishes it."""
    block = documented(SERVER_MD.read_text(encoding="utf-8"))
    return json.loads(block.removeprefix("```json\n").removesuffix("```\n"))


def test_the_websocket_schema_is_up_to_date():
    assert documented(SERVER_MD.read_text(encoding="utf-8")) == schema_text(), \
        "run: python -m tavli.online.messages docs/server.md"


def test_every_websocket_message_of_a_game_is_the_schemas(tmp_path):
    """A whole Portes game with a spectator, and the refusals: each message sent and
    received is valid against the schema docs/server.md publishes."""
    doc = published()

    def validator(name: str) -> jsonschema.Draft202012Validator:
        return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs":
                                                doc["$defs"]})

    client, server = validator("ClientMessage"), validator("ServerMessage")
    seen: dict[str, int] = {}
    rng = random.Random(48)
    # as fast as the test plays: no rate of messages
    with TestClient(create_online_app(tmp_path / "o.sqlite3", allowed_hosts=["testserver"],
                                      rate=1e6, burst=10**6)) as c:
        new = c.post("/api/online/games", json={
            "game": {"variant": "portes", "opponent": "human"}, "name": "Ann"}).json()
        gid, games = new["id"], c.app.state.games
        seats = {"white": new["token"], "black": new["invite_token"]}
        with c.websocket_connect(f"/ws/online/{gid}") as white, \
                c.websocket_connect(f"/ws/online/{gid}") as black, \
                c.websocket_connect(f"/ws/online/{gid}") as watcher:
            socks = {"white": white, "black": black}

            def send(ws, msg: dict) -> None:
                client.validate(msg)
                ws.send_json(msg)

            def read(ws, until) -> dict:
                while True:
                    m = recv(ws, 10)
                    server.validate(m)
                    seen[m["type"]] = seen.get(m["type"], 0) + 1
                    if until(m):
                        return m

            send(white, {"type": "act", "seq": 1, "action": {"type": "roll"}})
            read(white, lambda m: m["type"] == "error")  # hello first
            for side, ws in (*socks.items(), ("spectator", watcher)):
                send(ws, {"type": "hello", "token": seats.get(side), "seq": 0})
                read(ws, lambda m: m["type"] == "welcome")
            send(black, {"type": "act", "seq": 1, "action": {"type": "join", "name": "Bob"}})
            read(black, lambda m: m["type"] == "ack")
            send(watcher, {"type": "ping", "data": [1, "x"]})
            read(watcher, lambda m: m["type"] == "pong")
            # random moves with random dice: a game's length varies (the longest of 300
            # such games took under 700 actions, 400 fell short a few times in a hundred), so
            # the bound only stops a game that hangs
            for _ in range(5000):
                v = games.view(gid)
                if v["status"] == "over":
                    break
                g = games.table(gid).game
                side = "white" if v["phase"] == "opening" else v["turn"]
                if not all(s["seeded"] for s in v["seats"]):
                    side = next(s["side"] for s in v["seats"] if not s["seeded"])
                    action = {"type": "seed", "seed": new_client_seed()}
                elif g.phase in ("opening", "roll"):
                    action = {"type": "roll"}
                else:
                    action = {"type": "move", "move": str(rng.choice(g.legal_moves()))}
                send(socks[side], {"type": "act", "seq": v["seq"] + 1, "action": action})
                read(socks[side], lambda m, n=v["seq"] + 1: m["type"] in ("ack", "error")
                     and m.get("seq") == n)
            assert games.view(gid)["status"] == "over"
            read(watcher, lambda m: m["type"] == "update" and m["state"]["status"] == "over")
    assert {"welcome", "ack", "update", "presence", "error", "pong"} <= set(seen), seen


def test_the_schema_reads_as_the_server_does():
    """What the server refuses, the schema refuses: the same models read both."""
    doc = websocket_schema()
    client = jsonschema.Draft202012Validator({"$ref": "#/$defs/ClientMessage",
                                              "$defs": doc["$defs"]})
    from tavli.errors import ProtocolError
    from tavli.online.protocol import read_message

    for msg in ({"type": "hello"}, {"type": "hello", "token": "t", "seq": 3},
                {"type": "ping"}, {"type": "act", "seq": 2, "action": {"type": "roll"}}):
        read_message(json.dumps(msg))
        client.validate(msg)
    for msg in ({"type": "shout"}, {"type": "act", "seq": "5", "action": {"type": "roll"}},
                {"type": "hello", "seq": True}, {"type": "hello", "token": "x" * 201},
                {"type": "ping", "extra": 1}, {"type": "act", "seq": -1, "action": {}},
                {"type": "act", "seq": 2 ** 53, "action": {"type": "roll"}}):
        with pytest.raises(ProtocolError):
            read_message(json.dumps(msg))
        assert not client.is_valid(msg), msg
