"""The page in the players' languages (issue 20), in a real browser: it follows the
browser's language, the menu switches it and it is remembered; in Greek the top bar, the
New game dialog, the buttons and the turn messages are Greek and no message key shows
untranslated. Screenshots at 360x740 and 1366x768 go to tests/artifacts/."""

from __future__ import annotations

import re

import pytest
from conftest import ARTIFACTS, wait_js

PHONE = {"width": 360, "height": 740}
DESK = {"width": 1366, "height": 768}
# a catalogue key shown as it is: "btn.roll", "st.roll.you"
KEY = re.compile(r"\b(?:app|top|btn|opt|panel|review|ng|side|game|dama|level|gl|st|pl|sc|"
                 r"toast|err)\.[a-z_]+(?:\.[a-z_]+)?\b")


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
    # the API answers its errors in the chosen language
    err = page.evaluate("fetch('/api/games/nope', {headers: langHeaders()})"
                        ".then((r) => r.json())")
    assert err["error"] == "Nicht gefunden" and err["code"] == "not_found"
    assert page.errors == []
