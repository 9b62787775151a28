"""The browser app's games and matches and their actions, without HTTP
(:class:`TavliApi`; the routes over it: :mod:`tavli.web.routes`; see docs/web.md).

The server owns the dice and the rules: the page only shows what the API returns and
sends the player's choices, each checked by the engine. Every game or match lives in the
SQLite store (:mod:`tavli.store.local`), written after every action, so an unfinished game
survives a restart of the server.

>>> api = TavliApi(":memory:")
>>> state = api.create(NewGame(variant="portes", seed=1))
>>> state["phase"], state["game"], state["players"]["black"]["type"]
('opening', 'portes', 'ai')
>>> api.roll(state["id"], Side())["phase"]
'move'
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal

from tavli.engine.layout import SIDE_NAMES
from tavli.errors import (
    RuleError,
    TavliError,
    WrongState,
)
from tavli.play.cube.scoring import match_state
from tavli.play.history import opening_throws
from tavli.store.factory import open_local
from tavli.web import cubehint, exchange, listing, shown, workers
from tavli.web.errors import (
    ApiError,
    Body,
    Side,
    either,
    engine_error,
)
from tavli.web.limits import REVIEWS, SESSIONS
from tavli.web.listing import ListQuery
from tavli.web.newgame import (
    ContinueGame,
    NewGame,
    continued_session,
    imported_session,
    new_session,
    rematch_request,
)
from tavli.web.reviews import ReviewJob, Reviews
from tavli.web.service import GameService
from tavli.web.sessions import Session, restore, row
from tavli.web.steps import match_steps
from tavli.web.workers import EnginePool

SideName = Literal["white", "black"]


# --- request bodies -------------------------------------------------------------------------

class MoveBody(Body):
    side: SideName | None = None
    move: str | None = None
    steps: list[tuple[int | str, int | str]] | None = None


def hint_plies(level: str | None) -> int:
    """The plies a hint at ``level`` (its name or ply; None: the default) looks ahead, else
    the 422 of a level that is not one."""
    from tavli.ai.levels import parse_level

    try:
        return parse_level(level).plies
    except RuleError as e:
        raise ApiError(422, f"level: {e}", "invalid", key="err.level") from None


# --- the API ---------------------------------------------------------------------------------

class TavliApi(GameService[Session]):
    """Games, matches and their actions, over a :class:`~tavli.store.local.LocalStore`
    (usable without HTTP): the rules of the app (who may act, what an action does, what
    the AI and the reviews need); storing is :mod:`tavli.web.sessions`, showing
    :mod:`tavli.web.shown`."""

    def __init__(self, db_path: str | Path, analysis_ply: int = 1, *,
                 pool: EnginePool | None = None, sessions: int = SESSIONS,
                 reviews: int = REVIEWS) -> None:
        super().__init__(sessions)
        self.store = open_local(db_path)
        self.analysis_ply = analysis_ply
        self.pool = pool or workers.default_pool()  # where the engine thinks
        self.reviews = Reviews(self.pool, reviews)

    # players ---------------------------------------------------------------------------
    def engine_name(self, game: int) -> str:
        from tavli.ai.shipped import has_shipped_net

        return "neural" if has_shipped_net(game) else "greedy"

    # storage (the hooks of GameService) ------------------------------------------------
    def load(self, game_id: str) -> Session | None:
        row = self.store.get(game_id)
        if row is None:
            return None
        try:
            return restore(game_id, row["record"], row["meta"])
        except TavliError as e:
            raise ApiError(409, f"the stored game {game_id} does not replay: {e}",
                           "corrupt", key="err.corrupt") from None

    def load_is_stale(self, game_id: str) -> bool:
        return self.store.get(game_id) is None

    def remove(self, game_id: str) -> bool:
        return self.store.delete(game_id)

    def save(self, s: Session) -> None:
        s.version += 1
        s.meta["formats"] = exchange.formats_of(s.obj)  # what the list offers to export
        self.store.save(s.id, **row(s))

    def state(self, s: Session) -> dict[str, Any]:
        out = shown.state(s, self.engine_name)
        g = s.game
        out.update(
            # a cube decision is due and the engine can value it: the page's Cube hint
            cube_hint=cubehint.due(g) is not None
            and self.engine_name(g.rules.game) == "neural",
            ids=exchange.ids(s), formats=exchange.formats_of(s.obj),
            can_continue=s.imported and not s.finished)
        return out

    # creating ----------------------------------------------------------------------------
    def create(self, req: NewGame) -> dict[str, Any]:
        """A new game or match (:func:`tavli.web.newgame.new_session`)."""
        return self.add(new_session(req))

    def rematch(self, game_id: str) -> dict[str, Any]:
        """A new game or match with the settings of the finished ``game_id``: variant,
        length, rules, opponent and level, each player on the same side, the same start
        position and starter if they were given; new dice (a seed is not reused)."""
        s = self.session(game_id)
        with s.lock:
            req = rematch_request(s)
        new = new_session(req)
        new.meta["rematch_of"] = game_id
        return self.add(new)

    def import_record(self, data: Any) -> dict[str, Any]:
        """A review-only game of an imported record or file (:func:`imported_session`)."""
        return self.add(imported_session(data))

    def continue_game(self, game_id: str, req: ContinueGame) -> dict[str, Any]:
        """A new game or match going on from the end of the imported ``game_id``."""
        s = self.session(game_id)
        with s.lock:
            new = continued_session(s, req)
        return self.add(new)

    def list(self, query: ListQuery | None = None) -> dict[str, Any]:
        """A page of the stored games and matches: ``{games, total, limit, offset}``."""
        return listing.page(self.store, query or ListQuery(), listing.TAVLI)

    # actions -------------------------------------------------------------------------------
    def check_action(self, s: Session, side: str | None, by_ai: bool) -> str:
        """The side to act (the AI's with ``by_ai``), or the 409 that answers an action now
        (under ``s.lock``)."""
        g = s.game
        if s.imported:
            raise ApiError(409, "an imported record is for review only", "read_only",
                           key="err.read_only")
        if g.is_over:
            if s.match is not None and not s.match.is_over:
                raise ApiError(409, "this game is over: POST .../next starts the next game "
                                    "of the match", "game_over", key="err.game_over_next")
            raise ApiError(409, f"the {'match' if s.match is not None else 'game'} is "
                                "over", "game_over", key="err.game_over")
        actor = SIDE_NAMES[g.turn]
        if g.phase not in ("opening", "over"):
            kind = s.meta["players"][actor]["type"]
            if by_ai and kind != "ai":
                raise ApiError(409, f"{actor} is played by a person, not the AI",
                               "wrong_player", key=f"err.person_plays.{actor}")
            if not by_ai and kind == "ai":
                raise ApiError(409, f"it is {actor}'s turn and the AI plays {actor}: "
                                    "POST .../ai", "wrong_player",
                               key=f"err.ai_plays.{actor}")
        if side is not None and g.phase not in ("opening", "over") and side != actor:
            raise ApiError(409, f"it is {actor}'s turn, not {side}'s", "wrong_player",
                           key=f"err.turn_of.{actor}")
        return actor

    def _after_roll(self, s: Session, side: str, kind: str) -> None:
        g = s.game
        d = list(g.dice or ())
        opening = None
        if kind == "opening":
            opening = opening_throws(g.history)
            side = SIDE_NAMES[g.position.turn]
        s.last = {"kind": kind, "side": side, "dice": d, "opening": opening}
        if not g.legal_moves():
            g.play(None)
            s.last = {"kind": "pass", "side": side, "dice": d, "opening": opening}

    def roll(self, game_id: str, body: Side) -> dict[str, Any]:
        def do(s: Session, side: str) -> None:
            g = s.game
            kind = "opening" if g.phase == "opening" else "roll"
            g.roll()
            self._after_roll(s, side, kind)

        return self.act(game_id, do, side=body.side)

    def move(self, game_id: str, body: MoveBody) -> dict[str, Any]:
        either('move (notation such as "24/18 13/11") or steps ([[24, 18], [13, 11]])',
               move=body.move, steps=body.steps)

        def do(s: Session, side: str) -> None:
            g = s.game
            if g.phase != "move":
                raise WrongState("roll the dice before moving" if g.phase in
                                 ("roll", "opening") else "answer the double first")
            before = g.position
            if body.steps is not None:
                chosen = match_steps(g, body.steps)
            else:
                if not body.move or not body.move.strip():
                    raise ApiError(422, "move: empty (a turn without a legal move passes "
                                        "by itself)", "invalid", key="err.empty_move")
                chosen = g.position.find_move(body.move, g.dice, g.rules)
            dice = list(g.dice or ())
            g.play(chosen)
            s.last = {"kind": "move", "side": side, "dice": dice, "move": str(chosen),
                      "steps": shown.steps_json(chosen), "before": before.to_json()}

        return self.act(game_id, do, side=body.side)

    def double(self, game_id: str, body: Side) -> dict[str, Any]:
        def do(s: Session, side: str) -> None:
            s.game.double()
            s.last = {"kind": "double", "side": side, "value": s.game.cube_value * 2}

        return self.act(game_id, do, side=body.side)

    def take(self, game_id: str, body: Side) -> dict[str, Any]:
        def do(s: Session, side: str) -> None:
            s.game.take()
            s.last = {"kind": "take", "side": side, "value": s.game.cube_value}

        return self.act(game_id, do, side=body.side)

    def drop(self, game_id: str, body: Side) -> dict[str, Any]:
        def do(s: Session, side: str) -> None:
            s.game.drop()
            s.last = {"kind": "drop", "side": side}

        return self.act(game_id, do, side=body.side)

    def next_game(self, game_id: str, body: Side) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            if s.imported:
                raise ApiError(409, "an imported record is for review only", "read_only",
                               key="err.read_only")
            m = s.match
            if m is None:
                raise ApiError(409, "a single game has no next game: start a new one",
                               "wrong_state", key="err.no_next")
            try:
                m.next_game()
            except TavliError as e:
                raise engine_error(e) from None
            s.last = {"kind": "next", "game": m.game.rules.game_name}
            self.save(s)
            return self.state(s)

    def ai(self, game_id: str, body: Side) -> dict[str, Any]:
        """The AI's next action, thought out in this thread (the app thinks in its worker
        processes: :meth:`ai_job`, :func:`tavli.web.workers.ai_action`, :meth:`ai_apply`)."""
        job, version = self.ai_job(game_id, body)
        return self.ai_apply(game_id, body, version, workers.ai_action(job))

    def ai_job(self, game_id: str, body: Side) -> tuple[dict[str, Any], int]:
        """What the AI needs to choose its next action (small, for a worker process), and
        the game's version it is for."""
        s = self.session(game_id)
        with s.lock:
            side = self.check_action(s, body.side, True)
            g = s.game
            if g.phase == "opening":
                raise ApiError(409, "the opening throw is made by the player (POST .../roll)",
                               "wrong_state", key="err.opening_by_player")
            job = {"engine": self.engine_name(g.rules.game),
                   "level": s.meta["players"][side].get("level", "expert"),
                   "rules": g.rules.to_dict(), "position": g.position.id(),
                   "phase": g.phase, "dice": list(g.dice) if g.dice else None,
                   "cube_value": g.cube_value, "cube_owner": g.cube_owner,
                   "can_double": g.can_double(), "match": match_state(g, s.match)}
            return job, s.version

    def ai_apply(self, game_id: str, body: Side, version: int,
                 decision: dict[str, Any]) -> dict[str, Any]:
        """Play the AI's ``decision`` (from :func:`tavli.web.workers.ai_action`) if the game
        is still at ``version``."""
        def do(s: Session, side: str) -> None:
            if s.version != version:
                raise ApiError(409, "the game changed while the AI was thinking",
                               "conflict", key="err.conflict")
            g = s.game
            action = decision["action"]
            if action == "drop":
                g.drop()
                s.last = {"kind": "drop", "side": side}
            elif action in ("take", "beaver"):
                g.take()
                s.last = {"kind": "take", "side": side, "value": g.cube_value}
            elif action == "double":
                g.double()
                s.last = {"kind": "double", "side": side, "value": g.cube_value * 2}
            elif action == "roll":
                g.roll()
                self._after_roll(s, side, "roll")
            else:
                before = g.position
                dice = list(g.dice or ())
                legal = g.legal_moves()
                move = next((m for m in legal if str(m) == decision["move"]
                             and m.after.id() == decision["after"]), None)
                if move is None and legal:
                    raise ApiError(500, f"the AI chose a move that is not legal: "
                                        f"{decision['move']}", "engine", key="err.engine")
                g.play(move)
                if move is None:
                    s.last = {"kind": "pass", "side": side, "dice": dice}
                else:
                    s.last = {"kind": "move", "side": side, "dice": dice,
                              "move": str(move), "steps": shown.steps_json(move),
                              "before": before.to_json()}

        return self.act(game_id, do, side=body.side, by_ai=True)

    # analysis ------------------------------------------------------------------------------
    def hint(self, game_id: str, level: str | None) -> dict[str, Any]:
        """The legal moves ranked, thought out in this thread (the app: :meth:`hint_job`,
        then :func:`tavli.web.workers.hint_moves` in a worker)."""
        out, job = self.hint_job(game_id, level)
        return {**out, **workers.hint_moves(job)}

    def hint_job(self, game_id: str, level: str | None) -> tuple[dict[str, Any],
                                                                   dict[str, Any]]:
        """The answer's head and what a worker needs to rank the moves."""
        s = self.session(game_id)
        ply = hint_plies(level)
        with s.lock:
            g = s.game
            if g.phase != "move" or not g.dice:
                raise ApiError(409, "a hint ranks the moves of a roll: roll the dice first",
                               "wrong_state", key="err.hint_roll")
            engine = self.engine_name(g.rules.game)
            out: dict[str, Any] = {"dice": list(g.dice), "ply": ply, "side": SIDE_NAMES[g.turn],
                                   "engine": engine}
            job = {"engine": engine, "ply": ply, "rules": g.rules.to_dict(),
                   "position": g.position.id(), "dice": list(g.dice),
                   "match": match_state(g, s.match)}
            return out, job

    def cube_hint(self, game_id: str, level: str | None) -> dict[str, Any]:
        """The cube decision due now, thought out in this thread (the app:
        :meth:`cube_hint_job`, then :func:`tavli.web.cubehint.cube_hint` in a worker)."""
        return cubehint.cube_hint(self.cube_hint_job(game_id, level))

    def cube_hint_job(self, game_id: str, level: str | None) -> dict[str, Any]:
        """What a worker needs for the cube decision due in ``game_id`` at the hint's
        ``level`` (default expert); 409 when none is due."""
        s = self.session(game_id)
        ply = hint_plies(level)
        with s.lock:
            return cubehint.cube_job(s, ply, self.engine_name(s.game.rules.game))

    def review(self, game_id: str, ply: int | None) -> dict[str, Any]:
        """The review of a game or match, waited for (the app answers with its progress
        meanwhile: :meth:`review_job`)."""
        job = self.review_job(game_id, ply)
        job.finished.wait()
        if job.error is not None:
            raise ApiError(*job.error)
        return job.result

    def review_job(self, game_id: str, ply: int | None) -> ReviewJob:
        """The review of the game as it stands, at ``ply`` (default: one ply deeper than
        an AI player played, at most 2, and at least the app's ply): made in
        the worker processes, in parts, in the background; requests for the same review
        share one job, and finished ones are kept (:class:`tavli.web.reviews.Reviews`)."""
        from tavli.ai.analysis import ply_note, ply_note_msg, result_of, review_ply

        if ply is not None and ply not in (0, 1, 2):
            raise ApiError(422, "ply must be 0, 1 or 2", "invalid", key="err.ply")
        s = self.session(game_id)
        with s.lock:
            record = s.record()
            games = list(s.match.games) if s.match is not None else [s.game]
            title = s.meta["title"]
            total = sum(len(g.turns) for g in games)
            levels = {f"{side}'s AI": p.get("level", "expert")
                      for side, p in s.meta.get("players", {}).items()
                      if p.get("type") == "ai"}
            if ply is None:  # one ply deeper than the AI played (docs/web.md)
                ply = review_ply(levels, self.analysis_ply)
            head = {"id": game_id, "ply": ply, "title": title,
                    "ply_note": ply_note(ply, levels),
                    "ply_note_msg": ply_note_msg(ply, levels),
                    "result": result_of(s.match if s.match is not None else s.game),
                    "games": [{"number": i + 1, "game": g.rules.game_name,
                               "result": g.outcome.to_dict() if g.outcome else None}
                              for i, g in enumerate(games)]}
        for g in games:
            if self.engine_name(g.rules.game) != "neural":
                raise ApiError(409, f"no trained network for {g.rules.game_name} is installed: "
                                    "the review needs one", "unavailable", key="err.no_network")
        digest = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
        return self.reviews.start((game_id, digest, ply), record, digest, ply, total, head)

    def export(self, game_id: str) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            return s.record()

    def export_text(self, game_id: str, fmt: str) -> str:
        """The game or match as a gnubg ``.mat`` or ``.sgf`` file (422 for a game those
        files cannot hold: not backgammon, or set up from another position)."""
        s = self.session(game_id)
        with s.lock:
            if fmt not in exchange.formats_of(s.obj):
                raise ApiError(422, f".{fmt} files hold backgammon games and matches from "
                                    f"the opening position, not this {s.game.rules.game_name} "
                                    "game: export it as a tavli record (format=json)",
                               "unsupported", key="err.format_backgammon")
            return exchange.export_text(s.obj, fmt)


__all__ = ["TavliApi", "MoveBody", "hint_plies"]
