"""The store of online games (``tavli serve``), one class over both backends.

What it holds (schema: :data:`tavli.store.migrations.MIGRATIONS`):

* **games** (:class:`~tavli.store.base.GameRow`): settings, status, the dice commitment
  and the secret server seed, the sequence number of the last accepted action, the record
  once it is over;
* **seats** (:class:`~tavli.store.base.Seat`): white and black, a person (with the SHA-256
  of the seat token, never the token) or the AI;
* **the log** (:class:`~tavli.store.base.Action`): every accepted action of a game in
  order, numbered 1, 2, 3, … (``seq``, unique per game: an action for a number already
  taken is refused with :class:`~tavli.errors.StaleAction`, so a replayed or duplicated
  action changes nothing).

:meth:`OnlineStore.append` commits an action, the game's new status and record in one
transaction before it returns: an action is acknowledged only once it is stored. Then the
store tells its listeners (:meth:`OnlineStore.listen`): PostgreSQL with ``NOTIFY`` (every
process listening on the same database hears it), SQLite by its listeners polling the log.

:func:`tavli.store.factory.open_store` opens one from a ``--db`` value and brings the
schema up to date.

>>> from tavli.store.base import Action, Seat, new_game_row, token_hash
>>> from tavli.store.factory import open_store
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

import asyncio
import json
from collections.abc import Callable
from typing import Any

from tavli.errors import StaleAction, StoreError, one_line
from tavli.store import migrations
from tavli.store import sql as S
from tavli.store.base import (
    Action,
    Backend,
    GameRow,
    Listener,
    Seat,
    Store,
    Subscription,
    Tx,
    check_seat_changes,
    dumps,
    dumps_or_none,
    notice_payload,
    seat_column,
    stale,
    token_hash,
)

#: games per ``IN (…)`` list (SQLite allows some thousands of parameters)
IN_LIST = 200
#: seats marked seen per transaction
MARK_CHUNK = 100


def _game(r: tuple[Any, ...], record: Any = None) -> GameRow:
    return GameRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7],
                   json.loads(record) if record else None, r[8], r[9])


def _append_args(action: Action, status: str, record: dict[str, Any] | None,
                 news: str | None) -> tuple[tuple[Any, ...], tuple[Any, ...], str]:
    """The parameters of :meth:`Backend.append` for ``action``."""
    move_on = (action.seq, status, dumps_or_none(record), action.at, action.game_id,
               action.seq - 1)
    row = (action.game_id, action.seq, action.side, dumps(action.action),
           dumps(action.result), action.at)
    return move_on, row, notice_payload(action, news)


class OnlineStore(Store):
    """Online games, seats and logs in one database (``backend``: SQLite or PostgreSQL).
    Safe to share between threads."""

    schema = migrations.ONLINE

    def __init__(self, backend: Backend, *, schema: int | None = None) -> None:
        super().__init__(backend, schema=schema)
        #: its calls are quick enough to make on the server's event loop
        #: (:attr:`tavli.store.base.Backend.inline`)
        self.inline = backend.inline

    # --- writing -------------------------------------------------------------------------
    def create(self, game: GameRow, seats: list[Seat]) -> None:
        """Store a new game and its seats (one transaction)."""
        try:
            with self.backend.transaction() as tx:
                tx.run(S.INSERT_GAME, (
                    game.id, game.kind, game.variant, dumps(game.settings), game.status,
                    game.commitment, game.server_seed, game.last_seq, game.created,
                    game.updated, dumps_or_none(game.record)))
                tx.many(S.INSERT_SEAT, [(s.game_id, s.side, s.player, s.name, s.level,
                                         s.token_hash, s.joined, s.account_id)
                                        for s in seats])
        except self.backend.integrity as e:
            raise StoreError(f"game {game.id} cannot be stored: {one_line(e)}") from None

    def claim_seat(self, game_id: str, side: str, token_hash: str) -> bool:
        """Give the seat ``side`` of ``game_id`` a new token hash if nobody has joined it
        yet (one statement: of two claims at once, the later replaces the earlier, and
        the join action decides); whether it was free."""
        return self.backend.write(S.CLAIM_SEAT, (token_hash, game_id, side)) == 1

    def update_seat(self, game_id: str, side: str, **changes: Any) -> None:
        """Change a seat's ``name``, ``joined``, ``seen``, ``left``, ``token_hash`` or
        ``account_id``."""
        check_seat_changes(changes)
        if changes:
            cols = ", ".join(f"{seat_column(k)} = ?" for k in changes)
            self.backend.write(S.UPDATE_SEAT.format(changes=cols),
                               (*changes.values(), game_id, side))

    def mark_seen(self, seats: list[tuple[str, str]], at: float | None) -> None:
        """Set the ``seen`` time of many seats ``(game_id, side)`` at once (presence,
        every beat): a transaction per :data:`MARK_CHUNK` seats, in one order, so two
        never deadlock — and SQLite's lock, which the server's appends wait for, is
        never held for more than a chunk (a thousand seats in one transaction stopped
        every game for a tenth of a second each beat)."""
        rows = [(at, g, side) for g, side in sorted(seats)]
        for i in range(0, len(rows), MARK_CHUNK):
            with self.backend.transaction() as tx:
                tx.many(S.MARK_SEEN, rows[i:i + MARK_CHUNK])

    def append(self, action: Action, *, status: str, record: dict[str, Any] | None,
               news: str | None = None, then: Callable[[Tx], None] | None = None) -> None:
        """Commit ``action`` as the next of its game with the game's new ``status`` and
        ``record`` (None: the stored record stays as it is) in one transaction, then tell
        the listeners (the notice carries the action, and ``news`` for the other
        processes, when it fits: :func:`~tavli.store.base.notice_payload`).
        :class:`StaleAction` when ``action.seq`` is not the game's next number (nothing
        changes). ``then(tx)``: more to commit in the same transaction (the result of a
        game that ends, and the ratings of a rated one: :mod:`tavli.store.accounts`)."""
        args = _append_args(action, status, record, news)
        try:
            done = self.backend.append(*args, then)
        except self.backend.integrity:  # another connection took the number first
            raise StaleAction(f"game {action.game_id}: action {action.seq} is taken") from None
        if not done:
            self._refused(action)

    async def append_async(self, action: Action, *, status: str,
                           record: dict[str, Any] | None, news: str | None = None) -> None:
        """:meth:`append` from the server's event loop, never blocking it (PostgreSQL:
        an asyncio connection; SQLite: the same quick call)."""
        args = _append_args(action, status, record, news)
        try:
            done = await self.backend.append_async(*args)
        except self.backend.integrity:
            raise StaleAction(f"game {action.game_id}: action {action.seq} is taken") from None
        if not done:  # why, read in a thread (the loop is not stopped by a read)
            await asyncio.to_thread(self._refused, action)

    def _refused(self, action: Action) -> None:
        """Why an append was not stored: no such game, or a stale number."""
        last = self.backend.one(S.LAST_SEQ, (action.game_id,))
        if last is None:
            raise StoreError(f"no online game {action.game_id!r}")
        raise stale(action.game_id, last[0], action.seq)

    async def aclose(self) -> None:
        """Close what :meth:`append_async` opened on the running event loop."""
        await self.backend.aclose()

    # --- reading -------------------------------------------------------------------------
    def game(self, game_id: str) -> GameRow | None:
        """The game ``game_id``, or None."""
        row = self.backend.one(S.GAME, (game_id,))
        return _game(row[:-1], row[-1]) if row else None

    def games(self, status: str | None = None, limit: int = 100) -> list[GameRow]:
        """Games, the most recently updated first (``status``: only those), without
        their records."""
        rows = (self.backend.rows(S.GAMES_WITH_STATUS, (status, limit)) if status
                else self.backend.rows(S.GAMES, (limit,)))
        return [_game(r) for r in rows]

    def lobby(self, limit: int = 50) -> list[GameRow]:
        """The open games created with ``"listed": true`` (settings), the most recently
        updated first, without their records."""
        return [_game(r) for r in self.backend.rows(S.LOBBY, (limit,))]

    def seats(self, game_id: str) -> list[Seat]:
        """The seats of ``game_id``, white first."""
        return [Seat(*r) for r in self.backend.rows(S.SEATS, (game_id,))]

    def seats_of(self, game_ids: list[str]) -> dict[str, list[Seat]]:
        """The seats of many games (white first), by game id."""
        out: dict[str, list[Seat]] = {g: [] for g in game_ids}
        for i in range(0, len(game_ids), IN_LIST):
            part = game_ids[i:i + IN_LIST]
            for r in self.backend.rows(S.SEATS_OF.format(games=S.marks(len(part))), part):
                out[r[0]].append(Seat(*r))
        return out

    def seat_by_token(self, game_id: str, token: str) -> Seat | None:
        """The seat of ``game_id`` whose token is ``token``, or None."""
        row = self.backend.one(S.SEAT_BY_TOKEN, (game_id, token_hash(token)))
        return Seat(*row) if row else None

    def actions(self, game_id: str, after: int = 0) -> list[Action]:
        """The actions of ``game_id`` numbered after ``after``, in order."""
        return [Action(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5])
                for r in self.backend.rows(S.ACTIONS, (game_id, after))]

    # --- listening -----------------------------------------------------------------------
    def listen(self, callback: Listener) -> Subscription:
        """Call ``callback(notice)`` (from a thread of the store's) for each action
        appended from now on, by this store or any other on the same database."""
        return self.backend.listen(callback)

    async def listen_async(self, callback: Listener) -> Subscription | None:
        """Call ``callback(notice)`` on the running event loop for each action appended
        from now on, by any store on the database, when the backend listens that way
        (PostgreSQL); else None (:meth:`listen` then)."""
        return await self.backend.listen_async(callback)


__all__ = ["OnlineStore"]
