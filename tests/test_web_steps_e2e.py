"""The page plays from the server's turn tree (a real server, chromium driven by
Playwright): moves made by clicking and dragging in each game, a drag over two steps,
Undo of part of a turn, the dice dimmed as they are used, the AI's move animated from the
boards the server sent, and the menus filled from GET /api/info.

Screenshots of each scene at phone (360x740) and desk (1366x768) size go to
tests/artifacts/ (not in git)."""

from __future__ import annotations

import json

import pytest
from conftest import ARTIFACTS, page_at, wait_js
from test_toy_variant import Nackgammon
from test_web_e2e import idle, slot, state, until_my_move
from test_web_steps import BG_BAR, BG_OFF, PLAKOTO_PIN, PORTES_HIT, seed_for

from tavli.engine.board import Position
from tavli.engine.games import VARIANTS, register_variant, unregister_variant

SIZES = [(360, 740), (1366, 768)]


@pytest.fixture(params=SIZES, ids=["phone", "desk"])
def page(request, browser):
    w, h = request.param
    with page_at(browser, w, h, reduced_motion="no-preference") as pg:  # the slides
        pg.size = f"{w}"
        yield pg


def shot(page, name):
    page.screenshot(path=str(ARTIFACTS / f"steps-{name}-{page.size}.png"))


def open_scene(page, base, pos: Position, dice, **body):
    """A game against the AI from ``pos`` with ``dice`` for the player (white) to move."""
    body = {"variant": pos.game_name, "position": pos.id(), "seed": seed_for(pos, dice),
            **body}
    r = page.request.post(f"{base}/api/games", data=json.dumps(body),
                          headers={"Content-Type": "application/json"})
    assert r.ok, r.text()
    page.goto(f"{base}/#/game/{r.json()['id']}")
    page.wait_for_selector("body[data-phase]")
    st = until_my_move(page)
    assert sorted(st["dice"]) == sorted(dice)
    idle(page)
    return st


def click(page, p, side="white"):
    page.locator(slot(side, p)).click()
    idle(page)


def drag(page, f, t, side="white"):
    src = page.locator(slot(side, f)).bounding_box()
    dst = page.locator(slot(side, t)).bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
    page.mouse.up()
    idle(page)


def js(page, expr):
    return page.evaluate(expr)


def done(page):
    return js(page, "window.tavli.S.done")


def dice(page):
    """The dice drawn: [(value, dimmed)], as on the board from left to right."""
    return [(int(v), float(o) < 1) for v, o in page.locator("#board .die").evaluate_all(
        "els => els.map(e => [e.dataset.value, e.getAttribute('opacity')])")]


def sources(page):
    return sorted(js(page, "[...document.querySelectorAll('#board .hit.src')]"
                           ".map(e => e.id)"))


def confirm(page):
    assert page.locator("#btn-confirm").is_enabled()
    page.click("#btn-confirm")
    idle(page)


def played(page, side="white"):
    st = until_my_move(page)
    return [e["move"] for e in st["history"] if e.get("side") == side and "dice" in e][-1]


def test_portes_a_hit(page, server):
    open_scene(page, server, PORTES_HIT, (4, 2))
    click(page, 24)
    assert page.locator(".dst-ring").count() >= 1
    shot(page, "portes-select")
    click(page, 20)                                   # 24/20*: the blot goes to the bar
    assert js(page, "window.tavli.S.sim.s[1].bar") == 1
    assert page.locator("#board .checker.black").count() == 15
    assert dice(page) == [(4, True), (2, False)]
    shot(page, "portes-hit")
    assert not page.locator("#btn-confirm").is_enabled()
    click(page, 13)
    click(page, 11)
    confirm(page)
    assert played(page) == "24/20* 13/11"


def test_plakoto_a_pin_and_its_release(page, server):
    open_scene(page, server, PLAKOTO_PIN, (3, 2))
    click(page, 8)
    # the same checker may go on: 5 with the 3, 6 with the 2, 3 with both
    assert sorted(int(x) for x in page.locator(".dst-mark[data-dest]").evaluate_all(
        "els => els.map(e => e.dataset.dest)")) == [3, 5, 6]
    shot(page, "plakoto-select")
    click(page, 5)                                    # 8/5^: black's checker is pinned
    assert page.locator("#board .pin-ring").count() == 1
    shot(page, "plakoto-pin")
    click(page, 5)
    click(page, 3)                                    # 5/3: it is free again
    assert page.locator("#board .pin-ring").count() == 0
    assert dice(page) == [(3, True), (2, True)]
    shot(page, "plakoto-release")
    confirm(page)
    assert played(page) == "8/3"


def test_fevga_first_checker_over_two_steps_by_one_drag(page, server):
    open_scene(page, server, Position.start("fevga"), (5, 3))
    assert sources(page) == ["pt-w24"]                # only the first checker may go
    shot(page, "fevga-start")
    drag(page, 24, 16)                                # one drag, two steps
    assert done(page) in ([[24, 19], [19, 16]], [[24, 21], [21, 16]])
    assert dice(page) == [(5, True), (3, True)]
    shot(page, "fevga-drag")
    confirm(page)
    assert played(page) == "24/16"


def test_backgammon_bar_first(page, server):
    open_scene(page, server, BG_BAR, (5, 3))
    assert sources(page) == ["pt-bar"]
    click(page, 25)
    shot(page, "bg-bar-select")
    click(page, 22)
    assert js(page, "window.tavli.S.sim.s[0].bar") == 0
    assert sources(page) == ["pt-w13", "pt-w8"]
    shot(page, "bg-bar-entered")
    click(page, 13)
    click(page, 8)
    confirm(page)
    assert played(page) == "bar/22 13/8"


def test_backgammon_bearing_off(page, server):
    open_scene(page, server, BG_OFF, (6, 4))
    click(page, 6)
    assert page.locator("#tray-off.dst").count() == 1
    shot(page, "bg-off-select")
    click(page, 0)
    assert page.locator("#board .off.white").count() == 1
    shot(page, "bg-off-one")
    click(page, 4)
    click(page, 0)
    assert page.locator("#board .off.white").count() == 2
    confirm(page)
    assert played(page) == "6/off 4/off"


def test_a_double_a_drag_and_undo_of_part_of_the_turn(page, server):
    open_scene(page, server, Position.start("portes"), (3, 3))
    assert dice(page) == [(3, False)] * 4
    drag(page, 24, 18)                                # 24/21/18 in one drag
    assert done(page) == [[24, 21], [21, 18]]
    assert dice(page) == [(3, False)] * 2 + [(3, True)] * 2
    shot(page, "double-drag")
    click(page, 13)
    click(page, 10)
    assert len(done(page)) == 3
    shot(page, "double-three")
    page.click("#btn-undo")                           # the last click's step only
    assert done(page) == [[24, 21], [21, 18]]
    assert page.locator("#board .checker.white").count() == 15
    shot(page, "double-undo")
    page.click("#btn-undo")                           # then the drag: both its steps
    assert done(page) == [] and dice(page) == [(3, False)] * 4
    assert not page.locator("#btn-undo").is_enabled()
    assert js(page, "window.tavli.S.sim.s[0].pts[24]") == 2
    drag(page, 13, 7)
    drag(page, 13, 7)
    confirm(page)
    assert played(page) == "13/7(2)"


def test_the_ai_move_is_drawn_from_the_boards_the_server_sent(page, server):
    # without the position before the move, only the frames can drive the animation
    def strip(route):
        resp = route.fetch()
        body = resp.json()
        if body.get("last") and body["last"].get("kind") == "move":
            body["last"].pop("before")
            assert body["last"]["frames"]
        route.fulfill(response=resp, body=json.dumps(body))

    page.route("**/api/games/*/ai", strip)
    open_scene(page, server, Position.start("portes"), (3, 1))
    click(page, 8)
    click(page, 5)
    click(page, 6)
    click(page, 5)
    page.click("#btn-confirm")
    wait_js(page, "document.body.dataset.phase === 'animating'")
    shot(page, "ai-animating")
    st = until_my_move(page)
    assert [e["side"] for e in st["history"] if "dice" in e][-1] == "black"
    drawn = js(page, "window.tavli.S.sim.s.map(x => [x.off, ...x.pts.slice(1), x.bar])")
    pos = Position.from_json(st["position"])
    assert drawn == [pos.array[s, :26].tolist() for s in (0, 1)]


def test_the_menus_come_from_the_registry(page, server):
    v = register_variant(Nackgammon())
    try:
        page.goto(server + "/")
        page.wait_for_selector("#dlg-new[open]")
        names = page.locator("#ng-variant option").evaluate_all(
            "els => els.map(e => [e.value, e.textContent])")
        assert names == [["tavli", "Tavli match (Portes → Plakoto → Fevga)"],
                         *[[x.name, x.display] for x in VARIANTS], ["dama", "Dama (draughts)"]]
        levels = page.locator("#ng-opponent option").evaluate_all("els => els.map(e => e.value)")
        assert levels[-1] == "human" and "ai:worldclass" in levels
        assert page.locator("#ng-opponent").input_value() == "ai:expert"
        filters = page.locator("#gf-variant option").evaluate_all("els => els.map(e => e.value)")
        assert filters == ["", "tavli", *[x.name for x in VARIANTS], "dama"]
        shot(page, "menu")
        # a game registered on the server is offered and plays like the others
        page.select_option("#ng-variant", "nackgammon")
        page.select_option("#ng-points", "1")
        page.select_option("#ng-opponent", "human")
        page.click("#ng-start")
        page.wait_for_selector('body[data-game="nackgammon"]')
        page.click("#btn-roll")
        st = until_my_move(page)
        move = st["legal_moves"][0]
        for f, t, _h in move["steps"]:
            click(page, f, st["turn"])
            click(page, t, st["turn"])
        confirm(page)
        idle(page)
        assert state(page)["history"][-1]["move"] == move["move"]
    finally:
        unregister_variant(v.name)
