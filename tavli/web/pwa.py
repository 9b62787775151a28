"""The page as an installable web app: its manifest (``GET /manifest.webmanifest``) and
service worker (``GET /sw.js``), for ``tavli play`` and ``tavli serve`` alike; and the
pages' static files themselves (``GET /static/...``, :func:`mount_static`).

The icons are ``static/icon-{192,512}.png`` and ``static/icon-maskable-{192,512}.png``
(drawn by ``scripts/make_icons.py``). The service worker (``static/sw.js``) keeps the static
shell — every file of ``static/`` it lists, and the start page — so the page opens with no
network; it never keeps an answer of the API or a WebSocket. Its cache is named after a
digest of the shell's files, so a changed file replaces the cache.

>>> m = manifest("el")
>>> m["name"], m["display"], m["start_url"], [i["sizes"] for i in m["icons"]]
('Τάβλι', 'standalone', '/', ['192x192', '512x512', '192x192', '512x512'])
>>> "/static/app.js" in shell() and "/" in shell() and "/static/sw.js" not in shell()
True
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from tavli import i18n
from tavli.web.lang import request_lang

STATIC = Path(__file__).with_name("static")
THEME = "#3b2414"        # the page's header
BACKGROUND = "#f4efe6"   # the page's background
ICONS = [(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")]
#: what the shell holds: the static files of these kinds
SHELL_KINDS = (".html", ".js", ".css", ".png")


def manifest(lang: str) -> dict[str, Any]:
    """The web app manifest, its names in ``lang``."""
    name = i18n.game_name(lang, "tavli")
    return {
        "name": name,
        "short_name": name,
        "description": "Portes, Plakoto, Fevga, backgammon, Dama",
        "lang": lang,
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [{"src": f"/static/icon-{'maskable-' if purpose == 'maskable' else ''}"
                          f"{size}.png",
                   "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
                  for size, purpose in ICONS],
    }


@cache
def shell() -> tuple[str, ...]:
    """The addresses the service worker keeps at once: the start page and the static
    files (not itself)."""
    files = sorted(p.name for p in STATIC.iterdir()
                   if p.suffix in SHELL_KINDS and p.name != "sw.js")
    return ("/", "/manifest.webmanifest", *(f"/static/{name}" for name in files))


@cache
def service_worker() -> str:
    """``static/sw.js`` with its cache's version and the shell filled in."""
    digest = hashlib.sha256()
    for name in shell()[2:]:
        digest.update(name.encode() + (STATIC / name.removeprefix("/static/")).read_bytes())
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    return (text.replace("__VERSION__", digest.hexdigest()[:12])
            .replace("__SHELL__", json.dumps(list(shell()))))


def mount_pwa(app: FastAPI) -> None:
    """``GET /manifest.webmanifest`` (``application/manifest+json``) and ``GET /sw.js``
    (``text/javascript``, at the root so that it controls every page)."""

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def web_manifest(request: Request) -> JSONResponse:
        return JSONResponse(manifest(request_lang(request)),
                            media_type="application/manifest+json",
                            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    @app.get("/sw.js", include_in_schema=False)
    async def worker() -> Response:
        return Response(service_worker(), media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


def mount_static(app: FastAPI) -> None:
    """``GET /static/...``: the files of ``static/``, a script as ``text/javascript``
    whatever the machine's table of types says (the pages' scripts are ES modules, which a
    browser runs only when they are served as JavaScript)."""
    mimetypes.add_type("text/javascript", ".js")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")


__all__ = ["manifest", "mount_pwa", "mount_static", "shell", "service_worker"]
