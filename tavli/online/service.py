"""Online games played through the store: set up, checked by the engine, committed, replayed.

A game in memory is a :class:`Table`: the engine's game or match (built from the
settings by the browser app's New game code, :func:`tavli.web.newgame.new_session`), its
fair dice (:class:`~tavli.online.fairdice.FairDice`), the seats and the number of the
last action applied. Its state is what the log makes of the settings: a table is
rebuilt by replaying the stored actions through the same :func:`apply` that accepted
them (and the replay must give the results the log holds).

:meth:`OnlineGames.act` is the one way an action gets in: the seat token names the side
(:class:`~tavli.errors.AccessDenied` for a forged one; spectators have none), the action
must carry the game's next sequence number (:class:`~tavli.errors.StaleAction` for a
replayed or duplicated one), the engine checks it (an illegal move, an action out of
turn: nothing changes), and it is committed with the game's new record before
:meth:`act` returns. The record of a finished game reveals the server seed.

>>> from tavli.online.store import open_store
>>> from tavli.web.newgame import NewGame
>>> games = OnlineGames(open_store(":memory:"))
>>> new = games.create(NewGame(variant="portes", opponent="human"), name="Ann")
>>> games.act(new.game_id, new.invite_token, 1, {"type": "join", "name": "Bob"}).result
{'name': 'Bob'}
>>> games.act(new.game_id, "forged-token", 2, {"type": "roll"})
Traceback (most recent call last):
...
tavli.errors.AccessDenied: this token is not a seat of the game: spectators only watch
>>> games.act(new.game_id, new.token, 2, {"type": "roll"})
Traceback (most recent call last):
...
tavli.errors.WrongState: the dice wait for white and black's seed
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field, ValidationError

from ..errors import AccessDenied, GameOver, StaleAction, StoreError, TavliError, WrongState
from ..game import Game
from ..history import opening_throws
from ..layout import SIDE_NAMES
from ..match import Match
from ..record import record_of
from . import fairdice
from .store import (
    Action,
    GameRow,
    OnlineStore,
    Seat,
    new_game_row,
    new_token,
    token_hash,
)

CACHE = 256  # games kept in memory (the others replay from the store when asked for)
ID_BYTES = 16  # a game id is 128 random bits: knowing it lets one watch


def _web() -> Any:
    """The browser app's modules this one shares (loaded when first needed)."""
    from ..web import errors, newgame, steps

    return errors, newgame, steps


# --- actions -----------------------------------------------------------------------------

def action_model() -> Any:
    """The pydantic model of an action as a client sends it (strict JSON types, no
    unknown fields): ``type`` and the fields that type takes."""
    global _ActionBody
    if _ActionBody is None:
        errors, _, _ = _web()

        class ActionBody(errors.Body):
            type: Literal["join", "seed", "roll", "move", "double", "take", "beaver", "drop",
                          "resign", "next"]
            name: str | None = Field(None, min_length=1, max_length=40)
            seed: str | None = Field(None, max_length=128)
            move: str | None = Field(None, max_length=100)
            steps: list[tuple[int | str, int | str]] | None = Field(None, max_length=8)
            value: Literal["single", "gammon", "backgammon"] | None = None

        _ActionBody = ActionBody
    return _ActionBody


_ActionBody: Any = None
_FIELDS = {"join": {"name"}, "seed": {"seed"}, "move": {"move", "steps"},
           "resign": {"value"}}


def read_action(data: Any) -> dict[str, Any]:
    """An action checked for its form (422 ApiError otherwise), as the log stores it."""
    errors, _, _ = _web()
    if not isinstance(data, dict):
        raise errors.ApiError(422, "an action is a JSON object", "invalid")
    try:
        body = action_model().model_validate(data)
    except ValidationError as e:
        raise errors.ApiError(422, errors.validation_text(e), "invalid") from None
    out = body.model_dump(exclude_none=True)
    extra = set(out) - {"type"} - _FIELDS.get(body.type, set())
    if extra:
        raise errors.ApiError(422, f"a {body.type} action has no {', '.join(sorted(extra))}",
                              "invalid")
    if body.type == "join" and body.name is None:
        raise errors.ApiError(422, "join: give the player's name", "invalid")
    if body.type == "join" and (not body.name.strip() or "\n" in body.name):
        raise errors.ApiError(422, "join: a name is one line of text", "invalid")
    if body.type == "seed" and body.seed is None:
        raise errors.ApiError(422, "seed: give the client seed", "invalid")
    if body.type == "move":
        errors.either('move (notation such as "24/18 13/11") or steps ([[24, 18], '
                      '[13, 11]])', move=body.move, steps=body.steps)
    if "steps" in out:
        out["steps"] = [list(s) for s in out["steps"]]
    return out


# --- a game in memory ----------------------------------------------------------------------

@dataclass
class Table:
    """An online game or match in memory (guard it with :attr:`lock`)."""

    row: GameRow
    obj: Game | Match
    dice: fairdice.FairDice
    seats: dict[str, Seat]
    seq: int = 0
    lock: threading.RLock = field(default_factory=threading.RLock)
    recent: list[Action] = field(default_factory=list)  # the last actions (for the fan-out)
    moves: tuple[Any, list[tuple[str, Any]]] = (None, [])  # see :func:`moves_of`

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def match(self) -> Match | None:
        return self.obj if isinstance(self.obj, Match) else None

    @property
    def game(self) -> Game:
        return self.obj.game if isinstance(self.obj, Match) else self.obj

    @property
    def finished(self) -> bool:
        m = self.match
        return m.is_over if m is not None else self.game.is_over

    def status(self) -> str:
        """over, open (a person's seat not taken yet) or playing."""
        if self.finished:
            return "over"
        if any(s.player == "human" and s.joined is None for s in self.seats.values()):
            return "open"
        return "playing"

    def record(self) -> dict[str, Any]:
        """The engine's record with the fair-dice proof; the server seed only at the end."""
        rec = record_of(self.obj)
        rec["fair_dice"] = self.dice.proof(reveal=self.finished)
        return rec


def build(row: GameRow, seats: list[Seat]) -> Table:
    """A table at its start: the game or match of ``row.settings`` with fair dice."""
    _, newgame, _ = _web()
    s = newgame.new_session(newgame.NewGame(**row.settings["game"]))
    dice = fairdice.FairDice(row.server_seed)
    for side, seed in row.settings.get("ai_seeds", {}).items():
        dice.set_client_seed(side, seed)
    obj = s.obj
    if isinstance(obj, Match):
        obj.dice_source = dice
        for g in obj.games:
            g.dice_source = dice
    else:
        obj.dice_source = dice
    return Table(row, obj, dice, {st.side: st for st in seats})


def moves_of(t: Table) -> list[tuple[str, Any]]:
    """The legal moves of the roll to play with their canonical text, computed once per
    position (the state shows them, and a move sent as one of these texts is found
    without writing every move out again)."""
    g = t.game
    key = (t.seq, id(g), len(g.history), g.phase)
    if t.moves[0] != key:
        t.moves = (key, [(str(m), m) for m in g.legal_moves()]
                   if g.phase == "move" and not g.is_over else [])
    return t.moves[1]


def may_act(t: Table, side: str, kind: str) -> None:
    """Refuse (WrongState, GameOver) what ``side`` may not do now; the engine checks the
    rest."""
    g = t.game
    if kind in ("join", "seed"):
        return
    if kind == "next":
        if t.match is None:
            raise WrongState("a single game has no next game")
        return  # the match says whether the game is over
    if g.is_over:
        if t.match is not None and not t.finished:
            raise GameOver("this game is over: the match's next game waits (action next)")
        raise GameOver(f"the {'match' if t.match is not None else 'game'} is over")
    if kind == "resign" or g.phase == "opening":
        return  # either side resigns for itself, either throws the opening dice
    actor = SIDE_NAMES[g.turn]
    if side != actor:
        raise WrongState(f"it is {actor}'s turn, not {side}'s")


def apply(t: Table, side: str, a: dict[str, Any]) -> dict[str, Any]:
    """Play action ``a`` of ``side`` in ``t`` through the engine and say what it did (the
    log's ``result``). Raises the engine's error, or WrongState/GameOver, when it may not
    be played; nothing changes then."""
    kind = a["type"]
    may_act(t, side, kind)
    g = t.game
    if kind == "join":
        seat = t.seats[side]
        if seat.player != "human":
            raise WrongState(f"{side} is played by the AI")
        return {"name": a["name"].strip()}
    if kind == "seed":
        t.dice.set_client_seed(side, a["seed"])
        return {}
    if kind == "roll":
        opening = g.phase == "opening"
        dice = g.roll()
        out: dict[str, Any] = {"dice": list(dice)}
        if opening:
            out["opening"] = opening_throws(g.history)
            out["starter"] = SIDE_NAMES[g.position.turn]
        if not g.legal_moves():
            g.play(None)
            out["pass"] = True
        return out
    if kind == "move":
        if g.phase != "move":
            raise WrongState("roll the dice before moving" if g.phase in ("roll", "opening")
                             else "answer the double first")
        if "steps" in a:
            _, _, steps = _web()
            chosen = steps.match_steps(g, a["steps"])
        else:
            chosen = next((m for text, m in moves_of(t) if text == a["move"]), None)
            if chosen is None:  # another way of writing it (or no such move)
                chosen = g.position.find_move(a["move"], g.dice, g.rules)
        g.play(chosen)
        return {"move": str(chosen), "position": g.position.id()}
    if kind == "double":
        g.double()
        return {"cube": g.cube_value * 2}
    if kind == "take":
        g.take()
        return {"cube": g.cube_value}
    if kind == "beaver":
        g.beaver()
        return {"cube": g.cube_value}
    if kind == "drop":
        g.drop()
        return {}
    if kind == "resign":
        g.resign(SIDE_NAMES.index(side), a.get("value", "single"))
        return {"outcome": g.outcome.to_dict() if g.outcome else None}
    if kind == "next":
        assert t.match is not None
        t.match.next_game()
        return {"game": t.match.game.rules.game_name}
    raise WrongState(f"unknown action {kind!r}")


# --- the service -------------------------------------------------------------------------

@dataclass(frozen=True)
class Created:
    """A new game: its id, the creator's side and token, the invited seat's side and token
    (None against the AI) and the dice commitment."""

    game_id: str
    side: str
    token: str
    invite_side: str
    invite_token: str | None
    commitment: str


class OnlineGames:
    """Online games over an :class:`~tavli.online.store.OnlineStore` (usable without a
    network: the WebSocket server sits on top)."""

    def __init__(self, store: OnlineStore, cache: int = CACHE) -> None:
        from ..web.limits import SessionCache

        self.store = store
        self.tables: SessionCache[Table] = SessionCache(cache)
        self.lock = threading.Lock()  # guards the cache only
        # the last action number heard of per game, once a listener of the store feeds
        # :meth:`heard` (None: nobody does, so every read of a game looks at the log)
        self.known: dict[str, int] | None = None

    # --- creating ------------------------------------------------------------------------
    def create(self, req: Any, name: str, side: str = "white") -> Created:
        """A new game or match as ``req`` (a :class:`tavli.web.newgame.NewGame`) asks,
        created by ``name`` playing ``side``: against the AI when ``req.opponent`` is
        "ai" (on ``req.ai_side``), else against a person invited with the other seat's
        token. Fair dice: ``req.seed`` is refused."""
        errors, newgame, _ = _web()
        if req.seed is not None:
            raise errors.ApiError(422, "seed: online games roll provably fair dice, not "
                                       "seeded ones", "invalid")
        if side not in SIDE_NAMES:
            raise errors.ApiError(422, f"side must be white or black, not {side!r}", "invalid")
        name = read_action({"type": "join", "name": name})["name"].strip()
        other = SIDE_NAMES[1 - SIDE_NAMES.index(side)]
        if req.opponent == "ai" and req.ai_side != other:
            raise errors.ApiError(422, f"the AI plays {req.ai_side}: the creator plays "
                                       f"{other}", "invalid")
        newgame.new_session(req)  # checked as the browser app checks a New game (422)
        game_id = secrets.token_urlsafe(ID_BYTES)
        server_seed = fairdice.new_server_seed()
        settings: dict[str, Any] = {"game": req.model_dump(exclude={"seed"})}
        if req.opponent == "ai":  # fixed now, before any player's seed is known
            settings["ai_seeds"] = {other: fairdice.new_client_seed()}
        row = new_game_row(game_id, "game", req.variant, settings,
                           fairdice.commitment(server_seed), server_seed)
        token = new_token()
        invite = None if req.opponent == "ai" else new_token()
        now = time.time()
        seats = [Seat(game_id, side, "human", name, None, token_hash(token), now)]
        if invite is None:
            seats.append(Seat(game_id, other, "ai", None, req.level.strip().lower()))
        else:
            seats.append(Seat(game_id, other, "human", token_hash=token_hash(invite)))
        t = build(row, seats)
        kind = "match" if t.match is not None else "game"
        row = GameRow(**{**row.__dict__, "kind": kind, "status": t.status(),
                         "record": t.record()})
        t.row = row
        self.store.create(row, seats)
        with self.lock:
            self.tables[game_id] = t
        return Created(game_id, side, token, other, invite, row.commitment)

    # --- reading -------------------------------------------------------------------------
    def table(self, game_id: str) -> Table:
        """The game ``game_id`` in memory, up to date with the store (another process may
        have moved it on); :class:`StoreError` when there is none."""
        t = self.tables.get(game_id)
        if t is None:
            row = self.store.game(game_id)
            if row is None:
                raise StoreError(f"no online game {game_id!r}"[:80])
            fresh = build(row, self.store.seats(game_id))
            with self.lock:
                t = self.tables.setdefault(game_id, fresh)
        with t.lock:
            known = None if self.known is None else self.known.get(game_id)
            if known is None or known > t.seq:  # else nothing new: no read of the log
                self._catch_up(t)
                if self.known is not None:
                    self.known[game_id] = max(t.seq, self.known.get(game_id, 0))
        return t

    def refresh(self, game_id: str) -> None:
        """The next read of ``game_id`` looks at the log (a client arrives: it may have
        seen what another process committed before this one heard of it)."""
        if self.known is not None:
            self.known.pop(game_id, None)

    def heard(self, game_id: str, seq: int) -> None:
        """The store says game ``game_id`` has action ``seq`` (a listener's notice): the
        next read of the game catches up with the log; until then it is read from memory
        (an action of a table behind the log is refused by the store, and the table
        rebuilt, so this only saves reads)."""
        if self.known is None:
            self.known = {}
        if len(self.known) > 16 * CACHE:
            self.known.clear()  # forgotten: read the log once more
        if seq > self.known.get(game_id, 0):
            self.known[game_id] = seq

    def _catch_up(self, t: Table) -> None:
        """Apply the logged actions after ``t.seq`` (under ``t.lock``), each checked
        against the result the log holds."""
        news = self.store.actions(t.id, after=t.seq)
        if not news:
            return
        try:
            for a in news:
                got = apply(t, a.side, a.action) if a.side else {}
                if got != a.result:
                    raise StoreError(f"game {t.id}: the log does not replay at action {a.seq} "
                                     f"(it says {a.result}, the engine {got})")
                t.seq = a.seq
                t.recent = [*t.recent[-7:], a]
        except TavliError as e:
            self._drop(t.id)
            if isinstance(e, StoreError):
                raise
            raise StoreError(f"game {t.id}: the log does not replay at action {a.seq}: "
                             f"{e}") from None
        t.seats = {s.side: s for s in self.store.seats(t.id)}

    def _drop(self, game_id: str) -> None:
        with self.lock:
            self.tables.pop(game_id, None)

    def seat(self, game_id: str, token: str | None) -> Seat:
        """The seat whose token is ``token`` (:class:`AccessDenied` for none)."""
        if not token or not isinstance(token, str) or len(token) > 200:
            raise AccessDenied("a seat token is needed to act: spectators only watch")
        t = self.tables.get(game_id)  # in memory: no read of the store
        h = token_hash(token)
        seat = next((s for s in t.seats.values() if s.token_hash == h), None) if t else None
        if seat is None:
            seat = self.store.seat_by_token(game_id, token)
        if seat is None:
            raise AccessDenied("this token is not a seat of the game: spectators only watch")
        return seat

    def view(self, game_id: str) -> dict[str, Any]:
        """What anyone may see of the game (players and spectators alike): status, the
        last action's number, the commitment, the seats (names, not tokens) and the state,
        with the legal moves of the roll to play (the page offers them: no rule in
        JavaScript) and whether the side to roll may double (the record, with the
        server seed once it is over: :meth:`record`)."""
        t = self.table(game_id)
        with t.lock:
            g = t.game
            return {
                "id": t.id, "status": t.status(), "seq": t.seq, "kind": t.row.kind,
                "variant": t.row.variant, "commitment": t.dice.commitment,
                "seats": [{"side": s.side, "player": s.player, "name": s.name,
                           "level": s.level, "joined": s.joined is not None,
                           "seeded": s.side in t.dice.client_seeds}
                          for s in t.seats.values()],
                "game": g.rules.game_name, "phase": g.phase, "turn": SIDE_NAMES[g.turn],
                "position": g.position.id(), "dice": list(g.dice) if g.dice else None,
                "cube": {"value": g.cube_value, "owner": None if g.cube_owner is None
                         else SIDE_NAMES[g.cube_owner]},
                "outcome": g.outcome.to_dict() if g.outcome else None,
                "score": list(t.match.score) if t.match else None,
                "can_double": g.phase == "roll" and not g.is_over and g.can_double(),
                "legal_moves": [{"move": text, "steps": [[f, to, bool(h)]
                                                         for f, to, h in m.steps]}
                                for text, m in moves_of(t)],
            }

    def record(self, game_id: str) -> dict[str, Any]:
        """The game's record with its fair-dice proof (``tavli verify`` checks it once the
        game is over and the server seed is revealed)."""
        t = self.table(game_id)
        with t.lock:
            return t.record()

    # --- acting --------------------------------------------------------------------------
    def act(self, game_id: str, token: str | None, seq: int, action: Any) -> Action:
        """Play ``action`` for the seat of ``token`` as the game's action number ``seq``;
        the accepted action once it is committed."""
        a = read_action(action)
        seat = self.seat(game_id, token)
        return self._commit(game_id, seat.side, seq, a)

    def act_for_ai(self, game_id: str, seq: int, action: Any) -> Action:
        """Play the AI seat's ``action`` (the server decides for it)."""
        a = read_action(action)
        t = self.table(game_id)
        ai = [s.side for s in t.seats.values() if s.player == "ai"]
        if not ai:
            raise AccessDenied("no seat of this game is played by the AI")
        return self._commit(game_id, ai[0], seq, a)

    def _commit(self, game_id: str, side: str, seq: int, a: dict[str, Any]) -> Action:
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise StaleAction(f"an action carries its sequence number, not {seq!r}"[:80])
        t = self.table(game_id)
        with t.lock:
            if seq > t.seq + 1:  # the log may be ahead of this table (not heard of yet)
                self._catch_up(t)
            if seq != t.seq + 1:
                raise StaleAction(f"game {game_id} is at action {t.seq}: action {seq} is not "
                                  f"the next ({t.seq + 1}); it may have been sent before")
            if a["type"] == "join" and t.seats[side].joined is not None:
                raise WrongState(f"{side} has joined already")
            mark = (len(t.game.history), t.dice.drawn, len(t.dice.client_seeds),
                    len(t.match.games) if t.match else 1)
            try:
                result = apply(t, side, a)
            except TavliError:
                if mark != (len(t.game.history), t.dice.drawn, len(t.dice.client_seeds),
                            len(t.match.games) if t.match else 1):
                    self._drop(game_id)  # half done: the store has the truth
                raise
            done = Action(game_id, seq, side, a, result)
            if a["type"] == "join":
                t.seats[side] = Seat(**{**t.seats[side].__dict__, "name": result["name"],
                                        "joined": done.at})
            try:
                # the record is stored once it is over (the log is the game until
                # then: writing the whole record with every action cost more than the rest)
                self.store.append(done, status=t.status(),
                                  record=t.record() if t.finished else None)
                if a["type"] == "join":
                    self.store.update_seat(game_id, side, name=result["name"], joined=done.at)
            except BaseException:
                self._drop(game_id)  # not stored: forget what was applied
                raise
            t.seq = seq
            t.recent = [*t.recent[-7:], done]
            return done


__all__ = ["OnlineGames", "Table", "Created", "apply", "read_action", "build"]
