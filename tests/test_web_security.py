"""Who may drive the browser app (Host, Origin, JSON-only writes, the access token, the
security headers), what it accepts (strict types) and how much (body, record and cache
limits). See docs/web.md, "Security" and "Limits"."""

from __future__ import annotations

import json
import socket
import time
import warnings

import pytest
from conftest import page_at

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tavli.play.game import Game
from tavli.play.players import GreedyPlayer, RandomPlayer, play_game
from tavli.play.record import game_record
from tavli.web.app import create_app


def games(client):
    return client.get("/api/games").json()["games"]


def new(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


# --- cross-site requests and DNS rebinding ---------------------------------------------------

@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded",
                                   "multipart/form-data; boundary=x", None])
def test_writes_must_be_json(client, ctype):
    headers = {"Content-Type": ctype} if ctype else {}
    r = client.post("/api/games", content=b'{"variant": "portes"}', headers=headers)
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    gid = new(client, variant="portes", opponent="human")["id"]
    r = client.post("/api/records", content=json.dumps(_record()).encode(), headers=headers)
    assert r.status_code == 415
    r = client.post(f"/api/games/{gid}/roll", content=b"{}", headers=headers)
    assert r.status_code == 415
    assert [g["id"] for g in games(client)] == [gid]
    assert client.get(f"/api/games/{gid}").json()["phase"] == "opening"
    # JSON with a charset is JSON; a write without a body needs no type
    r = client.post("/api/games", content=b'{"variant": "portes"}',
                    headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 201
    assert client.post(f"/api/games/{gid}/roll").status_code == 200


def test_other_origins_and_host_names_are_refused(client):
    evil = {"Origin": "http://evil.example"}
    r = client.post("/api/games", json={"variant": "portes"}, headers=evil)
    assert r.status_code == 403 and "another site" in r.json()["error"]
    assert client.get("/api/games", headers={"Origin": "null"}).status_code == 403
    assert client.post("/api/games", json={}, headers={"Origin": "http://testserver:81"}
                       ).status_code == 403
    r = client.post("/api/games", json={}, headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    # DNS rebinding: the attacker's name in Host
    r = client.get("/api/games", headers={"Host": "rebind.evil.example"})
    assert r.status_code == 403 and "host name" in r.json()["error"]
    assert client.get("/", headers={"Host": "rebind.evil.example:8765"}).status_code == 403
    assert games(client) == []
    # the page itself: same origin
    ok = client.post("/api/games", json={"variant": "portes"},
                     headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"})
    assert ok.status_code == 201


def test_loopback_names_are_allowed_by_default(db):
    c = TestClient(create_app(db), base_url="http://127.0.0.1:8765")
    assert c.get("/api/games").status_code == 200
    assert c.get("/api/games", headers={"Host": "localhost:8765"}).status_code == 200
    assert c.get("/api/games", headers={"Host": "[::1]:8765"}).status_code == 200
    assert c.get("/api/games", headers={"Host": "testserver"}).status_code == 403
    assert c.get("/api/games", headers={"Host": "127.0.0.1.evil.example"}).status_code == 403


def test_security_headers_on_every_answer(client):
    gid = new(client, variant="portes")["id"]
    for r in (client.get("/"), client.get("/static/app.js"), client.get(f"/api/games/{gid}"),
              client.get("/api/games/nope"), client.post("/api/games", content=b"x")):
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"


def test_token_needed_for_the_api(db):
    c = TestClient(create_app(db, allowed_hosts=["testserver"], token="s3cret-token"))
    assert c.get("/").status_code == 200  # the page itself holds no secret
    assert c.get("/static/app.js").status_code == 200
    for headers in ({}, {"X-Tavli-Token": "wrong"}, {"X-Tavli-Token": ""}):
        r = c.get("/api/games", headers=headers)
        assert r.status_code == 401 and "token" in r.json()["error"]
        r = c.post("/api/games", json={"variant": "portes"}, headers=headers)
        assert r.status_code == 401
    good = {"X-Tavli-Token": "s3cret-token"}
    assert c.post("/api/games", json={"variant": "portes"}, headers=good).status_code == 201
    assert len(c.get("/api/games", headers=good).json()["games"]) == 1


def test_a_page_on_another_origin_cannot_drive_the_app(browser, server):
    """A page of another site posts to the app as pages can without asking (no-cors, a
    text/plain or form body, an import): nothing is created."""
    import urllib.request

    before = json.load(urllib.request.urlopen(f"{server}/api/games"))["games"]
    html = f"""<html><body><form id=f method=post action="{server}/api/games"
      enctype="text/plain"><input name='{{"variant": "portes", "x": "' value='"}}'></form>
      <script>
      const rec = {json.dumps(_record())};
      Promise.all([
        fetch("{server}/api/games", {{method: "POST", mode: "no-cors",
              body: JSON.stringify({{variant: "portes"}})}}),
        fetch("{server}/api/games", {{method: "POST", mode: "no-cors"}}),
        fetch("{server}/api/records", {{method: "POST", mode: "no-cors",
              headers: {{"Content-Type": "text/plain"}}, body: JSON.stringify(rec)}}),
      ]).finally(() => {{ document.title = "sent"; document.getElementById("f").submit(); }});
      </script></body></html>"""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.route("http://evil.test/", lambda route: route.fulfill(
        status=200, content_type="text/html", body=html))
    page.goto("http://evil.test/")
    # the fetches done, the form is posted: the browser lands on the app's refusal
    page.wait_for_url(f"{server}/api/games", timeout=20000)
    assert "another site" in page.content()
    ctx.close()
    after = json.load(urllib.request.urlopen(f"{server}/api/games"))["games"]
    assert after == before


def test_the_page_keeps_and_sends_its_token(browser, tmp_path):
    from conftest import ARTIFACTS, served, wait_js

    with served(create_app(tmp_path / "t.db", token="tok-123_abc")) as base:
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{base}/?token=tok-123_abc")
        page.wait_for_selector("#dlg-new[open]")
        assert "token" not in page.url  # not left in the address (history, bookmarks)
        page.select_option("#ng-variant", "portes")
        page.select_option("#ng-opponent", "human")
        page.click("#ng-start")
        # the game is there once the page shows it (data-busy may still be 0 from before)
        page.wait_for_selector('body[data-game="portes"]')
        wait_js(page, "window.tavli.state() && window.tavli.state().variant === 'portes'")
        st = page.evaluate("window.tavli.state()")
        page.reload()  # the tab keeps it
        wait_js(page, "window.tavli.state() && window.tavli.state().id === "
                f"{json.dumps(st['id'])}")
        page.screenshot(path=str(ARTIFACTS / "token-page.png"))
        # the export link downloads through fetch, with the token
        page.click("#btn-games")
        page.wait_for_selector(f'tr[data-id="{st["id"]}"] a.export')
        with page.expect_download() as dl:
            page.click(f'tr[data-id="{st["id"]}"] a.export')
        rec = json.loads(open(dl.value.path()).read())
        assert rec["format"] == "tavli-record"
        assert errors == [], errors
        # another tab without the token: the API refuses
        other = ctx.new_page()
        r = other.request.get(f"{base}/api/games")
        assert r.status == 401
        ctx.close()


# a page's violations of its Content-Security-Policy, in window.__csp
CSP_LOG = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
           "(e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


def test_no_csp_violation_in_the_page(page, server):
    """The page runs under its Content-Security-Policy: no inline script or style, nothing
    from elsewhere (a violation would be reported here and on the console)."""
    page.add_init_script(CSP_LOG)
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    page.select_option("#ng-variant", "backgammon")
    page.click("#ng-start")
    page.wait_for_selector('body[data-game="backgammon"]')
    page.wait_for_selector('body[data-busy="0"]')
    page.click("#btn-games")
    page.wait_for_selector("#dlg-games[open]")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__csp") == []


def test_no_csp_violation_in_the_online_pages(browser, tmp_path):
    """The online start page and game page run their modules under the same policy."""
    from conftest import served, wait_js

    from tavli.online.app import create_online_app

    with served(create_online_app(str(tmp_path / "o.sqlite3"))) as url, \
            page_at(browser, 390, 844) as pg:
        pg.add_init_script(CSP_LOG)
        pg.goto(url + "/")
        wait_js(pg, "document.body.dataset.ready === '1'")
        assert pg.locator("#ng-variant option").count() > 1   # filled from GET /api/info
        r = pg.request.post(f"{url}/api/online/games", data=json.dumps(
            {"game": {"variant": "portes", "points": 1, "opponent": "human"}, "name": "Ann",
             "side": "white"}), headers={"Content-Type": "application/json"})
        g = r.json()
        pg.goto(f"{url}/online/{g['id']}#seat={g['token']}")
        wait_js(pg, "document.body.dataset.conn === 'online' && !!window.tavli.state()")
        assert pg.locator("#btn-help").count() == 1       # a11y.js set the board up
        assert pg.evaluate("window.__csp") == []


@pytest.fixture
def page(browser):
    with page_at(browser) as pg:
        yield pg


def test_play_on_the_network_needs_a_token(tmp_path):
    """``tavli play --host 0.0.0.0``: a loud warning, and the token in the address."""
    import re
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from tavli.cli import main; sys.exit(main())",
         "play", "--no-browser", "--host", "0.0.0.0", "--port", "0",
         "--db", str(tmp_path / "g.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://0\.0\.0\.0:(\d+)/\?token=([\w-]{20,})", line)
        assert m, line
        warning = "".join(proc.stdout.readline() for _ in range(5))
        assert "WARNING" in warning and "network" in warning
        port, token = m.group(1), m.group(2)
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                page = urllib.request.urlopen(base + "/", timeout=5).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert "<svg id=\"board\"" in page
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(base + "/api/games", timeout=5)
        assert e.value.code == 401
        req = urllib.request.Request(base + "/api/games", headers={"X-Tavli-Token": token})
        assert json.load(urllib.request.urlopen(req, timeout=5))["games"] == []
    finally:
        proc.terminate()
        proc.wait(20)


# --- strict types ----------------------------------------------------------------------------

@pytest.mark.parametrize("body,words", [
    ({"points": "5"}, ["points"]),
    ({"points": True}, ["points"]),
    ({"points": 5.0}, ["points"]),
    ({"seed": "1"}, ["seed"]),
    ({"variant": "backgammon", "rules": {"jacoby": "yes"}}, ["jacoby", "true or false"]),
    ({"variant": "backgammon", "rules": {"cube": 1}}, ["cube"]),
    ({"variant": "fevga", "rules": {"prime_rule": 0}}, ["prime_rule"]),
    ({"variant": "portes", "first": 0}, ["first"]),
    ({"level": 1}, ["level"]),
])
def test_lenient_values_are_refused(client, body, words):
    r = client.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    for w in words:
        assert w in r.json()["error"]
    assert games(client) == []


def test_step_points_must_be_numbers_or_bar_off(client):
    st = new(client, variant="portes", opponent="human", seed=5, first="white")
    gid = st["id"]
    st = client.post(f"/api/games/{gid}/roll").json()
    for steps in ([[True, False]], [[24.0, 18.0]], [["24", True]]):
        r = client.post(f"/api/games/{gid}/move", json={"steps": steps})
        assert r.status_code == 422, r.text
        assert "steps" in r.json()["error"] and "illegal" not in r.json()["error"]
    r = client.post(f"/api/games/{gid}/roll", json={"side": 0})
    assert r.status_code == 422
    assert client.get(f"/api/games/{gid}").json() == st


def _record(variant="fevga", seed=8):
    g = Game(variant, seed=seed)
    play_game(g, (GreedyPlayer(), RandomPlayer(seed=1)))
    return game_record(g, seed)


@pytest.mark.parametrize("change,words", [
    (lambda r: r.update(match={}), ["match"]),
    (lambda r: r.update(match=[]), ["match"]),
    (lambda r: r.update(version=True), ["version"]),
    (lambda r: r.update(seed="8"), ["seed"]),
    (lambda r: r["games"][0].update(crawford="no"), ["crawford"]),
    (lambda r: r["games"][0].update(rules={"game": "fevga", "must_play_higher": "yes"}),
     ["must_play_higher"]),
    (lambda r: r["games"][0]["events"][1].update(dice=[str(d) for d in
                                                      r["games"][0]["events"][1]["dice"]]),
     ["dice"]),
    (lambda r: r["games"][0]["events"][1].update(extra=1), ["unknown field"]),
])
def test_imported_records_are_typed(client, change, words):
    rec = _record()
    change(rec)
    r = client.post("/api/records", json=rec)
    assert r.status_code == 422, r.text
    for w in words:
        assert w in r.json()["error"]
    assert games(client) == []


@pytest.mark.parametrize("body", [{"rules": {"huffing": "yes"}}, {"rules": {"huffing": 1}},
                                  {"rules": {"rules": 1}}, {"rules": {"rules": "russian"}},
                                  {"rules": "box"}, {"level": 3},
                                  {"variant": "russian", "rules": {"huffing": False}},
                                  {"variant": "shashki"}, {"opponent": True}])
def test_dama_bodies_are_typed(client, body):
    r = client.post("/api/games", json={"variant": "dama", **body})
    assert r.status_code == 422, r.text
    assert client.get("/api/games").json()["games"] == []


def test_dama_moves_are_typed(client):
    st = client.post("/api/games", json={"variant": "russian",
                                         "opponent": "human"}).json()
    gid = st["id"]
    for body in ({"path": [True, 18]}, {"path": ["22", "18"]}, {"path": [22.0, 18.0]},
                 {"move": 2218}):
        r = client.post(f"/api/games/{gid}/move", json=body)
        assert r.status_code == 422, (body, r.text)
    assert client.post(f"/api/games/{gid}/huff", json={"square": True}).status_code == 422
    assert client.get(f"/api/games/{gid}").json() == st


# --- limits ----------------------------------------------------------------------------------

def test_large_bodies_are_refused_before_they_are_read(client):
    big = json.dumps({"variant": "portes", "position": "x" * 100_000}).encode()
    r = client.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "larger than" in r.json()["error"]

    def chunks():  # no Content-Length: counted as it arrives
        yield b'{"variant": "portes", "position": "'
        for _ in range(200):
            yield b"x" * 1000
        yield b'"}'

    r = client.post("/api/games", content=chunks(),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/records", content=b"[" + b"1," * 3_000_000 + b"1]",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert games(client) == []


def test_a_huge_content_length_is_answered_at_once(server):
    """The server answers 413 from the headers, without waiting for 50 MB to come."""
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(b"POST /api/records HTTP/1.1\r\nHost: 127.0.0.1:" + port.encode() +
                  b"\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{")
        t = time.perf_counter()
        head = s.recv(4096).decode("latin-1")
        assert head.startswith("HTTP/1.1 413"), head
        assert time.perf_counter() - t < 5


def test_records_too_large_to_replay_are_refused_cheaply(client):
    rec = _record()
    many = {**rec, "match": {"target": 25, "variant": "fevga", "rules": {}},
            "games": rec["games"] * 150}
    t = time.perf_counter()
    r = client.post("/api/records", json=many)
    assert r.status_code == 422 and "too many games" in r.json()["error"]
    long_game = {**rec, "games": [{**rec["games"][0],
                                   "events": rec["games"][0]["events"] * 40}]}
    r = client.post("/api/records", json=long_game)
    assert r.status_code == 422 and "too many events" in r.json()["error"]
    assert time.perf_counter() - t < 2
    assert games(client) == []


def test_session_cache_is_bounded_and_loses_nothing(db):
    c = TestClient(create_app(db, allowed_hosts=["testserver"], sessions=4))
    api = c.app.state.api
    ids = []
    for seed in range(12):
        st = new(c, variant="plakoto", opponent="human", seed=seed)
        st = c.post(f"/api/games/{st['id']}/roll").json()
        ids.append((st["id"], st))
        assert len(api.sessions) <= 4
    for gid, st in ids:  # every game reloads from the store, as it was
        assert c.get(f"/api/games/{gid}").json() == st
        assert len(api.sessions) <= 4
    gid, st = ids[0]
    st2 = c.post(f"/api/games/{gid}/move", json={"steps": [s[:2] for s in
                                                          st["legal_moves"][0]["steps"]]})
    assert st2.status_code == 200
    for other, _ in ids[1:6]:
        c.get(f"/api/games/{other}")
    assert c.get(f"/api/games/{gid}").json() == st2.json()
    # Dama games too, in the same cache
    made = [c.post("/api/games", json={"variant": "dama", "opponent": "human"})
            for _ in range(8)]
    assert all(r.status_code == 201 for r in made)
    assert len(api.sessions) <= 4
    assert len(c.get("/api/games", params={"variant": "dama"}).json()["games"]) == 8
    for r in made:  # each reloads from the store, as it was
        assert c.get(f"/api/games/{r.json()['id']}").json() == r.json()


def test_a_game_in_use_is_never_loaded_twice(db):
    """A game dropped from the cache while a request holds it is found again (one copy)."""
    c = TestClient(create_app(db, allowed_hosts=["testserver"], sessions=1))
    api = c.app.state.api
    a = new(c, variant="portes", opponent="human")["id"]
    held = api.session(a)
    new(c, variant="portes", opponent="human")
    assert api.session(a) is held
