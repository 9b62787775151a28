"""The backgammon family (Portes, Plakoto, Fevga, backgammon; single games and matches)
as a kind of game of the browser app's one API (:class:`DiceGames`; docs/web.md).

The server owns the dice and the rules: the page only shows what the API returns and
sends the player's choices, each checked by the engine. Every game or match lives in the
app's store (table ``games``), written after every action, so an unfinished game survives
a restart of the server. Making a game is :mod:`tavli.web.newgame`, storing it
:mod:`tavli.web.sessions`, showing it :mod:`tavli.web.shown`.
"""

from __future__ import annotations

from typing import Any

from tavli.engine.layout import SIDE_NAMES
from tavli.errors import RuleError, TavliError, WrongState
from tavli.play.cube.scoring import match_state
from tavli.play.history import opening_throws
from tavli.store.local import LocalStore
from tavli.web import cubehint, exchange, listing, shown, workers
from tavli.web.errors import ApiError, either, engine_error
from tavli.web.info import check_kind
from tavli.web.kind import Do, GameKind, MoveBody, ResignBody
from tavli.web.newgame import (
    ContinueGame,
    NewGame,
    continued_session,
    imported_session,
    new_session,
    rematch_request,
)
from tavli.web.reviews import ReviewJob, Reviews, start_review
from tavli.web.sessions import Session, restore, row
from tavli.web.steps import match_steps


def hint_plies(level: str | None) -> int:
    """The plies a hint at ``level`` (its name or ply; None: the default) looks ahead, else
    the 422 of a level that is not one."""
    from tavli.ai.levels import parse_level

    try:
        return parse_level(level).plies
    except RuleError as e:
        raise ApiError(422, f"level: {e}", "invalid", key="err.level") from None


def engine_name(game: int) -> str:
    """Which engine plays ``game`` in the app: its network, else the greedy player."""
    from tavli.ai.shipped import has_shipped_net

    return "neural" if has_shipped_net(game) else "greedy"


class DiceGames(GameKind):
    """The backgammon family's games and matches over the app's store (table ``games``):
    the rules of the app (who may act, what an action does, what the AI and the reviews
    need)."""

    listed = listing.TAVLI
    display = "a dice game"
    decide = staticmethod(workers.ai_action)
    quick = staticmethod(workers.quick_action)

    def __init__(self, store: LocalStore, reviews: Reviews, analysis_ply: int = 1) -> None:
        self.store = store
        self.reviews = reviews
        self.analysis_ply = analysis_ply   # the review's least ply

    # making and storing ----------------------------------------------------------------
    def makes(self, variant: str) -> bool:
        try:
            check_kind(variant)
        except ValueError:
            return False
        return True

    def new_session(self, req: NewGame) -> Session:
        return new_session(req)

    def rematch_request(self, s: Session) -> NewGame:
        return rematch_request(s)

    def imported(self, data: Any) -> Session:
        """A review-only session of an imported record or file
        (:func:`tavli.web.newgame.imported_session`)."""
        return imported_session(data)

    def continued(self, s: Session, req: ContinueGame) -> Session:
        return continued_session(s, req)

    def load(self, game_id: str) -> Session | None:
        stored = self.store.get(game_id)
        if stored is None:
            return None
        try:
            return restore(game_id, stored["record"], stored["meta"])
        except TavliError as e:
            raise ApiError(409, f"the stored game {game_id} does not replay: {e}",
                           "corrupt", key="err.corrupt") from None

    def stored(self, game_id: str) -> bool:
        return self.store.get(game_id) is not None

    def save(self, s: Session) -> None:
        s.meta["formats"] = exchange.formats_of(s.obj)  # what the list offers to export
        self.store.save(s.id, **row(s))

    def remove(self, game_id: str) -> bool:
        return self.store.delete(game_id)

    def state(self, s: Session) -> dict[str, Any]:
        out = shown.state(s, engine_name)
        g = s.game
        out.update(
            # a cube decision is due and the engine can value it: the page's Cube hint
            cube_hint=cubehint.due(g) is not None and engine_name(g.rules.game) == "neural",
            ids=exchange.ids(s), formats=exchange.formats_of(s.obj),
            can_continue=s.imported and not s.finished)
        return out

    # who acts --------------------------------------------------------------------------
    def over(self, s: Session) -> ApiError | None:
        if not s.game.is_over:
            return None
        if s.match is not None and not s.match.is_over:
            return ApiError(409, "this game is over: POST .../next starts the next game "
                                 "of the match", "game_over", key="err.game_over_next")
        return ApiError(409, f"the {s.what} is over", "game_over", key="err.game_over")

    def actor(self, s: Session) -> str:
        return SIDE_NAMES[s.game.turn]

    def open_to_both(self, s: Session) -> bool:
        return s.game.phase == "opening"   # either player may make the opening throw

    # the AI ----------------------------------------------------------------------------
    def ai_job(self, s: Session, side: str) -> dict[str, Any]:
        """The position, dice, cube and match score (:func:`tavli.web.workers.ai_action`)."""
        g = s.game
        if g.phase == "opening":
            raise ApiError(409, "the opening throw is made by the player (POST .../roll)",
                           "wrong_state", key="err.opening_by_player")
        return {"engine": engine_name(g.rules.game),
                "level": s.meta["players"][side].get("level", "expert"),
                "rules": g.rules.to_dict(), "position": g.position.id(),
                "phase": g.phase, "dice": list(g.dice) if g.dice else None,
                "cube_value": g.cube_value, "cube_owner": g.cube_owner,
                "can_double": g.can_double(), "match": match_state(g, s.match)}

    def ai_apply(self, s: Session, side: str, decision: dict[str, Any]) -> None:
        action = decision["action"]
        if action == "drop":
            self.drop()(s, side)
        elif action == "take":
            self.take()(s, side)
        elif action == "beaver":  # the AI beavers when the rules allow it and it pays
            self.beaver()(s, side)
        elif action == "double":
            self.double()(s, side)
        elif action == "roll":
            s.game.roll()
            _after_roll(s, side, "roll")
        else:
            _ai_move(s, side, decision)

    # actions ---------------------------------------------------------------------------
    def roll(self) -> Do:
        def do(s: Session, side: str) -> None:
            g = s.game
            kind = "opening" if g.phase == "opening" else "roll"
            g.roll()
            _after_roll(s, side, kind)

        return do

    def move(self, body: MoveBody) -> Do:
        if body.path is not None:
            raise ApiError(422, "path: a move of the dice games is its text (move) or its "
                                "steps", "invalid", key="err.fields",
                           params={"fields": "path"})
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

        return do

    def double(self) -> Do:
        def do(s: Session, side: str) -> None:
            s.game.double()
            s.last = {"kind": "double", "side": side, "value": s.game.cube_value * 2}

        return do

    def take(self) -> Do:
        def do(s: Session, side: str) -> None:
            s.game.take()
            s.last = {"kind": "take", "side": side, "value": s.game.cube_value}

        return do

    def drop(self) -> Do:
        def do(s: Session, side: str) -> None:
            s.game.drop()
            s.last = {"kind": "drop", "side": side}

        return do

    def beaver(self) -> Do:
        """Take and redouble at once, keeping the cube (money play with beavers on)."""
        def do(s: Session, side: str) -> None:
            s.game.beaver()
            s.last = {"kind": "beaver", "side": side, "value": s.game.cube_value}

        return do

    def resign(self, body: ResignBody) -> Do:
        def do(s: Session, side: str) -> None:
            s.game.resign(SIDE_NAMES.index(side), body.value)
            s.last = {"kind": "resign", "side": side, "value": body.value}

        return do

    def next_game(self, s: Session) -> None:
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

    # analysis --------------------------------------------------------------------------
    def hint_job(self, s: Session, level: str | None
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The answer's head and what :func:`tavli.web.workers.hint_moves` needs."""
        ply = hint_plies(level)
        with s.lock:
            g = s.game
            if g.phase != "move" or not g.dice:
                raise ApiError(409, "a hint ranks the moves of a roll: roll the dice first",
                               "wrong_state", key="err.hint_roll")
            engine = engine_name(g.rules.game)
            out: dict[str, Any] = {"dice": list(g.dice), "ply": ply, "side": SIDE_NAMES[g.turn],
                                   "engine": engine}
            job = {"engine": engine, "ply": ply, "rules": g.rules.to_dict(),
                   "position": g.position.id(), "dice": list(g.dice),
                   "match": match_state(g, s.match)}
            return out, job

    def cube_hint_job(self, s: Session, level: str | None) -> dict[str, Any]:
        """What :func:`tavli.web.cubehint.cube_hint` needs for the cube decision due at the
        hint's ``level`` (default expert); 409 when none is due."""
        ply = hint_plies(level)
        with s.lock:
            return cubehint.cube_job(s, ply, engine_name(s.game.rules.game))

    def review_job(self, s: Session, ply: int | None) -> ReviewJob:
        """The review of the game as it stands, at ``ply`` (default: one ply deeper than
        an AI player played, at most 2, and at least the app's ply): made in
        the worker processes, in parts, in the background; requests for the same review
        share one job, and finished ones are kept (:class:`tavli.web.reviews.Reviews`)."""
        with s.lock:
            record = s.record()
            levels = {f"{side}'s AI": p.get("level", "expert")
                      for side, p in s.meta.get("players", {}).items()
                      if p.get("type") == "ai"}
            return start_review(self.reviews, s.id, s.obj, record, s.meta["title"], levels,
                                ply, self.analysis_ply)

    def export(self, s: Session) -> dict[str, Any]:
        return s.record()

    def export_text(self, s: Session, fmt: str) -> str:
        """The game or match as a gnubg ``.mat`` or ``.sgf`` file (422 for a game those
        files cannot hold: not backgammon, or set up from another position)."""
        return exchange.export_checked(s.obj, fmt)


def _after_roll(s: Session, side: str, kind: str) -> None:
    """The state's ``last`` after a roll (the opening throw: ``kind`` "opening"); a roll
    without a legal move passes at once."""
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


def _ai_move(s: Session, side: str, decision: dict[str, Any]) -> None:
    """Play the AI's move (``decision["move"]`` with the position after it), or its pass."""
    g = s.game
    before = g.position
    dice = list(g.dice or ())
    legal = g.legal_moves()
    move = next((m for m in legal if str(m) == decision["move"]
                 and m.after.id() == decision["after"]), None)
    if move is None and legal:
        raise ApiError(500, f"the AI chose a move that is not legal: {decision['move']}",
                       "engine", key="err.engine")
    g.play(move)
    if move is None:
        s.last = {"kind": "pass", "side": side, "dice": dice}
    else:
        s.last = {"kind": "move", "side": side, "dice": dice, "move": str(move),
                  "steps": shown.steps_json(move), "before": before.to_json()}


__all__ = ["DiceGames", "hint_plies", "engine_name"]
