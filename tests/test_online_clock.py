"""Online games in time and after the end: clocks (the awaited side's, recomputed from the
log by a restarted service and by a second one on the same database, a flag falling on
the next action and by the hub's timer with nobody acting), abandonment claims, agreed
draws in Plakoto (offer, decline, lapse, accept; refused in Portes), resignations with
gammon and backgammon over the socket, and rematches (sides swapped, the same tokens) —
each new action refused cleanly where it is not allowed, on SQLite and PostgreSQL."""

from __future__ import annotations

import time

import pytest
from test_online_server import _act, _client, _hello, until

from tavli.errors import AccessDenied, GameOver, WrongState
from tavli.online.fairdice import new_client_seed, verify_record
from tavli.online.service import OnlineGames
from tavli.play.record import load_record
from tavli.store.factory import open_store
from tavli.web.errors import ApiError
from tavli.web.newgame import NewGame

_opened: list = []


@pytest.fixture(autouse=True)
def _close_stores():
    """Close the stores a test opened (PostgreSQL pools hold threads)."""
    yield
    while _opened:
        _opened.pop().close()


def _games(db, **kw) -> OnlineGames:
    store = open_store(db)
    _opened.append(store)
    return OnlineGames(store, **kw)


def _setup(games: OnlineGames, variant: str = "portes", **kw) -> tuple[str, dict[str, str]]:
    """A game between Ann (white) and Bob (black), joined and seeded: ``(id, tokens)``."""
    new = games.create(NewGame(variant=variant, opponent="human"), "Ann", **kw)
    gid = new.game_id
    tok = {new.side: new.token, new.invite_side: new.invite_token}
    games.act(gid, tok["black"], 1, {"type": "join", "name": "Bob"})
    games.act(gid, tok["white"], 2, {"type": "seed", "seed": new_client_seed()})
    games.act(gid, tok["black"], 3, {"type": "seed", "seed": new_client_seed()})
    return gid, tok


def _do(games: OnlineGames, gid: str, token: str, action: dict):
    return games.act(gid, token, games.view(gid)["seq"] + 1, action)


def _turn(games: OnlineGames, gid: str, tok: dict[str, str]) -> None:
    """The side to act rolls, or plays its first legal move."""
    v = games.view(gid)
    side = v["turn"]
    if v["phase"] in ("opening", "roll"):
        _do(games, gid, tok[side], {"type": "roll"})
    else:
        _do(games, gid, tok[side], {"type": "move", "move": v["legal_moves"][0]["move"]})


def _stored_at_the_end(games: OnlineGames, gid: str) -> None:
    """The store holds the finished game's record (it is stored only at the end), with the
    server seed revealed, as the service gives it."""
    row = games.store.game(gid)
    assert row.status == "over" and row.record == games.record(gid)
    assert row.record["fair_dice"]["server_seed"] == row.server_seed


def _unchanged(games: OnlineGames, gid: str, fn, error, match: str) -> None:
    """``fn()`` is refused with ``error`` and the game does not change."""
    before = games.view(gid)["seq"]
    with pytest.raises(error, match=match):
        fn()
    assert games.view(gid)["seq"] == before


# --- clocks ------------------------------------------------------------------------------

def test_the_clock_runs_for_the_awaited_side_the_same_in_every_process(online_db):
    a, b = _games(online_db), _games(online_db)  # two processes on one database
    gid, tok = _setup(a, clock={"reserve": 60, "delay": 0})
    v = a.view(gid)
    assert v["clock"] == {"reserve": {"white": 60.0, "black": 60.0}, "delay": 0.0,
                          "running": None, "since": None}  # nobody's before the opening
    _do(a, gid, tok["white"], {"type": "roll"})  # the opening throw
    starter = a.view(gid)["turn"]
    opened = a.store.actions(gid)[-1].at
    clock = b.view(gid)["clock"]
    assert clock["running"] == starter and clock["since"] == opened
    time.sleep(0.05)
    v = b.view(gid)  # the starter moves through the other process
    _do(b, gid, tok[starter], {"type": "move", "move": v["legal_moves"][0]["move"]})
    moved = b.store.actions(gid)[-1].at
    other = "black" if starter == "white" else "white"
    for games in (a, b, _games(online_db)):  # and a restarted one, from the log alone
        clock = games.view(gid)["clock"]
        assert clock["running"] == other and clock["since"] == moved
        assert clock["reserve"][starter] == pytest.approx(60 - (moved - opened), abs=2e-3)
        assert clock["reserve"][other] == 60.0
    assert moved - opened >= 0.05


def test_the_delay_runs_first_and_a_roll_and_its_move_share_it(online_db):
    games = _games(online_db)
    gid, tok = _setup(games, clock={"reserve": 30, "delay": 5})
    for _ in range(6):
        _turn(games, gid, tok)
    assert games.view(gid)["clock"]["reserve"] == {"white": 30.0, "black": 30.0}


def test_a_flag_that_fell_is_called_on_the_next_action(online_db):
    games = _games(online_db)
    gid, tok = _setup(games, clock={"reserve": 0.3, "delay": 0})
    _do(games, gid, tok["white"], {"type": "roll"})
    loser = games.table(gid).game.position.turn
    loser = "white" if loser == 0 else "black"
    winner = "black" if loser == "white" else "white"
    time.sleep(0.35)
    g = games.table(gid).game
    seq = games.table(gid).seq
    with pytest.raises(GameOver, match=f"{loser} has lost on time"):
        games.act(gid, tok[loser], seq + 1, {"type": "move", "move": str(g.legal_moves()[0])})
    last = games.store.actions(gid)[-1]
    assert (last.seq, last.side, last.action) == (seq + 1, None, {"type": "timeout"})
    v = games.view(gid)
    assert v["status"] == "over" and v["outcome"]["kind"] == "time"
    assert v["outcome"]["winner"] == winner and v["clock"]["running"] is None
    rec = games.record(gid)
    assert load_record(rec).outcome.kind == "time" and verify_record(rec)[1] == []
    _stored_at_the_end(games, gid)
    _unchanged(games, gid, lambda: _do(games, gid, tok[winner], {"type": "claim"}),
               GameOver, "over")
    # a restarted service replays the server's timeout
    assert _games(online_db).view(gid)["outcome"] == v["outcome"]


def test_the_opponent_claims_a_fallen_flag_the_server_has_not_called(online_db):
    games = _games(online_db)
    gid, tok = _setup(games, "backgammon", clock={"reserve": 0.6, "delay": 0.2})
    _do(games, gid, tok["black"], {"type": "roll"})
    mover = games.view(gid)["turn"]
    waiter = "black" if mover == "white" else "white"
    _unchanged(games, gid, lambda: _do(games, gid, tok[waiter], {"type": "claim"}),
               WrongState, f"{mover} is connected|{mover} has been away")
    time.sleep(0.85)
    seq = games.table(gid).seq
    done = games.act(gid, tok[waiter], seq + 1, {"type": "claim"})
    assert done.side is None and done.action == {"type": "timeout"}
    assert done.result["loser"] == mover and done.result["outcome"]["kind"] == "time"
    # backgammon: the loser's position as it stands (nothing borne off: gammon at least)
    assert done.result["outcome"]["points"] >= 2


def test_no_clock_no_timeout_and_bad_clock_settings(online_db):
    games = _games(online_db)
    gid, tok = _setup(games)
    assert games.view(gid)["clock"] is None and games.flag(gid) is None
    for clock, match in [({"reserve": 0}, "more than 0"), ({"reserve": -1}, "more than 0"),
                         ({"reserve": 10, "delay": -1}, "at least 0"),
                         ({"delay": 5}, "reserve"), ({"reserve": "5"}, "number"),
                         ({"reserve": 5, "extra": 1}, "reserve"), (5, "reserve")]:
        with pytest.raises(ApiError, match=match):
            games.create(NewGame(variant="portes", opponent="human"), "Ann", clock=clock)
    with pytest.raises(ApiError, match="abandon_after"):
        games.create(NewGame(variant="portes", opponent="human"), "Ann", abandon_after=0)


@pytest.mark.parametrize("online_db", ["sqlite", "postgresql"], indirect=True)
def test_the_hub_calls_time_when_nobody_acts(online_db):
    with _client(online_db) as c:
        r = c.post("/api/online/games", json={
            "game": {"variant": "portes", "opponent": "human"}, "name": "Ann",
            "clock": {"reserve": 0.5, "delay": 0}})
        assert r.status_code == 201, r.text
        new = r.json()
        assert new["state"]["clock"]["reserve"] == {"white": 0.5, "black": 0.5}
        gid = new["id"]
        games = c.app.state.games
        games.act(gid, new["invite_token"], 1, {"type": "join", "name": "Bob"})
        games.act(gid, new["invite_token"], 2, {"type": "seed", "seed": new_client_seed()})
        with c.websocket_connect(f"/ws/online/{gid}") as ws:
            _hello(ws, new["token"])
            assert _act(ws, 3, {"type": "seed", "seed": new_client_seed()})["type"] == "ack"
            assert _act(ws, 4, {"type": "roll"})["type"] == "ack"
            t0 = time.monotonic()
            up = until(ws, lambda m: m["type"] == "update"
                       and (m["state"]["outcome"] or {}).get("kind") == "time", timeout=10)
            assert time.monotonic() - t0 < 5
            assert up["actions"][-1]["side"] is None
            assert up["actions"][-1]["action"] == {"type": "timeout"}
            assert up["state"]["status"] == "over"


# --- abandonment -------------------------------------------------------------------------

def test_a_seat_away_past_abandon_after_may_be_claimed(online_db):
    games = _games(online_db, beat=0.1)
    gid, tok = _setup(games, abandon_after=1)
    v = games.view(gid)
    assert v["abandon_after"] == 1 and v["absent"]["black"] is not None  # never connected
    _do(games, gid, tok["white"], {"type": "roll"})
    now = time.time()
    games.store.update_seat(gid, "black", seen=now)  # connected (a process marked it)
    games.store.update_seat(gid, "white", seen=now)
    assert games.view(gid)["absent"] == {"white": None, "black": None}
    _unchanged(games, gid, lambda: _do(games, gid, tok["white"], {"type": "claim"}),
               WrongState, "black is connected")
    games.store.update_seat(gid, "black", left=time.time())  # its connection closed
    assert games.view(gid)["absent"]["black"] >= 0
    _unchanged(games, gid, lambda: _do(games, gid, tok["white"], {"type": "claim"}),
               WrongState, r"black has been away \d+ s: the game may be claimed after 1 s")
    _unchanged(games, gid, lambda: _do(games, gid, "forged", {"type": "claim"}),
               AccessDenied, "spectators")
    time.sleep(1.05)
    done = _do(games, gid, tok["white"], {"type": "claim"})
    assert done.side == "white" and done.result["outcome"]["kind"] == "abandoned"
    v = games.view(gid)
    assert v["status"] == "over" and v["outcome"]["winner"] == "white"
    assert load_record(games.record(gid)).outcome.kind == "abandoned"
    _stored_at_the_end(games, gid)
    assert _games(online_db).view(gid)["outcome"] == v["outcome"]  # replays


def test_claims_refused_without_abandon_time_or_against_the_ai(online_db):
    games = _games(online_db, abandon_after=None)  # the server's default: never
    gid, tok = _setup(games)
    assert games.view(gid)["abandon_after"] is None
    _unchanged(games, gid, lambda: _do(games, gid, tok["white"], {"type": "claim"}),
               WrongState, "no abandon time")
    new = games.create(NewGame(variant="portes", opponent="ai", level="beginner"), "Ann",
                       abandon_after=1)
    _unchanged(games, new.game_id, lambda: _do(games, new.game_id, new.token,
                                               {"type": "claim"}),
               WrongState, "the AI never leaves")


def test_presence_shows_the_absence_and_a_claim_over_the_socket(online_db):
    with _client(online_db, presence_beat=0.2) as c:
        r = c.post("/api/online/games", json={
            "game": {"variant": "portes", "opponent": "human"}, "name": "Ann",
            "abandon_after": 0.5})
        new = r.json()
        gid = new["id"]
        games = c.app.state.games
        games.act(gid, new["invite_token"], 1, {"type": "join", "name": "Bob"})
        with c.websocket_connect(f"/ws/online/{gid}") as white:
            _hello(white, new["token"])
            with c.websocket_connect(f"/ws/online/{gid}") as black:
                _hello(black, new["invite_token"])
                until(white, lambda m: m["type"] == "presence" and m["seats"]["black"])
            gone = until(white, lambda m: m["type"] == "presence"
                         and not m["seats"]["black"])
            assert gone["absent"]["white"] is None and gone["absent"]["black"] is not None
            refused = _act(white, 2, {"type": "claim"})
            assert refused["type"] == "error" and refused["code"] == "wrong_state"
            time.sleep(0.6)
            assert _act(white, 2, {"type": "claim"})["type"] == "ack"
            up = until(white, lambda m: m["type"] == "update" and m["state"]["outcome"])
            # black has borne off nothing: a gammon (the position as it stands)
            assert up["state"]["outcome"] == {"winner": "white", "points": 2,
                                              "kind": "abandoned"}


# --- draws -------------------------------------------------------------------------------

def test_draw_offers_in_plakoto(online_db):
    games = _games(online_db)
    gid, tok = _setup(games, "plakoto")
    w, b = tok["white"], tok["black"]
    assert games.view(gid)["draws"] is True
    _unchanged(games, gid, lambda: _do(games, gid, w, {"type": "offer_draw"}),
               WrongState, "has not begun")
    _do(games, gid, w, {"type": "roll"})
    _unchanged(games, gid, lambda: _do(games, gid, b, {"type": "accept_draw"}),
               WrongState, "no draw is offered")
    _do(games, gid, b, {"type": "offer_draw"})  # not his turn: an offer any time
    assert games.view(gid)["draw_offer"] == "black"
    _unchanged(games, gid, lambda: _do(games, gid, b, {"type": "offer_draw"}),
               WrongState, "you have offered")
    _unchanged(games, gid, lambda: _do(games, gid, b, {"type": "accept_draw"}),
               WrongState, "waits for white")
    _unchanged(games, gid, lambda: _do(games, gid, w, {"type": "offer_draw"}),
               WrongState, "black offers a draw")
    _unchanged(games, gid, lambda: _do(games, gid, "forged", {"type": "accept_draw"}),
               AccessDenied, "spectators")
    _do(games, gid, w, {"type": "decline_draw"})
    assert games.view(gid)["draw_offer"] is None
    # an offer lapses when the opponent plays on; the offerer's own actions keep it
    starter = games.view(gid)["turn"]
    _do(games, gid, tok[starter], {"type": "offer_draw"})
    while games.view(gid)["turn"] == starter:
        _turn(games, gid, tok)
        if games.view(gid)["turn"] == starter:
            assert games.view(gid)["draw_offer"] == starter
    _turn(games, gid, tok)  # the opponent rolls instead of answering
    assert games.view(gid)["draw_offer"] is None
    opp = games.view(gid)["turn"]
    _do(games, gid, tok[opp], {"type": "offer_draw"})
    _do(games, gid, tok["black" if opp == "white" else "white"], {"type": "accept_draw"})
    v = games.view(gid)
    assert v["status"] == "over" and v["outcome"] == {"winner": None, "points": 0,
                                                      "kind": "draw"}
    assert v["draw_offer"] is None and v["draws"] is False
    _unchanged(games, gid, lambda: _do(games, gid, w, {"type": "offer_draw"}),
               GameOver, "over")
    rec = games.record(gid)
    assert load_record(rec).outcome.kind == "draw" and verify_record(rec)[1] == []
    _stored_at_the_end(games, gid)
    assert _games(online_db).view(gid)["outcome"] == v["outcome"]


def test_no_draw_in_portes(online_db):
    games = _games(online_db)
    gid, tok = _setup(games)
    _do(games, gid, tok["white"], {"type": "roll"})
    assert games.view(gid)["draws"] is False
    for kind in ("offer_draw", "accept_draw", "decline_draw"):
        _unchanged(games, gid, lambda k=kind: _do(games, gid, tok["white"], {"type": k}),
                   WrongState, "portes has no draw")


# --- resignations over the socket ---------------------------------------------------------

@pytest.mark.parametrize("value, points", [("gammon", 2), ("backgammon", 3)])
def test_backgammon_resignations_over_the_socket(tmp_path, value, points):
    with _client(tmp_path / "o.sqlite3") as c:
        r = c.post("/api/online/games", json={
            "game": {"variant": "backgammon", "opponent": "human"}, "name": "Ann"})
        new = r.json()
        gid = new["id"]
        c.app.state.games.act(gid, new["invite_token"], 1, {"type": "join", "name": "Bob"})
        with c.websocket_connect(f"/ws/online/{gid}") as ws:
            _hello(ws, new["token"])
            bad = _act(ws, 2, {"type": "resign", "value": "everything"})
            assert bad["type"] == "error" and bad["code"] == "invalid"
            assert _act(ws, 2, {"type": "resign", "value": value})["type"] == "ack"
            up = until(ws, lambda m: m["type"] == "update" and m["state"]["outcome"])
            assert up["state"]["outcome"] == {"winner": "black", "points": points,
                                              "kind": "resign"}


# --- rematch -----------------------------------------------------------------------------

def test_rematch_swaps_the_sides_and_keeps_the_tokens(online_db):
    games = _games(online_db)
    gid, tok = _setup(games, clock={"reserve": 120, "delay": 8}, abandon_after=60)
    _unchanged(games, gid, lambda: _do(games, gid, tok["white"], {"type": "rematch"}),
               WrongState, "once the game is over")
    _do(games, gid, tok["white"], {"type": "resign"})
    _unchanged(games, gid, lambda: _do(games, gid, "forged", {"type": "rematch"}),
               AccessDenied, "spectators")
    assert _do(games, gid, tok["black"], {"type": "rematch"}).result == {"offered_by": "black"}
    assert games.view(gid)["rematch"] == {"offered_by": "black"}
    _unchanged(games, gid, lambda: _do(games, gid, tok["black"], {"type": "rematch"}),
               WrongState, "waits for white")
    done = _do(games, gid, tok["white"], {"type": "rematch"})
    new_id = done.result["id"]
    assert games.view(gid)["rematch"] == {"id": new_id} and new_id != gid
    _stored_at_the_end(games, gid)
    fresh = games.store.game(new_id)  # the new game: stored with its record, seed secret
    assert fresh.record is not None and fresh.record["fair_dice"]["server_seed"] is None
    assert fresh.record == games.record(new_id)
    _unchanged(games, gid, lambda: _do(games, gid, tok["black"], {"type": "rematch"}),
               WrongState, f"the rematch is game {new_id}")
    # the same tokens, the sides swapped: Ann plays black now
    assert games.seat(new_id, tok["white"]).side == "black"
    assert games.seat(new_id, tok["black"]).side == "white"
    v = games.view(new_id)
    assert v["status"] == "playing" and v["seq"] == 0
    assert [(s["side"], s["name"]) for s in v["seats"]] == [("white", "Bob"), ("black", "Ann")]
    assert v["commitment"] != games.view(gid)["commitment"]  # fresh fair dice
    assert v["clock"]["reserve"] == {"white": 120.0, "black": 120.0}
    assert v["abandon_after"] == 60 and v["rematch"] is None
    with pytest.raises(AccessDenied):  # the old seats' tokens only: no one else's
        games.seat(new_id, "forged")
    _do(games, new_id, tok["black"], {"type": "seed", "seed": new_client_seed()})
    _do(games, new_id, tok["white"], {"type": "seed", "seed": new_client_seed()})
    _turn(games, new_id, {"white": tok["black"], "black": tok["white"]})
    # a restarted service sees the same rematch in the old game's log
    assert _games(online_db).view(gid)["rematch"] == {"id": new_id}


def test_rematch_against_the_ai_is_at_once(online_db):
    games = _games(online_db)
    new = games.create(NewGame(variant="portes", opponent="ai", level="beginner"), "Ann")
    _do(games, new.game_id, new.token, {"type": "resign"})
    new_id = _do(games, new.game_id, new.token, {"type": "rematch"}).result["id"]
    assert games.seat(new_id, new.token).side == "black"
    seats = {s["side"]: s["player"] for s in games.view(new_id)["seats"]}
    assert seats == {"white": "ai", "black": "human"}


def test_both_players_hear_of_the_rematch_over_the_socket(tmp_path):
    with _client(tmp_path / "o.sqlite3") as c:
        r = c.post("/api/online/games", json={
            "game": {"variant": "portes", "opponent": "human"}, "name": "Ann"})
        new = r.json()
        gid = new["id"]
        c.app.state.games.act(gid, new["invite_token"], 1, {"type": "join", "name": "Bob"})
        with c.websocket_connect(f"/ws/online/{gid}") as white, \
                c.websocket_connect(f"/ws/online/{gid}") as black:
            _hello(white, new["token"])
            _hello(black, new["invite_token"])
            assert _act(white, 2, {"type": "resign"})["type"] == "ack"
            assert _act(white, 3, {"type": "rematch"})["type"] == "ack"
            assert _act(black, 4, {"type": "rematch"})["type"] == "ack"
            for ws in (white, black):
                up = until(ws, lambda m: m["type"] == "update"
                           and "id" in (m["state"]["rematch"] or {}))
                new_id = up["state"]["rematch"]["id"]
            with c.websocket_connect(f"/ws/online/{new_id}") as ws:
                assert _hello(ws, new["token"])["side"] == "black"
