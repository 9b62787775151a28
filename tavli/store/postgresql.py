"""PostgreSQL under the stores (psycopg 3 and its connection pool; ``pip install
'tavli[postgresql]'``): for a real deployment, and for several ``tavli serve`` processes
on one or many machines sharing one database.

What it does its own way (the statements are :mod:`tavli.store.sql`'s):

* An online append is one statement: it moves the game's row on from the number before
  the action's (:data:`~tavli.store.sql.MOVE_ON`: a row another process is moving on is
  locked until that commits, then read again and no longer matches), inserts the action
  only if it did, and calls ``pg_notify('tavli_actions', PAYLOAD)``: PostgreSQL delivers
  the notice at commit, to every connection that has run ``LISTEN tavli_actions`` — the
  listeners of every process. The payload is the action itself as JSON, and what the
  appending process made for the others (the update it sends its own connections:
  :func:`~tavli.store.base.notice_payload`), so the other processes neither read the log
  nor work the game to tell their players; a payload over 8,000 bytes (PostgreSQL's
  limit) carries the action alone, an action over it ``"GAME SEQ"``: look at the log.
  The unique ``(game_id, seq)`` is the last guard: two processes racing for one number,
  one wins and the other is refused.
* The server's appends go through asyncio connections (:meth:`PostgresBackend.append_async`:
  the event loop waits for the database without blocking, no thread involved), committed
  in groups (:class:`_Appender`: PostgreSQL commits the notifying transactions one at a
  time); its listener is an asyncio connection too (:meth:`PostgresBackend.listen_async`:
  the notices are read on the event loop). The thread-pool ways (:meth:`append`,
  :meth:`listen`: a connection and a thread of its own) remain for what is not on the
  server's hot path (creating games, joining, presence, the tests, SQLite's callers).
* The migrations take an advisory lock (:attr:`tavli.store.sql.Dialect.lock`).

A notice can be missed (a listener reconnecting): a reader that keeps the last number it
has applied sees the gap at the next notice (or when a client arrives) and catches up
with :meth:`~tavli.store.online.OnlineStore.actions`, so nothing is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from tavli.errors import StoreError, one_line
from tavli.store.base import Backend, Listener, Listening, Subscription, Tx, read_notice
from tavli.store.dburl import DbUrl
from tavli.store.sql import MOVE_ON, POSTGRESQL

CHANNEL = "tavli_actions"
CONNECT_TIMEOUT = 5   # seconds, unless the URL says otherwise (connect_timeout=...)
POOL_SIZE = 8
POOL_WAIT = 10        # seconds a query waits for a connection before it fails
APPENDERS = 2         # asyncio connections committing a server's appends (in groups)
GROUP = 64            # appends committed together at most
#: an online append in one statement: MOVE_ON, the action if the game moved on, the notice
#: (parameters: MOVE_ON's; seq, side, action, result, at; the channel and the notice)
APPEND = ("WITH g AS (" + MOVE_ON + " RETURNING id), "
          "a AS (INSERT INTO online_actions (game_id, seq, side, action, result, at) "
          "SELECT id, ?, ?, ?, ?, ? FROM g RETURNING seq) "
          "SELECT pg_notify(?, ?) FROM a")
log = logging.getLogger(__name__)


def _driver() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError("PostgreSQL needs the psycopg driver: pip install "
                         "'tavli[postgresql]'") from None
    return psycopg


class PostgresBackend(Backend):
    """A PostgreSQL database (``url``: a libpq URL), through a pool of ``pool_size``
    connections in autocommit (a transaction is a block of its own)."""

    dialect = POSTGRESQL
    cannot = "cannot use the PostgreSQL database"

    def __init__(self, url: DbUrl, *, pool_size: int = POOL_SIZE) -> None:
        psycopg = _driver()
        from psycopg_pool import ConnectionPool, PoolTimeout

        self.errors = (psycopg.Error,)
        self.integrity = (psycopg.IntegrityError,)
        self._lost = (psycopg.OperationalError, PoolTimeout)
        super().__init__(url.shown)
        try:
            info = psycopg.conninfo.conninfo_to_dict(url.target)
        except psycopg.Error as e:
            raise StoreError(f"--db: malformed PostgreSQL URL {self.shown}: {one_line(e)}"
                             ) from None
        info.setdefault("connect_timeout", CONNECT_TIMEOUT)
        self.conninfo = psycopg.conninfo.make_conninfo(**info)
        with self.opening():
            psycopg.connect(self.conninfo).close()  # reachable, the database there?
        self.pool_size = pool_size
        self._appender: _Appender | None = None
        self._pool = ConnectionPool(self.conninfo, min_size=1, max_size=pool_size,
                                    open=True, name="tavli-store", timeout=POOL_WAIT,
                                    kwargs={"autocommit": True})

    @contextmanager
    def _connection(self, tx: bool) -> Iterator[Tx]:
        try:
            with self._pool.connection() as conn:
                if tx:
                    with conn.transaction():
                        yield Tx(conn, self.dialect)
                else:
                    yield Tx(conn, self.dialect)
        except self._lost as e:
            raise StoreError(f"the PostgreSQL database {self.shown}: {one_line(e)}") from None

    def transaction(self) -> AbstractContextManager[Tx]:
        return self._connection(True)

    def session(self) -> AbstractContextManager[Tx]:
        return self._connection(False)

    def append(self, move_on: Sequence[Any], action: Sequence[Any], notice: str,
               then: Callable[[Tx], None] | None = None) -> bool:
        if then is not None:  # more to commit with it: a transaction of several statements
            return super().append(move_on, action, notice, then)
        with self.session() as tx:
            return bool(tx.rows(APPEND, (*move_on, *action[1:], CHANNEL, notice)))

    def notify(self, tx: Tx, notice: str) -> None:
        tx.run("SELECT pg_notify(?, ?)", (CHANNEL, notice))

    async def append_async(self, move_on: Sequence[Any], action: Sequence[Any],
                           notice: str) -> bool:
        loop = asyncio.get_running_loop()
        if self._appender is None or self._appender.loop is not loop:
            # another loop's (a test's, gone) is left behind
            self._appender = _Appender(self, loop)
        return await self._appender.append((*move_on, *action[1:], CHANNEL, notice),
                                           action[0])

    async def aclose(self) -> None:
        got, self._appender = self._appender, None
        if got is not None and got.loop is asyncio.get_running_loop():
            await got.close()

    def listen(self, callback: Listener) -> Subscription:
        return _Listen(self, callback).start()

    async def listen_async(self, callback: Listener) -> Subscription | None:
        sub = _AsyncListen(self, callback)
        try:
            await sub.connect()
        except _driver().Error as e:
            raise StoreError(f"cannot listen on {self.shown}: {one_line(e)}") from None
        sub.task = asyncio.get_running_loop().create_task(sub.run())
        return sub

    def disconnect(self) -> None:
        self._pool.close()


class _Appender:
    """The appends of one event loop, committed in groups: the appends that arrive
    while a group is being committed wait (as they would for a connection) and go
    together in the next — one transaction, sent in one round trip (one query text) on
    one of :data:`APPENDERS` asyncio connections. PostgreSQL commits
    the notifying transactions one at a time (a lock for the whole database), so one
    commit for many appends is what lets the server keep up; each append still
    moves its game on only from the number before it (the row's lock and the
    ``WHERE``), and the games of a group are locked in the order of their ids, so two
    groups never deadlock. A group that fails (the unique key, a lost connection) is
    retried one append at a time, so one append's error is that append's alone."""

    def __init__(self, backend: PostgresBackend, loop: asyncio.AbstractEventLoop) -> None:
        self.backend = backend
        self.loop = loop
        self.sql = backend.dialect.sql(APPEND)
        self.queue: list[tuple[tuple[Any, ...], str, asyncio.Future]] = []
        self.running = 0
        self.pool: Any = None
        self.opening: asyncio.Lock = asyncio.Lock()

    async def append(self, params: tuple[Any, ...], game_id: str) -> bool:
        fut = self.loop.create_future()
        self.queue.append((params, game_id, fut))
        if self.running < APPENDERS:
            self.running += 1
            self.loop.create_task(self._flush())
        return await fut

    async def _open(self) -> Any:
        async with self.opening:
            if self.pool is None:
                from psycopg_pool import AsyncConnectionPool

                pool = AsyncConnectionPool(self.backend.conninfo, min_size=1,
                                           max_size=APPENDERS, open=False,
                                           name="tavli-store-appends", timeout=POOL_WAIT,
                                           kwargs={"autocommit": True})
                await pool.open()
                self.pool = pool
        return self.pool

    async def _flush(self) -> None:
        group: list[tuple[tuple[Any, ...], str, asyncio.Future]] = []
        try:
            while self.queue:
                group, self.queue = self.queue[:GROUP], self.queue[GROUP:]
                group.sort(key=lambda item: item[1])  # the rows locked in one order
                try:
                    done = await self._commit([p for p, _, _ in group])
                except Exception:  # noqa: BLE001 - told to each append below
                    done = None
                if done is None:  # one at a time: each its own outcome
                    for params, _, fut in group:
                        try:
                            ok = (await self._commit([params]) or [False])[0]
                        except Exception as e:  # noqa: BLE001 - this append's error
                            if not fut.done():
                                fut.set_exception(self._error(e))
                            continue
                        if not fut.done():
                            fut.set_result(ok)
                    continue
                for (_, _, fut), ok in zip(group, done, strict=True):
                    if not fut.done():
                        fut.set_result(ok)
        except BaseException as e:  # cancelled (the loop ends): nobody waits forever
            for _, _, fut in group + self.queue:
                if not fut.done():
                    fut.set_exception(e)
            raise
        finally:
            self.running -= 1

    async def _commit(self, group: list[tuple[Any, ...]]) -> list[bool]:
        """The appends of ``group`` in one transaction, one round trip: whether each
        moved its game on. The statements go as one query text (PostgreSQL runs the
        statements of one such query as one transaction, and a failing one rolls them
        all back), its values bound by psycopg's client-side cursor (quoted by libpq);
        psycopg's pipeline mode did the same with a busy wait for the results (a fifth
        of a server's CPU)."""
        pool = await self._open()
        async with pool.connection() as conn:
            cur = _driver().AsyncClientCursor(conn)
            await cur.execute("; ".join([self.sql] * len(group)),
                              [x for p in group for x in p])
            done = []
            while True:
                done.append(bool(await cur.fetchall()))
                if not cur.nextset():
                    break
            if len(done) != len(group):
                raise StoreError(f"{len(done)} results for {len(group)} appends")
            return done

    def _error(self, e: BaseException) -> BaseException:
        if isinstance(e, self.backend.integrity):
            return e  # the caller's StaleAction
        if isinstance(e, self.backend._lost):
            return StoreError(f"the PostgreSQL database {self.backend.shown}: "
                              f"{one_line(e)}")
        return e

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()


class _Listen(Listening):
    """``LISTEN tavli_actions`` on a connection of its own, read by a thread."""

    TICK = 0.2  # seconds between looks at the stop flag

    def __init__(self, backend: PostgresBackend, callback: Listener) -> None:
        psycopg = _driver()
        super().__init__(backend, callback, "tavli-pg-listen")
        self.conninfo = backend.conninfo
        try:
            self.conn = self._connect()
        except psycopg.Error as e:
            raise StoreError(f"cannot listen on {backend.shown}: {one_line(e)}") from None

    def _connect(self) -> Any:
        conn = _driver().connect(self.conninfo, autocommit=True)
        conn.execute(f"LISTEN {CHANNEL}")
        return conn

    def run(self) -> None:
        psycopg = _driver()
        while not self.stop.is_set():
            try:
                for n in self.conn.notifies(timeout=self.TICK):
                    self.tell(read_notice(n.payload))
                    if self.stop.is_set():
                        break
            except psycopg.Error:
                if self.stop.is_set():
                    break
                log.warning("online store listener lost its connection; reconnecting")
                self.stop.wait(1.0)
                try:
                    self.conn = self._connect()
                except psycopg.Error:
                    continue

    def hang_up(self) -> None:
        self.conn.close()


class _AsyncListen(Subscription):
    """``LISTEN tavli_actions`` on an asyncio connection of its own, read by a task of
    the event loop (the server's: no thread, no trip between threads per notice)."""

    def __init__(self, backend: PostgresBackend, callback: Listener) -> None:
        self.backend = backend
        self.callback = callback
        self.conn: Any = None
        self.task: asyncio.Task | None = None

    async def connect(self) -> None:
        self.conn = await _driver().AsyncConnection.connect(self.backend.conninfo,
                                                            autocommit=True)
        await self.conn.execute(f"LISTEN {CHANNEL}")

    async def run(self) -> None:
        psycopg = _driver()
        while True:
            try:
                async for n in self.conn.notifies():
                    try:
                        self.callback(read_notice(n.payload))
                    except Exception:  # a listener's bug must not stop the others' news
                        log.exception("online store listener failed")
            except psycopg.Error:
                log.warning("online store listener lost its connection; reconnecting")
                await asyncio.sleep(1.0)
                with contextlib.suppress(psycopg.Error):
                    await self.conn.close()
                with contextlib.suppress(psycopg.Error):
                    await self.connect()

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def aclose(self) -> None:
        self.close()
        if self.task is not None:
            with contextlib.suppress(BaseException):
                await self.task
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()


__all__ = ["PostgresBackend", "CHANNEL"]
