"""The browser app's routes (docs/web.md, "The HTTP API"), one ``mount_*`` per domain over
a :class:`~tavli.web.context.WebContext`; :func:`tavli.web.app.create_app` calls them in
this order (FastAPI matches routes in the order they were added):

* :func:`mount_pages`: ``GET /`` (the page) and the pages' static files;
* :func:`mount_games`: ``/api/games`` (the list of every game, a new one: a dice game or
  match, or Dama) and ``/api/games/{id}`` (one game read, deleted);
* :func:`mount_play`: a game's actions, ``POST /api/games/{id}/``\\ ``roll``, ``double``,
  ``take``, ``drop``, ``rematch``, ``ai``, ``next``, ``move``, ``huff``, ``undo`` (each
  game's kind answers those it has: :mod:`tavli.web.kind`);
* :func:`mount_analysis`: ``GET …/hint`` (the moves ranked), ``GET …/cube-hint``;
* :func:`mount_review`: ``POST …/continue`` (an imported record played on) and
  ``GET …/review`` (a game's review, 202 while it is being made);
* :func:`mount_records`: ``GET …/record`` (export) and ``POST /api/records`` (import);
* :func:`mount_info`: ``GET /api/info``, ``GET /api/warmup``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response

from tavli.engine.games import game_names
from tavli.web import cubehint, exchange, listing, reviews, workers
from tavli.web.answers import (
    CubeHint,
    GameList,
    GameState,
    Hint,
    LocalInfo,
    Record,
    Warmup,
)
from tavli.web.context import WebContext
from tavli.web.dicegames import engine_name
from tavli.web.errors import ApiError, Body, Side, body
from tavli.web.info import registry_info
from tavli.web.kind import HuffBody, MoveBody, ResignBody
from tavli.web.newgame import ContinueGame, NewGame
from tavli.web.openapi import declared
from tavli.web.pwa import mount_static
from tavli.web.records import Upload
from tavli.web.warmup import ready_status

STATIC = Path(__file__).with_name("static")
REVIEW_WAIT = 1.0  # seconds a review request waits for the review before answering 202
#: the errors of a route that names a game: none with its id, a stored game that does
#: not replay (409 corrupt)
GAME = (404, 409)


def mount_pages(app: FastAPI, ctx: WebContext) -> None:
    """``GET /`` (the page, tavli/web/static/index.html) and the pages' files
    (:func:`tavli.web.pwa.mount_static`)."""

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    mount_static(app)   # the pages' files (tavli/web/pwa.py)


def mount_games(app: FastAPI, ctx: WebContext) -> None:
    """``GET``, ``POST /api/games`` (the stored games' list, every kind; a new game or
    match); ``GET``, ``DELETE /api/games/{id}``."""
    api, call = ctx.api, ctx.call

    @app.get("/api/games", **declared(GameList, 422))
    async def list_games(query: listing.GamesQuery) -> dict[str, Any]:
        return await call(api.list, query)

    @app.post("/api/games", **declared(GameState, 422, status=201, body=NewGame,
                                       body_required=False))
    async def new_game(request: Request) -> dict[str, Any]:
        return await call(api.create, await body(request, NewGame))

    @app.get("/api/games/{game_id}", **declared(GameState, *GAME))
    async def get_game(game_id: str) -> dict[str, Any]:
        return await call(api.get, game_id)

    @app.delete("/api/games/{game_id}", **declared(None, 404, status=204,
                                                   description="deleted"))
    async def delete_game(game_id: str) -> Response:
        await call(api.delete, game_id)
        return Response(status_code=204)


def mount_play(app: FastAPI, ctx: WebContext) -> None:
    """A game's actions: ``POST /api/games/{id}/roll``, ``double``, ``take``, ``drop``,
    ``beaver``,
    ``undo`` (``{"side": …}``), ``rematch``, ``ai`` (thought out in the worker processes),
    ``next`` (a match's next game), ``move``, ``huff``, ``resign`` (``{"value": "gammon"}``)."""
    api, call = ctx.api, ctx.call

    # each answers the new state; 409: not now (the turn, the phase, an imported record),
    # 422: an illegal or malformed move, an action the game's kind has not
    act = declared(GameState, *GAME, 422, body=Side, body_required=False)
    for name in ("roll", "double", "take", "drop", "beaver", "undo"):
        def make(fn: Callable[..., Any]) -> Callable[..., Any]:
            async def endpoint(game_id: str, request: Request) -> dict[str, Any]:
                return await call(fn, game_id, await body(request, Side))
            return endpoint

        app.post(f"/api/games/{{game_id}}/{name}", name=name, **act)(make(getattr(api, name)))

    @app.post("/api/games/{game_id}/rematch",
              **declared(GameState, *GAME, 422, status=201, body=Body, body_required=False))
    async def rematch(game_id: str, request: Request) -> dict[str, Any]:
        await body(request, Body)   # no fields: only a malformed body is refused
        return await call(api.rematch, game_id)

    @app.post("/api/games/{game_id}/ai",  # 503: the engine too slow, its worker gone
              **declared(GameState, *GAME, 422, 503, body=Side, body_required=False))
    async def ai(game_id: str, request: Request) -> dict[str, Any]:
        return await api.think(game_id, await body(request, Side), ctx.pool, ctx.ai_deadline)

    @app.post("/api/games/{game_id}/next", **act)
    async def next_game(game_id: str, request: Request) -> dict[str, Any]:
        return await call(api.next_game, game_id, await body(request, Side))

    @app.post("/api/games/{game_id}/move", **declared(GameState, *GAME, 422, body=MoveBody))
    async def move(game_id: str, request: Request) -> dict[str, Any]:
        return await call(api.move, game_id, await body(request, MoveBody, required=True))

    @app.post("/api/games/{game_id}/resign",
              **declared(GameState, *GAME, 422, body=ResignBody, body_required=False))
    async def resign(game_id: str, request: Request) -> dict[str, Any]:
        return await call(api.resign, game_id, await body(request, ResignBody))

    @app.post("/api/games/{game_id}/huff", **declared(GameState, *GAME, 422, body=HuffBody))
    async def huff(game_id: str, request: Request) -> dict[str, Any]:
        return await call(api.huff, game_id, await body(request, HuffBody, required=True))


def mount_analysis(app: FastAPI, ctx: WebContext) -> None:
    """``GET /api/games/{id}/hint`` (the legal moves ranked) and ``GET …/cube-hint`` (the
    cube decision due), each thought out in the worker processes."""
    api, call, pool = ctx.api, ctx.call, ctx.pool

    @app.get("/api/games/{game_id}/hint", **declared(Hint, *GAME, 422, 503))
    async def hint(game_id: str, level: str | None = None) -> dict[str, Any]:
        out, job = await call(api.hint_job, game_id, level)
        return {**out, **await pool.run(workers.hint_moves, job, timeout=ctx.ai_deadline)}

    @app.get("/api/games/{game_id}/cube-hint", **declared(CubeHint, *GAME, 422, 503))
    async def cube_hint(game_id: str, level: str | None = None) -> dict[str, Any]:
        job = await call(api.cube_hint_job, game_id, level)
        return await pool.run(cubehint.cube_hint, job, timeout=ctx.ai_deadline)


def mount_review(app: FastAPI, ctx: WebContext) -> None:
    """``POST /api/games/{id}/continue`` (a new game going on from an imported, review-only
    record) and ``GET /api/games/{id}/review`` (the review, made in the background)."""
    api, call = ctx.api, ctx.call

    @app.post("/api/games/{game_id}/continue",
              **declared(GameState, *GAME, 422, status=201, body=ContinueGame,
                         body_required=False))
    async def continue_game(game_id: str, request: Request) -> dict[str, Any]:
        return await call(api.continue_game, game_id, await body(request, ContinueGame))

    @app.get("/api/games/{game_id}/review", **reviews.ANSWERS)
    async def review(game_id: str, ply: Literal["0", "1", "2"] | None = None) -> Response:
        """The review when it is made (200), else its progress (202: ask again)."""
        job = await call(api.review_job, game_id, None if ply is None else int(ply))
        return await reviews.answer(job, REVIEW_WAIT)


def mount_records(app: FastAPI, ctx: WebContext) -> None:
    """``GET /api/games/{id}/record`` (a tavli record, a gnubg .mat or .sgf file; a
    download with ``download=true``) and ``POST /api/records`` (a record or file
    imported: a review-only game)."""
    api, call = ctx.api, ctx.call

    @app.get("/api/games/{game_id}/record",
             **declared(Record, *GAME, 422, media=exchange.TEXT_ANSWERS,
                        description="the record (format=json), or a gnubg file's text"))
    async def record(game_id: str, download: bool = False,
                     format: Literal["json", "mat", "sgf"] = "json") -> Response:
        headers = {"Content-Disposition": f'attachment; filename="tavli-{game_id}.{format}"'} \
            if download else {}
        if format == "json":
            return JSONResponse(await call(api.export, game_id), headers=headers)
        text = await call(api.export_text, game_id, format)
        return PlainTextResponse(text, media_type=exchange.MEDIA[format], headers=headers)

    @app.post("/api/records", **declared(GameState, 422, status=201, body=Upload))
    async def import_record(request: Request) -> dict[str, Any]:
        raw = await request.body()

        def read() -> dict[str, Any]:  # a record can be large: not on the event loop
            try:
                data = json.loads(raw)
            except (ValueError, RecursionError) as e:  # also huge numbers, deep nesting
                raise ApiError(400, f"malformed JSON: {e}", "malformed_json") from None
            return api.import_record(data)

        return await call(read)


def mount_info(app: FastAPI, ctx: WebContext) -> None:
    """``GET /api/info``: the games, rotations and levels, and each game's engine."""
    @app.get("/api/info", **declared(LocalInfo))
    async def info() -> dict[str, Any]:
        return {**registry_info(), "engines": {n: engine_name(n) for n in game_names()}}

    @app.get("/api/warmup", **declared(Warmup))
    async def warmup_status() -> dict[str, Any]:
        """How far the engine's warm-up is (the page's progress bar on a first run)."""
        warm = getattr(app.state, "warmup", None)
        return warm.status() if warm is not None else ready_status()


__all__ = ["mount_pages", "mount_games", "mount_play", "mount_analysis", "mount_review",
           "mount_records", "mount_info", "REVIEW_WAIT"]
