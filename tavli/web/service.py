"""What the games API and the Dama API share: sessions (a game in memory with its own
lock) kept in a bounded cache in front of the store; reading one; an action checked,
applied by the engine, saved and answered with the new state; deleting one.

A service says how its sessions are stored (:meth:`GameService.load`, :meth:`save`,
:meth:`remove`), shown (:meth:`state`) and who may act (:meth:`check_action`); the rest
is here, once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from fastapi.concurrency import run_in_threadpool

from tavli.errors import TavliError
from tavli.web.errors import ApiError, engine_error
from tavli.web.limits import SessionCache
from tavli.web.workers import EnginePool


class SessionLike(Protocol):
    id: str
    lock: Any
    thinking: Any


S = TypeVar("S", bound=SessionLike)


class GameService(Generic[S]):
    """Sessions of one kind of game over a store (subclasses: the hooks below)."""

    #: how error messages name a game of this service
    noun = "game"

    def __init__(self, sessions: int) -> None:
        # the games in memory (a few hundred; the others reload from the store)
        self.sessions: SessionCache[S] = SessionCache(sessions)
        self.lock = threading.RLock()  # guards the cache only: each game has its own lock

    # --- hooks -----------------------------------------------------------------------------
    def load(self, game_id: str) -> S | None:
        """The stored game ``game_id`` replayed into a session, or None if there is none."""
        raise NotImplementedError

    def remove(self, game_id: str) -> bool:
        """Delete the stored game; False if there was none."""
        raise NotImplementedError

    def save(self, s: S) -> None:
        """Store ``s`` as it stands (one transaction)."""
        raise NotImplementedError

    def state(self, s: S) -> dict[str, Any]:
        """What the page is told about ``s``."""
        raise NotImplementedError

    def check_action(self, s: S, side: str | None, by_ai: bool) -> str:
        """The side to act now, or the 409 that answers an action (under ``s.lock``)."""
        raise NotImplementedError

    def ai_job(self, game_id: str, body: Any) -> tuple[dict[str, Any], int]:
        """What the AI needs to decide (small, for a worker process) and the game's
        version it is for."""
        raise NotImplementedError

    def ai_apply(self, game_id: str, body: Any, version: int,
                 decision: dict[str, Any]) -> dict[str, Any]:
        """Play the AI's decision if the game is still at ``version``."""
        raise NotImplementedError

    # --- shared ----------------------------------------------------------------------------
    def not_found(self, game_id: str) -> ApiError:
        return ApiError(404, f"no {self.noun} with id {game_id!r}", "not_found",
                        key="err.no_game")

    def session(self, game_id: str) -> S:
        """The session of ``game_id``: from memory, else replayed from the store (outside
        any lock, so that other games go on); 404 when there is none."""
        s = self.sessions.get(game_id)
        if s is not None:
            return s
        s = self.load(game_id)
        if s is None:
            raise self.not_found(game_id)
        with self.lock:
            if self.load_is_stale(game_id):  # deleted meanwhile
                raise self.not_found(game_id)
            return self.sessions.setdefault(game_id, s)

    def load_is_stale(self, game_id: str) -> bool:
        """Was the game deleted while it was being replayed? (Override when cheap.)"""
        return False

    def add(self, s: S) -> dict[str, Any]:
        """Keep a new session, store it and answer its state."""
        with self.lock:
            self.sessions[s.id] = s
            self.save(s)
        return self.state(s)

    def get(self, game_id: str) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            return self.state(s)

    def delete(self, game_id: str) -> None:
        with self.lock:
            self.sessions.pop(game_id, None)
            if not self.remove(game_id):
                raise self.not_found(game_id)

    async def think(self, game_id: str, body: Any, pool: EnginePool,
                    decide: Callable[[dict[str, Any]], dict[str, Any]], deadline: float,
                    quick: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None
                    ) -> dict[str, Any]:
        """The AI's action in ``game_id``: the job is read under the game's lock, decided by
        ``decide`` in a worker process of ``pool`` (or at once by ``quick`` when it can),
        then applied; the game stays free for plain requests while the AI thinks, and a
        second request for the same game meanwhile is answered 409 ``busy``."""
        s = await run_in_threadpool(self.session, game_id)
        if not s.thinking.acquire(blocking=False):
            raise ApiError(409, "the AI is already thinking in this game", "busy",
                           key="err.ai_thinking")
        try:
            job, version = await run_in_threadpool(self.ai_job, game_id, body)
            decision = (quick(job) if quick is not None else None) or await pool.run(
                decide, job, timeout=deadline)
            return await run_in_threadpool(self.ai_apply, game_id, body, version, decision)
        finally:
            s.thinking.release()

    def act(self, game_id: str, fn: Callable[[S, str], None], *, side: str | None = None,
            by_ai: bool = False) -> dict[str, Any]:
        """Check that ``side`` (or the AI) may act in ``game_id`` now, let ``fn(session,
        actor)`` act through the engine, save and answer the new state. An engine error
        changes nothing that is stored and is answered in the app's format."""
        s = self.session(game_id)
        with s.lock:
            actor = self.check_action(s, side, by_ai)
            try:
                fn(s, actor)
            except TavliError as e:
                raise engine_error(e) from None
            self.save(s)
            return self.state(s)


__all__ = ["GameService"]
