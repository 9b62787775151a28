"""Requests per address over HTTP (docs/server.md, "Limits"): an ASGI middleware with a
token bucket per client address — creating and joining games (``POST``) at most
``rate`` a second on average and ``burst`` at once, reads ten times as many; more are
answered 429 ``rate_limited`` (with ``Retry-After``) and change nothing. WebSocket
messages have their own bucket per connection (:mod:`tavli.online.protocol`).

Behind a reverse proxy a request comes from the client's address when the proxy passes
it (``X-Forwarded-For``, as deploy/nginx.conf does for ``/api/``; uvicorn trusts it
from 127.0.0.1), else from the proxy's: then the proxy limits per client address
(docs/server.md, "Deployment").
"""

from __future__ import annotations

import math
import time
from typing import Any

from tavli.online.protocol import Bucket
from tavli.web.security import _answer

WRITE_RATE = 2.0   # POSTs a second from one address, on average ...
WRITE_BURST = 30   # ... and at once
READ_FACTOR = 10   # reads: ten times as many
MAX_ADDRESSES = 10_000  # buckets kept (the full ones are forgotten first)


class AddressLimit:
    """ASGI middleware: a token bucket per client address for the HTTP requests."""

    def __init__(self, app: Any, rate: float = WRITE_RATE, burst: int = WRITE_BURST) -> None:
        self.app = app
        self.rate = rate
        self.burst = burst
        self.buckets: dict[tuple[str, bool], Bucket] = {}

    def _bucket(self, address: str, write: bool) -> Bucket:
        key = (address, write)
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                self._forget()
            factor = 1 if write else READ_FACTOR
            b = self.buckets[key] = Bucket(self.rate * factor, self.burst * factor)
        return b

    def _forget(self) -> None:
        """Drop the buckets that have filled up again (nothing to remember), else all."""
        now = time.monotonic()
        full = [k for k, b in self.buckets.items()
                if b.tokens + (now - b.at) * b.rate >= b.burst]
        for k in full or list(self.buckets):
            del self.buckets[k]

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope.get("path", "").startswith("/api/"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else ""
        write = scope.get("method", "GET") not in ("GET", "HEAD", "OPTIONS")
        bucket = self._bucket(address, write)
        if bucket.take():
            await self.app(scope, receive, send)
            return
        wait = max(1, math.ceil((1 - bucket.tokens) / bucket.rate))

        async def with_retry(message: dict) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message["headers"],
                                      (b"retry-after", str(wait).encode())]
            await send(message)

        await _answer(with_retry, 429, f"too many requests from this address (at most "
                      f"{bucket.rate:g} a second): try again in {wait} s", "rate_limited",
                      scope=scope)


__all__ = ["AddressLimit", "WRITE_RATE", "WRITE_BURST"]
