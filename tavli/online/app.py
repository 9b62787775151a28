"""The online server (``tavli serve``): the HTTP API that creates and joins games, and one
WebSocket per game over which players act and everyone watches (docs/server.md).

HTTP (JSON, the browser app's error format ``{"error": message, "code": code}``):

* ``POST /api/online/games`` ``{"game": {New game}, "name": "Ann", "side": "white"}``:
  a game or match; 201 with the creator's seat token and two links: the invited seat's
  (``/online/ID#seat=TOKEN``: the token in the fragment, which browsers never send to a
  server) and the spectators' (``/online/ID``).
* ``POST /api/online/games/{id}/join`` ``{"token": …, "name": "Bob"}``: take the invited
  seat.
* ``GET /api/online/games/{id}``: the state (``X-Tavli-Seat: TOKEN`` names the seat asking;
  without it, a spectator's view — the same state, no side).
* ``GET /api/online/games/{id}/record``: the record with its fair-dice proof.
* ``GET /api/online/lobby``: listed games (``"listed": true`` at creation) whose invited
  seat is free; ``POST …/join`` without a token takes such a seat (a new token for it).
* ``GET /`` (the start page: Play a friend, the lobby) and ``GET /online/{id}`` (the game
  page), with tavli play's static files (the board code is shared).

WebSocket ``/ws/online/{id}``: :mod:`tavli.online.protocol` (the messages and their
limits), :mod:`tavli.online.hub` (fan-out and presence). An AI seat is played by the
server, in the engine's worker processes (:mod:`tavli.web.workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from pydantic import Field

from tavli.engine.layout import SIDE_NAMES
from tavli.errors import AccessDenied, StaleAction, TavliError, WrongState
from tavli.online import protocol
from tavli.online.clock import DEFAULT_ABANDON
from tavli.online.hub import PRESENCE_BEAT, Conn, Hub, online_error
from tavli.online.protocol import ProtocolError, error
from tavli.online.ratelimit import WRITE_BURST, WRITE_RATE, AddressLimit
from tavli.online.service import OnlineGames
from tavli.store.factory import open_store
from tavli.store.online import OnlineStore
from tavli.web.errors import ApiError, Body, body, install_handlers, translated
from tavli.web.lang import LangMiddleware, mount_i18n, request_lang
from tavli.web.limits import BodyLimit
from tavli.web.newgame import NewGame
from tavli.web.pwa import mount_pwa, mount_static
from tavli.web.rules import mount_rules
from tavli.web.security import LOOPBACK_NAMES, Guard

SEAT_HEADER = "x-tavli-seat"
STATIC = Path(__file__).parent.parent / "web" / "static"
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
AI_STEPS = 64  # actions the AI plays in a row at most (a whole turn is a few)


class CreateBody(Body):
    game: NewGame
    name: str = Field(min_length=1, max_length=40)
    side: Literal["white", "black"] = "white"
    clock: dict[str, Any] | None = None      # {"reserve": S, "delay": S} (checked later)
    abandon_after: float | None = None       # absent: the server's default; null: never
    listed: bool = False


class JoinBody(Body):
    token: str | None = Field(None, min_length=1, max_length=200)
    name: str = Field(min_length=1, max_length=40)


def _game_id(game_id: str) -> str:
    if not GAME_ID.match(game_id):
        raise ApiError(404, "no online game with this id", "not_found", key="err.no_game")
    return game_id


#: threads of the thread pool (the store's reads and writes, the engine's checks)
THREADS = 4


# --- the AI seat ----------------------------------------------------------------------------

def ai_job(games: OnlineGames, game_id: str) -> tuple[int, dict[str, Any]] | None:
    """``(seq, job)``: what the AI seat must decide now (for
    :func:`tavli.web.workers.ai_action`), else None (not its turn, or no AI seat)."""
    from tavli.ai.shipped import has_shipped_net

    t = games.table(game_id)
    with t.lock:
        ai = [s for s in t.seats.values() if s.player == "ai"]
        g = t.game
        if not ai or g.is_over or g.phase == "opening" or SIDE_NAMES[g.turn] != ai[0].side:
            return None
        if any(s.player == "human" and s.side not in t.dice.client_seeds
               for s in t.seats.values()):
            return None  # the dice wait for the player's seed
        job = {"engine": "neural" if has_shipped_net(g.rules.game) else "greedy",
               "level": ai[0].level or "expert", "rules": g.rules.to_dict(),
               "position": g.position.id(), "phase": g.phase,
               "dice": list(g.dice) if g.dice else None, "cube_value": g.cube_value,
               "cube_owner": g.cube_owner, "can_double": g.can_double()}
        return t.seq, job


def ai_action(decision: dict[str, Any]) -> dict[str, Any]:
    """The online action of a decision of :func:`tavli.web.workers.ai_action`."""
    kind = decision["action"]
    if kind == "move":
        return {"type": "move", "move": decision["move"]}
    return {"type": "take" if kind == "beaver" else kind}


# --- the app --------------------------------------------------------------------------------

def create_online_app(db: str | Path | OnlineStore = ":memory:", *,
                      allowed_hosts: Iterable[str] | None = LOOPBACK_NAMES,
                      pool: Any = None, ai_deadline: float = 60.0,
                      rate: float = protocol.RATE, burst: int = protocol.BURST,
                      presence_beat: float = PRESENCE_BEAT,
                      per_address: int = protocol.PER_ADDRESS,
                      per_game: int = protocol.PER_GAME,
                      http_rate: float = WRITE_RATE, http_burst: int = WRITE_BURST,
                      abandon_after: float | None = DEFAULT_ABANDON,
                      threads: int | None = THREADS) -> FastAPI:
    """The online server's app over the database ``db`` (a ``--db`` value or an open
    store). ``allowed_hosts``: the host names it answers to (None: any); ``pool``: where
    an AI seat thinks (an :class:`tavli.web.workers.EnginePool`; default the process's);
    ``rate``, ``burst``: messages a connection may send a second, and at once;
    ``presence_beat``: seconds between presence updates through the store;
    ``per_address``, ``per_game``: connections one address, one game may have open;
    ``http_rate``, ``http_burst``: HTTP writes (create, join) one address may make a
    second, and at once (reads: ten times as many; :mod:`tavli.online.ratelimit`);
    ``abandon_after``: the absence (seconds) after which the opponent may claim a game
    created without its own (None: never); ``threads``: the threads that run the store's
    reads and writes (None: anyio's default, 40 — many threads only wait for the one
    database connection's lock and fight for the GIL, which slows them all)."""
    store = db if isinstance(db, OnlineStore) else open_store(str(db))
    games = OnlineGames(store, beat=presence_beat, abandon_after=abandon_after)
    hub = Hub(games, presence_beat)
    thinking: set[str] = set()  # games whose AI seat is deciding
    again: set[str] = set()     # games whose AI seat must look again

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        if threads is not None:
            import anyio.to_thread

            anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            if not isinstance(db, OnlineStore):
                store.close()

    app = FastAPI(title="tavli online", version="1", docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json", lifespan=lifespan)
    app.state.games = games
    app.state.hub = hub
    app.add_middleware(LangMiddleware)
    app.add_middleware(BodyLimit)
    app.add_middleware(AddressLimit, rate=http_rate, burst=http_burst)
    app.add_middleware(Guard, allowed_hosts=allowed_hosts)

    async def _error(request: Request, exc: TavliError) -> JSONResponse:
        e = online_error(exc)
        return JSONResponse(translated(e.message, e.code, request_lang(request)),
                            status_code=e.status)

    install_handlers(app)
    app.exception_handler(TavliError)(_error)  # the online errors' own statuses
    mount_i18n(app)  # GET /api/i18n: the pages' texts in the player's language
    mount_rules(app)  # GET /rules/{game}: the rules for players
    mount_pwa(app)    # the manifest and the service worker: installable

    def links(request: Request, game_id: str, token: str | None) -> dict[str, Any]:
        base = str(request.base_url).rstrip("/")
        return {"watch": f"{base}/online/{game_id}",
                "invite": None if token is None else f"{base}/online/{game_id}#seat={token}"}

    # --- HTTP ------------------------------------------------------------------------
    @app.post("/api/online/games", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        req = await body(request, CreateBody, required=True)
        abandon = req.abandon_after if "abandon_after" in req.model_fields_set else "default"
        new = await hub.call(lambda: games.create(
            req.game, req.name, req.side, clock=req.clock, abandon_after=abandon,
            listed=req.listed))
        view = await hub.call(games.view_for, new.game_id, new.side)
        return {"id": new.game_id, "side": new.side, "token": new.token,
                "invite_side": new.invite_side, "invite_token": new.invite_token,
                **links(request, new.game_id, new.invite_token),
                "commitment": new.commitment, "state": view}

    @app.post("/api/online/games/{game_id}/join")
    async def join(game_id: str, request: Request) -> dict[str, Any]:
        req = await body(request, JoinBody, required=True)
        _game_id(game_id)

        def do() -> dict[str, Any]:
            games.refresh(game_id)
            token = req.token
            if token is None:  # from the lobby: a listed game's free seat, a new token
                _, token = games.claim(game_id, req.name)
            seat = games.seat(game_id, token)
            for _ in range(5):  # another action may take the number first
                seq = games.view(game_id)["seq"]
                try:
                    games.act(game_id, token, seq + 1, {"type": "join", "name": req.name})
                    break
                except StaleAction:
                    continue
                except AccessDenied:
                    if req.token is None:  # another claim replaced this one's token
                        raise WrongState("the seat has been taken") from None
                    raise
            else:
                raise ApiError(503, "the game is too busy to join now: try again", "busy")
            out = {"side": seat.side, "state": games.view_for(game_id, seat.side)}
            if req.token is None:
                out["token"] = token
            return out

        out = await hub.call(do)
        await hub.push(game_id)
        return out

    @app.get("/api/online/lobby")
    async def lobby() -> dict[str, Any]:
        return {"games": await hub.call(games.lobby)}

    @app.get("/api/info")
    async def info() -> dict[str, Any]:
        from tavli.web.info import registry_info

        return registry_info()

    # --- the pages (tavli/web/static: the board code shared with tavli play) -----------
    @app.get("/", include_in_schema=False)
    async def start_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html", headers={"Cache-Control": "no-cache"})

    @app.get("/online/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        _game_id(game_id)
        return FileResponse(STATIC / "online.html", headers={"Cache-Control": "no-cache"})

    mount_static(app)   # the pages' files (tavli/web/pwa.py)

    @app.get("/api/online/games/{game_id}")
    async def state(game_id: str, request: Request) -> dict[str, Any]:
        _game_id(game_id)
        token = request.headers.get(SEAT_HEADER)

        def do() -> dict[str, Any]:
            games.refresh(game_id)
            side = games.seat(game_id, token).side if token is not None else None
            return {"side": side, "state": games.view_for(game_id, side)}

        return await hub.call(do)

    @app.get("/api/online/games/{game_id}/record")
    async def record(game_id: str) -> dict[str, Any]:
        return await hub.call(games.record, _game_id(game_id))

    # --- the AI seat -----------------------------------------------------------------
    async def drive_ai(game_id: str) -> None:
        """Play the AI seat's actions while it is its turn (one driver per game: a call
        while it runs makes it look again)."""
        t = games.tables.get(game_id)
        if t is not None and all(s.player != "ai" for s in t.seats.values()):
            return  # two people: nothing to do (and no thread to ask)
        again.add(game_id)
        if game_id in thinking:
            return
        thinking.add(game_id)
        try:
            from tavli.web import workers

            nonlocal pool
            steps = 0
            while game_id in again and steps < AI_STEPS:
                again.discard(game_id)
                got = await hub.call(ai_job, games, game_id)
                if got is None:
                    continue
                seq, job = got
                decision = workers.quick_action(job)
                if decision is None:
                    if pool is None:
                        pool = workers.default_pool()
                    decision = await pool.run(workers.ai_action, job, timeout=ai_deadline)
                again.add(game_id)  # look again after this action (or the one that won)
                steps += 1
                try:
                    await hub.call(games.act_for_ai, game_id, seq + 1,
                                            ai_action(decision))
                except StaleAction:
                    continue  # the game moved on meanwhile
                await hub.push(game_id)
        except Exception:  # noqa: BLE001 - the AI's failure must not take the server down
            import logging

            logging.getLogger("tavli.online").exception("the AI seat of %s failed", game_id)
        finally:
            thinking.discard(game_id)
            again.discard(game_id)

    # --- WebSocket -------------------------------------------------------------------
    async def hello(conn: Conn, msg: dict[str, Any]) -> None:
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
        hub.spawn(drive_ai(conn.game_id))

    async def act(conn: Conn, msg: dict[str, Any]) -> None:
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
                news = await hub.call(do)
                with contextlib.suppress(Exception):
                    await conn.ws.send_json({"type": "ack", "seq": seq})
        except BaseException:
            hub.spawn(hub.push(conn.game_id))  # whatever the store has now
            raise
        finally:
            if hub.acting.get(conn.game_id) == seq:
                del hub.acting[conn.game_id]
        await hub.push(conn.game_id, news)
        hub.spawn(drive_ai(conn.game_id))

    async def handle(conn: Conn, raw: dict[str, Any]) -> None:
        text = raw.get("text")
        msg = protocol.read_message(text if text is not None else raw.get("bytes", b""))
        try:
            await dispatch(conn, msg)
        except Exception as e:
            if msg["type"] == "act":  # the error names the action it refuses
                e.seq = msg["seq"]  # type: ignore[attr-defined]
            raise

    async def dispatch(conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            await conn.send({"type": "pong", "data": msg.get("data")})
        elif kind == "hello":
            if conn.hello:
                raise ProtocolError("hello: this connection has said hello already",
                                    "wrong_state")
            await hello(conn, msg)
        elif not conn.hello:
            raise ProtocolError("say hello first ({\"type\": \"hello\", \"token\": …})",
                                "hello_first")
        else:
            await act(conn, msg)

    @app.websocket("/ws/online/{game_id}")
    async def socket(ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        if not GAME_ID.match(game_id) or await hub.call(store.game, game_id) is None:
            await ws.send_json(error("no online game with this id", "not_found"))
            await ws.close(4404)
            return
        address = ws.client.host if ws.client else ""
        conn = Conn(ws, game_id, address, bucket=protocol.Bucket(rate, burst))
        crowded = hub.add(conn, per_address, per_game)
        if crowded is not None:
            await ws.send_json(error(crowded, "too_many_connections"))
            await ws.close(1008)
            return
        refused = 0
        try:
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
                try:
                    await handle(conn, raw)
                except TavliError as e:
                    a = online_error(e)
                    await conn.send(error(a.message, a.code, getattr(e, "seq", None)))
                except (WebSocketDisconnect, asyncio.CancelledError):
                    raise
                except Exception as e:  # noqa: BLE001 - a bug: logged, the connection lives on
                    import logging

                    logging.getLogger("tavli.online").exception("a message to %s failed",
                                                                game_id)
                    await conn.send(error("the server failed on this message (a bug, "
                                          "logged): reconnect to see where the game "
                                          "stands", "internal", getattr(e, "seq", None)))
        except WebSocketDisconnect:
            return
        finally:
            hub.remove(conn)
            if conn.hello:  # in the background: this task may be being cancelled
                hub.spawn(hub.refresh(game_id, gone=conn.side))

    return app


__all__ = ["create_online_app", "SEAT_HEADER", "ai_job", "ai_action"]
