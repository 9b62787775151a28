"""Accessibility of the browser app (a real server, chromium driven by Playwright): a whole
Portes game against the AI played with the keyboard only, the reduced-motion setting, the
last-move marks and the pip counts on the board, and axe-core's scan of the main screens
(start, New game dialog, a game in play, the help dialog, a review, the online game page)
with no serious or critical violation.

The keyboard test presses keys only: no click, no script that acts on the page; it reads
the state (window.tavli.state()) and the board's cursor (data-cursor) to know which keys
to press. Screenshots at phone (360x740) and desk (1366x768) size go to tests/artifacts/."""

from __future__ import annotations

import json
import time
from importlib.resources import files

import pytest
from conftest import ARTIFACTS, page_at, served, wait_js
from test_web_e2e import idle, state, until_my_move

SIZES = [(360, 740), (1366, 768)]
AXE = files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


@pytest.fixture
def page(browser):
    with page_at(browser, 1366, 768, reduced_motion="no-preference") as pg:  # the system's
        yield pg


def shot(page, name):
    w = page.viewport_size["width"]
    page.screenshot(path=str(ARTIFACTS / f"a11y-{name}-{w}.png"))


def new_game(page, base, **body):
    body = {"variant": "portes", "points": 1, "level": "beginner", **body}
    r = page.request.post(f"{base}/api/games", data=json.dumps(body),
                          headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    # a fresh load (a new query: not only the hash), so no dialog stays open
    page.goto(f"{base}/?load#/game/{r.json()['id']}")
    page.wait_for_selector("body[data-phase]")
    return r.json()


# --- keyboard only --------------------------------------------------------------------------
def choose(page, select: str, value: str) -> None:
    """Pick `value` in the focused menu `select` with the arrow keys."""
    assert page.evaluate("document.activeElement.id") == select.lstrip("#")
    values = page.evaluate(f"[...document.querySelector('{select}').options]"
                           ".filter((o) => !o.disabled).map((o) => o.value)")
    for _ in range(len(values) + 1):
        now = page.evaluate(f"document.querySelector('{select}').value")
        if now == value:
            return
        key = "ArrowDown" if values.index(value) > values.index(now) else "ArrowUp"
        page.keyboard.press(key)
    raise AssertionError(f"{select}: could not choose {value}")


def tab_to(page, element_id: str, limit: int = 20) -> None:
    for _ in range(limit):
        if page.evaluate("document.activeElement.id") == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def cursor_to(page, slot: int) -> None:
    """Move the board's cursor to the mover's slot `slot` (25 the bar, 0 off)."""
    for _ in range(30):
        if page.get_attribute("#board", "data-cursor") == str(slot):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the cursor never reached {slot}")


def a_path(st) -> list[tuple[int, int]]:
    """The steps of one whole move of the turn tree (its first branch at every node)."""
    nodes = st["turn_tree"]["nodes"]
    at, steps = nodes[0], []
    while at["next"]:
        f, t, i = at["next"][0]
        steps.append((f, t))
        at = nodes[i]
    assert "move" in at
    return steps


def play_by_keys(page, steps) -> None:
    """Play the steps on the focused board (cursor, Enter, cursor, Enter), then confirm."""
    for k, (f, t) in enumerate(steps):
        cursor_to(page, f)
        page.keyboard.press("Enter")
        assert page.evaluate("window.tavli.S.selected") == f
        cursor_to(page, t)
        page.keyboard.press("Enter")
        wait_js(page, f"window.tavli.S.done.length === {k + 1} && !window.tavli.S.sliding")
    assert page.is_enabled("#btn-confirm")
    page.keyboard.press("Enter")            # the move is whole: Enter confirms it
    wait_js(page, "window.tavli.S.done.length === 0")


def test_a_whole_portes_game_by_keyboard(page, server):
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    wait_js(page, "document.querySelector('#ng-variant option[value=\"portes\"]') !== null")
    idle(page)
    tab_to(page, "ng-variant")
    choose(page, "#ng-variant", "portes")
    tab_to(page, "ng-points")
    choose(page, "#ng-points", "1")
    tab_to(page, "ng-opponent")
    choose(page, "#ng-opponent", "ai:beginner")
    tab_to(page, "ng-start")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-phase]")
    idle(page)
    # the help dialog: the keys listed, reduced motion switched on by keyboard
    page.keyboard.press("?")
    page.wait_for_selector("#dlg-help[open]")
    assert page.locator("#dlg-help kbd", has_text="R").count() >= 1
    shot(page, "help")
    assert page.evaluate("document.activeElement.id") == "opt-motion"
    if not page.is_checked("#opt-motion"):
        page.keyboard.press("Space")
    assert page.is_checked("#opt-motion")
    page.keyboard.press("Escape")
    assert not page.is_visible("#dlg-help")
    assert page.evaluate("localStorage.getItem('tavli.motion')") == "1"
    # quick play (the tests' pages start with it: conftest.QUICK): no pauses
    assert page.is_checked("#opt-quick") and page.evaluate("window.tavli.MOTION.quick")
    page.keyboard.press("b")
    assert page.evaluate("document.activeElement.id") == "board"
    # a key pressed at once after a dialog closes, while the focus is still on the closed
    # dialog's field (the page moves it back to the board a moment later), is the page's.
    # (Opened from the page, not the board: closing a dialog gives the focus back to where
    # it was, if anywhere.)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("?")
    page.wait_for_selector("#dlg-help[open]")
    assert page.evaluate("""() => {
        document.getElementById("dlg-help").close();
        const stale = document.activeElement.id;
        document.activeElement.dispatchEvent(
            new KeyboardEvent("keydown", {key: "b", code: "KeyB", bubbles: true}));
        return [stale, document.activeElement.id];
    }""") == ["opt-motion", "board"]

    moves = 0
    saw_marks = saw_played = False
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline:
        page.wait_for_selector('body[data-busy="0"]', timeout=120000)   # the AI may be slow
        st = state(page)
        if st["phase"] == "over":
            break
        if st["ai_to_act"] or st["phase"] not in ("opening", "move", "roll"):
            page.wait_for_timeout(100)
            continue
        if st["phase"] in ("opening", "roll"):
            page.keyboard.press("r")
            page.wait_for_timeout(100)
            continue
        # the player's move: the board says whose turn, the dice and the position
        assert page.get_attribute("body", "data-your-turn") == "1"
        desc = page.text_content("#board-desc")
        assert st["dice_text"] in desc and "White:" in desc and "Pip counts" in desc
        if st["last_moves"]["black"] and not st["last_moves"]["black"]["pass"]:
            saw_marks = saw_marks or page.locator(".last-move.theirs .last-to").count() > 0
            saw_played = saw_played or "Black played" in page.text_content("#a11y-live")
        play_by_keys(page, a_path(st))
        moves += 1
        if moves == 1:
            shot(page, "keyboard-game")
    st = state(page)
    assert st["phase"] == "over" and st["finished"], "the game did not end in time"
    assert moves >= 5
    assert saw_marks and saw_played
    assert page.evaluate("window.tavli.MOTION.slides") == 0   # motion off: no slide
    idle(page)
    assert page.is_visible("#btn-rematch")
    shot(page, "keyboard-over")


def test_enter_confirms_after_a_dialog_closes(page, server):
    """A move set up by keyboard; the Games dialog opened and closed with the mouse, the
    help by its key and Escape: the focus is back on the board, and Enter confirms."""
    new_game(page, server, seed=3)
    st = until_my_move(page)
    idle(page)
    page.keyboard.press("b")
    steps = a_path(st)
    for k, (f, t) in enumerate(steps):
        cursor_to(page, f)
        page.keyboard.press("Enter")
        cursor_to(page, t)
        page.keyboard.press("Enter")
        wait_js(page, f"window.tavli.S.done.length === {k + 1} && !window.tavli.S.sliding")
    page.click("#btn-games")
    page.wait_for_selector("#dlg-games[open]")
    page.click("#games-close")
    page.keyboard.press("?")
    page.wait_for_selector("#dlg-help[open]")
    page.keyboard.press("Escape")
    wait_js(page, "document.activeElement.id === 'board'", 2000)
    turns = len(st["history_text"])
    page.keyboard.press("Enter")
    wait_js(page, "window.tavli.S.done.length === 0 && "
                  f"window.tavli.state().history_text.length > {turns}")
    assert page.evaluate("document.querySelector('dialog[open]')") is None


# --- reduced motion, marks, pips ------------------------------------------------------------
def ai_moves_first(page, server):
    """A Portes game where the AI (white) starts: its first move is animated or not."""
    new_game(page, server, ai_side="white", first="white", seed=7)
    wait_js(page, "window.tavli.state().last_moves.white !== null "
                  "&& document.body.dataset.busy === '0'", 30000)


def test_reduced_motion_setting(browser, server):
    for reduced, slides in ((True, 0), (False, 1)):
        ctx = browser.new_context(viewport={"width": 1366, "height": 768}, quick=reduced,
                                  reduced_motion="reduce" if reduced else "no-preference")
        page = ctx.new_page()
        try:
            ai_moves_first(page, server)
            # quick play is off unless chosen: the AI's move then takes its pauses
            assert page.evaluate("window.tavli.MOTION.quick") is reduced
            # the default follows the system's prefers-reduced-motion
            assert page.get_attribute("body", "data-reduced-motion") == ("1" if reduced else "0")
            n = page.evaluate("window.tavli.MOTION.slides")
            assert (n == 0) if reduced else (n >= slides), n
        finally:
            ctx.close()
    # the setting, once chosen, wins over the system's and is remembered
    ctx = browser.new_context(viewport={"width": 1366, "height": 768},
                              reduced_motion="no-preference")
    page = ctx.new_page()
    try:
        page.goto(server)
        # a fresh page opens the New game dialog once the catalogue is in: closed first
        page.wait_for_selector("#dlg-new[open]")
        page.keyboard.press("Escape")
        wait_js(page, "!document.querySelector('#dlg-new').open")
        page.click("#btn-help")
        page.check("#opt-motion")
        page.keyboard.press("Escape")
        ai_moves_first(page, server)
        assert page.get_attribute("body", "data-reduced-motion") == "1"
        assert page.evaluate("window.tavli.MOTION.slides") == 0
        # the sound: off by default; switched on it plays (WebAudio) and is remembered
        assert page.get_attribute("body", "data-sound") == "0"
        page.keyboard.press("?")
        page.check("#opt-sound")
        page.keyboard.press("Escape")
        assert page.get_attribute("body", "data-sound") == "1"
        assert page.evaluate("window.tavli.SOUND.played") >= 1
        assert page.evaluate("localStorage.getItem('tavli.sound')") == "1"
        # and the CSS: no transition anywhere
        assert page.evaluate("getComputedStyle(document.querySelector('button'))"
                             ".transitionDuration") in ("0s", "")
    finally:
        ctx.close()


def test_last_move_marks_and_pips_on_the_board(page, server):
    page.set_default_timeout(60000)
    ai_moves_first(page, server)
    st = state(page)
    lm = st["last_moves"]["white"]
    page.wait_for_selector(".last-move.theirs .last-to")
    # the marks are on the points the AI's checkers left and reached (viewer: black)
    to_views = {int(x) for x in page.eval_on_selector_all(
        ".last-move.theirs .last-to", "(es) => es.map((e) => e.dataset.view)")}
    from_views = {int(x) for x in page.eval_on_selector_all(
        ".last-move.theirs .last-from", "(es) => es.map((e) => e.dataset.view)")}
    opp = st["opposite"]
    assert to_views == {opp[p] for p in lm["to"] if 1 <= p <= 24}
    assert from_views == {opp[p] for p in lm["from"] if 1 <= p <= 24}
    # pip counts on the frame, and in the description
    assert page.text_content(".pip-count.white") == str(st["pips"]["white"])
    assert page.text_content(".pip-count.black") == str(st["pips"]["black"])
    assert f"white {st['pips']['white']}" in page.text_content("#board-desc")
    assert "White played" in page.text_content("#a11y-live")
    until_my_move(page)
    assert page.get_attribute("body", "data-your-turn") == "1"
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        shot(page, "marks")


# --- axe-core ----------------------------------------------------------------------------------
def axe(page, name: str) -> list[str]:
    """axe-core's serious and critical violations on the page as shown now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE)
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{name}: {v['id']} ({v['impact']}): {v['help']} — " +
            "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
                      for n in v["nodes"][:4])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", SIZES, ids=["phone", "desk"])
def test_axe_scan_of_the_main_screens(browser, server, size):
    w, h = size
    ctx = browser.new_context(viewport={"width": w, "height": h})
    page = ctx.new_page()
    page.set_default_timeout(60000)      # the AI's first move and the review may be slow
    found: list[str] = []
    try:
        page.goto(server + "/?fresh=1")
        page.wait_for_selector("#dlg-new[open]")
        idle(page)
        found += axe(page, "new game dialog")
        shot(page, "new")
        page.keyboard.press("Escape")
        found += axe(page, "start")
        # a game in play, the player to move
        new_game(page, server, seed=3)
        until_my_move(page)
        idle(page)
        found += axe(page, "game")
        shot(page, "game")
        # the hint by its key; a move of it set up by Enter on its row, undone by U
        page.keyboard.press("h")
        page.wait_for_selector("#hints tr.hint[tabindex='0']")
        idle(page)
        found += axe(page, "hints")
        page.focus("#hints tr.hint")
        page.keyboard.press("Enter")
        wait_js(page, "window.tavli.S.done.length > 0")
        page.keyboard.press("u")
        wait_js(page, "window.tavli.S.done.length === 0")
        page.keyboard.press("?")
        page.wait_for_selector("#dlg-help[open]")
        found += axe(page, "help dialog")
        page.keyboard.press("Escape")
        # a finished game, reviewed
        from tavli.engine.board import Position
        pos = Position.from_points("portes", {1: 1}, {1: 1})
        r = page.request.post(f"{server}/api/games", data=json.dumps(
            {"variant": "portes", "position": pos.id(), "level": "beginner", "first": "white"}),
            headers={"Content-Type": "application/json"})
        page.goto(f"{server}/?review#/game/{r.json()['id']}")
        page.wait_for_selector("body[data-phase]")
        st = until_my_move(page)
        if st["phase"] == "move":
            page.keyboard.press("b")
            play_by_keys(page, a_path(st))
        wait_js(page, "window.tavli.state().phase === 'over'", 30000)
        idle(page)
        page.keyboard.press("Escape")
        page.locator("#btn-review").press("Enter")
        page.wait_for_selector("#review:not([hidden]) #mistakes li", timeout=150000)
        idle(page)
        found += axe(page, "review")
        shot(page, "review")
    finally:
        ctx.close()
    assert found == [], "\n".join(found)


def test_axe_scan_of_the_online_game_page(browser, tmp_path):
    from test_online_page import _create, _online

    from tavli.online.app import create_online_app

    with served(create_online_app(str(tmp_path / "online.sqlite3"))) as base:
        found: list[str] = []
        for w, h in SIZES:
            ctx = browser.new_context(viewport={"width": w, "height": h})
            page = ctx.new_page()
            try:
                _create(page, base, "portes", 1)
                _online(page)
                idle(page)
                found += axe(page, f"online game {w}")
                shot(page, "online")
                page.keyboard.press("?")
                page.wait_for_selector("#dlg-help[open]")
                found += axe(page, f"online help {w}")
                shot(page, "online-help")
            finally:
                ctx.close()
    assert found == [], "\n".join(found)
