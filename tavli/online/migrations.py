"""The online store's schema as a versioned list of migrations, applied in order at start.

Each migration is a list of SQL statements written once for both backends: ``{real}``
(a timestamp, seconds since the epoch), ``{serial}`` (an increasing row id) are filled in
by the dialect. The table ``online_schema`` records each version applied (version, name,
when); a store opens a database at any earlier version by applying the rest, each
migration in one transaction with its row (SQLite and PostgreSQL both roll DDL back), and
refuses a database newer than the last version it knows. Two servers starting together
on one PostgreSQL take an advisory lock, so a migration runs once.

Add a migration by appending to :data:`MIGRATIONS` (never edit one that has shipped);
``tests/test_online_store.py`` checks that a database made by the previous version and
filled upgrades with its data intact.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    """Version ``version`` of the schema: what it is for, and its statements."""

    version: int
    name: str
    statements: tuple[str, ...]


DIALECTS = {
    "sqlite": {"real": "REAL", "serial": "INTEGER PRIMARY KEY AUTOINCREMENT"},
    "postgresql": {"real": "DOUBLE PRECISION", "serial": "BIGSERIAL PRIMARY KEY"},
}

#: the table of applied versions (created before any migration)
SCHEMA_TABLE = ("CREATE TABLE IF NOT EXISTS online_schema (version INTEGER PRIMARY KEY, "
                "name TEXT NOT NULL, applied {real} NOT NULL)")

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "online games, seats, the log of accepted actions", (
        """CREATE TABLE online_games (
            id          TEXT PRIMARY KEY,
            kind        TEXT NOT NULL CHECK (kind IN ('game', 'match')),
            variant     TEXT NOT NULL,
            settings    TEXT NOT NULL,      -- JSON: what the game or match is set up with
            status      TEXT NOT NULL,      -- open, playing, over, abandoned
            commitment  TEXT NOT NULL,      -- SHA-256 of server_seed, published at once
            server_seed TEXT NOT NULL,      -- secret until the end (then in the record)
            last_seq    INTEGER NOT NULL DEFAULT 0,
            record      TEXT,               -- JSON: the record as of last_seq
            created     {real} NOT NULL,
            updated     {real} NOT NULL
        )""",
        """CREATE TABLE online_seats (
            game_id    TEXT NOT NULL REFERENCES online_games (id) ON DELETE CASCADE,
            side       TEXT NOT NULL CHECK (side IN ('white', 'black')),
            player     TEXT NOT NULL CHECK (player IN ('human', 'ai')),
            name       TEXT,
            level      TEXT,
            token_hash TEXT UNIQUE,         -- SHA-256 of the seat token; none for the AI
            joined     {real},
            PRIMARY KEY (game_id, side)
        )""",
        """CREATE TABLE online_actions (
            id       {serial},
            game_id  TEXT NOT NULL REFERENCES online_games (id) ON DELETE CASCADE,
            seq      INTEGER NOT NULL CHECK (seq >= 1),
            side     TEXT,
            action   TEXT NOT NULL,         -- JSON: what was asked
            result   TEXT NOT NULL,         -- JSON: what it did (dice, the move played)
            at       {real} NOT NULL,
            UNIQUE (game_id, seq)
        )""",
    )),
    Migration(2, "presence (a seat's last sign of life) and the lobby's index", (
        "ALTER TABLE online_seats ADD COLUMN seen {real}",
        "CREATE INDEX online_games_lobby ON online_games (status, updated)",
    )),
    Migration(3, "a rematch keeps the seat tokens: a token is unique per game; when a seat "
                 "left", (
        # the table is rebuilt (SQLite cannot drop a column's UNIQUE): token_hash unique per
        # game instead of over all games, and ``left`` (when its last connection closed)
        """CREATE TABLE online_seats_v3 (
            game_id    TEXT NOT NULL REFERENCES online_games (id) ON DELETE CASCADE,
            side       TEXT NOT NULL CHECK (side IN ('white', 'black')),
            player     TEXT NOT NULL CHECK (player IN ('human', 'ai')),
            name       TEXT,
            level      TEXT,
            token_hash TEXT,                -- SHA-256 of the seat token; none for the AI
            joined     {real},
            seen       {real},              -- last sign of life of a connection
            left_at    {real},              -- when its last connection closed
            PRIMARY KEY (game_id, side),
            UNIQUE (game_id, token_hash)
        )""",
        "INSERT INTO online_seats_v3 (game_id, side, player, name, level, token_hash, joined, "
        "seen) SELECT game_id, side, player, name, level, token_hash, joined, seen "
        "FROM online_seats",
        "DROP TABLE online_seats",
        "ALTER TABLE online_seats_v3 RENAME TO online_seats",
    )),
)

LATEST = MIGRATIONS[-1].version


def statements(migration: Migration, dialect: str) -> list[str]:
    """The statements of ``migration`` in ``dialect`` (sqlite or postgresql)."""
    return [s.format(**DIALECTS[dialect]) for s in migration.statements]


def pending(current: int, target: int) -> list[Migration]:
    """The migrations that take a database from ``current`` to ``target``."""
    return [m for m in MIGRATIONS if current < m.version <= target]


__all__ = ["Migration", "MIGRATIONS", "LATEST", "SCHEMA_TABLE", "DIALECTS", "statements",
           "pending"]
