"""The browser's hint in a Tavli match: the moves with their match winning chances (a real
server, chromium driven by Playwright; screenshots at phone and desk sizes in
tests/artifacts/)."""

from __future__ import annotations

import pytest
from test_web_e2e import api, shot, until_my_move


@pytest.mark.parametrize("size", [(360, 740), (1366, 768)], ids=["phone", "desk"])
def test_hint_in_a_match_shows_mwc(browser, server, size):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    st = api(page, server, "POST", "/api/games", {"variant": "tavli", "seed": 5,
                                                  "opponent": "human"})
    page.goto(f"{server}/#/game/{st['id']}")
    st = until_my_move(page)
    page.click("#btn-hint")
    page.wait_for_selector("#hints tr.hint")
    head = page.locator("#hints thead").inner_text()
    assert "MWC" in head
    cells = page.locator("#hints tr.hint").first.locator("td")
    assert cells.nth(3).inner_text().endswith("%")
    note = page.locator("#hints .opt").inner_text()  # at the score the panel shows
    assert page.locator("#score").inner_text() + ": match equity" in note, note
    assert "Match to 5: white 0 – black 0" in note
    page.locator("#hints").scroll_into_view_if_needed()
    shot(page, f"tavli-match-hint-{'phone' if size[0] < 500 else 'desk'}")
    ctx.close()
    assert errors == [], errors
