"""The AI seat of an online game: the server plays it, in the engine's worker processes
(:mod:`tavli.web.workers`), whenever it is its turn (docs/server.md).

:class:`AiSeat` is the driver (one per app); the WebSocket routes (:mod:`tavli.online.ws`)
call :meth:`AiSeat.drive` after a hello and after each action.
"""

from __future__ import annotations

from typing import Any

from tavli.engine.layout import SIDE_NAMES
from tavli.errors import StaleAction
from tavli.online.hub import Hub
from tavli.online.service import OnlineGames

AI_STEPS = 64  # actions the AI plays in a row at most (a whole turn is a few)


def ai_job(games: OnlineGames, game_id: str) -> tuple[int, dict[str, Any]] | None:
    """``(seq, job)``: what the AI seat must decide now (for
    :func:`tavli.web.workers.ai_action`), else None (not its turn, or no AI seat)."""
    from tavli.ai.shipped import has_shipped_net

    t = games.table(game_id)
    with t.lock:
        ai = [s for s in t.seats.values() if s.player == "ai"]
        g = t.game
        if not ai or g.is_over or g.phase == "opening" or SIDE_NAMES[g.turn] != ai[0].side:
            return None
        if any(s.player == "human" and s.side not in t.dice.client_seeds
               for s in t.seats.values()):
            return None  # the dice wait for the player's seed
        job = {"engine": "neural" if has_shipped_net(g.rules.game) else "greedy",
               "level": ai[0].level or "expert", "rules": g.rules.to_dict(),
               "position": g.position.id(), "phase": g.phase,
               "dice": list(g.dice) if g.dice else None, "cube_value": g.cube_value,
               "cube_owner": g.cube_owner, "can_double": g.can_double()}
        return t.seq, job


def ai_action(decision: dict[str, Any]) -> dict[str, Any]:
    """The online action of a decision of :func:`tavli.web.workers.ai_action`."""
    kind = decision["action"]
    if kind == "move":
        return {"type": "move", "move": decision["move"]}
    return {"type": "take" if kind == "beaver" else kind}


class AiSeat:
    """Plays the AI seats of ``games``: in ``pool`` (an
    :class:`tavli.web.workers.EnginePool`; None: the process's, taken at the first need),
    each decision within ``deadline`` seconds, the news pushed through ``hub``."""

    def __init__(self, games: OnlineGames, hub: Hub, pool: Any = None,
                 deadline: float = 60.0) -> None:
        self.games, self.hub, self.pool, self.deadline = games, hub, pool, deadline
        self.thinking: set[str] = set()  # games whose AI seat is deciding
        self.again: set[str] = set()     # games whose AI seat must look again

    async def drive(self, game_id: str) -> None:
        """Play the AI seat's actions while it is its turn (one driver per game: a call
        while it runs makes it look again)."""
        t = self.games.tables.get(game_id)
        if t is not None and all(s.player != "ai" for s in t.seats.values()):
            return  # two people: nothing to do (and no thread to ask)
        self.again.add(game_id)
        if game_id in self.thinking:
            return
        self.thinking.add(game_id)
        try:
            steps = 0
            while game_id in self.again and steps < AI_STEPS:
                self.again.discard(game_id)
                if await self._step(game_id):
                    steps += 1
        except Exception:  # noqa: BLE001 - the AI's failure must not take the server down
            import logging

            logging.getLogger("tavli.online").exception("the AI seat of %s failed", game_id)
        finally:
            self.thinking.discard(game_id)
            self.again.discard(game_id)

    async def _step(self, game_id: str) -> bool:
        """One decision of the AI seat, played if the game has not moved on meanwhile;
        False when it had none to make."""
        from tavli.web import workers

        hub = self.hub
        got = await hub.call(ai_job, self.games, game_id)
        if got is None:
            return False
        seq, job = got
        decision = workers.quick_action(job)
        if decision is None:
            if self.pool is None:
                self.pool = workers.default_pool()
            decision = await self.pool.run(workers.ai_action, job, timeout=self.deadline)
        self.again.add(game_id)  # look again after this action (or the one that won)
        try:
            await hub.call(self.games.act_for_ai, game_id, seq + 1, ai_action(decision))
        except StaleAction:
            return True  # the game moved on meanwhile
        await hub.push(game_id)
        return True


__all__ = ["AiSeat", "ai_job", "ai_action", "AI_STEPS"]
