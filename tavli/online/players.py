"""The online server's players over HTTP (docs/server.md, "Accounts", "Ratings"): one
``mount_*`` per domain over an :class:`~tavli.online.context.OnlineContext`.

* :func:`mount_accounts`: ``/api/account`` — who is logged in (``GET``), ``…/signup``,
  ``…/login``, ``…/logout``, ``…/password``, ``…/delete``, ``…/claim`` (a guest's games);
* :func:`mount_profiles`: ``GET /api/players/{username}`` (ratings, the rating changes
  over time, the finished games) and ``GET /api/leaderboard/{game}``.

The session travels in the ``tavli_session`` cookie (HttpOnly, SameSite=Strict, Secure
over HTTPS and on loopback addresses, which browsers treat as secure); the writes pass the
app's Host, Origin and JSON checks like every other (:mod:`tavli.web.security`: a page of
another site cannot send them). Passwords are hashed in the thread pool, never on the
event loop (:mod:`tavli.online.accounts`).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request, Response
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from tavli.online.accounts import SESSION_DAYS, Accounts, read_username
from tavli.online.answers import Changed, Claimed, Deleted, Leaderboard, Me, Profile, SignedUp
from tavli.online.context import OnlineContext, check_game_id
from tavli.store.accounts import DELETED, Account, AccountStore, Result
from tavli.web.errors import ApiError, Body, body
from tavli.web.openapi import declared
from tavli.web.security import hostname, is_loopback

COOKIE = "tavli_session"
#: the games one claim may name (a browser's guest seats)
CLAIM_MAX = 200
GAMES = ("portes", "plakoto", "fevga", "tavli", "backgammon")


class Credentials(Body):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class SeatProof(Body):
    game: str = Field(min_length=1, max_length=64)
    token: str = Field(min_length=1, max_length=200)


class SignupBody(Credentials):
    claim: list[SeatProof] = Field(default_factory=list, max_length=CLAIM_MAX)


class ClaimBody(Body):
    seats: list[SeatProof] = Field(max_length=CLAIM_MAX)


class PasswordBody(Body):
    old: str = Field(min_length=1, max_length=1024)
    new: str = Field(min_length=1, max_length=1024)


class DeleteBody(Body):
    password: str = Field(min_length=1, max_length=1024)


def session_token(request: Request) -> str | None:
    return request.cookies.get(COOKIE)


def secure(request: Request) -> bool:
    """Whether the cookie may be Secure: HTTPS (directly, or behind a proxy that says so
    in ``X-Forwarded-Proto``, which uvicorn trusts from the proxy's address), or a
    loopback address (a secure context for browsers)."""
    return request.url.scheme == "https" or is_loopback(hostname(request.url.netloc))


def set_session(response: Response, request: Request, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=int(SESSION_DAYS * 86400), path="/",
                        httponly=True, samesite="strict", secure=secure(request))


def clear_session(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict",
                           secure=secure(request))


def address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def me(account: Account, people: AccountStore) -> dict[str, Any]:
    return {"username": account.username, "created": account.created,
            "ratings": ratings_out(people, account.id)}


def ratings_out(people: AccountStore, account_id: str) -> dict[str, Any]:
    return {r.game: {"rating": round(r.rating, 2), "experience": r.experience,
                     "played": r.played} for r in people.ratings(account_id)}


def claimed(accounts: Accounts, token: str, seats: list[SeatProof]) -> list[str]:
    proofs = [(check_game_id(s.game), s.token) for s in seats]
    return accounts.claim(token, proofs)


def mount_accounts(app: FastAPI, ctx: OnlineContext) -> None:
    """``/api/account``: sign-up, login, logout, password, deletion, claiming."""
    accounts = ctx.accounts

    @app.get("/api/account", **declared(Me, 503))
    async def who(request: Request) -> dict[str, Any]:
        def do() -> dict[str, Any]:
            account = accounts.session(session_token(request))
            return {"username": None} if account is None else me(account, accounts.people)

        return await run_in_threadpool(do)

    # 404: a claimed seat's game id that names no game; 409: the name taken
    @app.post("/api/account/signup",
              **declared(SignedUp, 404, 409, 422, 503, status=201, body=SignupBody))
    async def signup(request: Request, response: Response) -> dict[str, Any]:
        req = await body(request, SignupBody, required=True)

        def do() -> dict[str, Any]:
            account, token = accounts.signup(req.username, req.password)
            games = claimed(accounts, token, req.claim) if req.claim else []
            set_session(response, request, token)
            return {**me(account, accounts.people), "claimed": games}

        return await run_in_threadpool(do)

    # 401: a wrong name or password; 429 (every route's): too many failures
    @app.post("/api/account/login", **declared(Me, 401, 422, 503, body=Credentials))
    async def login(request: Request, response: Response) -> dict[str, Any]:
        req = await body(request, Credentials, required=True)

        def do() -> dict[str, Any]:
            account, token = accounts.login(req.username, req.password, address(request))
            set_session(response, request, token)
            return me(account, accounts.people)

        return await run_in_threadpool(do)

    @app.post("/api/account/logout", **declared(Me, 503))  # reads no body
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        await run_in_threadpool(accounts.logout, session_token(request))
        clear_session(response, request)
        return {"username": None}

    # 401: no session, or a wrong old password
    @app.post("/api/account/password", **declared(Changed, 401, 422, 503, body=PasswordBody))
    async def password(request: Request) -> dict[str, Any]:
        req = await body(request, PasswordBody, required=True)
        await run_in_threadpool(accounts.change_password, session_token(request), req.old,
                                req.new)
        return {"changed": True}

    @app.post("/api/account/delete", **declared(Deleted, 401, 422, 503, body=DeleteBody))
    async def delete(request: Request, response: Response) -> dict[str, Any]:
        req = await body(request, DeleteBody, required=True)
        games = await run_in_threadpool(accounts.delete, session_token(request),
                                        req.password)
        for game_id in games:  # the names in memory were the deleted player's
            ctx.games.forget(game_id)
        clear_session(response, request)
        return {"deleted": True}

    @app.post("/api/account/claim", **declared(Claimed, 401, 404, 422, 503, body=ClaimBody))
    async def claim(request: Request) -> dict[str, Any]:
        req = await body(request, ClaimBody, required=True)
        games = await run_in_threadpool(claimed, accounts, session_token(request), req.seats)
        return {"claimed": games}


def result_out(r: Result, account_id: str, changes: dict[str, tuple[float, float]],
               people: dict[str, Account | None]) -> dict[str, Any]:
    """A finished game as a profile lists it, from the player's side; ``people``: the
    opponents' accounts by id (the profile's links to theirs)."""
    side = "white" if r.white == account_id else "black"
    opp = "black" if side == "white" else "white"
    names = dict(zip(("white", "black"), r.names, strict=True))
    theirs = people.get((r.black if side == "white" else r.white) or "")
    out = {"id": r.game_id, "game": r.game, "kind": r.kind, "variant": r.variant,
           "points": r.points, "side": side, "opponent": names[opp] or DELETED,
           "opponent_player": theirs and theirs.username,
           "opponent_deleted": bool(theirs and theirs.deleted),
           "result": "draw" if r.winner is None else "won" if r.winner == side else "lost",
           "how": r.how, "score": r.score, "rated": r.rated, "at": r.at}
    if r.game_id in changes:
        old, new = changes[r.game_id]
        out["rating"] = {"old": round(old, 2), "new": round(new, 2)}
    return out


def profile(people: AccountStore, username: str, limit: int, offset: int) -> dict[str, Any]:
    account = people.by_name(username)
    if account is None:
        raise ApiError(404, "no player with this name", "not_found", key="err.no_player")
    history = people.changes(account.id)
    changes = {c.game_id: (c.old, c.new) for c in history}
    results = people.results_of(account.id, limit, offset)
    opponents = {i for r in results for i in (r.white, r.black) if i and i != account.id}
    accounts = {i: people.by_id(i) for i in sorted(opponents)}
    return {
        "username": account.username, "created": account.created,
        "ratings": ratings_out(people, account.id),
        "chart": [{"game": c.game, "at": c.at, "old": round(c.old, 2),
                   "rating": round(c.new, 2), "id": c.game_id, "won": c.won,
                   "opponent": c.opponent or DELETED, "opponent_deleted": c.opponent is None}
                  for c in history],
        "games": [result_out(r, account.id, changes, accounts) for r in results],
    }


def mount_profiles(app: FastAPI, ctx: OnlineContext) -> None:
    """``GET /api/players/{username}`` and ``GET /api/leaderboard/{game}``."""
    people = ctx.accounts.people

    @app.get("/api/players/{username}", **declared(Profile, 404, 422, 503))
    async def player(username: str, limit: int = 50, offset: int = 0) -> dict[str, Any]:
        name = read_username(username) if len(username) <= 64 else read_username("")
        if not 1 <= limit <= 200 or not 0 <= offset <= 1_000_000:
            raise ApiError(422, "limit is 1 to 200, offset 0 or more", "invalid")
        return await run_in_threadpool(profile, people, name, limit, offset)

    @app.get("/api/leaderboard/{game}", **declared(Leaderboard, 404, 503))
    async def leaderboard(game: str) -> dict[str, Any]:
        if game not in GAMES:
            raise ApiError(404, f"no ratings for {game[:40]!r}: {', '.join(GAMES)}",
                           "not_found")
        rows = await run_in_threadpool(people.leaderboard, game)
        return {"game": game, "players": [
            {"username": u, "rating": round(r, 2), "experience": e, "played": p}
            for u, r, e, p in rows]}


__all__ = ["mount_accounts", "mount_profiles", "COOKIE", "session_token"]
