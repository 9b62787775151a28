"""The pages' scripts are ES modules (docs/web.md, "The page's scripts"), without a browser:
each page loads one entry module, every module imports what it uses from the module that
exports it, no module depends on the order of scripts or on globals, and the server
serves them as JavaScript (a browser refuses a module of another type)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

STATIC = Path(__file__).parent.parent / "tavli" / "web" / "static"
#: each page and its entry module
PAGES = {"index.html": "play.js", "lobby.html": "lobby.js", "online.html": "online.js",
         "players.html": "players.js", "leaderboard.html": "leaderboard.js"}
#: the one global a module sets: the page's test and debug surface, by the entry modules
SURFACE = {"play.js", "online.js"}

IMPORT = re.compile(r'^import\s*(?:\{([^}]*)\}\s*from\s*)?"\./([\w-]+\.js)";', re.M)
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([\w$]+)",
                    re.M)


def page_scripts(page: str) -> list[str]:
    """The scripts a page loads, each as ``type src`` (``module /static/play.js``)."""
    html = (STATIC / page).read_text(encoding="utf-8")
    return [f"{kind.strip() or 'classic'} {src}" for kind, src in re.findall(
        r'<script\s*(?:type="(\w+)")?\s*src="([^"]+)"\s*></script>', html)]


def imports(module: str) -> dict[str, list[str]]:
    """What ``module`` imports: {module imported: [names]}."""
    text = (STATIC / module).read_text(encoding="utf-8")
    return {src: [n.strip() for n in (names or "").split(",") if n.strip()]
            for names, src in IMPORT.findall(text)}


def exports(module: str) -> set[str]:
    return set(EXPORT.findall((STATIC / module).read_text(encoding="utf-8")))


def graph(entry: str) -> list[str]:
    """The modules ``entry`` loads, itself first."""
    seen = [entry]
    for module in seen:
        seen += [m for m in imports(module) if m not in seen]
    return seen


def modules() -> list[str]:
    return sorted(p.name for p in STATIC.glob("*.js") if p.name != "sw.js")


@pytest.mark.parametrize("page", PAGES)
def test_each_page_loads_one_entry_module(page):
    assert page_scripts(page) == [f"module /static/{PAGES[page]}"]
    html = (STATIC / page).read_text(encoding="utf-8")
    assert html.count("<script") == 1
    # no inline handler: a module's functions are not globals (listeners are set in JS)
    assert not re.search(r"\son\w+\s*=", html)
    # every page has the Rules button and registers the service worker
    assert {"rules.js", "pwa.js", "i18n.js"} <= set(graph(PAGES[page]))


def test_every_module_imports_what_it_uses_from_the_module_exporting_it():
    for module in modules():
        text = (STATIC / module).read_text(encoding="utf-8")
        assert '"use strict"' not in text, module    # a module is strict anyway
        # only relative imports of the static files, by name (no bundler, no package)
        assert not re.search(r"^import\s.*from\s+\"(?!\./)", text, re.M), module
        for target, names in imports(module).items():
            assert (STATIC / target).is_file(), f"{module} imports {target}"
            missing = set(names) - exports(target)
            assert not missing, f"{module} imports {missing} that {target} does not export"
        # no global: no window.X set but the entry modules' test surface, window.tavli
        assigned = set(re.findall(r"\bwindow\.([\w$]+)\s*=[^=]", text))
        assert assigned == ({"tavli"} if module in SURFACE else set()), (module, assigned)


def test_the_modules_form_no_cycle_and_each_serves_a_page():
    reached: set[str] = set()
    for entry in PAGES.values():
        reached |= set(graph(entry))
    assert reached == set(modules())           # no module left over
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for m in imports(module):
            visit(m, (*path, module))
        done.add(module)

    for entry in PAGES.values():
        visit(entry, ())
    # an entry module is imported by none
    for module in modules():
        assert not set(imports(module)) & set(PAGES.values()), module


def test_no_helper_is_written_twice():
    # the API's JSON call, copying, a menu's option, a button, an SVG element and point
    js = {m: (STATIC / m).read_text(encoding="utf-8") for m in modules()}
    for pattern, home in (("application/json", "http.js"), (r"clipboard\.writeText", "copy.js"),
                          (r'createElement\("option"\)', "util.js"),
                          (r'createElement\("button"\)', "util.js"),
                          (r"createElementNS\(", "util.js"), (r"createSVGPoint\(", "util.js")):
        assert [m for m, text in js.items() if re.search(pattern, text)] == [home], pattern


@pytest.mark.parametrize("online", [False, True])
def test_the_scripts_are_served_as_javascript(tmp_path, online):
    if online:
        from tavli.online.app import create_online_app

        app = create_online_app(str(tmp_path / "o.sqlite3"), allowed_hosts=["testserver"])
    else:
        from tavli.web.app import create_app

        app = create_app(tmp_path / "g.sqlite3", allowed_hosts=["testserver"])
    c = TestClient(app)
    for module in modules():
        r = c.get(f"/static/{module}")
        assert r.status_code == 200 and r.headers["content-type"].startswith(
            "text/javascript"), (module, r.headers.get("content-type"))
        # the CSP lets the page run its own modules, and nothing else
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert "unsafe" not in r.headers["content-security-policy"]
    assert '<script type="module" src="/static/' in c.get("/").text
