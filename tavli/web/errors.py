"""The browser app's errors and the reading of request bodies, shared by every API
(games and matches, Dama, the lists).

Every error a request can cause is answered as ``{"error": message, "code": code}`` with
an HTTP status: an :class:`ApiError` raised anywhere, or an engine error
(:class:`tavli.errors.TavliError`) translated by :func:`engine_error`.

>>> engine_error(IllegalMove("24/18 is blocked")).status
422
>>> parse_body(b'{"side": "white"', Side, False)
Traceback (most recent call last):
...
tavli.errors.ApiError: malformed JSON: Expecting ',' delimiter: line 1 column 17 (char 16)
"""

from __future__ import annotations

import json
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from tavli import i18n
from tavli.errors import ApiError, GameOver, IllegalMove, TavliError, WrongState, kind_key
from tavli.web.lang import request_lang


def api_body(e: ApiError, lang: str = i18n.DEFAULT) -> dict[str, Any]:
    """The answer's body of ``e`` in ``lang`` (:func:`translated`)."""
    return translated(e.message, e.code, lang, e.key, e.params)


def translated(message: str, code: str, lang: str, key: str | None = None,
               params: dict[str, Any] | None = None) -> dict[str, Any]:
    """An error's body in ``lang``: ``{"error", "code"}``; in English the message as it is;
    in another language the catalogue's ``key`` when the error has one, else the text of
    its code (``err.<code>``) with the English ``message`` as ``"detail"``.

    >>> translated("illegal move: 24/18 is blocked", "illegal_move", "de")
    {'error': 'Ungültiger Zug', 'code': 'illegal_move', 'detail': 'illegal move: 24/18 is blocked'}
    >>> translated("it is black's turn", "wrong_player", "en")
    {'error': "it is black's turn", 'code': 'wrong_player'}
    """
    if lang == i18n.DEFAULT:
        return {"error": message, "code": code}
    if key is not None:
        return {"error": i18n.gettext(lang, key, **(params or {})), "code": code}
    text = i18n.gettext(lang, f"err.{code}")
    if text == f"err.{code}":
        text = i18n.gettext(lang, "err.error")
    return {"error": text, "code": code, "detail": message}


def error_headers(e: ApiError) -> dict[str, str] | None:
    """The headers of ``e``'s answer: ``Retry-After`` when it says how long to wait."""
    return None if e.retry_after is None else {"Retry-After": str(e.retry_after)}


def engine_error(e: TavliError) -> ApiError:
    """The answer to an engine error: an illegal move or bad text 422, an action at the
    wrong moment 409."""
    if isinstance(e, ApiError):
        return e
    # in another language than English, the catalogue's words for what happened (the
    # engine's English text is the English answer)
    key = kind_key(e)
    if isinstance(e, IllegalMove):
        return ApiError(422, f"illegal move: {e}", "illegal_move", key=key)
    if isinstance(e, GameOver):
        return ApiError(409, str(e), "game_over", key=key)
    if isinstance(e, WrongState):
        return ApiError(409, str(e), "wrong_state", key=key)
    if key is not None:
        return ApiError(422, str(e), "invalid", key=key)
    return ApiError(400, str(e), "error")


class Body(BaseModel):
    """A request body: no unknown fields, JSON's own types (``"5"`` is not 5)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Side(Body):
    """A body that may name the side acting (``{"side": "white"}``)."""

    side: Literal["white", "black"] | None = None


def either(what: str, **fields: Any) -> None:
    """422 unless exactly one of ``fields`` is given (not None); ``what`` says how each is
    written."""
    if sum(v is not None for v in fields.values()) != 1:
        raise ApiError(422, f"give either {what}", "invalid", key="err.either",
                       params={"fields": ", ".join(fields)})


def parse_body(raw: bytes, model: type[BaseModel], required: bool) -> Any:
    """Read a JSON body into ``model``: 400 for malformed JSON, 422 for bad fields; an
    empty body is the model's defaults unless ``required``."""
    if not raw.strip():
        if required:
            raise ApiError(422, "a JSON object body is required", "invalid",
                           key="err.json_object")
        return model()
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as e:  # also huge numbers, deep nesting
        raise ApiError(400, f"malformed JSON: {e}", "malformed_json",
                       key="err.malformed_json") from None
    if not isinstance(data, dict):
        raise ApiError(422, "the body must be a JSON object", "invalid", key="err.json_object")
    try:  # strict types, as JSON has them: "5" is not 5, true is not 1
        return model.model_validate_json(raw)
    except ValidationError as e:
        if any(err.get("type") == "json_invalid" for err in e.errors()):
            raise ApiError(400, f"malformed JSON: {validation_text(e)}",
                           "malformed_json", key="err.malformed_json") from None
        raise ApiError(422, validation_text(e), "invalid", key="err.fields",
                       params={"fields": bad_fields(e)}) from None


def bad_fields(e: ValidationError) -> str:
    """The names of the fields ``e`` finds wrong (``level, side``): the API's own words,
    the same in every language."""
    names = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        if loc and loc not in names:
            names.append(loc)
    return ", ".join(names)[:120] or "?"


def validation_text(e: ValidationError) -> str:
    """One line naming each bad field and what is wrong with it."""
    parts = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        msg = err.get("msg", "invalid")
        if err.get("type") == "extra_forbidden":
            msg = "unknown field"
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts) or "invalid request"


async def body(request: Request, model: type[BaseModel], required: bool = False) -> Any:
    """:func:`parse_body` of ``request``'s body."""
    return parse_body(await request.body(), model, required)


def install_handlers(app: FastAPI) -> None:
    """Answer every error in the app's format, in the request's language
    (:func:`translated`): ApiError and engine errors, bad query values (422), unknown
    paths and methods."""

    def answer(request: Request, status: int, message: str, code: str) -> JSONResponse:
        return JSONResponse(translated(message, code, request_lang(request)),
                            status_code=status)

    @app.exception_handler(TavliError)
    async def _tavli_error(request: Request, exc: TavliError) -> JSONResponse:
        e = engine_error(exc)
        return JSONResponse(api_body(e, request_lang(request)), status_code=e.status,
                            headers=error_headers(e))

    @app.exception_handler(RequestValidationError)
    async def _query_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        where = ", ".join(".".join(str(x) for x in e.get("loc", ())) + ": " + str(e.get("msg"))
                          for e in exc.errors())
        fields = ", ".join(dict.fromkeys(".".join(str(x) for x in e.get("loc", ())
                                                  if x not in ("query", "path"))
                                         for e in exc.errors()))[:120] or "?"
        e = ApiError(422, f"invalid request: {where}", "invalid", key="err.fields",
                     params={"fields": fields})
        return JSONResponse(api_body(e, request_lang(request)), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404:
            e = ApiError(404, "not found", "http", key="err.not_found")
            return JSONResponse(api_body(e, request_lang(request)), status_code=404)
        # a body that grew past the limit while it was read (limits.TooLarge)
        code = "too_large" if exc.status_code == 413 else "http"
        return answer(request, exc.status_code, str(exc.detail), code)


__all__ = ["ApiError", "api_body", "translated", "engine_error", "error_headers", "Body",
           "Side", "either", "parse_body", "validation_text", "bad_fields", "body",
           "install_handlers"]
