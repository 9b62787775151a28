"""Seeks in the lobby (issue 33): a seek posted with its game, length, clock, rating
and range; others see it (over HTTP and live over /ws/lobby) and take it; a range keeps
out the ratings it excludes; nobody takes his own; "play now" pairs by rating or posts a
seek."""

from __future__ import annotations

import warnings

from tavli.online.accounts import FAST
from tavli.online.app import create_online_app
from tavli.online.lobby import QUICK_SPAN

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PORTES = {"variant": "portes", "opponent": "human"}


def _client(db) -> TestClient:
    return TestClient(create_online_app(db, allowed_hosts=["testserver"], hasher=FAST),
                      base_url="https://testserver")


def _other(c: TestClient) -> TestClient:
    return TestClient(c.app, base_url="https://testserver")


def _signup(c: TestClient, name: str) -> None:
    r = c.post("/api/account/signup", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text


def _seek(c: TestClient, **kw) -> dict:
    body = {"game": PORTES, "name": "Ann", "listed": True, **kw}
    r = c.post("/api/online/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_a_seek_is_seen_with_its_host_and_taken(tmp_path):
    with _client(tmp_path / "o.sqlite3") as ann, _other(ann) as bob:
        _signup(ann, "Ann")
        _signup(bob, "Bob")
        seek = _seek(ann, rated=True, clock={"reserve": 300, "delay": 12},
                     game={**PORTES, "points": 3})
        [listed] = bob.get("/api/online/lobby").json()["games"]
        assert (listed["id"], listed["host"], listed["player"], listed["rated"],
                listed["points"], listed["clock"], listed["range"], listed["rating"]) == (
            seek["id"], "Ann", "Ann", True, 3, {"reserve": 300, "delay": 12}, None, None)
        assert "account" not in listed
        # Ann cannot take her own seek
        r = ann.post(f"/api/online/games/{seek['id']}/join", json={"name": "Ann"})
        assert r.status_code == 409 and "your own seek" in r.json()["error"]
        r = bob.post(f"/api/online/games/{seek['id']}/join", json={"name": "Bob"})
        assert r.status_code == 200, r.text
        assert r.json()["side"] == "black" and r.json()["token"]
        assert bob.get("/api/online/lobby").json()["games"] == []
        seats = ann.app.state.games.store.seats(seek["id"])
        assert all(s.account_id for s in seats)


def test_a_rating_range_keeps_out_the_ratings_it_excludes(tmp_path):
    with _client(tmp_path / "o.sqlite3") as ann, _other(ann) as guest:
        _signup(ann, "Ann")
        low = _seek(ann, rating_range=[1000, 1400])
        r = guest.post(f"/api/online/games/{low['id']}/join", json={"name": "Gus"})
        assert r.status_code == 409 and "ratings 1000-1400: yours is 1500" in r.json()["error"]
        ok = _seek(ann, rating_range=[1400, 1600])
        r = guest.post(f"/api/online/games/{ok['id']}/join", json={"name": "Gus"})
        assert r.status_code == 200, r.text
        for bad in ([1600, 1400], [0, 5000], ["a", 1], [1, 2, 3]):
            r = ann.post("/api/online/games", json={"game": PORTES, "name": "Ann",
                                                    "listed": True, "rating_range": bad})
            assert r.status_code == 422, (bad, r.text)
        r = ann.post("/api/online/games", json={"game": PORTES, "name": "Ann",
                                                "rating_range": [1000, 2000]})
        assert r.status_code == 422 and "listed" in r.json()["error"]


def test_play_now_takes_the_nearest_seek_or_posts_one(tmp_path):
    with _client(tmp_path / "o.sqlite3") as ann, _other(ann) as bob, _other(ann) as cat:
        _signup(ann, "Ann")
        _signup(bob, "Bob")
        quick = {"game": PORTES, "name": "Ann", "rated": True}
        first = ann.post("/api/online/play-now", json=quick).json()
        assert first["matched"] is False and first["token"]
        [seek] = ann.get("/api/online/lobby").json()["games"]
        assert seek["id"] == first["id"] and seek["rated"]
        assert seek["range"] == [1500 - QUICK_SPAN, 1500 + QUICK_SPAN]
        # Ann again: her own seek is not for her, so a second one
        again = ann.post("/api/online/play-now", json=quick).json()
        assert again["matched"] is False and again["id"] != first["id"]
        # another kind of game does not match
        fevga = bob.post("/api/online/play-now", json={**quick, "name": "Bob", "game": {
            "variant": "fevga", "opponent": "human"}}).json()
        assert fevga["matched"] is False
        # Bob's quick rated Portes takes the oldest of Ann's (equally near)
        got = bob.post("/api/online/play-now", json={**quick, "name": "Bob"}).json()
        assert got["matched"] is True and got["id"] == first["id"]
        assert got["side"] == "black" and got["state"]["status"] == "playing"
        # a guest's quick rated game is refused (rated games are between accounts), and
        # touches no seek: Ann's second one keeps its invitation
        store = ann.app.state.games.store
        invited = store.seats(again["id"])[1].token_hash
        r = cat.post("/api/online/play-now", json={**quick, "name": "Cat"})
        assert r.status_code == 401 and r.json()["code"] == "logged_out"
        r = cat.post(f"/api/online/games/{again['id']}/join", json={"name": "Cat"})
        assert r.status_code == 403
        assert store.seats(again["id"])[1].token_hash == invited


def test_the_lobby_socket_sends_the_lobby_and_its_changes(tmp_path):
    with _client(tmp_path / "o.sqlite3") as ann, _other(ann) as bob:
        with bob.websocket_connect("/ws/lobby") as ws:
            first = ws.receive_json()
            assert first == {"type": "lobby", "games": []}
            seek = _seek(ann)
            changed = ws.receive_json()
            assert [g["id"] for g in changed["games"]] == [seek["id"]]
            bob.post(f"/api/online/games/{seek['id']}/join", json={"name": "Bob"})
            assert ws.receive_json()["games"] == []
