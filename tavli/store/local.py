"""The browser app's store (``tavli play``): its games, matches and Dama games, in a SQLite
file (or any database of :mod:`tavli.store.factory`).

Two tables (schema: :data:`tavli.store.migrations.LOCAL_MIGRATIONS`):

* ``games``: one row per game or match of the backgammon family, holding the engine's
  JSON record (:mod:`tavli.play.record`) and the app's metadata (players, level, the state of
  the seeded dice, dice thrown but not yet played);
* ``dama_games``: one row per Dama game (the rule set, the players and the plies played).

A row is written after every action in one transaction, so a crash leaves either the old
row or the new one, never half of each. :meth:`LocalStore.page` reads the lists of both,
a page at a time.

>>> from tavli.store.factory import open_local
>>> s = open_local(":memory:")
>>> s.save("abc", kind="game", variant="portes", status="playing", title="t",
...        record={"format": "tavli-record"}, meta={"x": 1})
>>> s.get("abc")["meta"]
{'x': 1}
>>> [r["id"] for r in s.list()]
['abc']
>>> s.save_dama("d1", rules="russian", huffing=False, status="playing", created=1.0,
...             plies=["22-18"], meta={})
>>> rows, total = s.page(("tavli", "dama"), text="RUSSIAN")
>>> total, [(r["id"], r["title"]) for r in rows]
(1, [('d1', 'Dama (Russian rules)')])
"""

from __future__ import annotations

import json
import time
from typing import Any

from tavli.store import migrations
from tavli.store import sql as S
from tavli.store.base import Store, dumps


def _decoded(row: dict[str, Any], *names: str) -> dict[str, Any]:
    for name in names:
        row[name] = json.loads(row[name])
    return row


def _where(listed: S.Listed, variant: str | None, status: str | None,
           text: str | None) -> tuple[str, list[Any]]:
    conds: list[str] = []
    params: list[Any] = []
    if variant is not None:
        conds.append(f"{listed.variant} = ?")
        params.append(variant)
    if status is not None:
        conds.append("status = ?")
        params.append(status)
    if text:
        like = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        conds.append(f"{listed.title} {S.TITLE_HAS}")
        params.append(f"%{like}%")
    return (" WHERE " + " AND ".join(conds)) if conds else "", params


class LocalStore(Store):
    """The browser app's games, matches and Dama games in one database (``backend``)."""

    schema = migrations.LOCAL

    # --- games and matches of the backgammon family --------------------------------------
    def save(self, game_id: str, *, kind: str, variant: str, status: str, title: str,
             record: dict[str, Any], meta: dict[str, Any]) -> None:
        """Insert or replace the row of ``game_id`` atomically (one transaction)."""
        now = time.time()
        self.backend.write(S.SAVE_LOCAL, (game_id, kind, variant, status, title, now, now,
                                          dumps(record), dumps(meta)))

    def get(self, game_id: str) -> dict[str, Any] | None:
        """The row of ``game_id`` with record and meta decoded, or None."""
        rows = self.backend.dicts(S.LOCAL_GAME, (game_id,))
        return _decoded(rows[0], "record", "meta") if rows else None

    def list(self, limit: int = 200) -> list[dict[str, Any]]:
        """The most recently updated rows first, without their records."""
        return [_decoded(r, "meta") for r in self.backend.dicts(S.LOCAL_GAMES, (limit,))]

    def delete(self, game_id: str) -> bool:
        return self.backend.write(S.DELETE_LOCAL, (game_id,)) > 0

    # --- Dama games ------------------------------------------------------------------------
    def save_dama(self, game_id: str, *, rules: str, huffing: bool, status: str,
                  created: float, plies: list[str], meta: dict[str, Any]) -> None:
        """Insert or replace the row of a Dama game (its rules, huffing and creation time
        stay as first saved)."""
        self.backend.write(S.SAVE_DAMA, (game_id, rules, int(huffing), status, created,
                                         time.time(), dumps(plies), dumps(meta)))

    def dama(self, game_id: str) -> dict[str, Any] | None:
        """The row of the Dama game ``game_id`` with plies and meta decoded, or None."""
        rows = self.backend.dicts(S.DAMA_GAME, (game_id,))
        return _decoded(rows[0], "plies", "meta") if rows else None

    def delete_dama(self, game_id: str) -> bool:
        return self.backend.write(S.DELETE_DAMA, (game_id,)) > 0

    # --- the lists ---------------------------------------------------------------------------
    def page(self, lists: tuple[str, ...], *, variant: str | None = None,
             status: str | None = None, text: str | None = None, limit: int = 200,
             offset: int = 0) -> tuple[list[dict[str, Any]], int]:
        """One page of the rows of ``lists`` (names of :data:`tavli.store.sql.LISTS`) of
        ``variant`` and ``status`` (None: all) whose title contains ``text``
        (case-insensitive for ASCII letters), most recently played first, and how many
        rows match in all. A row: ``app`` (the list), id, kind, variant, status, title,
        created, updated, meta (JSON text), rules, huffing."""
        parts, counts, params = [], [], []
        for name in lists:
            listed = S.LISTS[name]
            where, ps = _where(listed, variant, status, text)
            parts.append(listed.select + where)
            counts.append(f"(SELECT count(*) FROM ({listed.select}) AS listed{where})")
            params += ps
        with self.backend.session() as tx:
            rows = tx.dicts(" UNION ALL ".join(parts) + S.LIST_PAGE,
                            (*params, limit, offset))
            total = tx.rows("SELECT " + " + ".join(counts), params)[0][0]
        return rows, total


__all__ = ["LocalStore"]
