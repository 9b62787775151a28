"""The browser app's one API of every game — the dice games' games and matches and Dama —
without HTTP (:class:`TavliApi`; the routes over it: :mod:`tavli.web.routes`; see
docs/web.md).

What every game shares is written here once: the sessions (a game in memory with its own
lock) kept in a bounded cache in front of the store; making, reading, listing and
deleting a game; who may act now; an action checked, applied by the engine, saved and
answered with the new state; the AI's turn thought out in a worker process; a rematch.
What is a game's own is its kind's (:class:`tavli.web.kind.GameKind`: the dice games
:class:`~tavli.web.dicegames.DiceGames`, Dama :class:`~tavli.web.damagames.DamaGames`),
chosen once when a game is made or loaded (``s.kind``); an action a kind does not have is
answered ``422`` ``unsupported``.

>>> api = TavliApi(":memory:")
>>> state = api.create(NewGame(variant="portes", seed=1))
>>> state["phase"], state["game"], state["players"]["black"]["type"]
('opening', 'portes', 'ai')
>>> api.roll(state["id"], Side())["phase"]
'move'
>>> api.huff(state["id"], HuffBody(square=18))
Traceback (most recent call last):
...
tavli.errors.ApiError: a dice game has no huff
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.concurrency import run_in_threadpool

from tavli.errors import TavliError
from tavli.store.factory import open_local
from tavli.web import listing, workers
from tavli.web.damagames import DamaGames
from tavli.web.dicegames import DiceGames
from tavli.web.errors import ApiError, Side, engine_error
from tavli.web.kind import Do, GameKind, GameSession, HuffBody, MoveBody, ResignBody
from tavli.web.limits import REVIEWS, SESSIONS, SessionCache
from tavli.web.listing import ListQuery
from tavli.web.newgame import ContinueGame, NewGame
from tavli.web.reviews import ReviewJob, Reviews
from tavli.web.workers import EnginePool


class TavliApi:
    """Every game of the app over a :class:`~tavli.store.local.LocalStore` (usable without
    HTTP); each session's kind of game does what is its own."""

    def __init__(self, db_path: str | Path, analysis_ply: int = 1, *,
                 pool: EnginePool | None = None, sessions: int = SESSIONS,
                 reviews: int = REVIEWS) -> None:
        self.store = open_local(db_path)
        self.pool = pool or workers.default_pool()  # where the engine thinks
        self.reviews = Reviews(self.pool, reviews)
        self.dice = DiceGames(self.store, self.reviews, analysis_ply)
        self.dama = DamaGames(self.store)
        # the kinds, each asked in turn which makes a variant and which stores an id
        self.kinds: tuple[GameKind, ...] = (self.dama, self.dice)
        # the games in memory (a few hundred; the others reload from the store)
        self.sessions: SessionCache[GameSession] = SessionCache(sessions)
        self.lock = threading.RLock()  # guards the cache only: each game has its own lock

    # sessions ----------------------------------------------------------------------------
    @staticmethod
    def not_found(game_id: str) -> ApiError:
        return ApiError(404, f"no game with id {game_id!r}", "not_found", key="err.no_game")

    def kind_for(self, variant: str) -> GameKind:
        """The kind of game that makes a new game of ``variant``."""
        for kind in self.kinds:
            if kind.makes(variant):
                return kind
        raise ApiError(422, f"variant: unknown game {variant[:40]!r}", "invalid",
                       key="err.fields", params={"fields": "variant"})

    def _load(self, game_id: str) -> GameSession | None:
        for kind in self.kinds:
            s = kind.load(game_id)
            if s is not None:
                s.kind = kind
                return s
        return None

    def session(self, game_id: str) -> GameSession:
        """The session of ``game_id``: from memory, else replayed from the store (outside
        any lock, so that other games go on); 404 when there is none."""
        s = self.sessions.get(game_id)
        if s is not None:
            return s
        s = self._load(game_id)
        if s is None:
            raise self.not_found(game_id)
        with self.lock:
            if not s.kind.stored(game_id):  # deleted while it was being replayed
                raise self.not_found(game_id)
            return self.sessions.setdefault(game_id, s)

    def save(self, s: GameSession) -> None:
        """Store ``s`` as it stands; an AI answer thought out before is now stale."""
        s.version += 1
        s.kind.save(s)

    def state(self, s: GameSession) -> dict[str, Any]:
        return s.kind.state(s)

    def add(self, kind: GameKind, s: GameSession) -> dict[str, Any]:
        """Keep ``kind``'s new session, store it and answer its state."""
        s.kind = kind
        with self.lock:
            self.sessions[s.id] = s
            self.save(s)
        return self.state(s)

    # games -------------------------------------------------------------------------------
    def create(self, req: NewGame) -> dict[str, Any]:
        """A new game or match of ``req.variant``'s kind."""
        kind = self.kind_for(req.variant)
        return self.add(kind, kind.new_session(req))

    def get(self, game_id: str) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            return self.state(s)

    def delete(self, game_id: str) -> None:
        with self.lock:
            self.sessions.pop(game_id, None)
            if not any(kind.remove(game_id) for kind in self.kinds):
                raise self.not_found(game_id)

    def list(self, query: ListQuery | None = None) -> dict[str, Any]:
        """A page of the stored games of every kind: ``{games, total, limit, offset}``."""
        return listing.page(self.store, query or ListQuery(), *(k.listed for k in self.kinds))

    def rematch(self, game_id: str) -> dict[str, Any]:
        """A new game (or match) with the settings of the finished ``game_id``: its rules,
        opponent and level, each player on the same side (the dice games: the same start
        position and starter if they were given; new dice, a seed is not reused)."""
        s = self.session(game_id)
        with s.lock:
            if s.imported:
                raise ApiError(409, "an imported record is for review only", "read_only",
                               key="err.read_only")
            if not s.finished:
                raise ApiError(409, f"the {s.what} is not over: a rematch follows its end",
                               "not_over", key="err.not_over")
            req = s.kind.rematch_request(s)
        new = s.kind.new_session(req)
        new.meta["rematch_of"] = game_id
        return self.add(s.kind, new)

    def import_record(self, data: Any) -> dict[str, Any]:
        """A review-only game of an imported record or file (the dice games' records:
        :func:`tavli.web.newgame.imported_session`)."""
        return self.add(self.dice, self.dice.imported(data))

    def continue_game(self, game_id: str, req: ContinueGame) -> dict[str, Any]:
        """A new game or match going on from the end of the imported ``game_id``."""
        s = self.session(game_id)
        with s.lock:
            new = s.kind.continued(s, req)
        return self.add(s.kind, new)

    # who acts ----------------------------------------------------------------------------
    def check_action(self, s: GameSession, side: str | None, by_ai: bool) -> str:
        """The side to act (the AI's with ``by_ai``), or the 409 that answers an action now
        (under ``s.lock``)."""
        if s.imported:
            raise ApiError(409, "an imported record is for review only", "read_only",
                           key="err.read_only")
        over = s.kind.over(s)
        if over is not None:
            raise over
        actor = s.kind.actor(s)
        if s.kind.open_to_both(s):
            return actor
        kind = s.meta["players"][actor]["type"]
        if by_ai and kind != "ai":
            raise ApiError(409, f"{actor} is played by a person, not the AI",
                           "wrong_player", key=f"err.person_plays.{actor}")
        if not by_ai and kind == "ai":
            raise ApiError(409, f"it is {actor}'s turn and the AI plays {actor}: "
                                "POST .../ai", "wrong_player", key=f"err.ai_plays.{actor}")
        if side is not None and side != actor:
            raise ApiError(409, f"it is {actor}'s turn, not {side}'s", "wrong_player",
                           key=f"err.turn_of.{actor}")
        return actor

    def act(self, game_id: str, action: Callable[[GameKind], Do], *,
            side: str | None = None, by_ai: bool = False) -> dict[str, Any]:
        """The action ``action(kind)`` of ``game_id``'s kind (422 if it has none), applied
        once ``side`` (or the AI) may act: through the engine, saved and answered with the
        new state. An engine error changes nothing that is stored and is answered in the
        app's format."""
        s = self.session(game_id)
        do = action(s.kind)
        with s.lock:
            actor = self.check_action(s, side, by_ai)
            try:
                do(s, actor)
            except TavliError as e:
                raise engine_error(e) from None
            self.save(s)
            return self.state(s)

    def changed(self, game_id: str, change: Callable[[GameSession], None]) -> dict[str, Any]:
        """``change(session)`` under the game's lock (it does its own checks), saved and
        answered with the new state."""
        s = self.session(game_id)
        with s.lock:
            change(s)
            self.save(s)
            return self.state(s)

    # the actions -------------------------------------------------------------------------
    def move(self, game_id: str, body: MoveBody) -> dict[str, Any]:
        return self.act(game_id, lambda k: k.move(body), side=body.side)

    def huff(self, game_id: str, body: HuffBody) -> dict[str, Any]:
        return self.act(game_id, lambda k: k.huff(body), side=body.side)

    def roll(self, game_id: str, body: Side) -> dict[str, Any]:
        return self.act(game_id, lambda k: k.roll(), side=body.side)

    def double(self, game_id: str, body: Side) -> dict[str, Any]:
        return self.act(game_id, lambda k: k.double(), side=body.side)

    def take(self, game_id: str, body: Side) -> dict[str, Any]:
        return self.act(game_id, lambda k: k.take(), side=body.side)

    def drop(self, game_id: str, body: Side) -> dict[str, Any]:
        return self.act(game_id, lambda k: k.drop(), side=body.side)

    def beaver(self, game_id: str, body: Side) -> dict[str, Any]:
        return self.act(game_id, lambda k: k.beaver(), side=body.side)

    def resign(self, game_id: str, body: ResignBody) -> dict[str, Any]:
        """The side to act gives up the game, conceding ``body.value``."""
        return self.act(game_id, lambda k: k.resign(body), side=body.side)

    def undo(self, game_id: str, body: Side) -> dict[str, Any]:
        """Take back the last human move, with the AI's replies after it."""
        return self.changed(game_id, lambda s: s.kind.undo(s))

    def next_game(self, game_id: str, body: Side) -> dict[str, Any]:
        """The next game of a match, once a game is over."""
        return self.changed(game_id, lambda s: s.kind.next_game(s))

    # the AI ------------------------------------------------------------------------------
    def ai(self, game_id: str, body: Side) -> dict[str, Any]:
        """The AI's next action, thought out in this thread (the app thinks in its worker
        processes: :meth:`think`)."""
        s = self.session(game_id)
        job, version = self.ai_job(game_id, body)
        return self.ai_apply(game_id, body, version, s.kind.decide(job))

    def ai_job(self, game_id: str, body: Side) -> tuple[dict[str, Any], int]:
        """What the AI needs to choose its next action (small, for a worker process), and
        the game's version it is for."""
        s = self.session(game_id)
        with s.lock:
            side = self.check_action(s, body.side, True)
            return s.kind.ai_job(s, side), s.version

    def ai_apply(self, game_id: str, body: Side, version: int,
                 decision: dict[str, Any]) -> dict[str, Any]:
        """Play the AI's ``decision`` if the game is still at ``version``."""
        def play(kind: GameKind) -> Do:
            def do(s: GameSession, side: str) -> None:
                if s.version != version:
                    raise ApiError(409, "the game changed while the AI was thinking",
                                   "conflict", key="err.conflict")
                kind.ai_apply(s, side, decision)
            return do

        return self.act(game_id, play, side=body.side, by_ai=True)

    async def think(self, game_id: str, body: Side, pool: EnginePool,
                    deadline: float) -> dict[str, Any]:
        """The AI's action in ``game_id``: the job is read under the game's lock, decided by
        its kind's worker function in a process of ``pool`` (or at once when its kind's
        ``quick`` can), then applied; the game stays free for plain requests while the AI
        thinks, and a second request for the same game meanwhile is answered 409
        ``busy``."""
        s = await run_in_threadpool(self.session, game_id)
        if not s.thinking.acquire(blocking=False):
            raise ApiError(409, "the AI is already thinking in this game", "busy",
                           key="err.ai_thinking")
        try:
            job, version = await run_in_threadpool(self.ai_job, game_id, body)
            quick = s.kind.quick
            decision = (quick(job) if quick is not None else None) or await pool.run(
                s.kind.decide, job, timeout=deadline)
            return await run_in_threadpool(self.ai_apply, game_id, body, version, decision)
        finally:
            s.thinking.release()

    # analysis and records ----------------------------------------------------------------
    def hint_job(self, game_id: str, level: str | None) -> tuple[dict[str, Any],
                                                                   dict[str, Any]]:
        """The hint's head and what a worker needs to rank the moves
        (:func:`tavli.web.workers.hint_moves`)."""
        s = self.session(game_id)
        return s.kind.hint_job(s, level)

    def hint(self, game_id: str, level: str | None) -> dict[str, Any]:
        """The legal moves ranked, thought out in this thread."""
        out, job = self.hint_job(game_id, level)
        return {**out, **workers.hint_moves(job)}

    def cube_hint_job(self, game_id: str, level: str | None) -> dict[str, Any]:
        """What a worker needs for the cube decision due (:mod:`tavli.web.cubehint`)."""
        s = self.session(game_id)
        return s.kind.cube_hint_job(s, level)

    def review_job(self, game_id: str, ply: int | None) -> ReviewJob:
        """The review of the game as it stands, made in the background."""
        s = self.session(game_id)
        return s.kind.review_job(s, ply)

    def review(self, game_id: str, ply: int | None) -> dict[str, Any]:
        """The review of a game or match, waited for (the app answers with its progress
        meanwhile: :meth:`review_job`)."""
        job = self.review_job(game_id, ply)
        job.finished.wait()
        if job.error is not None:
            raise ApiError(*job.error)
        return job.result

    def export(self, game_id: str) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            return s.kind.export(s)

    def export_text(self, game_id: str, fmt: str) -> str:
        s = self.session(game_id)
        with s.lock:
            return s.kind.export_text(s, fmt)


__all__ = ["TavliApi", "MoveBody", "HuffBody"]
