"""The players' chat (issue 33): between the two seats, read by spectators; bounded in
size, rate and number; off by default for guests; muting the opponent; a message reaching
a player connected to another process on the same database."""

from __future__ import annotations

import time
import warnings

import pytest
from conftest import recv

from tavli.online import chat as chat_module
from tavli.online.accounts import FAST
from tavli.online.app import create_online_app
from tavli.online.routes import SEAT_HEADER

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def _client(db, app=None) -> TestClient:
    app = app or create_online_app(db, allowed_hosts=["testserver"], hasher=FAST)
    return TestClient(app, base_url="https://testserver")


def _game(ann: TestClient, bob: TestClient, *, accounts: bool = True) -> dict:
    """A Portes game of Ann (white) and Bob (black), accounts or guests, seeded."""
    if accounts:
        for c, name in ((ann, "Ann"), (bob, "Bob")):
            r = c.post("/api/account/signup", json={"username": name,
                                                    "password": "correct horse"})
            assert r.status_code == 201, r.text
    new = ann.post("/api/online/games", json={"game": {"variant": "portes",
                                                       "opponent": "human"},
                                              "name": "Ann"}).json()
    r = bob.post(f"/api/online/games/{new['id']}/join",
                 json={"token": new["invite_token"], "name": "Bob"})
    assert r.status_code == 200, r.text
    return new


def _say(c: TestClient, new: dict, side: str, text: str):
    token = new["token"] if side == "white" else new["invite_token"]
    return c.post(f"/api/online/games/{new['id']}/chat", json={"text": text},
                  headers={SEAT_HEADER: token})


def _chat_of(ws, timeout: float = 5.0) -> dict:
    """The next chat message of ``ws`` (other messages skipped; failing after
    ``timeout`` seconds without one)."""
    while True:
        m = recv(ws, timeout)
        if m["type"] == "chat":
            return m


def _hello(c: TestClient, game_id: str, token: str | None = None):
    ws = c.websocket_connect(f"/ws/online/{game_id}")
    ws.__enter__()
    ws.send_json({"type": "hello", **({"token": token} if token else {})})
    while recv(ws)["type"] != "welcome":
        pass
    return ws


def test_players_chat_and_spectators_read(tmp_path):
    with _client(tmp_path / "o.sqlite3") as ann, _client(None, ann.app) as bob, \
            _client(None, ann.app) as spectator:
        new = _game(ann, bob)
        bob_ws = _hello(bob, new["id"], new["invite_token"])
        spec_ws = _hello(spectator, new["id"])
        script = "<script>alert(1)</script> & hi"
        r = _say(ann, new, "white", script)
        assert r.status_code == 200, r.text
        assert r.json()["text"] == script and r.json()["name"] == "Ann"
        for ws in (bob_ws, spec_ws):
            [m] = _chat_of(ws)["messages"]
            assert (m["side"], m["text"]) == ("white", script)
        # a spectator cannot write; a forged token neither
        r = spectator.post(f"/api/online/games/{new['id']}/chat", json={"text": "hi"})
        assert r.status_code == 403
        r = spectator.post(f"/api/online/games/{new['id']}/chat", json={"text": "hi"},
                           headers={SEAT_HEADER: "forged"})
        assert r.status_code == 403
        history = bob.get(f"/api/online/games/{new['id']}/chat",
                          headers={SEAT_HEADER: new["invite_token"]}).json()
        assert [m["text"] for m in history["messages"]] == [script] and history["on"]
        assert [m["text"] for m in spectator.get(
            f"/api/online/games/{new['id']}/chat").json()["messages"]] == [script]
        for ws in (bob_ws, spec_ws):
            ws.__exit__(None, None, None)


@pytest.mark.parametrize("text, status", [
    ("x" * 301, 422), ("   ", 422), ("two\nlines", 422), ("bell\x07", 422),
    ("x" * 1201, 422), ("", 422),
])
def test_a_bad_message_is_refused_and_stores_nothing(tmp_path, text, status):
    with _client(tmp_path / "o.sqlite3") as ann, _client(None, ann.app) as bob:
        new = _game(ann, bob)
        r = _say(ann, new, "white", text)
        assert r.status_code == status, r.text
        assert bob.get(f"/api/online/games/{new['id']}/chat").json()["messages"] == []


def test_rapid_messages_are_refused_and_a_game_keeps_at_most_so_many(tmp_path,
                                                                      monkeypatch):
    with _client(tmp_path / "o.sqlite3") as ann, _client(None, ann.app) as bob:
        new = _game(ann, bob)
        codes = [_say(ann, new, "white", f"m{i}").status_code for i in range(7)]
        assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]
        monkeypatch.setattr(chat_module, "MOST", 7)
        codes = [_say(bob, new, "black", f"b{i}").status_code for i in range(3)]
        assert codes == [200, 200, 409]
        assert len(bob.get(f"/api/online/games/{new['id']}/chat").json()["messages"]) == 7


def test_chat_is_off_for_guests_until_they_turn_it_on_and_a_mute_holds(tmp_path):
    with _client(tmp_path / "o.sqlite3") as ann, _client(None, ann.app) as bob:
        new = _game(ann, bob, accounts=False)
        r = _say(ann, new, "white", "hello?")
        assert r.status_code == 409 and "chat is off" in r.json()["error"]
        url = f"/api/online/games/{new['id']}/chat"
        for c, token in ((ann, new["token"]), (bob, new["invite_token"])):
            r = c.post(url + "/settings", json={"on": True}, headers={SEAT_HEADER: token})
            assert r.status_code == 200 and r.json()["on"] is True
        assert _say(ann, new, "white", "hello").status_code == 200
        bob_ws = _hello(bob, new["id"], new["invite_token"])
        assert _say(ann, new, "white", "still there?").status_code == 200
        assert _chat_of(bob_ws)["messages"][0]["text"] == "still there?"
        # Bob mutes Ann: her messages no longer reach him, his still reach her
        bob.post(url + "/settings", json={"mute": True},
                 headers={SEAT_HEADER: new["invite_token"]})
        assert _say(ann, new, "white", "spam").status_code == 200
        assert _say(bob, new, "black", "bye").status_code == 200
        assert _chat_of(bob_ws)["messages"][0]["text"] == "bye"  # not "spam"
        seen = bob.get(url, headers={SEAT_HEADER: new["invite_token"]}).json()
        assert [m["text"] for m in seen["messages"]] == ["bye"] and seen["muted"]
        mine = ann.get(url, headers={SEAT_HEADER: new["token"]}).json()["messages"]
        assert [m["text"] for m in mine] == ["hello", "still there?", "spam", "bye"]
        r = bob.post(url + "/settings", json={"on": True})
        assert r.status_code == 403
        bob_ws.__exit__(None, None, None)


def test_a_message_reaches_a_player_on_another_process(tmp_path):
    db = tmp_path / "o.sqlite3"
    with _client(db) as ann, _client(db) as bob:  # two apps: two processes' worth
        new = _game(ann, bob)
        bob_ws = _hello(bob, new["id"], new["invite_token"])
        time.sleep(1.5)  # the other process has looked once (its starting point)
        assert _say(ann, new, "white", "across").status_code == 200
        assert _chat_of(bob_ws, timeout=10)["messages"][0]["text"] == "across"
        bob_ws.__exit__(None, None, None)
