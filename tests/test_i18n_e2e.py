"""The page in the players' languages (issue 20), in a real browser: it follows the
browser's language, the menu switches it and it is remembered; in Greek the top bar, the
New game dialog, the buttons and the turn messages are Greek and no message key shows
untranslated; a Portes game is played in each language at 360x740 and 1366x768 with no
English message of the catalogue on a page in another language and nothing wider than
the screen. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
import re

import pytest
from conftest import ARTIFACTS, until_idle, wait_js

from tavli import i18n
from tavli.engine.board import Position

PHONE = {"width": 360, "height": 740}
DESK = {"width": 1366, "height": 768}
# a catalogue key shown as it is: "btn.roll", "st.roll.you"
KEY = re.compile(r"\b(?:app|top|btn|opt|panel|review|ng|side|game|dama|level|gl|st|pl|sc|"
                 r"toast|err|on|srv|kind|rv|cube|hint|mark|verdict|rating|luck|ids|fd|tui)"
                 r"\.[a-z_]+(?:\.[a-z_]+)?\b")
SIZES = [(PHONE, True, "phone"), (DESK, False, "desk")]
#: a whole game in each language, pairwise with the sizes: Greek at both, each other
#: language at one (every language and size met at five browser runs, not eight)
LANG_SIZES = [("el", PHONE, True, "phone"), ("el", DESK, False, "desk"),
              ("it", DESK, False, "desk"), ("de", PHONE, True, "phone"),
              ("en", DESK, False, "desk")]
LOCALES = {"en": "en-US", "el": "el-GR", "it": "it-IT", "de": "de-DE"}
# what sticks out of the screen, outside any box that scrolls or clips
OVERFLOW = """() => {
  const vw = document.documentElement.clientWidth, out = [];
  for (const e of document.body.querySelectorAll("*")) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || (r.right <= vw + 1 && r.left >= -1)) continue;
    let clipped = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") { clipped = true; break; }
    }
    if (!clipped) out.push(`${e.tagName}#${e.id}.${e.getAttribute("class")} ` +
                           `${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  return {vw, scroll: document.documentElement.scrollWidth, out: out.slice(0, 8)};
}"""


@pytest.fixture
def page_in(browser):
    made = []

    def open_page(locale: str, size=PHONE, phone=True):
        c = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone,
                                device_scale_factor=2 if phone else 1, locale=locale)
        pg = c.new_page()
        pg.set_default_timeout(20000)
        pg.errors = []
        pg.on("pageerror", lambda e: pg.errors.append(str(e)))
        made.append(c)
        return pg

    yield open_page
    for c in made:
        c.close()


def visible_text(page) -> str:
    return page.evaluate("document.body.innerText")


@pytest.mark.parametrize("size, phone, name", [(PHONE, True, "phone"), (DESK, False, "desk")])
def test_greek_main_screen(page_in, server, size, phone, name):
    page = page_in("el-GR", size, phone)
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    assert page.evaluate("document.documentElement.lang") == "el"
    assert page.locator("#btn-new").inner_text() == "Νέο παιχνίδι"
    assert page.locator("#ng-start").inner_text() == "Έναρξη"
    options = page.locator("#ng-variant option").all_inner_texts()
    assert "Τάβλι — Πόρτες, Πλακωτό, Φεύγα" in options and "Φεύγα" in options
    assert "Υπολογιστής: έμπειρος" in page.locator("#ng-opponent option").all_inner_texts()
    page.screenshot(path=str(ARTIFACTS / f"i18n-el-new-{name}.png"))
    page.select_option("#ng-variant", "portes")
    page.select_option("#ng-points", "1")
    page.click("#ng-start")
    wait_js(page, "!!window.tavli.state() && document.body.dataset.busy === '0'")
    wait_js(page, "!window.tavli.state().ai_to_act && document.body.dataset.busy === '0'")
    if page.evaluate("window.tavli.state().phase") == "opening":
        assert "Ρίξτε από ένα ζάρι" in page.locator("#status").inner_text()
        assert page.locator("#btn-roll").inner_text() == "Ζαριά για την αρχή"
        page.click("#btn-roll")
    wait_js(page, "['move', 'roll'].includes(window.tavli.state().phase) && "
                  "!window.tavli.state().ai_to_act && document.body.dataset.busy === '0'")
    status = page.locator("#status").inner_text()
    assert re.search(r"Παίζεις|Σειρά σου", status), status
    text = visible_text(page)
    assert "βήματα" in text and not KEY.search(text), KEY.search(text)
    page.screenshot(path=str(ARTIFACTS / f"i18n-el-game-{name}.png"))
    assert page.errors == []


def test_language_menu_switches_and_is_remembered(page_in, server):
    page = page_in("en-US", DESK, False)
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    assert page.locator("#ng-start").inner_text() == "Start"
    page.keyboard.press("Escape")
    page.select_option("#lang", "de")
    page.wait_for_selector("#dlg-new[open]")
    wait_js(page, "document.documentElement.lang === 'de'")
    assert page.locator("#ng-start").inner_text() == "Starten"
    assert page.evaluate("localStorage.getItem('tavli.lang')") == "de"
    page.reload()
    page.wait_for_selector("#dlg-new[open]")
    wait_js(page, "document.documentElement.lang === 'de'")
    assert page.locator("#btn-games").inner_text() == "Partien"
    # the API answers its errors in the chosen language (the header the page's i18n.js
    # module sends: the module instance of the page, imported again)
    err = page.evaluate("import('/static/i18n.js').then((m) => fetch('/api/games/nope', "
                        "{headers: m.langHeaders()})).then((r) => r.json())")
    assert err["error"] == "Dieses Spiel gibt es nicht (vielleicht wurde es gelöscht)"
    assert err["code"] == "not_found" and "detail" not in err
    assert page.errors == []


def english_fragments(lang: str) -> list[str]:
    """The words of the English catalogue that a page in ``lang`` must not show: each
    English message's text between its placeholders (four letters or more), unless the
    language writes the same words somewhere itself (names: Backgammon, Tavli, online)."""
    en = i18n.catalogue("en")["messages"]
    own = i18n.catalogue(lang)["messages"]
    theirs = " ".join(" ".join(v) if isinstance(v, list) else v for v in own.values())
    out = set()
    for key, value in en.items():
        if key.startswith(("game.", "app.")) or own.get(key) == value:
            continue
        for text in value if isinstance(value, list) else [value]:
            for part in re.split(r"\{\w+\}", text):
                part = part.strip(" .,:;()–—·…?!+")
                if re.search(r"[A-Za-z]{4}", part) and part not in theirs:
                    out.add(part)
    return sorted(out, key=len, reverse=True)


def check_screen(page, lang: str, shot: str) -> None:
    """The screen has no raw key, no English message in another language, nothing wider
    than the viewport; saved as tests/artifacts/``shot``.png."""
    page.screenshot(path=str(ARTIFACTS / f"{shot}.png"))
    text = visible_text(page)
    assert not KEY.search(text), KEY.search(text)
    if lang != "en":
        english = [f for f in english_fragments(lang)
                   if re.search(rf"(?<![\w]){re.escape(f)}(?![\w])", text)]
        assert english == [], f"{shot}: English on the page: {english}"
    wide = page.evaluate(OVERFLOW)
    assert wide["scroll"] <= wide["vw"] and wide["out"] == [], f"{shot}: {wide}"


def post(page, server, body):
    r = page.request.post(f"{server}/api/games", data=json.dumps(body),
                          headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    return r.json()


def until_my_move(page):
    """Roll when it is the person's to do, let the AI act; the state once the person has
    dice to move or the game is over."""
    for _ in range(80):
        until_idle(page)
        st = page.evaluate("window.tavli.state()")
        if st["phase"] == "over" or (st["phase"] == "move" and not st["ai_to_act"]):
            return st
        roll = page.locator("#btn-roll")
        if roll.is_visible():
            roll.click()
        else:
            page.wait_for_timeout(150)
    raise AssertionError("the person never got to move")


def play(page, move):
    """Play ``move`` (white's) by tapping each step's point and its destination."""
    for f, t, _hit in move["steps"]:
        for p in (f, t):
            page.locator("#pt-bar" if p == 25 else '.hit[data-side="white"][data-w="off"]'
                         if p == 0 else f'.hit[data-w="{p}"]').click()
            page.wait_for_selector('body[data-busy="0"]')
    page.click("#btn-confirm")


@pytest.mark.parametrize("lang, size, phone, name", LANG_SIZES)
def test_a_portes_game_in_each_language(page_in, server, lang, size, phone, name):
    page = page_in(LOCALES[lang], size, phone)
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    assert page.evaluate("document.documentElement.lang") == lang
    check_screen(page, lang, f"i18n-{lang}-new-{name}")
    page.select_option("#ng-variant", "portes")
    page.select_option("#ng-points", "1")
    page.select_option("#ng-opponent", "ai:beginner")
    page.click("#ng-start")
    wait_js(page, "!!window.tavli.state()")
    for turn in range(2):  # two turns of the person, the AI answering each
        st = until_my_move(page)
        if turn == 0:
            check_screen(page, lang, f"i18n-{lang}-move-{name}")
        play(page, st["legal_moves"][0])
    until_my_move(page)
    page.evaluate("document.querySelector('#history-box').open = true")  # the move list
    assert i18n.gettext(lang, "side.black") in page.locator("#history").inner_text()
    check_screen(page, lang, f"i18n-{lang}-play-{name}")
    # the end of a game: from a race almost borne off
    pos = Position.from_points("portes", {1: 2, 2: 1, 4: 1, 6: 1}, {1: 1, 2: 2, 5: 2})
    st = post(page, server, {"variant": "portes", "seed": 4, "position": pos.id(),
                             "ai_side": "black", "level": "beginner"})
    page.goto(f"{server}/#/game/{st['id']}")
    for _ in range(20):
        st = until_my_move(page)
        if st["phase"] == "over":
            break
        play(page, st["legal_moves"][0])
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector('body[data-busy="0"]')
    status = page.locator("#status").inner_text()
    assert i18n.gettext(lang, "game.portes") in page.locator("#title").inner_text()
    assert status, status
    check_screen(page, lang, f"i18n-{lang}-over-{name}")
    assert page.errors == []


@pytest.mark.parametrize("lang", ["el", "de"])
@pytest.mark.parametrize("size, phone, name", SIZES)
def test_dama_and_the_hint_panel_in_a_language(page_in, server, lang, size, phone, name):
    """Dama's panel (Russian draughts in algebraic notation, its rules and the AI's level
    by key) and the hint panel of a Portes game, in Greek and German."""
    page = page_in(LOCALES[lang], size, phone)
    page.goto(server)
    page.wait_for_selector("#dlg-new[open]")
    r = page.request.post(f"{server}/api/games", data=json.dumps(
        {"variant": "russian", "opponent": "ai", "level": "expert",
         "ai_side": "black"}),
        headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    gid = r.json()["id"]
    page.evaluate("document.querySelector('#dlg-new').close()")
    page.goto(f"{server}/#/dama/{gid}")
    page.wait_for_selector("#dama-status:not(:empty)")
    page.wait_for_selector('body[data-busy="0"]')
    panel = page.locator("#dama-panel").inner_text()
    assert i18n.gettext(lang, "dama.rules_line", rules=i18n.gettext(lang, "dama.rn.russian")) \
        in panel
    assert i18n.gettext(lang, "dama.pl.ai", level=i18n.gettext(lang, "level.expert")) in panel
    page.click("#dama-board .piece[data-square='22']")                # c3
    page.locator('#dama-board .dest[data-square="18"]').click()        # d4
    wait_js(page, "window.tavli.dama.state().plies >= 2 && document.body.dataset.busy !== '1'")
    assert page.locator("#dama-history li").first.inner_text().startswith("c3-d4")
    check_screen(page, lang, f"i18n-{lang}-dama-{name}")
    # a Portes game: the hint panel
    st = post(page, server, {"variant": "portes", "seed": 2, "ai_side": "black",
                             "level": "beginner"})
    page.goto(f"{server}/#/game/{st['id']}")
    until_my_move(page)
    page.click("#btn-hint")
    page.wait_for_selector("#hints table")
    text = page.locator("#hints").inner_text()
    assert i18n.gettext(lang, "hint.move") in text and "click a move" not in text
    check_screen(page, lang, f"i18n-{lang}-hint-{name}")
    assert page.errors == []
