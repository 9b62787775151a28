"""Resource limits of the app: the size of request bodies and the caches of games kept in
memory (docs/web.md, "Limits").

* :class:`BodyLimit`: a body larger than the limit is refused with 413 before it is read
  (by its ``Content-Length``) or as soon as the bytes received pass the limit (a body
  sent in chunks); code ``too_large`` (``err.too_large`` in the request's language).
* :class:`SessionCache`: the games kept in memory, at most a few hundred, the least
  recently used dropped first. A dropped game reloads from the store (which holds every
  action), so nothing is lost; one still in use by a request is found again, so that a
  game never exists twice in memory.

>>> c = SessionCache(2)
>>> class S: pass
>>> a, b, d = S(), S(), S()
>>> c["a"] = a; c["b"] = b; c["d"] = d      # "a" is dropped from the cache ...
>>> len(c), "a" in c, c.get("a") is a       # ... but found while something holds it
(2, True, True)
>>> c = SessionCache(2)
>>> c["a"] = a; c["b"] = b; c["d"] = d
>>> del a
>>> sorted(c.keys()), c.get("a")
(['b', 'd'], None)
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Any, Generic, TypeVar

from starlette.exceptions import HTTPException

from tavli.web.security import _answer

BODY_LIMIT = 64 * 1024             # bytes of a request body
RECORD_BODY_LIMIT = 4 * 1024 * 1024  # bytes of an imported record (POST /api/records)
SESSIONS = 256                     # games (and Dama games) kept in memory
REVIEWS = 16                       # finished reviews kept

T = TypeVar("T")


class TooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit:,} bytes")


class BodyLimit:
    """ASGI middleware: request bodies of at most ``limit`` bytes (``limits`` per path
    prefix), else 413."""

    def __init__(self, app: Any, limit: int = BODY_LIMIT,
                 limits: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.limits = limits if limits is not None else {"/api/records": RECORD_BODY_LIMIT}

    def limit_for(self, path: str) -> int:
        for prefix, n in self.limits.items():
            if path == prefix or path.startswith(prefix + "/"):
                return n
        return self.limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
        for k, v in scope.get("headers", []):
            if k.lower() == b"content-length":
                text = v.decode("latin-1").strip()
                if not (text.isascii() and text.isdigit()):
                    await _answer(send, 400, "a bad Content-Length header", "bad_request",
                                  scope=scope)
                    return
                if len(text) > 18 or int(text) > limit:
                    await _answer(send, 413, str(TooLarge(limit).detail), "too_large",
                                  scope=scope)
                    return
        received = 0

        async def counted() -> dict:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise TooLarge(limit)
            return message

        await self.app(scope, counted, send)


class SessionCache(Generic[T]):
    """A mapping of at most ``size`` entries, least recently used dropped first; an entry
    dropped while something still holds it is found again until it is let go."""

    def __init__(self, size: int = SESSIONS) -> None:
        self.size = max(1, size)
        self._lru: OrderedDict[str, T] = OrderedDict()
        self._live: weakref.WeakValueDictionary[str, T] = weakref.WeakValueDictionary()
        self._lock = threading.Lock()

    def get(self, key: str, default: Any = None) -> T | Any:
        with self._lock:
            s = self._lru.get(key)
            if s is not None:
                self._lru.move_to_end(key)
                return s
            s = self._live.get(key)
            if s is not None:
                self._keep(key, s)
                return s
            return default

    def setdefault(self, key: str, value: T) -> T:
        """The entry of ``key`` if there is one (in the cache or still in use), else
        ``value``, which is stored."""
        with self._lock:
            s = self._lru.get(key)
            if s is None:
                s = self._live.get(key)
            if s is None:
                s = value
            self._keep(key, s)
            return s

    def __setitem__(self, key: str, value: T) -> None:
        with self._lock:
            self._keep(key, value)

    def _keep(self, key: str, value: T) -> None:
        self._lru[key] = value
        self._lru.move_to_end(key)
        self._live[key] = value
        while len(self._lru) > self.size:
            self._lru.popitem(last=False)

    def pop(self, key: str, default: Any = None) -> T | Any:
        with self._lock:
            self._live.pop(key, None)
            return self._lru.pop(key, default)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._lru or key in self._live

    def __len__(self) -> int:
        """Entries kept (not counting dropped ones still in use)."""
        return len(self._lru)

    def keys(self) -> list[str]:
        """Every entry that can be found: kept, or dropped and still in use."""
        with self._lock:
            return list(dict.fromkeys([*self._lru, *self._live.keys()]))


__all__ = ["BodyLimit", "SessionCache", "TooLarge", "BODY_LIMIT", "RECORD_BODY_LIMIT",
           "SESSIONS", "REVIEWS"]
