"""The connections of one server process, per game: fan-out of accepted actions and
presence (docs/server.md, "Fan-out").

Each connection remembers the last action number it has been sent. When a game moves on
— an action committed here, or a notice from the store's :meth:`listen` hook (another
process on the same database: PostgreSQL's LISTEN/NOTIFY) — :meth:`Hub.push` reads the
game as it stands and sends every connection of that game the actions it lacks with the
new state, in order, once: a late or repeated notice sends nothing.

Presence: a seat is connected when it has a connection to this process, or when another
process has marked it seen (the seat's ``seen`` time in the store, written every
:data:`PRESENCE_BEAT` seconds while connected there) within the last 2.5 beats and it has
not left since (``left``: when its last connection to a process closed). Each process
reads the seats of its games every beat and tells its connections when the presence
changed, with how long each seat has been away (:func:`tavli.online.clock.absent_for`);
a disconnection elsewhere shows within about a beat (on this process: at once).
Spectators are counted on this process only.

Clocks: after each state it sends, the hub sets a timer for the moment the running
side's flag falls; then it reads the game, and reading calls time (the service commits
the server's ``timeout``), so a flag falls even when nobody acts. Every process with a
connection to the game does it; one commits, the others' tries are harmless stale ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket
from starlette.concurrency import run_in_threadpool

from tavli.errors import AccessDenied, DiceProofError, StaleAction, StoreError, TavliError
from tavli.online.clock import PRESENCE_BEAT, absent_for, connected
from tavli.online.protocol import Bucket, ProtocolError, action_out
from tavli.online.service import OnlineGames
from tavli.store.base import Notice, Subscription

FLAG_GRACE = 0.02  # seconds after a flag's time the hub reads the game (clock rounding)


def online_error(e: TavliError) -> Any:
    """The answer (an :class:`tavli.web.errors.ApiError`: status, message, code) to an
    error of the online service or protocol."""
    from tavli.web.errors import ApiError, engine_error

    if isinstance(e, ProtocolError):
        return ApiError(400, str(e), e.code)
    if isinstance(e, DiceProofError):  # a client seed of the wrong form
        return ApiError(422, str(e), "invalid")
    if isinstance(e, AccessDenied):
        return ApiError(403, str(e), "access_denied")
    if isinstance(e, StaleAction):
        return ApiError(409, str(e), "stale")
    if isinstance(e, StoreError):
        if str(e).startswith("no online game"):
            return ApiError(404, "no online game with this id", "not_found", key="err.no_game")
        return ApiError(503, str(e), "store")
    return engine_error(e)


@dataclass(eq=False)
class Conn:
    """One WebSocket connection to a game: a seat's (``side``) or a spectator's."""

    ws: WebSocket
    game_id: str
    address: str = ""
    side: str | None = None
    token: str | None = None
    seq: int = -1          # the last action number sent (-1: nothing yet)
    hello: bool = False
    bucket: Bucket = field(default_factory=Bucket)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one sender at a time

    async def send(self, message: dict[str, Any]) -> None:
        """Send ``message``; a connection that has gone is left to its reader to close.
        Written in ASCII (``\\uXXXX`` escapes), so that whatever text it echoes — even
        a lone surrogate, which UTF-8 cannot encode — is sent: every message gets its
        answer."""
        text = json.dumps(message, separators=(",", ":"))
        async with self.lock:
            with contextlib.suppress(Exception):
                await self.ws.send_text(text)

    async def send_text_at(self, seq: int, text: str) -> bool:
        """Send ``text``, the update of action ``seq`` alone, if this connection was sent
        up to ``seq - 1``; whether it has action ``seq`` now."""
        async with self.lock:
            if self.seq >= seq:
                return True
            if self.seq != seq - 1:
                return False
            self.seq = seq
            with contextlib.suppress(Exception):
                await self.ws.send_text(text)
            return True

    async def send_news(self, actions: list[Any], views: dict[str, Any],
                        texts: dict[tuple[int, bool], str] | None = None) -> None:
        """Send the actions after :attr:`seq` up to the views', with the view of this
        connection's seat (``views``: :meth:`OnlineGames.views`);
        nothing when the view is not newer than what was sent. ``texts``: the messages
        already encoded for the connections of the same game, by their :attr:`seq` and
        whether they are the mover's (each encoded once, whatever the number of
        connections)."""
        async with self.lock:
            mover = self.side is not None and self.side == views["turn"]
            view = views["mover" if mover else "others"]
            if view["seq"] <= self.seq:
                return
            text = None if texts is None else texts.get((self.seq, mover))
            if text is None:
                news = [action_out(a) for a in actions if self.seq < a.seq <= view["seq"]]
                text = json.dumps({"type": "update", "actions": news, "state": view},
                                  separators=(",", ":"), ensure_ascii=False)
                if texts is not None:
                    texts[(self.seq, mover)] = text
            self.seq = view["seq"]
            with contextlib.suppress(Exception):
                await self.ws.send_text(text)


class Hub:
    """The connections of this process, per game, and the store's notices."""

    def __init__(self, games: OnlineGames, beat: float = PRESENCE_BEAT) -> None:
        self.games = games
        self.beat = beat
        self.conns: dict[str, set[Conn]] = {}
        self.per_address: Counter[str] = Counter()  # open connections by address
        self.seen: dict[str, list[Any]] = {}    # per game: its seats as last read
        self.shown: dict[str, Any] = {}         # per game: presence last told
        self.timers: dict[str, asyncio.TimerHandle] = {}  # per game: when a flag falls
        self.acting: dict[str, int] = {}  # per game: an act of this process under way (seq)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sub: Subscription | None = None
        self.tasks: set[asyncio.Task] = set()
        self.marking = asyncio.Lock()  # one presence refresh at a time: the last one wins
        self.heard: list[Notice] = []  # notices the loop has still to look at
        self.heard_lock = threading.Lock()

    async def start(self) -> None:
        """Listen to the store (every action appended by any process on the database)
        and keep presence up to date."""
        self.loop = asyncio.get_running_loop()
        self.sub = await self.games.store.listen_async(self._heard_here)
        if self.sub is None:  # a listener of its own thread (SQLite's poller)
            self.sub = await run_in_threadpool(self.games.store.listen, self._heard)
        if self.games.known is None:
            self.games.known = {}  # fed by the notices from now on
        self.spawn(self._beats())

    async def stop(self) -> None:
        if self.sub is not None:
            await self.sub.aclose()
            self.sub = None
        for t in list(self.tasks):
            t.cancel()
        for h in self.timers.values():
            h.cancel()
        self.timers.clear()
        with contextlib.suppress(Exception):
            await self.games.store.aclose()

    async def call(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)``: on the event loop when the store's calls are quick
        (:attr:`tavli.store.online.OnlineStore.inline`: a local SQLite file, where a trip
        to a thread and back costs more than the work and the threads only fight for
        the GIL), else in the thread pool (a database across a socket)."""
        if self.games.store.inline:
            return fn(*args)
        return await run_in_threadpool(fn, *args)

    def _heard_here(self, notice: Notice) -> None:  # the loop's thread (asyncio listener)
        self.games.heard(notice.game_id, notice.seq, notice.action)
        if notice.game_id in self.conns:
            self._notice(notice)

    def _heard(self, notice: Notice) -> None:  # the listener's thread
        self.games.heard(notice.game_id, notice.seq, notice.action)
        loop = self.loop
        if loop is not None and notice.game_id in self.conns:
            with self.heard_lock:  # the loop is woken once for the notices of a look
                self.heard.append(notice)
                if len(self.heard) > 1:
                    return
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self._notices)

    def _notices(self) -> None:  # the loop's thread
        with self.heard_lock:
            notices, self.heard = self.heard, []
        for notice in notices:
            self._notice(notice)

    def _notice(self, notice: Notice) -> None:  # the loop's thread
        if self.acting.get(notice.game_id, -1) >= notice.seq:
            return  # an action of this process: its act pushes it (no second read)
        group = [c for c in self.conns.get(notice.game_id, ())
                 if c.hello and c.seq < notice.seq]
        if not group:
            return  # sent already
        carried = self._carried(notice)
        if carried is not None:
            self.spawn(self._forward(notice.game_id, notice.seq, group, carried))
        else:
            self.spawn(self.push(notice.game_id))

    def _carried(self, notice: Notice) -> tuple[str, bool, str] | None:
        """The update the accepting process made for everybody but the mover, carried
        by ``notice`` (:func:`news_of`): ``(turn, whether the mover gets it too, the
        message's text)``; None when there is none, or the game has a clock (its timer
        needs the state)."""
        if notice.news is None:
            return None
        t = self.games.tables.get(notice.game_id)
        if t is None or t.clock is not None:
            return None
        head, sep, text = notice.news.partition("\n")
        turn, _, same = head.partition(" ")
        return (turn, same == "1", text) if sep else None

    async def _forward(self, game_id: str, seq: int, group: list[Conn],
                       carried: tuple[str, bool, str]) -> None:
        """Send the carried update of action ``seq`` to the connections at ``seq - 1``
        (the game is not worked here: its table applies the action when it is next
        needed); the others, and a mover whose view differs, get :meth:`push`'s."""
        turn, same, text = carried
        rest = False
        for c in group:
            if (c.side is not None and c.side == turn and not same) \
                    or not await c.send_text_at(seq, text):
                rest = True
        if rest:
            await self.push(game_id)

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background (kept until it ends)."""
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- connections -----------------------------------------------------------------
    def add(self, conn: Conn, per_address: int, per_game: int) -> str | None:
        """Count ``conn`` in; why not when its address or game has too many already."""
        group = self.conns.get(conn.game_id, set())
        if len(group) >= per_game:
            return f"this game has {per_game} connections already"
        if self.per_address[conn.address] >= per_address:
            return f"at most {per_address} connections from one address"
        self.conns.setdefault(conn.game_id, set()).add(conn)
        self.per_address[conn.address] += 1
        return None

    def remove(self, conn: Conn) -> None:
        group = self.conns.get(conn.game_id)
        if group is not None and conn in group:
            group.discard(conn)
            self.per_address[conn.address] -= 1
            if self.per_address[conn.address] <= 0:
                del self.per_address[conn.address]
            if not group:
                del self.conns[conn.game_id]
                self.seen.pop(conn.game_id, None)
                self.shown.pop(conn.game_id, None)
                timer = self.timers.pop(conn.game_id, None)
                if timer is not None:
                    timer.cancel()

    # --- presence --------------------------------------------------------------------
    def _local(self, game_id: str) -> set[str]:
        return {c.side for c in self.conns.get(game_id, ()) if c.hello and c.side}

    def presence(self, game_id: str) -> dict[str, Any]:
        """Which seats are connected (here or to another process), and how many
        spectators this process has."""
        group = [c for c in self.conns.get(game_id, ()) if c.hello]
        local = self._local(game_id)
        seats = {s.side: s for s in self.seen.get(game_id, [])}
        now = time.time()

        def on(side: str) -> bool:
            s = seats.get(side)
            return side in local or (s is not None and connected(s, self.beat, now))

        return {"type": "presence", "seats": {s: on(s) for s in ("white", "black")},
                "spectators": sum(c.side is None for c in group),
                "absent": {s: None if on(s) or s not in seats
                           else absent_for(seats[s], self.beat, now)
                           for s in ("white", "black")}}

    async def tell_presence(self, game_id: str, *, changed_only: bool = False) -> None:
        """Send the game's presence to its connections (``changed_only``: only when it
        differs from what was told last)."""
        message = self.presence(game_id)
        told = (message["seats"], message["spectators"])
        if changed_only and self.shown.get(game_id) == told:
            return
        if game_id in self.conns:
            self.shown[game_id] = told
        for c in [c for c in self.conns.get(game_id, ()) if c.hello]:
            await c.send(message)

    async def refresh(self, game_id: str, gone: str | None = None) -> None:
        """Mark this process's seats of ``game_id`` seen (and ``gone``, a seat whose
        last connection here has closed, not seen), read the others' and tell what
        changed."""
        async with self.marking:
            local = self._local(game_id)
            read = time.time()
            try:
                seats = await self.call(self._mark, game_id, local, gone)
            except TavliError:
                return
            if game_id in self.conns:
                self.seen[game_id] = seats
                self.games.saw(game_id, seats, read)
        await self.tell_presence(game_id, changed_only=True)

    def _mark(self, game_id: str, local: set[str], gone: str | None) -> list[Any]:
        store = self.games.store
        now = time.time()
        for side in local:
            store.update_seat(game_id, side, seen=now)
        if gone is not None and gone not in local:
            store.update_seat(game_id, gone, left=now)
        return store.seats(game_id)

    async def _beats(self) -> None:
        while True:
            await asyncio.sleep(self.beat)
            with contextlib.suppress(Exception):
                await self.refresh_all()

    async def refresh_all(self) -> None:
        """:meth:`refresh` for every game of this process, in one write and one read of
        the store (not one per seat: a beat of a thousand seats is one transaction)."""
        async with self.marking:
            local = {g: self._local(g) for g in list(self.conns)}

            def mark() -> dict[str, list[Any]]:
                store = self.games.store
                store.mark_seen([(g, side) for g, sides in local.items() for side in sides],
                                time.time())
                return store.seats_of(list(local))

            read = time.time()
            try:  # a thread even for a quick store: the beat of a thousand seats takes
                seats = await run_in_threadpool(mark)  # tens of ms; the loop goes on
            except TavliError:
                return
            for game_id, ss in seats.items():
                if game_id in self.conns:
                    self.seen[game_id] = ss
                    self.games.saw(game_id, ss, read)
        for game_id in list(seats):
            await self.tell_presence(game_id, changed_only=True)

    # --- fan-out ---------------------------------------------------------------------
    def low(self, game_id: str) -> int:
        """The last action number every connection of the game has been sent."""
        return min((c.seq for c in self.conns.get(game_id, ()) if c.hello), default=-1)

    async def push(self, game_id: str, news: Any = None,
                   texts: dict[tuple[int, bool], str] | None = None) -> None:
        """Send every connection of ``game_id`` that has said hello what it lacks
        (``news``: the view and the actions after :meth:`low`, read already; ``texts``:
        messages of them encoded already, as :meth:`Conn.send_news` keeps them)."""
        group = [c for c in self.conns.get(game_id, ()) if c.hello]
        if not group:
            return
        low = min(c.seq for c in group)
        if news is not None and news[1] and news[1][0].seq > low + 1:
            news = None  # a connection came meanwhile and is further behind
        try:
            views, actions = news or self.news_now(game_id, low) \
                or await self.call(self._news, game_id, low)
        except TavliError:
            return  # the game cannot be read now: the next notice tries again
        self.watch(game_id, views["others"])
        texts = dict(texts) if texts and news is not None else {}
        for c in group:
            await c.send_news(actions, views, texts)

    # --- clocks ----------------------------------------------------------------------
    def watch(self, game_id: str, view: dict[str, Any]) -> None:
        """Set the timer of ``game_id`` for when the running side's flag falls in the
        state ``view`` (none when no clock runs or nobody here watches the game)."""
        old = self.timers.pop(game_id, None)
        if old is not None:
            old.cancel()
        clock = view.get("clock")
        if not clock or clock["running"] is None or game_id not in self.conns \
                or self.loop is None:
            return
        at = clock["since"] + clock["delay"] + clock["reserve"][clock["running"]]
        wait = max(0.0, at - time.time()) + FLAG_GRACE
        self.timers[game_id] = self.loop.call_later(
            wait, lambda: self.spawn(self._call_time(game_id)))

    async def _call_time(self, game_id: str) -> None:
        self.timers.pop(game_id, None)
        await self.push(game_id)  # reading the game calls time; the timer is set again

    def news_now(self, game_id: str, after: int) -> tuple[dict[str, Any], list[Any]] | None:
        """:meth:`_news` from memory only (:meth:`OnlineGames.views_now`: the actions the
        store's notices carried applied, no read of the store), on the event loop; None
        when the store is needed."""
        views = self.games.views_now(game_id)
        if views is None:
            return None
        seq = views["others"]["seq"]
        t = self.games.tables.get(game_id)
        recent = [a for a in t.recent if a.seq > after] if t is not None else []
        if seq <= after or (recent and recent[0].seq == after + 1 and recent[-1].seq >= seq):
            return views, recent
        return None

    def _news(self, game_id: str, after: int) -> tuple[dict[str, Any], list[Any]]:
        """The game's views (:meth:`OnlineGames.views`) and its actions
        after ``after``."""
        views = self.games.views(game_id)
        seq = views["others"]["seq"]
        t = self.games.tables.get(game_id)
        recent = [a for a in t.recent if a.seq > after] if t is not None else []
        if recent and recent[0].seq == after + 1 and recent[-1].seq >= seq:
            return views, recent  # in memory: no read of the log
        return views, self.games.store.actions(game_id, after=max(0, after))


def update_text(actions: list[Any], view: dict[str, Any]) -> str:
    """The ``update`` message of ``actions`` with the state ``view``, as sent."""
    return json.dumps({"type": "update", "actions": [action_out(a) for a in actions],
                       "state": view}, separators=(",", ":"), ensure_ascii=False)


def news_of(turn: str, same: bool, text: str) -> str:
    """What an append carries to the other processes (the store's notice, when it
    fits): the side to move, whether the mover's update is everybody else's, and that
    update's text (:meth:`Hub._carried` reads it)."""
    return f"{turn} {int(same)}\n{text}"


__all__ = ["Hub", "Conn", "online_error", "PRESENCE_BEAT", "update_text", "news_of"]
