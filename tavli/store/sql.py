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

and ``{for_update}`` after a select in a transaction: nothing in SQLite (``BEGIN
IMMEDIATE`` has locked the whole database), `` FOR UPDATE`` in PostgreSQL (the rows read
stay locked until the transaction ends).

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
    for_update: str = ""  # locks the rows a select reads until the transaction ends
    #: the statement that serializes migrations (its one parameter: a key), if any
    lock: str | None = None
    _cache: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def sql(self, statement: str) -> str:
        """``statement`` in this dialect (made once per statement, then remembered)."""
        text = self._cache.get(statement)
        if text is None:
            text = statement.format(real=self.real, serial=self.serial, listed=self.listed,
                                    like=self.like, for_update=self.for_update)
            if self.param != "?":
                text = text.replace("%", "%%").replace("?", self.param)
            if len(self._cache) < 2048:  # the statements made at run time are few
                self._cache[statement] = text
        return text


SQLITE = Dialect("sqlite", "?", "REAL", "INTEGER PRIMARY KEY AUTOINCREMENT",
                 "json_extract(settings, '$.listed') = 1", "LIKE")
POSTGRESQL = Dialect("postgresql", "%s", "DOUBLE PRECISION", "BIGSERIAL PRIMARY KEY",
                     "(settings::jsonb ->> 'listed') = 'true'", "ILIKE", " FOR UPDATE",
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
SEAT_COLUMNS = ("game_id, side, player, name, level, token_hash, joined, seen, left_at, "
                "account_id, chat, muted")
WHITE_FIRST = "CASE side WHEN 'white' THEN 0 ELSE 1 END"

INSERT_GAME = ("INSERT INTO online_games (" + GAME_COLUMNS + ", record) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
INSERT_SEAT = ("INSERT INTO online_seats (game_id, side, player, name, level, token_hash, "
               "joined, account_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
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

# --- accounts, sessions, ratings (tavli.store.accounts) ---------------------------------------

ACCOUNT_COLUMNS = "id, username, password, created, deleted"
INSERT_ACCOUNT = ("INSERT INTO online_accounts (id, username, name_key, password, created) "
                  "VALUES (?, ?, ?, ?, ?)")
ACCOUNT_BY_NAME = "SELECT " + ACCOUNT_COLUMNS + " FROM online_accounts WHERE name_key = ?"
ACCOUNT_BY_ID = "SELECT " + ACCOUNT_COLUMNS + " FROM online_accounts WHERE id = ?"
SET_PASSWORD = "UPDATE online_accounts SET password = ? WHERE id = ? AND deleted IS NULL"
#: a deleted account keeps its row (its games name it: "deleted player"), nothing else
FORGET_ACCOUNT = ("UPDATE online_accounts SET username = NULL, name_key = NULL, "
                  "password = NULL, deleted = ? WHERE id = ?")

INSERT_SESSION = ("INSERT INTO online_sessions (token_hash, account_id, created, expires) "
                  "VALUES (?, ?, ?, ?)")
SESSION = ("SELECT a.id, a.username, a.password, a.created, a.deleted FROM online_sessions s "
           "JOIN online_accounts a ON a.id = s.account_id "
           "WHERE s.token_hash = ? AND s.expires > ? AND a.deleted IS NULL")
DELETE_SESSION = "DELETE FROM online_sessions WHERE token_hash = ?"
DELETE_SESSIONS = "DELETE FROM online_sessions WHERE account_id = ?"
DELETE_OTHER_SESSIONS = "DELETE FROM online_sessions WHERE account_id = ? AND token_hash <> ?"
DELETE_EXPIRED_SESSIONS = "DELETE FROM online_sessions WHERE expires <= ?"

#: a guest's seat claimed by an account (its token proves it was this browser's)
CLAIM_GUEST_SEAT = ("UPDATE online_seats SET account_id = ? WHERE game_id = ? AND "
                    "token_hash = ? AND player = 'human' AND account_id IS NULL")
#: a free seat taken by an account before its join action (a rated game's join)
SEAT_ACCOUNT = ("UPDATE online_seats SET account_id = ? WHERE game_id = ? AND side = ? AND "
                "joined IS NULL")
SEATS_OF_ACCOUNT = "SELECT game_id, side FROM online_seats WHERE account_id = ?"
FORGET_SEAT_NAMES = "UPDATE online_seats SET name = ? WHERE account_id = ? AND name IS NOT NULL"
JOINS_OF_SEAT = ("SELECT id, action, result FROM online_actions WHERE game_id = ? AND "
                 "side = ? AND action LIKE '%\"join\"%'")
REWRITE_ACTION = "UPDATE online_actions SET action = ?, result = ? WHERE id = ?"
GAME_RECORD = "SELECT record FROM online_games WHERE id = ?"
SET_RECORD = "UPDATE online_games SET record = ? WHERE id = ?"

RESULT_COLUMNS = "game_id, game, points, winner, how, score, rated, white, black, at"
INSERT_RESULT = ("INSERT INTO online_results (" + RESULT_COLUMNS + ") "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
#: a player's finished games, the newest first, with the seats' names (account id twice,
#: limit, offset)
RESULTS_OF_ACCOUNT = ("SELECT r.game_id, r.game, r.points, r.winner, r.how, r.score, r.rated, "
                      "r.white, r.black, r.at, g.kind, g.variant, "
                      "(SELECT name FROM online_seats WHERE game_id = r.game_id AND "
                      "side = 'white'), "
                      "(SELECT name FROM online_seats WHERE game_id = r.game_id AND "
                      "side = 'black') "
                      "FROM online_results r JOIN online_games g ON g.id = r.game_id "
                      "WHERE r.white = ? OR r.black = ? "
                      "ORDER BY r.at DESC, r.game_id LIMIT ? OFFSET ?")

RATING_COLUMNS = "account_id, game, rating, experience, played, updated"
#: a player's first rated game: the starting rating (account, game, rating, updated)
ENSURE_RATING = ("INSERT INTO online_ratings (" + RATING_COLUMNS + ") VALUES (?, ?, ?, 0, 0, ?) "
                 "ON CONFLICT (account_id, game) DO NOTHING")
#: the two players' ratings, locked until the transaction ends where the database can
RATINGS_TO_SETTLE = ("SELECT " + RATING_COLUMNS + " FROM online_ratings WHERE game = ? AND "
                     "account_id IN (?, ?) ORDER BY account_id{for_update}")
SET_RATING = ("UPDATE online_ratings SET rating = ?, experience = ?, played = played + 1, "
              "updated = ? WHERE account_id = ? AND game = ?")
INSERT_RATING_CHANGE = ("INSERT INTO online_rating_changes (game_id, account_id, game, "
                        "opponent, won, points, old_rating, new_rating, at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
RATING_OF = "SELECT rating FROM online_ratings WHERE account_id = ? AND game = ?"
#: accounts' names and their ratings in one game ({accounts}: marks; game, then the ids)
NAMES_AND_RATINGS = ("SELECT a.id, a.username, r.rating FROM online_accounts a "
                     "LEFT JOIN online_ratings r ON r.account_id = a.id AND r.game = ? "
                     "WHERE a.deleted IS NULL AND a.id IN ({accounts})")
RATINGS_OF = ("SELECT " + RATING_COLUMNS + " FROM online_ratings WHERE account_id = ? "
              "ORDER BY game")
RATING_CHANGES = ("SELECT c.game_id, c.game, c.won, c.points, c.old_rating, c.new_rating, "
                  "c.at, o.username FROM online_rating_changes c "
                  "LEFT JOIN online_accounts o ON o.id = c.opponent "
                  "WHERE c.account_id = ? ORDER BY c.at, c.game_id LIMIT ?")
RATING_CHANGES_OF_GAME = ("SELECT account_id, old_rating, new_rating FROM "
                          "online_rating_changes WHERE game_id = ?")
LEADERBOARD = ("SELECT a.username, r.rating, r.experience, r.played FROM online_ratings r "
               "JOIN online_accounts a ON a.id = r.account_id "
               "WHERE r.game = ? AND a.deleted IS NULL "
               "ORDER BY r.rating DESC, a.name_key LIMIT ?")
DELETE_RATINGS = "DELETE FROM online_ratings WHERE account_id = ?"
DELETE_RATING_CHANGES = "DELETE FROM online_rating_changes WHERE account_id = ?"

THROTTLE = "SELECT failures, since FROM online_throttle WHERE key = ?"
#: one more failure counted for a key (key, since, the window's start: older counts restart)
THROTTLE_FAILED = ("INSERT INTO online_throttle (key, failures, since) VALUES (?, 1, ?) "
                   "ON CONFLICT (key) DO UPDATE SET "
                   "failures = CASE WHEN online_throttle.since < ? THEN 1 "
                   "ELSE online_throttle.failures + 1 END, "
                   "since = CASE WHEN online_throttle.since < ? THEN excluded.since "
                   "ELSE online_throttle.since END")
#: one more failure counted for a key whose time is its last failure's (key, now, the
#: window's start: a key quiet for a whole window restarts at 1)
THROTTLE_FAILED_AGAIN = ("INSERT INTO online_throttle (key, failures, since) VALUES (?, 1, ?) "
                         "ON CONFLICT (key) DO UPDATE SET "
                         "failures = CASE WHEN online_throttle.since < ? THEN 1 "
                         "ELSE online_throttle.failures + 1 END, since = excluded.since")
THROTTLE_CLEAR = "DELETE FROM online_throttle WHERE key = ?"
THROTTLE_EXPIRED = "DELETE FROM online_throttle WHERE since < ?"

# --- the players' chat (tavli.store.chat) ----------------------------------------------------

CHAT_COLUMNS = "id, game_id, side, text, at"
INSERT_CHAT = ("INSERT INTO online_chat (game_id, side, text, at) VALUES (?, ?, ?, ?) "
               "RETURNING " + CHAT_COLUMNS)
CHAT_COUNT = "SELECT COUNT(*) FROM online_chat WHERE game_id = ?"
CHAT_OF_GAME = ("SELECT " + CHAT_COLUMNS + " FROM online_chat WHERE game_id = ? AND id > ? "
                "ORDER BY id LIMIT ?")
CHAT_SINCE = "SELECT " + CHAT_COLUMNS + " FROM online_chat WHERE id > ? ORDER BY id LIMIT ?"
CHAT_END = "SELECT COALESCE(MAX(id), 0) FROM online_chat"
DELETE_CHAT_OF_SEAT = "DELETE FROM online_chat WHERE game_id = ? AND side = ?"

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
