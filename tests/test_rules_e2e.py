"""The rules pages and the installable app in a real browser (issue 20): the Rules button
of a game started with non-default rule options opens its rules in the page's language
with those options marked, at 360x740 and 1366x768, nothing wider than the screen and no
raw key; the service worker registers, keeps the shell and no API answer, and the page
opens from it when the server is gone. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from conftest import ARTIFACTS, served, wait_js
from test_web_modules import graph

from tavli.web import rules

PHONE = {"width": 360, "height": 740}
DESK = {"width": 1366, "height": 768}
LOCALES = {"en": "en-US", "el": "el-GR", "it": "it-IT", "de": "de-DE"}
KEY = re.compile(r"\b(?:rules|top|app|game|btn|heading|options)\.[a-z_]+\b")
OPTIONS = {"prime_rule": "forbid", "starting_quarter_rule": "off"}


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


@pytest.fixture(scope="module")
def fevga_game(server):
    """A Fevga game between two people with two rule options off their defaults."""
    return post(f"{server}/api/games", {"variant": "fevga", "opponent": "human",
                                        "rules": OPTIONS})["id"]


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("size, phone, name", [(PHONE, True, "phone"), (DESK, False, "desk")])
def test_rules_button_opens_the_rules_of_the_game_with_its_options(
        browser, server, fevga_game, lang, size, phone, name):
    ctx = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone,
                              locale=LOCALES[lang])
    try:
        page = ctx.new_page()
        page.set_default_timeout(20000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server}/#/game/{fevga_game}")
        wait_js(page, "!!window.tavli.state() && document.body.dataset.busy === '0'")
        button = page.locator("#btn-rules")
        assert button.inner_text() == {"en": "Rules", "el": "Κανόνες", "it": "Regole",
                                       "de": "Regeln"}[lang]
        with page.expect_popup() as info:
            button.click()
        pop = info.value
        pop.wait_for_load_state()
        assert "/rules/fevga?" in pop.url and "prime_rule=forbid" in pop.url
        assert pop.evaluate("document.documentElement.lang") == lang
        book = rules.book(lang)
        text = pop.evaluate("document.body.innerText")
        assert not KEY.search(text), KEY.search(text)
        for sec in rules.PAGES["fevga"]:
            assert pop.locator(f"section#{sec} h2").inner_text() == book["heading"][sec]
        # the options the game was started with are the ones marked as applying
        for opt, value in OPTIONS.items():
            applies = pop.locator(f'[data-option="{opt}"] li.applies')
            assert applies.count() == 1
            assert applies.get_attribute("data-value") == value
            assert book["options"][opt][value] in applies.inner_text()
        assert pop.locator('[data-option="must_play_higher"] li.applies').get_attribute(
            "data-value") == "true"
        wide = pop.evaluate("document.documentElement.scrollWidth - "
                            "document.documentElement.clientWidth")
        assert wide <= 0, f"the rules page is {wide} px wider than the screen"
        pop.screenshot(path=str(ARTIFACTS / f"rules-{lang}-fevga-{name}.png"), full_page=False)
        if lang == "el":
            pop.locator("#opt-prime_rule").scroll_into_view_if_needed()
            pop.screenshot(path=str(ARTIFACTS / f"rules-el-options-{name}.png"))
            page.screenshot(path=str(ARTIFACTS / f"rules-el-panel-{name}.png"))
        assert errors == []
    finally:
        ctx.close()


def test_the_match_rules_from_a_tavli_match(browser, server):
    gid = post(f"{server}/api/games", {"variant": "tavli", "points": 3,
                                       "opponent": "human"})["id"]
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="it-IT")
    try:
        page = ctx.new_page()
        page.goto(f"{server}/#/game/{gid}")
        wait_js(page, "!!window.tavli.state() && document.body.dataset.busy === '0'")
        with page.expect_popup() as info:
            page.click("#btn-rules")
        pop = info.value
        pop.wait_for_load_state()
        assert "/rules/portes?" in pop.url and "match=tavli" in pop.url
        pop.click("p.note a")
        pop.wait_for_load_state()
        assert "/rules/tavli" in pop.url
        assert "3" in pop.locator("p.note strong").inner_text()
        assert pop.locator("ol.rotation li").all_inner_texts() == ["Portes", "Plakotò", "Fevga"]
        pop.screenshot(path=str(ARTIFACTS / "rules-it-tavli-phone.png"))
    finally:
        ctx.close()


def test_the_service_worker_keeps_the_shell_for_offline_use(browser, tmp_path):
    from tavli.web.app import create_app

    ctx = browser.new_context(viewport=DESK, service_workers="allow")
    try:
        page = ctx.new_page()
        page.set_default_timeout(20000)
        with served(create_app(tmp_path / "games.sqlite3")) as url:
            page.goto(url)
            page.wait_for_selector("#dlg-new[open]")
            wait_js(page, "!!navigator.serviceWorker.controller", 30000)
            assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == \
                f"{url}/sw.js"
            page.goto(f"{url}/rules/plakoto?lang=el")   # a rules page read once is kept
            page.goto(url)
            page.wait_for_selector("#dlg-new[open]")
            kept = page.evaluate("""async () => {
                const out = [];
                for (const name of await caches.keys()) {
                  const cache = await caches.open(name);
                  for (const req of await cache.keys()) out.push(new URL(req.url).pathname +
                                                                 new URL(req.url).search);
                }
                return out;
            }""")
            assert "/" in kept and "/static/app.js" in kept and "/manifest.webmanifest" in kept
            # every module the page imports (offline, one missing would stop them all)
            assert {f"/static/{m}" for m in graph("play.js")} <= set(kept)
            assert "/rules/plakoto?lang=el" in kept
            assert not [u for u in kept if u.startswith(("/api", "/ws"))], kept
        # the server is gone: the page and the rules page open from the cache
        page.goto(url)
        assert page.title() == "Tavli"
        assert page.locator("header h1").inner_text() == "Tavli"
        assert page.locator("#btn-new").count() == 1
        page.wait_for_selector("#dlg-new[open]")   # its modules ran, from the cache
        assert page.locator("#btn-help").count() == 1
        page.goto(f"{url}/rules/plakoto?lang=el")
        assert "Μάνα" in page.locator("body").inner_text()
        page.screenshot(path=str(ARTIFACTS / "pwa-offline-rules.png"))
    finally:
        ctx.close()


def test_the_rules_of_a_dama_game(browser, server):
    gid = post(f"{server}/api/games", {"variant": "russian",
                                       "opponent": "human"})["id"]
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="de-DE")
    try:
        page = ctx.new_page()
        page.goto(f"{server}/#/dama/{gid}")
        wait_js(page, "!!window.tavli && !!window.tavli.dama.state() && "
                      "document.body.dataset.busy === '0'")
        with page.expect_popup() as info:
            page.click("#dama-panel [data-rules]")
        pop = info.value
        pop.wait_for_load_state()
        assert "/rules/dama?" in pop.url and "rules=russian" in pop.url
        assert pop.locator('[data-option="rules"] li.applies').get_attribute(
            "data-value") == "russian"
        assert pop.locator('[data-option="huffing"] li.applies').get_attribute(
            "data-value") == "false"
        assert pop.evaluate("document.documentElement.lang") == "de"
        pop.screenshot(path=str(ARTIFACTS / "rules-de-dama-phone.png"))
    finally:
        ctx.close()


def test_the_online_start_page_links_the_rules(browser, tmp_path):
    from tavli.online.app import create_online_app

    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="el-GR")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        with served(create_online_app(str(tmp_path / "online.sqlite3"))) as url:
            page.goto(url + "/")
            wait_js(page, "document.body.dataset.ready === '1'")
            assert page.locator("[data-rules]").inner_text() == "Κανόνες"
            with page.expect_popup() as info:
                page.click("[data-rules]")
            pop = info.value
            pop.wait_for_load_state()
            assert pop.url == f"{url}/rules?lang=el"
            assert "Πλακωτό" in pop.locator("ul.index").inner_text()
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("lang, size, name", [("el", PHONE, "phone"), ("de", DESK, "desk")])
def test_the_lists_of_the_rules_are_shown_as_lists(browser, server, lang, size, name):
    """Issue 49: the rules' lists were run-on paragraphs joined by " - ". Each list of the
    book is a list of bullets on the page, inside the screen."""
    phone = name == "phone"
    ctx = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone,
                              locale=LOCALES[lang])
    try:
        page = ctx.new_page()
        page.goto(f"{server}/rules/portes?lang={lang}")
        for sec in ("turn", "bearoff"):
            items = page.locator(f"section#{sec} > ul > li")
            assert items.count() >= 3, sec
            assert items.first.evaluate("e => getComputedStyle(e).display") == "list-item"
            assert items.first.evaluate(
                "e => getComputedStyle(e.parentElement).listStyleType") == "disc"
            for i in range(items.count()):
                box = items.nth(i).bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
        paras = page.evaluate("[...document.querySelectorAll('main p')].map(p => p.innerText)")
        assert paras and not [p for p in paras if re.search(r"(^|\s)- ", p)]
        page.locator("section#turn").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"rules-{lang}-lists-{name}.png"))
    finally:
        ctx.close()
