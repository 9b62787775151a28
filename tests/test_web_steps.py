"""The steps of a turn as the page gets them (tavli/web/steps.py, docs/web.md): the turn
tree has exactly the legal moves as its complete nodes and only the partial orders the
engine's single-step rules allow, with the engine's boards; the last move comes with its
boards step by step; the state says how the sides number the points; the list of games
and the request models come from the registry; the page's script holds no rule."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from test_toy_variant import Nackgammon

from tavli.engine.board import Position
from tavli.engine.games import (
    VARIANTS,
    find_variant,
    game_names,
    match_kinds,
    register_variant,
    unregister_variant,
)
from tavli.engine.movegen import OK, apply_step, step_code
from tavli.play.game import Game
from tavli.web.steps import board_text, last_frames, move_frames, turn_tree

STATIC = Path(__file__).parent.parent / "tavli" / "web" / "static"


def board(text: str) -> np.ndarray:
    """A node's board as the page reads it: hex digits, 26 a row, missing ones 0."""
    digits = [int(c, 16) for c in text] + [0] * (104 - len(text))
    return np.array(digits, dtype=np.int8).reshape(4, 26)


def orders(pos: Position, dice, legal):
    """Independently of the tree's search (by brute force, no merging): every sequence of
    single steps the engine's rule allows die by die, in every order of the dice, that
    ends on the position of a legal move. Returns {multiset: board bytes} of their
    prefixes, the edges (parent, step, child) and {multiset: index of its legal move}."""
    kernel, me = pos.variant.kernel, pos.turn
    d1, d2 = dice
    all_dice = [d1] * 4 if d1 == d2 else [d1, d2]
    finals = {m.after.array.tobytes(): i for i, m in reversed(list(enumerate(legal)))}
    length = len(legal[0].steps) if legal else 0
    boards: dict[tuple, bytes] = {(): pos.array.tobytes()}
    edges: set[tuple] = set()
    complete: dict[tuple, int] = {}

    def walk(arr, rem, trail):
        if len(trail) == length:
            if arr.tobytes() in finals:
                key = trail[-1][2] if trail else ()
                assert complete.setdefault(key, finals[arr.tobytes()]) == finals[arr.tobytes()]
                for parent, step, child, b in trail:
                    assert boards.setdefault(child, b) == b  # one board per multiset
                    edges.add((parent, step, child))
            return
        key = trail[-1][2] if trail else ()
        for k, d in enumerate(rem):
            for src in range(1, 26):
                if step_code(arr, me, src, d, kernel) != OK:
                    continue
                after = np.array(arr)
                apply_step(after, me, src, d, kernel)
                step = (src, max(src - d, 0))
                child = tuple(sorted((*key, step), reverse=True))
                walk(after, rem[:k] + rem[k + 1:],
                     [*trail, (key, step, child, after.tobytes())])

    walk(np.array(pos.array), all_dice, [])
    return boards, edges, complete


def keyset(text: str) -> tuple:
    if not text:
        return ()
    return tuple(sorted((tuple(int(x) for x in s.split("/")) for s in text.split()),
                        reverse=True))


def check_tree(pos: Position, dice, rules=None) -> dict:
    legal = pos.legal_moves(dice, rules)
    tree = turn_tree(pos, dice, legal)
    nodes = tree["nodes"]
    root = nodes[0]
    assert root["key"] == "" and board(root["board"]).tobytes() == pos.array.tobytes()
    assert root["dice"] == tree["dice"] == sorted(tree["dice"], reverse=True)
    # the complete nodes are exactly the legal moves, with the engine's final boards: each
    # move's own steps make one; other orders may reach its position too (7/6 6/off for
    # 7/1 1/off)
    complete = [n for n in nodes if "move" in n]
    assert {n["move"] for n in complete} == set(range(len(legal)))
    for n in complete:
        assert board(n["board"]).tobytes() == legal[n["move"]].after.array.tobytes()
        assert n["next"] == [] and n["dice"] == tree["dice"][len(legal[n["move"]].steps):]
    for i, m in enumerate(legal):
        own = [n for n in complete
               if Counter(keyset(n["key"])) == Counter((f, t) for f, t, _h in m.steps)]
        assert [n["move"] for n in own] == [i]
    # every partial node goes on; each step uses one die of those left
    for n in nodes:
        assert n["next"] or "move" in n or (n is root and not legal)
        for f, t, c in n["next"]:
            child = nodes[c]
            assert Counter(keyset(child["key"])) == Counter(keyset(n["key"])) + Counter([(f, t)])
            assert len(child["dice"]) == len(n["dice"]) - 1
            assert not Counter(child["dice"]) - Counter(n["dice"])
    # only (and all) the partial orders the rules allow, with the engine's boards
    want_boards, want_edges, want_complete = orders(pos, dice, legal)
    got = {keyset(n["key"]): board(n["board"]).tobytes() for n in nodes}
    assert got == want_boards
    assert {(keyset(n["key"]), (f, t), keyset(nodes[c]["key"]))
            for n in nodes for f, t, c in n["next"]} == want_edges
    assert {keyset(n["key"]): n["move"] for n in complete} == want_complete
    return tree


def at(tree: dict, *steps) -> dict:
    """The node reached from the root by ``steps`` in that order (KeyError if not)."""
    n = tree["nodes"][0]
    for f, t in steps:
        nxt = {(a, b): c for a, b, c in n["next"]}
        if (f, t) not in nxt:
            raise KeyError(f"{f}/{t} is not offered after {n['key']!r}")
        n = tree["nodes"][nxt[(f, t)]]
    return n


def sources(node: dict) -> set[int]:
    return {f for f, _t, _c in node["next"]}


# --- the scenes (also played in the browser: tests/test_web_steps_e2e.py) -------------------
PORTES_HIT = Position.from_points("portes", {24: 2, 13: 5, 8: 3, 6: 5},
                                  {24: 2, 13: 5, 8: 3, 6: 4, 5: 1})
PLAKOTO_PIN = Position.from_points("plakoto", {24: 13, 8: 1, 6: 1}, {24: 14, 20: 1})
BG_BAR = Position.from_points("backgammon", {25: 1, 24: 1, 13: 5, 8: 3, 6: 5},
                              {24: 2, 13: 5, 8: 3, 6: 5})
BG_OFF = Position.from_points("backgammon", {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {13: 15})


@pytest.mark.parametrize("pos,dice", [
    (Position.start("portes"), (3, 1)),
    (Position.start("portes", 1), (6, 5)),
    (Position.start("portes"), (3, 3)),             # a double
    (Position.start("backgammon"), (2, 2)),
    (Position.start("plakoto"), (6, 4)),
    (Position.start("plakoto"), (1, 1)),
    (Position.start("fevga"), (5, 3)),              # the first checker
    (Position.start("fevga", 1), (4, 4)),
    (PORTES_HIT, (4, 2)),
    (PLAKOTO_PIN, (3, 2)),
    (BG_BAR, (5, 3)),
    (BG_OFF, (6, 4)),
    (BG_OFF, (2, 2)),
    (Position.from_points("portes", {3: 1, 2: 1}, {13: 15}), (6, 5)),   # off with either die
    (Position.from_points("portes", {7: 1, 6: 2, 5: 12}, {13: 15}), (6, 1)),
])
def test_the_tree_holds_exactly_the_legal_orders(pos, dice):
    check_tree(pos, dice)


def test_a_hit_sends_the_blot_to_the_bar():
    tree = check_tree(PORTES_HIT, (4, 2))
    hit = board(at(tree, (24, 20))["board"])
    assert hit[1, 25] == 1 and hit[1, 5] == 0 and hit[0, 20] == 1
    assert board(at(tree, (24, 22))["board"])[1, 25] == 0


def test_a_pin_and_its_release_in_plakoto():
    tree = check_tree(PLAKOTO_PIN, (3, 2))
    pinned = board(at(tree, (8, 5))["board"])
    assert pinned[0, 5] == 1 and pinned[1, 20] == 1 and pinned[3, 20] == 1  # black's 20 pinned
    released = at(tree, (8, 5), (5, 3))
    assert board(released["board"])[3].sum() == 0 and board(released["board"])[0, 3] == 1
    assert released["move"] is not None and released["dice"] == []
    # the pinned checker itself cannot move: black's point 20 is no source for black
    # (here white moves), and a pinning checker may leave: 5 is a source after 8/5
    assert 5 in sources(at(tree, (8, 5)))


def test_the_bar_first():
    tree = check_tree(BG_BAR, (5, 3))
    assert sources(tree["nodes"][0]) == {25}
    assert {t for _f, t, _c in tree["nodes"][0]["next"]} == {20, 22}
    assert sources(at(tree, (25, 22))) == {13, 8}   # entered: then the others (24/19 blocked)


def test_bearing_off_only_with_all_home():
    pos = Position.from_points("portes", {7: 1, 6: 2, 5: 12}, {13: 15})
    tree = check_tree(pos, (6, 1))
    root = tree["nodes"][0]
    assert all(t != 0 for _f, t, _c in root["next"])
    # home, the checker goes on: 7/6 6/off is the engine's 7/1 1/off (one position)
    done = at(tree, (7, 6), (6, 0))
    move = pos.legal_moves((6, 1))[done["move"]]
    assert str(move) == "7/off" and move.steps == ((7, 1, False), (1, 0, False))
    assert at(tree, (7, 1), (1, 0))["move"] == done["move"]
    off = check_tree(BG_OFF, (6, 4))
    assert (6, 0) in {(f, t) for f, t, _c in off["nodes"][0]["next"]}


def test_fevga_first_checker_goes_alone():
    tree = check_tree(Position.start("fevga"), (5, 3))
    assert sources(tree["nodes"][0]) == {24}
    assert sources(at(tree, (24, 19))) == {19}       # the others wait until it passes
    assert at(tree, (24, 19), (19, 16))["move"] == 0
    # either die first: the engine writes 24/19/16, the 3 first is the same move
    assert at(tree, (24, 21), (21, 16))["move"] == 0


def test_a_double_counts_down_four_dice():
    tree = check_tree(Position.start("portes"), (3, 3))
    assert tree["dice"] == [3, 3, 3, 3]
    assert at(tree, (24, 21), (21, 18))["dice"] == [3, 3]
    # the same multiset in any order is one node
    assert at(tree, (24, 21), (13, 10)) is at(tree, (13, 10), (24, 21))


def test_a_checker_borne_off_with_the_larger_die_leaves_the_larger_shown():
    tree = check_tree(Position.from_points("portes", {3: 1, 2: 1}, {13: 15}), (6, 5))
    assert at(tree, (3, 0))["dice"] == [6]


def test_a_pass_has_a_root_without_steps():
    closed = Position.from_points("backgammon", {25: 1, 13: 14}, {6: 2, 5: 2, 4: 2, 3: 2,
                                                                    2: 2, 1: 2, 13: 3})
    tree = turn_tree(closed, (6, 5), closed.legal_moves((6, 5)))
    assert [n["key"] for n in tree["nodes"]] == [""] and tree["nodes"][0]["next"] == []


def test_move_frames_leave_no_garbage_for_the_collector():
    """Each move an online server shows is replayed step by step: what that makes must be
    freed by reference counting, not left in cycles (they stopped a server's event loop
    for a third of a second when collected; tavli.online.serve.quieter_gc)."""
    import gc

    move = PLAKOTO_PIN.find_move("8/3", (3, 2))
    steps = [list(s) for s in move.steps]
    move_frames(PLAKOTO_PIN, (3, 2), steps)  # a first call fills caches once
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        for _ in range(20):
            move_frames(PLAKOTO_PIN, (3, 2), steps)
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


def test_move_frames_replay_the_steps():
    pos = Position.start("plakoto")
    move = PLAKOTO_PIN.find_move("8/3", (3, 2))
    frames = move_frames(PLAKOTO_PIN, (3, 2), [list(s) for s in move.steps])
    tree = turn_tree(PLAKOTO_PIN, (3, 2), PLAKOTO_PIN.legal_moves((3, 2)))
    assert [f["board"] for f in frames] == [
        at(tree, *[(f, t) for f, t, _h in move.steps[:k]])["board"]
        for k in range(len(move.steps) + 1)]
    assert [f["dice"] for f in frames] == [[3, 2], [2], []]
    with pytest.raises(ValueError):
        move_frames(pos, (3, 2), [[8, 5]])     # no checker there at the start
    # a stored last move that does not replay: no frames, the state still answers
    last = {"kind": "move", "dice": [3, 2], "steps": [[8, 5, True]], "before": pos.to_json()}
    assert last_frames(last) is None
    assert last_frames({**last, "before": PLAKOTO_PIN.to_json()})[1]["dice"] == [2]


# --- the state ------------------------------------------------------------------------------
def new(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def seed_for(pos: Position, dice) -> int:
    for s in range(5000):
        g = Game(pos.game_name, seed=s, position=pos)
        g.roll()
        if sorted(g.dice) == sorted(dice):
            return s
    raise AssertionError("no seed")


def test_state_carries_the_tree_for_a_person_only(client):
    st = new(client, variant="plakoto", position=PLAKOTO_PIN.id(),
             seed=seed_for(PLAKOTO_PIN, (3, 2)))
    assert st["phase"] == "roll" and st["turn_tree"] is None
    st = client.post(f"/api/games/{st['id']}/roll").json()
    tree = st["turn_tree"]
    assert tree == turn_tree(PLAKOTO_PIN, (3, 2), PLAKOTO_PIN.legal_moves((3, 2)))
    assert [m["move"] for m in st["legal_moves"]] == [
        str(m) for m in PLAKOTO_PIN.legal_moves((3, 2))]
    done = at(tree, (8, 5), (5, 3))
    assert st["legal_moves"][done["move"]]["move"] == "8/3"
    st = client.post(f"/api/games/{st['id']}/move", json={"steps": [[8, 5], [5, 3]]}).json()
    assert st["ai_to_act"] and st["turn_tree"] is None            # the AI rolls next
    st = client.post(f"/api/games/{st['id']}/ai").json()
    assert st["phase"] == "move" and st["ai_to_act"]              # the AI's dice: root only
    assert [n["key"] for n in st["turn_tree"]["nodes"]] == [""]
    assert st["turn_tree"]["nodes"][0]["next"] == []
    assert st["turn_tree"]["dice"] == sorted(st["dice"] * (4 if st["dice"][0] == st["dice"][1]
                                                           else 1), reverse=True)


def test_the_last_move_comes_with_its_boards(client):
    st = new(client, variant="portes", position=PORTES_HIT.id(), opponent="human",
             seed=seed_for(PORTES_HIT, (4, 2)))
    st = client.post(f"/api/games/{st['id']}/roll").json()
    tree = st["turn_tree"]
    move = next(m for m in st["legal_moves"] if m["steps"][0][:2] == [24, 20])
    st = client.post(f"/api/games/{st['id']}/move", json={"move": move["move"]}).json()
    frames = st["last"]["frames"]
    steps = [(f, t) for f, t, _h in st["last"]["steps"]]
    assert [f["board"] for f in frames] == [at(tree, *steps[:k])["board"]
                                           for k in range(len(steps) + 1)]
    after = Position.from_json(st["position"])
    assert board(frames[-1]["board"]).tobytes() == after.array.tobytes()
    assert board(frames[1]["board"])[1, 25] == 1                    # the hit, on the way
    assert frames[0]["dice"] == [4, 2] and frames[-1]["dice"] == []
    assert st["last_moves"]["white"]["frames"] == frames
    assert st["last"]["before"] == PORTES_HIT.to_json()


@pytest.mark.parametrize("variant", game_names())
def test_state_says_how_the_sides_number_the_points(client, variant):
    st = new(client, variant=variant, opponent="human")
    v = find_variant(variant)
    assert st["opposite"] == [0] + [v.opponent_point(p) for p in range(1, 25)]
    if variant == "fevga":
        assert st["opposite"][1] == 13 and st["opposite"][13] == 1
    else:
        assert st["opposite"][1] == 24


# --- the registry ----------------------------------------------------------------------------
def test_info_lists_the_registry(client):
    from tavli.ai.levels import LEVELS

    info = client.get("/api/info").json()
    assert info["variants"] == match_kinds()
    assert [(g["name"], g["display"]) for g in info["games"]] == [
        (v.name, v.display) for v in VARIANTS]
    assert [g["cube"] for g in info["games"]] == [v.cube for v in VARIANTS]
    assert info["rotations"] == [{"name": "tavli", "display": "Tavli match",
                                  "games": ["portes", "plakoto", "fevga"]}]
    assert info["levels"] == list(LEVELS) and info["default_level"] == "expert"
    assert info["level_titles"]["worldclass"] == "world class"
    assert set(info["engines"]) == set(game_names())


@pytest.fixture
def nack():
    v = register_variant(Nackgammon())
    try:
        yield v
    finally:
        unregister_variant("nackgammon")


def test_a_registered_game_is_offered_and_accepted(client, nack):
    info = client.get("/api/info").json()
    assert "nackgammon" in info["variants"]
    assert ("nackgammon", "Nackgammon") in [(g["name"], g["display"]) for g in info["games"]]
    st = new(client, variant="nackgammon", opponent="human", seed=3)
    assert st["game"] == "nackgammon"
    st = client.post(f"/api/games/{st['id']}/roll").json()
    assert st["phase"] == "move" and "move" in st["turn_tree"]["nodes"][-1]
    r = client.get("/api/games", params={"variant": "nackgammon"})
    assert r.status_code == 200 and r.json()["total"] == 1


def test_an_unregistered_game_is_refused(client):
    r = client.post("/api/games", json={"variant": "nackgammon"})
    assert r.status_code == 422 and "variant" in r.json()["error"]
    assert "tavli" in r.json()["error"]          # the message names the choices
    r = client.get("/api/games", params={"variant": "nackgammon"})
    assert r.status_code == 422 and "variant" in r.json()["error"]


# --- the page holds no rule and no list of games ---------------------------------------------
def test_the_page_script_has_no_rule():
    # tavli play's page and the online pages, with the board code and helpers they share
    js = "\n".join((STATIC / name).read_text() for name in (
        "play.js", "app.js", "board.js", "newgame.js", "online.js", "lobby.js", "fairdice.js",
        "a11y.js", "keys.js", "sound.js", "util.js", "http.js", "copy.js"))
    for banned in ("% 24", "25 - ", "pinned.add", "pinned.delete", "bar += 1", "GAMES",
                   "function opp(", "applyStep", "allHome", "stepOk", "usedDice", "landXY",
                   "portes", "plakoto", "fevga"):
        assert banned not in js, banned
    # the game's name, not the fields the server names after it (p.win_backgammon)
    assert not re.search(r"(?<![\w.])backgammon", js)
    html = (STATIC / "index.html").read_text()
    for name in [*match_kinds(), "worldclass", "expert"]:
        assert not re.search(rf'value="(ai:)?{name}"', html), name
    assert 'value="dama"' in html     # Dama's one entry: its rule sets are chosen beside it


def test_board_text_reads_back_as_the_page_reads_it():
    pinned = Position.from_points("plakoto", {24: 14, 6: 1}, {24: 14, 19: 1}, pinned=[(0, 6)])
    for pos in (Position.start("fevga"), PLAKOTO_PIN, pinned, BG_BAR):
        text = board_text(pos.array)
        assert not text.endswith("0") and set(text) <= set("0123456789abcdef")
        assert board(text).tobytes() == pos.array.tobytes()
