"""The online server's HTTP routes, one ``mount_*`` per domain over an
:class:`~tavli.online.context.OnlineContext` (docs/server.md, "HTTP API"):

* :func:`mount_seats`: ``POST /api/online/games`` (a new game, its creator's seat and the
  invitation's links), ``POST /api/online/games/{id}/join`` (the invited seat taken, or a
  listed game's free seat);
* :func:`mount_info`: ``GET /api/info`` (the games, rotations and levels the start page
  offers; the lobby of listed games is :mod:`tavli.online.lobby`'s);
* :func:`mount_pages`: ``GET /`` (the start page), ``GET /online/{id}`` (the game page),
  ``GET /players/{username}`` (a profile), ``GET /leaderboard`` and the pages' static
  files (tavli/web/static: the board code shared with tavli play);
* :func:`mount_reads`: ``GET /api/online/games/{id}`` (the state, as a seat or a
  spectator sees it) and ``GET …/record`` (the record with its fair-dice proof).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse
from pydantic import Field, WithJsonSchema
from starlette.concurrency import run_in_threadpool

from tavli.errors import AccessDenied, StaleAction, WrongState
from tavli.online.accounts import read_username
from tavli.online.answers import Created, Joined, SeatState
from tavli.online.clock import MAX_DELAY, MAX_RESERVE
from tavli.online.context import OnlineContext, check_game_id
from tavli.online.players import session_token
from tavli.web.answers import Info, Record
from tavli.web.errors import ApiError, Body, body
from tavli.web.newgame import NewGame
from tavli.web.openapi import REF, declared, header, with_parameters
from tavli.web.pwa import mount_static

SEAT_HEADER = "x-tavli-seat"
#: the header naming the seat that asks (its token); without it, a spectator
SEAT = header("X-Tavli-Seat", "a seat's token: the seat asking (none: a spectator)")
#: a route naming a game: no such game (404), the database failing (503)
GAME = (404, 503)
STATIC = Path(__file__).parent.parent / "web" / "static"


class ClockSetting(Body):
    """A game's clock: each side's reserve, then a free delay per decision (seconds;
    checked by :func:`tavli.online.clock.read_clock`, whose words a refusal has)."""

    reserve: float = Field(gt=0, le=MAX_RESERVE)
    delay: float = Field(0, ge=0, le=MAX_DELAY)


#: a clock as a create request has it: checked as the service reads it (its words), its
#: form :class:`ClockSetting`'s
ClockField = Annotated[dict[str, Any], WithJsonSchema(
    ClockSetting.model_json_schema(ref_template=REF))]


class CreateBody(Body):
    game: NewGame
    name: str = Field(min_length=1, max_length=40)
    side: Literal["white", "black"] = "white"
    clock: ClockField | None = None
    abandon_after: float | None = None       # absent: the server's default; null: never
    listed: bool = False
    rated: bool = False                      # between accounts (the creator logged in)
    rating_range: tuple[float, float] | None = None  # a seek's: the opponents it is open to


class JoinBody(Body):
    token: str | None = Field(None, min_length=1, max_length=200)
    name: str = Field(min_length=1, max_length=40)


def links(request: Request, game_id: str, token: str | None) -> dict[str, Any]:
    """The game's links: the spectators' (``watch``) and the invited seat's (``invite``:
    the token in the fragment, which browsers never send to a server)."""
    base = str(request.base_url).rstrip("/")
    return {"watch": f"{base}/online/{game_id}",
            "invite": None if token is None else f"{base}/online/{game_id}#seat={token}"}


def join_seat(ctx: OnlineContext, game_id: str, req: JoinBody,
              session: str | None = None) -> dict[str, Any]:
    """Take a seat of ``game_id`` (in a thread of the pool): the invited seat by its
    token, or, without one, a listed game's free seat (the answer has its new token).
    ``session``: the session cookie of a player logged in, whose account takes the seat
    (a rated game's seats are taken by accounts only)."""
    games = ctx.games
    games.refresh(game_id)
    account = ctx.accounts.session(session)
    token = req.token
    if token is None:  # from the lobby: a listed game's free seat, a new token
        games.check_seek(game_id, account and account.id)
        _, token = games.claim(game_id, req.name)
    seat = games.seat(game_id, token)
    # the seat's account is named before the join (a guest's join clears one named by
    # an earlier try): a rated game's join is refused without one
    ctx.accounts.people.seat_account(game_id, seat.side, account and account.id)
    for _ in range(5):  # another action may take the number first
        seq = games.view(game_id)["seq"]
        try:
            games.act(game_id, token, seq + 1, {"type": "join", "name": req.name})
            break
        except StaleAction:
            continue
        except AccessDenied:
            if req.token is None:  # another claim replaced this one's token
                raise WrongState("the seat has been taken") from None
            raise
    else:
        raise ApiError(503, "the game is too busy to join now: try again", "busy")
    out = {"side": seat.side, "state": games.view_for(game_id, seat.side)}
    if req.token is None:
        out["token"] = token
    return out


def mount_seats(app: FastAPI, ctx: OnlineContext) -> None:
    """``POST /api/online/games`` (create) and ``POST /api/online/games/{id}/join``."""
    games, hub = ctx.games, ctx.hub

    # 401: a rated game without a session
    @app.post("/api/online/games", **declared(Created, 401, 422, 503, status=201,
                                              body=CreateBody))
    async def create(request: Request) -> dict[str, Any]:
        req = await body(request, CreateBody, required=True)
        abandon = req.abandon_after if "abandon_after" in req.model_fields_set else "default"
        account = await run_in_threadpool(ctx.accounts.session, session_token(request))
        new = await hub.call(lambda: games.create(
            req.game, req.name, req.side, clock=req.clock, abandon_after=abandon,
            listed=req.listed, rated=req.rated, account=account and account.id,
            rating_range=req.rating_range))
        view = await hub.call(games.view_for, new.game_id, new.side)
        return {"id": new.game_id, "side": new.side, "token": new.token,
                "invite_side": new.invite_side, "invite_token": new.invite_token,
                **links(request, new.game_id, new.invite_token),
                "commitment": new.commitment, "state": view}

    # 403: a forged token, a listed seat not for this player; 409: the seat taken
    @app.post("/api/online/games/{game_id}/join",
              **declared(Joined, 401, 403, 409, 422, *GAME, body=JoinBody))
    async def join(game_id: str, request: Request) -> dict[str, Any]:
        req = await body(request, JoinBody, required=True)
        check_game_id(game_id)
        out = await run_in_threadpool(join_seat, ctx, game_id, req, session_token(request))
        await hub.push(game_id)
        return out


def mount_info(app: FastAPI, ctx: OnlineContext) -> None:
    """``GET /api/info``: the games, Tavli matches and AI levels of the New game menus."""

    @app.get("/api/info", **declared(Info))
    async def info() -> dict[str, Any]:
        from tavli.web.info import registry_info

        return registry_info()


def mount_pages(app: FastAPI, ctx: OnlineContext) -> None:
    """``GET /`` (the start page: Play a friend, the lobby), ``GET /online/{id}`` (the game
    page), ``GET /players/{username}`` (a profile), ``GET /leaderboard`` and the pages'
    files (:func:`tavli.web.pwa.mount_static`)."""

    @app.get("/", include_in_schema=False)
    async def start_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html", headers={"Cache-Control": "no-cache"})

    @app.get("/online/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        check_game_id(game_id)
        return FileResponse(STATIC / "online.html", headers={"Cache-Control": "no-cache"})

    @app.get("/players/{username}", include_in_schema=False)
    async def profile_page(username: str) -> FileResponse:
        read_username(username if len(username) <= 64 else "")  # 422 for what is no name
        return FileResponse(STATIC / "players.html", headers={"Cache-Control": "no-cache"})

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return FileResponse(STATIC / "leaderboard.html", headers={"Cache-Control": "no-cache"})

    mount_static(app)   # the pages' files (tavli/web/pwa.py)


def mount_reads(app: FastAPI, ctx: OnlineContext) -> None:
    """``GET /api/online/games/{id}`` (the state; ``X-Tavli-Seat: TOKEN`` names the seat
    asking, else a spectator's view) and ``GET /api/online/games/{id}/record``."""
    games, hub = ctx.games, ctx.hub

    @app.get("/api/online/games/{game_id}",  # 403: a token that is not a seat's
             **with_parameters(declared(SeatState, 403, *GAME), SEAT))
    async def state(game_id: str, request: Request) -> dict[str, Any]:
        check_game_id(game_id)
        token = request.headers.get(SEAT_HEADER)

        def do() -> dict[str, Any]:
            games.refresh(game_id)
            side = games.seat(game_id, token).side if token is not None else None
            return {"side": side, "state": games.view_for(game_id, side)}

        return await hub.call(do)

    @app.get("/api/online/games/{game_id}/record", **declared(Record, *GAME))
    async def record(game_id: str) -> dict[str, Any]:
        return await hub.call(games.record, check_game_id(game_id))


__all__ = ["mount_seats", "mount_info", "mount_pages", "mount_reads", "SEAT_HEADER",
           "CreateBody", "JoinBody", "links", "join_seat", "SEAT", "GAME", "ClockField"]
