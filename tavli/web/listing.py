"""The lists of stored games, a page at a time: filtered by variant, status and a text in
the title, newest first, with the number of rows that match (docs/web.md).

Three lists read the app's SQLite file: the backgammon-family games (table ``games``,
``GET /api/games``), the Dama games (``dama_games``, ``GET /api/dama``) and both together
(``GET /api/library``, what the page's Games dialog shows).

>>> from tavli.web.store import Store
>>> st = Store(":memory:")
>>> for i, v in enumerate(("portes", "fevga", "portes")):
...     st.save(f"g{i}", kind="game", variant=v, status="playing", title=f"{v} {i}",
...             record={}, meta={})
>>> out = page(st, ListQuery(variant="portes", limit=1), TAVLI)
>>> out["total"], [g["id"] for g in out["games"]]
(2, ['g2'])
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query
from fastapi.concurrency import run_in_threadpool

from tavli.web.info import check_kind
from tavli.web.store import Store

Status = Literal["playing", "over", "imported"]
MAX_LIMIT = 200
MAX_OFFSET = 1_000_000_000
MAX_TEXT = 100
# the title of a Dama game, as SQL over its row: "Dama (Russian rules)", "Dama (Box rules,
# huffing)"
DAMA_TITLE = ("'Dama (' || upper(substr(rules, 1, 1)) || substr(rules, 2) || ' rules' || "
              "CASE WHEN huffing THEN ', huffing' ELSE '' END || ')'")


@dataclass(frozen=True)
class ListQuery:
    """What to list: ``limit`` rows from ``offset``, of one ``variant`` and ``status`` (None:
    all), whose title contains ``text`` (case-insensitive for ASCII letters)."""

    limit: int = MAX_LIMIT
    offset: int = 0
    variant: str | None = None
    status: str | None = None
    text: str | None = None


@dataclass(frozen=True)
class Table:
    """One table as rows of the common list: the columns selected and the SQL that gives
    a row's variant and title."""

    select: str
    variant: str
    title: str


TAVLI = Table("SELECT 'tavli' AS app, id, kind, variant, status, title, created, updated, "
              "meta, NULL AS rules, NULL AS huffing FROM games", "variant", "title")
DAMA = Table(f"SELECT 'dama' AS app, id, 'game' AS kind, 'dama' AS variant, status, "
             f"{DAMA_TITLE} AS title, created, updated, meta, rules, huffing FROM dama_games",
             "'dama'", DAMA_TITLE)


def _where(table: Table, q: ListQuery) -> tuple[str, list[Any]]:
    conds: list[str] = []
    params: list[Any] = []
    if q.variant is not None:
        conds.append(f"{table.variant} = ?")
        params.append(q.variant)
    if q.status is not None:
        conds.append("status = ?")
        params.append(q.status)
    if q.text:
        like = q.text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        conds.append(f"{table.title} LIKE ? ESCAPE '\\'")
        params.append(f"%{like}%")
    return (" WHERE " + " AND ".join(conds)) if conds else "", params


def item(row: dict[str, Any]) -> dict[str, Any]:
    """A listed row as the API answers it (without the record); a tavli game's title in
    the request's language (:func:`tavli.web.shown.display_title`)."""
    meta = json.loads(row["meta"]) if isinstance(row["meta"], str) else row["meta"]
    title = row["title"]
    if row["app"] == "tavli" and isinstance(meta, dict):  # in the request's language
        from tavli.web.shown import display_title
        title = display_title({**meta, "title": title})
    out = {"id": row["id"], "app": row["app"], "kind": row["kind"], "variant": row["variant"],
           "status": row["status"], "title": title, "created": row["created"],
           "updated": row["updated"], "players": meta.get("players")}
    if row["app"] == "dama":
        out.update(rules=row["rules"], huffing=bool(row["huffing"]), score=None,
                   points=None, practice=False)
    else:
        out.update(score=meta.get("score"), points=meta.get("points"),
                   practice=bool(meta.get("practice")),
                   formats=meta.get("formats") or ["json"])  # what it exports to
    return out


def page(store: Store, q: ListQuery, *tables: Table) -> dict[str, Any]:
    """``{"games": [...], "total": n, "limit", "offset"}``: one page of the rows of
    ``tables`` that match ``q``, most recently played first."""
    parts, counts, params, cparams = [], [], [], []
    for t in tables:
        where, ps = _where(t, q)
        parts.append(t.select + where)
        counts.append(f"(SELECT count(*) FROM ({t.select}){where})")
        params += ps
        cparams += ps
    sql = " UNION ALL ".join(parts) + " ORDER BY updated DESC, id LIMIT ? OFFSET ?"
    with store._lock:
        rows = store._db.execute(sql, [*params, q.limit, q.offset]).fetchall()
        total = store._db.execute("SELECT " + " + ".join(counts), cparams).fetchone()[0]
    return {"games": [item(dict(r)) for r in rows], "total": total, "limit": q.limit,
            "offset": q.offset}


# --- the query of the list endpoints (FastAPI dependencies: bad values are 422) -------------

def _query(limit: int, offset: int, variant: str | None, status: str | None,
           q: str | None, *others: str) -> ListQuery:
    """The query; ``variant`` must be a game or rotation of the registry (or one of
    ``others``)."""
    from tavli.web.app import ApiError

    text = (q or "").strip() or None
    if text is not None and not text.isprintable():
        raise ApiError(422, "q: the search text has characters that cannot be searched",
                       "invalid", key="err.fields", params={"fields": "q"})
    if variant is not None and variant not in others:
        try:
            check_kind(variant)
        except ValueError as e:
            raise ApiError(422, f"variant: {e}", "invalid",
                           key="err.fields", params={"fields": "variant"}) from None
    return ListQuery(limit, offset, variant, status, text)


def tavli_query(limit: int = Query(MAX_LIMIT, ge=1, le=MAX_LIMIT),
                offset: int = Query(0, ge=0, le=MAX_OFFSET),
                variant: str | None = None,
                status: Status | None = None,
                q: str | None = Query(None, max_length=MAX_TEXT)) -> ListQuery:
    return _query(limit, offset, variant, status, q)


def dama_query(limit: int = Query(MAX_LIMIT, ge=1, le=MAX_LIMIT),
               offset: int = Query(0, ge=0, le=MAX_OFFSET),
               status: Literal["playing", "over"] | None = None,
               q: str | None = Query(None, max_length=MAX_TEXT)) -> ListQuery:
    return _query(limit, offset, None, status, q)


def library_query(limit: int = Query(MAX_LIMIT, ge=1, le=MAX_LIMIT),
                  offset: int = Query(0, ge=0, le=MAX_OFFSET),
                  variant: str | None = None,
                  status: Status | None = None,
                  q: str | None = Query(None, max_length=MAX_TEXT)) -> ListQuery:
    return _query(limit, offset, variant, status, q, "dama")


TavliQuery = Annotated[ListQuery, Depends(tavli_query)]
DamaQuery = Annotated[ListQuery, Depends(dama_query)]
LibraryQuery = Annotated[ListQuery, Depends(library_query)]


def mount_library(app: FastAPI, store: Store) -> None:
    """``GET /api/library``: the backgammon-family and the Dama games in one list."""

    @app.get("/api/library")
    async def library(query: LibraryQuery) -> dict[str, Any]:
        return await run_in_threadpool(page, store, query, TAVLI, DAMA)
