"""Issue 15's player-facing changes in a real browser (Debian's chromium, Playwright):
Dama's Play again instead of Undo after the end, practice games, the paged games list
with filters and delete (also on a phone), Play again after a game, the last move of
each side on the board, the AI's move in the player's numbering, the opening message and
dice drawn higher first. Screenshots at 360x740 and 1366x768 go to tests/artifacts/."""

from __future__ import annotations

import json

import pytest
from conftest import ARTIFACTS, wait_js
from conftest import until_idle as idle
from test_web_ux import SHORT_DAMA

from tavli.engine.board import Position

PHONE = {"width": 360, "height": 740}
DESK = {"width": 1366, "height": 768}


@pytest.fixture
def ctx(browser):
    """A function opening a page at a viewport size; pages are closed and checked for
    script errors at the end."""
    made = []

    def open_page(size=DESK, phone=False):
        c = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone,
                                device_scale_factor=2 if phone else 1)
        pg = c.new_page()
        pg.set_default_timeout(20000)
        pg.errors = []
        pg.on("pageerror", lambda e: pg.errors.append(str(e)))
        pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
        made.append((c, pg))
        return pg

    yield open_page
    for c, pg in made:
        c.close()
        assert pg.errors == [], pg.errors


def api(page, base, method, path, body=None, ok=True):
    r = page.request.fetch(f"{base}{path}", method=method,
                           data=None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json"})
    assert r.ok == ok, r.text()
    return r.json() if r.ok and r.status != 204 else None


def shot(page, name):
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def state(page):
    return page.evaluate("window.tavli.state()")


def wait_state(page, js):
    wait_js(page, "(() => { const st = window.tavli.state(); "
                           f"return !!st && ({js}); }})()")
    idle(page)


def click_move(page, move, side):
    attr = "data-w" if side == "white" else "data-b"

    def slot(p):
        if p == 0:
            return f'.hit[data-side="{side}"][data-w="off"]'
        return "#pt-bar" if p == 25 else f'.hit[{attr}="{p}"]'

    for f, t, _hit in move["steps"]:
        page.locator(slot(f)).click()
        page.locator(slot(t)).click()
        idle(page)
    page.click("#btn-confirm")


def fits(page):
    """Nothing scrolls sideways: the page and the open dialog are no wider than the
    screen."""
    return page.evaluate("""() => {
        const d = document.querySelector('dialog[open]');
        return document.documentElement.scrollWidth <= innerWidth
            && (!d || (d.scrollWidth <= d.clientWidth
                       && d.getBoundingClientRect().right <= innerWidth));
    }""")


# --- 1, 4. Dama: Play again instead of Undo after the end ------------------------------------

def test_dama_over_offers_play_again_not_undo(ctx, server):
    for size, name in ((PHONE, "phone"), (DESK, "desk")):
        pg = ctx(size, phone=size is PHONE)
        d = api(pg, server, "POST", "/api/games", {"variant": "russian",
                                                   "opponent": "human"})
        for mv in SHORT_DAMA:
            api(pg, server, "POST", f"/api/games/{d['id']}/move", {"move": mv})
        pg.goto(f"{server}/#/dama/{d['id']}")
        wait_js(pg, f"window.tavli.dama.state() && window.tavli.dama.state().id === '{d['id']}'")
        idle(pg)
        assert "White wins" in pg.inner_text("#dama-status")
        assert pg.is_hidden("#dama-undo") and pg.is_visible("#dama-rematch")
        assert fits(pg)
        shot(pg, f"{name}-dama-over-play-again")
    pg.click("#dama-rematch")
    wait_js(pg, f"window.tavli.dama.state().id !== '{d['id']}'")
    idle(pg)
    st = pg.evaluate("window.tavli.dama.state()")
    assert st["plies"] == 0 and st["rules"] == "russian" and not st["over"]
    assert pg.is_visible("#dama-undo") and pg.is_hidden("#dama-rematch")
    assert f"#/dama/{st['id']}" in pg.url


# --- 2, 4. practice games and Play again ------------------------------------------------------

def test_short_game_play_again_keeps_the_settings(ctx, server):
    pos = Position.from_points("portes", {1: 1}, {6: 1}, turn=0)
    for size, name in ((PHONE, "phone"), (DESK, "desk")):
        pg = ctx(size, phone=size is PHONE)
        st = api(pg, server, "POST", "/api/games",
                 {"variant": "portes", "position": pos.id(), "seed": 1, "level": "beginner"})
        pg.goto(f"{server}/#/game/{st['id']}")
        wait_state(pg, "st.phase === 'move' && !st.ai_to_act")
        assert "(practice)" in pg.inner_text("#title")
        click_move(pg, state(pg)["legal_moves"][0], "white")
        wait_state(pg, "st.phase === 'over'")
        assert pg.is_visible("#btn-rematch") and pg.inner_text("#btn-rematch") == "Play again"
        assert fits(pg)
        shot(pg, f"{name}-game-over-play-again")
    pg.click("#btn-rematch")
    wait_state(pg, f"st.id !== '{st['id']}'")
    again = state(pg)
    assert again["position_id"] == pos.id() and again["phase"] in ("roll", "move")
    assert again["players"]["black"] == {**again["players"]["black"], "type": "ai",
                                         "level": "beginner"}
    assert again["practice"] and f"#/game/{again['id']}" in pg.url
    assert pg.is_hidden("#btn-rematch")


# --- 3. the games list -----------------------------------------------------------------------

def _list_rows(pg):
    return pg.locator("#games-table tbody tr[data-id]")


def test_games_list_pages_filters_and_deletes(ctx, server):
    pg = ctx(DESK)
    for i in range(23):
        api(pg, server, "POST", "/api/games",
            {"variant": ("portes", "fevga", "plakoto")[i % 3], "opponent": "human"})
    api(pg, server, "POST", "/api/games", {"variant": "italian",
                                           "opponent": "human"})
    shown = api(pg, server, "POST", "/api/games", {"variant": "fevga", "seed": 4})
    total = api(pg, server, "GET", "/api/games?limit=1")["total"]
    assert total >= 25
    pg.goto(f"{server}/#/game/{shown['id']}")
    wait_state(pg, "true")
    pg.click("#btn-games")
    pg.wait_for_selector("#dlg-games[open] #games-table tbody tr[data-id]")
    assert _list_rows(pg).count() == 20
    assert pg.inner_text("#gp-info") == f"1–20 of {total}"
    assert pg.is_disabled("#gp-prev") and pg.is_enabled("#gp-next")
    assert fits(pg)
    title = pg.locator("#games-table td.title").first.bounding_box()
    assert title["width"] > 150     # the names are readable, not a letter a line
    shot(pg, "desk-games-list-paged")
    pg.click("#gp-next")
    wait_js(pg, "document.querySelector('#gp-info').textContent.startsWith('21')")
    assert _list_rows(pg).count() == min(20, total - 20)
    # filters: a variant, then a text in the title
    pg.select_option("#gf-variant", "dama")
    wait_js(pg, "document.querySelector('#gp-info').textContent.startsWith('1–')")
    titles = pg.locator("#games-table td.title").all_inner_texts()
    assert titles and all(t.startswith("Dama") for t in titles)
    pg.select_option("#gf-variant", "")
    pg.fill("#gf-q", "Fevga: you")
    wait_js(pg, "document.querySelectorAll('#games-table tbody tr[data-id]')"
                         ".length === 1")
    assert "(practice)" in pg.locator("#games-table td.title").first.inner_text()
    # delete the game open in the page: asked first, then gone, and the board is empty
    row = pg.locator(f"#games-table tr[data-id='{shown['id']}']")
    row.locator("button.delete").click()
    assert "Delete this game" in row.inner_text()
    row.locator("button.keep").click()
    assert row.locator("button.open").is_visible()
    row.locator("button.delete").click()
    row.locator("button.confirm-delete").click()
    pg.wait_for_selector(f"#games-table tr[data-id='{shown['id']}']", state="detached")
    assert "No game matches" in pg.inner_text("#games-table")
    api(pg, server, "GET", f"/api/games/{shown['id']}", ok=False)
    assert state(pg) is None and "#/game/" not in pg.url
    pg.click("#games-close")
    assert "deleted" in pg.inner_text("#status")
    assert pg.locator("#board .checker").count() == 0
    pg.reload()     # the deleted game is not reopened
    pg.wait_for_selector("#dlg-new[open]")


def test_games_list_fits_a_phone(ctx, server):
    pg = ctx(PHONE, phone=True)
    api(pg, server, "POST", "/api/games", {"variant": "tavli", "points": 7, "seed": 3})
    api(pg, server, "POST", "/api/games", {"variant": "dama",
                                           "opponent": "human"})
    pg.goto(server + "/")
    pg.wait_for_selector("#dlg-new[open]")
    pg.click("#ng-cancel")
    pg.click("#btn-games")
    pg.wait_for_selector("#dlg-games[open] #games-table tbody tr[data-id]")
    assert fits(pg)
    for cell in pg.locator("#games-table td.title").all()[:6]:
        box = cell.bounding_box()
        assert cell.is_visible() and cell.inner_text().strip()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    acts = pg.locator("#games-table td.acts").first.bounding_box()
    assert acts["x"] + acts["width"] <= PHONE["width"]
    shot(pg, "phone-games-list")
    pg.locator("#games-table button.delete").first.click()
    assert fits(pg)
    shot(pg, "phone-games-list-delete")


# --- 5, 6. the last move of each side, the AI's move in the player's numbering -----------------

def test_last_moves_of_both_sides_and_the_ai_move_text(ctx, server):
    for size, name in ((DESK, "desk"), (PHONE, "phone")):
        pg = ctx(size, phone=size is PHONE)
        st = api(pg, server, "POST", "/api/games",
                 {"variant": "portes", "seed": 11, "first": "white", "level": "beginner"})
        pg.goto(f"{server}/#/game/{st['id']}")
        wait_state(pg, "st.phase === 'move' && !st.ai_to_act")
        click_move(pg, state(pg)["legal_moves"][0], "white")
        wait_state(pg, "!st.ai_to_act && st.last_moves.black !== null")
        st = state(pg)
        black, white = st["last_moves"]["black"], st["last_moves"]["white"]
        if black["pass"]:
            pytest.fail("choose a seed where the AI can move")
        # the AI's move is reported as the player sees it: in white's numbering
        assert f"The AI played {black['shown']}." in pg.inner_text("#status")
        assert black["shown"] != black["move"]
        # both moves marked where the server says (white's view: black's p is 25 - p)
        for side, lm, view in (("white", white, lambda p: p), ("black", black,
                                                              lambda p: 25 - p)):
            g = f'#board .last-move[data-side="{side}"]'
            for p in lm["to"]:
                if 1 <= p <= 24:
                    assert pg.locator(f'{g} .last-to[data-view="{view(p)}"]').count() == 1
            for p in lm["from"]:
                if 1 <= p <= 24:
                    assert pg.locator(f'{g} .last-from[data-view="{view(p)}"]').count() == 1
        assert pg.locator('#board .last-move.mine[data-side="white"]').count() == 1
        assert pg.locator('#board .last-move.theirs[data-side="black"]').count() == 1
        assert black["shown"] in pg.inner_text('#players .player[data-side="black"] .last')
        shot(pg, f"{name}-last-moves")


# --- 7, 8. the opening message and dice higher first ----------------------------------------

def test_opening_message_and_dice_higher_first(ctx, server):
    for size, name in ((DESK, "desk"), (PHONE, "phone")):
        pg = ctx(size, phone=size is PHONE)
        # seed 1: the opening throw is white 2, black 5; black's new roll comes 1-3
        st = api(pg, server, "POST", "/api/games",
                 {"variant": "portes", "seed": 1, "opponent": "human"})
        pg.goto(f"{server}/#/game/{st['id']}")
        pg.wait_for_selector("#btn-roll:visible")
        pg.click("#btn-roll")
        wait_state(pg, "st.phase === 'move'")
        assert state(pg)["dice"] == [1, 3]
        status = pg.inner_text("#status")
        assert "Opening throw: white 2, black 5 — black starts and rolls 3-1." in status
        assert "Black to move 3-1" in status
        values = [int(v) for v in pg.locator("#board .die").evaluate_all(
            "ds => ds.map((d) => d.dataset.value)")]
        assert values == [3, 1]
        shot(pg, f"{name}-opening-message")
    # a later roll: the history reads higher die first too
    click_move(pg, state(pg)["legal_moves"][0], "black")
    wait_state(pg, "st.history.length === 2")
    items = pg.locator("#history li").all_text_contents()
    assert items[1].startswith("black 3-1: ")
