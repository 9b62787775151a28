"""Fixtures shared by the browser app's tests: a test client, a real server on a free
port and Debian's chromium driven by Playwright."""

from __future__ import annotations

import shutil
import socket
import threading
import time
import warnings
from pathlib import Path

import pytest

from tavli._numba_cache import refresh

refresh()  # compiled kernels from before an edit of a module they call would be stale

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"  # screenshots (not in git)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture
def db(tmp_path):
    """A fresh SQLite file for the app."""
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db):
    """A test client of the app on ``db``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from tavli.web.app import create_app

    return TestClient(create_app(db, allowed_hosts=["testserver"]))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Base URL of the app served by uvicorn on a free 127.0.0.1 port, fresh database."""
    import uvicorn

    from tavli.web.app import create_app

    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(db), host="127.0.0.1", port=port,
                                        log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    t.join(5)


@pytest.fixture(scope="module")
def browser():
    """Headless Debian chromium (``.ci/run`` installs it; no browser is downloaded)."""
    import playwright.sync_api as sync_api

    assert Path(CHROMIUM).exists(), "Debian's chromium is needed (.ci/run installs it)"
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def wait_js(page, expression: str, timeout: float = 20000) -> None:
    """Wait until the JavaScript ``expression`` is true in ``page``. (Playwright's
    ``wait_for_function`` compiles its predicate with ``eval``, which the page's
    Content-Security-Policy forbids; ``page.evaluate`` is not subject to it.)"""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout / 1000:g} s: {expression}")
        page.wait_for_timeout(50)
