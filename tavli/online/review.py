"""A finished online game looked at again (docs/server.md, "Replay and review"): its
review — the same analysis as the browser app's (errors, luck, cube decisions, the
win-probability chart), made in the engine's worker processes in parts — and its export
as a tavli record or a gnubg ``.mat``/``.sgf`` file.

Only once the game or match is over: a review of a game in play would be help from the
engine for the player to move (409 until then).

* ``GET /api/online/games/{id}/review?ply=0|1|2``: 200 with the review, or 202 with its
  progress while it is being made (ask again); the answer is the browser app's
  (:func:`tavli.web.reviews.start_review`, docs/web.md). Reviews are shared by the
  requests for the same game and ply, and the last few are kept; at most
  :data:`MAKING` are made at once (another is refused, 503 ``busy``).
* ``GET /api/online/games/{id}/export?format=json|mat|sgf&download=true``: the record
  (with its fair-dice proof) or the gnubg file (422 for a game those files cannot hold).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool

from tavli.errors import WrongState
from tavli.online.context import OnlineContext, check_game_id
from tavli.online.routes import GAME
from tavli.web import exchange, workers
from tavli.web.answers import Record
from tavli.web.openapi import declared
from tavli.web.reviews import ANSWERS, Reviews, answer, start_review

#: the ply of a review unless asked (the AI's levels do not apply: two people played)
PLY = 1
#: reviews in the making at once on a process (anyone may ask: beyond it, 503)
MAKING = 4


def finished(ctx: OnlineContext, game_id: str) -> Any:
    """The table of ``game_id`` once it is over (409 before)."""
    t = ctx.games.table(check_game_id(game_id))
    if not t.finished:
        raise WrongState("the review and the export open when the game is over")
    return t


def mount_review(app: FastAPI, ctx: OnlineContext, pool: Any = None) -> None:
    """``GET /api/online/games/{id}/review`` and ``…/export`` (``pool``: the engine's
    worker processes; None: the process's, made when first needed)."""
    state: dict[str, Reviews] = {}

    def reviews() -> Reviews:
        if "r" not in state:
            state["r"] = Reviews(pool or workers.default_pool(), most=MAKING)
        return state["r"]

    def job(game_id: str, ply: int | None) -> Any:
        t = finished(ctx, game_id)
        with t.lock:
            record = t.record()
            names = [s.name or s.side for s in t.seats.values()]
            title = f"{t.row.variant}: {' – '.join(names)}"
            obj = t.obj
        return start_review(reviews(), game_id, obj, record, title, {}, ply, PLY)

    @app.get("/api/online/games/{game_id}/review", **ANSWERS)
    async def review(game_id: str, ply: Literal["0", "1", "2"] | None = None) -> Response:
        return await answer(await run_in_threadpool(job, game_id,
                                                    None if ply is None else int(ply)))

    # 409: not over yet; 422: a format the game has not (mat and sgf: backgammon's)
    @app.get("/api/online/games/{game_id}/export",
             **declared(Record, 409, 422, *GAME, media=exchange.TEXT_ANSWERS,
                        description="the record (format=json), or a gnubg file's text"))
    async def export(game_id: str, format: Literal["json", "mat", "sgf"] = "json",
                     download: bool = False) -> Response:
        def make() -> Any:
            t = finished(ctx, game_id)
            with t.lock:
                return t.record() if format == "json" else exchange.export_checked(t.obj,
                                                                                   format)

        got = await run_in_threadpool(make)
        headers = ({"Content-Disposition": f'attachment; filename="tavli-{game_id}.{format}"'}
                   if download else {})
        if format == "json":
            return JSONResponse(got, headers=headers)
        return PlainTextResponse(got, media_type=exchange.MEDIA[format], headers=headers)


__all__ = ["mount_review", "PLY"]
