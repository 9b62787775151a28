"""``tavli bench web``: how long the browser app's plain requests take while another
client's review is thinking, against the same requests alone (docs/cli.md).

The app is started as ``tavli play`` in a child process on a free loopback port with an
empty temporary database. ``clients - 1`` clients each play their own two-player game
(a human-vs-human Portes game, started anew when it ends) by plain requests, in turn:
``GET`` the game, ``GET`` the list of games, then roll or move. First they run alone
(the reference), then while one more client has a long record reviewed (``GET
/api/games/{id}/review?ply=N``, asked again until it is done). Every request's time is
measured from sending to the last byte of the answer; the median and the 95th percentile
of each phase are printed with the number of requests measured.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Phase:
    name: str
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def p(self, q: float) -> float:
        if not self.times:
            return float("nan")
        xs = sorted(self.times)
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    def line(self) -> str:
        return (f"{self.name:12s} {len(self.times):6d} requests   median "
                f"{1000 * self.p(0.5):8.1f} ms   p95 {1000 * self.p(0.95):8.1f} ms   max "
                f"{1000 * max(self.times, default=float('nan')):8.1f} ms")


class Client:
    """One keep-alive HTTP connection to the app."""

    def __init__(self, host: str, port: int, token: str | None = None) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=600)
        self.token = token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["X-Tavli-Token"] = self.token
        t = time.perf_counter()
        self.conn.request(method, path, body=data, headers=headers)
        r = self.conn.getresponse()
        raw = r.read()
        dt = time.perf_counter() - t
        return r.status, (json.loads(raw) if raw else None), dt

    def close(self) -> None:
        self.conn.close()


def long_record(points: int = 3, seed: int = 7) -> dict[str, Any]:
    """A finished Tavli match to ``points`` between the greedy player and a random one
    (seeded): a record with a few hundred turns to review."""
    from tavli.engine.dice import DiceSource
    from tavli.play.match import Match
    from tavli.play.players import GreedyPlayer, RandomPlayer
    from tavli.play.record import match_record

    m = Match(points, "tavli", dice=DiceSource(seed=seed))
    m.seed = seed
    players = (GreedyPlayer(), RandomPlayer(seed=seed))
    while True:
        g = m.game
        while not g.is_over:
            if g.phase in ("opening", "roll"):
                g.roll()
            else:
                p = players[g.turn]
                g.play(p.choose_move(g.position, g.dice, g.legal_moves(), g.rules))
        if m.is_over:
            return match_record(m)
        m.next_game()


def _plain_client(c: Client, game_id: str, phase: Phase, stop: threading.Event,
                  limit: int | None) -> None:
    st = None
    n = 0
    while not stop.is_set() and (limit is None or n < limit):
        for what in ("get", "list", "act"):
            if what == "get":
                status, st, dt = c.call("GET", f"/api/games/{game_id}")
            elif what == "list":
                status, _, dt = c.call("GET", "/api/games")
            else:
                if st is None or st.get("phase") == "over":
                    status, st, dt = c.call("POST", "/api/games",
                                            {"variant": "portes", "opponent": "human"})
                    game_id = st["id"]
                elif st["phase"] in ("opening", "roll"):
                    status, st, dt = c.call("POST", f"/api/games/{game_id}/roll", {})
                else:
                    steps = [s[:2] for s in st["legal_moves"][0]["steps"]]
                    status, st, dt = c.call("POST", f"/api/games/{game_id}/move",
                                            {"steps": steps})
            if status >= 400:
                phase.errors.append(f"{what}: {status} {st}")
            phase.times.append(dt)
            n += 1


def _run_plain(clients: list[tuple[Client, str]], phase: Phase, stop: threading.Event,
               limit: int | None) -> list[threading.Thread]:
    threads = [threading.Thread(target=_plain_client, args=(c, gid, phase, stop, limit),
                                daemon=True) for c, gid in clients]
    for t in threads:
        t.start()
    return threads


def start_server(db: Path, env: dict[str, str] | None = None,
                 ) -> tuple[subprocess.Popen, str, int]:
    """``tavli play --no-browser --port 0`` in a child process: (process, host, port).
    Without ``env``, the child imports the same ``tavli`` as this process."""
    if env is None:
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    cmd = [sys.executable, "-c", "import sys; from tavli.cli import main; sys.exit(main())",
           "play", "--no-browser", "--port", "0", "--db", str(db)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=env, cwd=db.parent)
    line = proc.stdout.readline() if proc.stdout else ""
    m = re.search(r"http://(127\.0\.0\.1):(\d+)/", line)
    if not m:
        proc.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    threading.Thread(target=proc.stdout.read, daemon=True).start()  # drain its output
    host, port = m.group(1), int(m.group(2))
    for _ in range(200):
        try:
            c = Client(host, port)
            c.call("GET", "/api/info")
            c.close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, host, port


def bench_web(clients: int = 10, requests: int = 30, ply: int = 2, points: int = 3,
              seed: int = 7, out=None, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run the benchmark (see the module docstring), print its figures to ``out`` and
    return them: ``{"alone": Phase, "loaded": Phase, "review_s": float, "turns": int}``."""
    out = out or sys.stdout
    record = long_record(points, seed)
    turns = sum(sum(1 for e in g["events"] if "dice" in e) for g in record["games"])
    with tempfile.TemporaryDirectory() as tmp:
        proc, host, port = start_server(Path(tmp) / "bench.sqlite3", env)
        try:
            return _bench(host, port, clients, requests, ply, record, turns, out)
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()


def _bench(host: str, port: int, clients: int, requests: int, ply: int,
           record: dict[str, Any], turns: int, out) -> dict[str, Any]:
    n_plain = max(1, clients - 1)
    print(f"tavli bench web: {n_plain} clients of plain requests (GET a game, GET the list, "
          f"roll or move in their own game), 1 client reviewing at {ply}-ply a Tavli match "
          f"of {len(record['games'])} games, {turns} turns", file=out, flush=True)
    admin = Client(host, port)
    status, imported, _ = admin.call("POST", "/api/records", record)
    if status != 201:
        raise RuntimeError(f"the record was refused: {status} {imported}")
    plain = []
    for _ in range(n_plain):
        status, st, _ = admin.call("POST", "/api/games", {"variant": "portes",
                                                          "opponent": "human"})
        plain.append((Client(host, port), st["id"]))
    # warm up: the server's move generator, and a worker's networks (a hint)
    warm = Phase("warm-up")
    _plain_client(plain[0][0], plain[0][1], warm, threading.Event(), 6)
    gid = plain[0][1]
    st = admin.call("GET", f"/api/games/{gid}")[1]
    if st["phase"] != "move":
        st = admin.call("POST", f"/api/games/{gid}/roll", {})[1]
    if st["phase"] == "move":
        admin.call("GET", f"/api/games/{gid}/hint?level=worldclass")

    alone = Phase("alone")
    for t in _run_plain(plain, alone, threading.Event(), requests):
        t.join()
    print(alone.line(), file=out, flush=True)

    loaded = Phase("with review")
    stop = threading.Event()
    reviewer = Client(host, port)
    t0 = time.perf_counter()
    threads = _run_plain(plain, loaded, stop, None)
    answers = 0
    try:
        while True:
            status, body, _ = reviewer.call("GET",
                                            f"/api/games/{imported['id']}/review?ply={ply}")
            answers += 1
            if status == 200:
                break
            if status != 202:
                raise RuntimeError(f"the review failed: {status} {body}")
            time.sleep(0.5)
    finally:
        review_s = time.perf_counter() - t0
        stop.set()
        for t in threads:
            t.join()
    print(loaded.line() + f"   (the review took {review_s:.1f} s, {answers} answers)",
          file=out, flush=True)
    ratio = loaded.p(0.95) / alone.p(0.95) if alone.times else float("nan")
    print(f"p95 with the review running / alone: {ratio:.2f}x", file=out, flush=True)
    errors = alone.errors + loaded.errors
    if errors:
        print(f"{len(errors)} requests failed, e.g. {errors[0]}", file=out, flush=True)
    for c, _ in plain:
        c.close()
    return {"alone": alone, "loaded": loaded, "review_s": review_s, "turns": turns,
            "errors": errors}


__all__ = ["bench_web", "long_record", "start_server", "Phase"]

if __name__ == "__main__":  # python -m tavli.web.bench [clients] [requests] [ply] [points]
    args = [int(a) for a in sys.argv[1:]]
    bench_web(*args, env=dict(os.environ))
