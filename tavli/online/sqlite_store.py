"""The online store in SQLite (the standard library's sqlite3): the default, nothing to
set up. One connection shared by the threads under a lock (WAL journal, so readers in
other processes are not blocked); an append is one ``BEGIN IMMEDIATE`` transaction.

Listeners poll the log (the ``id`` column grows with every action) from a thread with its
own connection every ``POLL`` seconds: this process's appends and other processes' on the
same file are heard within ``POLL`` (the server sends its own actions without waiting
for their notice); several servers on several machines need PostgreSQL.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from tavli.errors import StaleAction, StoreError, one_line
from tavli.online import migrations
from tavli.online.dburl import DbUrl
from tavli.online.store import (
    Action,
    GameRow,
    Listener,
    Notice,
    OnlineStore,
    Seat,
    Subscription,
    check_seat_changes,
    dumps,
    seat_column,
    stale,
)

POLL = 0.05  # seconds between a listener's looks at the log
_GAME_COLUMNS = ("id, kind, variant, settings, status, commitment, server_seed, last_seq, "
                 "created, updated")


def _game(row: sqlite3.Row, with_record: bool) -> GameRow:
    return GameRow(row["id"], row["kind"], row["variant"], json.loads(row["settings"]),
                   row["status"], row["commitment"], row["server_seed"], row["last_seq"],
                   json.loads(row["record"]) if with_record and row["record"] else None,
                   row["created"], row["updated"])


def _seat(row: sqlite3.Row) -> Seat:
    d = dict(row)
    return Seat(d["game_id"], d["side"], d["player"], d["name"], d["level"], d["token_hash"],
                d["joined"], d.get("seen"), d.get("left_at"))


def _action(row: sqlite3.Row) -> Action:
    return Action(row["game_id"], row["seq"], row["side"], json.loads(row["action"]),
                  json.loads(row["result"]), row["at"])


class SqliteStore(OnlineStore):
    """Online games in one SQLite file (``:memory:``: a throw-away store)."""

    inline = True  # a local file in WAL mode: a commit takes microseconds

    def __init__(self, url: DbUrl | str, *, schema: int | None = None) -> None:
        if isinstance(url, str):
            url = DbUrl("sqlite", url, url)
        self.path = url.target
        self.shown = url.shown
        self._lock = threading.RLock()
        self._subs: list[_Poller] = []
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect()
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._migrate(migrations.LATEST if schema is None else schema)
        except (sqlite3.Error, OSError) as e:
            raise StoreError(f"cannot open the SQLite database {self.shown}: "
                             f"{one_line(e)}") from None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                             timeout=10)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA foreign_keys=ON")
        # WAL + NORMAL: a commit is in the WAL file before it returns, so it survives the
        # server process dying (kill -9); a power cut may lose the last commits (FULL
        # would fsync each one: ~8 ms here, the server's bottleneck). docs/server.md
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    # --- schema --------------------------------------------------------------------------
    def _migrate(self, target: int) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(migrations.SCHEMA_TABLE.format(**migrations.DIALECTS["sqlite"]))
                current = db.execute("SELECT MAX(version) FROM online_schema").fetchone()[0] or 0
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            if current > migrations.LATEST:
                raise StoreError(f"the database {self.shown} has schema version {current}; "
                                 f"this tavli knows up to {migrations.LATEST}: upgrade tavli")
            for m in migrations.pending(current, target):
                db.execute("BEGIN IMMEDIATE")
                try:
                    for sql in migrations.statements(m, "sqlite"):
                        db.execute(sql)
                    db.execute("INSERT INTO online_schema (version, name, applied) "
                               "VALUES (?, ?, ?)", (m.version, m.name, time.time()))
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise

    def version(self) -> int:
        with self._lock:
            return self._db.execute("SELECT MAX(version) FROM online_schema").fetchone()[0] or 0

    # --- writing -------------------------------------------------------------------------
    def _write(self, fn: Any) -> Any:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                out = fn(self._db)
                self._db.execute("COMMIT")
                return out
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def create(self, game: GameRow, seats: list[Seat]) -> None:
        def do(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO online_games (id, kind, variant, settings, status, commitment, "
                "server_seed, last_seq, record, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.id, game.kind, game.variant, dumps(game.settings), game.status,
                 game.commitment, game.server_seed, game.last_seq,
                 None if game.record is None else dumps(game.record), game.created,
                 game.updated))
            for s in seats:
                db.execute(
                    "INSERT INTO online_seats (game_id, side, player, name, level, token_hash, "
                    "joined) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (s.game_id, s.side, s.player, s.name, s.level, s.token_hash, s.joined))

        try:
            self._write(do)
        except sqlite3.IntegrityError as e:
            raise StoreError(f"game {game.id} cannot be stored: {e}") from None

    def update_seat(self, game_id: str, side: str, **changes: Any) -> None:
        check_seat_changes(changes)
        if not changes:
            return
        cols = ", ".join(f"{seat_column(k)} = ?" for k in changes)
        self._write(lambda db: db.execute(
            f"UPDATE online_seats SET {cols} WHERE game_id = ? AND side = ?",
            (*changes.values(), game_id, side)))

    def mark_seen(self, seats: list[tuple[str, str]], at: float | None) -> None:
        if seats:
            self._write(lambda db: db.executemany(
                "UPDATE online_seats SET seen = ? WHERE game_id = ? AND side = ?",
                [(at, g, side) for g, side in seats]))

    def seats_of(self, game_ids: list[str]) -> dict[str, list[Seat]]:
        out: dict[str, list[Seat]] = {g: [] for g in game_ids}
        for i in range(0, len(game_ids), 500):
            part = game_ids[i:i + 500]
            rows = self._all(f"SELECT * FROM online_seats WHERE game_id IN "
                             f"({', '.join('?' * len(part))}) ORDER BY game_id, "
                             "CASE side WHEN 'white' THEN 0 ELSE 1 END", tuple(part))
            for r in rows:
                out[r["game_id"]].append(_seat(r))
        return out

    def append(self, action: Action, *, status: str, record: dict[str, Any] | None) -> None:
        def do(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT last_seq FROM online_games WHERE id = ?",
                             (action.game_id,)).fetchone()
            if row is None:
                raise StoreError(f"no online game {action.game_id!r}")
            if action.seq != row[0] + 1:
                raise stale(action.game_id, row[0], action.seq)
            db.execute("INSERT INTO online_actions (game_id, seq, side, action, result, at) "
                       "VALUES (?, ?, ?, ?, ?, ?)",
                       (action.game_id, action.seq, action.side, dumps(action.action),
                        dumps(action.result), action.at))
            db.execute("UPDATE online_games SET last_seq = ?, status = ?, "
                       "record = COALESCE(?, record), "
                       "updated = ? WHERE id = ?",
                       (action.seq, status, None if record is None else dumps(record),
                        action.at, action.game_id))

        try:
            self._write(do)
        except sqlite3.IntegrityError:  # another connection took the number first
            raise StaleAction(f"game {action.game_id}: action {action.seq} is taken") from None

    # --- reading -------------------------------------------------------------------------
    def _all(self, sql: str, args: tuple[Any, ...]) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def game(self, game_id: str) -> GameRow | None:
        rows = self._all(f"SELECT {_GAME_COLUMNS}, record FROM online_games WHERE id = ?",
                         (game_id,))
        return _game(rows[0], True) if rows else None

    def games(self, status: str | None = None, limit: int = 100) -> list[GameRow]:
        where, args = ("WHERE status = ?", (status,)) if status else ("", ())
        rows = self._all(f"SELECT {_GAME_COLUMNS} FROM online_games {where} "
                         "ORDER BY updated DESC LIMIT ?", (*args, limit))
        return [_game(r, False) for r in rows]

    def lobby(self, limit: int = 50) -> list[GameRow]:
        rows = self._all(f"SELECT {_GAME_COLUMNS} FROM online_games WHERE status = 'open' "
                         "AND json_extract(settings, '$.listed') = 1 "
                         "ORDER BY updated DESC LIMIT ?", (limit,))
        return [_game(r, False) for r in rows]

    def claim_seat(self, game_id: str, side: str, token_hash: str) -> bool:
        cur = self._write(lambda db: db.execute(
            "UPDATE online_seats SET token_hash = ? WHERE game_id = ? AND side = ? AND "
            "player = 'human' AND joined IS NULL", (token_hash, game_id, side)))
        return cur.rowcount == 1

    def seats(self, game_id: str) -> list[Seat]:
        rows = self._all("SELECT * FROM online_seats WHERE game_id = ? ORDER BY "
                         "CASE side WHEN 'white' THEN 0 ELSE 1 END", (game_id,))
        return [_seat(r) for r in rows]

    def seat_by_token(self, game_id: str, token: str) -> Seat | None:
        from tavli.online.store import token_hash

        rows = self._all("SELECT * FROM online_seats WHERE game_id = ? AND token_hash = ?",
                         (game_id, token_hash(token)))
        return _seat(rows[0]) if rows else None

    def actions(self, game_id: str, after: int = 0) -> list[Action]:
        rows = self._all("SELECT * FROM online_actions WHERE game_id = ? AND seq > ? "
                         "ORDER BY seq", (game_id, after))
        return [_action(r) for r in rows]

    # --- listening -----------------------------------------------------------------------
    def listen(self, callback: Listener) -> Subscription:
        if self.path == ":memory:":
            raise StoreError("a :memory: store cannot be listened to: use a file")
        with self._lock:
            start = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM online_actions"
                                     ).fetchone()[0]
        sub = _Poller(self, callback, start)
        self._subs.append(sub)
        return sub

    def close(self) -> None:
        for sub in list(self._subs):
            sub.close()
        with self._lock:
            self._db.close()


class _Poller(Subscription):
    """A listener of a SQLite store: a thread that reads the log past the last id seen."""

    def __init__(self, store: SqliteStore, callback: Listener, start: int) -> None:
        self.store = store
        self.callback = callback
        self.last = start
        self.wake = threading.Event()
        self.stop = threading.Event()
        self.db = store._connect()
        self.thread = threading.Thread(target=self._run, name="tavli-sqlite-listen",
                                       daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            self.wake.wait(POLL)
            self.wake.clear()
            if self.stop.is_set():
                break
            try:
                rows = self.db.execute("SELECT id, game_id, seq FROM online_actions "
                                       "WHERE id > ? ORDER BY id", (self.last,)).fetchall()
            except sqlite3.Error:
                continue  # busy or closing: look again
            for r in rows:
                self.last = r[0]
                try:
                    self.callback(Notice(r[1], r[2]))
                except Exception:  # a listener's bug must not stop the others' news
                    import logging

                    logging.getLogger(__name__).exception("online store listener failed")

    def close(self) -> None:
        self.stop.set()
        self.wake.set()
        if threading.current_thread() is not self.thread:
            self.thread.join(timeout=5)
        self.db.close()
        if self in self.store._subs:
            self.store._subs.remove(self)


__all__ = ["SqliteStore", "POLL"]
