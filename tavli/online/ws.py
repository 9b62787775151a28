"""The online server's WebSocket, ``/ws/online/{id}`` (docs/server.md, "WebSocket"): one
connection per seat or spectator of a game; :mod:`tavli.online.protocol` reads the
messages and bounds them, :mod:`tavli.online.hub` fans the game's news out, and the AI
seat (:class:`tavli.online.aiseat.AiSeat`) plays after a hello and after each action.

:func:`mount_socket` adds the route over an :class:`~tavli.online.context.OnlineContext`.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from tavli.errors import AccessDenied, TavliError
from tavli.online import protocol
from tavli.online.context import GAME_ID, OnlineContext
from tavli.online.hub import Conn, news_of, online_error, update_text
from tavli.online.protocol import ProtocolError, error


async def hello(ctx: OnlineContext, conn: Conn, msg: dict[str, Any]) -> None:
    """Welcome a connection: its seat (by the hello's token; none: a spectator), the state
    and the actions after the hello's ``seq`` it missed."""
    games, hub = ctx.games, ctx.hub
    token = msg.get("token")

    def do() -> tuple[str | None, dict[str, Any], list[Any]]:
        games.refresh(conn.game_id)
        side = games.seat(conn.game_id, token).side if token is not None else None
        view = games.view_for(conn.game_id, side)
        last = msg.get("seq")
        missed: list[Any] = []
        if last is not None and 0 <= view["seq"] - last <= protocol.RESYNC_MAX:
            missed = [a for a in games.store.actions(conn.game_id, after=last)
                      if a.seq <= view["seq"]]
        return side, view, missed

    side, view, missed = await hub.call(do)
    async with conn.lock:
        conn.side, conn.token, conn.hello = side, token, True
        conn.seq = view["seq"]
        await conn.ws.send_json({"type": "welcome", "side": side, "state": view,
                                 "actions": [protocol.action_out(a) for a in missed]})
    hub.watch(conn.game_id, view)
    await hub.tell_presence(conn.game_id)
    hub.spawn(hub.refresh(conn.game_id))  # marks the seat seen for other processes
    hub.spawn(hub.push(conn.game_id))  # an action committed while this one said hello
    hub.spawn(ctx.ai.drive(conn.game_id))


async def act(ctx: OnlineContext, conn: Conn, msg: dict[str, Any]) -> None:
    """A seat's action: committed, acknowledged, then pushed to every connection."""
    games, hub = ctx.games, ctx.hub
    seq = msg["seq"]
    if conn.side is None:
        raise AccessDenied("spectators only watch: a seat's token is needed to act")
    low = hub.low(conn.game_id)

    def do() -> Any:  # one trip to the thread pool: the action, then the news
        games.act(conn.game_id, conn.token, seq, msg["action"])
        with contextlib.suppress(TavliError):
            return hub._news(conn.game_id, low)
        return None

    hub.acting[conn.game_id] = seq  # its notice sends nothing: this pushes it
    try:
        async with conn.lock:  # the ack goes before any update of this action
            texts = None
            if games.store.inline:  # a local file: the whole act on the loop
                news = await hub.call(do)
            else:
                got = await act_now(games, hub, conn, seq, msg["action"], low)
                if got is False:  # the store is needed first: the thread pool's way
                    news = await hub.call(do)
                else:
                    news, texts = got
            with contextlib.suppress(Exception):
                await conn.ws.send_json({"type": "ack", "seq": seq})
    except BaseException:
        hub.spawn(hub.push(conn.game_id))  # whatever the store has now
        raise
    finally:
        if hub.acting.get(conn.game_id) == seq:
            del hub.acting[conn.game_id]
    await hub.push(conn.game_id, news, texts)
    hub.spawn(ctx.ai.drive(conn.game_id))


async def act_now(games: Any, hub: Any, conn: Conn, seq: int, action: Any, low: int
                  ) -> Any:
    """An action applied from memory on the event loop and committed through the
    store's asyncio connection (a store across a network: no thread), the update the
    other processes send their connections carried by the store's notice; what to
    push here (:meth:`tavli.online.hub.Hub.push`'s ``news`` and ``texts``; None: read
    them later). False when it needs the store before that
    (:meth:`tavli.online.service.OnlineGames.prepare`)."""
    p = games.prepare(conn.game_id, conn.token, seq, action)
    if p is None:
        return False
    try:
        views = p.views
        others = update_text([p.action], views["others"])
        await games.store.append_async(p.action, status=p.status, record=p.record,
                                       news=news_of(views["turn"], p.same, others))
    except BaseException:
        games.abort(p)
        raise
    games.finish(p)
    texts = {(seq - 1, False): others}
    if p.same:
        texts[(seq - 1, True)] = others
    if low < seq - 1:  # a connection further behind: the news from the start
        with contextlib.suppress(TavliError):
            return hub.news_now(conn.game_id, low), None
        return None, None
    return (views, [p.action]), texts


async def handle(ctx: OnlineContext, conn: Conn, raw: dict[str, Any]) -> None:
    """One received frame, read and dispatched (an error names the action it refuses)."""
    text = raw.get("text")
    msg = protocol.read_message(text if text is not None else raw.get("bytes", b""))
    try:
        await dispatch(ctx, conn, msg)
    except Exception as e:
        if msg["type"] == "act":  # the error names the action it refuses
            e.seq = msg["seq"]  # type: ignore[attr-defined]
        raise


async def dispatch(ctx: OnlineContext, conn: Conn, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    if kind == "ping":
        await conn.send({"type": "pong", "data": msg.get("data")})
    elif kind == "hello":
        if conn.hello:
            raise ProtocolError("hello: this connection has said hello already",
                                "wrong_state")
        await hello(ctx, conn, msg)
    elif not conn.hello:
        raise ProtocolError("say hello first ({\"type\": \"hello\", \"token\": …})",
                            "hello_first")
    else:
        await act(ctx, conn, msg)


async def answer(ctx: OnlineContext, conn: Conn, raw: dict[str, Any]) -> None:
    """Handle one message; an error is answered, and the connection lives on."""
    try:
        await handle(ctx, conn, raw)
    except TavliError as e:
        a = online_error(e)
        await conn.send(error(a.message, a.code, getattr(e, "seq", None)))
    except (WebSocketDisconnect, asyncio.CancelledError):
        raise
    except Exception as e:  # noqa: BLE001 - a bug: logged, the connection lives on
        import logging

        logging.getLogger("tavli.online").exception("a message to %s failed",
                                                    conn.game_id)
        await conn.send(error("the server failed on this message (a bug, "
                              "logged): reconnect to see where the game "
                              "stands", "internal", getattr(e, "seq", None)))


async def receive(ctx: OnlineContext, conn: Conn) -> None:
    """The connection's messages, each answered, until it closes: by the client, or by
    the server (no hello in time, a flood of messages)."""
    ws, rate = conn.ws, ctx.rate
    refused = 0
    while True:
        timeout = None if conn.hello else protocol.HELLO_TIMEOUT
        try:
            raw = await asyncio.wait_for(ws.receive(), timeout)
        except TimeoutError:
            await conn.send(error("no hello: the connection is closed", "timeout"))
            await ws.close(1008)
            return
        if raw["type"] == "websocket.disconnect":
            return
        if not conn.bucket.take():
            refused += 1
            if refused >= protocol.FLOOD_CLOSE:
                await conn.send(error("too many messages: the connection is closed",
                                      "rate_limited"))
                await ws.close(1008)
                return
            await conn.send(error(f"too many messages (at most "
                                  f"{rate:g} a second): this one is "
                                  "ignored", "rate_limited"))
            continue
        refused = 0
        await answer(ctx, conn, raw)


async def serve(ctx: OnlineContext, ws: WebSocket, game_id: str) -> None:
    """A WebSocket to ``game_id``: refused when there is no such game or too many
    connections, else its messages until it closes; then its seat's absence is told."""
    hub = ctx.hub
    await ws.accept()
    if not GAME_ID.match(game_id) or await hub.call(ctx.store.game, game_id) is None:
        await ws.send_json(error("no online game with this id", "not_found"))
        await ws.close(4404)
        return
    address = ws.client.host if ws.client else ""
    conn = Conn(ws, game_id, address, bucket=protocol.Bucket(ctx.rate, ctx.burst))
    crowded = hub.add(conn, ctx.per_address, ctx.per_game)
    if crowded is not None:
        await ws.send_json(error(crowded, "too_many_connections"))
        await ws.close(1008)
        return
    try:
        await receive(ctx, conn)
    except WebSocketDisconnect:
        return
    finally:
        hub.remove(conn)
        if conn.hello:  # in the background: this task may be being cancelled
            hub.spawn(hub.refresh(game_id, gone=conn.side))


def mount_socket(app: FastAPI, ctx: OnlineContext) -> None:
    """``/ws/online/{game_id}``: the game's WebSocket (:func:`serve`)."""

    @app.websocket("/ws/online/{game_id}")
    async def socket(ws: WebSocket, game_id: str) -> None:
        await serve(ctx, ws, game_id)


__all__ = ["mount_socket", "serve", "hello", "act", "dispatch"]
