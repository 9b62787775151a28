"""The online pages' loose ends of issue 31 (section 4), in a real browser at phone and
desk sizes, in the four languages where they concern text:

* a game created against the AI says so (no invitation to send), and a game created
  without naming an opponent is refused (tests/test_online_play.py: the API);
* the resign choices in the page's language; the match score never "undefined";
* a spectator watching when the rematch is agreed is taken to it; one who opens the
  finished game later stays, with a link to the rematch;
* no English left on the start page and the game page (the comparison of
  tests/test_web_page_e2e.py)."""

from __future__ import annotations

import contextlib
import json

import pytest
from conftest import ARTIFACTS, wait_js
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_online_page import online_server  # noqa: F401 - the fixture
from test_web_page_e2e import (  # noqa: F401 - open_page: the fixture
    LANG_SIZES,
    OTHER_LANG_SIZES,
    VISIBLE_TEXTS,
    open_page,
    untranslated,
)

from tavli import i18n


def start_page(page, server: str) -> None:
    page.goto(server + "/")
    wait_js(page, "document.body.dataset.ready === '1'")


def create_against_ai(page, server: str, points: int = 1) -> str:
    """Ann creates a game against the beginner AI on the start page; its id."""
    start_page(page, server)
    page.fill("#ng-name", "Ann")
    page.select_option("#ng-variant", "portes")
    page.select_option("#ng-points", str(points))
    page.select_option("#ng-opponent", "ai:beginner")
    page.click("#ng-start")
    wait_js(page, "!document.querySelector('#created').hidden")
    return page.evaluate("document.body.dataset.created")


def online(page) -> None:
    page.wait_for_url("**/online/**")
    wait_js(page, "!!document.body && document.body.dataset.conn === 'online' && "
                  "!!window.tavli && !!window.tavli.state()")


def until_resign_offered(page, match_may_end: bool = False) -> bool:
    """Go to the next game and throw the opening (the seat's seed goes in by itself)
    until Resign is offered (True); with ``match_may_end``, False if the match is over
    first (a resignation's last state may still have been on its way)."""
    for _ in range(200):
        if page.is_visible("#btn-resign"):
            return True
        if match_may_end and page.evaluate("window.tavli.state().status") == "over":
            return False
        for control in ("#btn-next", "#btn-roll"):
            if page.is_visible(control):
                # the state may change between the look and the click (the match's end
                # arriving hides Next game): a click that finds nothing looks again
                with contextlib.suppress(PlaywrightTimeout):
                    page.click(control, timeout=2000)
                break
        page.wait_for_timeout(100)
    page.screenshot(path=str(ARTIFACTS / "online-no-resign.png"))
    raise AssertionError("Resign was never offered: " + json.dumps(page.evaluate(
        "(() => { const s = window.tavli.state(); return [s.phase, s.status, s.turn, "
        "s.score, s.board.resign_values, document.querySelector('#status').textContent]; })()"
    )))


@pytest.mark.parametrize("lang, size, name", LANG_SIZES)
def test_a_game_against_the_ai_says_so(open_page, online_server, lang, size, name):  # noqa: F811
    page = open_page(lang, size)
    create_against_ai(page, online_server)
    level = i18n.gettext(lang, "level.beginner")
    assert page.locator("#created-text").inner_text() == i18n.gettext(
        lang, "on.created_ai", level=level)
    assert page.is_hidden("#created-invite")
    page.screenshot(path=str(ARTIFACTS / f"online-created-ai-{lang}-{name}.png"))
    # with a friend: the invitation, as before
    start_page(page, online_server)
    page.fill("#ng-name", "Ann")
    page.select_option("#ng-opponent", "human")
    page.click("#ng-start")
    wait_js(page, "!document.querySelector('#created-invite').hidden")
    assert page.locator("#created-text").inner_text() == i18n.gettext(lang, "on.created")
    assert page.errors == []


@pytest.mark.parametrize("lang, size, name", LANG_SIZES)
def test_resign_choices_and_a_spectator_taken_to_the_rematch(open_page, online_server,  # noqa: F811
                                                             lang, size, name):
    ann = open_page(lang, size)
    gid = create_against_ai(ann, online_server, points=3)
    eve = open_page(lang, size)
    ann.click("#go-game")
    online(ann)
    eve.goto(f"{online_server}/online/{gid}")
    online(eve)
    # the match score on the board's frame and in the panel: numbers, never "undefined"
    frame = ann.evaluate("[...document.querySelectorAll('text.score')].map((e) => "
                         "e.textContent)")
    assert frame == ["0/3", "0/3"], frame
    assert "undefined" not in ann.locator("#score").inner_text()
    until_resign_offered(ann)
    ann.click("#btn-resign")
    choices = ann.locator("#resign-values button").all_inner_texts()
    assert choices == [i18n.gettext(lang, f"on.resign.{v}") for v in ("single", "gammon")]
    ann.screenshot(path=str(ARTIFACTS / f"online-resign-{lang}-{name}.png"))
    # Ann gives up the match: a gammon in each game until the AI has 3 points
    for _ in range(3):
        if ann.evaluate("window.tavli.state().status") == "over":
            break
        if ann.is_hidden("#resign-box"):
            if not until_resign_offered(ann, match_may_end=True):
                break
            ann.click("#btn-resign")
        seq = ann.evaluate("window.tavli.state().seq")
        ann.click('#resign-values button[data-value="gammon"]')
        wait_js(ann, f"window.tavli.state().seq > {seq}")
    wait_js(ann, "window.tavli.state().status === 'over'")
    score = ann.evaluate("window.tavli.state().score")
    assert score[1] >= 3, score
    assert "undefined" not in ann.locator("#score").inner_text()
    assert "undefined" not in eve.locator("#score").inner_text()
    # the rematch: the AI agrees at once; Ann and the spectator go to it
    ann.click("#btn-rematch")
    ann.wait_for_url(lambda u: "/online/" in u and not u.endswith(f"/{gid}"))
    online(ann)
    new_id = ann.evaluate("window.tavli.state().id")
    assert new_id != gid and ann.evaluate("window.tavli.O.side") == "black"  # swapped
    eve.wait_for_url(lambda u: u.endswith(f"/online/{new_id}"))
    online(eve)
    assert eve.evaluate("window.tavli.O.side") is None
    eve.screenshot(path=str(ARTIFACTS / f"online-rematch-spectator-{lang}-{name}.png"))
    # one who opens the finished game now stays on it, with the link to the rematch
    late = open_page(lang, size)
    late.goto(f"{online_server}/online/{gid}")
    online(late)
    wait_js(late, "!document.querySelector('#watch-rematch').hidden")
    assert late.get_attribute("#watch-rematch", "href") == f"/online/{new_id}"
    assert late.locator("#watch-rematch").inner_text() == i18n.gettext(lang, "on.watch_rematch")
    assert late.url.endswith(f"/online/{gid}")
    for p in (ann, eve, late):
        assert p.errors == []


def online_texts(page, server: str) -> dict[str, list[str]]:
    """The start page's and the game page's visible texts (the resign choices open)."""
    start_page(page, server)
    out = {"start": page.evaluate(VISIBLE_TEXTS)}
    create_against_ai(page, server, points=3)
    page.click("#go-game")
    online(page)
    until_resign_offered(page)
    page.click("#btn-resign")
    out["game"] = page.evaluate(VISIBLE_TEXTS)
    return out


@pytest.mark.parametrize("lang, size, name", OTHER_LANG_SIZES)
def test_no_english_left_online(open_page, online_server, lang, size, name):  # noqa: F811
    english = online_texts(open_page("en", size), online_server)
    page = open_page(lang, size)
    shown = online_texts(page, online_server)
    left = {screen: untranslated(set(english[screen]), texts, lang)
            for screen, texts in shown.items()}
    page.screenshot(path=str(ARTIFACTS / f"online-no-english-{lang}-{name}.png"))
    assert {k: v for k, v in left.items() if v} == {}
    assert page.errors == []


def test_an_online_game_without_an_opponent_named_is_refused(open_page, online_server):  # noqa: F811
    page = open_page()
    start_page(page, online_server)
    r = page.request.post(f"{online_server}/api/online/games", data=json.dumps(
        {"game": {"variant": "portes"}, "name": "Ann"}),
        headers={"Content-Type": "application/json"})
    assert r.status == 422 and "name the opponent" in r.json()["error"]
