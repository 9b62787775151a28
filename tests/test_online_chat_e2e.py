"""The chat on the online game page in a real browser: two players signed up write to
each other (a message with HTML shows as text), a spectator reads and has no line to
write, a guest's chat is off until he turns it on, and a mute holds."""

from __future__ import annotations

import pytest

from tests.conftest import served, wait_js


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from tavli.online.accounts import FAST
    from tavli.online.app import create_online_app

    folder = tmp_path_factory.mktemp("chat")
    with served(create_online_app(str(folder / "online.sqlite3"), hasher=FAST)) as url:
        yield url


def _page(browser):
    page = browser.new_context(reduced_motion="reduce").new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _signup(page, server, name):
    page.goto(server + "/")
    r = page.evaluate("""async (name) => (await fetch('/api/account/signup', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({username: name, password: 'correct horse'})})).status""", name)
    assert r == 201


def _game(ann, server) -> tuple[str, str]:
    """Ann creates a game over the API: its invitation and watch links."""
    new = ann.evaluate("""async () => (await fetch('/api/online/games', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Ann',
        game: {variant: 'portes', opponent: 'human'}})})).json()""")
    ann.goto(f"{server}/online/{new['id']}#seat={new['token']}")
    return new["invite"], new["watch"]


def _join(page, invite):
    page.goto(invite)
    wait_js(page, "!document.querySelector('#join').hidden")
    page.fill("#join-name", "Bob")
    page.click("#join-go")
    wait_js(page, "document.querySelector('#join').hidden")


def _lines(page):
    return page.evaluate("[...document.querySelectorAll('#chat-log li')].map(l => l.textContent)")


def test_two_players_chat_and_a_spectator_reads(browser, server):
    ann, bob, spec = _page(browser), _page(browser), _page(browser)
    _signup(ann, server, "Ann")
    _signup(bob, server, "Bob")
    invite, watch = _game(ann, server)
    _join(bob, invite)
    spec.goto(watch)
    for p in (ann, bob):
        wait_js(p, "!document.querySelector('#chat-form').hidden")
    wait_js(spec, "document.body.dataset.conn === 'online'")
    assert spec.is_hidden("#chat-form") and spec.is_hidden("#chat-off")
    script = "<b>bold?</b><img src=x onerror=alert(1)>"
    ann.fill("#chat-text", script)
    ann.click("#chat-send")
    for p in (ann, bob, spec):
        wait_js(p, "document.querySelectorAll('#chat-log li').length === 1")
        assert _lines(p) == [f"Ann: {script}"]
        assert p.evaluate("document.querySelectorAll('#chat-log img, #chat-log li b b')"
                          ".length") == 0  # shown as text, not as HTML
    # Bob mutes Ann: her next message does not reach him, his reaches her
    bob.check("#chat-mute")
    wait_js(bob, "document.querySelector('#chat-mute').checked")
    bob.wait_for_timeout(300)
    ann.fill("#chat-text", "are you there?")
    ann.click("#chat-send")
    bob.fill("#chat-text", "bye")
    bob.press("#chat-text", "Enter")
    wait_js(ann, "document.querySelectorAll('#chat-log li').length === 3")
    wait_js(bob, "document.querySelectorAll('#chat-log li').length === 1 && "
                 "document.querySelector('#chat-log li').textContent === 'Bob: bye'")
    assert not (ann.errors or bob.errors or spec.errors)


def test_a_guests_chat_is_off_until_he_turns_it_on(browser, server):
    ann, bob = _page(browser), _page(browser)
    ann.goto(server + "/")
    invite, _ = _game(ann, server)
    _join(bob, invite)
    for p in (ann, bob):
        wait_js(p, "!document.querySelector('#chat-off').hidden")
        assert p.is_hidden("#chat-form")
        p.click("#chat-enable")
        wait_js(p, "!document.querySelector('#chat-form').hidden")
    bob.fill("#chat-text", "hello")
    bob.click("#chat-send")
    wait_js(ann, "document.querySelectorAll('#chat-log li').length === 1")
    assert _lines(ann) == ["Bob: hello"]
    # too long: refused with the server's words, nothing added
    bob.evaluate("document.querySelector('#chat-text').removeAttribute('maxlength')")
    bob.fill("#chat-text", "x" * 301)
    bob.click("#chat-send")
    wait_js(bob, "!document.querySelector('#toast').hidden")
    assert "300" in bob.inner_text("#toast") and len(_lines(bob)) == 1
