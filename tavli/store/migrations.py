"""The schemas of the stores as versioned lists of migrations, applied in order when a
store opens: one mechanism for two tracks, each with its table of applied versions.

* **online** (:data:`ONLINE`, table ``online_schema``): the online server's games, seats
  and log (:mod:`tavli.store.online`), :data:`MIGRATIONS` 1, 2, 3, …;
* **local** (:data:`LOCAL`, table ``local_schema``): the browser app's games and matches
  and its Dama games (:mod:`tavli.store.local`), :data:`LOCAL_MIGRATIONS`.

Each migration is a list of statements written once for both backends in the form of
:mod:`tavli.store.sql` (``{real}``: a timestamp, seconds since the epoch; ``{serial}``: an
increasing row id). :func:`migrate` brings a database to a version inside one
transaction (SQLite and PostgreSQL both roll DDL back, so an upgrade is all or nothing),
recording each version applied (version, name, when), and refuses a database newer than
the last version it knows. In SQLite the transaction is ``BEGIN IMMEDIATE``; in
PostgreSQL it first takes an advisory lock, so two servers starting together migrate
once.

The local track's statements say ``IF NOT EXISTS``: the app's files from before this
bookkeeping (the app's store and its Dama API once made their tables themselves, with
these very statements) already hold the tables, and opening one records versions 1 and 2
and keeps every row (``tests/test_store.py``).

Add a migration by appending to its list (never edit one that has shipped);
``tests/test_online_store.py`` checks that a database made by the previous version and
filled upgrades with its data intact.

>>> [m.version for m in pending(ONLINE, 1, LATEST)], LOCAL.latest
([2, 3, 4], 2)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from tavli.errors import StoreError
from tavli.store.sql import SCHEMA_APPLIED, SCHEMA_TABLE, SCHEMA_VERSION

#: the advisory lock the migrations take in PostgreSQL
LOCK_KEY = 0x7A71_1900


@dataclass(frozen=True)
class Migration:
    """Version ``version`` of the schema: what it is for, and its statements."""

    version: int
    name: str
    statements: tuple[str, ...]


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
    Migration(4, "accounts and their sessions, a seat's account, results, ratings and their "
                 "changes, the players' chat, the login throttle", (
        """CREATE TABLE online_accounts (
            id        TEXT PRIMARY KEY,
            username  TEXT,                 -- as chosen; NULL once the account is deleted
            name_key  TEXT UNIQUE,          -- the username case-folded; NULL once deleted
            password  TEXT,                 -- Argon2id hash (salt and parameters in it)
            created   {real} NOT NULL,
            deleted   {real}                -- when deleted (its games stay: "deleted player")
        )""",
        """CREATE TABLE online_sessions (
            token_hash TEXT PRIMARY KEY,    -- SHA-256 of the session cookie, never the cookie
            account_id TEXT NOT NULL REFERENCES online_accounts (id) ON DELETE CASCADE,
            created    {real} NOT NULL,
            expires    {real} NOT NULL
        )""",
        "CREATE INDEX online_sessions_account ON online_sessions (account_id)",
        "ALTER TABLE online_seats ADD COLUMN account_id TEXT REFERENCES online_accounts (id)",
        "CREATE INDEX online_seats_account ON online_seats (account_id)",
        """CREATE TABLE online_ratings (
            account_id TEXT NOT NULL REFERENCES online_accounts (id) ON DELETE CASCADE,
            game       TEXT NOT NULL,       -- portes, plakoto, fevga, tavli, backgammon
            rating     {real} NOT NULL,
            experience INTEGER NOT NULL,    -- match points finished, rated
            played     INTEGER NOT NULL,    -- rated games and matches finished
            updated    {real} NOT NULL,
            PRIMARY KEY (account_id, game)
        )""",
        "CREATE INDEX online_ratings_board ON online_ratings (game, rating)",
        """CREATE TABLE online_rating_changes (
            game_id    TEXT NOT NULL REFERENCES online_games (id) ON DELETE CASCADE,
            account_id TEXT NOT NULL REFERENCES online_accounts (id) ON DELETE CASCADE,
            game       TEXT NOT NULL,
            opponent   TEXT,                -- the opponent's account
            won        INTEGER NOT NULL,    -- 1: this player won
            points     INTEGER NOT NULL,    -- the match's length (1: a single game)
            old_rating {real} NOT NULL,
            new_rating {real} NOT NULL,
            at         {real} NOT NULL,
            PRIMARY KEY (game_id, account_id)   -- once per game and player
        )""",
        "CREATE INDEX online_rating_changes_account ON online_rating_changes (account_id, at)",
        """CREATE TABLE online_results (
            game_id    TEXT PRIMARY KEY REFERENCES online_games (id) ON DELETE CASCADE,
            game       TEXT NOT NULL,       -- what it is rated as: portes, ..., tavli
            points     INTEGER NOT NULL,    -- the match's length (1: a single game)
            winner     TEXT,                -- white, black; NULL: drawn
            how        TEXT NOT NULL,       -- how the last game ended (single, resign, ...)
            score      TEXT NOT NULL,       -- JSON: the match's score, or the game's points
            rated      INTEGER NOT NULL,
            white      TEXT REFERENCES online_accounts (id),   -- the players' accounts
            black      TEXT REFERENCES online_accounts (id),
            at         {real} NOT NULL
        )""",
        "CREATE INDEX online_results_white ON online_results (white, at)",
        "CREATE INDEX online_results_black ON online_results (black, at)",
        # a seat's chat switch (NULL: on for an account, off for a guest), its mute
        "ALTER TABLE online_seats ADD COLUMN chat INTEGER",
        "ALTER TABLE online_seats ADD COLUMN muted INTEGER",
        """CREATE TABLE online_chat (
            id       {serial},
            game_id  TEXT NOT NULL REFERENCES online_games (id) ON DELETE CASCADE,
            side     TEXT NOT NULL CHECK (side IN ('white', 'black')),
            text     TEXT NOT NULL,
            at       {real} NOT NULL
        )""",
        "CREATE INDEX online_chat_game ON online_chat (game_id, id)",
        """CREATE TABLE online_throttle (
            key      TEXT PRIMARY KEY,      -- what is limited: an account or an address
            failures INTEGER NOT NULL,      -- failed logins since ...
            since    {real} NOT NULL        -- ... the start of the window
        )""",
    )),
)

LATEST = MIGRATIONS[-1].version

LOCAL_MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "the browser app's games and matches", (
        """CREATE TABLE IF NOT EXISTS games (
            id       TEXT PRIMARY KEY,
            kind     TEXT NOT NULL,            -- game or match
            variant  TEXT NOT NULL,            -- portes, plakoto, fevga, backgammon or tavli
            status   TEXT NOT NULL,            -- playing, over or imported
            title    TEXT NOT NULL,
            created  {real} NOT NULL,
            updated  {real} NOT NULL,
            record   TEXT NOT NULL,            -- the engine's JSON record
            meta     TEXT NOT NULL             -- the app's JSON metadata
        )""",
        "CREATE INDEX IF NOT EXISTS games_updated ON games (updated)",
    )),
    Migration(2, "the browser app's Dama games", (
        """CREATE TABLE IF NOT EXISTS dama_games (
            id       TEXT PRIMARY KEY,
            rules    TEXT NOT NULL,            -- box, russian or italian
            huffing  INTEGER NOT NULL,         -- 1: box rules with huffing
            status   TEXT NOT NULL,            -- playing or over
            created  {real} NOT NULL,
            updated  {real} NOT NULL,
            plies    TEXT NOT NULL,            -- JSON list: 22x13x6 (full landing squares) or *22
            meta     TEXT NOT NULL             -- JSON: players
        )""",
    )),
)


@dataclass(frozen=True)
class Schema:
    """One track of migrations and the table that records the versions applied."""

    table: str
    migrations: tuple[Migration, ...]

    @property
    def latest(self) -> int:
        return self.migrations[-1].version

    def sql(self, statement: str) -> str:
        """A statement of the bookkeeping (:mod:`tavli.store.sql`) on this track's table."""
        return statement.format(table=self.table)


ONLINE = Schema("online_schema", MIGRATIONS)
LOCAL = Schema("local_schema", LOCAL_MIGRATIONS)


def pending(schema: Schema, current: int, target: int) -> list[Migration]:
    """The migrations that take a database from ``current`` to ``target``."""
    return [m for m in schema.migrations if current < m.version <= target]


def version(tx: Any, schema: Schema) -> int:
    """The version of ``schema`` in the database of ``tx`` (0: none applied)."""
    return tx.rows(schema.sql(SCHEMA_VERSION))[0][0] or 0


def migrate(tx: Any, schema: Schema, target: int | None, shown: str) -> int:
    """Bring the database of ``tx`` (a :class:`tavli.store.base.Tx` in a transaction) to
    version ``target`` of ``schema`` (None: the latest); the version it was at.
    ``shown`` names the database in the error of one newer than this tavli."""
    if tx.dialect.lock:
        tx.run(tx.dialect.lock, (LOCK_KEY,))
    tx.run(schema.sql(SCHEMA_TABLE))
    current = version(tx, schema)
    if current > schema.latest:
        raise StoreError(f"the database {shown} has schema version {current}; "
                         f"this tavli knows up to {schema.latest}: upgrade tavli")
    for m in pending(schema, current, schema.latest if target is None else target):
        for statement in m.statements:
            tx.run(statement)
        tx.run(schema.sql(SCHEMA_APPLIED), (m.version, m.name, time.time()))
    return current


__all__ = ["Migration", "MIGRATIONS", "LATEST", "LOCAL_MIGRATIONS", "Schema", "ONLINE",
           "LOCAL", "pending", "version", "migrate"]
