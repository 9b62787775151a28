"""The browser app's cube hint, position IDs and gnubg files in chromium, at phone
(360x740) and desk (1366x768) sizes; screenshots go to tests/artifacts/."""

from __future__ import annotations

import random

import pytest
from conftest import wait_js
from test_formats import random_play, summary
from test_web_e2e import api, idle, shot, state

from tavli.play.formats import dumps, loads
from tavli.play.match import Match

SIZES = {"phone": {"width": 360, "height": 740}, "desk": {"width": 1366, "height": 768}}


@pytest.fixture(params=list(SIZES))
def sized(request, browser):
    ctx = browser.new_context(viewport=SIZES[request.param],
                              permissions=["clipboard-read", "clipboard-write"])
    pg = ctx.new_page()
    pg.set_default_timeout(30000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield request.param, pg
    ctx.close()
    assert errors == [], errors


def test_cube_hint_before_the_roll(sized, server):
    size, page = sized
    st = api(page, server, "POST", "/api/games",
             {"variant": "backgammon", "first": "white", "seed": 12, "level": "expert"})
    page.goto(f"{server}/#/game/{st['id']}")
    idle(page)
    st = state(page)
    assert st["phase"] == "roll" and st["cube_hint"] and not st["ai_to_act"]
    button = page.locator("#btn-cube-hint")
    assert button.is_visible() and page.locator("#btn-double").is_visible()
    assert page.locator("#btn-roll").is_visible()
    shot(page, f"cube-hint-button-{size}")
    button.click()
    page.wait_for_selector("#cube-box:not([hidden]) table")
    idle(page)
    box = page.locator("#cube-box")
    rows = box.locator("tbody tr").all_inner_texts()
    assert [r.split("\t")[0].strip() for r in rows] == ["No double", "Double, take",
                                                         "Double, pass"]
    assert box.locator("tr.best").count() == 1
    text = box.inner_text()
    assert "Proper cube action: " in text and "Money play, cube centred" in text
    assert "Cubeless: win " in text
    assert not button.is_visible()          # the hint is shown
    # the box fits the panel: no sideways scrolling on a phone
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    box.scroll_into_view_if_needed()
    shot(page, f"cube-hint-{size}")
    # the position's IDs, copied as they are
    page.locator("#ids-box summary").click()
    ids = page.locator("#ids code")
    assert ids.count() == 3
    assert ids.nth(1).inner_text() == st["ids"]["gnubg"]
    assert ids.nth(2).inner_text() == st["ids"]["xgid"]
    page.locator("#ids button").nth(1).click()
    wait_js(page, "document.querySelectorAll('#ids button')[1].textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == st["ids"]["gnubg"]
    page.locator("#ids-box").scroll_into_view_if_needed()
    shot(page, f"position-ids-{size}")
    # rolling ends the cube decision: the hint goes
    page.click("#btn-roll")
    wait_js(page, "window.tavli.state().phase !== 'roll'")
    idle(page)
    assert not box.is_visible() and not button.is_visible()


def test_import_a_mat_file_export_and_continue(sized, server):
    size, page = sized
    m = Match(3, "backgammon", seed=7, opening_each_game=True)
    random_play(m.game, random.Random(7), 50, m)
    m.names = ("Ann", "Bob")  # the file's names show in the players panel
    page.goto(f"{server}/")
    page.wait_for_selector("#dlg-new[open]")
    page.click("#ng-cancel")
    page.click("#btn-games")
    page.wait_for_selector("#dlg-games[open]")
    page.set_input_files("#import-file", files=[{"name": "friend.txt", "mimeType": "text/plain",
                                                 "buffer": dumps(m, "mat").encode()}])
    wait_js(page, "window.tavli.state() && window.tavli.state().imported")
    idle(page)
    st = state(page)
    # the file ends before the match does: the title says so (issue 31)
    assert st["title"] == "Backgammon match to 3 (imported, not finished)" and st["can_continue"]
    assert st["position_id"] == m.game.position.id()
    assert page.locator("#btn-continue").is_visible()
    names = page.locator("#players .name").all_inner_texts()
    assert sorted(names) == ["Ann (white)", "Bob (black)"], names
    page.click("#btn-games")
    page.wait_for_selector("#dlg-games[open]")
    wait_js(page, "document.querySelectorAll('#games-table tbody tr').length > 0")
    row = page.locator(f'#games-table tr[data-id="{st["id"]}"]')
    links = row.locator("a.export")
    assert links.all_inner_texts() == ["Export", ".mat", ".sgf"]
    href = row.locator("a.export-sgf").get_attribute("href")
    # the same moves and cube actions (dice written higher first after the .mat)
    assert summary(loads(page.request.get(server + href).text(), "sgf")) == summary(m)
    shot(page, f"games-export-{size}")
    page.click("#games-close")
    page.click("#btn-continue")
    wait_js(page, "window.tavli.state() && !window.tavli.state().imported")
    idle(page)
    st = state(page)
    assert st["title"].endswith("(continued) (practice)")
    assert [st["score"]["white"], st["score"]["black"]] == list(m.score)
    shot(page, f"continued-{size}")
