"""SQLite (the standard library's sqlite3) under the stores: the default, nothing to set
up; the browser app's file and the online server's. One connection shared by the threads
under a lock (WAL journal, so readers in other processes are not blocked); a transaction
is ``BEGIN IMMEDIATE``, so it writes alone (the lock PostgreSQL takes row by row).

Listeners poll the online log (the ``id`` column grows with every action) from a thread
with its own connection every ``POLL`` seconds: this process's appends and other
processes' on the same file are heard within ``POLL`` (the server sends its own actions
without waiting for their notice), each notice with its action (one read of the log for
all the games, so no game has to read it back); several servers on several machines need
PostgreSQL.

>>> db = SqliteBackend(":memory:")
>>> with db.transaction() as tx:
...     _ = tx.run("CREATE TABLE t (x {real})")
...     _ = tx.run("INSERT INTO t (x) VALUES (?)", (1.5,))
>>> db.rows("SELECT x FROM t")
[(1.5,)]
>>> db.close()
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tavli.errors import StoreError
from tavli.store.base import Action, Backend, Listener, Listening, Notice, Subscription, Tx
from tavli.store.sql import LOG_AFTER, LOG_END, SQLITE

POLL = 0.05  # seconds between a listener's looks at the log


class SqliteBackend(Backend):
    """One SQLite file (``:memory:``: a throw-away database; ``shown``: how messages name
    it, the path by default)."""

    dialect = SQLITE
    inline = True  # a local file in WAL mode: a commit takes microseconds
    cannot = "cannot open the SQLite database"
    errors = (sqlite3.Error, OSError)
    integrity = (sqlite3.IntegrityError,)

    def __init__(self, path: str | Path, shown: str | None = None) -> None:
        self.path = str(path)
        super().__init__(self.path if shown is None else shown)
        self._lock = threading.RLock()
        with self.opening():
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = self.connect()
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")

    def connect(self) -> sqlite3.Connection:
        """A new connection to the file (autocommit: transactions say ``BEGIN``)."""
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                             timeout=10)
        db.execute("PRAGMA foreign_keys=ON")
        # WAL + NORMAL: a commit is in the WAL file before it returns, so it survives the
        # server process dying (kill -9); a power cut may lose the last commits (FULL
        # would fsync each one: ~8 ms here, the server's bottleneck). docs/server.md
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(self._db, self.dialect)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    @contextmanager
    def session(self) -> Iterator[Tx]:
        with self._lock:
            yield Tx(self._db, self.dialect)

    def listen(self, callback: Listener) -> Subscription:
        if self.path == ":memory:":
            raise StoreError("a :memory: store cannot be listened to: use a file")
        return _Poller(self, callback, self.rows(LOG_END)[0][0]).start()

    def disconnect(self) -> None:
        with self._lock:
            self._db.close()


class _Poller(Listening):
    """A listener of a SQLite database: a thread that reads the log past the last id seen."""

    def __init__(self, backend: SqliteBackend, callback: Listener, start: int) -> None:
        super().__init__(backend, callback, "tavli-sqlite-listen")
        self.last = start
        self.woken = threading.Event()
        self.db = Tx(backend.connect(), backend.dialect)

    def run(self) -> None:
        while not self.stop.is_set():
            self.woken.wait(POLL)
            self.woken.clear()
            if self.stop.is_set():
                break
            try:
                rows = self.db.rows(LOG_AFTER, (self.last,))
            except sqlite3.Error:
                continue  # busy or closing: look again
            for r in rows:
                self.last = r[0]
                self.tell(Notice(r[1], r[2], Action(r[1], r[2], r[3], json.loads(r[4]),
                                                    json.loads(r[5]), r[6])))

    def wake(self) -> None:
        self.woken.set()

    def hang_up(self) -> None:
        self.db.conn.close()


__all__ = ["SqliteBackend", "POLL"]
