"""SQLite storage of the browser app's games and matches (the standard library's sqlite3).

One table, ``games``: one row per game or match, holding the engine's JSON record
(:mod:`tavli.play.record`) and the app's metadata (players, level, the state of the seeded
dice, dice thrown but not yet played). A row is written after every action in one
transaction, so a crash leaves either the old row or the new one, never half of each.

>>> s = Store(":memory:")
>>> s.save("abc", kind="game", variant="portes", status="playing", title="t",
...        record={"format": "tavli-record"}, meta={"x": 1})
>>> s.get("abc")["meta"]
{'x': 1}
>>> [r["id"] for r in s.list()]
['abc']
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,            -- 'game' or 'match'
    variant  TEXT NOT NULL,            -- portes, plakoto, fevga, backgammon or tavli
    status   TEXT NOT NULL,            -- playing, over or imported
    title    TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    record   TEXT NOT NULL,            -- the engine's JSON record
    meta     TEXT NOT NULL             -- the app's JSON metadata
);
CREATE INDEX IF NOT EXISTS games_updated ON games (updated);
"""


class Store:
    """Games and matches in one SQLite file (``":memory:"`` for a throwaway store)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        with self._lock:
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def save(self, game_id: str, *, kind: str, variant: str, status: str, title: str,
             record: dict[str, Any], meta: dict[str, Any]) -> None:
        """Insert or replace the row of ``game_id`` atomically (one transaction)."""
        now = time.time()
        rec = json.dumps(record, separators=(",", ":"))
        met = json.dumps(meta, separators=(",", ":"))
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO games (id, kind, variant, status, title, created, updated, "
                    "record, meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(id) DO UPDATE SET kind=excluded.kind, "
                    "variant=excluded.variant, status=excluded.status, title=excluded.title, "
                    "updated=excluded.updated, record=excluded.record, meta=excluded.meta",
                    (game_id, kind, variant, status, title, now, now, rec, met))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def get(self, game_id: str) -> dict[str, Any] | None:
        """The row of ``game_id`` with record and meta decoded, or None."""
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        out = dict(row)
        out["record"] = json.loads(out["record"])
        out["meta"] = json.loads(out["meta"])
        return out

    def list(self, limit: int = 200) -> list[dict[str, Any]]:
        """The most recently updated rows first, without their records."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, kind, variant, status, title, created, updated, meta FROM games "
                "ORDER BY updated DESC LIMIT ?", (limit,)).fetchall()
        out = []
        for row in rows:
            d = dict(row)
            d["meta"] = json.loads(d["meta"])
            out.append(d)
        return out

    def delete(self, game_id: str) -> bool:
        with self._lock:
            cur = self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        return cur.rowcount > 0
