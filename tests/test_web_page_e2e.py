"""The page's loose ends of issue 31 (section 4), in a real browser at phone and desk
sizes, in the four languages where they concern text:

* the review's chart marks the turns whose moves are mistakes, not those whose number a
  cube decision shares; its summary says "over 1 decision" (plural forms);
* on a phone, a tap on a turn of the review leaves the board in sight, and the review's
  banner does not cover the board;
* resigning in the local app (the choices the state offers, in the page's language);
* the dark theme: the system's, or the settings' choice, remembered;
* no English left on a page in Greek, Italian or German: each screen's visible texts (and
  tooltips, labels, placeholders) compared with the same screen in English — a text shown
  the same in both is untranslated unless it is a name (:data:`SAME`) or the catalogue's
  own translation is the English word (German "Computer").

The online pages' part (the resign choices, a game against the AI said so, a spectator
taken to the rematch) is tests/test_web_online_e2e.py. Screenshots: tests/artifacts/."""

from __future__ import annotations

import json
import re

import pytest
from conftest import ARTIFACTS, until_idle, wait_js

from tavli import i18n

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
SIZES = [(PHONE, "phone"), (DESK, "desk")]
LOCALES = {"en": "en-US", "el": "el-GR", "it": "it-IT", "de": "de-DE"}
LANGS = ["en", "el", "it", "de"]
#: the language-by-size matrices, pairwise: Greek (the longest words) at both sizes, each
#: other language at one, so that every language and every size is met at five browser
#: runs instead of eight (the suite's time, a bar of its own)
LANG_SIZES = [("el", PHONE, "phone"), ("el", DESK, "desk"), ("en", DESK, "desk"),
              ("it", PHONE, "phone"), ("de", DESK, "desk")]
#: the same for the checks of untranslated text (English has none to check)
OTHER_LANG_SIZES = [t for t in LANG_SIZES if t[0] != "en"]
#: texts every language writes the same: names, formats, the languages' own names
SAME = {"Tavli", "XGID", "gnubg", "JSON", "SGF", "PDN", "MWC", "Match ID", "GnuBG",
        "English", "Ελληνικά", "Italiano", "Deutsch", "Ann", "Bob", "Eve", "mp", "ply",
        ".mat", ".sgf"}

#: every visible text of the page, and the tooltips, labels and placeholders of visible
#: elements (an SVG's <title> when its drawing is visible; a menu's options when it is)
VISIBLE_TEXTS = """() => {
  const seen = (e) => !!e && (e.checkVisibility ? e.checkVisibility() : !!e.offsetParent);
  const out = new Set();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const p = n.parentElement;
    const s = n.textContent.trim();
    if (!s || !p || p.closest("script, style, code, kbd, input, textarea")) continue;
    const holder = p.closest("select") || (p.closest("svg title") && p.closest("svg")) || p;
    if (seen(holder)) out.add(s);
  }
  for (const e of document.body.querySelectorAll("[title], [aria-label], [placeholder]")) {
    if (!seen(e)) continue;
    for (const a of ["title", "aria-label", "placeholder"]) {
      const v = (e.getAttribute(a) || "").trim();
      if (v) out.add(v);
    }
  }
  return [...out];
}"""


def same_in(lang: str) -> list[str]:
    """The catalogue's messages that ``lang`` writes as English does (their words are
    not untranslated), longest first."""
    en = i18n.catalogue("en")["messages"]
    own = i18n.catalogue(lang)["messages"]
    texts = set(SAME)
    for key, value in en.items():
        if own.get(key) == value:
            for v in value if isinstance(value, list) else [value]:
                texts.update(p.strip() for p in re.split(r"\{\w+\}", v) if p.strip())
    return sorted(texts, key=len, reverse=True)


def untranslated(english: set[str], shown: list[str], lang: str) -> list[str]:
    """The texts of ``shown`` (a screen in ``lang``) that the same screen in English
    shows too and that keep a word once the names are left out."""
    same = same_in(lang)
    out = []
    for s in shown:
        if s not in english:
            continue
        rest = s
        for name in same:
            rest = rest.replace(name, " ")
        if re.search(r"[A-Za-z]{3,}", rest):
            out.append(s)
    return out


@pytest.fixture
def open_page(browser):
    made = []

    def make(lang: str = "en", size=DESK, **options):
        phone = size["width"] < 500 or size["height"] < 500
        ctx = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone,
                                  locale=LOCALES[lang], **options)
        page = ctx.new_page()
        page.set_default_timeout(30000)
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        made.append(ctx)
        return page

    yield make
    for ctx in made:
        ctx.close()


def post(server: str, path: str, body: dict) -> dict:
    import urllib.request

    req = urllib.request.Request(f"{server}{path}", method="POST",
                                 data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def tap(page, locator) -> None:
    """A finger's tap on a phone, a click at a desk."""
    if page.evaluate("matchMedia('(pointer: coarse)').matches"):
        locator.tap()
    else:
        locator.click()


# --- the review ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cube_review(server):
    """A backgammon record with move mistakes and cube decisions (a missed double, a
    correct double, a wrong take), imported; its id and its review (the server's)."""
    import urllib.request

    from test_cube_analysis import missed_double_record

    gid = post(server, "/api/records", missed_double_record())["id"]
    for _ in range(1200):
        with urllib.request.urlopen(f"{server}/api/games/{gid}/review") as r:
            if r.status == 200:
                return gid, json.loads(r.read())
        import time
        time.sleep(0.25)
    raise AssertionError("no review")


def open_review(page, server, gid) -> None:
    page.goto(f"{server}/#/game/{gid}")
    page.wait_for_selector("#btn-review:not([hidden]), #review:not([hidden])")
    # the button, unless the review opened by itself meanwhile
    page.evaluate("(() => { const b = document.querySelector('#btn-review'); "
                  "if (!b.hidden && !document.body.querySelector('#review:not([hidden])')) "
                  "b.click(); })()")
    page.wait_for_selector("#review:not([hidden]) #chart circle.pt", timeout=120000)


#: the summary's "over 1 decision" (black took once) in each language
ONE_DECISION = {"en": "over 1 decision)", "el": "σε 1 απόφαση)", "it": "su 1 decisione)",
                "de": "bei 1 Entscheidung)"}


@pytest.mark.parametrize("lang, size, name", LANG_SIZES)
def test_the_review_chart_marks_the_moves_mistakes(open_page, server, cube_review, lang,
                                                   size, name):
    gid, review = cube_review
    moves = {m["index"] for m in review["mistakes"] if m["kind"] == "move"}
    cubes = {m["index"] for m in review["mistakes"] if m["kind"] == "cube"}
    assert cubes - moves, "the record must have a cube decision on an unmarked turn"
    page = open_page(lang, size)
    open_review(page, server, gid)
    radii = page.evaluate("[...document.querySelectorAll('#chart circle.pt')]"
                          ".map((c) => Number(c.getAttribute('r')))")
    assert {i for i, r in enumerate(radii) if r == 4} == moves
    summary = page.locator("#review-summary").inner_text()
    assert ONE_DECISION[lang] in summary, summary
    assert "decisions)" not in summary.replace("2 decisions)", "")
    page.screenshot(path=str(ARTIFACTS / f"review-marks-{lang}-{name}.png"))
    assert page.errors == []


@pytest.mark.parametrize("size, name", SIZES + [({"width": 844, "height": 390}, "sideways")])
def test_a_turn_tapped_in_the_review_shows_the_board_in_sight(open_page, server, cube_review,
                                                              size, name):
    gid, _ = cube_review
    page = open_page("en", size)
    open_review(page, server, gid)
    for i in (2, 3, 0):
        dot = page.locator("#chart circle.pt").nth(i)
        dot.scroll_into_view_if_needed()
        tap(page, dot)
        wait_js(page, f"document.querySelector('#review-banner').dataset.index === '{i}'")
        page.wait_for_timeout(100)
        board = page.locator("#board").bounding_box()
        banner = page.locator("#review-banner").bounding_box()
        # the whole board is in the viewport, the banner below it, on screen too
        assert board["y"] >= -1 and board["y"] + board["height"] <= size["height"] + 1, board
        assert banner["y"] >= board["y"] + board["height"] - 1, (board, banner)
        assert banner["y"] < size["height"], banner
    page.screenshot(path=str(ARTIFACTS / f"review-tap-{name}.png"))
    assert page.errors == []


def test_the_review_pressed_twice_is_fetched_and_drawn_once(open_page, server, cube_review):
    """A second press while the review is on its way waits for it: one request, one chart
    (two drew the chart twice, and a point tapped in between was gone)."""
    gid, _ = cube_review
    page = open_page("en", SIZES[1][0])
    open_review(page, server, gid)
    page.click("#btn-review-close")
    page.wait_for_selector("#btn-review:not([hidden])")
    asked = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/review") else None)
    page.evaluate("(() => { const b = document.querySelector('#btn-review'); "
                  "b.click(); b.click(); })()")
    page.wait_for_selector("#review:not([hidden]) #chart circle.pt")
    first = page.locator("#chart circle.pt").first.element_handle()
    until_idle(page)
    page.wait_for_timeout(300)
    assert len(asked) == 1, asked
    assert page.evaluate("(c) => c.isConnected", first)
    assert page.is_hidden("#btn-review")
    assert page.errors == []


# --- resigning in the local app -----------------------------------------------------------
def a_person_to_move(page) -> dict:
    """Roll (and let the AI act) until the person has dice to play."""
    for _ in range(60):
        until_idle(page)
        st = page.evaluate("window.tavli.state()")
        if st["phase"] == "move" and not st["ai_to_act"]:
            return st
        if page.is_visible("#btn-roll"):
            page.click("#btn-roll")
        else:
            page.wait_for_timeout(150)
    raise AssertionError("the person never got to move")


@pytest.mark.parametrize("lang, size, name", LANG_SIZES)
def test_resign_in_the_local_app(open_page, server, lang, size, name):
    page = open_page(lang, size)
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    st = post(server, "/api/games", {"variant": "backgammon", "seed": 5, "ai_side": "black",
                                     "level": "beginner"})
    page.evaluate("document.querySelector('#dlg-new').close()")
    page.goto(f"{server}/#/game/{st['id']}")
    a_person_to_move(page)
    page.click("#btn-resign")
    choices = page.locator("#resign-values button").all_inner_texts()
    assert choices == [i18n.gettext(lang, f"on.resign.{v}")
                       for v in ("single", "gammon", "backgammon")]
    assert page.locator("#resign-box").inner_text().startswith(
        i18n.gettext(lang, "on.resign_ask"))
    page.screenshot(path=str(ARTIFACTS / f"resign-local-{lang}-{name}.png"))
    page.click("#resign-cancel")                                 # nothing happens
    assert page.is_hidden("#resign-box") and page.is_visible("#btn-resign")
    page.click("#btn-resign")
    page.click('#resign-values button[data-value="gammon"]')
    wait_js(page, "window.tavli.state().phase === 'over'")
    until_idle(page)
    st = page.evaluate("window.tavli.state()")
    assert (st["outcome"]["winner"], st["outcome"]["points"]) == ("black", 2)
    assert st["resign_values"] == [] and page.is_hidden("#btn-resign")
    status = page.locator("#status").inner_text()
    assert i18n.ngettext(lang, "srv.win.black", 2, kind=i18n.gettext(
        lang, f"kind.{st['outcome']['kind']}")) in status, status
    assert page.errors == []


def test_resign_through_the_api(client):
    st = client.post("/api/games", json={"variant": "backgammon", "seed": 5,
                                         "opponent": "human"}).json()
    gid = st["id"]
    assert st["resign_values"] == []                      # not in the opening
    client.post(f"/api/games/{gid}/roll", json={})
    st = client.get(f"/api/games/{gid}").json()
    assert st["resign_values"] == ["single", "gammon", "backgammon"]
    r = client.post(f"/api/games/{gid}/resign", json={"value": "triple"})
    assert r.status_code == 422
    assert client.get(f"/api/games/{gid}").json()["phase"] == st["phase"]  # unchanged
    r = client.post(f"/api/games/{gid}/resign", json={"value": "backgammon"})
    assert r.status_code == 200, r.text
    out = r.json()
    loser = st["turn"]
    assert out["phase"] == "over" and out["outcome"]["points"] == 3
    assert out["outcome"]["winner"] == ("black" if loser == "white" else "white")
    assert client.post(f"/api/games/{gid}/resign", json={}).status_code == 409
    dama = client.post("/api/games", json={"variant": "russian", "opponent": "human"}).json()
    r = client.post(f"/api/games/{dama['id']}/resign", json={})
    assert r.status_code == 422 and r.json()["code"] == "unsupported"


# --- the dark theme -----------------------------------------------------------------------
BACKGROUND = "getComputedStyle(document.documentElement).backgroundColor"


def dark(rgb: str) -> bool:
    r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return r + g + b < 3 * 80


@pytest.mark.parametrize("size, name", SIZES)
def test_the_dark_theme_follows_the_system_and_the_choice_is_remembered(open_page, server,
                                                                       size, name):
    page = open_page("en", size, color_scheme="dark")
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    assert dark(page.evaluate(BACKGROUND))                 # the system's dark
    page.screenshot(path=str(ARTIFACTS / f"theme-dark-{name}.png"))
    page.keyboard.press("Escape")
    page.click("#btn-help")
    assert page.input_value("#opt-theme") == "system"
    page.select_option("#opt-theme", "light")
    assert not dark(page.evaluate(BACKGROUND))
    page.reload()
    page.wait_for_selector("#dlg-new[open]")
    assert not dark(page.evaluate(BACKGROUND))             # remembered
    # on a light system, the dark choice
    light = open_page("en", size, color_scheme="light")
    light.goto(server)
    light.wait_for_selector("#dlg-new[open]")
    assert not dark(light.evaluate(BACKGROUND))
    light.keyboard.press("Escape")
    light.click("#btn-help")
    light.select_option("#opt-theme", "dark")
    light.click("#help-close")
    assert dark(light.evaluate(BACKGROUND))
    light.reload()
    light.wait_for_selector("#dlg-new[open]")
    assert dark(light.evaluate(BACKGROUND))
    light.screenshot(path=str(ARTIFACTS / f"theme-chosen-dark-{name}.png"))
    assert page.errors == [] and light.errors == []


# --- no English on a page in another language ---------------------------------------------
def screens(page, server, ids) -> dict[str, list[str]]:
    """The local app's screens, each as its visible texts: the New game dialog, a game
    with the resign choices open, its hint panel, the help and settings, the Games dialog
    (with a Dama game and a backgammon game's exports), the review, a Dama game."""
    out = {}
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    wait_js(page, "document.querySelectorAll('#ng-variant option').length > 3")
    out["new"] = page.evaluate(VISIBLE_TEXTS)
    page.keyboard.press("Escape")
    page.goto(f"{server}/#/game/{ids['game']}")
    wait_js(page, f"!!window.tavli.state() && window.tavli.state().id === '{ids['game']}'")
    a_person_to_move(page)
    page.click("#btn-resign")
    out["game"] = page.evaluate(VISIBLE_TEXTS)
    page.click("#resign-cancel")
    if page.is_visible("#btn-hint"):   # more than one move to choose from
        page.click("#btn-hint")
        page.wait_for_selector("#hints table")
        out["hint"] = page.evaluate(VISIBLE_TEXTS)
    page.click("#btn-help")
    out["help"] = page.evaluate(VISIBLE_TEXTS)
    page.click("#help-close")
    page.click("#btn-games")
    page.wait_for_selector("#games-table a.export-mat")
    page.wait_for_selector("#games-table tr[data-kind='dama']")
    out["games"] = page.evaluate(VISIBLE_TEXTS)
    page.keyboard.press("Escape")
    open_review(page, server, ids["review"])
    out["review"] = page.evaluate(VISIBLE_TEXTS)
    page.goto(f"{server}/#/dama/{ids['dama']}")
    page.wait_for_selector("#dama-status:not(:empty)")
    until_idle(page)
    out["dama"] = page.evaluate(VISIBLE_TEXTS)
    return out


#: per page size: the games the check looks at and the English page's texts of them, made
#: once for the three languages (the same games, as the English page showed them)
ENGLISH: dict[str, tuple[dict[str, str], dict[str, list[str]]]] = {}


@pytest.mark.parametrize("lang, size, name", OTHER_LANG_SIZES)
def test_no_english_left_on_the_page(open_page, server, cube_review, lang, size, name):
    if name not in ENGLISH:
        ids = {"game": post(server, "/api/games", {"variant": "backgammon", "seed": 5,
                                                   "ai_side": "black",
                                                   "level": "beginner"})["id"],
               "review": cube_review[0],
               "dama": post(server, "/api/games", {"variant": "russian",
                                                   "opponent": "human"})["id"]}
        ENGLISH[name] = ids, screens(open_page("en", size), server, ids)
    ids, english = ENGLISH[name]
    page = open_page(lang, size)
    shown = screens(page, server, ids)
    assert set(shown) == set(english) == {"new", "game", "hint", "help", "games", "review",
                                          "dama"}
    left = {screen: untranslated(set(english[screen]), texts, lang)
            for screen, texts in shown.items()}
    page.screenshot(path=str(ARTIFACTS / f"no-english-{lang}-{name}.png"))
    assert {k: v for k, v in left.items() if v} == {}
    assert page.errors == []


def test_the_check_finds_english(open_page, server):
    """The comparison catches a text left in English (a page whose catalogue lacks a key
    shows the key's English fallback: here a text written into the page by hand)."""
    page = open_page("de", DESK)
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    english = {"Resign the game", "Start", "New game"}   # as the English page shows them
    page.evaluate("document.querySelector('#ng-start').textContent = 'Resign the game'")
    shown = page.evaluate(VISIBLE_TEXTS)
    assert untranslated(english, shown, "de") == ["Resign the game"]
    names = ["Deutsch", "Tavli", "8/5 7/6", "Computer"]
    assert untranslated(set(names), names, "de") == []


@pytest.mark.parametrize("lang, size, name", LANG_SIZES)
def test_dama_counts_in_their_plural_forms(open_page, server, lang, size, name):
    """Dama's piece counts through the plural forms ("12 men, 0 kings"; "1 man" where one
    is left: the catalogue's one-form, checked in Python below)."""
    gid = post(server, "/api/games", {"variant": "russian", "opponent": "human"})["id"]
    page = open_page(lang, size)
    page.goto(f"{server}/#/dama/{gid}")
    page.wait_for_selector("#dama-status:not(:empty)")
    counts = page.locator("#dama-players .pips").all_inner_texts()
    want = i18n.gettext(lang, "dama.counts", men=i18n.ngettext(lang, "dama.n_men", 12),
                        kings=i18n.ngettext(lang, "dama.n_kings", 0))
    assert counts == [want, want]
    one = {"en": "1 man, 1 king", "el": "1 πιόνι, 1 ντάμα", "it": "1 pedina, 1 dama",
           "de": "1 Stein, 1 Dame"}[lang]
    assert i18n.gettext(lang, "dama.counts", men=i18n.ngettext(lang, "dama.n_men", 1),
                        kings=i18n.ngettext(lang, "dama.n_kings", 1)) == one
    assert page.errors == []
