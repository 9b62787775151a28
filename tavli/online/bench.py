"""``tavli bench server``: the online server under many players, through the real stack
(``tavli serve`` processes, uvicorn, WebSockets, the store), on loopback, bounded in time.

1. The store: ``--db`` (a SQLite file or ``postgresql://…``), else a temporary SQLite
   file with one server process, and a throw-away PostgreSQL cluster
   (:mod:`tavli.store.pgcluster`) with two (``--db postgresql`` asks for one too).
2. ``--processes`` ``tavli serve`` child processes on free loopback ports.
3. ``--clients`` client processes (:mod:`tavli.online.benchclient`), each running many
   simulated players (asyncio WebSockets): ``--players`` players in pairs, one game per
   pair, white creating it and black joining it over HTTP; with two servers a game's two
   players are on different ones (every action crosses processes through the store).
   Players connect from loopback addresses 127.0.1.1, … (16 each), so the server's limits
   per address stay as they are.
4. Once every game is set up (both seeds in), the players play for ``--seconds``: a player
   whose turn it is waits its think time (uniform in ``--think``, human-like by default:
   1-3 s) and sends a random legal roll or move.
5. Then it checks: every acknowledged action is in the store exactly once (the same
   action, the same number, the same side), every player received every action of its
   game once, in order; and prints the time from an ``act`` to the opponent's ``update``
   (p50, p95, p99, each with its 95% confidence interval from the order statistics), to
   the ``ack``, the actions a second, the errors and the CPU of servers and clients.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tavli.errors import CliError

SETUP_TIMEOUT = 600.0  # seconds the clients may take to set their games up


def quantile(xs: list[float], q: float) -> tuple[float, float, float]:
    """The ``q`` quantile of ``xs`` with a 95% confidence interval from the order
    statistics (distribution-free: the ranks ``nq ± 1.96 √(nq(1-q))``).

    >>> quantile([float(i) for i in range(1, 1001)], 0.95)
    (951.0, 937.0, 965.0)
    """
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    half = 1.96 * math.sqrt(n * q * (1 - q))
    at = min(n - 1, int(q * n))
    lo = max(0, math.floor(q * n - half))
    hi = min(n - 1, math.ceil(q * n + half))
    return s[at], s[lo], s[hi]


def _ms(xs: list[float], q: float) -> str:
    v, lo, hi = quantile(xs, q)
    return f"{v * 1000:.1f} ms ({lo * 1000:.1f}-{hi * 1000:.1f})"


def parse_think(text: str) -> tuple[float, float]:
    """``"1-3"`` → (1.0, 3.0); ``"0.5"`` → (0.5, 0.5)."""
    try:
        parts = [float(p) for p in text.split("-")] if text.strip() else []
    except ValueError:
        parts = []
    if len(parts) == 1:
        parts *= 2
    if len(parts) != 2 or not 0 <= parts[0] <= parts[1] <= 60:
        raise CliError(f"--think: seconds LOW-HIGH such as 1-3 (0-60), not {text!r}")
    return parts[0], parts[1]


@contextlib.contextmanager
def _store_url(db: str | None, processes: int, tmp: str) -> Any:
    """The ``--db`` value to use, and what it is (a throw-away cluster when asked)."""
    if db is None and processes == 1:
        yield str(Path(tmp) / "bench.sqlite3"), "SQLite (a temporary file)"
        return
    if db is None or db in ("postgresql", "postgres"):
        from tavli.store.pgcluster import ClusterError, PgCluster

        try:
            cluster = PgCluster()
            cluster.start()
        except ClusterError as e:
            raise CliError(f"bench server: {e}") from None
        try:
            yield cluster.create_database("bench"), ("PostgreSQL (a throw-away cluster on "
                                                     "a Unix socket, fsync off)")
        finally:
            cluster.stop()
        return
    kind = "PostgreSQL" if db.startswith(("postgresql:", "postgres:")) else "SQLite"
    yield db, f"{kind} ({db.split('@')[-1]})"


def _client(task: dict[str, Any]) -> subprocess.Popen[str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from tavli.online.benchclient import main; main()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(task) + "\n")
    proc.stdin.flush()
    return proc


def _expect(proc: subprocess.Popen[str], word: str, timeout: float) -> None:
    """Wait for the client's line ``word`` (CliError when it dies or takes too long)."""
    import selectors

    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if sel.select(timeout=1.0):
            line = proc.stdout.readline()
            if line.strip() == word:
                return
            if not line:
                break
    raise CliError(f"bench server: a client process did not say {word!r} (exit "
                   f"{proc.poll()}); see its errors above")


def check(store: Any, games: list[dict[str, Any]]) -> dict[str, int]:
    """Every acknowledged action in the store exactly once; every player received every
    action of its game: the counts of what is not so."""
    lost = missed = mismatched = gaps = 0
    for g in games:
        log = store.actions(g["game"])
        seqs = [a.seq for a in log]
        gaps += seqs != list(range(1, len(seqs) + 1))  # a number twice or missing
        by_seq = {a.seq: a for a in log}
        last = seqs[-1] if seqs else 0
        for side in ("white", "black"):
            mine = g[side]
            for seq, action in mine["acked"]:
                a = by_seq.get(seq)
                if a is None:
                    lost += 1
                elif a.action != action or a.side != side:
                    mismatched += 1
            missed += max(0, last - mine["seen"])
    return {"lost": lost, "mismatched": mismatched, "not_received": missed,
            "log_gaps": gaps}


def bench_server(players: int = 1000, processes: int = 1, db: str | None = None,
                 seconds: float = 60.0, think: tuple[float, float] = (1.0, 3.0),
                 clients: int = 1, seed: int = 1, profile: str | None = None,
                 quiet: bool = False) -> dict[str, Any]:
    """Run the benchmark (module docstring) and print its figures; the figures as a dict."""
    from tavli.online.procs import ServeProcess, cpu_seconds
    from tavli.store.factory import open_store

    if players < 2 or players % 2:
        raise CliError(f"--players: an even number, at least 2, not {players}")
    if processes not in (1, 2):
        raise CliError(f"--processes: 1 or 2, not {processes}")
    if not 0 < seconds <= 3600:
        raise CliError(f"--seconds: more than 0, at most 3600, not {seconds:g}")
    games = players // 2
    clients = max(1, min(clients, games))
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, flush=True))
    with tempfile.TemporaryDirectory(prefix="tavli-bench-") as tmp, \
            _store_url(db, processes, tmp) as (url, kind):
        open_store(url).close()  # the schema, before the servers start
        servers = [ServeProcess(url, profile=profile if i == 0 else None,
                                log=str(Path(tmp) / f"serve{i}.log"))
                   for i in range(processes)]
        procs: list[subprocess.Popen[str]] = []
        try:
            for s in servers:
                s.start()
            say(f"bench server: {processes} server process(es) on ports "
                f"{', '.join(str(s.port) for s in servers)}, {kind}; setting up {games} "
                f"games for {players} players ...")
            outs = []
            first = 0
            for k in range(clients):
                n = games // clients + (k < games % clients)
                out = str(Path(tmp) / f"client{k}.json")
                outs.append(out)
                procs.append(_client({
                    "servers": [s.url for s in servers], "games": n, "think": list(think),
                    "seconds": seconds, "seed": seed * 1000 + k, "out": out,
                    "first_player": 2 * first}))
                first += n
            t0 = time.perf_counter()
            for p in procs:
                _expect(p, "ready", SETUP_TIMEOUT)
            setup = time.perf_counter() - t0
            cpu0 = [s.cpu() for s in servers], [cpu_seconds(p.pid) for p in procs]
            w0 = time.perf_counter()
            for p in procs:
                assert p.stdin is not None
                p.stdin.write("go\n")
                p.stdin.flush()
            say(f"bench server: set up in {setup:.1f} s; playing {seconds:g} s ...")
            for p in procs:
                _expect(p, "done", seconds + 120)
            wall = time.perf_counter() - w0
            cpu1 = [s.cpu() for s in servers], [cpu_seconds(p.pid) for p in procs]
            for p in procs:
                p.wait(30)
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
            for s in servers:
                s.stop()
        results = [json.loads(Path(o).read_text()) for o in outs]
        with contextlib.closing(open_store(url)) as store:
            found = check(store, [g for r in results for g in r["games"]])
        logs = "".join(Path(s.log).read_text(errors="replace") for s in servers if s.log)
    report = _report(results, found, setup, wall, cpu0, cpu1, players, processes, kind,
                     think, seconds, logs)
    say(report["text"])
    return report


def clean(res: dict[str, Any]) -> bool:
    """Whether a run lost, duplicated or refused nothing and no server failed."""
    bad = (res["lost"] + res["mismatched"] + res["not_received"] + res["duplicated"]
           + res["out_of_order"] + res["log_gaps"])
    return not bad and not res["errors"] and not res["tracebacks"]


def bench_servers(players: list[int], processes: list[int], db: str | None = None,
                  profile: str | None = None, quiet: bool = False,
                  **options: Any) -> list[dict[str, Any]]:
    """:func:`bench_server` for every number of ``players`` with every number of
    ``processes`` (one process: SQLite unless ``db``; two: PostgreSQL), one after the
    other, then a table of them all; the reports. ``profile``: with several runs, each
    its own file (``FILE.P-N``: processes, players)."""
    for n in players:  # every option checked before the first run
        if n < 2 or n % 2:
            raise CliError(f"--players: an even number, at least 2, not {n}")
    for k in processes:
        if k not in (1, 2):
            raise CliError(f"--processes: 1 or 2, not {k}")
    several = len(players) * len(processes) > 1
    runs = []
    for n in players:
        for k in processes:
            runs.append(bench_server(
                players=n, processes=k, db=db, quiet=quiet,
                profile=f"{profile}.{k}-{n}" if profile and several else profile,
                **options))
    if several and not quiet:
        print(summary(runs), flush=True)
    return runs


def summary(runs: list[dict[str, Any]]) -> str:
    """The runs in one table: players, processes and store, actions/s, p50/p95/p99 from
    an act to the opponent's update, the servers' CPU per action (all of them together),
    what was lost or duplicated."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    lines = [f"tavli bench server: {len(runs)} runs ({os.cpu_count()} CPUs, load now "
             f"{load:.1f})",
             f"  {'players':>7}  {'processes, store':<24} {'actions/s':>9} {'p50':>9} "
             f"{'p95':>9} {'p99':>9}  {'server CPU/action':>17}  lost, duplicated"]
    for r in runs:
        store = r["store"].split(" ")[0]
        lines.append(
            f"  {r['players']:>7}  {str(r['processes']) + ', ' + store:<24} "
            f"{r['actions_per_s']:>9.1f} {r['p50'][0] * 1000:>7.1f}ms "
            f"{r['p95'][0] * 1000:>7.1f}ms {r['p99'][0] * 1000:>7.1f}ms  "
            f"{r['server_ms_per_action']:>15.2f}ms  "
            f"{r['lost'] + r['mismatched'] + r['not_received']}, {r['duplicated']}"
            f"{'' if clean(r) else '  (NOT CLEAN: see its report)'}")
    return "\n".join(lines)


def _per(cpu: list[float], wall: float, actions: int) -> str:
    """CPU time per action of processes that used the fractions ``cpu`` of a core over
    ``wall`` seconds."""
    return f"{sum(cpu) * wall / actions * 1000:.2f} ms" if actions else "-"


def _report(results: list[dict[str, Any]], found: dict[str, int], setup: float,
            wall: float, cpu0: Any, cpu1: Any, players: int, processes: int, kind: str,
            think: tuple[float, float], seconds: float, logs: str) -> dict[str, Any]:
    fan = [x for r in results for x in r["fanout"]]
    ack = [x for r in results for x in r["ack"]]
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    play = max(r["play_s"] for r in results)
    sent = sum(r["sent"] for r in results)
    moves = sum(r["moves"] for r in results)
    peak = sum(r["peak"] for r in results)
    dup = sum(r["duplicated"] for r in results)
    order = sum(r["out_of_order"] for r in results)
    unanswered = sum(r["unanswered"] for r in results)
    server_cpu = [(b - a) / wall for a, b in zip(cpu0[0], cpu1[0], strict=True)]
    client_cpu = [(b - a) / wall for a, b in zip(cpu0[1], cpu1[1], strict=True)]
    tracebacks = logs.count("Traceback")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    think_text = f"{think[0]:g}-{think[1]:g} s" if think[0] != think[1] else f"{think[0]:g} s"
    lines = [
        f"tavli bench server: {players} players ({players // 2} Portes games) over "
        f"WebSockets, {processes} server process(es), {len(results)} client process(es), "
        f"store {kind}; think {think_text} (uniform) before each roll and move; "
        f"{os.cpu_count()} CPUs, load {load:.1f}",
        f"  connected       {peak} players at once (set up in {setup:.1f} s)",
        f"  played          {play:.1f} s: {sent} actions ({moves} moves): "
        f"{sent / play:.1f} actions/s, {moves / play:.1f} moves/s",
        f"  act -> opponent p50 {_ms(fan, 0.5)}  p95 {_ms(fan, 0.95)}  "
        f"p99 {_ms(fan, 0.99)}  (95% CI; {len(fan)} actions)",
        f"  act -> ack      p50 {_ms(ack, 0.5)}  p95 {_ms(ack, 0.95)}  p99 {_ms(ack, 0.99)}",
        f"  errors          {sum(errors.values())}"
        + (f" ({', '.join(f'{k} {v}' for k, v in sorted(errors.items()))})" if errors else "")
        + f"; server tracebacks {tracebacks}; unanswered at the end {unanswered}",
        f"  lost            {found['lost']} acknowledged actions not in the store, "
        f"{found['mismatched']} stored differently, {found['not_received']} not received "
        f"by a player, {dup} received twice, {order} out of order, {found['log_gaps']} "
        f"logs with a gap",
        f"  CPU             servers {' + '.join(f'{c:.0%}' for c in server_cpu)} of a core, "
        f"clients {' + '.join(f'{c:.0%}' for c in client_cpu)}; per action: servers "
        f"{_per(server_cpu, wall, sent)}, clients {_per(client_cpu, wall, sent)}",
    ]
    return {"text": "\n".join(lines), "players": players, "connected": peak,
            "processes": processes, "store": kind, "think": list(think),
            "seconds": play, "actions": sent, "moves": moves,
            "actions_per_s": sent / play, "moves_per_s": moves / play,
            "p50": quantile(fan, 0.5), "p95": quantile(fan, 0.95), "p99": quantile(fan, 0.99),
            "ack_p95": quantile(ack, 0.95), "errors": errors, "tracebacks": tracebacks,
            "lost": found["lost"], "mismatched": found["mismatched"],
            "not_received": found["not_received"], "duplicated": dup,
            "out_of_order": order, "log_gaps": found["log_gaps"],
            "unanswered": unanswered, "server_cpu": server_cpu, "client_cpu": client_cpu,
            "server_ms_per_action": (sum(server_cpu) * wall / sent * 1000 if sent
                                     else math.nan),
            "load": load}


__all__ = ["bench_server", "bench_servers", "summary", "clean", "quantile", "parse_think",
           "check"]
