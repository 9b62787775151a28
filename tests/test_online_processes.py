"""Two real ``tavli serve`` processes sharing one PostgreSQL: a player on each plays a
Portes game over WebSockets; one process is killed (``kill -9``) mid-game, its player
reconnects to the other (hello with the last number seen) and the game is finished;
nothing acknowledged is lost and the dice verify."""

from __future__ import annotations

import json
import random
import time

import httpx
from websockets.sync.client import connect

from tavli.online.fairdice import new_client_seed, verify_record
from tavli.online.procs import ServeProcess
from tavli.store.factory import open_store


class Seat:
    """One player: a WebSocket to a server, the last state and every action received."""

    def __init__(self, server: ServeProcess, game_id: str, token: str) -> None:
        self.token, self.game_id = token, game_id
        self.seen: list[int] = []
        self.state: dict = {}
        self.acked: list[tuple[int, dict]] = []
        self.open(server)

    def open(self, server: ServeProcess) -> None:
        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws/online/{self.game_id}",
                          origin=server.url, proxy=None).__enter__()
        last = self.seen[-1] if self.seen else None
        hello = {"type": "hello", "token": self.token}
        if last is not None:
            hello["seq"] = last
        self.ws.send(json.dumps(hello))
        self.until(lambda m: m["type"] == "welcome")

    def take(self, m: dict) -> None:
        if m["type"] in ("welcome", "update"):
            for a in m.get("actions", []):
                assert a["seq"] == (self.seen[-1] if self.seen else 0) + 1, "order"
                self.seen.append(a["seq"])
            if m["state"]["seq"] >= self.state.get("seq", -1):
                self.state = m["state"]
            if m["type"] == "welcome" and not self.seen:
                self.seen = list(range(1, m["state"]["seq"] + 1))  # before this player

    def until(self, pred, timeout: float = 20.0) -> dict:
        end = time.monotonic() + timeout
        while True:
            m = json.loads(self.ws.recv(timeout=max(0.1, end - time.monotonic())))
            self.take(m)
            if pred(m):
                return m

    def act(self, action: dict) -> None:
        seq = self.state["seq"] + 1
        while True:
            self.ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))
            m = self.until(lambda m: m["type"] in ("ack", "error")
                           and m.get("seq") in (seq, None))
            if m.get("code") != "rate_limited":  # 20 messages a second: faster than that
                break                             # waits and sends again
            time.sleep(0.1)
        assert m["type"] == "ack", m
        self.acked.append((seq, action))
        self.wait_for(seq)  # the update may come after the ack

    def wait_for(self, seq: int) -> None:
        if self.state["seq"] < seq:
            self.until(lambda m: m["type"] in ("welcome", "update")
                       and m["state"]["seq"] >= seq)


def _next(state: dict, side: str, rng: random.Random) -> dict | None:
    if state["status"] == "over":
        return None
    if state["phase"] == "opening":
        return {"type": "roll"} if side == "white" else None
    if state["turn"] != side:
        return None
    if state["phase"] == "roll":
        return {"type": "roll"}
    return {"type": "move", "move": rng.choice(state["legal_moves"])["move"]}


def test_kill_one_process_mid_game_its_player_finishes_on_the_other(pg_cluster, tmp_path):
    db = pg_cluster.create_schema("procs")
    open_store(db).close()  # the schema, once
    a = ServeProcess(db, log=str(tmp_path / "a.log"))
    b = ServeProcess(db, log=str(tmp_path / "b.log"))
    a.start()
    b.start()
    try:
        new = httpx.post(f"{a.url}/api/online/games", json={
            "game": {"variant": "portes", "opponent": "human"}, "name": "Ann"},
            headers={"origin": a.url}).json()
        gid = new["id"]
        r = httpx.post(f"{b.url}/api/online/games/{gid}/join",
                       json={"token": new["invite_token"], "name": "Bob"},
                       headers={"origin": b.url})
        assert r.status_code == 200, r.text
        seats = {"white": Seat(a, gid, new["token"]), "black": Seat(b, gid, new["invite_token"])}
        for side in ("white", "black"):
            seats[side].wait_for(1)
            seats[side].act({"type": "seed", "seed": new_client_seed()})
            seats["black" if side == "white" else "white"].wait_for(seats[side].acked[-1][0])
        rng = random.Random(5)
        killed = False
        for step in range(2000):
            white, black = seats["white"], seats["black"]
            seq = max(white.state["seq"], black.state["seq"])
            white.wait_for(seq)
            black.wait_for(seq)  # black hears white's actions through the other process
            if step == 40 and not killed:
                a.kill()  # kill -9: white's process is gone mid-game
                killed = True
                white.ws.close()
                white.open(b)  # reconnects to the other process with the last seq
                assert white.state["seq"] == black.state["seq"]
            done = True
            for side, seat in seats.items():
                action = _next(seat.state, side, rng)
                if action is not None:
                    seat.act(action)
                    done = False
                    break
            if done:
                break
        assert killed and seats["white"].state["status"] == "over"
        last = seats["white"].state["seq"]
        for seat in seats.values():
            assert seat.seen == list(range(1, last + 1))  # every action once, in order
        with open_store(db) as store:
            log = store.actions(gid)
            assert [x.seq for x in log] == list(range(1, last + 1))
            by_seq = {x.seq: x for x in log}
            for side, seat in seats.items():
                for seq, action in seat.acked:
                    assert by_seq[seq].action == action and by_seq[seq].side == side
            record = store.game(gid).record
        rolls, problems = verify_record(record)
        assert problems == [] and rolls > 10
    finally:
        for s in (a, b):
            s.kill()
