"""A throw-away PostgreSQL cluster for the tests and benchmarks: ``initdb`` into a
temporary folder, ``pg_ctl start`` listening on a Unix socket in that folder only (no TCP
port, so parallel runs never clash), ``pg_ctl stop`` and the folder removed at the end.

It uses Debian's server binaries (``/usr/lib/postgresql/VERSION/bin``, the newest; or
``$TAVLI_PG_BIN``; or ``initdb`` on the PATH). PostgreSQL refuses to run as root, so as
root (CI, a container) the cluster belongs to the ``postgres`` user that Debian's package
creates, and the commands run as that user; anyone else runs them as himself. Clients
connect as the cluster's superuser ``tavli`` without a password (trust, on the socket)::

    with PgCluster() as c:                  # initdb and start: about 2 s
        url = c.create_database("t1")       # postgresql:///t1?host=/tmp/tavli-pg-…&user=tavli
        ...                                 # stopped and removed at the end
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

SUPERUSER = "tavli"
PORT = 5432          # names the socket file only: nothing listens on TCP
INSTALL_HINT = ("PostgreSQL's server is not installed: `apt-get install postgresql` "
                "(make test does it as root on Debian), or set TAVLI_PG_BIN to the folder "
                "of initdb and pg_ctl")


class ClusterError(RuntimeError):
    """The throw-away cluster cannot be made or started (what to install, or the log)."""


def find_bindir() -> Path:
    """The folder of ``initdb`` and ``pg_ctl`` (:class:`ClusterError` when none)."""
    env = os.environ.get("TAVLI_PG_BIN")
    if env:
        return Path(env)

    def version(path: str) -> float:
        try:
            return float(Path(path).parent.parent.name)
        except ValueError:
            return 0.0

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(os.path.realpath(initdb)).parent
    raise ClusterError(INSTALL_HINT)


class PgCluster:
    """One cluster in a temporary folder; :meth:`start`, :meth:`create_database`,
    :meth:`stop` (also as a context manager)."""

    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.root: Path | None = None
        self.running = False
        self._user: dict[str, Any] = {}

    @property
    def data(self) -> Path:
        assert self.root is not None
        return self.root / "data"

    def _run(self, *cmd: str, timeout: float = 120) -> None:
        try:
            done = subprocess.run([str(self.bindir / cmd[0]), *cmd[1:]], capture_output=True,
                                  text=True, timeout=timeout, **self._user)
        except FileNotFoundError:
            raise ClusterError(INSTALL_HINT) from None
        if done.returncode != 0:
            log = ""
            if self.root is not None and (self.root / "log").exists():
                log = (self.root / "log").read_text(errors="replace")[-2000:]
            raise ClusterError(f"{cmd[0]} failed ({done.returncode}): "
                               f"{(done.stderr or done.stdout).strip()[-2000:]} {log}")

    def start(self) -> None:
        """initdb and start the cluster (a few seconds)."""
        self.root = Path(tempfile.mkdtemp(prefix="tavli-pg-"))
        if os.geteuid() == 0:  # PostgreSQL will not run as root: as Debian's postgres user
            import pwd

            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise ClusterError("running as root, PostgreSQL needs the 'postgres' user "
                                   "(Debian's postgresql package creates it)") from None
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
            self._user = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": [],
                          "cwd": str(self.root)}
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        opts = (f"-k {self.root} -p {PORT} -c listen_addresses='' -c fsync=off "
                "-c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w",
                  "-t", "60", "-o", opts, "start")
        self.running = True

    def url(self, dbname: str = "postgres") -> str:
        """A libpq URL of database ``dbname`` on this cluster."""
        return f"postgresql:///{dbname}?host={self.root}&user={SUPERUSER}"

    def create_database(self, name: str) -> str:
        """Create an empty database and return its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def create_schema(self, name: str) -> str:
        """Create an empty schema in database ``postgres`` and return a URL whose
        connections work in it (``options=-csearch_path=NAME``): a fresh "database" for a
        test in a millisecond (CREATE DATABASE takes half a second)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        return f"{self.url()}&options=-csearch_path%3D{name}"

    def stop(self) -> None:
        """Stop the cluster (immediately: it is thrown away) and remove its folder."""
        try:
            if self.running:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            self.running = False
            if self.root is not None:
                shutil.rmtree(self.root, ignore_errors=True)
                self.root = None

    def __enter__(self) -> PgCluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["PgCluster", "ClusterError", "find_bindir"]
