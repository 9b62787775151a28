"""The players' chat in an online game (docs/server.md, "Chat"): between the two seats;
spectators read it and cannot write.

* A seat writes with its seat token (``POST /api/online/games/{id}/chat`` ``{"text"}``,
  header ``X-Tavli-Seat``): one line of at most :data:`MAX_TEXT` characters (control
  characters refused), at most one a second on average and :data:`BURST` at once per
  seat, and :data:`MOST` per game; a refusal changes nothing. The text is stored as it
  was written and shown as text by the page (never as HTML).
* **Off by default for guests**: a seat's chat is on when the seat is an account's, off
  for a guest, until the seat switches it (``POST …/chat/settings`` ``{"on": bool}``); a
  seat whose chat is off neither writes nor receives. ``{"mute": true}`` mutes the
  opponent: his messages no longer reach the seat (his own still reach him and the
  spectators).
* Delivery: the process that stores a message sends it at once to its connections of the
  game (``{"type": "chat", "messages": [...]}`` on the game's WebSocket); every process
  reads the messages stored since its last look once a second while it has connections
  (one query for all its games), so the players of a game on two processes read each
  other within a second. ``GET …/chat`` gives the messages the asker may read (the page's
  history after a reload).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from tavli.errors import AccessDenied, ApiError
from tavli.online.answers import ChatMessage, ChatView
from tavli.online.context import OnlineContext, check_game_id
from tavli.online.protocol import Bucket
from tavli.online.routes import GAME, SEAT, SEAT_HEADER
from tavli.play.text import printable
from tavli.store.base import Seat
from tavli.store.chat import ChatStore, Message
from tavli.web.errors import Body, body
from tavli.web.openapi import declared, with_parameters

MAX_TEXT = 300
RATE, BURST = 1.0, 5     # a seat's messages a second on average, and at once
MOST = 1000              # messages one game keeps
LOOK = 1.0               # seconds between the reads of other processes' messages


class SayBody(Body):
    text: str = Field(min_length=1, max_length=4 * MAX_TEXT)


class ChatSettingsBody(Body):
    on: bool | None = None
    mute: bool | None = None


def chat_on(seat: Seat) -> bool:
    """Is the seat's chat on: its own choice, else on for an account, off for a guest."""
    return bool(seat.account_id) if seat.chat is None else bool(seat.chat)


def read_text(text: str) -> str:
    """A message as stored: one line, trimmed, without control characters (422 else)."""
    text = text.strip()
    if not text or len(text) > MAX_TEXT:
        raise ApiError(422, f"a chat message is 1 to {MAX_TEXT} characters", "invalid",
                       key="err.chat_length")
    if not printable(text):
        raise ApiError(422, "a chat message is one line of text", "invalid",
                       key="err.chat_line")
    return text


def reader_may_see(m: Message, reader: Seat | None, seats: dict[str, Seat]) -> bool:
    """May ``reader`` (a seat; None: a spectator) read ``m``?"""
    if reader is None or reader.side == m.side:
        return True
    return chat_on(reader) and not reader.muted


def message_out(m: Message, seats: dict[str, Seat]) -> dict[str, Any]:
    seat = seats.get(m.side)
    return {"id": m.id, "side": m.side, "name": seat.name if seat else None, "text": m.text,
            "at": m.at}


@dataclass
class Chat:
    """The chat of this process's games over the store, and its delivery to the hub's
    connections."""

    ctx: OnlineContext
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    delivered: set[int] = field(default_factory=set)  # sent here before a look found them
    last: int = -1                                     # the last message looked at
    task: asyncio.Task[None] | None = None

    @property
    def store(self) -> ChatStore:
        return ChatStore(self.ctx.store.backend)

    def seats(self, game_id: str) -> dict[str, Seat]:
        return {s.side: s for s in self.ctx.store.seats(game_id)}

    def say(self, game_id: str, token: str | None, text: str) -> tuple[Message, dict]:
        """Store a seat's message (in a thread): checked, rate-limited, bounded."""
        seat = self.ctx.games.seat(game_id, token)
        text = read_text(text)
        seats = self.seats(game_id)
        if not chat_on(seats[seat.side]):
            raise ApiError(409, "your chat is off: turn it on to write", "wrong_state",
                           key="err.chat_off")
        bucket = self.buckets.get((game_id, seat.side))
        if bucket is None:
            if len(self.buckets) > 100_000:
                self.buckets.clear()
            bucket = self.buckets[(game_id, seat.side)] = Bucket(RATE, BURST)
        if not bucket.take():
            raise ApiError(429, "too many chat messages: wait a moment", "rate_limited",
                           key="err.rate_limited")
        m = self.store.say(game_id, seat.side, text, time.time(), most=MOST)
        return m, seats

    def settings(self, game_id: str, token: str | None, on: bool | None,
                 mute: bool | None) -> dict[str, Any]:
        seat = self.ctx.games.seat(game_id, token)
        changes = {k: v for k, v in (("chat", on), ("muted", mute)) if v is not None}
        if changes:
            self.ctx.store.update_seat(game_id, seat.side, **changes)
        return self.view(game_id, token)

    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The messages the asker may read, and his seat's switches."""
        reader = self.ctx.games.seat(game_id, token) if token is not None else None
        seats = self.seats(game_id)
        me = seats[reader.side] if reader is not None else None
        return {"side": me.side if me else None,
                "on": chat_on(me) if me else False, "muted": bool(me.muted) if me else False,
                "messages": [message_out(m, seats) for m in self.store.messages(game_id)
                             if reader_may_see(m, me, seats)]}

    async def deliver(self, messages: list[Message], seats_of: dict[str, dict]) -> None:
        """Send ``messages`` to this process's connections of their games, each reader
        what he may read."""
        for m in messages:
            seats = seats_of[m.game_id]
            for conn in list(self.ctx.hub.conns.get(m.game_id, ())):
                if not conn.hello:
                    continue
                reader = seats.get(conn.side) if conn.side is not None else None
                if reader_may_see(m, reader, seats):
                    await conn.send({"type": "chat", "messages": [message_out(m, seats)]})

    async def look(self) -> None:
        """Deliver what other processes stored since the last look."""
        # on the loop for a local file (a thread would fight the loop's own store calls
        # for the file's lock and the interpreter: measured, 0.1 ms more per action at
        # 3,000 players), else in a thread
        call = self.ctx.hub.call
        if self.last < 0:
            self.last = await call(self.store.end)
            return
        news = await call(self.store.since, self.last)
        if not news:
            return
        self.last = news[-1].id
        mine = [m for m in news if m.game_id in self.ctx.hub.conns
                and m.id not in self.delivered]
        self.delivered.difference_update(m.id for m in news)
        if mine:
            games = sorted({m.game_id for m in mine})
            seats_of = await call(
                lambda: {g: {s.side: s for s in seats}
                         for g, seats in self.ctx.store.seats_of(games).items()})
            await self.deliver(mine, seats_of)

    async def run(self) -> None:
        while True:
            with contextlib.suppress(Exception):  # a store hiccup: the next look
                if self.ctx.hub.conns:
                    await self.look()
            await asyncio.sleep(LOOK)

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


def mount_chat(app: FastAPI, ctx: OnlineContext) -> None:
    """``GET``/``POST /api/online/games/{id}/chat`` and ``POST …/chat/settings``."""
    chat = Chat(ctx)

    # 403: a token that is not a seat's (a spectator reads without one)
    @app.get("/api/online/games/{game_id}/chat",
             **with_parameters(declared(ChatView, 403, *GAME), SEAT))
    async def read(game_id: str, request: Request) -> dict[str, Any]:
        check_game_id(game_id)
        return await run_in_threadpool(chat.view, game_id, request.headers.get(SEAT_HEADER))

    # 403: a spectator; 409: the seat's chat off, the game's chat full; 429: too fast
    @app.post("/api/online/games/{game_id}/chat",
              **with_parameters(declared(ChatMessage, 403, 409, 422, *GAME, body=SayBody),
                                SEAT))
    async def say(game_id: str, request: Request) -> dict[str, Any]:
        req = await body(request, SayBody, required=True)
        check_game_id(game_id)
        m, seats = await run_in_threadpool(chat.say, game_id,
                                           request.headers.get(SEAT_HEADER), req.text)
        if len(chat.delivered) > 10_000:  # no look has run here for long: forget them
            chat.delivered.clear()
        chat.delivered.add(m.id)
        await chat.deliver([m], {game_id: seats})
        return message_out(m, seats)

    @app.post("/api/online/games/{game_id}/chat/settings",
              **with_parameters(declared(ChatView, 403, 422, *GAME, body=ChatSettingsBody),
                                SEAT))
    async def settings(game_id: str, request: Request) -> dict[str, Any]:
        req = await body(request, ChatSettingsBody, required=True)
        check_game_id(game_id)
        token = request.headers.get(SEAT_HEADER)
        if token is None:
            raise AccessDenied("a seat's token is needed: spectators only read")
        return await run_in_threadpool(chat.settings, game_id, token, req.on, req.mute)

    app.state.chat = chat


__all__ = ["mount_chat", "Chat", "chat_on", "read_text", "MAX_TEXT", "MOST"]
