"""A finished online game's review and files on the game page, in a real browser: the
Review button draws the browser app's review (its chart and its list), a point of the
chart shows its board with the banner, Back returns to the end; the record's download
links (gnubg's files for backgammon only)."""

from __future__ import annotations

import pytest

from tests.conftest import served, wait_js
from tests.test_online_review import play_some


class InlinePool:
    """The engine's work in the server's threads, not in worker processes."""

    workers = 2

    def call(self, fn, *args, timeout=None):
        return fn(*args)

    async def run(self, fn, *args, timeout=None):
        return fn(*args)


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    from tavli.online.app import create_online_app

    app = create_online_app(str(tmp_path_factory.mktemp("rv") / "o.sqlite3"),
                            pool=InlinePool())
    with served(app) as url:
        yield app, url


def _finished(app, variant: str) -> dict:
    """A game of two guests created and played through the service: a few turns, then
    resigned by the side to move."""
    from tavli.web.newgame import NewGame

    games = app.state.games
    new = games.create(NewGame(variant=variant, opponent="human"), name="Ann")
    gid = new.game_id
    tokens = {"white": new.token, "black": new.invite_token}
    games.act(gid, new.invite_token, 1, {"type": "join", "name": "Bob"})
    play_some(games, gid, tokens, 8)
    v = games.view(gid)
    games.act(gid, tokens[v["turn"]], v["seq"] + 1, {"type": "resign", "value": "single"})
    return {"id": gid, "white": new.token}


def test_the_review_of_a_finished_game_on_its_page(browser, app_url):
    app, url = app_url
    done = _finished(app, "backgammon")
    page = browser.new_context(reduced_motion="reduce").new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/online/{done['id']}#seat={done['white']}")
    wait_js(page, "!document.querySelector('#after').hidden")
    assert page.get_attribute("#export-mat", "href").endswith("format=mat")
    assert page.is_visible("#export-sgf") and page.is_visible("#export-json")
    before = page.evaluate("window.tavli.S.sim && JSON.stringify(window.tavli.S.sim)")
    page.click("#btn-review")
    wait_js(page, "!document.querySelector('#review').hidden && "
                  "document.querySelectorAll('#chart circle.pt').length >= 4", 60000)
    assert page.inner_text("#review-summary").strip()
    page.click("#chart circle.pt >> nth=2")
    wait_js(page, "!document.querySelector('#review-banner').hidden")
    assert page.inner_text("#review-banner").strip()
    shown = page.evaluate("JSON.stringify(window.tavli.S.sim)")
    assert shown != before   # the board of that turn, not the end
    page.click("#btn-review-close")
    wait_js(page, "document.querySelector('#review').hidden && "
                  "document.querySelector('#review-banner').hidden")
    assert page.evaluate("JSON.stringify(window.tavli.S.sim)") == before
    r = page.request.get(url + page.get_attribute("#export-mat", "href"))
    assert r.ok and "attachment" in r.headers["content-disposition"]
    assert not errors, errors


def test_a_portes_game_offers_its_record_only(browser, app_url):
    app, url = app_url
    done = _finished(app, "portes")
    page = browser.new_context(reduced_motion="reduce").new_page()
    page.goto(f"{url}/online/{done['id']}")   # a spectator: the review is for anyone
    wait_js(page, "!document.querySelector('#after').hidden")
    assert page.is_hidden("#export-mat") and page.is_hidden("#export-sgf")
    assert page.is_visible("#btn-review")


def test_a_review_position_shows_no_marks_of_the_last_move(browser, app_url):
    """Issue #49: the review's first position (the start, before any move) drew the rings
    of the game's last move on empty points; as in tavli play, a review position shows
    none of the game's last moves, and closing the review brings them back."""
    app, url = app_url
    done = _finished(app, "portes")
    page = browser.new_context(reduced_motion="reduce").new_page()
    page.goto(f"{url}/online/{done['id']}#seat={done['white']}")
    wait_js(page, "!document.querySelector('#after').hidden")
    marks = "document.querySelectorAll('#board .last-move circle').length"
    assert page.evaluate(marks) > 0   # the end: the last moves are marked
    page.click("#btn-review")
    wait_js(page, "document.querySelectorAll('#chart circle.pt').length >= 4", 60000)
    page.click("#chart circle.pt >> nth=0")
    wait_js(page, "!document.querySelector('#review-banner').hidden")
    assert page.evaluate(marks) == 0
    page.click("#chart circle.pt >> nth=3")
    wait_js(page, "document.querySelector('#review-banner').dataset.index === '3'")
    assert page.evaluate(marks) == 0
    page.click("#btn-review-close")
    wait_js(page, "document.querySelector('#review').hidden")
    assert page.evaluate(marks) > 0
