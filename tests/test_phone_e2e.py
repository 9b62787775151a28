"""Phone first (issue 20): the main screens of ``tavli play`` and ``tavli serve`` at the
four sizes 360x740, 390x844 (portrait phones), 844x390 (a phone held sideways) and
1366x768 (a desk) in the four languages, in a real browser (a game's hint panel among
them: it and its table within the screen): nothing wider than the
viewport (outside boxes that scroll or clip), no sideways scroll, no message key shown
raw, and on the phone sizes every control a finger uses at least 44 px square (buttons,
menus, links, the summaries that open a list, the rows one taps); the board's points and
the Dama board's squares take a tap 20 px beside them (the tap goes to the nearest square
or point the turn offers). The board fills the width in portrait and the height in
landscape. Screenshots (English and Greek):
tests/artifacts/phone-{lang}-{screen}-{size}.png.

One browser; per language one phone context (the three phone sizes by resizing the same
page) and one desk context; the games are set up through the API.
"""

from __future__ import annotations

import json

import pytest
from conftest import AI_WAIT, ARTIFACTS, wait_js
from conftest import until_idle as idle
from test_i18n_e2e import KEY, LOCALES, OVERFLOW, post, visible_text
from test_online_page import online_server  # noqa: F401  (the fixture)

from tavli.engine.board import Position

PHONES = [("360", {"width": 360, "height": 740}), ("390", {"width": 390, "height": 844}),
          ("844x390", {"width": 844, "height": 390})]
DESK = ("desk", {"width": 1366, "height": 768})
SHOTS = ("en", "el")  # the languages whose screens are saved (the others: checked only)

# controls a finger uses that are smaller than 44x44 CSS px (visible ones, in the open
# dialog when there is one; not the review chart's points); a checkbox counts by its label
SMALL = """() => {
  const root = document.querySelector("dialog[open]") || document.body;
  const sel = "button, a[href], select, input:not([type=checkbox]):not([type=hidden]), " +
    "summary, label:has(> input[type=checkbox]), [role=button], #hints tr.hint, " +
    "#mistakes li, #dama-history li[data-ply]";
  const out = [];
  for (const e of root.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    if (!r.width || !r.height || cs.visibility === "hidden") continue;
    if (e.closest("label") && e.closest("label") !== e && e.tagName === "INPUT" &&
        e.type === "file") continue;
    // the review chart's points (buttons for the keyboard: one Tab stop, the arrows) are
    // as close together as the turns; a finger has the list of mistakes below the chart
    if (e.closest("#chart")) continue;
    if (r.width < 43.5 || r.height < 43.5) {
      out.push(`${e.tagName}#${e.id}.${e.getAttribute("class")} ` +
               `"${(e.innerText || e.value || "").slice(0, 20)}" ` +
               `${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out.slice(0, 10);
}"""


# the hint panel's box against the viewport, and how much of its table is cut off
HINTS_FIT = """() => {
  const box = document.querySelector("#hints").getBoundingClientRect();
  const table = document.querySelector("#hints table").getBoundingClientRect();
  return {left: box.left, right: box.right, vw: document.documentElement.clientWidth,
          cut: Math.max(table.right - box.right, box.left - table.left)};
}"""


def check(page, lang: str, screen: str, size: str, phone: bool) -> None:
    """The screen shown fits, has no raw key and (on a phone) no small control; saved as
    tests/artifacts/phone-{lang}-{screen}-{size}.png."""
    page.evaluate("new Promise((r) => requestAnimationFrame(() => r()))")  # laid out
    if lang in SHOTS:
        page.screenshot(path=str(ARTIFACTS / f"phone-{lang}-{screen}-{size}.png"))
    where = f"{lang} {screen} {size}"
    text = visible_text(page)
    assert not KEY.search(text), f"{where}: raw key {KEY.search(text)}"
    wide = page.evaluate(OVERFLOW)
    assert wide["scroll"] <= wide["vw"] and wide["out"] == [], f"{where}: {wide}"
    if phone:
        assert page.evaluate(SMALL) == [], f"{where}: small targets"


def board_fills(page, sel: str, size: str) -> None:
    """The board uses the width (portrait) or the height (landscape) of the screen."""
    r = page.evaluate(f"""(() => {{ const r = document.querySelector("{sel}")
      .getBoundingClientRect(); return {{w: r.width, h: r.height, top: r.top,
      vw: innerWidth, vh: innerHeight}}; }})()""")
    if size == "844x390":
        assert r["h"] >= r["vh"] - 8 and r["top"] >= -1, f"{sel} {size}: {r}"
    elif size != "desk":
        assert r["w"] >= r["vw"] - 8, f"{sel} {size}: {r}"


def tap_beside(page, sel: str, expr: str) -> None:
    """Tap 20 px beside the first element of ``sel`` (a point with a movable checker, a
    Dama piece that may move), on a side where no other such element is; ``expr``
    (JavaScript) must then name that element's slot as selected; a tap on the element
    itself lets it go."""
    spots = page.evaluate(f"""(() => {{
      const out = [];
      for (const e of document.querySelectorAll("{sel}")) {{
        const r = e.getBoundingClientRect();
        out.push({{x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width,
                   h: r.height, key: e.dataset.w || e.dataset.square}});
      }}
      return out; }})()""")
    assert spots, f"nothing to tap: {sel}"
    for s in spots[:1]:
        for dx, dy in ((20, 0), (-20, 0), (0, 20), (0, -20)):
            x, y = s["x"] + dx, s["y"] + dy
            hit = page.evaluate(f"document.elementFromPoint({x}, {y})?.closest('{sel}')")
            if hit is not None:  # that spot is on the element itself or another source
                continue
            page.touchscreen.tap(x, y)
            page.wait_for_timeout(30)
            got = page.evaluate(expr)
            assert str(got) == str(s["key"]), f"tap {dx},{dy} from {s}: {got}"
            page.touchscreen.tap(s["x"], s["y"])  # on itself again: let go
            page.wait_for_timeout(30)
            assert page.evaluate(expr) is None
            break


@pytest.fixture(scope="module")
def games(server, online_server, browser):  # noqa: F811
    """The games the screens show, made through the APIs once: a Portes game against the
    AI with the person to move, a race played to the end (to review), a Dama game and an
    online game against the AI."""
    ctx = browser.new_context()
    page = ctx.new_page()
    out = {}
    out["play"] = post(page, server, {"variant": "portes", "seed": 7, "first": "white",
                                      "ai_side": "black", "level": "beginner"})["id"]
    pos = Position.from_points("portes", {1: 2, 2: 1, 4: 1, 6: 1}, {1: 1, 2: 2, 5: 2})
    st = post(page, server, {"variant": "portes", "seed": 4, "position": pos.id(),
                             "first": "white", "opponent": "human"})
    for _ in range(40):
        if st["phase"] == "over":
            break
        act = "roll" if st["phase"] == "roll" else "move"
        body = {"move": st["legal_moves"][0]["move"]} if act == "move" else {}
        r = page.request.post(f"{server}/api/games/{st['id']}/{act}",
                              data=json.dumps(body),
                              headers={"Content-Type": "application/json"})
        assert r.ok, r.text()
        st = r.json()
    assert st["phase"] == "over"
    out["over"] = st["id"]
    for _ in range(300):  # its review, made once (the server keeps it)
        r = page.request.get(f"{server}/api/games/{st['id']}/review")
        assert r.ok, r.text()
        if r.status == 200:
            break
        page.wait_for_timeout(300)
    r = page.request.post(f"{server}/api/games", data=json.dumps(
        {"variant": "russian", "opponent": "human"}),
        headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    out["dama"] = r.json()["id"]
    r = page.request.post(f"{online_server}/api/online/games", data=json.dumps(
        {"game": {"variant": "portes", "points": 1, "opponent": "ai", "level": "beginner",
                  "ai_side": "black", "first": "white"}, "name": "Ann", "side": "white",
         "listed": False}), headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    out["online"] = r.json()
    # a listed game waiting in the lobby
    r = page.request.post(f"{online_server}/api/online/games", data=json.dumps(
        {"game": {"variant": "fevga", "points": 3, "opponent": "human"}, "name": "Eleni",
         "side": "white", "listed": True}), headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    ctx.close()
    return out


@pytest.mark.parametrize("lang", ["en", "el", "it", "de"])
def test_main_screens_fit_phones_and_desk(browser, server, online_server, games,  # noqa: F811
                                          lang):
    for phone in (True, False):
        if phone:
            ctx = browser.new_context(viewport=PHONES[0][1], is_mobile=True, has_touch=True,
                                      locale=LOCALES[lang], reduced_motion="reduce")
        else:
            ctx = browser.new_context(viewport=DESK[1], locale=LOCALES[lang],
                                      reduced_motion="reduce")
        page = ctx.new_page()
        page.set_default_timeout(20000)
        page.errors = []
        page.on("pageerror", lambda e, pg=page: pg.errors.append(str(e)))
        try:
            screens(page, lang, phone, server, online_server, games)
            assert page.errors == []
        finally:
            ctx.close()


def screens(page, lang, phone, server, online, games):
    sizes = PHONES if phone else [DESK]

    def each(screen, fits=None):
        for size, vp in sizes:
            if phone:
                page.set_viewport_size(vp)
            check(page, lang, screen, size, phone)
            if fits:
                board_fills(page, fits, size)

    # the start: the New game dialog opens by itself; closed, the empty board
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    each("new")
    page.keyboard.press("Escape")
    each("start")
    # a game in play, the dice out, the person to move
    page.goto(f"{server}/#/game/{games['play']}")
    wait_js(page, "!!window.tavli.state() && window.tavli.state().phase === 'move' && "
                  "!window.tavli.state().ai_to_act && document.body.dataset.busy === '0'")
    each("play", "#board")
    if phone:
        for _size, vp in (PHONES[0], PHONES[2]):
            page.set_viewport_size(vp)
            tap_beside(page, "#board .hit.src", "(() => { const S = window.tavli.S;"
                       " return S.selected === null ? null : S.selected; })()")
    # the hint panel: it fits the screen, its table too (no column cut off)
    page.click("#btn-hint")
    page.wait_for_selector("#hints tr.hint")
    idle(page)
    for size, vp in sizes:
        if phone:
            page.set_viewport_size(vp)
        page.locator("#hints").scroll_into_view_if_needed()
        check(page, lang, "hint", size, phone)
        box = page.evaluate(HINTS_FIT)
        assert box["left"] >= 0 and box["right"] <= box["vw"] and box["cut"] <= 0, \
            f"{lang} hint {size}: {box}"
    # the Games list
    page.click("#btn-games")
    page.wait_for_selector("#games-table tbody tr[data-id]")
    each("games")
    page.click("#games-close")
    # the review of a finished game
    page.goto(f"{server}/#/game/{games['over']}")
    wait_js(page, "!!window.tavli.state() && window.tavli.state().phase === 'over'")
    idle(page)
    page.click("#btn-review")
    page.wait_for_selector("#review:not([hidden]) #chart polyline.curve", timeout=AI_WAIT)
    idle(page)
    each("review")
    # Dama
    page.goto(f"{server}/#/dama/{games['dama']}")
    wait_js(page, "!!window.tavli.dama.state() && "
                  f"window.tavli.dama.state().id === '{games['dama']}'")
    idle(page)
    each("dama", "#dama-board")
    if phone:
        for _size, vp in (PHONES[0], PHONES[2]):
            page.set_viewport_size(vp)
            tap_beside(page, "#dama-board .piece.can",
                       "window.tavli.dama.D.partial.length ? window.tavli.dama.D.partial[0] : null")
    if phone and lang == "en":
        drag_a_dama_piece(page, server)
    # tavli serve: the start page (New game and the lobby), then a game in play
    page.goto(online + "/")
    wait_js(page, "document.body.dataset.ready === '1'")
    page.wait_for_selector("#lobby li")
    each("lobby")
    on = games["online"]
    page.evaluate(f"localStorage.setItem('tavli.online.seat.{on['id']}', '{on['token']}')")
    page.goto(f"{online}/online/{on['id']}")
    wait_js(page, "!!window.tavli && !!window.tavli.state() && "
                  "document.body.dataset.conn === 'online'")
    idle(page)
    each("online", "#board")


def drag_a_dama_piece(page, server):
    """On a phone (360 px), a Dama piece dragged to where it may land is moved there (the
    drop 25 px right of the
    square's centre, on the light square beside it: within reach)."""
    page.set_viewport_size(PHONES[0][1])
    r = page.request.post(f"{server}/api/games", data=json.dumps(
        {"variant": "russian", "opponent": "human"}),
        headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    d = r.json()
    page.goto(f"{server}/#/dama/{d['id']}")
    wait_js(page, f"!!window.tavli.dama.state() && window.tavli.dama.state().id === '{d['id']}'")
    idle(page)
    move = d["legal_moves"][0]
    a, b = move["path"][0], move["path"][1]
    box = page.evaluate(f"""(() => {{ const c = (s) => {{ const r = document.querySelector(
      `#dama-board .sq[data-square="${{s}}"]`).getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2]; }}; return [c({a}), c({b})];
    }})()""")
    (x0, y0), (x1, y1) = box
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1 + 25, y1, steps=4)  # on the light square beside it
    page.mouse.up()
    wait_js(page, "window.tavli.dama.state().plies === 1 && document.body.dataset.busy === '0'")
    assert page.evaluate("window.tavli.dama.state().last.path") == move["path"]
