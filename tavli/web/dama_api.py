"""Dama (draughts) in the browser app: the HTTP API under ``/api/dama`` (docs/web.md).

The server decides what is legal (:class:`tavli.play.dama.game.DamaGame`); the page only offers
moves from the state's ``legal_moves``. Each game is a row of the table ``dama_games`` in
the app's SQLite file (the rule set, the players and the list of plies played:
:meth:`tavli.store.local.LocalStore.save_dama`), written after every action, so a game
survives a restart of the server.

>>> from tavli.store.factory import open_local
>>> api = DamaApi(open_local(":memory:"))
>>> st = api.create(NewDama(rules="russian", opponent="human"))
>>> st["turn"], len(st["legal_moves"]), st["fen"]
('white', 7, 'W:W21-32:B1-12')
>>> api.move(st["id"], DamaMoveBody(move="22-18"))["turn"]
'black'
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any, Literal

from fastapi import FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool

from tavli.engine.dama.board import BLACK, WHITE, DamaMove, parse_square, square_coords
from tavli.errors import IllegalMove, ParseError, RuleError, TavliError
from tavli.play.dama.game import DamaGame, reason_msg
from tavli.store.local import LocalStore
from tavli.web import listing, workers
from tavli.web.errors import ApiError, Body, Side, body, either, engine_error
from tavli.web.limits import SESSIONS
from tavli.web.listing import ListQuery
from tavli.web.service import GameService
from tavli.web.workers import EnginePool

SIDES = ("white", "black")
# the backgammon dialog's levels, read as Dama levels
LEVEL_ALIASES = {"beginner": "1", "casual": "2", "intermediate": "3", "advanced": "4",
                 "expert": "default", "worldclass": "full"}


class NewDama(Body):
    rules: Literal["box", "russian", "italian"] = "box"
    huffing: bool | None = None
    opponent: Literal["ai", "human"] = "ai"
    level: str = "default"
    ai_side: Literal["white", "black"] = "black"


class DamaMoveBody(Body):
    move: str | None = None
    path: list[int] | None = None
    side: Literal["white", "black"] | None = None


class HuffBody(Body):
    square: int | str
    side: Literal["white", "black"] | None = None


def _move_json(m: DamaMove, rules) -> dict[str, Any]:
    # the move in its rule set's players' notation (Russian: c3-d4, c3:e5; else 22-18)
    return {"notation": rules.move_text(m), "full": rules.move_text(m, full=True),
            "start": m.start,
            "end": m.end, "path": [m.start, *(m.path or (m.end,))],
            "captures": list(m.captures), "king": m.king, "promotes": m.promotes,
            "captured_names": [rules.square_text(c) for c in m.captures]}


#: the Dama levels by the dialog's level names (for the page: "AI (expert)")
LEVEL_NAMES = {v: k for k, v in LEVEL_ALIASES.items()}


class DamaSession:
    def __init__(self, game_id: str, game: DamaGame, meta: dict[str, Any],
                 created: float) -> None:
        self.id, self.game, self.meta, self.created = game_id, game, meta, created
        self.lock = threading.RLock()
        self.last: dict[str, Any] | None = None
        self.version = 0  # counts the saved actions: the AI's answer is for one version
        self.thinking = threading.Lock()  # an AI move is being thought out


class DamaApi(GameService[DamaSession]):
    """Dama games over the app's store (its SQLite file, table ``dama_games``)."""

    noun = "Dama game"

    def __init__(self, store: LocalStore, sessions: int = SESSIONS) -> None:
        super().__init__(sessions)
        self.store = store

    # storage ---------------------------------------------------------------------------
    @staticmethod
    def plies(g: DamaGame) -> list[str]:
        """The plies played, as stored: ``22x13x6`` (every landing square) or ``*22``."""
        return [f"*{p.huffed}" if p.move is None else p.move.notation(g.rules, full=True)
                for p in g.record]

    def save(self, s: DamaSession) -> None:
        s.version += 1
        g = s.game
        self.store.save_dama(s.id, rules=g.rules.name, huffing=g.rules.huffing,
                             status="over" if g.is_over() else "playing", created=s.created,
                             plies=self.plies(g), meta=s.meta)

    def load(self, game_id: str) -> DamaSession | None:
        row = self.store.dama(game_id)
        if row is None:
            return None
        g = DamaGame(row["rules"], huffing=bool(row["huffing"]))
        for ply in row["plies"]:
            if ply.startswith("*"):
                g.huff(int(ply[1:]))
            else:
                g.play(ply)
        return DamaSession(game_id, g, row["meta"], row["created"])

    def list(self, query: ListQuery | None = None) -> dict[str, Any]:
        """A page of the stored Dama games: ``{games, total, limit, offset}``."""
        return listing.page(self.store, query or ListQuery(), listing.DAMA)

    def remove(self, game_id: str) -> bool:
        return self.store.delete_dama(game_id)

    # state -----------------------------------------------------------------------------
    def state(self, s: DamaSession) -> dict[str, Any]:
        g = s.game
        p = g.position
        r = g.rules
        squares = []
        for sq in range(1, 33):
            ch = p.piece_at(sq)
            rank, file = square_coords(sq, r)
            squares.append({"square": sq, "name": r.square_text(sq), "rank": rank, "file": file,
                            "piece": None if not ch else ("king" if ch.isupper() else "man"),
                            "colour": None if not ch else ("white" if ch in "wW" else "black")})
        turn = SIDES[g.turn]
        over = g.is_over()
        winner = g.winner()
        players = s.meta["players"]
        huff = g.huff_candidates if not over else []
        return {
            "id": s.id, "game": "dama", "rules": r.name, "huffing": r.huffing,
            "rules_text": r.option_text, "italian_board": r.italian_board,
            # the page's words by key: the rule set, the AI levels, why it ended
            "rules_key": "dama.rn." + ("box_compulsory" if r.name == "box" and not r.huffing
                                       else r.name),
            "notation": r.notation,
            "levels": {side: LEVEL_NAMES[str(p_.get("level"))] for side, p_ in players.items()
                       if p_["type"] == "ai" and str(p_.get("level")) in LEVEL_NAMES},
            "compulsory": r.compulsory, "players": players, "fen": p.fen(),
            "turn": turn, "to_act": None if over else players[turn]["type"],
            "board": squares, "counts": {SIDES[c]: {"men": p.count(c)[0], "kings": p.count(c)[1]}
                                         for c in (WHITE, BLACK)},
            "legal_moves": [_move_json(m, r) for m in g.legal_moves()],
            "huff": huff, "over": over, "result": g.result,
            "winner": None if winner is None else SIDES[winner],
            "reason": g.end_reason(), "reason_msg": reason_msg(g), "plies": len(g.record),
            "history": [{"side": SIDES[x.colour],
                         "text": (f"*{r.square_text(x.huffed)}" if x.move is None
                                  else r.move_text(x.move))} for x in g.record],
            "last": s.last,
        }

    # actions ---------------------------------------------------------------------------
    def create(self, body: NewDama) -> dict[str, Any]:
        from tavli.ai.dama import parse_level

        level = body.level.strip().lower()
        level = LEVEL_ALIASES.get(level, level)
        try:
            parse_level(level)  # the level is used at every AI move: refuse a bad one now
        except RuleError as e:
            raise ApiError(422, f"level: {e}", "invalid", key="err.level") from None
        if body.huffing and body.rules != "box":
            raise ApiError(422, "huffing belongs to the box rules", "invalid",
                           key="err.huffing_box")
        try:
            g = DamaGame(body.rules, huffing=body.huffing)
        except TavliError as e:
            raise engine_error(e) from None
        players = {side: {"type": "human"} for side in SIDES}
        if body.opponent == "ai":
            players[body.ai_side] = {"type": "ai", "level": level}
        return self.add(DamaSession(secrets.token_hex(6), g, {"players": players},
                                    time.time()))

    def check_action(self, s: DamaSession, side: str | None, by_ai: bool) -> str:
        """The side to act, or the 409 that answers an action now (under ``s.lock``)."""
        g = s.game
        if g.is_over():
            raise ApiError(409, f"the game is over ({g.result}, {g.end_reason()})",
                            "game_over", key="err.game_over")
        turn = SIDES[g.turn]
        if side is not None and side != turn:
            raise ApiError(409, f"it is {turn}'s turn, not {side}'s", "wrong_side",
                           key=f"err.turn_of.{turn}")
        kind = s.meta["players"][turn]["type"]
        if by_ai and kind != "ai":
            raise ApiError(409, f"{turn} is played by a person, not the AI", "wrong_side",
                           key=f"err.person_plays.{turn}")
        if not by_ai and kind == "ai":
            raise ApiError(409, f"{turn} is played by the AI (POST .../ai)", "wrong_side",
                           key=f"err.ai_plays.{turn}")
        return turn

    def _last(self, s: DamaSession, side: str, mv: DamaMove, huffed: int | None = None,
              by: str = "human") -> None:
        s.last = {"kind": "move", "side": side, "by": by, "huffed": huffed,
                  **_move_json(mv, s.game.rules)}

    def move(self, game_id: str, body: DamaMoveBody) -> dict[str, Any]:
        either('move (text such as "22-18") or path (the squares visited)', move=body.move,
               path=body.path)

        def do(s: DamaSession, turn: str) -> None:
            g = s.game
            mv: DamaMove | str
            if body.path is not None:
                found = [m for m in g.legal_moves()
                         if [m.start, *(m.path or (m.end,))] == body.path]
                if not found:
                    raise IllegalMove(f"no legal move visits {body.path}")
                mv = found[0]
            else:
                mv = body.move.strip()
                if not mv or mv.startswith("*"):
                    raise ParseError("a move such as 22-18 (huff with POST .../huff)")
            played = g.play(mv)
            self._last(s, turn, played)

        return self.act(game_id, do, side=body.side)

    def huff(self, game_id: str, body: HuffBody) -> dict[str, Any]:
        def do(s: DamaSession, turn: str) -> None:
            if isinstance(body.square, str):
                sq = parse_square(body.square, s.game.rules)
            else:
                sq = body.square
            if sq not in s.game.huff_candidates:
                raise IllegalMove(f"square {sq} cannot be huffed now "
                                  f"(candidates: {s.game.huff_candidates or 'none'})")
            s.game.huff(sq)
            s.last = {"kind": "huff", "side": turn, "by": "human", "huffed": sq}

        return self.act(game_id, do, side=body.side)

    def ai(self, game_id: str, body: Side) -> dict[str, Any]:
        """The AI's move, thought out in this thread (the app thinks in its worker
        processes: :meth:`ai_job`, :func:`tavli.web.workers.dama_move`, :meth:`ai_apply`)."""
        job, version = self.ai_job(game_id, body)
        return self.ai_apply(game_id, body, version, workers.dama_move(job))

    def ai_job(self, game_id: str, body: Side,
               budget: float = workers.DAMA_BUDGET) -> tuple[dict[str, Any], int]:
        """What the AI needs to choose its move (for a worker process: the plies played,
        the level, at most ``budget`` seconds), and the game's version it is for."""
        s = self.session(game_id)
        with s.lock:
            turn = self.check_action(s, body.side, True)
            g = s.game
            job = {"rules": g.rules.name, "huffing": g.rules.huffing, "plies": self.plies(g),
                   "level": s.meta["players"][turn].get("level", "default"),
                   "budget": budget}
            return job, s.version

    def ai_apply(self, game_id: str, body: Side, version: int,
                 decision: dict[str, Any]) -> dict[str, Any]:
        """Play the AI's ``decision`` (:func:`tavli.web.workers.dama_move`) if the game is
        still at ``version``."""
        def do(s: DamaSession, turn: str) -> None:
            if s.version != version:
                raise ApiError(409, "the game changed while the AI was thinking", "conflict",
                               key="err.conflict")
            g = s.game
            huffed = decision["huff"]
            if huffed is not None:
                g.huff(huffed)
            played = g.play(decision["move"])
            self._last(s, turn, played, huffed, by="ai")

        return self.act(game_id, do, side=body.side, by_ai=True)

    def undo(self, game_id: str, body: Side) -> dict[str, Any]:
        """Take back the last human move, with the AI's replies after it."""
        s = self.session(game_id)
        with s.lock:
            g = s.game
            players = s.meta["players"]
            if g.is_over():
                raise ApiError(409, f"the game is over ({g.result}, {g.end_reason()}): it "
                                     "cannot be taken back", "game_over", key="err.game_over")
            if not any(players[SIDES[p.colour]]["type"] == "human" for p in g.record):
                raise ApiError(409, "nothing to undo", "wrong_state", key="err.nothing_to_undo")
            while g.record and players[SIDES[g.record[-1].colour]]["type"] == "ai":
                g.undo()
            # the human's ply (and a huff made just before it, by the same side)
            colour = g.record[-1].colour
            g.undo()
            while g.record and g.record[-1].colour == colour and g.record[-1].move is None:
                g.undo()
            s.last = {"kind": "undo"}
            self.save(s)
            return self.state(s)


def rematch(api: DamaApi, game_id: str) -> dict[str, Any]:
    """A new Dama game with the settings of the finished ``game_id``: the same rules, the
    same opponent and level, each player on the same side."""
    s = api.session(game_id)
    with s.lock:
        g = s.game
        if not g.is_over():
            raise ApiError(409, "the game is not over: a rematch follows its end", "not_over",
                           key="err.not_over")
        players = s.meta["players"]
        ai = [side for side in SIDES if players[side]["type"] == "ai"]
        body = NewDama(rules=g.rules.name,
                       huffing=g.rules.huffing if g.rules.name == "box" else None,
                       opponent="ai" if ai else "human",
                       level=players[ai[0]].get("level", "default") if ai else "default",
                       ai_side=ai[0] if ai else "black")
    st = api.create(body)
    new = api.session(st["id"])
    with new.lock:
        new.meta["rematch_of"] = game_id
        api.save(new)
    return st


def mount_dama(app: FastAPI, store: LocalStore, *, pool: EnginePool | None = None,
               sessions: int = SESSIONS, ai_deadline: float = workers.AI_DEADLINE) -> DamaApi:
    """Add the ``/api/dama`` routes to ``app``; the games live in ``store``'s file and the
    AI thinks in ``pool`` (default: the process's shared worker pool)."""
    api = DamaApi(store, sessions)
    pool = pool or workers.default_pool()
    app.state.dama = api

    parse = body

    @app.get("/api/dama")
    async def list_dama(query: listing.DamaQuery) -> dict[str, Any]:
        return await run_in_threadpool(api.list, query)

    @app.delete("/api/dama/{game_id}", status_code=204)
    async def delete_dama(game_id: str) -> Response:
        await run_in_threadpool(api.delete, game_id)
        return Response(status_code=204)

    @app.post("/api/dama", status_code=201)
    async def new_dama(request: Request) -> dict[str, Any]:
        return await run_in_threadpool(api.create, await parse(request, NewDama))

    @app.get("/api/dama/{game_id}")
    async def get_dama(game_id: str) -> dict[str, Any]:
        return await run_in_threadpool(api.get, game_id)

    @app.post("/api/dama/{game_id}/move")
    async def move_dama(game_id: str, request: Request) -> dict[str, Any]:
        return await run_in_threadpool(api.move, game_id,
                                       await parse(request, DamaMoveBody, True))

    @app.post("/api/dama/{game_id}/huff")
    async def huff_dama(game_id: str, request: Request) -> dict[str, Any]:
        return await run_in_threadpool(api.huff, game_id, await parse(request, HuffBody, True))

    @app.post("/api/dama/{game_id}/ai")
    async def ai_dama(game_id: str, request: Request) -> dict[str, Any]:
        return await api.think(game_id, await parse(request, Side), pool, workers.dama_move,
                               ai_deadline)

    @app.post("/api/dama/{game_id}/rematch", status_code=201)
    async def rematch_dama(game_id: str, request: Request) -> dict[str, Any]:
        await parse(request, Body)   # no fields: only a malformed body is refused
        return await run_in_threadpool(rematch, api, game_id)

    @app.post("/api/dama/{game_id}/undo")
    async def undo_dama(game_id: str, request: Request) -> dict[str, Any]:
        return await run_in_threadpool(api.undo, game_id, await parse(request, Side))

    return api


__all__ = ["DamaApi", "mount_dama", "NewDama", "DamaMoveBody"]
