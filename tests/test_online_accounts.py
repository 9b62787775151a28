"""Accounts, sessions, ratings and players' histories on the online server (issue 33),
through Starlette's test client on both backends: sign-up and login with the cookie,
the same answer for an unknown name and a wrong password, the login throttle, a rated
game's ratings changed exactly once in the transaction of its result, rate-farming
refused, a guest's games claimed, the account deleted with its personal data."""

from __future__ import annotations

import logging
import time
import warnings
from collections import Counter

import pytest

from tavli.online.accounts import FAST, LoginLimits
from tavli.online.app import create_online_app
from tavli.online.fairdice import new_client_seed
from tavli.online.players import COOKIE
from tavli.online.rating import Rated, change
from tavli.online.service import OnlineGames
from tavli.store.accounts import DELETED, AccountStore
from tavli.store.factory import open_store

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def _client(db, **kw) -> TestClient:
    # https: the session cookie is Secure, and a client sends it back over HTTPS only
    return TestClient(create_online_app(db, allowed_hosts=["testserver"], hasher=FAST, **kw),
                      base_url="https://testserver")


def _signup(c: TestClient, name: str, password: str = "correct horse", **kw) -> dict:
    r = c.post("/api/account/signup", json={"username": name, "password": password, **kw})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.fixture
def players(online_db):
    """Ann and Bob, signed up and logged in, each in a client of one server app."""
    with _client(online_db) as ann, TestClient(ann.app, base_url="https://testserver") as bob:
        _signup(ann, "Ann")
        _signup(bob, "Bob")
        yield ann, bob


def _rated_game(host: TestClient, guest: TestClient, variant: str = "plakoto", **kw) -> dict:
    """A rated game created by ``host``, joined by ``guest``, seeded: at the opening."""
    r = host.post("/api/online/games", json={
        "game": {"variant": variant, "opponent": "human", **kw}, "name": "Ann",
        "rated": True})
    assert r.status_code == 201, r.text
    new = r.json()
    r = guest.post(f"/api/online/games/{new['id']}/join",
                   json={"token": new["invite_token"], "name": "Bob"})
    assert r.status_code == 200, r.text
    games = host.app.state.games
    for n, tok in enumerate((new["token"], new["invite_token"])):
        games.act(new["id"], tok, 2 + n, {"type": "seed", "seed": new_client_seed()})
    return new


def _resign(games: OnlineGames, new: dict, loser: str = "white") -> None:
    """Play the opening roll, then ``loser`` resigns a single game."""
    gid = new["id"]
    tokens = {"white": new["token"], "black": new["invite_token"]}
    v = games.view(gid)
    games.act(gid, tokens["white"], v["seq"] + 1, {"type": "roll"})
    v = games.view(gid)
    games.act(gid, tokens[loser], v["seq"] + 1, {"type": "resign", "value": "single"})
    assert games.view(gid)["status"] == "over"


def test_sign_up_log_in_and_out_with_a_session_cookie(online_db, caplog):
    caplog.set_level(logging.DEBUG)
    with _client(online_db) as c:
        assert c.get("/api/account").json() == {"username": None}
        me = _signup(c, "Ann")
        assert me["username"] == "Ann" and me["ratings"] == {}
        cookie = c.cookies.get(COOKIE)
        assert cookie and len(cookie) >= 32
        header = next(v for k, v in c.post("/api/account/login", json={
            "username": "ann", "password": "correct horse"}).headers.items()
            if k == "set-cookie")
        assert all(w in header.lower() for w in ("httponly", "samesite=strict", "secure"))
        assert c.get("/api/account").json()["username"] == "Ann"
        # the name is taken whatever its case
        r = c.post("/api/account/signup", json={"username": "ANN", "password": "x" * 10})
        assert r.status_code == 409 and r.json()["code"] == "name_taken"
        c.post("/api/account/logout")
        assert c.get("/api/account").json() == {"username": None}
        # the password is stored hashed (Argon2id), never in clear, nor logged
        people = AccountStore(c.app.state.games.store.backend)
        assert people.by_name("Ann").password.startswith("$argon2id$")
        assert "correct horse" not in caplog.text
        assert "correct horse" not in str(people.by_name("Ann"))


@pytest.mark.parametrize("body, message", [
    ({"username": "ab", "password": "correct horse"}, "3 to 20"),
    ({"username": "a b c", "password": "correct horse"}, "3 to 20"),
    ({"username": "<script>", "password": "correct horse"}, "3 to 20"),
    ({"username": "Ann", "password": "short"}, "8 to 256"),
    ({"username": "Annabel", "password": "annabel"}, "8 to 256"),
    ({"username": "Annabel1", "password": "ANNABEL1"}, "not be the username"),
    ({"username": "Ann", "password": 12345678}, "str"),
    ({"username": "Ann", "password": "correct horse", "email": "a@b"}, "email"),
])
def test_a_bad_sign_up_is_refused_and_changes_nothing(tmp_path, body, message):
    with _client(tmp_path / "o.sqlite3") as c:
        r = c.post("/api/account/signup", json=body)
        assert r.status_code == 422 and message in r.json()["error"], r.text
        assert c.cookies.get(COOKIE) is None
        assert AccountStore(c.app.state.games.store.backend).by_name("Ann") is None


def test_login_answers_the_same_for_no_such_user_and_a_wrong_password(tmp_path):
    with _client(tmp_path / "o.sqlite3") as c:
        _signup(c, "Ann")
        c.cookies.clear()
        wrong = c.post("/api/account/login", json={"username": "Ann", "password": "nope nope"})
        nobody = c.post("/api/account/login", json={"username": "Zed", "password": "nope"})
        assert wrong.status_code == nobody.status_code == 401
        assert wrong.json() == nobody.json() == {"error": "wrong username or password",
                                                 "code": "login_failed"}
        assert c.cookies.get(COOKIE) is None


class FromAddress:
    """The app behind a proxy that says who is asking: each request's client address is
    its ``X-Test-Address`` header (Starlette's test client has one address)."""

    def __init__(self, app) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            given = dict(scope["headers"]).get(b"x-test-address")
            if given:
                scope = {**scope, "client": (given.decode(), 50000)}
        await self.app(scope, receive, send)


def _login(c: TestClient, name: str, password: str, address: str | None = None):
    headers = {"x-test-address": address} if address else {}
    return c.post("/api/account/login", json={"username": name, "password": password},
                  headers=headers)


def test_wrong_passwords_from_other_addresses_never_lock_the_owner_out(tmp_path):
    app = create_online_app(tmp_path / "o.sqlite3", allowed_hosts=["testserver"],
                            hasher=FAST)
    with TestClient(FromAddress(app), base_url="https://testserver") as c:
        _signup(c, "Ann")
        c.cookies.clear()
        codes = Counter(_login(c, "Ann", f"guess {i:04}", f"10.1.{i // 250}.{i % 250}")
                        .status_code for i in range(1000))
        assert codes == {401: 1000}  # each address's one guess was checked, and wrong
        r = _login(c, "Ann", "correct horse", "192.0.2.7")  # the owner, at home
        assert r.status_code == 200, r.text
        assert r.json()["username"] == "Ann" and c.cookies.get(COOKIE)


def test_one_address_guessing_passwords_is_slowed_down(tmp_path):
    limits = LoginLimits(free=3, delay=0.4, per_address=8, window=60)
    app = create_online_app(tmp_path / "o.sqlite3", allowed_hosts=["testserver"],
                            hasher=FAST, login_limits=limits)
    with TestClient(FromAddress(app), base_url="https://testserver") as c:
        _signup(c, "Ann")
        c.cookies.clear()
        guess = "192.0.2.66"
        assert [_login(c, "Ann", "guess guess", guess).status_code
                for _ in range(3)] == [401, 401, 401]
        waits = []
        for pause in (0.4, 0.8, 1.6):  # each failure doubles the next wait
            r = _login(c, "Ann", "correct horse", guess)  # not even checked meanwhile
            assert r.status_code == 429 and r.json()["code"] == "rate_limited"
            waits.append(int(r.headers["retry-after"]))
            time.sleep(pause * 0.6)  # longer than the wait before
            assert _login(c, "Ann", "guess guess", guess).status_code == 429
            time.sleep(pause * 0.4 + 0.1)
            assert _login(c, "Ann", "guess guess", guess).status_code == 401
        assert waits == [1, 1, 2]
        # meanwhile the owner, elsewhere, logs in as ever
        assert _login(c, "Ann", "correct horse", "198.51.100.1").status_code == 200
        # over all names, the address may fail 8 times in the window: then it waits
        # for the window's end, whatever the name
        codes = [_login(c, name, "guess guess", guess).status_code
                 for name in ("Bob", "Cat", "Dan")]
        assert codes == [401, 401, 429]
        r = _login(c, "Eve", "guess guess", guess)
        assert r.status_code == 429 and 55 <= int(r.headers["retry-after"]) <= 60
    # the counts are in the store: a second process on it sees them
    again = create_online_app(tmp_path / "o.sqlite3", allowed_hosts=["testserver"],
                              hasher=FAST, login_limits=limits)
    with TestClient(FromAddress(again), base_url="https://testserver") as c2:
        assert _login(c2, "Ann", "correct horse", guess).status_code == 429
        assert _login(c2, "Ann", "correct horse", "198.51.100.2").status_code == 200


def test_a_rated_game_changes_both_ratings_once(players):
    ann, bob = players
    new = _rated_game(ann, bob)
    games = ann.app.state.games
    _resign(games, new, loser="white")  # Ann (white) resigns: Bob wins
    want_bob, want_ann = change(Rated(), Rated(), 1, winner=0)
    a = ann.get("/api/account").json()["ratings"]["plakoto"]
    b = bob.get("/api/account").json()["ratings"]["plakoto"]
    assert (a["rating"], a["experience"], a["played"]) == (
        round(want_ann.rating, 2), 1, 1)
    assert (b["rating"], b["experience"], b["played"]) == (
        round(want_bob.rating, 2), 1, 1)
    assert b["rating"] == 1510.0 and a["rating"] == 1490.0
    # actions after the end (a rematch asked) and a second service reading the game
    # (another process) change nothing
    games.act(new["id"], new["token"], games.view(new["id"])["seq"] + 1,
              {"type": "rematch"})
    other = OnlineGames(games.store)
    assert other.view(new["id"])["status"] == "over"
    assert ann.get("/api/account").json()["ratings"]["plakoto"]["played"] == 1
    # both histories list it, with the rating change
    for c, side, result in ((ann, "white", "lost"), (bob, "black", "won")):
        name = c.get("/api/account").json()["username"]
        p = c.get(f"/api/players/{name}").json()
        [g] = p["games"]
        assert (g["id"], g["side"], g["result"], g["rated"], g["how"]) == (
            new["id"], side, result, True, "resign")
        assert g["opponent"] == ("Bob" if side == "white" else "Ann")
        assert [pt["rating"] for pt in p["chart"]] == [g["rating"]["new"]]
    board = ann.get("/api/leaderboard/plakoto").json()["players"]
    assert [(p["username"], p["rating"]) for p in board] == [("Bob", 1510.0),
                                                              ("Ann", 1490.0)]


def test_a_crash_before_the_commit_loses_the_result_and_the_ratings_together(players,
                                                                            monkeypatch):
    """The ratings are written in the transaction of the action that ends the game: a
    crash between them (here the rating's write failing) leaves neither; the retried
    action commits both, once."""
    ann, bob = players
    new = _rated_game(ann, bob)
    games = ann.app.state.games
    gid = new["id"]
    games.act(gid, new["token"], 4, {"type": "roll"})
    seq = games.view(gid)["seq"]

    def crash(self, tx, s, at):
        raise RuntimeError("the process died here")

    monkeypatch.setattr(AccountStore, "settle", crash)
    with pytest.raises(RuntimeError):
        games.act(gid, new["token"], seq + 1, {"type": "resign", "value": "single"})
    monkeypatch.undo()
    fresh = OnlineGames(games.store)  # as a restarted process sees the store
    assert fresh.view(gid)["status"] == "playing" and fresh.view(gid)["seq"] == seq
    assert ann.get("/api/account").json()["ratings"] == {}
    fresh.act(gid, new["token"], seq + 1, {"type": "resign", "value": "single"})
    assert ann.get("/api/account").json()["ratings"]["plakoto"]["played"] == 1
    assert bob.get("/api/account").json()["ratings"]["plakoto"]["played"] == 1
    people = AccountStore(games.store.backend)
    assert len(people.changes_of_game(gid)) == 2


def test_rated_games_are_between_two_accounts(tmp_path):
    with _client(tmp_path / "o.sqlite3") as ann, \
            TestClient(ann.app, base_url="https://testserver") as guest:
        body = {"game": {"variant": "portes", "opponent": "human"}, "name": "Ann",
                "rated": True}
        r = ann.post("/api/online/games", json=body)
        assert r.status_code == 401 and r.json()["code"] == "logged_out"
        _signup(ann, "Ann")
        ai = {**body, "game": {"variant": "portes", "opponent": "ai", "ai_side": "black"}}
        assert ann.post("/api/online/games", json=ai).status_code == 422
        new = ann.post("/api/online/games", json=body).json()
        # a guest cannot take the seat of a rated game
        r = guest.post(f"/api/online/games/{new['id']}/join",
                       json={"token": new["invite_token"], "name": "Bob"})
        assert r.status_code == 403, r.text
        # nor can Ann take both seats (no rating farmed off oneself)
        r = ann.post(f"/api/online/games/{new['id']}/join",
                     json={"token": new["invite_token"], "name": "Ann again"})
        assert r.status_code == 409 and "your own game" in r.json()["error"]
        assert ann.app.state.games.view(new["id"])["status"] == "open"
        # an unrated game with a guest is recorded, rates nobody
        r = ann.post("/api/online/games", json={**body, "rated": False})
        free = r.json()
        assert guest.post(f"/api/online/games/{free['id']}/join",
                          json={"token": free["invite_token"], "name": "Bob"}).status_code == 200
        games = ann.app.state.games
        for n, tok in enumerate((free["token"], free["invite_token"])):
            games.act(free["id"], tok, 2 + n, {"type": "seed", "seed": new_client_seed()})
        _resign(games, free, loser="black")
        assert ann.get("/api/account").json()["ratings"] == {}
        [g] = ann.get("/api/players/Ann").json()["games"]
        assert (g["result"], g["rated"], g["opponent"]) == ("won", False, "Bob")


def test_a_guest_claims_his_games_when_he_signs_up(tmp_path):
    with _client(tmp_path / "o.sqlite3") as c:
        r = c.post("/api/online/games", json={"game": {"variant": "fevga",
                                                       "opponent": "human"}, "name": "Ann"})
        new = r.json()
        forged = {"game": new["id"], "token": "not-a-seat-token"}
        me = _signup(c, "Ann", claim=[{"game": new["id"], "token": new["token"]}, forged])
        assert me["claimed"] == [new["id"]]
        seats = c.app.state.games.store.seats(new["id"])
        account = AccountStore(c.app.state.games.store.backend).by_name("Ann").id
        assert [s.account_id for s in seats] == [account, None]
        # a seat already an account's is not taken by another
        c.post("/api/account/logout")
        _signup(c, "Mallory")
        r = c.post("/api/account/claim", json={"seats": [{"game": new["id"],
                                                          "token": new["token"]}]})
        assert r.json() == {"claimed": []}
        # claiming needs a session
        c.post("/api/account/logout")
        r = c.post("/api/account/claim", json={"seats": []})
        assert r.status_code == 401


def test_changing_the_password_ends_the_other_sessions(tmp_path):
    with _client(tmp_path / "o.sqlite3") as a, \
            TestClient(a.app, base_url="https://testserver") as b:
        _signup(a, "Ann")
        b.post("/api/account/login", json={"username": "Ann", "password": "correct horse"})
        assert b.get("/api/account").json()["username"] == "Ann"
        r = a.post("/api/account/password", json={"old": "wrong one!", "new": "new horse 2"})
        assert r.status_code == 401
        r = a.post("/api/account/password", json={"old": "correct horse", "new": "new horse 2"})
        assert r.status_code == 200
        assert a.get("/api/account").json()["username"] == "Ann"
        assert b.get("/api/account").json()["username"] is None
        r = b.post("/api/account/login", json={"username": "Ann", "password": "correct horse"})
        assert r.status_code == 401
        r = b.post("/api/account/login", json={"username": "Ann", "password": "new horse 2"})
        assert r.status_code == 200


def test_a_session_cookie_does_not_act_for_a_seat(tmp_path):
    """The seat token is what acts: a session (even the seat's own account) without it is
    a spectator's connection."""
    with _client(tmp_path / "o.sqlite3") as ann, \
            TestClient(ann.app, base_url="https://testserver") as bob:
        _signup(ann, "Ann")
        _signup(bob, "Bob")
        new = _rated_game(ann, bob)
        with bob.websocket_connect(f"/ws/online/{new['id']}") as ws:
            ws.send_json({"type": "hello"})
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome" and welcome["side"] is None
            ws.send_json({"type": "act", "seq": 4, "action": {"type": "roll"}})
            answer = ws.receive_json()
            while answer["type"] == "presence":
                answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] == "access_denied"
        assert ann.app.state.games.view(new["id"])["seq"] == 3


def test_deleting_an_account_forgets_its_data_and_keeps_its_games(players):
    ann, bob = players
    new = _rated_game(ann, bob)
    games = ann.app.state.games
    _resign(games, new, loser="black")
    r = bob.post("/api/account/delete", json={"password": "wrong password"})
    assert r.status_code == 401
    r = bob.post("/api/account/delete", json={"password": "correct horse"})
    assert r.status_code == 200 and bob.cookies.get(COOKIE) is None
    assert bob.get("/api/account").json() == {"username": None}
    assert bob.get("/api/players/Bob").status_code == 404
    assert bob.post("/api/account/login", json={
        "username": "Bob", "password": "correct horse"}).status_code == 401
    # the game stays, its player "deleted player": the seat, the log, the record
    view = games.view(new["id"])
    assert [s["name"] for s in view["seats"]] == ["Ann", DELETED]
    record = ann.get(f"/api/online/games/{new['id']}/record").json()
    assert record["names"]["black"] == DELETED
    store = games.store
    assert "Bob" not in str([a.action for a in store.actions(new["id"])])
    assert OnlineGames(store).view(new["id"])["status"] == "over"  # still replays
    # Ann's history keeps the game and her rating
    p = ann.get("/api/players/Ann").json()
    assert p["games"][0]["opponent"] == DELETED and p["chart"][0]["opponent"] == DELETED
    assert p["ratings"]["plakoto"]["rating"] == 1510.0
    # the name is free again
    _signup(bob, "Bob", password="another horse")


def test_a_tavli_match_is_rated_by_its_length(tmp_path):
    with _client(tmp_path / "o.sqlite3") as ann, \
            TestClient(ann.app, base_url="https://testserver") as bob:
        _signup(ann, "Ann")
        _signup(bob, "Bob")
        new = _rated_game(ann, bob, variant="tavli", points=3)
        games = ann.app.state.games
        gid = new["id"]
        tokens = {"white": new["token"], "black": new["invite_token"]}
        while games.view(gid)["status"] != "over":
            v = games.view(gid)
            if v["phase"] == "over":
                games.act(gid, tokens["white"], v["seq"] + 1, {"type": "next"})
            elif v["phase"] in ("opening", "roll"):
                games.act(gid, tokens[v["turn"]], v["seq"] + 1, {"type": "roll"})
            elif v["turn"] == "white":  # white resigns each game: black wins the match
                games.act(gid, tokens["white"], v["seq"] + 1,
                          {"type": "resign", "value": "single"})
            else:
                games.act(gid, tokens["black"], v["seq"] + 1,
                          {"type": "move", "move": v["legal_moves"][0]["move"]})
        a = ann.get("/api/account").json()["ratings"]["tavli"]
        assert a["experience"] == 3 and a["played"] == 1
        assert a["rating"] == round(change(Rated(), Rated(), 3, winner=1)[0].rating, 2)


def test_profiles_and_leaderboards_refuse_bad_names(tmp_path):
    with _client(tmp_path / "o.sqlite3") as c:
        assert c.get("/api/players/nobody").status_code == 404
        assert c.get("/api/players/" + "x" * 500).status_code == 422
        assert c.get("/api/players/a%20b").status_code == 422
        assert c.get("/api/players/Ann?limit=100000").status_code in (404, 422)
        assert c.get("/api/leaderboard/chess").status_code == 404
        assert c.get("/api/leaderboard/portes").json() == {"game": "portes", "players": []}


def test_the_store_holds_a_result_once(tmp_path):
    store = open_store(str(tmp_path / "o.sqlite3"))
    people = AccountStore(store.backend)
    a, b = people.create("Ann", "h"), people.create("Bob", "h")
    assert people.leaderboard("portes") == []
    assert a.id != b.id
    store.close()


def _rated_at_the_opening(games: OnlineGames, people: AccountStore, variant: str):
    """A rated game of Ann's and Bob's accounts made through the service, joined, seeded
    and its opening thrown: ``(new, ann, bob)``."""
    from tavli.web.newgame import NewGame

    ann, bob = people.create("Ann", "h"), people.create("Bob", "h")
    new = games.create(NewGame(variant=variant, opponent="human"), name="Ann", rated=True,
                       account=ann.id)
    people.seat_account(new.game_id, "black", bob.id)
    games.act(new.game_id, new.invite_token, 1, {"type": "join", "name": "Bob"})
    for n, tok in enumerate((new.token, new.invite_token)):
        games.act(new.game_id, tok, 2 + n, {"type": "seed", "seed": new_client_seed()})
    games.act(new.game_id, new.token, 4, {"type": "roll"})
    return new, ann, bob


KILLED = """
import sys, time
from tavli.online.service import OnlineGames
from tavli.store.accounts import AccountStore
from tavli.store.factory import open_store

db, gid, token, seq = sys.argv[1:5]
games = OnlineGames(open_store(db))
settle = AccountStore.settle


def settle_then_hang(self, tx, s, at):
    settle(self, tx, s, at)           # the ratings written in the result's transaction,
    print("settled", flush=True)      # and the process killed before it commits
    time.sleep(120)


AccountStore.settle = settle_then_hang
games.act(gid, token, int(seq), {"type": "resign", "value": "single"})
"""


def test_kill_9_between_the_result_and_the_commit_loses_and_doubles_nothing(online_db):
    """A server process killed (SIGKILL) after writing a rated result's ratings and before
    its transaction commits: the result and the ratings are both lost, the game goes on;
    the same action taken again commits them once."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    store = open_store(online_db)
    people = AccountStore(store.backend)
    games = OnlineGames(store)
    new, ann, bob = _rated_at_the_opening(games, people, "plakoto")
    gid = new.game_id
    seq = games.view(gid)["seq"] + 1
    root = Path(__file__).resolve().parent.parent
    child = subprocess.Popen([sys.executable, "-c", KILLED, online_db, gid, new.token,
                              str(seq)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(root)})
    try:
        assert child.stdout.readline().strip() == "settled"
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(30)
    fresh = OnlineGames(open_store(online_db))
    assert fresh.view(gid)["status"] == "playing" and fresh.view(gid)["seq"] == seq - 1
    assert people.ratings(ann.id) == [] and people.changes_of_game(gid) == {}
    fresh.act(gid, new.token, seq, {"type": "resign", "value": "single"})
    assert [r.played for r in people.ratings(ann.id)] == [1]
    assert [r.rating for r in people.ratings(bob.id)] == [1510.0]
    assert len(people.changes_of_game(gid)) == 2
    store.close()


def test_an_ending_action_takes_the_way_that_commits_its_ratings(online_db):
    """On the event loop's way (a store across a network: ``prepare``, then an asyncio
    append) an action that ends a rated game is not prepared: it goes the thread pool's
    way, whose transaction commits the result and the ratings with it."""
    with open_store(online_db) as store:
        people = AccountStore(store.backend)
        games = OnlineGames(store)
        games.known = {}   # as a hub's service: the notices keep it up to date
        new, _, _ = _rated_at_the_opening(games, people, "portes")
        gid = new.game_id
        v = games.view(gid)
        token = new.token if v["turn"] == "white" else new.invite_token
        resign = {"type": "resign", "value": "single"}
        assert games.prepare(gid, token, 5, resign) is None   # not on the loop's way
        assert games.tables.get(gid) is None                  # what it applied: forgotten
        games.act(gid, token, 5, resign)                      # the thread pool's way
        assert len(people.changes_of_game(gid)) == 2
        assert games.view(gid)["status"] == "over" and games.view(gid)["rated"]


def test_old_failed_logins_are_forgotten(tmp_path):
    """The throttle's counts of a window gone by are deleted as new failures come: the
    table holds the current window's keys only."""
    limits = LoginLimits(per_address=5, window=0.2)
    with _client(tmp_path / "o.sqlite3", login_limits=limits) as c:
        backend = c.app.state.games.store.backend
        for name in ("Ann", "Bob"):
            c.post("/api/account/login", json={"username": name, "password": "guess guess"})
        # 2 pairs of the address and a name, 1 address
        assert backend.one("SELECT COUNT(*) FROM online_throttle")[0] == 3
        time.sleep(0.3)
        c.post("/api/account/login", json={"username": "Cat", "password": "guess guess"})
        keys = {r[0] for r in backend.rows("SELECT key FROM online_throttle")}
        assert keys == {"pair:testclient|cat", "address:testclient"}
