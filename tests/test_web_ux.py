"""The browser app's API for issue 15's player-facing changes: Dama undo after the end,
practice games, the paged games list, rematches, the last move of each side in the
viewer's numbering, the opening message and rolls written higher die first."""

from __future__ import annotations

import re

import pytest

from tavli.engine.board import Position
from tavli.engine.games import find_variant
from tavli.play.dama.game import DamaGame

# a Russian draughts game that ends in 27 plies: white takes every black piece
SHORT_DAMA = ["21-17", "10-14", "17x10", "6x15", "22-17", "9-14", "17x10x19", "11-15",
              "19x10", "7x14", "23-18", "14x23", "26x19", "12-16", "19x12", "3-7",
              "12x3x21", "2-7", "21x3", "4-8", "3x12", "1-6", "12-8", "5-9", "8-3", "6-10",
              "3x14x5"]


def new(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def post(client, gid, what, body=None, status=200):
    r = client.post(f"/api/games/{gid}/{what}", json=body) if body is not None else \
        client.post(f"/api/games/{gid}/{what}")
    assert r.status_code == status, r.text
    return r.json()


def error(r, status, code=None):
    assert r.status_code == status, r.text
    body = r.json()
    assert isinstance(body["error"], str) and body["error"]
    if code is not None:
        assert body["code"] == code, body
    return body


def dama(rules, **body):
    """The request of a new Dama game under ``rules``."""
    return {"variant": "dama" if rules == "box" else rules, **body}


def finished_dama(client, players="human"):
    r = client.post("/api/games", json=dama("russian", opponent=players))
    st = r.json()
    for mv in SHORT_DAMA:
        r = client.post(f"/api/games/{st['id']}/move", json={"move": mv})
        assert r.status_code == 200, (mv, r.text)
        st = r.json()
    assert st["over"] and st["winner"] == "white"
    return st


def test_the_short_dama_game_really_ends():
    g = DamaGame("russian")
    for mv in SHORT_DAMA:
        g.play(mv)
    assert g.is_over() and g.result == "1-0"


# --- 1. Dama: a finished game is not undone --------------------------------------------------

def test_finished_dama_game_cannot_be_undone(client):
    st = finished_dama(client)
    error(client.post(f"/api/games/{st['id']}/undo", json={}), 409, "game_over")
    again = client.get(f"/api/games/{st['id']}").json()
    assert again["over"] and again["plies"] == len(SHORT_DAMA) and again["fen"] == st["fen"]
    status = client.get("/api/games").json()["games"][0]["status"]
    assert status == "over"


# --- 2. practice games --------------------------------------------------------------------

@pytest.mark.parametrize("body,practice", [
    ({"variant": "portes"}, False),
    ({"variant": "portes", "seed": 3}, True),
    ({"variant": "portes", "first": "black"}, True),
    ({"variant": "portes", "position": Position.from_points("portes", {1: 2}, {1: 2}).id()},
     True),
    ({"variant": "tavli", "points": 3, "seed": 9}, True),
    ({"variant": "portes", "seed": 3, "opponent": "human"}, False),
    ({"variant": "fevga", "first": "white", "opponent": "human"}, False),
])
def test_fixed_dice_or_start_against_the_ai_is_practice(client, body, practice):
    st = new(client, **body)
    assert st["practice"] is practice
    assert st["title"].endswith("(practice)") is practice
    listed = client.get("/api/games").json()["games"]
    assert [(g["id"], g["practice"], g["title"]) for g in listed] == \
        [(st["id"], practice, st["title"])]


def test_dama_takes_no_seed_or_position(client):
    for field, value in (("seed", 1), ("position", "4HPwATDgc/ABMA"), ("first", "white"),
                         ("points", 3)):
        body = error(client.post("/api/games", json=dama("box", **{field: value})), 422,
                     "invalid")
        assert field in body["error"]
    assert client.get("/api/games").json()["total"] == 0


# --- 3. the games list: pages, filters, delete -----------------------------------------------

def test_games_list_pages_and_filters(client):
    made = [new(client, variant=v, opponent="human") for v in
            ("portes", "fevga", "portes", "backgammon", "plakoto")]
    over = new(client, variant="backgammon", opponent="human", first="white")
    post(client, over["id"], "double")
    post(client, over["id"], "drop")
    ids = [g["id"] for g in reversed(made + [over])]   # newest first
    out = client.get("/api/games", params={"limit": 2}).json()
    assert out["total"] == 6 and out["limit"] == 2 and out["offset"] == 0
    assert [g["id"] for g in out["games"]] == ids[:2]
    pages = [client.get("/api/games", params={"limit": 4, "offset": o}).json()["games"]
             for o in (0, 4, 8)]
    assert [g["id"] for p in pages for g in p] == ids and pages[2] == []
    out = client.get("/api/games", params={"variant": "portes"}).json()
    assert out["total"] == 2 and {g["variant"] for g in out["games"]} == {"portes"}
    out = client.get("/api/games", params={"status": "over"}).json()
    assert [g["id"] for g in out["games"]] == [over["id"]] and out["total"] == 1
    out = client.get("/api/games", params={"q": "FEVGA"}).json()
    assert [g["id"] for g in out["games"]] == [made[1]["id"]]
    out = client.get("/api/games", params={"q": "100%_"}).json()
    assert out == {"games": [], "total": 0, "limit": 200, "offset": 0}
    out = client.get("/api/games", params={"variant": "backgammon", "status": "playing"})
    assert [g["id"] for g in out.json()["games"]] == [made[3]["id"]]


@pytest.mark.parametrize("path", ["/api/games"])
@pytest.mark.parametrize("params,word", [
    ({"limit": 0}, "limit"), ({"limit": 201}, "limit"), ({"limit": "ten"}, "limit"),
    ({"offset": -1}, "offset"), ({"offset": "1e3"}, "offset"),
    ({"offset": 10 ** 30}, "offset"), ({"status": "paused"}, "status"),
    ({"q": "x" * 101}, "q"), ({"q": "a\x00b"}, "q"),
])
def test_games_list_bad_query_is_422(client, path, params, word):
    body = error(client.get(path, params=params), 422, "invalid")
    assert word in body["error"]


def test_games_list_bad_variant_is_422(client):
    assert "variant" in error(client.get("/api/games", params={"variant": "chess"}),
                              422)["error"]


def test_the_list_holds_both_kinds_and_dama_is_paged(client):
    a = new(client, variant="portes", opponent="human")
    d1 = new(client, **dama("italian", opponent="human"))
    b = new(client, variant="fevga", opponent="human")
    d2 = new(client, **dama("box", opponent="human"))
    out = client.get("/api/games", params={"limit": 3}).json()
    assert out["total"] == 4
    assert [(g["id"], g["app"]) for g in out["games"]] == \
        [(d2["id"], "dama"), (b["id"], "tavli"), (d1["id"], "dama")]
    rest = client.get("/api/games", params={"limit": 3, "offset": 3}).json()["games"]
    assert [g["id"] for g in rest] == [a["id"]]
    listed = client.get("/api/games", params={"variant": "dama"}).json()
    assert [g["title"] for g in listed["games"]] == ["Dama (Box rules, huffing)",
                                                     "Dama (Italian rules)"]
    out = client.get("/api/games", params={"q": "italian"}).json()
    assert [g["id"] for g in out["games"]] == [d1["id"]]
    out = client.get("/api/games", params={"variant": "dama", "limit": 1, "offset": 1}).json()
    assert out["total"] == 2 and [g["id"] for g in out["games"]] == [d1["id"]]
    assert out["games"][0]["rules"] == "italian" and out["games"][0]["huffing"] is False


def test_delete_a_dama_game(client):
    d = new(client, **dama("russian", opponent="human"))
    assert client.delete(f"/api/games/{d['id']}").status_code == 204
    error(client.get(f"/api/games/{d['id']}"), 404)
    error(client.delete(f"/api/games/{d['id']}"), 404)
    assert client.get("/api/games").json()["total"] == 0


# --- 4. rematch -------------------------------------------------------------------------------

def _bear_off_position():
    # white to move with one checker on its 1-point: any roll ends the game
    return Position.from_points("portes", {1: 1}, {6: 1}, turn=0).id()


def test_rematch_against_the_ai_keeps_sides_level_and_start(client):
    st = new(client, variant="portes", position=_bear_off_position(), seed=2,
             ai_side="black", level="beginner")
    gid = st["id"]
    error(client.post(f"/api/games/{gid}/rematch"), 409, "not_over")
    st = post(client, gid, "roll")
    st = post(client, gid, "move", {"move": st["legal_moves"][0]["move"]})
    assert st["phase"] == "over" and st["winner"] == "white"
    r = client.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 201, r.text
    again = r.json()
    assert again["id"] != gid and again["variant"] == "portes"
    assert again["players"]["black"]["type"] == "ai"
    assert again["players"]["black"]["level"] == "beginner"
    assert again["players"]["white"]["type"] == "human"
    assert again["position_id"] == _bear_off_position() and again["phase"] == "roll"
    assert again["practice"] and again["title"] == st["title"]
    # the old game is untouched
    assert client.get(f"/api/games/{gid}").json()["phase"] == "over"
    assert client.get("/api/games").json()["total"] == 2


def test_rematch_of_a_match_keeps_length_and_rules(client):
    st = new(client, variant="backgammon", points=2, opponent="human",
             rules={"crawford": False})
    gid = st["id"]
    for _ in range(2):
        if st["phase"] == "over":
            st = post(client, gid, "next")
        if st["phase"] == "opening":
            st = post(client, gid, "roll")
            st = post(client, gid, "move", {"move": st["legal_moves"][0]["move"]})
        error(client.post(f"/api/games/{gid}/rematch"), 409, "not_over")
        st = post(client, gid, "double")
        st = post(client, gid, "drop")
    assert st["finished"]
    again = post(client, gid, "rematch", status=201)
    assert again["kind"] == "match" and again["target"] == 2
    assert again["rules"]["crawford"] is False and again["game_number"] == 1
    assert not again["practice"] and again["score"] == {"white": 0, "black": 0}
    assert all(p["type"] == "human" for p in again["players"].values())


def test_rematch_refusals(client):
    error(client.post("/api/games/nope/rematch"), 404)
    st = new(client, variant="portes", opponent="human")
    error(client.post(f"/api/games/{st['id']}/rematch", json={"x": 1}), 422, "invalid")
    error(client.post(f"/api/games/{st['id']}/rematch", content=b"{no",
                      headers={"Content-Type": "application/json"}), 400)
    assert client.get("/api/games").json()["total"] == 1


def test_dama_rematch(client):
    d = new(client, variant="dama", rules={"huffing": False},
            opponent="ai", ai_side="white", level="beginner")
    error(client.post(f"/api/games/{d['id']}/rematch", json={}), 409, "not_over")
    st = finished_dama(client)
    again = client.post(f"/api/games/{st['id']}/rematch", json={})
    assert again.status_code == 201, again.text
    again = again.json()
    assert again["id"] != st["id"] and again["plies"] == 0 and not again["over"]
    assert again["rules"] == "russian" and again["players"] == st["players"]
    # the AI's side and level and the box rules' capture rule are kept
    s = client.app.state.api.session(d["id"])
    s.game = DamaGame("box", huffing=False, start="B:W22:B")
    again = client.post(f"/api/games/{d['id']}/rematch").json()
    assert again["rules"] == "box" and again["huffing"] is False
    assert again["players"]["white"] == {"type": "ai", "level": "1"}


# --- 5, 6. the last move of each side, in the viewer's numbering ------------------------------

def _seen(text, game, flip):
    """Move text with every point renumbered for the other side (test's own mapping)."""
    if not flip:
        return text
    return re.sub(r"\d+", lambda m: str(find_variant(game).opponent_point(int(m.group()))), text)


def test_last_moves_of_both_sides_two_players(client):
    st = new(client, variant="portes", opponent="human", seed=7, first="white")
    gid = st["id"]
    assert st["last_moves"] == {"white": None, "black": None}
    st = post(client, gid, "roll")
    st = post(client, gid, "move", {"move": "24/18 13/9"} if st["dice_text"] == "6-4"
              else {"move": st["legal_moves"][0]["move"]})
    white = st["last_moves"]["white"]
    assert st["last_moves"]["black"] is None
    assert white["move"] == st["history"][-1]["move"] and white["turn"] == 1
    assert white["side"] == "white" and white["steps"]
    assert set(white["from"]) == {f for f, _t, _h in white["steps"]} - {
        t for _f, t, _h in white["steps"]}
    # two players: the side to act (black) reads the board and the move in its numbering
    assert st["numbering"] == "black"
    assert white["shown"] == _seen(white["move"], 0, True)
    st = post(client, gid, "roll")
    st = post(client, gid, "move", {"move": st["legal_moves"][-1]["move"]})
    lm = st["last_moves"]
    assert lm["white"] == {**white, "shown": white["move"]}   # white's own numbering now
    assert lm["black"]["turn"] == 2 and lm["black"]["move"] == st["history"][-1]["move"]
    assert lm["black"]["shown"] == _seen(lm["black"]["move"], 0, True)


def test_ai_move_shown_in_the_players_numbering(client):
    for variant, game in (("portes", 0), ("fevga", 2)):
        st = new(client, variant=variant, seed=5, first="black", ai_side="black")
        gid = st["id"]
        while st["ai_to_act"]:
            st = post(client, gid, "ai")
        black = st["last_moves"]["black"]
        assert st["numbering"] == "white" and black["move"]
        assert black["shown"] == _seen(black["move"], game, True) != black["move"]
        # the points it reached, as the page marks them: on the board where white sees
        # them (the AI's 'to' mapped to white's numbering)
        assert black["to"] and all(0 <= p <= 25 for p in black["to"] + black["from"])


def test_fevga_move_seen_by_the_other_side():
    pos = Position.start("fevga")
    m = pos.find_move("24/16", (6, 2))
    assert m.seen_by(1) == "12/4" and m.seen_by(0) == "24/16"
    m = Position.from_points("fevga", {13: 2, 1: 13}, {24: 15}).find_move("13/9 13/11",
                                                                         (4, 2))
    assert m.seen_by(1) == "1/21 1/23"


def test_pass_is_a_last_move_without_steps(client):
    black = {p: 2 for p in range(1, 7)}
    black[13] = 3
    pos = Position.from_points("portes", {25: 1, 13: 14}, black, turn=0)
    st = new(client, variant="portes", opponent="human", position=pos.id(), seed=3)
    st = post(client, st["id"], "roll")
    w = st["last_moves"]["white"]
    assert w["pass"] and w["steps"] == [] and w["move"] == "" and w["to"] == []
    d = w["dice"]
    assert w["dice_text"] == f"{max(d)}-{min(d)}"
    assert f"cannot move with {max(d)}-{min(d)}" in st["message"]
    assert st["last"]["dice_text"] == w["dice_text"]


# --- 7. the opening message ---------------------------------------------------------------

@pytest.mark.parametrize("variant,rules,reroll", [
    ("portes", None, True), ("plakoto", None, True), ("fevga", None, True),
    ("backgammon", None, False), ("backgammon", {"opening_reroll": True}, True),
    ("portes", {"opening_reroll": False}, False),
])
def test_opening_message_matches_the_dice(client, variant, rules, reroll):
    for seed in range(12):
        body = {"variant": variant, "opponent": "human", "seed": seed}
        if rules:
            body["rules"] = rules
        st = post(client, new(client, **body)["id"], "roll")
        w, b = st["opening"]
        starter = "white" if w > b else "black"
        assert st["turn"] == starter and st["last"]["kind"] == "opening"
        d = st["dice"]
        text = st["opening_text"]
        assert text.startswith("Opening throw: ") and text in st["message"]
        assert f"white {w}, black {b} — {starter} starts" in text
        assert text.endswith(f"{max(d)}-{min(d)}.")
        if reroll:
            assert " and rolls " in text
        else:
            assert f" with {max(d)}-{min(d)}." in text and sorted(d) == sorted((w, b))
        ties = len([e for e in st["history"] if "opening" in e]) - 1
        assert text.count("a tie: thrown again") == ties


def test_the_reported_case_reads_right(client):
    # seed 1: the opening throw is white 2, black 5, then black's new roll is 1-3
    st = post(client, new(client, variant="portes", opponent="human", seed=1)["id"], "roll")
    assert st["opening"] == [2, 5] and st["dice"] == [1, 3]
    assert st["opening_text"] == "Opening throw: white 2, black 5 — black starts and rolls 3-1."


# --- 8. rolls written higher die first ------------------------------------------------------

def test_rolls_are_written_higher_die_first(client):
    st = new(client, variant="portes", opponent="human", seed=7)
    st = post(client, st["id"], "roll")
    assert st["dice"] == [4, 6]                 # drawn by the engine low die first
    assert st["dice_text"] == "6-4" and st["message"].endswith("White to move 6-4.")
    r = client.post(f"/api/games/{st['id']}/move", json={"steps": [[24, 23]]})
    assert error(r, 422)["error"].endswith("is not a legal move with 6-4")
    st = post(client, st["id"], "move", {"move": st["legal_moves"][0]["move"]})
    assert st["history_text"][-1].startswith("white 6-4: ")
    assert st["history_text"][0] == "opening throw: white 3, black 2"
    assert len(st["history_text"]) == len(st["history"])
