"""Dama in the browser app: its games through the API of every game (/api/games) and one
game in a real browser."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tavli.web.app import create_app  # noqa: E402


def dama(rules=None, huffing=None, **body):
    """The request of a new Dama game: the rule set as its ``variant`` (``dama`` the box
    rules), huffing as its rule option."""
    variant = "dama" if rules in (None, "box") else rules
    return {"variant": variant, **({"rules": {"huffing": huffing}} if huffing is not None
                                    else {}), **body}


def new(client, **body):
    r = client.post("/api/games", json=dama(**body))
    assert r.status_code == 201, r.text
    return r.json()


def post(client, gid, what, body=None, status=200):
    r = client.post(f"/api/games/{gid}/{what}", json=body)
    assert r.status_code == status, r.text
    return r.json()


@pytest.mark.parametrize("rules,huffing", [("box", None), ("box", False), ("russian", None),
                                           ("italian", None)])
def test_new_game_each_rule_set(client, rules, huffing):
    st = new(client, rules=rules, huffing=huffing, opponent="human")
    assert st["rules"] == rules
    assert st["huffing"] == (rules == "box" and huffing is None)
    assert st["fen"] == "W:W21-32:B1-12"
    assert st["turn"] == "white" and st["result"] == "*" and not st["over"]
    assert len(st["board"]) == 32
    pieces = [b for b in st["board"] if b["piece"]]
    assert len(pieces) == 24 and all(b["piece"] == "man" for b in pieces)
    assert {b["colour"] for b in st["board"] if b["square"] >= 21} == {"white"}
    assert st["italian_board"] == (rules == "italian")
    assert len(st["legal_moves"]) == 7
    m = st["legal_moves"][0]
    assert set(m) >= {"notation", "path", "captures"}
    assert client.get(f"/api/games/{st['id']}").json()["fen"] == st["fen"]


def test_legal_and_illegal_moves(client):
    st = new(client, rules="russian", opponent="human")
    gid = st["id"]
    st = post(client, gid, "move", {"move": "22-18"})
    assert st["turn"] == "black" and st["last"]["path"] == [22, 18]
    st = post(client, gid, "move", {"path": [11, 15]})
    caps = st["legal_moves"]
    assert [m["notation"] for m in caps] == ["d4:f6"]      # Russian: algebraic (18x11)
    assert caps[0]["captures"] == [15] and caps[0]["path"] == [18, 11]
    before = client.get(f"/api/games/{gid}").json()
    for body, status in [({"move": "23-19"}, 422),        # capture is compulsory
                         ({"move": "22-17"}, 422),        # no piece there
                         ({"move": "zz"}, 422),
                         ({"path": [18, 14]}, 422),
                         ({}, 422),
                         ({"steps": [[18, 11]]}, 422),     # the dice games' field
                         ({"move": "18x11", "path": [18, 11]}, 422),
                         ({"move": "18x11", "side": "black"}, 409)]:
        r = client.post(f"/api/games/{gid}/move", json=body)
        assert r.status_code == status, (body, r.text)
        assert "error" in r.json()
    r = client.post(f"/api/games/{gid}/move", content=b"{not json",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "error" in r.json()
    assert client.get(f"/api/games/{gid}").json()["fen"] == before["fen"]
    st = post(client, gid, "move", {"move": "18x11"})
    assert st["last"]["captures"] == [15]
    assert st["counts"]["black"]["men"] == 11
    # the human may not ask the AI to move for him, nor huff without a right
    post(client, gid, "ai", status=409)
    post(client, gid, "huff", {"square": 22}, status=422)


def test_ai_reply_and_undo(client):
    st = new(client, rules="italian", opponent="ai", level="1", ai_side="black")
    gid = st["id"]
    assert st["to_act"] == "human"
    post(client, gid, "ai", status=409)          # white is the person
    st = post(client, gid, "move", {"move": st["legal_moves"][0]["notation"]})
    assert st["to_act"] == "ai"
    post(client, gid, "move", {"move": st["legal_moves"][0]["notation"]}, status=409)
    st = post(client, gid, "ai")
    assert st["turn"] == "white" and st["plies"] == 2
    assert st["last"]["by"] == "ai" and len(st["last"]["path"]) >= 2
    st = post(client, gid, "undo")
    assert st["plies"] == 0 and st["fen"] == "W:W21-32:B1-12"


def test_huffing(client):
    st = new(client, rules="box", opponent="human")
    gid = st["id"]
    # white declines the capture 22x13 after 22-18 11-15 ... build it: 22-18, 11-15, 24-20
    post(client, gid, "move", {"move": "22-18"})
    post(client, gid, "move", {"move": "11-15"})
    st = post(client, gid, "move", {"move": "24-20"})      # 18x11 declined
    assert st["huff"] == [18]
    st = post(client, gid, "huff", {"square": 18})
    assert st["huff"] == [] and st["turn"] == "black"
    assert not any(b["piece"] for b in st["board"] if b["square"] == 18)
    assert st["history"][-1]["text"] == "*18"


def test_errors(client):
    assert client.get("/api/games/nope").status_code == 404
    assert "error" in client.get("/api/games/nope").json()
    assert client.post("/api/games/nope/move", json={"move": "22-18"}).status_code == 404
    for body in (dama("checkers"), dama(level="godlike"), dama(opponent="robot"),
                 dama("russian", True), dama(bogus=1), dama(huffing="yes"),
                 {"variant": "dama", "rules": {"prime_rule": "forbid"}},
                 dama(seed=1), dama(position="4HPwATDgc/ABMA"), dama(first="white"),
                 dama(points=3)):
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, (body, r.text)
        assert "error" in r.json()
    assert client.get("/api/games").json()["games"] == []


def test_actions_a_game_lacks_are_refused(client):
    """Dama has no dice, cube, match, hints, reviews or records of the dice games; they
    have no huffing and no undo: each is a 422 ``unsupported`` that changes nothing."""
    d = new(client, rules="box", opponent="human")
    for action in ("roll", "double", "take", "drop", "next"):
        r = client.post(f"/api/games/{d['id']}/{action}", json={})
        assert r.status_code == 422 and r.json()["code"] == "unsupported", (action, r.text)
        assert action in r.json()["error"]
    for path in ("hint", "cube-hint", "review", "record"):
        r = client.get(f"/api/games/{d['id']}/{path}")
        assert r.status_code == 422 and r.json()["code"] == "unsupported", (path, r.text)
    assert client.post(f"/api/games/{d['id']}/continue", json={}).status_code == 422
    assert client.get(f"/api/games/{d['id']}").json() == d
    p = client.post("/api/games", json={"variant": "portes", "opponent": "human"}).json()
    for action, body in (("huff", {"square": 18}), ("undo", {})):
        r = client.post(f"/api/games/{p['id']}/{action}", json=body)
        assert r.status_code == 422 and r.json()["code"] == "unsupported", (action, r.text)
    r = client.post(f"/api/games/{p['id']}/move", json={"path": [24, 18]})
    assert r.status_code == 422 and r.json()["code"] == "invalid"
    r = client.post(f"/api/games/{d['id']}/roll", json={}, headers={"X-Tavli-Lang": "de"})
    assert r.json()["error"] == "Dieses Spiel kennt diese Aktion nicht (roll)"


def test_game_over_is_409(client):
    st = new(client, rules="russian", opponent="human")
    gid = st["id"]
    # a short game: black runs into captures until white wins? use a forced line instead:
    s = client.app.state.api.session(gid)
    from tavli.play.dama.game import DamaGame

    s.game = DamaGame("russian", start="B:W22:B")          # black has no piece: over
    st = client.get(f"/api/games/{gid}").json()
    assert st["over"] and st["result"] == "1-0" and st["winner"] == "white"
    assert st["legal_moves"] == []
    post(client, gid, "move", {"move": "1-5"}, status=409)


def test_resume_after_restart(db):
    c1 = TestClient(create_app(db, allowed_hosts=["testserver"]))
    st = new(c1, rules="box", opponent="ai", level="1", ai_side="black")
    gid = st["id"]
    post(c1, gid, "move", {"move": "22-18"})
    st = post(c1, gid, "ai")
    c2 = TestClient(create_app(db, allowed_hosts=["testserver"]))
    again = c2.get(f"/api/games/{gid}").json()
    assert again["fen"] == st["fen"] and again["history"] == st["history"]
    assert again["players"]["black"] == {"type": "ai", "level": "1"}
    listed = c2.get("/api/games", params={"variant": "dama"}).json()["games"]
    assert [(g["id"], g["app"], g["rules"]) for g in listed] == [(gid, "dama", "box")]


# --- the browser -------------------------------------------------------------------------

from conftest import ARTIFACTS, page_at, wait_js  # noqa: E402


@pytest.fixture(scope="module")
def web(server, browser):
    """(base URL, browser): the shared server and chromium fixtures of conftest.py."""
    return server, browser


@pytest.fixture
def page(web):
    base, b = web
    with page_at(b) as pg:
        pg.base = base
        yield pg


def idle(pg):
    wait_js(pg, "document.body.dataset.busy !== '1'")


def test_browser_dama_game(page):
    pg = page
    pg.goto(pg.base + "/")
    pg.wait_for_selector("#dlg-new[open]")
    pg.select_option("#ng-variant", "dama")
    assert pg.is_visible("#ng-dama-rules") and not pg.is_visible("#ng-points")
    pg.select_option("#ng-dama-rules", "russian")
    pg.select_option("#ng-opponent", "ai:beginner")
    pg.click("#ng-start")
    pg.wait_for_selector("#dama-board .piece[data-square='22']")
    assert not pg.is_visible("#board")
    pg.click("#dama-board .piece[data-square='22']")
    pg.wait_for_selector("#dama-board .dest[data-square='18']")
    assert pg.locator("#dama-board .dest").count() == 2          # 22-17, 22-18
    pg.click("#dama-board .dest[data-square='18']")
    # the AI replies: white to move again, two plies in the list
    wait_js(pg, "window.tavli.dama.state().plies === 2"
                         " && document.body.dataset.busy !== '1'")
    assert pg.locator("#dama-history li").count() == 2
    pg.wait_for_selector("#dama-board .piece[data-square='18'].white")
    st = pg.evaluate("window.tavli.dama.state()")
    assert st["turn"] == "white" and st["fen"].startswith("W:")
    assert (st["rules"], st["notation"]) == ("russian", "algebraic")  # the dialog's choice
    pg.click("#dama-board .piece[data-square='18']")   # show its destinations
    pg.screenshot(path=str(ARTIFACTS / "dama-board.png"))
    # a reload resumes the game
    pg.reload()
    pg.wait_for_selector("#dama-board .piece[data-square='18'].white")
    idle(pg)
    assert pg.evaluate("window.tavli.dama.state().plies") == 2


def test_browser_dialog_asks_for_the_box_rules_without_huffing(page):
    pg = page
    pg.goto(pg.base + "/")
    pg.wait_for_selector("#dlg-new[open]")
    pg.select_option("#ng-variant", "dama")
    pg.select_option("#ng-dama-rules", "box-compulsory")
    pg.select_option("#ng-opponent", "human")
    pg.click("#ng-start")
    pg.wait_for_selector("#dama-board .piece[data-square='22']")
    st = pg.evaluate("window.tavli.dama.state()")
    assert (st["rules"], st["huffing"], st["compulsory"]) == ("box", False, True)


def dama_cursor_to(pg, square: int) -> None:
    """Move the Dama board's cursor to `square` with the arrow keys (white at the bottom)."""
    board = {b["square"]: b for b in pg.evaluate("window.tavli.dama.state().board")}
    goal = board[square]
    for _ in range(30):
        at = board[int(pg.get_attribute("#dama-board", "data-cursor"))]
        if at["square"] == square:
            return
        if at["rank"] != goal["rank"]:
            pg.keyboard.press("ArrowUp" if goal["rank"] > at["rank"] else "ArrowDown")
        else:
            pg.keyboard.press("ArrowRight" if goal["file"] > at["file"] else "ArrowLeft")
    raise AssertionError(f"the cursor never reached {square}")


def test_a_dama_move_by_keyboard_only(page):
    """Russian draughts against the AI: B to the board, the arrows, Enter to pick up and
    put down; the live regions say the squares and the move in the players' notation."""
    pg = page
    gid = pg.request.post(pg.base + "/api/games", data=dama(
        "russian", opponent="ai", level="1")).json()["id"]
    pg.goto(f"{pg.base}/?keys#/dama/{gid}")
    pg.wait_for_selector("#dama-board .piece[data-square='22']")
    idle(pg)
    pg.keyboard.press("b")
    assert pg.evaluate("document.activeElement.id") == "dama-board"
    # the cursor starts on a piece that may move
    st = pg.evaluate("window.tavli.dama.state()")
    starts = {m["start"] for m in st["legal_moves"]}
    assert int(pg.get_attribute("#dama-board", "data-cursor")) in starts
    move = next(m for m in st["legal_moves"] if m["path"] == [22, 18])  # c3-d4
    dama_cursor_to(pg, 22)
    assert pg.inner_text("#dama-cursor").startswith("square c3: white man")
    pg.keyboard.press("Escape")                       # nothing picked: nothing happens
    pg.keyboard.press("Enter")
    assert pg.evaluate("window.tavli.dama.D.partial") == [22]
    assert "Picked up the piece on c3" in pg.inner_text("#dama-cursor")
    pg.keyboard.press("Escape")                       # put back, the cursor on it
    assert pg.evaluate("window.tavli.dama.D.partial") == []
    assert pg.get_attribute("#dama-board", "data-cursor") == "22"
    pg.keyboard.press("Space")
    dama_cursor_to(pg, 18)
    assert "press Enter to move here" in pg.inner_text("#dama-cursor")
    pg.screenshot(path=str(ARTIFACTS / "dama-keys-1280.png"))
    pg.keyboard.press("Enter")
    wait_js(pg, "window.tavli.dama.state().plies === 2 && document.body.dataset.busy !== '1'")
    st = pg.evaluate("window.tavli.dama.state()")
    assert st["history"][0]["text"] == move["notation"] == "c3-d4"
    log = pg.inner_text("#dama-live")
    assert f"White played {move['full']}." in log and "Black played" in log
    pg.set_viewport_size({"width": 360, "height": 740})
    pg.keyboard.press("b")
    pg.screenshot(path=str(ARTIFACTS / "dama-keys-360.png"))
    # the help lists Dama's keys; closed, the focus is back on Dama's board
    pg.keyboard.press("?")
    pg.wait_for_selector("#dlg-help[open]")
    assert "dark squares" in pg.inner_text("#dlg-help")
    pg.screenshot(path=str(ARTIFACTS / "dama-keys-help-360.png"))
    pg.keyboard.press("Escape")
    wait_js(pg, "document.activeElement.id === 'dama-board'", 2000)


def test_browser_dama_huff_and_capture(page):
    pg = page
    r = pg.request.post(pg.base + "/api/games", data=dama("box", opponent="human"))
    gid = r.json()["id"]
    for mv in ("22-18", "11-15", "24-20"):           # white declines 18x11
        assert pg.request.post(f"{pg.base}/api/games/{gid}/move", data={"move": mv}).ok
    pg.goto(f"{pg.base}/#/dama/{gid}")
    pg.wait_for_selector("#dama-board .piece.huffable[data-square='18']")
    assert pg.is_visible("#dama-huff")
    pg.screenshot(path=str(ARTIFACTS / "dama-huff.png"))
    pg.click("#dama-board .piece.huffable[data-square='18']")
    wait_js(pg, "window.tavli.dama.state().huff.length === 0")
    idle(pg)
    assert pg.evaluate("window.tavli.dama.state().board[17].piece") is None
    # black moves 15-19, white must/may capture 23x16 by clicking the landing square
    pg.click("#dama-board .piece[data-square='15']")
    pg.click("#dama-board .dest[data-square='19']")
    wait_js(pg, "window.tavli.dama.state().turn === 'white'")
    idle(pg)
    pg.click("#dama-board .piece[data-square='23']")
    pg.wait_for_selector("#dama-board .dest[data-square='16']")
    pg.click("#dama-board .dest[data-square='16']")
    wait_js(pg, "window.tavli.dama.state().turn === 'black'")
    idle(pg)
    st = pg.evaluate("window.tavli.dama.state()")
    assert st["last"]["captures"] == [19] and st["counts"]["black"]["men"] == 11
    assert "captured" in pg.inner_text("#dama-captures")
    assert pg.locator("#dama-history li").count() >= 4


def test_games_list_shows_dama_games_and_opens_them(page):
    pg = page
    r = pg.request.post(pg.base + "/api/games", data=dama("italian", opponent="human"))
    gid = r.json()["id"]
    assert pg.request.post(f"{pg.base}/api/games/{gid}/move", data={"move": "21-17"}).ok
    r = pg.request.post(pg.base + "/api/games", data={"variant": "fevga",
                                                      "opponent": "human"})
    tid = r.json()["id"]
    pg.goto(pg.base + "/")
    pg.wait_for_selector("#dlg-new[open]")
    pg.click("#ng-cancel")
    pg.click("#btn-games")
    pg.wait_for_selector(f"#games-table tr[data-kind='dama'][data-id='{gid}']")
    row = pg.locator(f"#games-table tr[data-id='{gid}']")
    assert "Dama (Italian rules)" in row.inner_text()
    assert pg.locator(f"#games-table tr[data-kind='tavli'][data-id='{tid}']").count() == 1
    pg.screenshot(path=str(ARTIFACTS / "games-list-with-dama.png"))
    row.locator("button.open").click()
    wait_js(pg, f"window.tavli.dama.state() && window.tavli.dama.state().id === '{gid}'")
    idle(pg)
    assert pg.evaluate("window.tavli.dama.state().plies") == 1
    assert pg.is_visible("#dama-board") and not pg.is_visible("#board")
    # and back to the backgammon-family game from the same list
    pg.click("#btn-games")
    pg.locator(f"#games-table tr[data-id='{tid}'] button.open").click()
    pg.wait_for_selector("#board", state="visible")
    idle(pg)
    assert not pg.is_visible("#dama-board")


@pytest.mark.parametrize("level", ["depth:x", "depth:0", "depth:99999", "time:inf",
                                   "time:nan", "time:-1", "time:601", "depth:\u00b2"])
def test_bad_level_refused_at_create(client, level):
    before = client.get("/api/games").json()["games"]
    r = client.post("/api/games", json=dama(level=level, ai_side="white"))
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid" and "level" in r.json()["error"]
    assert client.get("/api/games").json()["games"] == before


def test_good_levels_play(client):
    st = new(client, rules="russian", level=" Depth:2 ", ai_side="white")
    assert st["players"]["white"] == {"type": "ai", "level": "depth:2"}
    st = post(client, st["id"], "ai")
    assert st["turn"] == "black" and st["last"]["by"] == "ai"
    st = new(client, rules="russian", level="time:0.05", ai_side="white")
    assert post(client, st["id"], "ai")["turn"] == "black"


@pytest.mark.parametrize("move", ["9" * 5000 + "-18", "\u00b22-18", "22\u00b2-18",
                                  "\u0662\u0662-\u0661\u0668", "22-" + "1" * 5000])
def test_non_ascii_and_huge_squares_in_moves_are_422(client, move):
    st = new(client, rules="box", opponent="human")
    r = client.post(f"/api/games/{st['id']}/move", json={"move": move})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid" and len(r.json()["error"]) < 200
    assert client.get(f"/api/games/{st['id']}").json()["plies"] == 0


def test_huff_square_text(client):
    st = new(client, rules="box", opponent="human")
    s = client.app.state.api.session(st["id"])
    from tavli.play.dama.game import DamaGame

    s.game = DamaGame("box", start="W:Wc3,g3:Bd4,h8")
    post(client, st["id"], "move", {"move": "g3-h4"})
    for bad in ("\u00b2", "9" * 5000, "zz"):
        r = client.post(f"/api/games/{st['id']}/huff", json={"square": bad})
        assert r.status_code == 422 and r.json()["code"] == "invalid", r.text
    st = post(client, st["id"], "huff", {"square": "c3"})
    assert st["history"][-1]["text"] == "*22"


# --- issue #49: the AI's huffs are said ----------------------------------------------------

#: white's moves in a box game against the AI (black, level 1: it answers the same every
#: time, 10-14 to the first) where white declines the capture 17x10 with 17-13 and the
#: AI huffs the man on 13 before its move 14-18
HUFFED_BY_AI = ("21-17", "17-13")


def test_the_ai_huff_is_said_in_the_state(client):
    st = new(client, rules="box", opponent="ai", level="1", ai_side="black")
    gid = st["id"]
    for mv in HUFFED_BY_AI:
        post(client, gid, "move", {"move": mv})
        st = post(client, gid, "ai")
    assert st["history"][-2:] == [{"side": "black", "text": "*13"},
                                  {"side": "black", "text": "14-18"}]
    last = st["last"]
    assert (last["by"], last["huffed"]) == ("ai", 13)
    assert last["huff_msg"] == {"key": "dama.huffed.ai",
                                "params": {"side": {"key": "side.cap.black", "params": {}},
                                           "square": "13"}}
    # the person's own huff is said too (the state after it has no move)
    st = new(client, rules="box", opponent="human")
    for mv in ("22-18", "11-15", "24-20"):
        post(client, st["id"], "move", {"move": mv})
    st = post(client, st["id"], "huff", {"square": 18})
    assert st["last"]["huff_msg"]["key"] == "dama.huffed"


@pytest.mark.parametrize("locale,size,said", [
    ("en-GB", (390, 844), "Black (AI) huffed the piece on 13: it could have captured"),
    ("el-GR", (1280, 800), "Μαύρα (υπολογιστής): φύσηξαν το κομμάτι στο 13"),
    ("it-IT", (390, 844), "Nero (IA) ha soffiato il pezzo in 13"),
    ("de-DE", (1280, 800), "Schwarz (KI) pustete den Stein auf 13"),
])
def test_browser_the_ai_huff_is_said(web, locale, size, said):
    """The man huffed by the AI does not just vanish: the status line says which and why,
    and the screen reader's line says it with the AI's move."""
    base, b = web
    with page_at(b, *size, locale=locale) as pg:
        r = pg.request.post(base + "/api/games", data=dama("box", opponent="ai", level="1",
                                                           ai_side="black"))
        gid = r.json()["id"]
        assert pg.request.post(f"{base}/api/games/{gid}/move", data={"move": "21-17"}).ok
        assert pg.request.post(f"{base}/api/games/{gid}/ai").ok
        pg.goto(f"{base}/#/dama/{gid}")
        pg.wait_for_selector("#dama-board .piece[data-square='17']")
        idle(pg)
        pg.click("#dama-board .piece[data-square='17']")
        pg.click("#dama-board .dest[data-square='13']")   # declines 17x10
        wait_js(pg, "window.tavli.dama.state().plies === 5", 60000)
        idle(pg)
        assert said in pg.inner_text("#dama-status")
        assert said in pg.inner_text("#dama-live")
        assert pg.evaluate("window.tavli.dama.state().board[12].piece") is None
        pg.screenshot(path=str(ARTIFACTS / f"dama-ai-huff-{locale[:2]}-{size[0]}.png"))
