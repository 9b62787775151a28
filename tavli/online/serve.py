"""``tavli serve``: run the online server (:mod:`tavli.online.app`) with uvicorn.

Loopback (127.0.0.1) unless ``--host`` names another address; games in ``--db`` (a SQLite
file by default, or ``postgresql://…`` shared by several server processes)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tavli.ai.warmup import Part

DEFAULT_PORT = 8766


def default_db() -> str:
    """``$TAVLI_ONLINE_DB``, else ``$XDG_DATA_HOME/tavli/online.sqlite3``."""
    env = os.environ.get("TAVLI_ONLINE_DB")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return str(Path(base) / "tavli" / "online.sqlite3")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default=None,
                   help="address to listen on (default 127.0.0.1: this machine only; "
                        "0.0.0.0: every address)")
    p.add_argument("--port", type=int, default=None,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0 = any free port)")
    p.add_argument("--db", metavar="DB", default=None,
                   help="the games' database: a SQLite file (default "
                        "~/.local/share/tavli/online.sqlite3, or $TAVLI_ONLINE_DB) or "
                        "postgresql://user:password@host/dbname (several servers may share "
                        "it)")
    p.add_argument("--name", metavar="HOST", action="append", default=None,
                   help="another host name the server answers to (a proxy's public name; "
                        "repeatable)")
    p.add_argument("--abandon-after", metavar="SECONDS", type=float, default=300.0,
                   help="how long a player may be away before the opponent may claim the "
                        "game, for games created without their own (default 300; 0: never)")


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C."""
    import uvicorn

    from tavli.errors import CliError
    from tavli.online.app import create_online_app
    from tavli.online.protocol import MAX_FRAME
    from tavli.store.factory import open_store
    from tavli.web.security import hostname, is_loopback, served_hosts
    from tavli.web.server import _check_port

    host = args.host or "127.0.0.1"
    port = DEFAULT_PORT if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise CliError(f"--port must be 0-65535, got {port}")
    db = args.db or default_db()
    if "://" not in db and not db.startswith(("sqlite:", ":memory:")):
        path = Path(db).expanduser()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CliError(f"cannot create {path.parent}: {e.strerror or e}") from None
        db = str(path)
    abandon = getattr(args, "abandon_after", 300.0)
    if abandon is None or not 0 <= abandon <= 7 * 86400 or abandon != abandon:
        raise CliError(f"--abandon-after must be 0-604800 seconds, got {abandon}")
    if port:
        _check_port(host, port)
    store = open_store(db)  # a bad --db is one line, before anything listens
    names = served_hosts(host) | {hostname(n) for n in (args.name or [])}
    app = create_online_app(store, allowed_hosts=names, abandon_after=abandon or None)
    from uvicorn.config import WS_PROTOCOLS

    ws = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            access_log=False, ws_max_size=MAX_FRAME, ws=ws,
                            ws_per_message_deflate=False)  # small messages: CPU, not bytes
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    sockets = None
    if port == 0:  # the port is known once the socket is bound
        import socket

        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.bind((host, 0))
        port = sock.getsockname()[1]
        sockets = [sock]
    prepare_engine()
    where = db.split("@")[-1] if "://" in db else db  # no password shown
    print(f"tavli: online server at http://{shown}:{port}/ (games in {where}; Ctrl-C "
          "stops it)", flush=True)
    if not is_loopback(host):
        print(f"tavli: WARNING: --host {host}: anyone who can reach this machine can create "
              "games and watch the ones whose link he has. Plain HTTP is not encrypted: "
              "put a TLS proxy in front of it on the Internet.", flush=True)
    quieter_gc()
    try:
        server.run(sockets=sockets)
    except KeyboardInterrupt:
        pass
    finally:
        store.close()
    print("tavli: server stopped", file=sys.stderr)
    return 0


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def prepare_engine(say: Callable[[str], None] = _to_stderr) -> None:
    """Compile, or load from Numba's cache, the kernels every action of a game runs —
    the move generator and the turn's steps (:mod:`tavli.ai.warmup`) — before the
    server listens, so that no player's action waits for them. From a warm cache it
    takes a second; on a first run some seconds, told part by part (``say``).
    Two servers started together on one install share the work (each part's lock)."""
    from tavli.ai.warmup import ONLINE_PARTS, prepare
    from tavli.web.warmup import cache_is_cold

    def tell(done: int, total: int, part: Part) -> None:
        say(f"tavli serve: first run: preparing {part.text} ({done + 1}/{total})")

    # the kernel modules of those parts, as tavli.web.warmup.KERNELS names them
    prepare(ONLINE_PARTS, tell if cache_is_cold(("movegen", "steptree")) else None)


FULL_GC_EVERY = 600.0  # seconds between the server's full garbage collections
YOUNG_GC_EVERY = 200_000  # allocations between young collections
FREEZE_SECONDS = 0.2  # seconds between freezes of whatever lives


def quieter_gc() -> None:
    """Fewer and shorter pauses of the garbage collector in a server process. Every
    action makes and drops some ten thousand small objects (moves, states); with
    Python's defaults (a young collection every 700 allocations, the middle one every
    10 of those, a full one as the heap grows by a quarter) the collections took a
    fifth of the CPU, and the middle and full ones — a full one of 500 games in memory
    takes half a second — stopped every game: at 1,000 players the p95 of `tavli bench
    server` was 1.7 s with the defaults, 28-61 ms with larger thresholds.
    What was made at start (the app, the engine's tables) is frozen out of every
    collection; the young generation is collected every :data:`YOUNG_GC_EVERY`
    allocations, and what survives it is frozen out too (:func:`_freeze_survivors`):
    the games' views and move lists live until the next action, and promoted to the
    middle generation they made its collections scan a million objects (pauses of
    0.5-0.9 s at 3,000 players). And every :data:`FREEZE_SECONDS` a thread freezes
    whatever lives: Python counts allocations less deallocations, and each action frees
    an old view (frozen) as it makes a new one, so the count stayed under the threshold
    while the young generation grew to 700,000 live objects, scanned in one 0.4 s pause.
    Freezing is a splice of lists (no scan); the cycles of garbage it keeps from the
    young collections (few since :func:`tavli.web.steps.move_frames` makes none) wait
    for the whole heap's collection, every :data:`FULL_GC_EVERY` seconds by the same
    thread (a pause of about half a second then)."""
    import gc
    import threading
    import time

    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_GC_EVERY, 5, 1_000_000)
    gc.callbacks.append(_freeze_survivors)

    def collect() -> None:
        since_full = 0.0
        while True:
            time.sleep(FREEZE_SECONDS)
            since_full += FREEZE_SECONDS
            if since_full < FULL_GC_EVERY:
                gc.freeze()
                continue
            since_full = 0.0
            gc.unfreeze()
            gc.collect()
            gc.freeze()

    threading.Thread(target=collect, name="tavli-gc", daemon=True).start()


def _freeze_survivors(phase: str, info: dict) -> None:
    """After a young or middle collection: what survived it into the permanent
    generation, which only the full collection (:func:`quieter_gc`) looks at again."""
    if phase == "stop" and info.get("generation", 2) < 2:
        import gc

        gc.freeze()


__all__ = ["run", "prepare_engine", "quieter_gc", "add_arguments", "default_db", "DEFAULT_PORT"]
