"""The browser app end to end: a real server, chromium driven by Playwright.

Screenshots of the key screens are kept in tests/artifacts/ (not in git).
Needs chromium (``make test`` provisions it); the fixtures are in conftest.py.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import AI_WAIT, ARTIFACTS, page_at, until_idle  # noqa: E402

from tavli.engine.board import Position  # noqa: E402
from tavli.play.game import Game  # noqa: E402
from tavli.play.players import GreedyPlayer, RandomPlayer, play_game  # noqa: E402
from tavli.play.record import game_record  # noqa: E402


@pytest.fixture
def page(browser):
    with page_at(browser) as pg:
        yield pg


def api(page, base, method, path, body=None):
    r = page.request.fetch(f"{base}{path}", method=method,
                           data=None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    return r.json()


def shot(page, name):
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def state(page):
    return page.evaluate("window.tavli.state()")


def idle(page):
    until_idle(page)


def until_my_move(page, limit=60):
    """Throw or roll when it is the player's to do, take when the AI doubles (backgammon's
    single game has the cube: the dice are not seeded, and the AI may double early), let
    the AI act, and return the state once the player has dice to move (or the game is
    over)."""
    toasts = set()  # what the page said meanwhile (an AI request refused: the loop stalls)
    for _ in range(limit):
        idle(page)
        st = state(page)
        if st["phase"] == "over":
            return st
        if st["phase"] == "move" and not st["ai_to_act"]:
            return st
        if page.locator("#toast").is_visible():
            toasts.add(page.locator("#toast").inner_text())
        roll, take = page.locator("#btn-roll"), page.locator("#btn-take")
        if roll.is_visible():
            roll.click()
        elif st["phase"] == "double" and not st["ai_to_act"] and take.is_visible():
            take.click()
        else:
            page.wait_for_timeout(150)
    raise AssertionError(f"the player never got to move: phase {st['phase']}, turn "
                         f"{st['turn']}, ai_to_act {st['ai_to_act']}, the page said "
                         f"{sorted(toasts)}, last {st.get('last')}")


def slot(side, p):
    attr = "data-w" if side == "white" else "data-b"
    if p == 25:
        return "#pt-bar"
    if p == 0:
        return f'.hit[data-side="{side}"][data-w="off"]'
    return f'.hit[{attr}="{p}"]'


def click_move(page, move, side, drag_first=False):
    """Play ``move`` (from the state's legal moves) by clicking source and destination of
    each step, then confirm."""
    for k, (f, t, _hit) in enumerate(move["steps"]):
        if drag_first and k == 0:
            src = page.locator(slot(side, f)).bounding_box()
            dst = page.locator(slot(side, t)).bounding_box()
            page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
            page.mouse.down()
            page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2,
                            steps=8)
            page.mouse.up()
        else:
            page.locator(slot(side, f)).click()
            assert page.locator(".dst-ring, .dst-mark").count() >= 1  # destinations lit
            page.locator(slot(side, t)).click()
        idle(page)
    confirm = page.locator("#btn-confirm")
    assert confirm.is_enabled()
    confirm.click()


def start_from_dialog(page, base, variant, points=None, opponent="ai:expert"):
    page.goto(base + "/")
    page.wait_for_selector("#dlg-new[open]")
    page.select_option("#ng-variant", variant)
    if points is not None:
        page.select_option("#ng-points", str(points))
    page.select_option("#ng-opponent", opponent)
    if variant == "tavli":
        shot(page, "new-game-dialog")
    page.click("#ng-start")
    page.wait_for_selector('body[data-phase]')
    idle(page)


@pytest.mark.parametrize("variant,points", [("portes", 1), ("plakoto", 1), ("fevga", 1),
                                            ("backgammon", 1), ("tavli", 3)])
def test_play_each_variant_by_clicking(page, server, variant, points):
    start_from_dialog(page, server, variant, points)
    st = state(page)
    assert st["variant"] == variant and st["phase"] == "opening"
    assert page.locator("#btn-roll").inner_text() == "Throw opening dice"
    assert page.locator("#board .checker").count() == (30 if variant in ("portes", "backgammon",
                                                                  "tavli") else 10)
    page.click("#btn-roll")
    st = until_my_move(page)
    assert st["turn"] == "white" and st["phase"] == "move"
    assert page.locator("#board .die").count() in (2, 4)
    shot(page, f"{variant}-your-move")
    before = len(st["history"])
    move = max(st["legal_moves"], key=lambda m: len(m["steps"]))
    click_move(page, move, "white", drag_first=(variant == "portes"))
    # the AI replies (animated), then it is the player's turn again
    st = until_my_move(page)
    moves = [e for e in st["history"][before:] if "dice" in e]
    assert moves[0]["side"] == "white" and moves[0]["move"] == move["move"]
    assert any(e["side"] == "black" for e in moves), "the AI did not reply"
    assert page.locator("#board .checker").count() >= 12
    pips = page.locator("#players .pips").all_inner_texts()
    assert all(p.startswith("pips ") for p in pips)
    if variant == "tavli":
        assert "Match to 3" in page.locator("#score").inner_text()
    shot(page, f"{variant}-after-ai-reply")


def test_the_ai_doubles_and_the_player_takes_by_clicking(page, server):
    """A single game of backgammon has the cube: from a position in black's doubling
    window the AI (black) doubles, the player takes with the page's button, and after
    the AI's roll it is the player's move with the cube on his side."""
    r = page.request.post(server + "/api/games", data={
        "variant": "backgammon", "points": 1, "ai_side": "black", "first": "black",
        "position": "B68ygGAH9yELGAI"})  # black to roll: double, take (at 1 ply)
    assert r.ok, r.text()
    page.goto(f"{server}/#/game/{r.json()['id']}")
    st = until_my_move(page)
    assert st["phase"] == "move" and st["turn"] == "white"
    assert st["cube"]["value"] == 2 and st["cube"]["owner"] == "white"
    assert st["history"][:2] == [{"side": "black", "double": 2},
                                 {"side": "white", "take": True}]


def test_undo_inside_the_turn(page, server):
    st = api(page, server, "POST", "/api/games",
             {"variant": "portes", "seed": 5, "first": "white"})
    page.goto(f"{server}/#/game/{st['id']}")
    st = until_my_move(page)
    move = st["legal_moves"][0]
    f, t, _ = move["steps"][0]
    page.locator(slot("white", f)).click()
    page.locator(slot("white", t)).click()
    idle(page)
    assert page.locator("#btn-undo").is_enabled()
    assert not page.locator("#btn-confirm").is_enabled() or len(move["steps"]) == 1
    page.click("#btn-undo")
    assert not page.locator("#btn-undo").is_enabled()
    assert state(page)["position_id"] == st["position_id"]  # the server saw nothing
    click_move(page, move, "white")
    until_my_move(page)


def test_finish_a_seeded_short_game_and_review_it(page, server):
    pos = Position.from_points("portes", {1: 2, 2: 1, 4: 1, 6: 1}, {1: 1, 2: 2, 5: 2})
    st = api(page, server, "POST", "/api/games",
             {"variant": "portes", "seed": 4, "position": pos.id(), "ai_side": "black"})
    page.goto(f"{server}/#/game/{st['id']}")
    for _ in range(20):
        st = until_my_move(page)
        if st["phase"] == "over":
            break
        click_move(page, st["legal_moves"][0], "white")
    else:
        raise AssertionError("the game did not end")
    idle(page)
    assert "wins" in page.locator("#status").inner_text()
    assert page.locator("#board .off").count() >= 15
    shot(page, "short-game-over")
    page.click("#btn-review")
    page.wait_for_selector("#review:not([hidden]) #chart polyline.curve", timeout=AI_WAIT)
    assert page.locator("#chart .pt").count() == len(
        [e for e in st["history"] if "dice" in e])
    page.locator("#chart .pt").nth(2).click()
    third = page.locator("#review-banner").inner_text()
    page.locator("#chart .pt").first.click()
    assert "Turn 1" in page.locator("#review-banner").inner_text()
    shot(page, "short-game-review")
    # by keyboard: the chart is one Tab stop (a point), the arrows go from point to point,
    # Enter shows the position; each point says its turn and the equity lost
    dots = page.locator("#chart .pt")
    assert dots.evaluate_all("(ds) => ds.every((d) => d.getAttribute('role') === 'button')")
    assert page.locator("#chart .pt[tabindex='0']").count() == 1
    assert re.fullmatch(r"Turn 1: (white|black) \d-\d, .+\. Equity lost \d\.\d{3}.*",
                        dots.first.get_attribute("aria-label"))
    page.focus("#btn-review-close")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.index") == "0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.index") == "2"
    page.keyboard.press("Enter")
    assert page.locator("#review-banner").inner_text() == third
    assert page.locator("#chart .pt[tabindex='0']").get_attribute("data-index") == "2"
    shot(page, "short-game-review-keys")
    page.set_viewport_size({"width": 360, "height": 740})
    page.locator("#chart").scroll_into_view_if_needed()
    shot(page, "short-game-review-keys-360")


def test_reload_mid_game_shows_the_same_position(page, server):
    st = api(page, server, "POST", "/api/games", {"variant": "plakoto", "seed": 6})
    page.goto(f"{server}/#/game/{st['id']}")
    page.wait_for_selector("#btn-roll:visible")
    page.click("#btn-roll")
    st = until_my_move(page)
    click_move(page, st["legal_moves"][0], "white")
    st = until_my_move(page)
    checkers = page.locator("#board .checker").count()
    # half a move that is not confirmed is not saved
    f, t, _ = st["legal_moves"][0]["steps"][0]
    page.locator(slot("white", f)).click()
    page.locator(slot("white", t)).click()
    idle(page)
    page.reload()
    page.wait_for_selector('body[data-phase="move"][data-busy="0"]')
    again = state(page)
    assert again["position_id"] == st["position_id"] and again["dice"] == st["dice"]
    assert again["history"] == st["history"]
    assert page.locator("#board .checker").count() == checkers
    assert not page.locator("#btn-undo").is_enabled()
    shot(page, "plakoto-after-reload")


def test_import_a_record_and_click_a_mistake(page, server, tmp_path):
    g = Game("fevga", seed=8)
    play_game(g, (GreedyPlayer(), RandomPlayer(seed=1)))
    path = tmp_path / "fevga.json"
    path.write_text(json.dumps(game_record(g, 8)))
    page.goto(server + "/")
    page.wait_for_selector("#dlg-new[open]")
    page.click("#ng-cancel")
    page.click("#btn-games")
    page.wait_for_selector("#dlg-games[open]")
    shot(page, "games-list")
    page.set_input_files("#import-file", str(path))
    page.wait_for_selector("#review:not([hidden]) #mistakes li.mistake", timeout=AI_WAIT)
    idle(page)
    assert state(page)["imported"]
    page.locator("#mistakes li.mistake").first.click()
    banner = page.locator("#review-banner").inner_text()
    assert "best was" in banner
    shot(page, "fevga-review-mistake")
    # the export link of the list gives the record back
    page.click("#btn-review-close")
    page.click("#btn-games")
    href = page.locator("#games-table a.export").first.get_attribute("href")
    assert json.loads(page.request.get(server + href).text())["format"] == "tavli-record"


def test_phone_layout_with_pinned_checkers(browser, server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                              is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.set_default_timeout(20000)
    white = {24: 12, 13: 1, 6: 1, 3: 1}
    black = {24: 12, 19: 1, 10: 2}
    # black's 19 is white's 6 (pinned white checker under it); white's 13 on black's 12
    pos = Position.from_points("plakoto", white, black, pinned=[(0, 6)])
    st = api(page, server, "POST", "/api/games",
             {"variant": "plakoto", "seed": 2, "position": pos.id(), "first": "white"})
    page.goto(f"{server}/#/game/{st['id']}")
    until_my_move(page)
    assert page.locator("#board .pin-ring").count() == 1
    box = page.locator("#board").bounding_box()
    assert box["width"] <= 390 and box["width"] > 300
    shot(page, "phone-plakoto-pinned")
    ctx.close()


def test_playing_black_with_a_hint(page, server):
    st = api(page, server, "POST", "/api/games",
             {"variant": "portes", "seed": 9, "first": "white", "ai_side": "white"})
    page.goto(f"{server}/#/game/{st['id']}")
    st = until_my_move(page)  # the AI (white) moves first, then black rolls
    assert st["turn"] == "black" and st["history"][0]["side"] == "white"
    # black's home is drawn at the bottom right: black's point 1 is the bottom-right column
    one = page.locator('.hit[data-b="1"]').bounding_box()
    twelve = page.locator('.hit[data-b="12"]').bounding_box()
    assert one["x"] > twelve["x"] and one["y"] > 300
    page.click("#btn-hint")
    page.wait_for_selector("#hints tr.hint")
    idle(page)
    rows = page.locator("#hints tr.hint")
    assert rows.count() == min(12, len(st["legal_moves"]))
    shot(page, "portes-as-black-hint")
    best = rows.first.locator("td").nth(1).inner_text()
    rows.first.click()
    assert page.locator("#btn-confirm").is_enabled()
    page.click("#btn-confirm")
    st = until_my_move(page)
    mine = [e for e in st["history"] if e.get("side") == "black" and "dice" in e]
    assert mine[0]["move"] == best


def test_two_players_on_one_device(page, server):
    start_from_dialog(page, server, "fevga", 1, opponent="human")
    assert page.locator("#ng-side-label").is_hidden()
    page.click("#btn-roll")
    for _ in range(2):  # each side moves once, on the same board
        st = until_my_move(page)
        assert not st["ai_to_act"]
        side = st["turn"]
        click_move(page, st["legal_moves"][-1], side)
        idle(page)
    st = state(page)
    assert {e["side"] for e in st["history"] if "dice" in e} == {"white", "black"}
    assert st["players"]["white"]["type"] == st["players"]["black"]["type"] == "human"
    shot(page, "fevga-two-players")
