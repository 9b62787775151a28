"""The simulated players of ``tavli bench server``: one process (of its own, so that the
clients' CPU is not the server's) running many players with asyncio, each a WebSocket
client of a ``tavli serve`` process, playing random legal Portes games in pairs.

The process reads its task (JSON) on stdin, sets its games up (create and join over
HTTP, one WebSocket per player, hello, the client seeds), prints ``ready``, waits for
``go`` on stdin, plays for the given seconds — a player whose turn it is waits its think
time (uniform in ``think``) and sends a random legal action of the state it was sent —
stops acting, waits for the last answers and fan-out, writes what it measured (JSON) to
the task's ``out`` file and prints ``done``.

Measured: for every action sent during the play, the time from sending ``act`` to the
opponent's ``update`` with it (both players are in this process: one clock) and to the
``ack``; the errors by code; every action each player received (in order, once: a
number out of order is counted, one received twice too); what each game acknowledged
(the orchestrator checks it against the store).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

PER_ADDRESS = 16  # players sharing one loopback source address (the server allows 32)
SETUP_AT_ONCE = 32  # games being set up at the same time


def source_address(player: int) -> str:
    """The loopback address player number ``player`` connects from (127.0.1.1, …: all of
    127/8 is this machine), so that the server's per-address limits hold as they are."""
    n = player // PER_ADDRESS
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


@dataclass
class Stats:
    """What this process measured."""

    fanout: list[float] = field(default_factory=list)  # act sent -> opponent's update
    ack: list[float] = field(default_factory=list)     # act sent -> ack
    errors: Counter = field(default_factory=Counter)
    out_of_order: int = 0
    duplicated: int = 0
    sent: int = 0        # actions sent during the play
    acked: int = 0
    moves: int = 0       # of them, moves (the rest: rolls)
    connected: int = 0
    peak: int = 0
    games_over: int = 0


class Player:
    """One seat of one game: a WebSocket, the last state, what it received."""

    def __init__(self, bench: Bench, pair: Pair, side: str, token: str, server: str,
                 address: str) -> None:
        self.bench, self.pair, self.side, self.token = bench, pair, side, token
        self.server, self.address = server, address
        self.ws: Any = None
        self.state: dict[str, Any] | None = None
        self.seen = 0                   # the last action number received
        self.acting: int | None = None  # the number of the action on its way
        self.acked: list[tuple[int, dict[str, Any]]] = []
        self.waiting: dict[int, dict[str, Any]] = {}
        self.reader: asyncio.Task | None = None

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        host = self.server.split("//", 1)[1]
        self.ws = await connect(f"ws://{host}/ws/online/{self.pair.game_id}",
                                origin=self.server, proxy=None, open_timeout=60,
                                local_addr=(self.address, 0), max_size=2 ** 20)
        s = self.bench.stats
        s.connected += 1
        s.peak = max(s.peak, s.connected)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token, "seq": 0}))
        self.reader = asyncio.ensure_future(self.read())

    async def read(self) -> None:
        try:
            async for text in self.ws:
                self.on_message(json.loads(text), time.perf_counter())
        except Exception:  # noqa: BLE001 - a dropped connection: counted below
            pass
        finally:
            self.bench.stats.connected -= 1
            if not self.bench.closing:
                self.bench.stats.errors["connection_lost"] += 1

    def received(self, actions: list[dict[str, Any]], now: float) -> None:
        b = self.bench
        for a in actions:
            seq = a["seq"]
            if seq <= self.seen:
                b.stats.duplicated += 1
                continue
            if seq != self.seen + 1:
                b.stats.out_of_order += 1
            self.seen = seq
            if a["side"] != self.side:  # the opponent's (or the server's) action
                t0 = b.sent_at.pop((self.pair.game_id, seq), None)
                if t0 is not None:
                    b.stats.fanout.append(now - t0)

    def on_message(self, m: dict[str, Any], now: float) -> None:
        kind = m["type"]
        if kind in ("welcome", "update"):
            self.received(m.get("actions", []), now)
            if self.state is None or m["state"]["seq"] >= self.state["seq"]:
                self.state = m["state"]
            self.pair.changed.set()
            self.poke()
        elif kind == "ack":
            seq = m["seq"]
            t0 = self.bench.ack_at.pop((self.pair.game_id, seq), None)
            if t0 is not None:
                self.bench.stats.ack.append(now - t0)
                self.bench.stats.acked += 1
            action = self.waiting.pop(seq, None)
            if action is not None:
                self.acked.append((seq, action))
        elif kind == "error":
            self.bench.stats.errors[m.get("code", "?")] += 1
            if m.get("seq") is not None and m["seq"] == self.acting:
                self.waiting.pop(m["seq"], None)
                self.acting = None
                self.poke()

    def next_action(self) -> dict[str, Any] | None:
        """What this seat should do in the state it has, or None (not its turn)."""
        v = self.state
        if v is None or v["status"] != "playing" and v["status"] != "open":
            return None
        seeded = {s["side"]: s["seeded"] for s in v["seats"]}
        joined = all(s["joined"] for s in v["seats"])
        if not joined:
            return None
        if not seeded[self.side]:  # white first, then black: no race for a number
            if self.side == "white" or seeded["white"]:
                return {"type": "seed", "seed": self.bench.seed_of()}
            return None
        if not all(seeded.values()):
            return None
        if v["phase"] == "opening":
            return {"type": "roll"} if self.side == "white" else None
        if v["turn"] != self.side:
            return None
        if v["phase"] == "roll":
            return {"type": "roll"}
        if v["phase"] == "move" and v["legal_moves"]:
            return {"type": "move", "move": self.bench.rng.choice(v["legal_moves"])["move"]}
        return None

    def poke(self) -> None:
        """Act if it is this seat's turn and nothing is on its way."""
        if self.acting is not None or self.state is None:
            return
        action = self.next_action()
        if action is None:
            return
        seq = self.state["seq"] + 1
        self.acting = seq
        asyncio.ensure_future(self.act(seq, action))

    async def act(self, seq: int, action: dict[str, Any]) -> None:
        b = self.bench
        # the seeds and the opening throw are the set-up (the first throw also warms
        # the server's move generator up): the play is every roll and move after it
        playing = action["type"] == "move" or (
            action["type"] == "roll" and self.state is not None
            and self.state["phase"] != "opening")
        if playing:
            if not b.go.is_set():
                await b.go.wait()
            await asyncio.sleep(b.rng.uniform(*b.think))
            if b.stopping:
                return  # acting is over (self.acting stays: nothing more is sent)
        self.waiting[seq] = action
        t0 = time.perf_counter()
        if playing and b.go.is_set():
            b.sent_at[(self.pair.game_id, seq)] = t0
            b.ack_at[(self.pair.game_id, seq)] = t0
            b.stats.sent += 1
            b.stats.moves += action["type"] == "move"
        try:
            await self.ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))
        except Exception:  # noqa: BLE001
            b.stats.errors["send_failed"] += 1
            return
        await self.pair.changed_after(seq)
        if self.acting == seq:
            self.acting = None
            self.poke()

    def report(self) -> dict[str, Any]:
        return {"seen": self.seen, "acked": self.acked, "pending": sorted(self.waiting)}


class Pair:
    """Two players of one game (created by white on its server, joined by black)."""

    def __init__(self, bench: Bench, index: int) -> None:
        self.bench = bench
        self.index = index
        self.game_id = ""
        self.players: dict[str, Player] = {}
        self.changed = asyncio.Event()

    def other(self, p: Player) -> Player:
        return self.players["black" if p.side == "white" else "white"]

    async def changed_after(self, seq: int) -> None:
        """Until both players' states are at ``seq`` or later (the action's update came
        back), or the action was refused."""
        while True:
            states = [p.state["seq"] if p.state else -1 for p in self.players.values()]
            if min(states) >= seq or all(p.acting != seq for p in self.players.values()):
                return
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 30)
            except TimeoutError:
                self.bench.stats.errors["no_update"] += 1
                return

    async def setup(self, http: Any) -> None:
        b = self.bench
        n = self.index
        servers = b.task["servers"]
        white_server = servers[n % len(servers)]
        black_server = servers[(n + 1) % len(servers)]  # several: one player on each
        client_w = http(source_address(2 * n + b.task["first_player"]))
        client_b = http(source_address(2 * n + 1 + b.task["first_player"]))
        r = await client_w.post(f"{white_server}/api/online/games", json={
            "game": {"variant": "portes", "opponent": "human"}, "name": f"W{n}"})
        r.raise_for_status()
        new = r.json()
        self.game_id = new["id"]
        r = await client_b.post(f"{black_server}/api/online/games/{self.game_id}/join",
                                json={"token": new["invite_token"], "name": f"B{n}"})
        r.raise_for_status()
        self.players = {
            "white": Player(b, self, "white", new["token"], white_server,
                            source_address(2 * n + b.task["first_player"])),
            "black": Player(b, self, "black", new["invite_token"], black_server,
                            source_address(2 * n + 1 + b.task["first_player"]))}
        for p in self.players.values():
            await p.connect()

    async def ready(self) -> None:
        """Until both seeds are in and the opening throw is made (the next action
        waits for the start)."""
        while True:
            v = self.players["white"].state
            w = self.players["black"].state
            if (v is not None and w is not None and v["seq"] == w["seq"]
                    and all(s["seeded"] for s in v["seats"]) and v["phase"] != "opening"):
                return
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 60)

    def report(self) -> dict[str, Any]:
        return {"game": self.game_id,
                "servers": {s: p.server for s, p in self.players.items()},
                **{s: p.report() for s, p in self.players.items()}}


class Bench:
    """The players of this process and what they measured."""

    def __init__(self, task: dict[str, Any]) -> None:
        from tavli.online.fairdice import new_client_seed

        self.task = task
        self.think = tuple(task["think"])
        self.rng = random.Random(task["seed"])
        self.seed_of = new_client_seed
        self.stats = Stats()
        self.sent_at: dict[tuple[str, int], float] = {}
        self.ack_at: dict[tuple[str, int], float] = {}
        self.go = asyncio.Event()
        self.stopping = False
        self.closing = False
        self.pairs = [Pair(self, i) for i in range(task["games"])]
        self.clients: dict[str, Any] = {}

    def http(self, address: str) -> Any:
        import httpx

        if address not in self.clients:
            self.clients[address] = httpx.AsyncClient(
                transport=httpx.AsyncHTTPTransport(local_address=address), timeout=60,
                trust_env=False)
        return self.clients[address]

    async def run(self) -> dict[str, Any]:
        t0 = time.perf_counter()
        gate = asyncio.Semaphore(SETUP_AT_ONCE)

        async def one(p: Pair) -> None:
            async with gate:
                await p.setup(self.http)
                await p.ready()

        await asyncio.gather(*(one(p) for p in self.pairs))
        setup = time.perf_counter() - t0
        print("ready", flush=True)
        line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        if line.strip() != "go":
            raise SystemExit("no go")
        start = time.perf_counter()
        self.go.set()
        for p in self.pairs:
            for pl in p.players.values():
                pl.poke()
        await asyncio.sleep(self.task["seconds"])
        self.stopping = True
        played = time.perf_counter() - start
        end = time.monotonic() + 15  # the answers to what was sent before the stop
        while (self.ack_at or self.sent_at) and time.monotonic() < end:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        self.stats.games_over = sum(
            1 for p in self.pairs if p.players["white"].state
            and p.players["white"].state["status"] == "over")
        unanswered = len(self.ack_at)
        self.closing = True
        for p in self.pairs:
            for pl in p.players.values():
                with contextlib.suppress(Exception):
                    await pl.ws.close()
        for c in self.clients.values():
            await c.aclose()
        s = self.stats
        return {"setup_s": setup, "play_s": played, "fanout": s.fanout, "ack": s.ack,
                "errors": dict(s.errors), "out_of_order": s.out_of_order,
                "duplicated": s.duplicated, "sent": s.sent, "acked": s.acked,
                "moves": s.moves, "peak": s.peak, "unanswered": unanswered,
                "no_update": len(self.sent_at), "games_over": s.games_over,
                "games": [p.report() for p in self.pairs]}


def main() -> None:
    """The client process: the task on stdin, ``ready``/``done`` on stdout."""
    task = json.loads(sys.stdin.readline())
    from tavli.online.serve import quieter_gc

    quieter_gc()  # the clients' own pauses would be counted as the server's latency
    try:  # the event loop uvicorn runs the server on, when it is there: less CPU
        from uvloop import run
    except ImportError:
        run = asyncio.run
    result = run(Bench(task).run())
    with open(task["out"], "w") as f:
        json.dump(result, f)
    print("done", flush=True)


if __name__ == "__main__":
    main()
