"""``tavli bench server``: the online server's latency, measured through the real stack
(uvicorn, WebSockets, the store) on this machine.

Two players and a spectator play random Portes games over WebSockets against a server
started in this process; for every action it prints, over all actions: the time from
sending ``act`` to its ``ack`` (the engine's check and the committed transaction), and
to the spectator's ``update`` (the fan-out), mean with a 95% confidence interval, median
and 95th percentile, and the actions a second of this sequential play.
"""

from __future__ import annotations

import json
import math
import os
import random
import socket
import statistics
import tempfile
import threading
import time
from typing import Any


def _stats(name: str, xs: list[float]) -> str:
    xs = sorted(xs)
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return (f"{name:<22} mean {mean * 1000:7.2f} ms ± {half * 1000:.2f} (95% CI)  median "
            f"{statistics.median(xs) * 1000:7.2f} ms  p95 {p95 * 1000:7.2f} ms")


def bench_server(db: str | None = None, actions: int = 300, seed: int = 1) -> dict[str, Any]:
    """Play ``actions`` actions (random Portes games, one after another) through a server
    on ``db`` (default: a temporary SQLite file) and print the figures."""
    import uvicorn
    from websockets.sync.client import connect

    from ..errors import CliError
    from .app import create_online_app
    from .fairdice import new_client_seed
    from .protocol import MAX_FRAME

    tmp = None
    if db is None:
        tmp = tempfile.TemporaryDirectory()
        db = os.path.join(tmp.name, "bench.sqlite3")
    app = create_online_app(db, allowed_hosts=["127.0.0.1"], rate=1e9, burst=10 ** 9)
    games = app.state.games
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=MAX_FRAME))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    rng = random.Random(seed)
    acks: list[float] = []
    fans: list[float] = []
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        else:
            raise CliError("the benchmark's server did not start")
        base = f"http://127.0.0.1:{port}"
        start = time.perf_counter()
        while len(acks) < actions:
            _play_one(connect, base, port, games, rng, actions - len(acks), acks, fans,
                      new_client_seed)
        wall = time.perf_counter() - start
    finally:
        server.should_exit = True
        thread.join(10)
        if tmp is not None:
            tmp.cleanup()
    kind = "PostgreSQL" if "://" in db and db.startswith("postgres") else "SQLite"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"tavli bench server: {len(acks)} actions of random Portes games, 2 players and a "
          f"spectator over WebSockets, store {kind}; {os.cpu_count()} CPUs, load "
          f"{load:.1f}")
    print(_stats("act -> ack", acks))
    print(_stats("act -> spectator", fans))
    print(f"{'sequential actions':<22} {len(acks) / wall:7.1f} a second (one at a time)")
    return {"actions": len(acks), "ack": acks, "fanout": fans, "wall": wall}


def _play_one(connect: Any, base: str, port: int, games: Any, rng: random.Random, left: int,
              acks: list[float], fans: list[float], seed_of: Any) -> None:
    import httpx

    new = httpx.post(f"{base}/api/online/games", json={
        "game": {"variant": "portes", "opponent": "human"}, "name": "Ann"}).json()
    gid = new["id"]
    httpx.post(f"{base}/api/online/games/{gid}/join",
               json={"token": new["invite_token"], "name": "Bob"})
    url = f"ws://127.0.0.1:{port}/ws/online/{gid}"
    with connect(url, origin=base) as white, connect(url, origin=base) as black, \
            connect(url, origin=base) as watcher:
        ws = {"white": white, "black": black}
        for conn, token in ((white, new["token"]), (black, new["invite_token"]),
                            (watcher, None)):
            conn.send(json.dumps({"type": "hello", "token": token}))
            _until(conn, lambda m: m["type"] == "welcome")
        for n, side in enumerate(("white", "black")):
            ws[side].send(json.dumps({"type": "act", "seq": 2 + n, "action": {
                "type": "seed", "seed": seed_of()}}))
            _until(ws[side], lambda m, s=2 + n: m.get("seq") == s)
        while left > 0:
            v = games.view(gid)
            if v["status"] == "over":
                return
            g = games.table(gid).game
            action = {"type": "roll"} if v["phase"] in ("opening", "roll") else {
                "type": "move", "move": str(rng.choice(g.legal_moves()))}
            seq = v["seq"] + 1
            t0 = time.perf_counter()
            ws[v["turn"]].send(json.dumps({"type": "act", "seq": seq, "action": action}))
            m = _until(ws[v["turn"]], lambda m, s=seq: m["type"] in ("ack", "error")
                       and m.get("seq") == s)
            if m["type"] != "ack":
                raise RuntimeError(f"the server refused a legal action: {m}")
            acks.append(time.perf_counter() - t0)
            _until(watcher, lambda m, s=seq: m["type"] == "update" and m["state"]["seq"] >= s)
            fans.append(time.perf_counter() - t0)
            left -= 1


def _until(conn: Any, pred: Any) -> dict[str, Any]:
    while True:
        m = json.loads(conn.recv(timeout=30))
        if pred(m):
            return m


__all__ = ["bench_server"]
