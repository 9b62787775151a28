"""``tavli serve`` as a child process: started on a free loopback port, waited for, stopped
(SIGINT: uvicorn's graceful stop) or killed (``kill -9``). Used by ``tavli bench server``
and the tests of several server processes sharing one database.

    with ServeProcess(db) as server:       # started and listening on server.port
        ...                                # server.kill() for a crash
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tavli.errors import ServeError

_MAIN = "import sys; from tavli.cli import main; sys.exit(main())"




def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on now (the child binds it a moment later)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``; NaN
    elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ServeProcess:
    """``tavli serve --db DB --port PORT`` in a child process (``profile``: under
    cProfile, the statistics written to that file when it stops)."""

    def __init__(self, db: str, port: int | None = None, *, profile: str | None = None,
                 env: dict[str, str] | None = None, log: str | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.profile = profile
        self.env = env
        self.log = log
        self.proc: subprocess.Popen[Any] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        """Start it and wait until it accepts connections."""
        cmd = [sys.executable]
        if self.profile:
            cmd += ["-m", "tavli.cli.profiled", self.profile]
        else:
            cmd += ["-c", _MAIN]
        cmd += ["serve", "--port", str(self.port), "--db", self.db]
        env = {**os.environ, **(self.env or {})}
        root = str(Path(__file__).resolve().parents[2])  # this tavli, not another one
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                     stdin=subprocess.DEVNULL)
        if self.log:
            out.close()  # type: ignore[union-attr]
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise ServeError(f"tavli serve exited ({self.proc.returncode}) on start"
                                 + self._tail())
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise ServeError(f"tavli serve did not listen on port {self.port} within "
                         f"{timeout:g} s" + self._tail())

    def _tail(self) -> str:
        if not self.log or not Path(self.log).exists():
            return ""
        return ": " + Path(self.log).read_text(errors="replace")[-600:].strip()

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def cpu(self) -> float:
        """CPU seconds it has used."""
        return cpu_seconds(self.pid) if self.proc is not None else float("nan")

    def kill(self) -> None:
        """``kill -9``: a crash (nothing is flushed, no connection closed cleanly)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self, timeout: float = 15.0) -> None:
        """Stop it as Ctrl-C does (killed if it takes longer than ``timeout``)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> ServeProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["ServeProcess", "ServeError", "free_port", "cpu_seconds"]
