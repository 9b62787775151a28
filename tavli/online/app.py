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

:func:`create_online_app` builds what the routes share once (an
:class:`~tavli.online.context.OnlineContext`), then mounts each domain in order:
:mod:`tavli.online.routes` (the HTTP routes above, ``mount_seats``, ``mount_info``,
``mount_pages``, ``mount_reads``), :mod:`tavli.online.lobby` (the seeks),
:mod:`tavli.online.players` (accounts, profiles), :mod:`tavli.online.ws`
(``mount_socket``); the AI seat's
driver is :class:`tavli.online.aiseat.AiSeat`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from tavli.errors import TavliError, kind_key
from tavli.online import protocol
from tavli.online.accounts import LOGIN_LIMITS, Accounts, LoginLimits
from tavli.online.aiseat import AiSeat
from tavli.online.badframes import quiet_bad_frames
from tavli.online.chat import mount_chat
from tavli.online.clock import DEFAULT_ABANDON
from tavli.online.context import OnlineContext
from tavli.online.hub import PRESENCE_BEAT, Hub, online_error
from tavli.online.lobby import mount_lobby
from tavli.online.players import COOKIE, mount_accounts, mount_profiles
from tavli.online.ratelimit import WRITE_BURST, WRITE_RATE, AddressLimit
from tavli.online.review import mount_review
from tavli.online.routes import mount_info, mount_pages, mount_reads, mount_seats
from tavli.online.service import OnlineGames
from tavli.online.ws import mount_socket
from tavli.store.factory import open_store
from tavli.store.online import OnlineStore
from tavli.web.errors import api_body, error_headers, install_handlers, translated
from tavli.web.lang import LangMiddleware, mount_i18n, request_lang
from tavli.web.limits import BodyLimit
from tavli.web.openapi import LANG, install_openapi
from tavli.web.pwa import mount_pwa
from tavli.web.rules import mount_rules
from tavli.web.security import LOOPBACK_NAMES, Guard

#: the session of a player logged in (optional: a guest plays without)
SESSION_SCHEME = {"type": "apiKey", "in": "cookie", "name": COOKIE,
                  "description": "the session cookie of POST /api/account/login"}
#: threads of the thread pool (the store's reads and writes, the engine's checks)
THREADS = 4


def lifespan(ctx: OnlineContext, threads: int | None, close_store: bool) -> Any:
    """The app's lifespan: the thread pool's size (``threads``; None: anyio's), the hub
    started and stopped, then the store closed if the app opened it (``close_store``)."""

    @contextlib.asynccontextmanager
    async def span(app: FastAPI):
        if threads is not None:
            import anyio.to_thread

            anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        quiet_bad_frames()  # uvicorn's log: one line a minute about invalid frames
        await ctx.hub.start()
        app.state.chat.start()  # other processes' chat messages, read once a second
        try:
            yield
        finally:
            app.state.chat.stop()
            await ctx.hub.stop()
            if close_store:
                ctx.store.close()

    return span


async def _error(request: Request, exc: TavliError) -> JSONResponse:
    """The online errors' own statuses (:func:`tavli.online.hub.online_error`), in the
    request's language: the catalogue's message of an error that names its own (a wrong
    login, a username taken…), else the words of its code with the English detail (what
    a kind's general words, "that cannot be done now", would leave out)."""
    e = online_error(exc)
    lang = request_lang(request)
    if e.key is not None and e.key != kind_key(exc):
        body = api_body(e, lang)
    else:
        body = translated(e.message, e.code, lang)
    return JSONResponse(body, status_code=e.status, headers=error_headers(e))


def create_online_app(db: str | Path | OnlineStore = ":memory:", *,
                      allowed_hosts: Iterable[str] | None = LOOPBACK_NAMES,
                      pool: Any = None, ai_deadline: float = 60.0,
                      rate: float = protocol.RATE, burst: int = protocol.BURST,
                      presence_beat: float = PRESENCE_BEAT,
                      per_address: int = protocol.PER_ADDRESS,
                      per_game: int = protocol.PER_GAME,
                      http_rate: float = WRITE_RATE, http_burst: int = WRITE_BURST,
                      abandon_after: float | None = DEFAULT_ABANDON,
                      threads: int | None = THREADS, hasher: Any = None,
                      login_limits: LoginLimits = LOGIN_LIMITS) -> FastAPI:
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
    database connection's lock and fight for the GIL, which slows them all);
    ``hasher``: the accounts' password hasher (None: Argon2id's defaults);
    ``login_limits``: failed logins allowed (:class:`tavli.online.accounts.LoginLimits`)."""
    store = db if isinstance(db, OnlineStore) else open_store(str(db))
    games = OnlineGames(store, beat=presence_beat, abandon_after=abandon_after)
    hub = Hub(games, presence_beat)
    ctx = OnlineContext(store, games, hub, AiSeat(games, hub, pool, ai_deadline),
                        Accounts(store, hasher=hasher, limits=login_limits), rate=rate,
                        burst=burst, per_address=per_address, per_game=per_game)

    app = FastAPI(title="tavli online", version="1", docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json",
                  lifespan=lifespan(ctx, threads, not isinstance(db, OnlineStore)))
    app.state.games = games
    app.state.hub = hub
    app.add_middleware(LangMiddleware)
    app.add_middleware(BodyLimit)
    app.add_middleware(AddressLimit, rate=http_rate, burst=http_burst)
    app.add_middleware(Guard, allowed_hosts=allowed_hosts)
    install_handlers(app)
    app.exception_handler(TavliError)(_error)  # the online errors' own statuses
    mount_i18n(app)  # GET /api/i18n: the pages' texts in the player's language
    mount_rules(app)  # GET /rules/{game}: the rules for players
    mount_pwa(app)    # the manifest and the service worker: installable
    mount_seats(app, ctx)   # POST /api/online/games, …/join (tavli/online/routes.py)
    mount_info(app, ctx)    # GET /api/info
    mount_lobby(app, ctx)   # the seeks: GET /api/online/lobby, play-now, /ws/lobby (lobby.py)
    mount_pages(app, ctx)   # GET /, /online/{id}, the pages' files
    mount_reads(app, ctx)   # GET /api/online/games/{id}, …/record
    mount_accounts(app, ctx)  # /api/account/… (tavli/online/players.py)
    mount_profiles(app, ctx)  # GET /api/players/{name}, /api/leaderboard/{game}
    mount_socket(app, ctx)  # /ws/online/{id} (tavli/online/ws.py; the AI seat: aiseat.py)
    mount_chat(app, ctx)    # …/chat: the players' messages (tavli/online/chat.py)
    mount_review(app, ctx, pool)  # …/review, …/export of a finished game (review.py)
    # the schema: 403 another site or host name, 429 an address's rate; a write's body:
    # 400 malformed, 413 too large, 415 not JSON
    install_openapi(app, every=(403, 429), writes=(400, 413, 415), parameters=[LANG],
                    security={"session": SESSION_SCHEME})
    return app


__all__ = ["create_online_app"]
