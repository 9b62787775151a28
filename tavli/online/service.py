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

>>> from tavli.store.factory import open_store
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

import base64
import hashlib
import json
import secrets
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import Field, ValidationError

from tavli.engine.games import lookup
from tavli.engine.layout import SIDE_NAMES
from tavli.errors import (
    AccessDenied,
    ApiError,
    GameOver,
    StaleAction,
    StoreError,
    TavliError,
    WrongState,
)
from tavli.online import fairdice, rating
from tavli.online.clock import (
    DEFAULT_ABANDON,
    PRESENCE_BEAT,
    Clock,
    ClockError,
    absent_for,
    read_abandon,
    read_clock,
)
from tavli.online.drawn import board_view
from tavli.play.game import Game
from tavli.play.history import opening_throws
from tavli.play.match import Match
from tavli.play.record import record_of
from tavli.play.text import printable
from tavli.store.accounts import AccountStore, Result, Settlement
from tavli.store.base import Action, GameRow, Seat, new_game_row, new_token, token_hash
from tavli.store.online import OnlineStore
from tavli.web import exchange

#: games kept in memory (the others replay from the store when asked for): more than a
#: server's games in play, or it replays them all the time (about 100 KB each)
CACHE = 4096
ID_BYTES = 16  # a game id is 128 random bits: knowing it lets one watch
INBOX = 64  # carried actions a table keeps at most before it applies them


def _web() -> Any:
    """The browser app's modules this one shares (loaded when first needed)."""
    from tavli.web import errors, newgame, steps

    return errors, newgame, steps


# --- actions -----------------------------------------------------------------------------

def action_model() -> Any:
    """The pydantic model of an action as a client sends it (strict JSON types, no
    unknown fields): ``type`` and the fields that type takes."""
    global _ActionBody
    if _ActionBody is None:
        errors, _, _ = _web()

        class ActionBody(errors.Body):
            """An action of a seat (docs/server.md, "The service"): its type and the
            fields that type takes."""

            type: Literal["join", "seed", "roll", "move", "double", "take", "beaver", "drop",
                          "resign", "next", "offer_draw", "accept_draw", "decline_draw",
                          "claim", "rematch"]
            name: str | None = Field(None, min_length=1, max_length=40)
            seed: str | None = Field(None, pattern=fairdice.CLIENT_SEED)
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
        # as JSON text: strict types as JSON has them (an array is a pair of steps)
        text = json.dumps(data)
    except (TypeError, ValueError):
        raise errors.ApiError(422, "an action is made of JSON values", "invalid") from None
    try:
        body = action_model().model_validate_json(text)
    except ValidationError as e:
        raise errors.ApiError(422, errors.validation_text(e), "invalid") from None
    out = body.model_dump(exclude_none=True)
    extra = set(out) - {"type"} - _FIELDS.get(body.type, set())
    if extra:
        raise errors.ApiError(422, f"a {body.type} action has no {', '.join(sorted(extra))}",
                              "invalid")
    if body.type == "join" and body.name is None:
        raise errors.ApiError(422, "join: give the player's name", "invalid")
    if body.type == "join" and (not body.name.strip() or not printable(body.name)):
        raise errors.ApiError(422, "join: a name is one line of text, without control "
                                   "characters", "invalid")
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
    #: the view's fixed part, by seq: (key, the mover's view, everybody else's view)
    shown: tuple[Any, dict[str, Any], dict[str, Any]] = (None, {}, {})
    #: the seats' presence marks as last read (time read, seats): ``absent`` in the view
    marks: tuple[float, list[Seat]] = (0.0, [])
    #: the players' clocks (None: the game has none)
    clock: Clock | None = None
    #: the side offering a draw, while its offer stands
    draw_offer: str | None = None
    #: ``{"offered_by": side}`` while one seat asks for a rematch, ``{"id": new id}`` after
    rematch: dict[str, str] | None = None
    #: the seats' accounts' usernames, as read (:meth:`OnlineGames._learn_usernames`)
    usernames: dict[str, str | None] = field(default_factory=dict)
    #: actions heard of (carried by the store's notices) and not applied yet, by number
    inbox: dict[int, Action] = field(default_factory=dict)
    #: an action of this process applied here and being committed from the event loop
    #: (:meth:`OnlineGames.prepare`): the table is ahead of the store until it is done
    busy: bool = False

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
        """The engine's record with the fair-dice proof (the server seed only at the end)
        and the players' names when both sides are named people."""
        rec = record_of(self.obj)
        names = [self.seats[side].name if side in self.seats else None
                 for side in ("white", "black")]
        if all(names):
            rec["names"] = {"white": names[0], "black": names[1]}
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
    clock = row.settings.get("clock")
    return Table(row, obj, dice, {st.side: st for st in seats},
                 clock=Clock.start(clock) if clock else None)


def other(side: str) -> str:
    return SIDE_NAMES[1 - SIDE_NAMES.index(side)]


def rematch_id(t: Table) -> str:
    """The id of the rematch of ``t``: from its server seed (secret until the game ended:
    nobody could know it before), so that replaying the log gives it again."""
    digest = hashlib.sha256(b"tavli-rematch/1" + t.row.server_seed.encode()).digest()
    return base64.urlsafe_b64encode(digest[:ID_BYTES]).rstrip(b"=").decode()


def awaited(t: Table) -> str | None:
    """The side whose decision is awaited and whose clock runs: to roll, move or answer a
    double; nobody before the opening throw, before both client seeds are in (no die can
    be thrown), between the games of a match, or at the end."""
    g = t.game
    if g.is_over or g.phase == "opening" or len(t.dice.client_seeds) < 2:
        return None
    return SIDE_NAMES[g.turn]


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


def public(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` (the mover's) as the other seat and the spectators see it: without the
    legal moves and with the turn tree's root only (the dice still to play)."""
    tree = view["board"]["turn_tree"]
    if not view["legal_moves"] and (tree is None or len(tree["nodes"]) == 1):
        return view
    from tavli.web.steps import bare_root

    return {**view, "legal_moves": [],
            "board": {**view["board"], "turn_tree": bare_root(tree)}}


def read_range(value: Any) -> list[float]:
    """A seek's rating range ``[low, high]`` (0 to 4,000, low at most high), or 422."""
    errors, _, _ = _web()
    ok = (isinstance(value, (list, tuple)) and len(value) == 2
          and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
          and 0 <= value[0] <= value[1] <= 4000)
    if not ok:
        raise errors.ApiError(422, "rating_range: [low, high], 0 to 4000, low at most high",
                              "invalid")
    return [float(value[0]), float(value[1])]


def check_rated_join(seats: list[Seat], side: str) -> None:
    """A rated game's seat is joined by an account (named on the seat before the join:
    :meth:`tavli.store.accounts.AccountStore.seat_account`) other than the opponent's."""
    by_side = {s.side: s for s in seats}
    mine, theirs = by_side[side].account_id, by_side[other(side)].account_id
    if mine is None:
        raise ApiError(403, "a rated game is between players logged in: log in to join it",
                       "access_denied", key="err.rated_login")
    if mine == theirs:
        raise ApiError(409, "a rated game is played against someone else: this is your own "
                            "game", "wrong_state", key="err.own_game")


def rating_game(variant: str) -> str:
    """The rating a game or match of ``variant`` counts for: its game (portes, plakoto,
    fevga, backgammon; a twin counts as its game, Tapa as Plakoto) or ``tavli`` for a
    match of the rotation.

    >>> [rating_game(v) for v in ("portes", "tapa", "narde", "backgammon", "tavli")]
    ['portes', 'plakoto', 'fevga', 'backgammon', 'tavli']
    """
    played = lookup(variant)
    return "tavli" if played is None else played.name


def result_of(t: Table, seats: list[Seat], at: float) -> Result:
    """How ``t`` ended (it has): the winner, how the last game ended, the score (a
    match's, or the points of the game) and the players' accounts."""
    g, m = t.game, t.match
    winner = m.winner if m is not None else g.outcome.winner
    accounts = {s.side: s.account_id for s in seats}
    return Result(t.id, rating_game(t.row.variant), m.target if m is not None else 1,
                  None if winner is None else SIDE_NAMES[winner], g.outcome.kind,
                  list(m.score) if m is not None else g.outcome.points,
                  bool(t.row.settings.get("rated")) and settlement(t, seats) is not None,
                  accounts.get("white"), accounts.get("black"), at)


def settlement(t: Table, seats: list[Seat]) -> Settlement | None:
    """The rated result of ``t`` when it has just ended (``seats``: as stored), or None:
    not rated, drawn, or not between two accounts. A single game counts as a 1-point
    match (:mod:`tavli.online.rating`)."""
    if not t.finished or not t.row.settings.get("rated"):
        return None
    accounts = {s.side: s.account_id for s in seats}
    white, black = accounts.get("white"), accounts.get("black")
    winner = t.match.winner if t.match is not None else t.game.outcome.winner
    if not white or not black or white == black or winner is None:
        return None
    points = t.match.target if t.match is not None else 1

    def rate(w: tuple[float, int], b: tuple[float, int]) -> Any:
        after = rating.change(rating.Rated(*w), rating.Rated(*b), points, winner)
        return tuple((r.rating, r.experience) for r in after)

    return Settlement(t.id, rating_game(t.row.variant), points, white, black, winner, rate,
                      rating.START)


def may_act(t: Table, side: str, kind: str) -> None:
    """Refuse (WrongState, GameOver) what ``side`` may not do now; the engine checks the
    rest."""
    g = t.game
    if kind in ("join", "seed"):
        return
    if kind == "rematch":
        if not t.finished:
            raise WrongState("a rematch is asked for once the "
                             f"{'match' if t.match is not None else 'game'} is over")
        return
    if kind == "next":
        if t.match is None:
            raise WrongState("a single game has no next game")
        return  # the match says whether the game is over
    if g.is_over:
        if t.match is not None and not t.finished:
            raise GameOver("this game is over: the match's next game waits (action next)")
        raise GameOver(f"the {'match' if t.match is not None else 'game'} is over")
    if kind in ("resign", "offer_draw", "accept_draw", "decline_draw", "claim", "timeout") \
            or g.phase == "opening":
        return  # at any time of the game, by either side; either throws the opening dice
    actor = SIDE_NAMES[g.turn]
    if side != actor:
        raise WrongState(f"it is {actor}'s turn, not {side}'s")


#: the actions that lapse the opponent's draw offer (he plays on instead of answering)
PLAYING = ("roll", "move", "double", "take", "beaver", "drop")


def apply(t: Table, side: str | None, a: dict[str, Any], at: float) -> dict[str, Any]:
    """Play action ``a`` of ``side`` (None: the server's ``timeout``) in ``t`` at time
    ``at`` and say what it did (the log's ``result``): the engine plays it, then a draw
    offer lapses when its opponent plays on, and the clock passes on. Raises the engine's
    error, or WrongState/GameOver, when it may not be played; nothing changes then."""
    result = play(t, side, a)
    kind = a["type"]
    if t.game.is_over or kind == "next" or (
            kind in PLAYING and t.draw_offer not in (None, side)):
        t.draw_offer = None
    if t.clock is not None:
        t.clock.tick(at, awaited(t))
    return result


def play(t: Table, side: str | None, a: dict[str, Any]) -> dict[str, Any]:
    """The engine's part of :func:`apply`."""
    kind = a["type"]
    if kind == "timeout":
        return _timeout(t, side)
    assert side is not None
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
    if kind in ("offer_draw", "accept_draw", "decline_draw"):
        return _draw(t, side, kind)
    if kind == "claim":  # the absence was checked when it was accepted (not in the log)
        g.forfeit(SIDE_NAMES.index(other(side)), "abandoned")
        return {"outcome": g.outcome.to_dict() if g.outcome else None}
    if kind == "rematch":
        return _rematch(t, side)
    raise WrongState(f"unknown action {kind!r}")


def _timeout(t: Table, side: str | None) -> dict[str, Any]:
    """The server's ``timeout``: the side whose clock runs loses on time (the service
    commits it once that side's flag has fallen)."""
    if side is not None:
        raise AccessDenied("only the server calls time")
    loser = t.clock.running if t.clock is not None else None
    if loser is None or t.game.is_over:
        raise WrongState("no clock is running")
    g = t.game
    g.forfeit(SIDE_NAMES.index(loser), "time")
    return {"loser": loser, "outcome": g.outcome.to_dict() if g.outcome else None}


def _draw(t: Table, side: str, kind: str) -> dict[str, Any]:
    """A draw offered, accepted or declined (only in games whose rules know a draw)."""
    g = t.game
    if not g.rules.variant.draws:
        raise WrongState(f"{g.rules.game_name} has no draw: it is played to the end")
    offer = t.draw_offer
    if kind == "offer_draw":
        if g.phase == "opening":
            raise WrongState("the game has not begun: throw the opening dice first")
        if offer == side:
            raise WrongState("you have offered a draw: it waits for the answer")
        if offer is not None:
            raise WrongState(f"{offer} offers a draw: accept or decline it")
        t.draw_offer = side
        return {}
    if offer is None:
        raise WrongState("no draw is offered")
    if offer == side:
        raise WrongState(f"your offer of a draw waits for {other(side)}'s answer")
    if kind == "accept_draw":
        g.agree_draw(SIDE_NAMES.index(side))
        return {"outcome": g.outcome.to_dict() if g.outcome else None}
    t.draw_offer = None
    return {}


def _rematch(t: Table, side: str) -> dict[str, Any]:
    """A seat asks for a rematch; the other's asking too (or the AI's seat: it always
    agrees) makes it: the service creates the game ``id``."""
    r = t.rematch or {}
    if "id" in r:
        raise WrongState(f"the rematch is game {r['id']}")
    if r.get("offered_by") == side:
        raise WrongState(f"you have asked for a rematch: it waits for {other(side)}")
    if r.get("offered_by") or t.seats[other(side)].player == "ai":
        t.rematch = {"id": rematch_id(t)}
        return dict(t.rematch)
    t.rematch = {"offered_by": side}
    return dict(t.rematch)


# --- the service -------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Pending:
    """An action applied to its table and not committed yet (:meth:`OnlineGames.prepare`):
    the store's append, then :meth:`OnlineGames.finish` or :meth:`OnlineGames.abort`."""

    table: Table
    action: Action
    status: str
    record: dict[str, Any] | None
    #: the views after it (:meth:`OnlineGames.views`), and whether the mover's is
    #: everybody else's (no legal moves, no turn tree to show)
    views: dict[str, Any] | None = None
    same: bool = False


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
    """Online games over an :class:`~tavli.store.online.OnlineStore` (usable without a
    network: the WebSocket server sits on top)."""

    def __init__(self, store: OnlineStore, cache: int = CACHE, *,
                 beat: float = PRESENCE_BEAT, abandon_after: float | None = DEFAULT_ABANDON
                 ) -> None:
        """``beat``: the presence beat of the servers on the store (a seat seen within 2.5
        beats is connected); ``abandon_after``: the absence after which the opponent may
        claim a game, for games created without their own."""
        from tavli.web.limits import SessionCache

        self.store = store
        self.beat = beat
        self.abandon_after = abandon_after
        self.tables: SessionCache[Table] = SessionCache(cache)
        self.lock = threading.Lock()  # guards the cache only
        self.inbox_lock = threading.Lock()  # the tables' inboxes (the listener's thread)
        # the last action number heard of per game, once a listener of the store feeds
        # :meth:`heard` (None: nobody does, so every read of a game looks at the log)
        self.known: dict[str, int] | None = None

    # --- creating ------------------------------------------------------------------------
    def create(self, req: Any, name: str, side: str = "white", *, clock: Any = None,
               abandon_after: Any = "default", listed: bool = False, rated: bool = False,
               account: str | None = None, rating_range: Any = None) -> Created:
        """A new game or match as ``req`` (a :class:`tavli.web.newgame.NewGame`) asks,
        created by ``name`` playing ``side``: against the AI when ``req.opponent`` is
        "ai" (on ``req.ai_side``), else against a person invited with the other seat's
        token (``listed``: also shown in the lobby, where anyone may take the seat).
        Fair dice: ``req.seed`` is refused. ``clock``: ``{"reserve": S, "delay": S}`` or
        None; ``abandon_after``: seconds, or None for never (default: the service's).
        ``account``: the creator's account (None: a guest); ``rated``: the result changes
        both players' ratings (between two accounts: :func:`settlement`);
        ``rating_range``: ``[low, high]``, the ratings of the players a listed game (a
        seek) is open to (None: anyone)."""
        errors, newgame, _ = _web()
        try:
            clock = read_clock(clock)
            abandon = read_abandon(self.abandon_after if abandon_after == "default"
                                   else abandon_after)
        except ClockError as e:
            raise errors.ApiError(422, str(e), "invalid") from None
        if req.seed is not None:
            raise errors.ApiError(422, "seed: online games roll provably fair dice, not "
                                       "seeded ones", "invalid")
        played = lookup(req.variant)
        if played is not None and not played.dice:
            raise errors.ApiError(422, f"variant: {req.variant} is not played online yet (the "
                                       "online server plays the games with dice)", "invalid")
        if side not in SIDE_NAMES:
            raise errors.ApiError(422, f"side must be white or black, not {side!r}", "invalid")
        name = read_action({"type": "join", "name": name})["name"].strip()
        if "opponent" not in req.model_fields_set:  # no game against the AI by default
            raise errors.ApiError(422, "game.opponent: name the opponent: \"human\" (a "
                                       "friend, by invitation) or \"ai\"", "invalid")
        other = SIDE_NAMES[1 - SIDE_NAMES.index(side)]
        if req.opponent == "ai" and req.ai_side != other:
            raise errors.ApiError(422, f"the AI plays {req.ai_side}: the creator plays "
                                       f"{other}", "invalid")
        newgame.new_session(req)  # checked as the browser app checks a New game (422)
        game_id = secrets.token_urlsafe(ID_BYTES)
        server_seed = fairdice.new_server_seed()
        settings: dict[str, Any] = {"game": req.model_dump(exclude={"seed"}),
                                    "clock": clock, "abandon_after": abandon}
        if listed:
            if req.opponent == "ai":
                raise errors.ApiError(422, "listed: a game against the AI has no seat to "
                                           "offer in the lobby", "invalid")
            settings["listed"] = True
        if rating_range is not None:
            if not listed:
                raise errors.ApiError(422, "rating_range: only a game listed in the lobby "
                                           "has one", "invalid")
            settings["range"] = read_range(rating_range)
        if rated:
            if account is None:
                raise errors.ApiError(401, "rated: a rated game is between players logged "
                                           "in: log in first", "logged_out",
                                      key="err.logged_out")
            if req.opponent == "ai":
                raise errors.ApiError(422, "rated: games against the AI are not rated",
                                      "invalid")
            settings["rated"] = True
        if req.opponent == "ai":  # fixed now, before any player's seed is known
            settings["ai_seeds"] = {other: fairdice.new_client_seed()}
        row = new_game_row(game_id, "game", req.variant, settings,
                           fairdice.commitment(server_seed), server_seed)
        token = new_token()
        invite = None if req.opponent == "ai" else new_token()
        now = time.time()
        seats = [Seat(game_id, side, "human", name, None, token_hash(token), now,
                      account_id=account)]
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
            if known is not None and known > t.seq:
                self._from_inbox(t)  # the actions the notices carried: no read
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

    def heard(self, game_id: str, seq: int, action: Action | None = None) -> None:
        """The store says game ``game_id`` has action ``seq`` (a listener's notice, with
        the action when the notice carried it): the next read of the game applies the
        carried actions in order, without reading the log, and reads the log only for
        what it has not been carried (a missed notice, an action too large for one);
        until then it is read from memory (an action of a table behind the log is
        refused by the store, and the table rebuilt, so this only saves reads)."""
        if self.known is None:
            self.known = {}
        if len(self.known) > 16 * CACHE:
            self.known.clear()  # forgotten: read the log once more
        if seq > self.known.get(game_id, 0):
            self.known[game_id] = seq
        if action is not None:
            t = self.tables.get(game_id)
            if t is not None and seq > t.seq:
                with self.inbox_lock:
                    if len(t.inbox) >= INBOX:
                        t.inbox.clear()  # far behind: the log will say
                    t.inbox[seq] = action

    def _catch_up(self, t: Table) -> None:
        """Apply the actions after ``t.seq`` (under ``t.lock``): those carried by the
        notices, then the log's, each checked against the result it holds."""
        self._from_inbox(t)
        news = self.store.actions(t.id, after=t.seq)
        if not news:
            return
        self._replay(t, news)
        t.seats = {s.side: s for s in self.store.seats(t.id)}

    def _from_inbox(self, t: Table) -> None:
        """Apply the carried actions that follow ``t.seq`` in order (under ``t.lock``):
        no read of the store; those after a gap wait for the log."""
        if not t.inbox:
            return
        with self.inbox_lock:
            box, t.inbox = t.inbox, {}
        ready = []
        while t.seq + 1 + len(ready) in box:
            ready.append(box.pop(t.seq + 1 + len(ready)))
        later = {k: a for k, a in box.items() if k > t.seq + len(ready)}
        if later:
            with self.inbox_lock:
                t.inbox.update(later)
        if ready:
            self._replay(t, ready)

    def _replay(self, t: Table, news: list[Action]) -> None:
        """Apply ``news`` (the actions after ``t.seq``, in order) under ``t.lock``, each
        checked against the result it was accepted with; a join names its seat (the
        token of a seat taken from the lobby is read from the store when it is used)."""
        try:
            for a in news:
                got = apply(t, a.side, a.action, a.at)
                if got != a.result:
                    raise StoreError(f"game {t.id}: the log does not replay at action {a.seq} "
                                     f"(it says {a.result}, the engine {got})")
                if a.action.get("type") == "join" and a.side in t.seats:
                    # (its account, named on the seat before the join, comes with the
                    # seats' next reading: no store call here, which may be on the loop)
                    t.seats[a.side] = replace(t.seats[a.side], name=got["name"],
                                              joined=a.at)
                t.seq = a.seq
                t.recent = [*t.recent[-7:], a]
        except TavliError as e:
            self._drop(t.id)
            if isinstance(e, StoreError):
                raise
            raise StoreError(f"game {t.id}: the log does not replay at action {a.seq}: "
                             f"{e}") from None

    def _drop(self, game_id: str) -> None:
        with self.lock:
            self.tables.pop(game_id, None)

    def forget(self, game_id: str) -> None:
        """Drop ``game_id`` from memory: its next read rebuilds it from the store (whose
        seats changed behind the service's back: a deleted account's names)."""
        self._drop(game_id)

    def seat(self, game_id: str, token: str | None) -> Seat:
        """The seat whose token is ``token`` (:class:`AccessDenied` for none)."""
        if not token or not isinstance(token, str) or len(token) > 200:
            raise AccessDenied("a seat token is needed to act: spectators only watch")
        t = self.tables.get(game_id)  # in memory: no read of the store
        h = token_hash(token)
        # a joined seat's token never changes; a free one's may (taken from the lobby,
        # perhaps through another process): that is read from the store
        seat = next((s for s in t.seats.values() if s.token_hash == h
                     and s.joined is not None), None) if t else None
        if seat is None:
            seat = self.store.seat_by_token(game_id, token)
        if seat is None:
            raise AccessDenied("this token is not a seat of the game: spectators only watch")
        return seat

    def lobby(self, limit: int = 50) -> list[dict[str, Any]]:
        """The listed games (the seeks) whose invited seat is free, the newest first:
        ``id``, ``variant``, ``kind``, ``points``, ``host`` (the creator's name),
        ``created``, ``clock`` (the clock's settings, or None), ``rated``, ``range`` (the
        ratings it is open to, or None) and ``account`` (the host's account, or None)."""
        rows = self.store.lobby(limit)
        seats_of = self.store.seats_of([row.id for row in rows])
        out = []
        for row in rows:
            seats = seats_of[row.id]
            host = [s for s in seats if s.joined is not None]
            if not host or all(s.joined is not None for s in seats):
                continue
            out.append({"id": row.id, "variant": row.variant, "kind": row.kind,
                        "points": row.settings["game"].get("points") or 1,
                        "host": host[0].name, "created": row.created,
                        "clock": row.settings.get("clock"),
                        "rated": bool(row.settings.get("rated")),
                        "range": row.settings.get("range"), "account": host[0].account_id})
        return out

    def check_seek(self, game_id: str, account: str | None) -> None:
        """May the player of ``account`` (None: a guest, rated as a newcomer) take the free
        seat of the listed game ``game_id``: is his rating in its range, and is it not his
        own seek? (:class:`WrongState` saying why not.)"""
        t = self.table(game_id)
        if account is None and t.row.settings.get("rated"):
            raise ApiError(403, "a rated game is between players logged in: log in to join it",
                           "access_denied", key="err.rated_login")
        if account is not None and any(s.account_id == account for s in t.seats.values()):
            raise ApiError(409, "this is your own seek: wait for an opponent", "wrong_state",
                           key="err.own_seek")
        span = t.row.settings.get("range")
        if span is None:
            return
        mine = rating.START
        if account is not None:
            game = rating_game(t.row.variant)
            mine = AccountStore(self.store.backend).rating(account, game, mine)
        if not span[0] <= mine <= span[1]:
            low, high, yours = (f"{v:.0f}" for v in (span[0], span[1], mine))
            raise ApiError(409, f"this seek is for ratings {low}-{high}: yours is {yours}",
                           "wrong_state", key="err.seek_range",
                           params={"low": low, "high": high, "yours": yours})

    def claim(self, game_id: str, name: str) -> tuple[str, str]:
        """Take the free seat of a listed game from the lobby: ``(side, token)``, a new
        token for the seat (the invitation's token no longer works). Two people claiming
        at once: one gets the seat, the other :class:`WrongState`."""
        row = self.store.game(game_id)
        if row is None:
            raise StoreError(f"no online game {game_id!r}"[:80])
        if not row.settings.get("listed"):
            raise AccessDenied("this game is not in the lobby: its invitation link is "
                               "needed to join")
        free = [s for s in self.store.seats(game_id)
                if s.player == "human" and s.joined is None]
        if not free:
            raise WrongState("the seat has been taken")
        token = new_token()
        if not self.store.claim_seat(game_id, free[0].side, token_hash(token)):
            raise WrongState("the seat has been taken")
        return free[0].side, token

    def view(self, game_id: str) -> dict[str, Any]:
        """The whole state of the game: status, the last action's number, the
        commitment, the seats (names, not tokens), the game with the legal moves of the
        roll to play and the steps of its turn tree (the record, with the server seed
        once it is over: :meth:`record`). What a seat or a spectator is sent is
        :meth:`view_for`."""
        return self.views(game_id)["mover"]

    def view_for(self, game_id: str, side: str | None) -> dict[str, Any]:
        """What the seat ``side`` (None: a spectator) is sent of the game: the seat to
        move gets the legal moves of its roll and the steps of its turn tree (the page
        offers them: no rule in JavaScript); everybody else gets no moves and the
        tree's root (the dice), as for a turn the page does not play — the same state,
        a fifth of the size (:func:`public`)."""
        v = self.views(game_id)
        return v["mover" if side is not None and side == v["turn"] else "others"]

    def views(self, game_id: str) -> dict[str, Any]:
        """``{"turn": the side to move, "mover": its view, "others": everybody else's}``
        (:meth:`view_for`)."""
        t = self.table(game_id)
        if t.clock is not None:
            self._flag(t)
        now = time.time()
        read, seats = t.marks
        if now - read > 1.5 * self.beat:  # else as the hub's last beat read them
            # (:meth:`saw`; a beat comes every beat and takes a while itself)
            seats = self.store.seats(game_id)
            if self.known is not None:  # a hub's: its beats keep them (and these too)
                self.saw(game_id, seats, now)
        with t.lock:
            self._learn_usernames(t, [*t.seats.values(), *seats])
            return self._views(t, seats, now)

    def _views(self, t: Table, seats: list[Seat], now: float) -> dict[str, Any]:
        """:meth:`views` of ``t`` (under ``t.lock``) with the absences of ``seats``."""
        key = (t.seq, id(t.game), len(t.game.history))
        if t.shown[0] != key:  # the same until the next action: made once
            full = self._view(t)
            t.shown = (key, full, public(full))
        absent = {s.side: absent_for(s, self.beat, now) for s in seats}
        return {"turn": t.shown[1]["turn"], "mover": {**t.shown[1], "absent": absent},
                "others": {**t.shown[2], "absent": absent}}

    # --- from memory, on the server's event loop ---------------------------------------
    # A store across a network (PostgreSQL) is not called from the event loop except
    # through its asyncio connections: what follows needs no store call, or says so
    # (None) and the caller takes the thread pool's way (:meth:`views`, :meth:`act`).
    # The event loop's thread holds a table's lock only between :meth:`prepare` and
    # :meth:`finish` (across the append's await); ``t.busy`` keeps its other coroutines
    # out meanwhile (the lock is reentrant), threads wait for the lock.

    def _memory(self, game_id: str) -> Table | None:
        """The table of ``game_id`` brought up to what this process has heard, from
        memory only, its lock taken (release it); None when that needs the store (not
        in memory, behind the notices, a clock to check, an act under way)."""
        t = self.tables.get(game_id)
        if t is None or t.busy or t.clock is not None or self.known is None:
            return None
        if not t.lock.acquire(blocking=False):
            return None
        try:
            known = self.known.get(game_id)
            if known is not None and known > t.seq:
                self._from_inbox(t)
            if known is None or known > t.seq:
                t.lock.release()
                return None
        except BaseException:
            t.lock.release()
            raise
        return t

    def views_now(self, game_id: str) -> dict[str, Any] | None:
        """:meth:`views` from memory only (the carried actions applied), or None when
        that needs the store."""
        now = time.time()
        t = self._memory(game_id)
        if t is None:
            return None
        try:
            read, seats = t.marks
            if now - read > 1.5 * self.beat:
                return None
            return self._views(t, seats, now)
        finally:
            t.lock.release()

    def prepare(self, game_id: str, token: str | None, seq: int, action: Any
                ) -> Pending | None:
        """:meth:`act` up to the store, from memory: the action checked and applied
        to the table, the views after it made, the table locked (and ``busy``) until
        :meth:`finish` (committed) or :meth:`abort` (forgotten); None when that needs the
        store (:meth:`act` then: a seat not known here, a table behind the log, a join, a
        claim, a rematch, a clock, an action that ends the game)."""
        a = read_action(action)
        if isinstance(seq, bool) or not isinstance(seq, int) or not token \
                or not isinstance(token, str) or len(token) > 200 \
                or a["type"] in ("join", "claim", "rematch"):
            return None
        t = self._memory(game_id)
        if t is None:
            return None
        try:
            h = token_hash(token)
            seat = next((x for x in t.seats.values() if x.token_hash == h
                         and x.joined is not None), None)
            if seat is None or seq > t.seq + 1 or time.time() - t.marks[0] > 1.5 * self.beat:
                t.lock.release()  # the seats' presence is read from the store too
                return None
            if seq != t.seq + 1:
                raise StaleAction(f"game {game_id} is at action {t.seq}: action {seq} is "
                                  f"not the next ({t.seq + 1}); it may have been sent before")
            now = time.time()
            was_over = t.finished
            done = self._apply(t, seat.side, seq, a, now)
            if t.finished and not was_over:
                # an action that ends the game commits its result (and a rated game's
                # ratings) in its transaction: act()'s way, on a table read again
                self._drop(game_id)
                t.lock.release()
                return None
            t.busy = True
        except BaseException:
            t.lock.release()
            raise
        try:  # applied: the table is at ``seq`` (forgotten if the append fails)
            t.seq = seq
            t.recent = [*t.recent[-7:], done]
            views = self._views(t, t.marks[1], now)
            return Pending(t, done, t.status(), t.record() if t.finished else None,
                           views, t.shown[1] is t.shown[2])
        except BaseException:
            self.abort(Pending(t, done, "", None))
            raise

    def finish(self, p: Pending) -> Action:
        """The prepared action is committed: the table is let go."""
        t = p.table
        try:
            if self.known is not None and self.known.get(t.id, 0) < t.seq:
                self.known[t.id] = t.seq
        finally:
            t.busy = False
            t.lock.release()
        return p.action

    def abort(self, p: Pending) -> None:
        """The prepared action was not committed: the table is forgotten (the store has
        the truth)."""
        t = p.table
        try:
            self._drop(t.id)
        finally:
            t.busy = False
            t.lock.release()

    def saw(self, game_id: str, seats: list[Seat], at: float) -> None:
        """The seats of ``game_id`` as read at ``at`` (the hub's presence beat): a view
        within a beat shows the absences from them, without reading the store again."""
        t = self.tables.get(game_id)
        if t is not None and at >= t.marks[0]:
            t.marks = (at, seats)

    def _view(self, t: Table) -> dict[str, Any]:
        """The view of ``t`` without ``absent`` (under ``t.lock``)."""
        g = t.game
        # the seats' accounts as the presence beat last read them (a seat joined through
        # another process has its account there before this table reads the seats)
        marked = {m.side: m.account_id for m in t.marks[1]}
        return {
            "id": t.id, "status": t.status(), "seq": t.seq, "kind": t.row.kind,
            "variant": t.row.variant, "commitment": t.dice.commitment,
            "seats": [{"side": s.side, "player": s.player, "name": s.name,
                       "level": s.level, "joined": s.joined is not None,
                       "seeded": s.side in t.dice.client_seeds,
                       "account": t.usernames.get(s.account_id or marked.get(s.side))}
                      for s in t.seats.values()],
            "rated": bool(t.row.settings.get("rated")),
            "game": g.rules.game_name,
            # the game's rule options and the match's length, as tavli play's state has
            # them (the Rules button opens the rules page with them)
            "rules": g.rules.to_dict(),
            "target": t.match.target if t.match is not None else None,
            "phase": g.phase, "turn": SIDE_NAMES[g.turn],
            "position": g.position.id(), "dice": list(g.dice) if g.dice else None,
            "cube": {"value": g.cube_value, "owner": None if g.cube_owner is None
                     else SIDE_NAMES[g.cube_owner]},
            "outcome": g.outcome.to_dict() if g.outcome else None,
            "score": list(t.match.score) if t.match else None,
            "can_double": g.phase == "roll" and not g.is_over and g.can_double(),
            "legal_moves": [{"move": text, "steps": [[f, to, bool(h)]
                                                     for f, to, h in m.steps]}
                            for text, m in moves_of(t)],
            "clock": t.clock.to_dict() if t.clock is not None else None,
            "draws": g.rules.variant.draws and not g.is_over,
            "draw_offer": t.draw_offer,
            "rematch": dict(t.rematch) if t.rematch else None,
            "abandon_after": t.row.settings.get("abandon_after"),
            # the files the finished game can be exported as (…/export?format=)
            "exports": exchange.formats_of(t.obj) if t.finished else [],
            "board": board_view(t.obj),
        }

    def _learn_usernames(self, t: Table, seats: list[Seat]) -> None:
        """Read the usernames of ``seats``' accounts not known to ``t`` yet (once per
        account and table; on the thread pool's way: :meth:`_view` itself reads nothing,
        as it may run on the event loop)."""
        for s in seats:
            if s.account_id is not None and s.account_id not in t.usernames:
                found = AccountStore(self.store.backend).by_id(s.account_id)
                t.usernames[s.account_id] = found.username if found else None

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
                self._from_inbox(t)
            if seq > t.seq + 1:
                self._catch_up(t)
            if seq != t.seq + 1:
                raise StaleAction(f"game {game_id} is at action {t.seq}: action {seq} is not "
                                  f"the next ({t.seq + 1}); it may have been sent before")
            if a["type"] == "join" and t.seats[side].joined is not None:
                raise WrongState(f"{side} has joined already")
            if a["type"] == "join" and t.row.settings.get("rated"):
                check_rated_join(self.store.seats(game_id), side)
            now = time.time()
            fallen = t.clock.fallen(now) if t.clock is not None else None
            if fallen is not None:  # the flag fell before this action: time is called
                done = self._store(t, None, seq, {"type": "timeout"}, now)
                if a["type"] == "claim" and side != fallen:
                    return done
                raise GameOver(f"{fallen} has lost on time")
            if a["type"] == "claim":
                self._check_claim(t, side, now)
            return self._store(t, side, seq, a, now)

    def _store(self, t: Table, side: str | None, seq: int, a: dict[str, Any],
               now: float) -> Action:
        """Apply ``a`` (under ``t.lock``) and commit it as action ``seq`` at ``now``."""
        game_id = t.id
        was_over = t.finished
        done = self._apply(t, side, seq, a, now)
        result = done.result
        if a["type"] == "join" and side is not None:
            t.seats[side] = Seat(**{**t.seats[side].__dict__, "name": result["name"],
                                    "joined": done.at})
        try:
            if "id" in result and a["type"] == "rematch":
                self._create_rematch(t, result["id"], now)
            # the record is stored once it is over (the log is the game until then:
            # writing the whole record with every action cost more than the rest); the
            # endings on time, by abandonment or agreed draw, and a rematch's asking, come
            # after (or with) the end, so they store it too
            ended = t.finished and not was_over
            self.store.append(done, status=t.status(),
                              record=t.record() if t.finished else None,
                              then=self._finish(t, now) if ended else None)
            if a["type"] == "join" and side is not None:
                self.store.update_seat(game_id, side, name=result["name"], joined=done.at)
                # as stored: a seat taken from the lobby has a new token
                t.seats = {s.side: s for s in self.store.seats(game_id)}
        except BaseException:
            self._drop(game_id)  # not stored: forget what was applied
            raise
        t.seq = seq
        t.recent = [*t.recent[-7:], done]
        return done

    def _finish(self, t: Table, at: float) -> Any:
        """What commits the result of ``t``, which has just ended at ``at``, and the
        ratings it gives if it is rated, with the action ending it."""
        seats = self.store.seats(t.id)
        people = AccountStore(self.store.backend)
        result, settle = result_of(t, seats, at), settlement(t, seats)
        return lambda tx: people.finish(tx, result, settle)

    def _apply(self, t: Table, side: str | None, seq: int, a: dict[str, Any],
               now: float) -> Action:
        """Apply ``a`` to ``t`` (under ``t.lock``): the action to commit as ``seq``. An
        action refused half done drops the table (the store has the truth)."""
        mark = (len(t.game.history), t.dice.drawn, len(t.dice.client_seeds),
                len(t.match.games) if t.match else 1)
        try:
            result = apply(t, side, a, now)
        except TavliError:
            if mark != (len(t.game.history), t.dice.drawn, len(t.dice.client_seeds),
                        len(t.match.games) if t.match else 1):
                self._drop(t.id)
            raise
        return Action(t.id, seq, side, a, result, now)

    # --- time -----------------------------------------------------------------------------
    def flag(self, game_id: str) -> Action | None:
        """Call time in ``game_id`` if the running side's flag has fallen: commit the
        server's ``timeout`` (any process may; a race loses harmlessly). The committed
        action, or None."""
        t = self.table(game_id)
        return self._flag(t) if t.clock is not None else None

    def _flag(self, t: Table) -> Action | None:
        with t.lock:
            now = time.time()
            if t.clock is None or t.clock.fallen(now) is None:
                return None
            try:
                return self._store(t, None, t.seq + 1, {"type": "timeout"}, now)
            except StaleAction:
                return None  # another process called it (or acted) first

    def _check_claim(self, t: Table, side: str, now: float) -> None:
        """May ``side`` claim the game now: has the opponent been away for the game's
        ``abandon_after``? (A flag fallen is called before this.)"""
        opp = other(side)
        abandon = t.row.settings.get("abandon_after")
        seat = {s.side: s for s in self.store.seats(t.id)}[opp]
        if t.game.is_over:
            return  # the engine refuses, with the reason
        if seat.player == "ai":
            raise WrongState("the AI never leaves a game: there is nothing to claim")
        if abandon is None:
            raise WrongState("this game has no abandon time: it cannot be claimed")
        away = absent_for(seat, self.beat, now)
        if away is None:
            raise WrongState(f"{opp} is connected: there is nothing to claim")
        if away < abandon:
            raise WrongState(f"{opp} has been away {away:.0f} s: the game may be claimed "
                             f"after {abandon:g} s")

    # --- rematch --------------------------------------------------------------------------
    def _create_rematch(self, t: Table, new_id: str, now: float) -> None:
        """Store the rematch of ``t`` as game ``new_id`` (unless it is there already): the
        same settings, the seats' tokens (their hashes), names and players with the sides
        swapped, joined at once, and fresh fair dice (a new server seed and commitment)."""
        if self.store.game(new_id) is not None:
            return  # an earlier try stored it, and then lost the race for the number
        settings = {k: v for k, v in t.row.settings.items() if k != "listed"}
        game = dict(settings["game"])
        if game.get("opponent") == "ai":
            game["ai_side"] = other(game["ai_side"])
            settings["ai_seeds"] = {game["ai_side"]: fairdice.new_client_seed()}
        settings["game"] = game
        settings["rematch_of"] = t.id
        server_seed = fairdice.new_server_seed()
        row = new_game_row(new_id, t.row.kind, t.row.variant, settings,
                           fairdice.commitment(server_seed), server_seed)
        seats = [Seat(new_id, other(s.side), s.player, s.name, s.level, s.token_hash,
                      now if s.player == "human" else None, account_id=s.account_id)
                 for s in self.store.seats(t.id)]
        fresh = build(row, seats)
        row = replace(row, status=fresh.status(), record=fresh.record())
        try:
            self.store.create(row, seats)
        except StoreError:
            if self.store.game(new_id) is None:
                raise


__all__ = ["OnlineGames", "Table", "Created", "Pending", "apply", "read_action", "build"]
