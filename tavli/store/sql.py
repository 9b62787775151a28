"""Every SQL statement of the stores, written once, and the two dialects that render them.

A statement here is in the stores' own neutral form: ``?`` for a parameter, and a few
words in braces where SQLite and PostgreSQL differ, filled in by the :class:`Dialect` of
the database it runs on (:meth:`Dialect.sql`; the backends do it, callers never do):

========== ===================================== =========================================
word       SQLite                                PostgreSQL
========== ===================================== =========================================
``?``      ``?``                                 ``%s`` (psycopg; a literal ``%`` doubled)
{real}     ``REAL`` (8 bytes)                    ``DOUBLE PRECISION`` (its ``REAL`` is 4)
{serial}   ``INTEGER PRIMARY KEY AUTOINCREMENT`` ``BIGSERIAL PRIMARY KEY``
{listed}   ``json_extract(settings, '$.listed')  ``(settings::jsonb ->> 'listed') =
           = 1``                                 'true'``
{like}     ``LIKE`` (ignores the case of ASCII)  ``ILIKE`` (``LIKE`` minds the case)
========== ===================================== =========================================

The rest is the same in both: ``ON CONFLICT (id) DO UPDATE SET … = excluded.…`` upserts,
``COALESCE``, ``CASE``, ``||``, ``LIMIT … OFFSET``. What differs beyond words lives in the
backends (:mod:`tavli.store.sqlite`, :mod:`tavli.store.postgresql`): the locks (SQLite's
``BEGIN IMMEDIATE``, PostgreSQL's advisory lock for the migrations, :attr:`Dialect.lock`),
how an append tells the listeners (PostgreSQL's one statement with ``pg_notify``) and how
listeners hear (polling the log, ``LISTEN``). The schema is :mod:`tavli.store.migrations`.

>>> SQLITE.sql(LOBBY) == LOBBY.replace("{listed}", SQLITE.listed)
True
>>> POSTGRESQL.sql("SELECT id FROM games WHERE title {like} ? LIMIT ?")
'SELECT id FROM games WHERE title ILIKE %s LIMIT %s'
>>> POSTGRESQL.sql("SELECT '100%' AS x WHERE y = ?")
"SELECT '100%%' AS x WHERE y = %s"
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Dialect:
    """How one database engine writes what the statements leave open."""

    name: str
    param: str     # a parameter's placeholder
    real: str      # a float of 8 bytes (the times)
    serial: str    # an increasing row id, the primary key
    listed: str    # an online game's settings say ``"listed": true``
    like: str      # a pattern match that ignores the case of ASCII letters
    #: the statement that serializes migrations (its one parameter: a key), if any
    lock: str | None = None
    _cache: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def sql(self, statement: str) -> str:
        """``statement`` in this dialect (made once per statement, then remembered)."""
        text = self._cache.get(statement)
        if text is None:
            text = statement.format(real=self.real, serial=self.serial, listed=self.listed,
                                    like=self.like)
            if self.param != "?":
                text = text.replace("%", "%%").replace("?", self.param)
            if len(self._cache) < 2048:  # the statements made at run time are few
                self._cache[statement] = text
        return text


SQLITE = Dialect("sqlite", "?", "REAL", "INTEGER PRIMARY KEY AUTOINCREMENT",
                 "json_extract(settings, '$.listed') = 1", "LIKE")
POSTGRESQL = Dialect("postgresql", "%s", "DOUBLE PRECISION", "BIGSERIAL PRIMARY KEY",
                     "(settings::jsonb ->> 'listed') = 'true'", "ILIKE",
                     lock="SELECT pg_advisory_xact_lock(?)")


def marks(n: int) -> str:
    """``n`` parameters, comma-separated (an ``IN (…)`` list)."""
    return ", ".join("?" * n)


# --- the schema's bookkeeping (tavli.store.migrations; TABLE: online_schema, local_schema) --

SCHEMA_TABLE = ("CREATE TABLE IF NOT EXISTS {table} (version INTEGER PRIMARY KEY, "
                "name TEXT NOT NULL, applied {{real}} NOT NULL)")
SCHEMA_VERSION = "SELECT MAX(version) FROM {table}"
SCHEMA_APPLIED = "INSERT INTO {table} (version, name, applied) VALUES (?, ?, ?)"

# --- the online store (tavli.store.online) ---------------------------------------------------

GAME_COLUMNS = ("id, kind, variant, settings, status, commitment, server_seed, last_seq, "
                "created, updated")
SEAT_COLUMNS = "game_id, side, player, name, level, token_hash, joined, seen, left_at"
WHITE_FIRST = "CASE side WHEN 'white' THEN 0 ELSE 1 END"

INSERT_GAME = ("INSERT INTO online_games (" + GAME_COLUMNS + ", record) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
INSERT_SEAT = ("INSERT INTO online_seats (game_id, side, player, name, level, token_hash, "
               "joined) VALUES (?, ?, ?, ?, ?, ?, ?)")
GAME = "SELECT " + GAME_COLUMNS + ", record FROM online_games WHERE id = ?"
_GAMES = "SELECT " + GAME_COLUMNS + " FROM online_games "
_RECENT = " ORDER BY updated DESC LIMIT ?"
GAMES = _GAMES + _RECENT
GAMES_WITH_STATUS = _GAMES + "WHERE status = ?" + _RECENT
LOBBY = _GAMES + "WHERE status = 'open' AND {listed}" + _RECENT
LAST_SEQ = "SELECT last_seq FROM online_games WHERE id = ?"

_SEATS = "SELECT " + SEAT_COLUMNS + " FROM online_seats WHERE "
SEATS = _SEATS + "game_id = ? ORDER BY " + WHITE_FIRST
SEATS_OF = _SEATS + "game_id IN ({games}) ORDER BY game_id, " + WHITE_FIRST  # {games}: marks
SEAT_BY_TOKEN = _SEATS + "game_id = ? AND token_hash = ?"
UPDATE_SEAT = "UPDATE online_seats SET {changes} WHERE game_id = ? AND side = ?"
MARK_SEEN = UPDATE_SEAT.format(changes="seen = ?")
CLAIM_SEAT = ("UPDATE online_seats SET token_hash = ? WHERE game_id = ? AND side = ? AND "
              "player = 'human' AND joined IS NULL")

#: an append, part 1: the game moves on from the number before the action's, or nothing
#: changes (parameters: seq, status, record or NULL, at, game id, seq - 1)
MOVE_ON = ("UPDATE online_games SET last_seq = ?, status = ?, record = COALESCE(?, record), "
           "updated = ? WHERE id = ? AND last_seq = ?")
#: an append, part 2, if the game moved on: the action (game id, seq, side, action,
#: result, at)
INSERT_ACTION = ("INSERT INTO online_actions (game_id, seq, side, action, result, at) "
                 "VALUES (?, ?, ?, ?, ?, ?)")
ACTIONS = ("SELECT game_id, seq, side, action, result, at FROM online_actions "
           "WHERE game_id = ? AND seq > ? ORDER BY seq")
#: the log's end and what follows a place in it (the id grows over all games)
LOG_END = "SELECT COALESCE(MAX(id), 0) FROM online_actions"
LOG_AFTER = ("SELECT id, game_id, seq, side, action, result, at FROM online_actions "
             "WHERE id > ? ORDER BY id")

# --- the browser app's store (tavli.store.local) ---------------------------------------------

LOCAL_COLUMNS = "id, kind, variant, status, title, created, updated"
SAVE_LOCAL = ("INSERT INTO games (" + LOCAL_COLUMNS + ", record, meta) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
              "ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, "
              "variant = excluded.variant, status = excluded.status, title = excluded.title, "
              "updated = excluded.updated, record = excluded.record, meta = excluded.meta")
LOCAL_GAME = "SELECT " + LOCAL_COLUMNS + ", record, meta FROM games WHERE id = ?"
LOCAL_GAMES = ("SELECT " + LOCAL_COLUMNS + ", meta FROM games "
               "ORDER BY updated DESC LIMIT ?")
DELETE_LOCAL = "DELETE FROM games WHERE id = ?"

DAMA_COLUMNS = "id, rules, huffing, status, created, updated, plies, meta"
SAVE_DAMA = ("INSERT INTO dama_games (" + DAMA_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
             "ON CONFLICT (id) DO UPDATE SET status = excluded.status, "
             "updated = excluded.updated, plies = excluded.plies, meta = excluded.meta")
DAMA_GAME = "SELECT " + DAMA_COLUMNS + " FROM dama_games WHERE id = ?"
DELETE_DAMA = "DELETE FROM dama_games WHERE id = ?"


@dataclass(frozen=True)
class Listed:
    """One table as rows of the app's common list of games: the columns selected, and
    the SQL of a row's variant and title (what the list filters on)."""

    select: str
    variant: str
    title: str


# the title of a Dama game, as SQL over its row: "Dama (Russian rules)", "Dama (Box rules,
# huffing)"
DAMA_TITLE = ("'Dama (' || upper(substr(rules, 1, 1)) || substr(rules, 2) || ' rules' || "
              "CASE WHEN huffing <> 0 THEN ', huffing' ELSE '' END || ')'")
#: the lists, by name: the backgammon family's games and matches, the Dama games
LISTS = {
    "tavli": Listed("SELECT 'tavli' AS app, id, kind, variant, status, title, created, "
                    "updated, meta, NULL AS rules, NULL AS huffing FROM games",
                    "variant", "title"),
    "dama": Listed("SELECT 'dama' AS app, id, 'game' AS kind, 'dama' AS variant, status, "
                   + DAMA_TITLE + " AS title, created, updated, meta, rules, huffing "
                   "FROM dama_games", "'dama'", DAMA_TITLE),
}
LIST_PAGE = " ORDER BY updated DESC, id LIMIT ? OFFSET ?"
TITLE_HAS = "{like} ? ESCAPE '\\'"


__all__ = ["Dialect", "SQLITE", "POSTGRESQL", "Listed", "LISTS", "marks"]
