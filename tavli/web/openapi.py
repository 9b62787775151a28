"""The apps' OpenAPI schemas (``GET /api/openapi.json``), exact: every route declares the
body it reads, what it answers and each error it can answer, so that a client generator
or a fuzzer can use the schema (docs/web.md and docs/server.md, "The schema").

The routes read their bodies themselves (:func:`tavli.web.errors.parse_body`: strict JSON
types, the app's error format), so FastAPI knows nothing of them: :func:`declared` gives a
route decorator its request body (the model's JSON Schema), its answer's model and its
errors, and :func:`install_openapi` builds the schema from them — the models' schemas
under ``components``, and the errors every request of an app may meet before it reaches
its route (the Host and Origin checks, JSON-only writes, the body's size, an address's
rate) added to each operation.

Every error is one model, :class:`ErrorBody` (``{"error", "code", "detail"}``), its codes
listed (:data:`CODES`), each status's in its description (:data:`STATUSES`).

>>> sorted(declared(None, 404, status=204)["responses"])
[204, 404]
>>> STATUSES[415][1]
('unsupported_media_type',)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field

#: what each status means and the codes it carries (every ``ApiError`` of the apps, the
#: refusals of tavli.web.security, tavli.web.limits and tavli.online.ratelimit)
STATUSES: dict[int, tuple[str, tuple[str, ...]]] = {
    400: ("a malformed request: its JSON, or its bytes", ("malformed_json", "bad_request",
                                                           "error")),
    401: ("no access token (tavli play --host), no session, or a wrong login",
          ("unauthorized", "logged_out", "login_failed")),
    403: ("another site's request, a host name not served, or a seat token that is not "
          "the seat's", ("forbidden_host", "forbidden_origin", "access_denied")),
    404: ("no such game, player or page", ("not_found", "http")),
    409: ("not now: the game's state, an action number already used, a name taken",
          ("wrong_state", "wrong_player", "game_over", "stale", "busy", "conflict",
           "corrupt", "read_only", "not_over", "no_cube", "not_due", "unavailable",
           "name_taken")),
    413: ("the request's body is too large", ("too_large",)),
    415: ("a write's body is not JSON (Content-Type: application/json)",
          ("unsupported_media_type",)),
    422: ("a field, parameter, move or record that cannot be used",
          ("invalid", "illegal_move", "invalid_record", "unsupported")),
    429: ("too many requests or failed logins: wait Retry-After seconds", ("rate_limited",)),
    500: ("the engine failed on this request (a bug)", ("engine",)),
    503: ("the engine or the database cannot answer now: try again",
          ("unavailable", "busy", "store")),
}
#: every error code the HTTP APIs answer
CODES = tuple(dict.fromkeys(code for _, codes in STATUSES.values() for code in codes))
ErrorCode = Literal[CODES]  # type: ignore[valid-type]
#: the models' schemas are referred to as OpenAPI has them
REF = "#/components/schemas/{model}"


class ErrorBody(BaseModel):
    """Every error's answer: one line, and a code saying what went wrong (the same in
    every language)."""

    model_config = ConfigDict(extra="forbid")

    error: str = Field(description="what went wrong, in the request's language")
    code: ErrorCode = Field(description="what went wrong, for programs")
    detail: str | None = Field(None, description="in another language than English: the "
                                                 "English words of what went wrong")


class Answer(BaseModel):
    """An answer's model: the fields the app answers, and no others."""

    model_config = ConfigDict(extra="forbid")


def error_answer(status: int) -> dict[str, Any]:
    """The declared answer of the error ``status``."""
    text, codes = STATUSES[status]
    out: dict[str, Any] = {"model": ErrorBody,
                           "description": f"{text} (code {', '.join(codes)})"}
    if status == 429:
        out["headers"] = {"Retry-After": {"description": "seconds to wait",
                                          "schema": {"type": "integer", "minimum": 1}}}
    return out


def error_spec(status: int) -> dict[str, Any]:
    """The OpenAPI answer of the error ``status`` (what FastAPI makes of
    :func:`error_answer`), for the operations' common errors."""
    out = {k: v for k, v in error_answer(status).items() if k != "model"}
    out["content"] = {"application/json": {"schema": {"$ref": REF.format(model="ErrorBody")}}}
    return out


def declared(ok: Any, *errors: int, status: int = 200, body: type[BaseModel] | None = None,
             body_required: bool = True, also: Mapping[int, tuple[Any, str]] | None = None,
             media: Mapping[str, Any] | None = None,
             description: str = "the answer") -> dict[str, Any]:
    """A route decorator's arguments: it answers ``ok`` (a model; None: no content) with
    ``status``, or one of ``errors`` (statuses of :data:`STATUSES`); it reads ``body``
    (a model, JSON; ``body_required``: an empty body is not its defaults); ``also``:
    other answers, ``{status: (model, description)}``; ``media``: the ``ok`` answer's
    other media types (``{"text/plain": {"schema": …}}``). The route's answer is not
    checked against the model at run time (the suite's schemathesis runs check it)."""
    answer: dict[str, Any] = {"description": description}
    if ok is not None:
        answer["model"] = ok
    if media:
        answer["content"] = dict(media)
    responses: dict[int | str, Any] = {status: answer}
    for code, (model, text) in (also or {}).items():
        responses[code] = {"model": model, "description": text}
    for code in errors:
        responses[code] = error_answer(code)
    out: dict[str, Any] = {"status_code": status, "response_model": None,
                           "responses": responses}
    if body is not None:
        out["openapi_extra"] = {"requestBody": {
            "required": body_required,
            "content": {"application/json": {"schema": body_schema(body)}}}}
    return out


def with_parameters(decl: dict[str, Any], *parameters: dict[str, Any]) -> dict[str, Any]:
    """:func:`declared`'s arguments and the OpenAPI ``parameters`` a route reads itself
    (a header, a query it reads as it comes)."""
    extra = decl.setdefault("openapi_extra", {})
    extra["parameters"] = [*extra.get("parameters", []), *parameters]
    return decl


def header(name: str, description: str) -> dict[str, Any]:
    """An optional header a route reads."""
    return {"name": name, "in": "header", "required": False, "description": description,
            "schema": {"type": "string"}}


def body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s JSON Schema as a request reads it, its nested models under ``$defs``
    (hoisted into ``components`` by :func:`install_openapi`)."""
    return model.model_json_schema(ref_template=REF, mode="validation")


def install_openapi(app: FastAPI, *, every: Iterable[int], writes: Iterable[int],
                    parameters: Iterable[dict[str, Any]] = (),
                    security: Mapping[str, dict[str, Any]] | None = None) -> None:
    """Make ``app.openapi()`` the exact schema: the routes' declarations (:func:`declared`)
    and, on every ``/api/`` operation, the errors ``every`` request may meet and those
    of ``writes`` (a body's: POST, DELETE), the ``parameters`` every request takes (the
    language) and the optional ``security`` schemes."""
    every, writes, parameters = tuple(every), tuple(writes), list(parameters)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version,
                                 description=app.description, routes=app.routes)
            components = schema.setdefault("components", {})
            models = components.setdefault("schemas", {})
            models.setdefault("ErrorBody", ErrorBody.model_json_schema(ref_template=REF))
            for path, operations in schema.get("paths", {}).items():
                for method, op in operations.items():
                    hoist_body(op, models)
                    own_validation_error(op)
                    if path.startswith("/api/"):
                        add_common(op, every + (writes if method != "get" else ()),
                                   parameters, security)
            for name in ("HTTPValidationError", "ValidationError"):  # FastAPI's, unused
                models.pop(name, None)
            if security:
                components["securitySchemes"] = dict(security)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def hoist_body(op: dict[str, Any], models: dict[str, Any]) -> None:
    """The operation's request body refers to its model under ``components``, as the
    answers' models do; the model's nested models go there too."""
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    if not content or "$ref" in content["schema"]:
        return
    schema = dict(content["schema"])
    for name, nested in schema.pop("$defs", {}).items():
        keep(models, name, nested)
    keep(models, schema["title"], schema)
    content["schema"] = {"$ref": REF.format(model=schema["title"])}


def own_validation_error(op: dict[str, Any]) -> None:
    """FastAPI declares its own 422 (``{"detail": [...]}``) on a route with parameters;
    the app answers a bad parameter as every error (:class:`ErrorBody`): on a route with a
    query parameter, which may be refused, its 422 is the app's; a route whose only
    parameters are its path's texts cannot answer 422 for them."""
    answer = op.get("responses", {}).get("422")
    if answer is None or "HTTPValidationError" not in str(answer):
        return
    if any(p["in"] == "query" for p in op.get("parameters", [])):
        op["responses"]["422"] = error_spec(422)
    else:
        del op["responses"]["422"]


def keep(models: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
    """Put ``schema`` under ``name``; two different models of one name are a bug."""
    if models.setdefault(name, schema) != schema:
        raise ValueError(f"two different models are named {name} in the schema")


def add_common(op: dict[str, Any], statuses: Iterable[int],
               parameters: list[dict[str, Any]],
               security: Mapping[str, dict[str, Any]] | None) -> None:
    """The errors ``statuses`` and the ``parameters`` on the operation ``op``."""
    responses = op.setdefault("responses", {})
    for status in statuses:
        responses.setdefault(str(status), error_spec(status))
    names = {(p["name"], p["in"]) for p in op.get("parameters", [])}
    op["parameters"] = op.get("parameters", []) + [
        p for p in parameters if (p["name"], p["in"]) not in names]
    if not op["parameters"]:
        del op["parameters"]
    if security:
        op.setdefault("security", [{}, *({name: []} for name in security)])


#: the language of the answers (also the ``X-Tavli-Lang`` and ``Accept-Language``
#: headers): English for one the app does not know
LANG = {"name": "lang", "in": "query", "required": False,
        "description": "the answers' language (en, el, it, de; another: English)",
        "schema": {"type": "string"}}

__all__ = ["ErrorBody", "Answer", "declared", "install_openapi", "STATUSES", "CODES",
           "LANG", "error_answer", "with_parameters", "header"]
