"""Opening a store from a ``--db`` value (:mod:`tavli.store.dburl`): the backend it names
(SQLite, or PostgreSQL, whose driver is imported only then) and the store over it, its
schema brought up to date. Errors are one-line :class:`~tavli.errors.StoreError`s: a
malformed URL, a database that cannot be reached or opened, a driver not installed.

>>> from tavli.store.migrations import LATEST
>>> with open_store(":memory:") as store:
...     store.version() == LATEST
True
>>> with open_local(":memory:") as app:
...     app.version()
2
"""

from __future__ import annotations

from pathlib import Path

from tavli.store.base import Backend
from tavli.store.dburl import parse_db_url
from tavli.store.local import LocalStore
from tavli.store.online import OnlineStore
from tavli.store.sqlite import SqliteBackend


def connect(db: str | Path) -> Backend:
    """The database named by ``db``: a ``--db`` value, or a :class:`~pathlib.Path` (a
    SQLite file, whatever its name)."""
    if isinstance(db, Path):
        return SqliteBackend(db)
    url = parse_db_url(db)
    if url.backend == "postgresql":
        from tavli.store.postgresql import PostgresBackend

        return PostgresBackend(url)
    return SqliteBackend(url.target, url.shown)


def open_store(db: str | Path, *, schema: int | None = None) -> OnlineStore:
    """The online store in ``db`` (a ``--db`` value), its schema brought to ``schema``
    (default: the latest)."""
    return OnlineStore(connect(db), schema=schema)


def open_local(db: str | Path, *, schema: int | None = None) -> LocalStore:
    """The browser app's store in ``db`` (its file; or a ``--db`` value), its schema
    brought to ``schema`` (default: the latest): a file made before the schema was
    versioned keeps its rows (:mod:`tavli.store.migrations`)."""
    return LocalStore(connect(db), schema=schema)


__all__ = ["connect", "open_store", "open_local"]
