"""What every module of the store shares: the rows, the seat tokens, and the two interfaces
between the stores and the databases.

* The online store's rows: a game (:class:`GameRow`), its seats (:class:`Seat`: a person,
  with the SHA-256 of the seat token — never the token —, or the AI), an accepted action
  (:class:`Action`, numbered 1, 2, 3, … per game) and what listeners hear of one
  (:class:`Notice`).
* :class:`Backend`: one database as the stores use it — statements in the neutral form of
  :mod:`tavli.store.sql`, run in a transaction (:meth:`Backend.transaction`) or one at a
  time (:meth:`Backend.session`), each rendered by the backend's dialect — plus the two
  things the engines do their own way: appending an online action with its notice
  (:meth:`Backend.append`) and listening (:meth:`Backend.listen`). SQLite:
  :mod:`tavli.store.sqlite`; PostgreSQL: :mod:`tavli.store.postgresql`.
* :class:`Store`: a store over a backend, its schema brought up to date when it opens
  (:mod:`tavli.store.migrations`): the online store (:mod:`tavli.store.online`) and the
  browser app's (:mod:`tavli.store.local`).

>>> token_hash("tok")[:16], len(new_token()) >= 32
('1a7674eb4ee78df7', True)
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from tavli.errors import StaleAction, StoreError, one_line
from tavli.store import migrations
from tavli.store.sql import INSERT_ACTION, MOVE_ON, Dialect

log = logging.getLogger(__name__)
STATUSES = ("open", "playing", "over", "abandoned")
#: bytes of randomness in a seat token (192 bits; the issue asks for at least 128)
TOKEN_BYTES = 24


def new_token() -> str:
    """A fresh seat token: 192 random bits, URL-safe text."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, hex. (A token is 192 random
    bits, so a fast hash is enough: there is nothing to guess from it.)"""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def dumps(value: Any) -> str:
    """JSON as stored: compact."""
    return json.dumps(value, separators=(",", ":"))


def dumps_or_none(value: Any) -> str | None:
    return None if value is None else dumps(value)


@dataclass(frozen=True)
class GameRow:
    """One online game or match as stored."""

    id: str
    kind: str                 # game or match
    variant: str              # a game or a rotation (tavli)
    settings: dict[str, Any]  # what it is set up with (points, rules, ...)
    status: str               # open, playing, over, abandoned
    commitment: str           # SHA-256 of the server seed (hex), public
    server_seed: str          # secret until the end
    last_seq: int = 0
    record: dict[str, Any] | None = None
    created: float = 0.0
    updated: float = 0.0


def new_game_row(game_id: str, kind: str, variant: str, settings: dict[str, Any],
                 commitment: str, server_seed: str) -> GameRow:
    """The row of a game just created (status ``open``: seats to fill)."""
    now = time.time()
    return GameRow(game_id, kind, variant, settings, "open", commitment, server_seed,
                   created=now, updated=now)


@dataclass(frozen=True)
class Seat:
    """A side of a game: a person (``token_hash``, ``name`` once joined) or the AI."""

    game_id: str
    side: str                 # white or black
    player: str               # human or ai
    name: str | None = None
    level: str | None = None  # the AI's level
    token_hash: str | None = None
    joined: float | None = None
    seen: float | None = None   # last sign of life of a connection (presence)
    left: float | None = None   # when its last connection to a process closed
    account_id: str | None = None  # the player's account (None: a guest, or the AI)
    chat: bool | None = None       # the seat's chat on or off (None: on for an account)
    muted: bool | None = None      # the seat does not see its opponent's messages


@dataclass(frozen=True)
class Action:
    """One accepted action: number ``seq`` of its game, by ``side`` (None: the server),
    what was asked (``action``) and what it did (``result``)."""

    game_id: str
    seq: int
    side: str | None
    action: dict[str, Any]
    result: dict[str, Any]
    at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class Notice:
    """What listeners hear: game ``game_id`` has accepted action ``seq``, and the action
    itself when the notice could carry it (``action``; None: "look at the log" — an
    action too large for PostgreSQL's notice, or a notice of the old form), with what
    the appending process added for the others (``news``: text the store passes on
    untouched, when it fits too). A listener that keeps the last number it has applied
    applies a carried action without reading the log; one that sees a gap (a missed
    notice) catches up from the log."""

    game_id: str
    seq: int
    action: Action | None = field(default=None, compare=False, repr=False)
    news: str | None = field(default=None, compare=False, repr=False)


Listener = Callable[[Notice], None]

#: the largest notice payload (PostgreSQL refuses more than 8,000 bytes)
NOTICE_MAX = 7999


def _fits(text: str) -> bool:
    return len(text) <= NOTICE_MAX // 4 or len(text.encode()) <= NOTICE_MAX


def notice_payload(action: Action, news: str | None = None) -> str:
    """What an append tells the listeners of ``action``: the action as compact JSON, and
    after a line break ``news`` (see :class:`Notice`), when that fits in
    :data:`NOTICE_MAX` bytes; else the action alone when it fits; else ``"GAME SEQ"``
    (look at the log).

    >>> notice_payload(Action("g1", 3, "white", {"type": "roll"}, {"dice": [3, 1]}, 1.5))
    '{"g":"g1","s":3,"d":"white","a":{"type":"roll"},"r":{"dice":[3,1]},"t":1.5}'
    >>> notice_payload(Action("g1", 4, "white", {"type": "x" * 8000}, {}, 1.5))
    'g1 4'
    >>> n = read_notice(notice_payload(Action("g1", 3, None, {}, {}, 2.0), "news"))
    >>> n, n.action, n.news
    (Notice(game_id='g1', seq=3), Action(game_id='g1', seq=3, side=None, action={}, \
result={}, at=2.0), 'news')
    >>> read_notice(notice_payload(Action("g1", 3, None, {}, {}, 2.0), "x" * 8000)).news
    >>> read_notice('g1 4')
    Notice(game_id='g1', seq=4)
    """
    text = json.dumps({"g": action.game_id, "s": action.seq, "d": action.side,
                       "a": action.action, "r": action.result, "t": action.at},
                      separators=(",", ":"), ensure_ascii=False)
    if news is not None:
        full = text + "\n" + news
        if _fits(full):
            return full
    if _fits(text):
        return text
    return f"{action.game_id} {action.seq}"


def read_notice(payload: str) -> Notice:
    """The notice of a payload of :func:`notice_payload`."""
    if payload.startswith("{"):
        text, sep, news = payload.partition("\n")  # JSON text has no raw line break
        d = json.loads(text)
        return Notice(d["g"], d["s"], Action(d["g"], d["s"], d["d"], d["a"], d["r"], d["t"]),
                      news if sep else None)
    game_id, _, seq = payload.rpartition(" ")
    return Notice(game_id, int(seq))


class Subscription(ABC):
    """A running listener; :meth:`close` stops it (and waits for its thread), or
    :meth:`aclose` from an event loop."""

    @abstractmethod
    def close(self) -> None: ...

    async def aclose(self) -> None:
        """:meth:`close` from an event loop (in a thread: it may wait for one)."""
        await asyncio.to_thread(self.close)


class Listening(Subscription):
    """A backend's listener: a thread of its own (:meth:`run`, until :attr:`stop` is set)
    that hears of appended actions and tells ``callback``; closing it stops the thread,
    then :meth:`hang_up` closes its connection."""

    def __init__(self, backend: Backend, callback: Listener, name: str) -> None:
        self.backend = backend
        self.callback = callback
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name=name, daemon=True)

    def start(self) -> Listening:
        self.backend._subs.append(self)
        self.thread.start()
        return self

    @abstractmethod
    def run(self) -> None: ...

    @abstractmethod
    def hang_up(self) -> None: ...

    def wake(self) -> None:
        """Cut the thread's wait short (it is stopping)."""

    def tell(self, notice: Notice) -> None:
        try:
            self.callback(notice)
        except Exception:  # a listener's bug must not stop the others' news
            log.exception("online store listener failed")

    def close(self) -> None:
        self.stop.set()
        self.wake()
        if threading.current_thread() is not self.thread:
            self.thread.join(timeout=5)
        self.hang_up()
        if self in self.backend._subs:
            self.backend._subs.remove(self)


def check_seat_changes(changes: dict[str, Any]) -> None:
    bad = set(changes) - {"name", "joined", "seen", "left", "token_hash", "account_id", "chat",
                          "muted"}
    if bad:
        raise TypeError(f"a seat has no field(s) {sorted(bad)} to change")


def seat_column(name: str) -> str:
    """The column of a seat's field (``left`` is ``left_at``: LEFT is an SQL word)."""
    return "left_at" if name == "left" else name


def stale(game_id: str, last: int, seq: int) -> StaleAction:
    return StaleAction(f"game {game_id} is at action {last}: action {seq} is not the next "
                       f"({last + 1})")


class Tx:
    """A connection in use (a sqlite3 or psycopg connection): statements in the form of
    :mod:`tavli.store.sql`, rendered by ``dialect``."""

    def __init__(self, conn: Any, dialect: Dialect) -> None:
        self.conn = conn
        self.dialect = dialect

    def run(self, statement: str, args: Sequence[Any] = ()) -> Any:
        """Run one statement; its cursor (``rowcount``, ``fetchall``)."""
        return self.conn.execute(self.dialect.sql(statement), tuple(args))

    def many(self, statement: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row of parameters."""
        rows = list(rows)
        if rows:
            self.conn.cursor().executemany(self.dialect.sql(statement), rows)

    def rows(self, statement: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.run(statement, args).fetchall()

    def dicts(self, statement: str, args: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """The rows as dicts by column name."""
        cur = self.run(statement, args)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


class Backend(ABC):
    """One database, SQLite or PostgreSQL, as the stores use it. Safe to share between
    threads."""

    dialect: ClassVar[Dialect]
    #: how messages name the database (a password hidden)
    shown: str = ""
    #: its calls are quick enough to make on the server's event loop (a local file: no
    #: waiting on a network; :meth:`tavli.online.hub.Hub.call`)
    inline: ClassVar[bool] = False
    #: the start of the error when it cannot be opened ("cannot open the SQLite database")
    cannot: ClassVar[str] = "cannot open the database"
    #: the driver's errors (a database that cannot be opened), and those of a constraint
    errors: tuple[type[BaseException], ...] = ()
    integrity: tuple[type[BaseException], ...] = ()

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self._subs: list[Listening] = []

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Tx]:
        """One transaction: committed at the end of the block, rolled back if it raises."""

    @abstractmethod
    def session(self) -> AbstractContextManager[Tx]:
        """A connection whose statements each commit on their own (reads)."""

    @abstractmethod
    def listen(self, callback: Listener) -> Subscription:
        """Call ``callback(notice)`` (from a thread of the backend's) for each online
        action appended from now on, by any store on the database."""

    async def listen_async(self, callback: Listener) -> Subscription | None:
        """Call ``callback(notice)`` on the running event loop for each online action
        appended from now on (PostgreSQL: an asyncio connection, no thread); None when
        the backend has no such listener (then :meth:`listen`)."""
        return None

    @abstractmethod
    def disconnect(self) -> None:
        """Close the connections of the stores (not the listeners')."""

    def close(self) -> None:
        """Close the connections (listeners first)."""
        for sub in list(self._subs):
            sub.close()
        self.disconnect()

    @contextmanager
    def opening(self) -> Iterator[None]:
        """The driver's errors while the database opens, as one-line :class:`StoreError`s."""
        try:
            yield
        except self.errors as e:
            raise StoreError(f"{self.cannot} {self.shown}: {one_line(e)}") from None

    def rows(self, statement: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.session() as tx:
            return tx.rows(statement, args)

    def one(self, statement: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = self.rows(statement, args)
        return rows[0] if rows else None

    def dicts(self, statement: str, args: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self.session() as tx:
            return tx.dicts(statement, args)

    def write(self, statement: str, args: Sequence[Any] = ()) -> int:
        """One statement in a transaction of its own; the rows it changed."""
        with self.transaction() as tx:
            return tx.run(statement, args).rowcount

    def append(self, move_on: Sequence[Any], action: Sequence[Any], notice: str,
               then: Callable[[Tx], None] | None = None) -> bool:
        """Store an online action if its game moves on from the number before it (the
        parameters of :data:`~tavli.store.sql.MOVE_ON` and
        :data:`~tavli.store.sql.INSERT_ACTION`), in one transaction; whether it did.
        ``then(tx)``, if given, runs in the same transaction once the action is in (what
        must commit with it or not at all: a rated result's ratings). (Here the listeners
        read the log, so ``notice``, :func:`notice_payload`, goes unused.)"""
        with self.transaction() as tx:
            if tx.run(MOVE_ON, move_on).rowcount != 1:
                return False
            tx.run(INSERT_ACTION, action)
            if then is not None:
                then(tx)
                self.notify(tx, notice)
        return True

    def notify(self, tx: Tx, notice: str) -> None:
        """Tell the other processes' listeners, at commit, that an action is in (the
        ``notice``: :func:`notice_payload`), when the database does not tell them itself
        (SQLite's listeners read the log: nothing to do)."""
        return

    async def append_async(self, move_on: Sequence[Any], action: Sequence[Any],
                           notice: str) -> bool:
        """:meth:`append` from the event loop without blocking it: here the same call
        (a backend whose calls are quick, :attr:`inline`); PostgreSQL's goes through an
        asyncio connection."""
        return self.append(move_on, action, notice)

    async def aclose(self) -> None:  # noqa: B027 - nothing to close unless overridden
        """Close what :meth:`append_async` opened on the running event loop."""


class Store:
    """A store over ``backend``, its :attr:`schema` brought to version ``schema`` (None:
    the latest) as it opens; closing it closes the backend."""

    schema: ClassVar[migrations.Schema]

    def __init__(self, backend: Backend, *, schema: int | None = None) -> None:
        self.backend = backend
        self.shown = backend.shown
        try:
            with backend.opening(), backend.transaction() as tx:
                migrations.migrate(tx, self.schema, schema, backend.shown)
        except BaseException:
            backend.close()
            raise

    def version(self) -> int:
        """The schema version of the database."""
        with self.backend.session() as tx:
            return migrations.version(tx, self.schema)

    def close(self) -> None:
        """Close the connections (listeners first)."""
        self.backend.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["GameRow", "Seat", "Action", "Notice", "Listener", "notice_payload", "read_notice",
           "NOTICE_MAX", "Subscription", "Listening",
           "Backend", "Tx", "Store", "new_game_row", "new_token", "token_hash", "STATUSES",
           "StoreError"]
