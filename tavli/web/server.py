"""``tavli play``: serve the browser app with uvicorn on 127.0.0.1 and open the page.

On another address (``--host``), the app can be reached from the network: it then needs
an access token, printed in the address (``?token=...``), which the page keeps and sends
with every request (docs/web.md, "Security")."""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import socket
import sys
import threading
import time
import webbrowser
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
# options of the terminal UI (all default to None): the browser app's New game dialog
# sets up games, so given without --tui they are an error rather than silently ignored
TUI_ONLY = ("game", "points", "opponent", "white", "seed", "save", "resume", "rule",
            "position")


def default_db_path() -> Path:
    """``$TAVLI_DB``, else ``$XDG_DATA_HOME/tavli/games.sqlite3`` (``~/.local/share``)."""
    env = os.environ.get("TAVLI_DB")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "tavli" / "games.sqlite3"


def _check_port(host: str, port: int) -> None:
    from tavli.errors import CliError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise CliError(f"--host {host}: {e.strerror or e}") from None
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as e:
            raise CliError(f"cannot listen on {host}:{port} ({e.strerror or e}); "
                           "choose another port with --port") from None


def _open_when_up(server, url: str) -> None:
    def wait() -> None:
        for _ in range(300):
            if server.started:
                try:
                    webbrowser.open(url)
                except Exception:  # no browser: the URL is printed anyway
                    pass
                return
            time.sleep(0.05)

    threading.Thread(target=wait, daemon=True).start()


def _listening_socket(host: str, port: int, backlog: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (0: a free port) and listening."""
    from tavli.errors import CliError

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError as e:
        sock.close()
        raise CliError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    """Start the server (blocking until Ctrl-C)."""
    import uvicorn

    from tavli.errors import CliError
    from tavli.web.app import create_app

    given = [f"--{n}" for n in TUI_ONLY if getattr(args, n, None) not in (None, False)]
    if given:
        raise CliError(f"{', '.join(given)}: terminal options; add --tui to play in the "
                       "terminal (in the browser, the New game dialog sets up a game and "
                       "the list of games resumes one)")
    host = getattr(args, "host", None) or DEFAULT_HOST
    port = getattr(args, "port", None)
    port = DEFAULT_PORT if port is None else port
    if not 0 <= port <= 65535:
        raise CliError(f"--port must be 0-65535, got {port}")
    db = Path(args.db).expanduser() if getattr(args, "db", None) else default_db_path()
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot create {db.parent}: {e.strerror or e}") from None
    if port:
        _check_port(host, port)
    from tavli.web.security import is_loopback, served_hosts
    from tavli.web.warmup import start as warm_up
    from tavli.web.workers import default_pool

    token = None if is_loopback(host) else secrets.token_urlsafe(24)
    pool = default_pool()
    app = create_app(db, allowed_hosts=served_hosts(host), token=token, pool=pool)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    # bound and listening before the address is printed: a browser (or a script) that
    # goes there at once waits in the queue rather than being refused while the server
    # starts its workers (and port 0's number is known only once bound)
    sock = _listening_socket(host, port, config.backlog)
    port = sock.getsockname()[1]
    url = f"http://{shown}:{port}/"
    sockets = [sock]
    if token is not None:
        url = f"{url}?token={token}"
    print(f"tavli: playing at {url}  (games saved in {db}; Ctrl-C stops the server)",
          flush=True)
    if token is not None:
        bar = "!" * 78
        print(f"{bar}\ntavli: WARNING: --host {host} is not loopback: anyone who can reach "
              f"this machine\non the network can reach the app. Its requests need the "
              f"access token in the\naddress above; share that address only with "
              f"players you trust (plain HTTP:\nnot encrypted).\n{bar}", flush=True)
    app.state.warmup = warm_up(pool, lambda text: print(text, flush=True))
    if not getattr(args, "no_browser", False):
        _open_when_up(server, url)
    try:
        server.run(sockets=sockets)
    except KeyboardInterrupt:
        pass
    finally:
        pool.shutdown()
        shutil.rmtree(app.state.warmup.progress, ignore_errors=True)
    print("tavli: server stopped", file=sys.stderr)
    return 0
