"""The language of a request, and the page's message catalogue (``GET /api/i18n``).

A request's language is its ``?lang=`` or ``X-Tavli-Lang`` header (the player's choice,
kept by the page in ``localStorage``), else the best of its ``Accept-Language``, else
English (:func:`tavli.i18n.negotiate`). The API's errors are translated into it
(:mod:`tavli.web.errors`), and so are the state's messages (:class:`LangMiddleware`,
:mod:`tavli.web.shown`); the page asks for the catalogue of its language once, at
start, and looks every text up in it by key.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from tavli import i18n
from tavli.web.answers import Catalogue
from tavli.web.openapi import declared


def request_lang(request: Request) -> str:
    """The language ``request`` asks for (one of :data:`tavli.i18n.LANGUAGES`)."""
    chosen = request.query_params.get("lang") or request.headers.get(i18n.HEADER)
    return i18n.negotiate(request.headers.get("accept-language"), chosen)


class LangMiddleware:
    """ASGI middleware: the texts of each HTTP request's answer (the state's messages)
    are written in its language (:func:`tavli.i18n.using`)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with i18n.using(request_lang(Request(scope))):
            await self.app(scope, receive, send)


def mount_i18n(app: FastAPI) -> None:
    """``GET /api/i18n``: the catalogue of the request's language, ``{"lang",
    "languages", "messages"}`` (:func:`tavli.i18n.catalogue`)."""

    @app.get("/api/i18n", **declared(Catalogue))
    async def catalogue(request: Request) -> JSONResponse:
        body: dict[str, Any] = i18n.catalogue(request_lang(request))
        return JSONResponse(body, headers={"Vary": "Accept-Language, X-Tavli-Lang",
                                           "Cache-Control": "no-cache"})


__all__ = ["request_lang", "LangMiddleware", "mount_i18n"]
