"""The lobby of open seeks (docs/server.md, "The lobby"): games listed by their creators
for anyone to take the free seat, shown live, and quick pairing by rating.

A **seek** is a listed game (``"listed": true`` at creation: game or Tavli match, length,
clock, rated or not, ``rating_range``) whose creator waits on its page for an opponent;
taking it is joining its free seat (``POST /api/online/games/{id}/join`` without a
token). So a seek needs nothing but what a game has, and is stored as one.

* ``GET /api/online/lobby``: the open seeks, each with its host's name, account name and
  rating in that game (``null`` for a guest; a newcomer's shows as ``null`` too, rated
  1500 for ranges).
* ``POST /api/online/play-now`` (``{"game": {…New game…}, "name", "clock", "rated"}``):
  takes the open seek of the same game, length, clock and ratedness whose host's rating is
  nearest one's own (and whose range admits it; never one's own), or posts such a seek,
  open to ratings within :data:`QUICK_SPAN` of one's own; the answer says which.
* ``/ws/lobby``: a WebSocket that gets the lobby at once and again whenever it changes.
  Each process reads the lobby from the store once a second while anyone watches (so a
  seek posted through another process shows within a second), whatever the number of
  watchers, and sends it only to those it has changed for.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from tavli.errors import ApiError, WrongState
from tavli.online import rating
from tavli.online.accounts import logged_out
from tavli.online.answers import Lobby, Matched
from tavli.online.context import OnlineContext
from tavli.online.players import session_token
from tavli.online.protocol import Bucket
from tavli.online.routes import ClockField, JoinBody, join_seat
from tavli.online.service import rating_game
from tavli.store.accounts import AccountStore
from tavli.web.errors import Body, body
from tavli.web.newgame import NewGame
from tavli.web.openapi import declared

#: seconds between the lobby's reads while anyone watches it
LOOK = 1.0
#: a quick pairing's seek is open to ratings this far from its poster's
QUICK_SPAN = 300.0
#: lobby watchers per process, and from one address
WATCHERS, WATCHERS_PER_ADDRESS = 5000, 8


class PlayNowBody(Body):
    game: NewGame
    name: str = Field(min_length=1, max_length=40)
    clock: ClockField | None = None
    rated: bool = False


def lobby_view(ctx: OnlineContext, limit: int = 50) -> list[dict[str, Any]]:
    """The open seeks with their hosts' account names and ratings (in a thread)."""
    seeks = ctx.games.lobby(limit)
    people = AccountStore(ctx.store.backend)
    by_game: dict[str, list[str]] = {}
    for s in seeks:
        if s["account"]:
            by_game.setdefault(rating_game(s["variant"]), []).append(s["account"])
    known = {(g, a): v for g, ids in by_game.items()
             for a, v in people.ratings_of(sorted(set(ids)), g).items()}
    out = []
    for s in seeks:
        account = s.pop("account")
        name, value = known.get((rating_game(s["variant"]), account), (None, math.nan))
        out.append({**s, "player": name,
                    "rating": None if math.isnan(value) else round(value, 1)})
    return out


def same_kind(seek: dict[str, Any], req: PlayNowBody) -> bool:
    """Does ``seek`` offer the game ``req`` asks for: the game, length, clock, rating?"""
    return (seek["variant"] == req.game.variant and seek["points"] == (req.game.points or 1)
            and (seek["clock"] or None) == (req.clock or None) and seek["rated"] == req.rated)


def play_now(ctx: OnlineContext, request: Request, req: PlayNowBody) -> dict[str, Any]:
    """Take the best open seek for ``req``, or post one (in a thread)."""
    account = ctx.accounts.session(session_token(request))
    if req.rated and account is None:
        raise logged_out()
    people = AccountStore(ctx.store.backend)
    game = rating_game(req.game.variant)
    mine = rating.START if account is None else people.rating(account.id, game, rating.START)
    fits = []
    for seek in lobby_view(ctx):
        span = seek["range"] or (0.0, math.inf)
        if same_kind(seek, req) and span[0] <= mine <= span[1] and (
                account is None or seek["player"] != account.username):
            theirs = rating.START if seek["rating"] is None else seek["rating"]
            fits.append((abs(theirs - mine), seek["created"], seek["id"]))
    for _, _, game_id in sorted(fits):
        with contextlib.suppress(WrongState, ApiError):  # taken meanwhile, not for us: next
            out = join_seat(ctx, game_id, JoinBody(name=req.name), session_token(request))
            return {"matched": True, "id": game_id, **out}
    new = ctx.games.create(req.game, req.name, "white", clock=req.clock, listed=True,
                           rated=req.rated, account=account and account.id,
                           rating_range=[max(0.0, mine - QUICK_SPAN),
                                         min(4000.0, mine + QUICK_SPAN)])
    return {"matched": False, "id": new.game_id, "side": new.side, "token": new.token,
            "state": ctx.games.view_for(new.game_id, new.side)}


class LobbyWatch:
    """The process's lobby watchers: the lobby read once a second while there are any,
    and sent to each when it changed."""

    def __init__(self, ctx: OnlineContext) -> None:
        self.ctx = ctx
        self.watchers: dict[WebSocket, str] = {}   # a watcher: its address
        self.text: str = ""                         # the lobby as last read
        self.sent: dict[WebSocket, str] = {}        # what each watcher was sent last
        self.task: asyncio.Task[None] | None = None

    def add(self, ws: WebSocket, address: str) -> str | None:
        if len(self.watchers) >= WATCHERS:
            return "the lobby has too many watchers on this server"
        if sum(a == address for a in self.watchers.values()) >= WATCHERS_PER_ADDRESS:
            return f"at most {WATCHERS_PER_ADDRESS} lobby connections from one address"
        self.watchers[ws] = address
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())
        return None

    def remove(self, ws: WebSocket) -> None:
        self.watchers.pop(ws, None)
        self.sent.pop(ws, None)

    async def tell(self, ws: WebSocket) -> None:
        """Send ``ws`` the lobby as last read, unless it has it."""
        if self.text and self.sent.get(ws) != self.text:
            self.sent[ws] = self.text
            with contextlib.suppress(Exception):
                await ws.send_text(self.text)

    async def read(self) -> str:
        # on the loop for a local file (a trip to a thread would fight the loop's own
        # store calls for the file's lock and the interpreter), else in a thread
        seeks = await self.ctx.hub.call(lobby_view, self.ctx)
        return json.dumps({"type": "lobby", "games": seeks}, separators=(",", ":"))

    async def run(self) -> None:
        """While anyone watches: read the lobby, send it where it changed, wait."""
        while self.watchers:
            with contextlib.suppress(Exception):  # a store hiccup: the next look
                self.text = await self.read()
            for ws in list(self.watchers):
                await self.tell(ws)
            await asyncio.sleep(LOOK)


def mount_lobby(app: FastAPI, ctx: OnlineContext) -> None:
    """``GET /api/online/lobby``, ``POST /api/online/play-now`` and ``/ws/lobby``."""
    watch = LobbyWatch(ctx)

    @app.get("/api/online/lobby", **declared(Lobby, 503))
    async def lobby() -> dict[str, Any]:
        return {"games": await run_in_threadpool(lobby_view, ctx)}

    # 401: rated without a session
    @app.post("/api/online/play-now", **declared(Matched, 401, 422, 503, body=PlayNowBody))
    async def quick(request: Request) -> dict[str, Any]:
        req = await body(request, PlayNowBody, required=True)
        out = await run_in_threadpool(play_now, ctx, request, req)
        if out["matched"]:
            await ctx.hub.push(out["id"])
        return out

    @app.websocket("/ws/lobby")
    async def watch_lobby(ws: WebSocket) -> None:
        await ws.accept()
        crowded = watch.add(ws, ws.client.host if ws.client else "")
        if crowded is not None:
            await ws.send_json({"type": "error", "error": crowded,
                                "code": "too_many_connections"})
            await ws.close(1008)
            return
        await watch.tell(ws)  # the lobby as last read, at once
        bucket = Bucket(ctx.rate, ctx.burst)
        try:
            while True:  # nothing to say but goodbye: messages are read and dropped
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                if not bucket.take():  # a flood: closed
                    await ws.close(1008)
                    return
        except WebSocketDisconnect:
            return
        finally:
            watch.remove(ws)


__all__ = ["mount_lobby", "lobby_view", "play_now", "LobbyWatch", "QUICK_SPAN"]
