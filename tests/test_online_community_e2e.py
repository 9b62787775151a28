"""The online community's pages in a real browser (issue 33; ``tavli serve``'s app served by
uvicorn, chromium through Playwright): two players sign up on the start page, Ann posts a
rated seek of Plakoto, Bob sees it appear in his lobby without reloading (/ws/lobby) and
takes it; Ann resigns after the opening roll; both profiles then show the game once and
each rating changed once (1490 and 1510, as the pages say), the leaderboard too; a guest
plays an unrated game with Ann by invitation; Bob deletes his account from his profile,
which then is no more, and Ann's history names "deleted player". The pages at 360x740 and
1280x800 (screenshots in tests/artifacts/, no horizontal scroll, every control at least
44 px on the phone) and axe-core's scan of the new screens."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from test_web_a11y_e2e import axe

from tests.conftest import ARTIFACTS, served, wait_js
from tests.test_online_page import _create, _join, _online, _page, _play

SIZES = [(360, 740), (1280, 800)]


@pytest.fixture(scope="module")
def community_server(tmp_path_factory):
    """Base URL of ``tavli serve``'s app on a free port, a fresh SQLite file, passwords
    hashed with cheap Argon2id parameters (the sign-ups of a test, not a server's)."""
    from tavli.online.accounts import FAST
    from tavli.online.app import create_online_app

    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path_factory.mktemp("c")
    try:
        with served(create_online_app(str(folder / "online.sqlite3"), hasher=FAST)) as url:
            yield url
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _ready(page, url):
    page.goto(url)
    wait_js(page, "document.body.dataset.ready === '1'")


def _sign_up(page, name):
    page.click("#acc-signup")
    page.fill("#acc-user", name)
    page.fill("#acc-pass", "correct horse " + name)
    page.click("#acc-go")
    wait_js(page, f"document.body.dataset.account === '{name}'")


def _profile(page, server, name):
    _ready(page, f"{server}/players/{name}")
    return page.evaluate("""() => ({
      games: [...document.querySelectorAll('#pf-games tbody tr')].map((tr) => ({
        id: tr.dataset.id, cells: [...tr.cells].map((c) => c.innerText.trim()),
        links: [...tr.querySelectorAll('a')].map((a) => a.getAttribute('href'))})),
      ratings: Object.fromEntries([...document.querySelectorAll('#pf-ratings tbody tr')]
        .map((tr) => [tr.cells[0].innerText, tr.cells[1].innerText])),
      lines: [...document.querySelectorAll('#pf-chart polyline')].map((l) => l.dataset.game),
      mine: !document.querySelector('#pf-mine').hidden,
      missing: document.querySelector('#missing').hidden ? null
        : document.querySelector('#missing').innerText})""")


def _resign_game(ann, other):
    """Both seats seeded, the opening roll, then Ann (the first page) resigns."""
    for p in (ann, other):
        wait_js(p, "window.tavli.state().seats.every((s) => s.seeded)")
    _play([ann, other], None, resign_after=1)
    wait_js(other, "window.tavli.state().status === 'over'")


def _check_sizes(page, name):
    """At both sizes: no horizontal scroll, a screenshot; on the phone every control shown
    at least 44 px high."""
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(50)
        assert page.evaluate("document.documentElement.scrollWidth") <= w, (name, w)
        page.screenshot(path=str(ARTIFACTS / f"community-{name}-{w}.png"), full_page=True)
        if w < 400:
            small = page.evaluate("""() => [...document.querySelectorAll(
                'button, a.button, select, input, #lobby a, table.rows a, .account a')]
              .filter((e) => e.offsetParent !== null && e.type !== 'checkbox')
              .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect().height])
              .filter(([, h]) => h < 43.5)""")
            assert small == [], (name, small)


def test_sign_up_a_rated_seek_live_profiles_and_deletion(browser, community_server):
    server = community_server
    ann, bob, cat = _page(browser), _page(browser), _page(browser)
    found: list[str] = []
    # Ann, first a guest: a game of hers, claimed by the account she makes
    _create(ann, server, "portes", 1)
    _online(ann)
    _ready(ann, server + "/")
    _sign_up(ann, "Ann")
    assert "1 game you played as a guest" in ann.inner_text("#toast")
    assert ann.input_value("#ng-name") == "Ann"
    _ready(bob, server + "/")
    bob.evaluate("window.sameDocument = true")
    bob.set_viewport_size({"width": 360, "height": 740})
    bob.click("#acc-signup")
    found += axe(bob, "sign-up dialog")
    bob.screenshot(path=str(ARTIFACTS / "community-signup-360.png"))
    bob.click("#dlg-account button:not(#acc-go)")   # Cancel
    _sign_up(bob, "Bob")

    # Ann's rated seek of Plakoto (a rated game is listed: the box says so)
    ann.select_option("#ng-variant", "plakoto")
    ann.select_option("#ng-points", "1")
    ann.check("#ng-rated")
    assert ann.is_checked("#ng-listed") and ann.is_disabled("#ng-listed")
    assert ann.is_visible("#ng-range")
    found += axe(ann, "start signed in")
    _check_sizes(ann, "start-signed-in")
    ann.click("#ng-start")
    wait_js(ann, "!!document.body.dataset.created")
    gid = ann.evaluate("document.body.dataset.created")
    # Ann's own lobby offers her no Join of her seek
    wait_js(ann, f"!!document.querySelector(\"#lobby li[data-id='{gid}'] .mine\")")
    ann.click("#go-game")
    _online(ann)

    # Bob's lobby shows it live: no reload, no click on Refresh
    seek = f"#lobby li[data-id='{gid}']"
    wait_js(bob, f"!!document.querySelector(\"{seek}\")", 5000)
    assert bob.evaluate("window.sameDocument") is True
    text = bob.inner_text(seek)
    assert "Plakoto" in text and "Ann" in text and "rated" in text and "(new)" in text, text
    assert bob.get_attribute(f"{seek} .host a", "href") == "/players/Ann"
    found += axe(bob, "lobby with a seek")
    _check_sizes(bob, "lobby-seek")
    bob.click(f"{seek} button")
    bob.wait_for_url("**/online/*")
    _online(bob)
    _resign_game(ann, bob)   # Ann resigns: Bob wins a rated 1-point game

    # the profiles: the game once, each rating changed once
    a = _profile(ann, server, "Ann")
    assert [g["id"] for g in a["games"]].count(gid) == 1, a
    row = next(g for g in a["games"] if g["id"] == gid)
    assert f"/online/{gid}" in row["links"] and "/players/Bob" in row["links"]
    assert row["cells"][3] == "lost" and "1500 → 1490 (-10)" in row["cells"][6], row
    assert a["ratings"]["Plakoto"] == "1490" and a["ratings"]["Portes"] == "not rated yet"
    assert a["lines"] == ["plakoto"] and a["mine"]
    assert len(a["games"]) == 1   # the guest game claimed was never played: not finished
    found += axe(ann, "own profile")
    _check_sizes(ann, "profile-own")
    b = _profile(bob, server, "Bob")
    brow = next(g for g in b["games"] if g["id"] == gid)
    assert brow["cells"][3] == "won" and "1500 → 1510 (+10)" in brow["cells"][6], brow
    assert b["ratings"]["Plakoto"] == "1510" and [g["id"] for g in b["games"]] == [gid]
    _profile(bob, server, "Ann")           # another's profile: no account section
    assert not bob.is_visible("#pf-mine")
    _check_sizes(bob, "profile-other")

    # the leaderboard of Plakoto: Bob, then Ann, each a link to the profile
    _ready(ann, server + "/leaderboard?game=plakoto")
    names = ann.locator("#lb tbody tr td:nth-child(2) a").all_inner_texts()
    assert names == ["Bob", "Ann"], names
    assert ann.locator("#lb tbody tr td:nth-child(3)").all_inner_texts() == ["1510", "1490"]
    found += axe(ann, "leaderboard")
    _check_sizes(ann, "leaderboard")
    ann.select_option("#lb-game", "fevga")
    wait_js(ann, "!document.querySelector('#lb-empty').hidden")

    # Ann changes her password on her profile and logs out; the old password is refused
    # (the server's words, in a toast above the dialog), the new one logs her in
    _ready(ann, server + "/players/Ann")
    ann.fill("#pw-old", "correct horse Ann")
    ann.fill("#pw-new", "battery staple Ann")
    ann.click("#pw-go")
    wait_js(ann, "document.querySelector('#toast').textContent.includes('password is changed')")
    ann.click("#acc-logout")
    wait_js(ann, "document.body.dataset.account === ''")
    assert not ann.is_visible("#pf-mine")
    ann.click("#acc-login")
    ann.fill("#acc-user", "Ann")
    ann.fill("#acc-pass", "correct horse Ann")
    ann.click("#acc-go")
    wait_js(ann, "document.querySelector('#dlg-account #toast')?.textContent === "
                 "'wrong username or password'")
    ann.fill("#acc-pass", "battery staple Ann")
    ann.click("#acc-go")
    wait_js(ann, "document.body.dataset.account === 'Ann'")
    assert ann.is_visible("#pf-mine")

    # a guest's game with Ann, by invitation: unrated, her rating unchanged
    invite, _ = _create(cat, server, "portes", 1)
    _online(cat)
    _join(ann, invite, "Ann")
    _online(ann)
    _resign_game(cat, ann)
    a = _profile(ann, server, "Ann")
    assert len(a["games"]) == 2 and a["games"][0]["cells"][6] == "unrated", a["games"]
    assert a["ratings"]["Plakoto"] == "1490" and a["ratings"]["Portes"] == "not rated yet"

    # Bob deletes his account on his profile: the profile is gone, Ann's game names
    # "deleted player"
    _ready(bob, server + "/players/Bob")
    bob.click("#del-open")
    bob.fill("#del-pass", "correct horse Bob")
    bob.click("#del-go")
    wait_js(bob, "document.body.dataset.profile === 'missing'")
    assert bob.evaluate("document.body.dataset.account") == ""
    assert _profile(bob, server, "Bob")["missing"] == "no player with this name"
    a = _profile(ann, server, "Ann")
    row = next(g for g in a["games"] if g["id"] == gid)
    assert row["cells"][2] == "deleted player" and "/players/Bob" not in row["links"], row
    for p in (ann, bob, cat):
        assert p.errors == []
        p.context.close()
    assert found == [], "\n".join(found)


def test_the_pages_in_greek_and_play_now(browser, community_server):
    """A profile of no one and the leaderboard in Greek; Play now posts a seek when none
    fits (the game's page then waits), and a second player's Play now takes it; a range of
    ratings shown in the lobby, the server refusing a player outside it."""
    server = community_server
    eve = _page(browser, locale="el-GR")
    _ready(eve, server + "/players/nobody_here")
    assert eve.inner_text("#missing") == "Δεν υπάρχει παίκτης με αυτό το όνομα."
    _ready(eve, server + "/leaderboard")
    assert eve.inner_text("#h-board") == "Κατάταξη"
    _ready(eve, server + "/")
    eve.fill("#ng-name", "Eve")
    eve.select_option("#ng-variant", "fevga")
    eve.select_option("#ng-points", "1")
    eve.click("#ng-play-now")
    eve.wait_for_url("**/online/*")
    _online(eve)
    gid = eve.evaluate("window.tavli.state().id")
    assert eve.evaluate("window.tavli.state().status") == "open"
    dan = _page(browser)
    _ready(dan, server + "/")
    wait_js(dan, f"!!document.querySelector(\"#lobby li[data-id='{gid}']\")", 5000)
    dan.fill("#ng-name", "Dan")
    dan.select_option("#ng-variant", "fevga")
    dan.select_option("#ng-points", "1")
    dan.click("#ng-play-now")
    dan.wait_for_url(f"**/online/{gid}")
    _online(dan)
    wait_js(eve, "window.tavli.state().status === 'playing'")
    # a listed game open to ratings 1600-1800: the lobby says so, and a newcomer (1500)
    # is refused its seat by the server
    _ready(dan, server + "/")
    dan.select_option("#ng-variant", "portes")
    dan.select_option("#ng-points", "1")
    dan.check("#ng-listed")
    dan.fill("#ng-range-low", "1600")
    dan.fill("#ng-range-high", "1800")
    dan.click("#ng-start")
    wait_js(dan, "!!document.body.dataset.created")
    gid = dan.evaluate("document.body.dataset.created")
    seek = f"#lobby li[data-id='{gid}']"
    _ready(eve, server + "/")
    wait_js(eve, f"!!document.querySelector(\"{seek}\")", 5000)
    assert "1600–1800" in eve.inner_text(seek)
    eve.click(f"{seek} button")
    wait_js(eve, "!document.querySelector('#toast').hidden")
    assert "1600-1800" in eve.inner_text("#toast")   # the server's detail, in English
    for p in (eve, dan):
        assert p.errors == []
        p.context.close()


def test_the_lobby_comes_back_after_its_connection_drops(browser, community_server):
    """The lobby's WebSocket refused once: the page reads the lobby by GET, connects again
    (backoff) and shows a seek posted afterwards without a reload."""
    server = community_server
    page = _page(browser)
    tries, reads = [], []

    def lobby_socket(ws):
        tries.append(ws.url)
        if len(tries) == 1:
            ws.close()              # the first connection dropped at once
        else:
            ws.connect_to_server()  # then the server's, as it is

    page.route_web_socket(re.compile(r"/ws/lobby$"), lobby_socket)
    page.on("request", lambda r: reads.append(r.url) if r.url.endswith("/api/online/lobby")
            else None)
    _ready(page, server + "/")
    wait_js(page, "document.body.dataset.live === '1'", 8000)
    assert len(tries) == 2 and len(reads) >= 2, (tries, reads)  # at start, at the drop
    page.evaluate("window.sameDocument = true")
    r = page.request.post(server + "/api/online/games", data=json.dumps({
        "game": {"variant": "fevga", "opponent": "human"}, "name": "Gus", "listed": True}),
        headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    wait_js(page, f"!!document.querySelector(\"#lobby li[data-id='{r.json()['id']}']\")",
            5000)
    assert page.evaluate("window.sameDocument") is True and len(tries) == 2
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["el", "de", "it"])
def test_the_pages_in_each_language(browser, community_server, lang):
    """The new screens on a phone in Greek, German and Italian: no English left, no key
    shown raw, nothing wider than the screen (test_i18n_e2e's check)."""
    from test_i18n_e2e import LOCALES, check_screen

    server = community_server
    page = _page(browser, locale=LOCALES[lang], viewport={"width": 360, "height": 740},
                 is_mobile=True, has_touch=True)

    def check(name):
        check_screen(page, lang, f"community-{lang}-{name}")
        raw = re.search(r"\b(?:ac|pf|lb)\.[a-z_]+", page.inner_text("body"))
        assert raw is None, (name, raw)

    _ready(page, server + "/")
    check("start")
    page.click("#acc-signup")
    check("signup")
    page.fill("#acc-user", f"Zoe_{lang}")
    page.fill("#acc-pass", "correct horse")
    page.click("#acc-go")
    wait_js(page, f"document.body.dataset.account === 'Zoe_{lang}'")
    page.check("#ng-rated")
    check("start-signed-in")
    _ready(page, f"{server}/players/Zoe_{lang}")
    page.click("#del-open")
    check("profile")
    _ready(page, server + "/leaderboard?game=plakoto")
    check("leaderboard")
    assert page.errors == []
    page.context.close()


def test_the_account_errors_in_the_requests_language(tmp_path):
    """The pages show the server's refusals as they come: an account's own message in the
    page's language (the catalogue's), another kind's words with the English detail."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from tavli import i18n
    from tavli.online.accounts import FAST
    from tavli.online.app import create_online_app

    app = create_online_app(str(tmp_path / "o.sqlite3"), allowed_hosts=["testserver"],
                            hasher=FAST)
    el = {"X-Tavli-Lang": "el"}
    with TestClient(app) as c:
        r = c.post("/api/account/login", json={"username": "Ann", "password": "x" * 8},
                   headers=el)
        assert (r.status_code, r.json()) == (401, {
            "error": i18n.gettext("el", "err.login_failed"), "code": "login_failed"})
        r = c.post("/api/account/signup", json={"username": "A", "password": "x" * 8},
                   headers=el)
        assert r.json()["error"] == i18n.gettext("el", "err.username") != \
            "A username is 3 to 20 letters, digits, _ or -."
        assert c.get("/api/players/Nobody", headers={"X-Tavli-Lang": "de"}).json() == {
            "error": i18n.gettext("de", "err.no_player"), "code": "not_found"}
        r = c.post("/api/online/games", json={
            "game": {"variant": "portes", "opponent": "human"}, "name": "Ann",
            "listed": True}, headers=el)
        r = c.post(f"/api/online/games/{r.json()['id']}/join", json={"name": "Bob"},
                   headers=el)
        assert r.status_code == 200
        r = c.post(f"/api/online/games/{r.json()['state']['id']}/join",
                   json={"name": "Cat"}, headers=el)
        assert r.status_code == 409 and r.json()["detail"] == "the seat has been taken"


def test_the_game_page_says_rated_and_links_the_players_profiles(browser, community_server):
    ann = _page(browser)
    _ready(ann, community_server)
    _sign_up(ann, "Gia")
    new = ann.evaluate("""async () => (await fetch('/api/online/games', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Gia',
        rated: true, game: {variant: 'fevga', opponent: 'human'}})})).json()""")
    ann.goto(f"{community_server}/online/{new['id']}#seat={new['token']}")
    wait_js(ann, "document.querySelector('#title').textContent.includes('rated')")
    link = ann.locator("#players a[href='/players/Gia']")
    assert link.count() == 1 and "Gia" in link.inner_text()
