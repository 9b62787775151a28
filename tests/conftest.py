"""Fixtures shared by the browser app's tests: a test client, a real server on a free
port and chromium driven by Playwright (the one ``make test`` provisions:
``scripts/provision_browser.py``); and Dama played in the terminal with scripted input
(``dama_terminal``)."""

from __future__ import annotations

import io
import json
import os
import socket
import threading
import time
import warnings
from contextlib import contextmanager
from pathlib import Path

import anyio
import pytest

from tavli.ai.warmup import STAGES, prepare_parallel
from tavli.engine.numba_cache import refresh

if "PYTEST_XDIST_WORKER" not in os.environ:  # once, before pytest-xdist's workers start
    refresh()  # compiled kernels from before an edit of a module they call would be stale


def pytest_configure(config):
    """With pytest-xdist (``make test``): compile every kernel the apps' requests can reach
    once, here, before the workers start — not twice side by side, and not inside a
    browser test's time limit — stage by stage on every core (:func:`prepare_parallel`,
    as a first run of the app does)."""
    if getattr(config.option, "numprocesses", None) and "PYTEST_XDIST_WORKER" not in os.environ:
        # the 2-ply search beside the second stage, not alone after it (it needs only the
        # first: it calls the rest by address, tavli.engine.firstclass)
        prepare_parallel(stages=(STAGES[0], STAGES[1] + STAGES[2]))


SERIAL_MARK = "pytest.mark.serial"  # how a file marks its serial tests: the Makefile greps it


def pytest_collection_modifyitems(config, items):
    """A test marked serial must say so in its own file (``@pytest.mark.serial`` or
    ``pytestmark = pytest.mark.serial``): `make test`'s serial run collects only those
    files, and the parallel run leaves serial tests out, so one marked another way would
    never run."""
    for item in items:
        if item.get_closest_marker("serial") is not None:
            if SERIAL_MARK not in item.path.read_text(encoding="utf-8"):
                raise pytest.UsageError(f"{item.nodeid} is marked serial but its file does "
                                        f"not say {SERIAL_MARK!r} (see the Makefile)")


@pytest.fixture
def dama_terminal(monkeypatch, capsys):
    """``dama_terminal(lines, *options, game="dama")`` plays ``tavli play --tui --game GAME
    OPTIONS`` (``game=None``: no ``--game``) with ``lines`` typed and returns (the game
    played, everything shown, the prompts too). The environment's language is unset:
    English unless ``--lang``."""
    from tavli.cli import main
    from tavli.tui.dama import DamaSession

    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    played = []
    play = DamaSession.play

    def remembered(session):
        played.append(session.game)
        return play(session)

    monkeypatch.setattr(DamaSession, "play", remembered)

    def run(lines, *options, game="dama"):
        monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
        named = [] if game is None else ["--game", game]  # None: --resume names it
        status = main(["play", "--tui", *named, *options])
        out, err = capsys.readouterr()
        assert status == 0, err
        return played[-1], out

    return run


@pytest.fixture(scope="session", autouse=True)
def bearoff_databases():
    """The bear-off databases, built once before any test needs them (the evaluators
    load them; a first build prints a line that tests of a command's output must not
    see)."""
    from tavli.ai.bearoff import load_tables

    return load_tables()

# Debian's chromium (or $TAVLI_CHROMIUM) when present, else Playwright's own chromium
CHROMIUM = os.environ.get("TAVLI_CHROMIUM") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"  # screenshots (not in git)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def pg_cluster():
    """A throw-away PostgreSQL cluster for the session (:mod:`tavli.store.pgcluster`:
    initdb into a temporary folder, a Unix socket only, as the ``postgres`` user when the
    tests run as root); stopped and removed at the end. ``make test`` installs Debian's
    postgresql when it is missing (scripts/provision_postgresql.py)."""
    from tavli.store.pgcluster import PgCluster

    cluster = PgCluster()
    cluster.start()
    yield cluster
    cluster.stop()


_databases = iter(range(1, 1_000_000))


@pytest.fixture(params=["sqlite", "postgresql"])
def online_db(request, tmp_path):
    """A ``--db`` value naming an empty database of each backend: a SQLite file, and a
    new schema in the session's PostgreSQL cluster (as good as a new database here)."""
    if request.param == "sqlite":
        return str(tmp_path / "online.sqlite3")
    cluster = request.getfixturevalue("pg_cluster")
    return cluster.create_schema(f"t{next(_databases)}")


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


@contextmanager
def served(app, **config):
    """Serve ``app`` with uvicorn on a free 127.0.0.1 port in a thread (``config``: more
    of uvicorn's settings); yields its base URL and stops the server on leaving."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                        log_level="warning", **config))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        t.join(5)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Base URL of the app served by uvicorn on a free 127.0.0.1 port, fresh database."""
    from tavli.web.app import create_app

    with served(create_app(tmp_path_factory.mktemp("web") / "games.sqlite3")) as url:
        yield url


QUICK = """try { if (localStorage.getItem("tavli.quick") === null)
                localStorage.setItem("tavli.quick", "1"); } catch (e) { /* about:blank */ }"""


class Chromium:
    """The session's browser, whose new contexts block service workers unless a test asks
    for them (``service_workers="allow"``: the app's worker would otherwise install in
    every fresh context, some thirty requests each) and whose pages play quickly (the
    page's quick-play setting: no pauses before and between the opponent's steps) unless
    ``quick=False`` or the test sets ``tavli.quick`` itself, and without sliding checkers
    (the system's reduced motion) unless a test names ``reduced_motion`` (the motion has
    tests of its own: test_web_a11y_e2e)."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, quick: bool = True, **options):
        options.setdefault("service_workers", "block")
        options.setdefault("reduced_motion", "reduce")
        ctx = self._browser.new_context(**options)
        if quick:
            ctx.add_init_script(QUICK)
        return ctx

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@contextmanager
def page_at(browser, width: int = 1280, height: int = 820, timeout: float = 20000,
            **options):
    """A page in a fresh context of ``browser`` at ``width`` x ``height`` (further
    ``new_context`` options as keywords); on leaving, the context closes and the page
    must have logged no script error and no console error."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, **options)
    pg = ctx.new_page()
    pg.set_default_timeout(timeout)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        yield pg
    finally:
        ctx.close()
    assert errors == [], errors


AI_WAIT = 90000  # ms: the AI's turn, under a loaded machine (two test workers, 2 cores)


def until_idle(page, timeout: float = AI_WAIT) -> None:
    """Wait until the app is idle (``body[data-busy="0"]``): the AI's turn and its
    animation may take a while when the machine is loaded."""
    page.wait_for_selector('body[data-busy="0"]', timeout=timeout)


@pytest.fixture(scope="module")
def browser():
    """Headless chromium: :data:`CHROMIUM` when it exists, else Playwright's own."""
    import playwright.sync_api as sync_api

    ARTIFACTS.mkdir(exist_ok=True)
    own = Path(CHROMIUM).is_file()
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM if own else None, headless=True,
                                  args=CHROMIUM_ARGS)
        except sync_api.Error as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            pytest.fail(f"no chromium for the browser tests ({first}): `make test` "
                        "installs one", pytrace=False)
        yield Chromium(b)
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


def recv(ws, timeout: float = 10.0) -> dict:
    """The next message of ``ws`` (a JSON object), failing after ``timeout`` seconds."""
    async def get():
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    msg = ws.portal.call(get)
    assert msg["type"] == "websocket.send", msg
    return json.loads(msg["text"])


def wait_until(pred, timeout: float = 5.0) -> bool:
    """Whether ``pred()`` came true within ``timeout`` seconds (polled every 20 ms)."""
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.02)
    return False
