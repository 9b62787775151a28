"""The online pages in a real browser (``tavli serve``'s start page and game page, served
by uvicorn on a free port): two players in two browser contexts and a spectator in a
third play whole games through the invitation links, a player reloads mid-game, the
spectator cannot act, and the page's "Verify dice" recomputes every die with WebCrypto."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import ARTIFACTS, served, wait_js


@pytest.fixture(scope="module")
def online_server(tmp_path_factory):
    """Base URL of ``tavli serve``'s app on a free 127.0.0.1 port (a fresh SQLite file)."""
    from tavli.online.app import create_online_app

    # in memory when the machine has /dev/shm: the games of these tests (hundreds of
    # actions each, every one committed) go faster
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path_factory.mktemp("o")
    try:
        with served(create_online_app(str(folder / "online.sqlite3"))) as url:
            yield url
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _page(browser, motion="reduce", **kw):
    """A page in a new context (its own storage: another person); errors fail the test."""
    ctx = browser.new_context(reduced_motion=motion, **kw)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _create(page, server, variant, points, listed=False, clock=""):
    """Create a game on the start page (``clock``: a value of its Clock menu); the
    invitation and watch links."""
    page.goto(server + "/")
    wait_js(page, "document.body.dataset.ready === '1'")
    page.fill("#ng-name", "Ann")
    page.select_option("#ng-variant", variant)
    page.select_option("#ng-points", str(points))
    page.select_option("#ng-opponent", "human")
    if listed:
        page.check("#ng-listed")
    page.select_option("#ng-clock", clock)
    page.click("#ng-start")
    wait_js(page, "!document.querySelector('#created').hidden")
    invite = page.input_value("#invite-link")
    watch = page.input_value("#watch-link")
    page.click("#go-game")
    return invite, watch


def _join(page, invite, name):
    """Open the invitation ``invite`` and take its seat as ``name``."""
    page.goto(invite)
    wait_js(page, "!document.querySelector('#join').hidden")
    page.fill("#join-name", name)
    page.click("#join-go")


def _online(page):
    wait_js(page, "!!document.body && document.body.dataset.conn === 'online' && "
                  "!!window.tavli && !!window.tavli.state()")


# one step of the page that should act: the first control offered, clicked by the page's
# own handlers (a whole legal move from the list, as a player may tap it)
STEP = """(seq) => {
  const O = window.tavli.O;
  if (!O.raw || O.raw.seq < seq || O.pending !== null || O.animating || O.queue.length) {
    return "busy";
  }
  for (const id of ["#btn-next", "#btn-roll", "#btn-take"]) {
    const b = document.querySelector(id);
    if (!b.hidden) { b.click(); return id; }
  }
  const m = document.querySelector("#moves button");
  if (!document.querySelector("#moves-box").hidden && m) { m.click(); return "move"; }
  return "none";
}"""

STATE = """() => { const s = window.tavli.state();
  return s && [s.seq, s.status, s.phase, s.turn, s.board.match_over]; }"""


def _until(page, expression, arg, timeout=10.0):
    """Wait (polling every 10 ms) until ``expression(arg)`` is true in ``page``."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout:g} s: {expression} {arg}")
        page.wait_for_timeout(10)


PAST = "(seq) => !!window.tavli.state() && window.tavli.state().seq > seq"


def _play(pages, watcher, *, reload_at=None, resign_after=None, limit=4000):
    """Play to the end of the game or match: each turn the page of the side to act clicks
    its first control. ``reload_at``: an action number at which black's page reloads.
    ``resign_after``: after this many actions of a game, the first page resigns it (the
    lowest value its resign menu offers)."""
    by_side = {p.evaluate("window.tavli.O.side"): p for p in pages}
    other = {"white": "black", "black": "white"}
    reloaded = False
    stuck = 0
    actor = pages[0]
    start = 0   # the action that began the game under way
    for _ in range(limit):
        seq, status, phase, turn, over = actor.evaluate(STATE)
        if status == "over" and over:
            return seq
        if phase == "over":
            start = seq
        elif (resign_after is not None and seq - start >= resign_after
              and pages[0].is_visible("#btn-resign")):
            pages[0].click("#btn-resign")
            pages[0].click("#resign-values button >> nth=0")
            _until(pages[0], PAST, seq, 4.0)
            start = seq
            continue
        if reload_at is not None and not reloaded and seq >= reload_at:
            reloaded = True
            by_side["black"].reload()
            _online(by_side["black"])
        actor = by_side[turn]
        got = actor.evaluate(STEP, seq)
        if got == "none" and phase in ("over", "opening"):
            actor = by_side[other[turn]]
            got = actor.evaluate(STEP, seq)
        if got in ("busy", "none"):
            actor.wait_for_timeout(10)
            continue
        try:
            _until(actor, PAST, seq, 4.0)
        except AssertionError:  # the action was lost with a dropped connection: again
            stuck += 1
            assert stuck <= 3, f"{got} by {turn} at {seq} ({phase}): " + " / ".join(
                p.inner_text("#toast") + " " + p.inner_text("#status") for p in pages)
    raise AssertionError("the game did not end")


def _no_controls(page):
    """No move control is offered to a spectator."""
    shown = page.evaluate("""() => [...document.querySelectorAll(
        '#actions button, #moves-box, #join, #resign-box')].filter((b) => !b.hidden)
        .map((b) => b.id)""")
    assert shown == [], shown


def _verify(page):
    page.click("#btn-verify")
    wait_js(page, "!!document.querySelector('#verify-result').dataset.result")
    text = page.inner_text("#verify-result")
    assert page.get_attribute("#verify-result", "data-result") == "match", text
    return text


@pytest.mark.parametrize("variant,points", [("portes", 1), ("tavli", 3)])
def test_two_players_and_a_spectator_play_to_the_end(browser, online_server, variant, points):
    """A whole game played by clicks; in the 3-point Tavli match Ann resigns each game
    after 30 actions (Bob wins Portes, Plakoto and Fevga one point each), so the match
    goes through each game's start and end without playing out 500 actions."""
    t0 = time.monotonic()
    ann = _page(browser)
    bob = _page(browser)
    eve = _page(browser, motion="no-preference")  # the spectator sees the moves animated
    invite, watch = _create(ann, online_server, variant, points)
    assert "#seat=" in invite and "#" not in watch
    _online(ann)
    bob.goto(invite)
    wait_js(bob, "!document.querySelector('#join').hidden")
    assert "seat=" not in bob.url  # the token left the address bar
    bob.fill("#join-name", "Bob")
    bob.click("#join-go")
    eve.goto(watch)
    _online(eve)
    for p in (ann, bob):
        wait_js(p, "window.tavli.state().seats.every((s) => s.seeded)")
    assert ann.evaluate("window.tavli.O.side") == "white"
    assert bob.evaluate("window.tavli.O.side") == "black"
    if points > 1:  # the match score on the board's frame, as the local app draws it
        frame = ann.evaluate("[...document.querySelectorAll('text.score')]"
                             ".map((e) => e.textContent)")
        assert frame == ["0/3", "0/3"], frame
    assert eve.evaluate("window.tavli.O.side") is None
    wait_js(ann, "document.querySelector('#presence').textContent.includes('1 spectator')")
    _no_controls(eve)
    # the spectator's act through its own connection is refused, the game unchanged
    seq = eve.evaluate("window.tavli.state().seq")
    eve.evaluate("""window.tavli.O.ws.send(JSON.stringify({type: 'act',
        seq: window.tavli.state().seq + 1, action: {type: 'roll'}}))""")
    wait_js(eve, "document.querySelector('#toast').textContent.includes('spectators')")
    assert ann.evaluate("window.tavli.state().seq") == seq

    ann.set_viewport_size({"width": 1366, "height": 768})
    last = _play([ann, bob], eve, reload_at=12, resign_after=30 if points > 1 else None)
    wait_js(eve, f"window.tavli.state().seq >= {last}", 20000)
    assert eve.evaluate("window.tavli.O.animated") > 0  # opponents' moves slid
    _no_controls(eve)
    ann.screenshot(path=str(ARTIFACTS / f"online-{variant}-over-desk.png"))
    text = _verify(bob)
    assert "match" in text
    _verify(eve)
    st = ann.evaluate("window.tavli.state()")
    assert st["status"] == "over"
    if points > 1:
        assert max(st["score"]) >= points
        # Ann (white) resigned Portes, Plakoto and Fevga: the match ended in the third
        assert st["score"] == [0, 3] and st["game"] == "fevga"
    for p in (ann, bob, eve):
        assert p.errors == []
        p.context.close()
    print(f"{variant}: {last} actions in {time.monotonic() - t0:.1f} s")


def test_a_tampered_record_makes_the_verify_say_mismatch(browser, online_server):
    ann = _page(browser)
    bob = _page(browser)
    invite, _ = _create(ann, online_server, "portes", 1)
    _online(ann)
    _join(bob, invite, "Bob")
    for p in (ann, bob):
        wait_js(p, "window.tavli.state().seats.every((s) => s.seeded)")
    # a few turns, then white resigns: the game is over and the seed revealed
    _play_some([ann, bob], 8)
    wait_js(ann, "!document.querySelector('#btn-resign').hidden")
    ann.click("#btn-resign")
    ann.click("#resign-values button >> nth=0")
    wait_js(ann, "window.tavli.state().status === 'over'")
    _verify(ann)

    def tamper(route):
        resp = route.fetch()
        rec = resp.json()
        for ev in rec["games"][0]["events"]:
            if "dice" in ev:
                ev["dice"] = [ev["dice"][0] % 6 + 1, ev["dice"][1]]  # one die changed
                break
        route.fulfill(response=resp, body=json.dumps(rec))

    bob.route("**/record", tamper)
    bob.click("#btn-verify")
    wait_js(bob, "!!document.querySelector('#verify-result').dataset.result")
    assert bob.get_attribute("#verify-result", "data-result") == "mismatch"
    assert "Mismatch" in bob.inner_text("#verify-result")
    for p in (ann, bob):
        assert p.errors == []
        p.context.close()


def _play_some(pages, actions):
    by_side = {p.evaluate("window.tavli.O.side"): p for p in pages}
    start = pages[0].evaluate("window.tavli.state().seq")
    while pages[0].evaluate("window.tavli.state().seq") < start + actions:
        seq, _, _, turn, _ = pages[0].evaluate(STATE)
        if by_side[turn].evaluate(STEP, seq) in ("busy", "none"):
            pages[0].wait_for_timeout(20)
            continue
        wait_js(pages[0], f"window.tavli.state().seq > {seq}", 10000)


def test_the_lobby_lists_a_game_and_a_stranger_takes_the_seat(browser, online_server):
    ann = _page(browser)
    cat = _page(browser)
    _create(ann, online_server, "plakoto", 1, listed=True)
    _online(ann)
    gid = ann.evaluate("window.tavli.state().id")
    cat.goto(online_server + "/")
    wait_js(cat, "document.body.dataset.ready === '1'")
    cat.fill("#ng-name", "Cat")
    cat.click(f"#lobby button[data-id='{gid}']")
    cat.wait_for_url("**/online/*")
    _online(cat)
    wait_js(cat, "window.tavli.O.side === 'black'")
    wait_js(ann, "window.tavli.state().status === 'playing'")
    assert "Cat" in ann.inner_text("#players")
    for p in (ann, cat):
        assert p.errors == []
        p.context.close()


@pytest.mark.parametrize("size", [(360, 740), (1366, 768)])
def test_the_pages_at_phone_and_desk_sizes(browser, online_server, size):
    w, h = size
    ann = _page(browser, viewport={"width": w, "height": h})
    bob = _page(browser, viewport={"width": w, "height": h})
    ann.goto(online_server + "/")
    wait_js(ann, "document.body.dataset.ready === '1'")
    ann.screenshot(path=str(ARTIFACTS / f"online-start-{w}.png"), full_page=True)
    invite, _ = _create(ann, online_server, "portes", 1, listed=True, clock="300:12")
    ann.goto(online_server + "/")
    wait_js(ann, "document.body.dataset.ready === '1'")
    ann.screenshot(path=str(ARTIFACTS / f"online-lobby-{w}.png"), full_page=True)
    bob.goto(invite)
    wait_js(bob, "!document.querySelector('#join').hidden")
    bob.screenshot(path=str(ARTIFACTS / f"online-join-{w}.png"), full_page=True)
    bob.fill("#join-name", "Bob")
    bob.click("#join-go")
    ann.go_back()
    _online(ann)
    _play_some([ann, bob], 5)
    for p, who in ((ann, "white"), (bob, "black")):
        # the clock chosen on the start page: 5 minutes each, 12 s a move first
        assert p.evaluate("window.tavli.state().clock.reserve.white") == 300
        clocks = p.locator("#players .clock").all_inner_texts()
        assert len(clocks) == 2 and all(re.fullmatch(r"[45]:\d\d", c) for c in clocks)
        p.screenshot(path=str(ARTIFACTS / f"online-game-{who}-{w}.png"), full_page=True)
        assert p.evaluate("document.documentElement.scrollWidth") <= w
        assert p.errors == []
    for p in (ann, bob):
        p.context.close()


def test_the_rules_button_and_the_last_move_marks_online(browser, online_server):
    """An online Fevga game with two rule options off their defaults, against the AI: the
    board marks the last move of each side, and the Rules button opens the rules of the
    game with those options, in the page's language."""
    opts = {"prime_rule": "forbid", "starting_quarter_rule": "off"}
    page = _page(browser, viewport={"width": 360, "height": 740}, locale="el-GR",
                 service_workers="block")
    r = page.request.post(online_server + "/api/online/games", data=json.dumps({
        "game": {"variant": "fevga", "opponent": "ai", "ai_side": "black",
                 "level": "beginner", "rules": opts}, "name": "Ann", "side": "white"}),
        headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    page.goto(f"{online_server}/online/{r.json()['id']}#seat={r.json()['token']}")
    _online(page)
    marked = ("(() => { const m = window.tavli.state().board.last_moves;"
              " return !!(m.white && !m.white.pass && m.black && !m.black.pass); })()")
    deadline = time.monotonic() + 20
    while not page.evaluate(marked):  # play the first moves offered until both sides moved
        assert time.monotonic() < deadline, "no move of each side in 20 s"
        page.evaluate(STEP, page.evaluate("window.tavli.state().seq"))
        page.wait_for_timeout(50)
    wait_js(page, "!window.tavli.O.animating")
    for side in ("white", "black"):
        wait_js(page, f"document.querySelectorAll('.last-move[data-side={side}] .last-to')"
                      ".length > 0", 5000)
    page.screenshot(path=str(ARTIFACTS / "online-marks-360.png"))
    with page.expect_popup() as info:
        page.click("#btn-rules")
    pop = info.value
    pop.wait_for_load_state()
    assert "/rules/fevga?" in pop.url and "lang=el" in pop.url
    for opt, value in opts.items():
        assert f"{opt}={value}" in pop.url
        assert pop.locator(f'[data-option="{opt}"] li.applies').get_attribute(
            "data-value") == value
    assert page.errors == []
    page.context.close()
