"""The lists of stored games, a page at a time: filtered by variant, status and a text in
the title, newest first, with the number of rows that match (docs/web.md).

One list of every game (``GET /api/games``, what the page's Games dialog shows) reads the
app's SQLite file (:meth:`tavli.store.local.LocalStore.page`): the backgammon family's
games and matches (table ``games``) and the Dama games (``dama_games``) together.

>>> from tavli.store.factory import open_local
>>> st = open_local(":memory:")
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

from fastapi import Depends, Query

from tavli import i18n
from tavli.store.local import LocalStore
from tavli.web.info import DAMA as DAMA_GAME
from tavli.web.info import check_kind

Status = Literal["playing", "over", "imported"]
MAX_LIMIT = 200
MAX_OFFSET = 1_000_000_000
MAX_TEXT = 100
#: the store's lists (:data:`tavli.store.sql.LISTS`): the backgammon family's, Dama's
TAVLI = "tavli"
DAMA = "dama"


@dataclass(frozen=True)
class ListQuery:
    """What to list: ``limit`` rows from ``offset``, of one ``variant`` and ``status`` (None:
    all), whose title contains ``text`` (case-insensitive for ASCII letters)."""

    limit: int = MAX_LIMIT
    offset: int = 0
    variant: str | None = None
    status: str | None = None
    text: str | None = None


def item(row: dict[str, Any]) -> dict[str, Any]:
    """A listed row as the API answers it (without the record); a tavli game's title in
    the request's language (:func:`tavli.web.shown.display_title`)."""
    meta = json.loads(row["meta"]) if isinstance(row["meta"], str) else row["meta"]
    title = row["title"]
    if row["app"] == "tavli" and isinstance(meta, dict):  # in the request's language
        from tavli.web.shown import display_title
        title = display_title({**meta, "title": title})
    elif row["app"] == "dama":
        title = dama_title(title, row["rules"], bool(row["huffing"]))
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


def dama_title(stored: str, rules: str, huffing: bool, lang: str | None = None) -> str:
    """A Dama game's title in ``lang`` (default the request's): the stored English one
    ("Dama (Russian rules)", what the text filter searches), else the rule set's name
    from the catalogue.

    >>> dama_title("Dama (Russian rules)", "russian", False, "de")
    'Dame (Regeln: russisch)'
    >>> dama_title("Dama (Box rules)", "box", False, "en")
    'Dama (Box rules)'
    """
    lang = lang or i18n.current()
    if lang == i18n.DEFAULT:
        return stored
    name = "box" if rules == "box" and huffing else \
        "box_compulsory" if rules == "box" else rules
    return i18n.gettext(lang, "gl.dama_title",
                        rules=i18n.gettext(lang, f"dama.rn.{name}"))


def page(store: LocalStore, q: ListQuery, *lists: str) -> dict[str, Any]:
    """``{"games": [...], "total": n, "limit", "offset"}``: one page of the rows of
    ``lists`` (:data:`TAVLI`, :data:`DAMA`) that match ``q``, most recently played first."""
    rows, total = store.page(lists, variant=q.variant, status=q.status, text=q.text,
                             limit=q.limit, offset=q.offset)
    return {"games": [item(r) for r in rows], "total": total, "limit": q.limit,
            "offset": q.offset}


# --- the query of the list (a FastAPI dependency: bad values are 422) ---------------------

def games_query(limit: int = Query(MAX_LIMIT, ge=1, le=MAX_LIMIT),
                offset: int = Query(0, ge=0, le=MAX_OFFSET),
                variant: str | None = None,
                status: Status | None = None,
                q: str | None = Query(None, max_length=MAX_TEXT)) -> ListQuery:
    """The query; ``variant`` must be a game or rotation of the registry, or Dama."""
    from tavli.web.errors import ApiError

    text = (q or "").strip() or None
    if text is not None and not text.isprintable():
        raise ApiError(422, "q: the search text has characters that cannot be searched",
                       "invalid", key="err.fields", params={"fields": "q"})
    if variant is not None:
        try:
            check_kind(variant, DAMA_GAME)
        except ValueError as e:
            raise ApiError(422, f"variant: {e}", "invalid",
                           key="err.fields", params={"fields": "variant"}) from None
    return ListQuery(limit, offset, variant, status, text)


GamesQuery = Annotated[ListQuery, Depends(games_query)]
