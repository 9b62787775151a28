"""What the online server's HTTP API answers, as models (docs/server.md, "HTTP API"): the
schema's answers (:func:`tavli.web.openapi.declared`); the game's state
(:class:`OnlineState`) is the WebSocket messages' too (:mod:`tavli.online.messages`).

Where the server answers as the browser app does (the New game menus, the catalogue, the
rules, a review, a record) the models are :mod:`tavli.web.answers`'. Nested parts the page
reads as the engine makes them (the board's fields, a record's events) are JSON objects
here, described in docs/server.md. The routes build plain dicts and are not checked
against these at run time: the suite's schemathesis run checks every answer it gets
(tests/test_online_fuzz.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tavli.web.answers import LegalMove, Side
from tavli.web.openapi import Answer

Json = dict[str, Any]


class Seat(Answer):
    side: Side
    player: Literal["human", "ai"]
    name: str | None
    level: str | None
    joined: bool
    seeded: bool = Field(description="its client seed is in")
    account: str | None = Field(description="its account's username (a guest, the AI: null)")


class OnlineCube(Answer):
    value: int
    owner: Side | None


class Clock(Answer):
    reserve: dict[Side, float] = Field(description="each side's seconds as of since")
    delay: float
    running: Side | None
    since: float | None


class OnlineState(Answer):
    """A game or match as a seat or a spectator sees it (``OnlineGames.view_for``)."""

    id: str
    status: Literal["open", "playing", "over", "abandoned"]
    seq: int = Field(description="the last action's number")
    kind: Literal["game", "match"]
    variant: str
    commitment: str = Field(description="SHA-256 of the server seed (the fair dice)")
    seats: list[Seat]
    rated: bool
    game: str
    rules: Json
    target: int | None
    phase: Literal["opening", "roll", "move", "double", "over"]
    turn: Side
    position: str = Field(description="the position ID")
    dice: list[int] | None
    cube: OnlineCube
    outcome: Json | None
    score: list[int] | None = Field(description="a match's score, white's first")
    can_double: bool
    legal_moves: list[LegalMove] = Field(description="the seat to move's only")
    clock: Clock | None
    draws: bool
    draw_offer: Side | None
    rematch: dict[str, str] | None = Field(description='{"offered_by": side} or {"id": new}')
    abandon_after: float | None
    exports: list[Literal["json", "mat", "sgf"]]
    board: Json = Field(description="what the page draws (docs/server.md, The pages)")
    absent: dict[Side, float | None] = Field(description="seconds each seat has been away")


class SeatState(Answer):
    side: Side | None = Field(description="the seat asking (X-Tavli-Seat); null: a spectator")
    state: OnlineState


class Created(Answer):
    """A new game: the creator's seat and the invitation."""

    id: str
    side: Side
    token: str = Field(description="the creator's seat token")
    invite_side: Side
    invite_token: str | None = Field(description="null against the AI")
    invite: str | None = Field(description="the invited seat's link, its token in the "
                                           "fragment")
    watch: str
    commitment: str
    state: OnlineState


class Joined(Answer):
    """The seat taken; from the lobby, with its new token."""

    side: Side
    token: str = Field(None, description="a seat taken from the lobby: its new token")
    state: OnlineState


class Matched(Answer):
    """Play now: an open seek taken, or one posted."""

    matched: bool
    id: str
    side: Side
    token: str
    state: OnlineState


class Seek(Answer):
    id: str
    variant: str
    kind: Literal["game", "match"]
    points: int
    host: str | None
    created: float
    clock: Json | None
    rated: bool
    range: list[float] | None
    player: str | None = Field(description="the host's account")
    rating: float | None = Field(description="the host's rating in that game")


class Lobby(Answer):
    games: list[Seek]


class Rating(Answer):
    rating: float
    experience: int
    played: int


class Me(Answer):
    """Who is logged in: ``{"username": null}`` for a guest."""

    username: str | None
    created: float = Field(None, description="an account's")
    ratings: dict[str, Rating] = Field(None, description="an account's, by game")


class SignedUp(Me):
    claimed: list[str] = Field(description="the guest's games now the account's")


class Changed(Answer):
    changed: Literal[True]


class Deleted(Answer):
    deleted: Literal[True]


class Claimed(Answer):
    claimed: list[str]


class Profile(Answer):
    username: str
    created: float
    ratings: dict[str, Rating]
    chart: list[Json] = Field(description="each rating change, in order")
    games: list[Json] = Field(description="the finished games, the newest first")


class Leader(Answer):
    username: str
    rating: float
    experience: int
    played: int


class Leaderboard(Answer):
    game: str
    players: list[Leader]


class ChatMessage(Answer):
    id: int
    side: Side
    name: str | None
    text: str
    at: float


class ChatView(Answer):
    """What the asker may read of the chat, and his seat's switches."""

    side: Side | None
    on: bool
    muted: bool
    messages: list[ChatMessage]


__all__ = ["OnlineState", "SeatState", "Created", "Joined", "Matched", "Lobby", "Seek",
           "Me", "SignedUp", "Changed", "Deleted", "Claimed", "Profile", "Leaderboard",
           "ChatMessage", "ChatView"]
