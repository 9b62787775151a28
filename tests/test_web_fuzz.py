"""The browser app's HTTP API fuzzed by schemathesis against its own schema
(``/api/openapi.json``): a real server (uvicorn), the headers a page sends, real game ids
in the paths so that the handlers are reached, and for every answer: no 5xx, a declared
status, content type and headers, a body the schema describes, in bounded time
(tests/fuzzing.py: a fixed seed, ``TAVLI_FUZZ_EXAMPLES`` for a longer run)."""

from __future__ import annotations

import time

import httpx
import pytest
import schemathesis
from conftest import served
from fuzzing import Page, call, config, page_headers, pick

from tavli.play.game import Game
from tavli.play.record import game_record
from tavli.web.app import create_app


def _games(page: Page) -> list[str]:
    """Games of every kind to act on, set up as a page would — each route's answers
    checked against the schema on the way: against the AI (beginner: its moves are
    quick), two players with the cube, a match, Dama, imported records (finished: its
    review; unfinished: continued)."""
    def new(**body) -> dict:
        return page.ask("POST", "/api/games", 201, body)

    def act(state: dict, what: str, body: dict | None = None) -> dict:
        return page.ask("POST", f"/api/games/{{game_id}}/{what}", json=body or {},
                        game_id=state["id"])

    def human_turn(state: dict) -> dict:
        """The AI's turns played, the person's dice thrown (a roll without a move passes
        by itself: until there is one)."""
        while state["ai_to_act"] or state["phase"] != "move":
            state = act(state, "ai" if state["ai_to_act"] else "roll")
        return state

    ai = human_turn(act(new(variant="portes", level="beginner", seed=1), "roll"))
    page.ask("GET", "/api/games/{game_id}/hint", game_id=ai["id"])  # the engine warmed up
    ai = act(ai, "move", {"move": ai["legal_moves"][0]["move"]})
    ai = act(human_turn(ai), "resign", {"value": "single"})
    again = page.ask("POST", "/api/games/{game_id}/rematch", 201, {}, game_id=ai["id"])

    cube = new(variant="backgammon", opponent="human", seed=2)
    cube = act(cube, "roll")  # the opening throw: the first move's dice
    cube = act(cube, "move", {"move": cube["legal_moves"][0]["move"]})
    if cube["cube_hint"]:  # the side on roll may double
        page.ask("GET", "/api/games/{game_id}/cube-hint", game_id=cube["id"])
    cube = act(act(cube, "double"), "take")
    dropped = act(new(variant="backgammon", opponent="human", seed=3), "roll")
    dropped = act(dropped, "move", {"move": dropped["legal_moves"][0]["move"]})
    dropped = act(act(dropped, "double"), "drop")
    beaver = act(new(variant="backgammon", opponent="human", seed=3, rules={"beavers": True}),
                 "roll")
    beaver = act(beaver, "move", {"move": beaver["legal_moves"][0]["move"]})
    beaver = act(act(beaver, "double"), "beaver")
    page.ask("GET", "/api/games/{game_id}/record", params={"format": "mat"},
             game_id=dropped["id"])
    match = act(new(variant="tavli", points=3, opponent="human", seed=4), "roll")
    match = act(act(match, "resign", {"value": "single"}), "next")
    dama = new(variant="dama", opponent="human")
    dama = act(dama, "move", {"path": dama["legal_moves"][0]["path"]})
    dama = act(dama, "undo")
    dama = act(dama, "move", {"path": dama["legal_moves"][-1]["path"]})

    g = Game("fevga", seed=5)
    while not g.is_over:
        g.roll()
        if g.phase == "move":
            g.play(g.legal_moves()[0])
    half = Game("portes", seed=6)
    half.roll()
    done = page.ask("POST", "/api/records", 201, game_record(g, 5))
    review = SCHEMA["/api/games/{game_id}/review"]["GET"]
    while (r := page.http.get(f"/api/games/{done['id']}/review")).status_code == 202:
        review.validate_response(r)  # its progress
        time.sleep(0.2)
    review.validate_response(r)
    unfinished = page.ask("POST", "/api/records", 201, game_record(half, 6))
    page.ask("POST", "/api/games/{game_id}/continue", 201, {}, game_id=unfinished["id"])
    page.ask("GET", "/api/games/{game_id}", game_id=dama["id"])
    page.ask("GET", "/api/games")
    for path in ("/api/info", "/api/warmup", "/api/i18n"):
        page.ask("GET", path)
    page.ask("GET", "/api/rules/{game}", game="fevga")
    page.ask("DELETE", "/api/games/{game_id}", 204, game_id=new(variant="portes")["id"])
    return [x["id"] for x in (ai, again, cube, dropped, beaver, match, dama, done,
                              unfinished)]


@pytest.fixture(scope="module")
def web_api(tmp_path_factory):
    """The app served on a free port, with its games: ``(base URL, ids)``."""
    app = create_app(tmp_path_factory.mktemp("fuzz") / "games.sqlite3",
                     allowed_hosts=["127.0.0.1"])
    with served(app) as base:
        r = httpx.get(f"{base}/api/openapi.json", timeout=60)
        assert r.json() == SCHEMA.raw_schema  # the schema generated from is the server's
        yield base, _games(Page(base, SCHEMA))


RULES = ("portes", "plakoto", "fevga", "backgammon", "tavli", "dama")
#: the schema the tests are generated from: the app's own (as every app serves it)
SCHEMA = schemathesis.openapi.from_dict(create_app(":memory:").openapi(), config=config())


@SCHEMA.parametrize()
def test_every_answer_is_the_schemas(case, web_api):
    base, games = web_api
    if "game_id" in case.path_parameters:
        real = games
        if case.method == "DELETE":  # a game of its own: the others stay to be acted on
            r = httpx.post(f"{base}/api/games", json={"variant": "portes"},
                           headers=page_headers(base), timeout=60)
            real = [r.json()["id"]]
        case.path_parameters["game_id"] = pick(case.path_parameters["game_id"], real)
    if "game" in case.path_parameters:  # the rules of a game of the registry
        case.path_parameters["game"] = pick(case.path_parameters["game"], RULES)
    call(case, base)
