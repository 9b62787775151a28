"""The ``--db`` value: which database holds the games, read without touching it.

* a file path (``games.sqlite3``, ``~/tavli/online.db``), ``sqlite:PATH`` or
  ``sqlite:///ABSOLUTE/PATH``: SQLite, the default (nothing to set up);
  ``:memory:`` is a throw-away store;
* ``postgresql://[user[:password]@][host][:port][/dbname][?param=value&...]`` (or
  ``postgres://``): PostgreSQL, as libpq reads such a URL (``?host=/run/postgresql`` for
  a Unix socket).

>>> parse_db_url("games.sqlite3")
DbUrl(backend='sqlite', target='games.sqlite3', shown='games.sqlite3')
>>> parse_db_url("postgresql://tavli:s3cret@db.example:5433/tavli").shown
'postgresql://tavli:***@db.example:5433/tavli'
>>> parse_db_url("mysql://x/y")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tavli.errors.StoreError: --db: unknown database 'mysql://...': give a file path (SQLite) ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qsl, urlsplit

from tavli.errors import StoreError

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_PG_SCHEMES = ("postgresql", "postgres")


@dataclass(frozen=True)
class DbUrl:
    """A database to open: ``backend``, what the driver takes (``target``: a file path
    or a libpq URL) and how messages name it (``shown``: the password hidden)."""

    backend: Literal["sqlite", "postgresql"]
    target: str
    shown: str


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return url.replace(parts.netloc, f"{user}:***@{netloc[1]}", 1)


def _postgresql(text: str) -> DbUrl:
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  (reading it checks it: ValueError when not a number)
    except ValueError as e:
        raise StoreError(f"--db: malformed PostgreSQL URL: {e}") from None
    if parts.fragment:
        raise StoreError("--db: a PostgreSQL URL has no #fragment")
    try:
        parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError:
        raise StoreError(f"--db: malformed PostgreSQL URL parameters {parts.query[:60]!r}: "
                         "write them as ?name=value&name=value") from None
    if "/" in parts.path.strip("/"):
        raise StoreError(f"--db: malformed PostgreSQL URL: the database name "
                         f"{parts.path.strip('/')[:60]!r} has a '/'")
    return DbUrl("postgresql", text, _redact(text))


def parse_db_url(text: str) -> DbUrl:
    """Read a ``--db`` value (:class:`StoreError` for one that names no database)."""
    if not isinstance(text, str) or not text.strip():
        raise StoreError("--db: empty: give a file path (SQLite) or a postgresql:// URL")
    text = text.strip()
    m = _SCHEME.match(text)
    scheme = m.group(1).lower() if m else text.split(":", 1)[0].lower() if ":" in text \
        else ""
    if scheme in _PG_SCHEMES:
        if not m:
            raise StoreError(f"--db: a PostgreSQL URL starts with {scheme}://")
        return _postgresql(text)
    if scheme == "sqlite":
        rest = text[len("sqlite:"):]
        path = rest[2:] if rest.startswith("//") else rest
        if not path:
            raise StoreError("--db: sqlite: names no file (sqlite:PATH or sqlite:///PATH)")
        return DbUrl("sqlite", path, text)
    if m:
        raise StoreError(f"--db: unknown database '{m.group(1)}://...': give a file path "
                         "(SQLite) or a postgresql:// URL")
    if text != ":memory:":
        text = str(Path(text).expanduser())
    return DbUrl("sqlite", text, text)


__all__ = ["DbUrl", "parse_db_url"]
