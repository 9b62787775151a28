"""The browser app (FastAPI): its middleware and error answers, then its routes, one
domain at a time (docs/web.md).

:func:`create_app` builds what the routes share once (a
:class:`~tavli.web.context.WebContext` over a :class:`~tavli.web.api.TavliApi`, the one
API of every game, Dama's too) and mounts, in order: the i18n texts, the rules pages, the
PWA files (:mod:`tavli.web.lang`, :mod:`tavli.web.rules`, :mod:`tavli.web.pwa`); the page
and the games' API (:mod:`tavli.web.routes`: pages, games, play, analysis, review,
records, info).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from tavli.web import workers
from tavli.web.api import TavliApi
from tavli.web.context import WebContext
from tavli.web.errors import install_handlers, translated
from tavli.web.lang import LangMiddleware, mount_i18n, request_lang
from tavli.web.limits import REVIEWS, SESSIONS, BodyLimit
from tavli.web.openapi import LANG, install_openapi
from tavli.web.pwa import mount_pwa
from tavli.web.routes import (
    mount_analysis,
    mount_games,
    mount_info,
    mount_pages,
    mount_play,
    mount_records,
    mount_review,
)
from tavli.web.rules import mount_rules
from tavli.web.security import LOOPBACK_NAMES, Guard
from tavli.web.workers import EnginePool, PoolError

#: the access token of ``tavli play --host`` (none on loopback)
TOKEN_SCHEME = {"type": "apiKey", "in": "header", "name": "X-Tavli-Token",
                "description": "the token printed by tavli play --host (not on loopback)"}


async def _pool_error(request: Request, exc: PoolError) -> JSONResponse:
    # the engine too slow or its worker gone: err.unavailable in the request's language
    return JSONResponse(translated(str(exc), "unavailable", request_lang(request)),
                        status_code=503)


def create_app(db_path: str | Path = ":memory:", *, analysis_ply: int = 1,
               allowed_hosts: Iterable[str] | None = LOOPBACK_NAMES, token: str | None = None,
               pool: EnginePool | None = None, sessions: int = SESSIONS,
               reviews: int = REVIEWS, ai_deadline: float = workers.AI_DEADLINE) -> FastAPI:
    """The FastAPI app serving the page and the API over the SQLite file ``db_path``.

    ``allowed_hosts``: the host names the app answers to (the served addresses; None:
    any); ``token``: the secret every API request must carry (``tavli play --host``);
    ``pool``: the worker processes where the engine thinks (default: the process's
    shared pool, one worker per core); ``sessions``, ``reviews``: games and finished
    reviews kept in memory; ``ai_deadline``: seconds an AI move or a hint may take."""
    pool = pool or workers.default_pool()
    api = TavliApi(db_path, analysis_ply=analysis_ply, pool=pool, sessions=sessions,
                   reviews=reviews)
    ctx = WebContext(api, pool, sessions=sessions, ai_deadline=ai_deadline)
    # no /api/docs: its page loads scripts from a CDN and runs inline ones (see the CSP)
    app = FastAPI(title="tavli", version="1", docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.state.api = api
    app.state.pool = pool
    app.add_middleware(LangMiddleware)
    app.add_middleware(BodyLimit)
    app.add_middleware(Guard, allowed_hosts=allowed_hosts, token=token)
    app.exception_handler(PoolError)(_pool_error)
    install_handlers(app)
    mount_i18n(app)
    mount_rules(app)    # GET /rules/{game}: the rules for players (tavli/web/rules.py)
    mount_pwa(app)      # the manifest and the service worker (tavli/web/pwa.py)
    mount_pages(app, ctx)     # GET /, the pages' files (tavli/web/routes.py)
    mount_games(app, ctx)     # /api/games, /api/games/{id}
    mount_play(app, ctx)      # POST /api/games/{id}/roll, …/move, …/ai
    mount_analysis(app, ctx)  # GET …/hint, …/cube-hint
    mount_review(app, ctx)    # POST …/continue, GET …/review
    mount_records(app, ctx)   # GET …/record, POST /api/records
    mount_info(app, ctx)      # GET /api/info
    # the schema: 401 without the token (--host), 403 another site or host name; a write's
    # body: 400 malformed, 413 too large, 415 not JSON
    install_openapi(app, every=(401, 403), writes=(400, 413, 415), parameters=[LANG],
                    security={"token": TOKEN_SCHEME})
    return app


__all__ = ["create_app"]
