"""The online store in PostgreSQL (psycopg 3 and its connection pool; ``pip install
'tavli[postgresql]'``): for a real deployment, and for several ``tavli serve`` processes
on one or many machines sharing one database.

An append is one statement (one round trip, its own transaction): it moves the game's
row on from the number before the action's (a row another process is moving on is
locked until that commits, then read again and no longer matches), inserts the action
only if it did, and calls ``pg_notify('tavli_actions', 'GAME SEQ')``: PostgreSQL
delivers the notice at commit, to every connection that has run ``LISTEN
tavli_actions`` — the listeners of every process (:meth:`listen`: a connection of its
own and a thread). The unique ``(game_id, seq)`` is the last guard: two processes
racing for one number, one wins and the other is refused.

A notice can be missed (a listener reconnecting): it says only "look at the log", so a
reader that keeps the last number it has seen catches up with
:meth:`~tavli.online.store.OnlineStore.actions` and nothing is lost.
"""

from __future__ import annotations

import json
import logging
import threading
import time
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
    token_hash,
)

CHANNEL = "tavli_actions"
CONNECT_TIMEOUT = 5   # seconds, unless the URL says otherwise (connect_timeout=...)
POOL_SIZE = 8
POOL_WAIT = 10        # seconds a query waits for a connection before it fails
_LOCK_KEY = 0x7A71_1900  # the advisory lock the migrations take
_GAME_COLUMNS = ("id, kind, variant, settings, status, commitment, server_seed, last_seq, "
                 "created, updated")
log = logging.getLogger(__name__)


def _driver() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError("PostgreSQL needs the psycopg driver: pip install "
                         "'tavli[postgresql]'") from None
    return psycopg


def _game(r: tuple[Any, ...], record: Any = None) -> GameRow:
    return GameRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7],
                   json.loads(record) if record else None, r[8], r[9])


def _seat(r: tuple[Any, ...]) -> Seat:
    return Seat(*r)


_SEAT_COLUMNS = "game_id, side, player, name, level, token_hash, joined, seen, left_at"


class PostgresStore(OnlineStore):
    """Online games in a PostgreSQL database (``url``: a libpq URL)."""

    def __init__(self, url: DbUrl | str, *, schema: int | None = None,
                 pool_size: int = POOL_SIZE) -> None:
        if isinstance(url, str):
            from tavli.online.dburl import parse_db_url

            url = parse_db_url(url)
        psycopg = _driver()
        self.shown = url.shown
        self._subs: list[_Listen] = []
        try:
            info = psycopg.conninfo.conninfo_to_dict(url.target)
        except psycopg.Error as e:
            raise StoreError(f"--db: malformed PostgreSQL URL {self.shown}: {one_line(e)}"
                             ) from None
        info.setdefault("connect_timeout", CONNECT_TIMEOUT)
        self.conninfo = psycopg.conninfo.make_conninfo(**info)
        schema = migrations.LATEST if schema is None else schema
        try:
            with psycopg.connect(self.conninfo) as conn:  # reachable? then the schema
                self._migrate(conn, schema)
        except psycopg.Error as e:
            raise StoreError(f"cannot use the PostgreSQL database {self.shown}: "
                             f"{one_line(e)}") from None
        from psycopg_pool import ConnectionPool

        self._pool = ConnectionPool(self.conninfo, min_size=1, max_size=pool_size,
                                    open=True, name="tavli-online", timeout=POOL_WAIT,
                                    kwargs={"autocommit": True})

    # --- schema --------------------------------------------------------------------------
    def _migrate(self, conn: Any, target: int) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            conn.execute(migrations.SCHEMA_TABLE.format(**migrations.DIALECTS["postgresql"]))
            current = conn.execute("SELECT MAX(version) FROM online_schema").fetchone()[0] or 0
            if current > migrations.LATEST:
                raise StoreError(f"the database {self.shown} has schema version {current}; "
                                 f"this tavli knows up to {migrations.LATEST}: upgrade tavli")
            for m in migrations.pending(current, target):
                with conn.transaction():  # a savepoint each: all or nothing per version
                    for sql in migrations.statements(m, "postgresql"):
                        conn.execute(sql)
                    conn.execute("INSERT INTO online_schema (version, name, applied) "
                                 "VALUES (%s, %s, %s)", (m.version, m.name, time.time()))

    def version(self) -> int:
        return self._one("SELECT MAX(version) FROM online_schema", ())[0] or 0

    # --- plumbing ------------------------------------------------------------------------
    def _run(self, fn: Any, tx: bool = True) -> Any:
        """``fn(connection)`` in one transaction (``tx``), or as single statements in
        autocommit (reads: one round trip each)."""
        psycopg = _driver()
        from psycopg_pool import PoolTimeout

        try:
            with self._pool.connection() as conn:
                if not tx:
                    return fn(conn)
                with conn.transaction():
                    return fn(conn)
        except (psycopg.OperationalError, PoolTimeout) as e:
            raise StoreError(f"the PostgreSQL database {self.shown}: {one_line(e)}") from None

    def _all(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return self._run(lambda c: c.execute(sql, args).fetchall(), tx=False)

    def _one(self, sql: str, args: tuple[Any, ...]) -> tuple[Any, ...]:
        return self._run(lambda c: c.execute(sql, args).fetchone(), tx=False)

    # --- writing -------------------------------------------------------------------------
    def create(self, game: GameRow, seats: list[Seat]) -> None:
        psycopg = _driver()

        def do(c: Any) -> None:
            c.execute(
                "INSERT INTO online_games (id, kind, variant, settings, status, commitment, "
                "server_seed, last_seq, record, created, updated) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (game.id, game.kind, game.variant, dumps(game.settings), game.status,
                 game.commitment, game.server_seed, game.last_seq,
                 None if game.record is None else dumps(game.record), game.created,
                 game.updated))
            for s in seats:
                c.execute(
                    "INSERT INTO online_seats (game_id, side, player, name, level, token_hash, "
                    "joined) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (s.game_id, s.side, s.player, s.name, s.level, s.token_hash, s.joined))

        try:
            self._run(do)
        except psycopg.IntegrityError as e:
            raise StoreError(f"game {game.id} cannot be stored: {one_line(e)}") from None

    def update_seat(self, game_id: str, side: str, **changes: Any) -> None:
        check_seat_changes(changes)
        if not changes:
            return
        cols = ", ".join(f"{seat_column(k)} = %s" for k in changes)
        self._run(lambda c: c.execute(
            f"UPDATE online_seats SET {cols} WHERE game_id = %s AND side = %s",
            (*changes.values(), game_id, side)))

    def mark_seen(self, seats: list[tuple[str, str]], at: float | None) -> None:
        if seats:
            self._run(lambda c: c.cursor().executemany(
                "UPDATE online_seats SET seen = %s WHERE game_id = %s AND side = %s",
                [(at, g, side) for g, side in sorted(seats)]))  # one order: no deadlock

    def seats_of(self, game_ids: list[str]) -> dict[str, list[Seat]]:
        out: dict[str, list[Seat]] = {g: [] for g in game_ids}
        if game_ids:
            rows = self._all(f"SELECT {_SEAT_COLUMNS} FROM online_seats WHERE game_id = "
                             "ANY(%s) ORDER BY game_id, CASE side WHEN 'white' THEN 0 "
                             "ELSE 1 END", (list(game_ids),))
            for r in rows:
                out[r[0]].append(_seat(r))
        return out

    def append(self, action: Action, *, status: str, record: dict[str, Any] | None) -> None:
        psycopg = _driver()
        # one statement (one round trip, committed at its end): the game moves on only
        # from the number before this one (a row another process has just moved on is
        # read again when its lock is released, and no longer matches), the action is
        # inserted only if it did, and the notice goes with it
        sql = ("WITH g AS (UPDATE online_games SET last_seq = %(seq)s, status = %(status)s, "
               "record = COALESCE(%(record)s, record), updated = %(at)s "
               "WHERE id = %(id)s AND last_seq = %(before)s RETURNING id), "
               "a AS (INSERT INTO online_actions (game_id, seq, side, action, result, at) "
               "SELECT id, %(seq)s, %(side)s, %(action)s, %(result)s, %(at)s FROM g "
               "RETURNING seq) "
               "SELECT pg_notify(%(channel)s, %(notice)s) FROM a")
        args = {"id": action.game_id, "seq": action.seq, "before": action.seq - 1,
                "status": status, "record": None if record is None else dumps(record),
                "at": action.at, "side": action.side, "action": dumps(action.action),
                "result": dumps(action.result), "channel": CHANNEL,
                "notice": f"{action.game_id} {action.seq}"}
        try:
            done = self._run(lambda c: c.execute(sql, args).fetchall(), tx=False)
        except psycopg.IntegrityError:  # another process took the number first
            raise StaleAction(f"game {action.game_id}: action {action.seq} is taken") from None
        if not done:  # not stored: why
            row = self._one("SELECT last_seq FROM online_games WHERE id = %s",
                            (action.game_id,))
            if row is None:
                raise StoreError(f"no online game {action.game_id!r}")
            raise stale(action.game_id, row[0], action.seq)

    # --- reading -------------------------------------------------------------------------
    def game(self, game_id: str) -> GameRow | None:
        row = self._one(f"SELECT {_GAME_COLUMNS}, record FROM online_games WHERE id = %s",
                        (game_id,))
        return _game(row[:-1], row[-1]) if row else None

    def games(self, status: str | None = None, limit: int = 100) -> list[GameRow]:
        where, args = ("WHERE status = %s", (status,)) if status else ("", ())
        rows = self._all(f"SELECT {_GAME_COLUMNS} FROM online_games {where} "
                         "ORDER BY updated DESC LIMIT %s", (*args, limit))
        return [_game(r) for r in rows]

    def lobby(self, limit: int = 50) -> list[GameRow]:
        rows = self._all(f"SELECT {_GAME_COLUMNS} FROM online_games WHERE status = 'open' "
                         "AND (settings::jsonb ->> 'listed') = 'true' "
                         "ORDER BY updated DESC LIMIT %s", (limit,))
        return [_game(r) for r in rows]

    def claim_seat(self, game_id: str, side: str, token_hash: str) -> bool:
        cur = self._run(lambda c: c.execute(
            "UPDATE online_seats SET token_hash = %s WHERE game_id = %s AND side = %s AND "
            "player = 'human' AND joined IS NULL", (token_hash, game_id, side)))
        return cur.rowcount == 1

    def seats(self, game_id: str) -> list[Seat]:
        rows = self._all(f"SELECT {_SEAT_COLUMNS} FROM online_seats WHERE game_id = %s "
                         "ORDER BY CASE side WHEN 'white' THEN 0 ELSE 1 END", (game_id,))
        return [_seat(r) for r in rows]

    def seat_by_token(self, game_id: str, token: str) -> Seat | None:
        row = self._one(f"SELECT {_SEAT_COLUMNS} FROM online_seats WHERE game_id = %s AND "
                        "token_hash = %s", (game_id, token_hash(token)))
        return _seat(row) if row else None

    def actions(self, game_id: str, after: int = 0) -> list[Action]:
        rows = self._all("SELECT game_id, seq, side, action, result, at FROM online_actions "
                         "WHERE game_id = %s AND seq > %s ORDER BY seq", (game_id, after))
        return [Action(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5])
                for r in rows]

    # --- listening -----------------------------------------------------------------------
    def listen(self, callback: Listener) -> Subscription:
        sub = _Listen(self, callback)
        self._subs.append(sub)
        return sub

    def close(self) -> None:
        for sub in list(self._subs):
            sub.close()
        self._pool.close()


class _Listen(Subscription):
    """``LISTEN tavli_actions`` on a connection of its own, read by a thread."""

    TICK = 0.2  # seconds between looks at the stop flag

    def __init__(self, store: PostgresStore, callback: Listener) -> None:
        psycopg = _driver()
        self.store = store
        self.callback = callback
        self.stop = threading.Event()
        try:
            self.conn = psycopg.connect(store.conninfo, autocommit=True)
            self.conn.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error as e:
            raise StoreError(f"cannot listen on {store.shown}: {one_line(e)}") from None
        self.thread = threading.Thread(target=self._run, name="tavli-pg-listen", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        psycopg = _driver()
        while not self.stop.is_set():
            try:
                for n in self.conn.notifies(timeout=self.TICK):
                    game_id, _, seq = n.payload.rpartition(" ")
                    try:
                        self.callback(Notice(game_id, int(seq)))
                    except Exception:  # a listener's bug must not stop the others' news
                        log.exception("online store listener failed")
                    if self.stop.is_set():
                        break
            except psycopg.Error:
                if self.stop.is_set():
                    break
                log.warning("online store listener lost its connection; reconnecting")
                self.stop.wait(1.0)
                try:
                    self.conn = psycopg.connect(self.store.conninfo, autocommit=True)
                    self.conn.execute(f"LISTEN {CHANNEL}")
                except psycopg.Error:
                    continue

    def close(self) -> None:
        self.stop.set()
        if threading.current_thread() is not self.thread:
            self.thread.join(timeout=5)
        self.conn.close()
        if self in self.store._subs:
            self.store._subs.remove(self)


__all__ = ["PostgresStore", "CHANNEL"]
