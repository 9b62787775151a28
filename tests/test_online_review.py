"""A finished online game's review and export (issue 33): the browser app's analysis of
the game once it is over (409 before), and the record or the gnubg file."""

from __future__ import annotations

import time
import warnings

from tavli.online.app import create_online_app
from tavli.online.fairdice import new_client_seed
from tavli.play.formats import loads

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


class InlinePool:
    """The review's parts in the asking thread, not in worker processes."""

    workers = 2

    def call(self, fn, *args, timeout=None):
        return fn(*args)


def play_some(games, gid: str, tokens: dict[str, str], actions: int) -> None:
    """Seed both seats of the joined game ``gid``, then play ``actions`` rolls and moves
    (each the first legal move)."""
    for n, tok in enumerate(tokens.values()):
        games.act(gid, tok, 2 + n, {"type": "seed", "seed": new_client_seed()})
    for _ in range(actions):
        v = games.view(gid)
        action = ({"type": "move", "move": v["legal_moves"][0]["move"]}
                  if v["phase"] == "move" else {"type": "roll"})
        games.act(gid, tokens[v["turn"]], v["seq"] + 1, action)


def _finished(c: TestClient, variant: str) -> dict:
    """A game of two guests, a few turns played, then resigned by the side to move."""
    new = c.post("/api/online/games", json={"game": {"variant": variant, "opponent": "human"},
                                            "name": "Ann"}).json()
    c.post(f"/api/online/games/{new['id']}/join",
           json={"token": new["invite_token"], "name": "Bob"})
    games = c.app.state.games
    gid = new["id"]
    tokens = {"white": new["token"], "black": new["invite_token"]}
    play_some(games, gid, tokens, 6)
    r = c.get(f"/api/online/games/{gid}/review")
    assert r.status_code == 409 and "over" in r.json()["error"]  # not during the game
    assert c.get(f"/api/online/games/{gid}/export").status_code == 409
    v = games.view(gid)
    games.act(gid, tokens[v["turn"]], v["seq"] + 1, {"type": "resign", "value": "single"})
    return new


def test_a_finished_game_is_reviewed_as_the_browser_app_reviews(tmp_path):
    app = create_online_app(tmp_path / "o.sqlite3", allowed_hosts=["testserver"],
                            pool=InlinePool())
    with TestClient(app) as c:
        new = _finished(c, "portes")
        url = f"/api/online/games/{new['id']}/review?ply=0"
        r = c.get(url)
        deadline = time.monotonic() + 60
        while r.status_code == 202 and time.monotonic() < deadline:
            time.sleep(0.2)
            r = c.get(url)
        assert r.status_code == 200, r.text
        review = r.json()
        assert review["ply"] == 0 and review["id"] == new["id"]
        assert len(review["curve"]) == len(review["turns"]) >= 2
        assert all(0 <= p["white_win"] <= 1 for p in review["curve"])
        assert set(review["players"]) == {"white", "black"} and review["summary"]
        assert c.get(f"/api/online/games/{new['id']}/review?ply=5").status_code == 422


def test_a_finished_game_exports_as_a_record_and_gnubg_files(tmp_path):
    with TestClient(create_online_app(tmp_path / "o.sqlite3",
                                      allowed_hosts=["testserver"])) as c:
        portes = _finished(c, "portes")
        record = c.get(f"/api/online/games/{portes['id']}/export").json()
        assert record["names"] == {"white": "Ann", "black": "Bob"} and record["fair_dice"]
        r = c.get(f"/api/online/games/{portes['id']}/export?format=mat")
        assert r.status_code == 422 and "backgammon" in r.json()["error"]
        bg = _finished(c, "backgammon")
        r = c.get(f"/api/online/games/{bg['id']}/export?format=mat&download=true")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        game = loads(r.text, "mat")
        assert game.is_over
        assert c.get(f"/api/online/games/{bg['id']}/export?format=sgf").text.startswith("(;")
        assert c.get("/api/online/games/nosuch/export").status_code == 404


def test_reviews_in_the_making_are_bounded(tmp_path, monkeypatch):
    """Anyone may ask for a review: beyond a few in the making at once, a new one is
    refused (503) rather than queued."""
    import threading

    from tavli.online import review

    gate = threading.Event()

    class SlowPool(InlinePool):
        def call(self, fn, *args, timeout=None):
            gate.wait(30)
            return fn(*args)

    monkeypatch.setattr(review, "MAKING", 1)
    app = create_online_app(tmp_path / "o.sqlite3", allowed_hosts=["testserver"],
                            pool=SlowPool())
    try:
        with TestClient(app) as c:
            first, second = _finished(c, "portes"), _finished(c, "portes")
            assert c.get(f"/api/online/games/{first['id']}/review").status_code == 202
            r = c.get(f"/api/online/games/{second['id']}/review")
            assert r.status_code == 503 and r.json()["code"] == "busy"
            # the one in the making is still answered
            assert c.get(f"/api/online/games/{first['id']}/review").status_code == 202
    finally:
        gate.set()
