"""Who may talk to the app: the Host and Origin checks, JSON-only writes, the access token
and the security headers of every answer (docs/web.md, "Security").

Any web page the user visits can send requests to a server on his machine; the checks
make such requests fail:

* ``Host`` must name the served address (a DNS-rebinding page sends its own name): 403.
* ``Origin``, when sent (browsers send it with every cross-origin request and every POST),
  must be this server itself: 403. So must ``Sec-Fetch-Site`` (``same-origin`` or
  ``none``) on the API.
* A write (POST, PUT, PATCH, DELETE) with a body must be ``Content-Type:
  application/json`` (a form or ``text/plain`` post, which a page may send without
  asking, is refused): 415.
* With a token (``tavli play --host`` on an address other than loopback), every API
  request must carry it in the ``X-Tavli-Token`` header: 401.

A refusal is answered as the API's errors are (:mod:`tavli.web.errors`): ``{"error",
"code"}``, the code one of :data:`REFUSALS`; in another language than English (the
request's ``?lang=``, ``X-Tavli-Lang`` or ``Accept-Language``), ``error`` is the
catalogue's ``err.<code>`` and the English text comes as ``detail`` (:func:`refusal`).

>>> hostname("127.0.0.1:8765"), hostname("[::1]:80"), hostname("Example.ORG")
('127.0.0.1', '::1', 'example.org')
>>> is_loopback("localhost"), is_loopback("::1"), is_loopback("0.0.0.0")
(True, True, False)
>>> sorted(served_hosts("127.0.0.2"))
['127.0.0.1', '127.0.0.2', '::1', 'localhost']
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import socket
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tavli import i18n

TOKEN_HEADER = "x-tavli-token"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
CSP = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
#: the codes of the refusals answered before a request reaches the app (this module's,
#: :mod:`tavli.web.limits`' and :mod:`tavli.online.ratelimit`'s); each has a catalogue
#: message ``err.<code>``
REFUSALS = ("forbidden_host", "forbidden_origin", "unauthorized", "unsupported_media_type",
            "bad_request", "too_large", "rate_limited")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def hostname(host: str) -> str:
    """The name or address of a ``Host`` header (or an origin's netloc), without its port,
    lower-case; IPv6 without brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine's loopback only."""
    h = hostname(host)
    if h == "localhost":
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


def served_hosts(host: str) -> set[str]:
    """The names a browser may use for a server listening on ``host``: loopback's names
    for loopback; the address, the machine's name and addresses for another address
    (``0.0.0.0`` and ``::`` listen on all of them)."""
    h = hostname(host)
    if is_loopback(h):
        return set(LOOPBACK_NAMES) | {h}
    names = {h}
    wildcard = h in ("0.0.0.0", "::", "")
    if wildcard:
        names |= set(LOOPBACK_NAMES)
    node = socket.gethostname().lower()
    fqdn = socket.getfqdn().lower()
    if wildcard or _addresses(node) & {h} or _addresses(fqdn) & {h}:
        names |= {node, fqdn, f"{node}.local"}
    if wildcard:
        names |= _addresses(node) | _addresses(fqdn)
    return {n for n in names if n}


def _addresses(name: str) -> set[str]:
    try:
        return {str(info[4][0]).lower() for info in socket.getaddrinfo(name, None)}
    except (OSError, UnicodeError):
        return set()


class Guard:
    """ASGI middleware: the checks of the module docstring, and the security headers
    (CSP, frames, sniffing, referrer) on every answer.

    ``allowed_hosts``: the host names accepted in ``Host`` (None: any). ``token``: the
    secret every API request must carry (None: none needed)."""

    def __init__(self, app: Any, *, allowed_hosts: Iterable[str] | None,
                 token: str | None = None) -> None:
        self.app = app
        self.allowed = None if allowed_hosts is None else {hostname(h) for h in allowed_hosts}
        self.token = token.encode() if token else None

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            refused = self.websocket_refusal(scope)
            if refused is not None:  # before the handshake is accepted: HTTP 403
                await send({"type": "websocket.close", "code": 1008, "reason": refused[0]})
                return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in HEADERS if k not in names]
            await send(message)

        refusal = self.check(scope)
        if refusal is not None:
            status, text, code = refusal
            await _answer(send_with_headers, status, text, code, scope=scope)
            return
        await self.app(scope, receive, send_with_headers)

    def check_websocket(self, scope: dict) -> str | None:
        """Why a WebSocket handshake is refused (its ``Host`` is not served, or its
        ``Origin`` is another site: a browser always sends one), else None."""
        refused = self.websocket_refusal(scope)
        return None if refused is None else refused[0]

    def websocket_refusal(self, scope: dict) -> tuple[str, str] | None:
        """``(reason, code)`` when a WebSocket handshake is refused, else None. The
        reason (English, the close frame's) is never seen by a page: a handshake refused
        before it is accepted is an HTTP 403 to the browser."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if self.allowed is not None and hostname(host) not in self.allowed:
            return f"this server does not answer to the host name {host[:60]!r}", \
                "forbidden_host"
        origin = headers.get("origin")
        scheme = "https" if scope.get("scheme") == "wss" else "http"
        here = _site(f"{scheme}://{host}")
        if origin is not None and (here is None or _site(origin) != here):
            return f"connections from another site ({origin[:60]}) are refused", \
                "forbidden_origin"
        return None

    def check(self, scope: dict) -> tuple[int, str, str] | None:
        """``(status, message, code)`` when the request is refused, else None."""
        headers: dict[str, str] = {}
        for k, v in scope.get("headers", []):
            headers[k.decode("latin-1").lower()] = v.decode("latin-1")
        host = headers.get("host", "")
        if self.allowed is not None and hostname(host) not in self.allowed:
            return 403, f"this server does not answer to the host name {host[:80]!r}", \
                "forbidden_host"
        origin = headers.get("origin")
        here = _site(f"{scope.get('scheme', 'http')}://{host}")
        if origin is not None and (here is None or _site(origin) != here):
            return 403, f"requests from another site ({origin[:80]}) are refused", \
                "forbidden_origin"
        path = scope.get("path", "")
        api = path.startswith("/api/") or path == "/api"
        if api and headers.get("sec-fetch-site", "same-origin") not in ("same-origin",
                                                                          "none"):
            return 403, "requests from another site are refused", "forbidden_origin"
        if api and self.token is not None:
            given = headers.get(TOKEN_HEADER, "").encode("latin-1")
            if not hmac.compare_digest(given, self.token):
                return 401, "this server needs its access token (open the address " \
                    "printed by tavli play, with its ?token=...)", "unauthorized"
        if scope.get("method") in WRITES and _has_body(headers):
            media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if media != "application/json":
                return 415, "the body must be JSON (Content-Type: application/json)", \
                    "unsupported_media_type"
        return None


def _site(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin, None for ``null`` or nonsense."""
    try:
        u = urlsplit(url.strip().lower())
        port = u.port or {"http": 80, "https": 443}.get(u.scheme, 0)
    except ValueError:
        return None
    if u.scheme not in ("http", "https") or not u.hostname:
        return None
    return u.scheme, u.hostname, port


def _has_body(headers: dict[str, str]) -> bool:
    if "transfer-encoding" in headers:
        return True
    length = headers.get("content-length", "0").strip()
    return length != "0" and length != ""


def scope_lang(scope: dict) -> str:
    """The language a request asks for, from its ASGI scope (as
    :func:`tavli.web.lang.request_lang` reads it: ``?lang=``, ``X-Tavli-Lang``, else
    ``Accept-Language``, else English).

    >>> scope_lang({"headers": [(b"accept-language", b"el-GR,el;q=0.9")]})
    'el'
    >>> scope_lang({"query_string": b"lang=de", "headers": [(b"x-tavli-lang", b"it")]})
    'de'
    """
    headers = {k.decode("latin-1").lower(): v.decode("latin-1")
               for k, v in scope.get("headers", [])}
    query = parse_qs(bytes(scope.get("query_string") or b"").decode("latin-1"))
    chosen = (query.get("lang") or [None])[0] or headers.get(i18n.HEADER)
    return i18n.negotiate(headers.get("accept-language"), chosen)


def refusal(text: str, code: str, lang: str) -> dict[str, str]:
    """A refusal's answer in ``lang``: ``{"error": text, "code": code}`` in English;
    in another language the catalogue's ``err.<code>`` with ``text`` as ``detail``.

    >>> refusal("requests from another site are refused", "forbidden_origin", "en")
    {'error': 'requests from another site are refused', 'code': 'forbidden_origin'}
    >>> refusal("the body must be JSON", "unsupported_media_type", "de")["error"]
    'Die Anfrage muss JSON senden (Content-Type: application/json)'
    """
    if lang == i18n.DEFAULT:
        return {"error": text, "code": code}
    message = i18n.gettext(lang, f"err.{code}")
    if message == f"err.{code}":
        message = i18n.gettext(lang, "err.error")
    return {"error": message, "code": code, "detail": text}


async def _answer(send: Any, status: int, text: str, code: str, *,
                  scope: dict | None = None) -> None:
    """Answer ``status`` with the refusal ``text``/``code`` in the language of the request
    (``scope``; English without one)."""
    lang = scope_lang(scope) if scope is not None else i18n.DEFAULT
    body = json.dumps(refusal(text, code, lang)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["Guard", "hostname", "is_loopback", "served_hosts", "scope_lang", "refusal",
           "TOKEN_HEADER", "CSP", "REFUSALS"]
