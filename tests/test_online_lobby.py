"""The lobby of ``tavli serve`` on both backends: listed games whose invited seat is free,
taken without a token (the server gives the seat a new one), and the board fields of the
state that the game page draws."""

from __future__ import annotations

import warnings

from tavli.online.app import create_online_app
from tavli.online.routes import SEAT_HEADER
from tavli.online.service import OnlineGames
from tavli.store.factory import open_store
from tavli.web.newgame import NewGame

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def _new(c, listed=True, **game):
    r = c.post("/api/online/games", json={"game": {"variant": "portes", "opponent": "human",
                                                   **game}, "name": "Ann", "listed": listed})
    assert r.status_code == 201, r.text
    return r.json()


def test_the_lobby_lists_open_listed_games_and_a_stranger_takes_the_seat(online_db):
    with TestClient(create_online_app(online_db, allowed_hosts=["testserver"])) as c:
        listed = _new(c, variant="tavli", points=3)
        _new(c, listed=False)                       # an invitation only: not listed
        games = c.get("/api/online/lobby").json()["games"]
        assert [g["id"] for g in games] == [listed["id"]]
        g = games[0]
        assert (g["variant"], g["kind"], g["points"], g["host"], g["clock"]) == \
            ("tavli", "match", 3, "Ann", None)
        # anyone may take the seat without a token; the answer carries the seat's new one
        r = c.post(f"/api/online/games/{listed['id']}/join", json={"name": "Cat"})
        assert r.status_code == 200, r.text
        token = r.json()["token"]
        assert r.json()["side"] == "black" and r.json()["state"]["status"] == "playing"
        me = c.get(f"/api/online/games/{listed['id']}", headers={SEAT_HEADER: token}).json()
        assert me["side"] == "black"
        # the invitation's token no longer names the seat; the lobby no longer lists it
        r = c.post(f"/api/online/games/{listed['id']}/join",
                   json={"token": listed["invite_token"], "name": "Bob"})
        assert r.status_code == 403
        assert c.get("/api/online/lobby").json()["games"] == []
        # a second stranger: the seat is taken, nothing changes
        seq = c.get(f"/api/online/games/{listed['id']}").json()["state"]["seq"]
        r = c.post(f"/api/online/games/{listed['id']}/join", json={"name": "Dan"})
        assert r.status_code == 409 and "taken" in r.json()["error"]
        assert c.get(f"/api/online/games/{listed['id']}").json()["state"]["seq"] == seq


def test_an_unlisted_game_needs_its_invitation(online_db):
    with TestClient(create_online_app(online_db, allowed_hosts=["testserver"])) as c:
        new = _new(c, listed=False)
        r = c.post(f"/api/online/games/{new['id']}/join", json={"name": "Eve"})
        assert r.status_code == 403 and "invitation" in r.json()["error"]
        state = c.get(f"/api/online/games/{new['id']}").json()["state"]
        assert state["status"] == "open" and state["seq"] == 0
        r = c.post("/api/online/games", json={"game": {"variant": "portes", "opponent": "ai",
                                                       "ai_side": "black"},
                                              "name": "Ann", "listed": True})
        assert r.status_code == 422 and "lobby" in r.json()["error"]


def test_the_store_lobby_on_both_backends(online_db):
    with open_store(online_db) as store:
        games = OnlineGames(store)
        a = games.create(NewGame(variant="plakoto", opponent="human"), "Ann", listed=True)
        games.create(NewGame(variant="fevga", opponent="human"), "Bob")
        assert [r.id for r in store.lobby()] == [a.game_id]
        side, token = games.claim(a.game_id, "Cat")
        assert side == "black" and store.seat_by_token(a.game_id, token).side == "black"
        games.act(a.game_id, token, 1, {"type": "join", "name": "Cat"})
        assert store.lobby() == [] and games.lobby() == []
        assert not store.claim_seat(a.game_id, "black", "0" * 64)  # joined: not free


def test_the_state_has_the_board_the_page_draws(online_db):
    with open_store(online_db) as store:
        games = OnlineGames(store)
        new = games.create(NewGame(variant="portes", opponent="human"), "Ann")
        b = games.view(new.game_id)["board"]
        assert b["mover"] == "white" and b["turn_tree"] is None and b["last"] is None
        assert b["position"]["white"]["points"][23] == 2  # white's 24-point, own numbering
        assert len(b["opposite"]) == 25 and b["pips"] == {"white": 167, "black": 167}
        games.act(new.game_id, new.invite_token, 1, {"type": "join", "name": "Bob"})
        games.act(new.game_id, new.token, 2, {"type": "seed", "seed": "a" * 16})
        games.act(new.game_id, new.invite_token, 3, {"type": "seed", "seed": "b" * 16})
        games.act(new.game_id, new.token, 4, {"type": "roll"})
        st = games.view(new.game_id)
        if st["phase"] == "roll":  # the opening throw, then the starter rolls
            side_token = new.token if st["turn"] == "white" else new.invite_token
            games.act(new.game_id, side_token, 5, {"type": "roll"})
            st = games.view(new.game_id)
        assert st["phase"] == "move" and st["board"]["turn_tree"]["nodes"]
        mover = new.token if st["turn"] == "white" else new.invite_token
        games.act(new.game_id, mover, st["seq"] + 1,
                  {"type": "move", "move": st["legal_moves"][0]["move"]})
        last = games.view(new.game_id)["board"]["last"]
        assert last["move"] == st["legal_moves"][0]["move"] and last["side"] == st["turn"]
        assert len(last["frames"]) == len(last["steps"]) + 1
        marks = games.view(new.game_id)["board"]["last_moves"]  # the board's marks
        mine = marks[st["turn"]]
        assert mine["move"] == last["move"] and mine["from"] and mine["to"]
        assert not mine["pass"] and mine["dice"] == last["dice"]
