"""The store of online games, one interface over two backends.

What it holds (schema: :mod:`tavli.online.migrations`):

* **games** (:class:`GameRow`): settings, status, the dice commitment and the secret
  server seed, the sequence number of the last accepted action, the record once it is over;
* **seats** (:class:`Seat`): white and black, a person (with the SHA-256 of the seat
  token, never the token) or the AI;
* **the log** (:class:`Action`): every accepted action of a game in order, numbered
  1, 2, 3, … (``seq``, unique per game: an action for a number already taken is refused
  with :class:`~tavli.errors.StaleAction`, so a replayed or duplicated action changes
  nothing).

:meth:`OnlineStore.append` commits an action, the game's new status and record in one
transaction before it returns: an action is acknowledged only once it is stored. Then the
store tells its listeners (:meth:`OnlineStore.listen`): PostgreSQL with ``NOTIFY`` (every
process listening on the same database hears it), SQLite by its listeners polling the log.

:func:`open_store` opens either from a ``--db`` value (:mod:`tavli.online.dburl`) and
brings the schema up to date.

>>> store = open_store(":memory:")
>>> store.create(new_game_row("g1", "game", "portes", {}, "0" * 64, "1" * 64),
...              [Seat("g1", "white", "human", token_hash=token_hash("tok-w")),
...               Seat("g1", "black", "ai", level="expert")])
>>> store.append(Action("g1", 1, "white", {"type": "roll"}, {"dice": [3, 1]}),
...              status="playing", record=None)
>>> [a.seq for a in store.actions("g1")], store.game("g1").last_seq
([1], 1)
>>> store.append(Action("g1", 1, "white", {"type": "roll"}, {}), status="playing",
...              record=None)
Traceback (most recent call last):
...
tavli.errors.StaleAction: game g1 is at action 1: action 1 is not the next (2)
>>> store.seat_by_token("g1", "tok-w").side, store.seat_by_token("g1", "forged")
('white', None)
>>> store.close()
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tavli.errors import StaleAction, StoreError
from tavli.online.dburl import parse_db_url

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
    return json.dumps(value, separators=(",", ":"))


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
    """What listeners hear: game ``game_id`` has accepted action ``seq``."""

    game_id: str
    seq: int


Listener = Callable[[Notice], None]


class Subscription(ABC):
    """A running listener; :meth:`close` stops it (and waits for its thread)."""

    @abstractmethod
    def close(self) -> None: ...


class OnlineStore(ABC):
    """Online games, seats and logs in one database (:class:`SqliteStore`,
    :class:`PostgresStore`). Safe to share between threads."""

    #: how messages name the database (a password hidden)
    shown: str = ""
    #: its calls are quick enough to make on the server's event loop (a local file: no
    #: waiting on a network; :meth:`tavli.online.hub.Hub.call`)
    inline: bool = False

    @abstractmethod
    def version(self) -> int:
        """The schema version of the database."""

    @abstractmethod
    def create(self, game: GameRow, seats: list[Seat]) -> None:
        """Store a new game and its seats (one transaction)."""

    @abstractmethod
    def game(self, game_id: str) -> GameRow | None:
        """The game ``game_id``, or None."""

    @abstractmethod
    def games(self, status: str | None = None, limit: int = 100) -> list[GameRow]:
        """Games, the most recently updated first (``status``: only those), without
        their records."""

    @abstractmethod
    def lobby(self, limit: int = 50) -> list[GameRow]:
        """The open games created with ``"listed": true`` (settings), the most recently
        updated first, without their records."""

    @abstractmethod
    def claim_seat(self, game_id: str, side: str, token_hash: str) -> bool:
        """Give the seat ``side`` of ``game_id`` a new token hash if nobody has joined it
        yet (one statement: of two claims at once, the later replaces the earlier, and
        the join action decides); whether it was free."""

    @abstractmethod
    def seats(self, game_id: str) -> list[Seat]:
        """The seats of ``game_id``, white first."""

    @abstractmethod
    def seat_by_token(self, game_id: str, token: str) -> Seat | None:
        """The seat of ``game_id`` whose token is ``token``, or None."""

    @abstractmethod
    def update_seat(self, game_id: str, side: str, **changes: Any) -> None:
        """Change a seat's ``name``, ``joined``, ``seen``, ``left`` or ``token_hash``."""

    def mark_seen(self, seats: list[tuple[str, str]], at: float | None) -> None:
        """Set the ``seen`` time of many seats ``(game_id, side)`` at once (one
        transaction where the backend can: presence, every beat)."""
        for game_id, side in seats:
            self.update_seat(game_id, side, seen=at)

    def seats_of(self, game_ids: list[str]) -> dict[str, list[Seat]]:
        """The seats of many games (white first), by game id."""
        return {g: self.seats(g) for g in game_ids}

    @abstractmethod
    def append(self, action: Action, *, status: str, record: dict[str, Any] | None) -> None:
        """Commit ``action`` as the next of its game with the game's new ``status`` and
        ``record`` (None: the stored record stays as it is) in one transaction, then tell
        the listeners. :class:`StaleAction` when
        ``action.seq`` is not the game's next number (nothing changes)."""

    @abstractmethod
    def actions(self, game_id: str, after: int = 0) -> list[Action]:
        """The actions of ``game_id`` numbered after ``after``, in order."""

    @abstractmethod
    def listen(self, callback: Listener) -> Subscription:
        """Call ``callback(notice)`` (from a thread of the store's) for each action
        appended from now on, by this store or any other on the same database."""

    @abstractmethod
    def close(self) -> None:
        """Close the connections (listeners first)."""

    def __enter__(self) -> OnlineStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def check_seat_changes(changes: dict[str, Any]) -> None:
    bad = set(changes) - {"name", "joined", "seen", "left", "token_hash"}
    if bad:
        raise TypeError(f"a seat has no field(s) {sorted(bad)} to change")


def seat_column(name: str) -> str:
    """The column of a seat's field (``left`` is ``left_at``: LEFT is an SQL word)."""
    return "left_at" if name == "left" else name


def stale(game_id: str, last: int, seq: int) -> StaleAction:
    return StaleAction(f"game {game_id} is at action {last}: action {seq} is not the next "
                       f"({last + 1})")


def open_store(db: str, *, schema: int | None = None) -> OnlineStore:
    """The store named by ``db`` (a ``--db`` value), its schema brought to ``schema``
    (default: the latest). Errors are one-line :class:`StoreError`s: a malformed URL, a
    database that cannot be reached or opened, a driver not installed."""
    url = parse_db_url(db)
    if url.backend == "postgresql":
        from tavli.online.pg_store import PostgresStore

        return PostgresStore(url, schema=schema)
    from tavli.online.sqlite_store import SqliteStore

    return SqliteStore(url, schema=schema)


__all__ = ["OnlineStore", "GameRow", "Seat", "Action", "Notice", "Subscription",
           "open_store", "new_game_row", "new_token", "token_hash", "STATUSES",
           "StoreError"]
