"""The online server's players: accounts, their sessions, their ratings and the history of
each rating, and the throttle of failed logins — in the online store's database, through
the same backend (schema: migration 4 of :data:`tavli.store.migrations.MIGRATIONS`).

* An **account** (:class:`Account`): a username (unique whatever its case), the Argon2id
  hash of its password (never the password: :mod:`tavli.online.accounts` hashes). A
  deleted account keeps its row without a name or password, so that its games still name
  a player: "deleted player".
* A **session**: the SHA-256 of a session cookie (never the cookie), its account and
  when it expires.
* The **result** of each finished game or match (:class:`Result`: who won, how, the
  players' accounts: the players' histories), and a **rating** per account and game
  (:class:`Rating`) with one **change** per rated game and player (:class:`RatingChange`;
  the key ``(game_id, account_id)`` holds it to once). :meth:`AccountStore.finish` writes
  them inside the transaction that commits the action ending the game
  (:meth:`tavli.store.online.OnlineStore.append`'s ``then``).
* The **throttle**: failed logins counted per key (an account, an address) in a window.

>>> from tavli.store.factory import open_store
>>> store = open_store(":memory:")
>>> people = AccountStore(store.backend)
>>> ann = people.create("Ann", "$argon2id$...")
>>> people.by_name("ANN").username, people.by_name("bob")
('Ann', None)
>>> people.create("ann", "$argon2id$...")
Traceback (most recent call last):
...
tavli.errors.StoreError: the username ann is taken
>>> people.open_session(ann.id, "cookie", 1e12); people.session("cookie").username
'Ann'
>>> store.close()
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tavli.errors import StoreError
from tavli.store import sql as S
from tavli.store.base import Backend, Tx, dumps, token_hash

#: what a deleted account's seats and records show instead of its names
DELETED = "deleted player"
ID_BYTES = 12


def name_key(username: str) -> str:
    """What makes two usernames the same one: their case-folded text."""
    return username.casefold()


@dataclass(frozen=True)
class Account:
    """A player's account (``password``: the Argon2id hash; None once deleted)."""

    id: str
    username: str | None
    password: str | None
    created: float
    deleted: float | None = None


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game: ``rating``, ``experience`` (match points finished,
    rated), ``played`` (rated games and matches finished)."""

    account_id: str
    game: str
    rating: float
    experience: int
    played: int
    updated: float


@dataclass(frozen=True)
class RatingChange:
    """What one rated game or match did to a player's rating."""

    game_id: str
    game: str
    won: bool
    points: int
    old: float
    new: float
    at: float
    opponent: str | None   # the opponent's username (None: a deleted account)


@dataclass(frozen=True)
class Result:
    """How an online game or match ended: ``game`` (what it is rated as: portes, …,
    tavli), ``points`` (its length; 1: a single game), ``winner`` (white, black; None:
    drawn), ``how`` (the last game's outcome kind), ``score`` (a match's score, or the
    points of the game), the players' accounts; from the store also the game's ``kind``,
    ``variant`` and the seats' ``names``."""

    game_id: str
    game: str
    points: int
    winner: str | None
    how: str
    score: Any
    rated: bool
    white: str | None
    black: str | None
    at: float
    kind: str = "game"
    variant: str = ""
    names: tuple[str | None, str | None] = (None, None)


@dataclass(frozen=True)
class Settlement:
    """A rated result to commit with the action that ends it: game ``game_id`` (of the
    rating ``game``, ``points`` long) between the accounts ``white`` and ``black``, won by
    ``winner`` (0: white, 1: black); ``rate(white's rating, black's)`` gives both ratings
    after it as ``(rating, experience)`` pairs."""

    game_id: str
    game: str
    points: int
    white: str
    black: str
    winner: int
    rate: Callable[[tuple[float, int], tuple[float, int]],
                   tuple[tuple[float, int], tuple[float, int]]]
    start: float = 1500.0


class AccountStore:
    """Accounts, sessions, ratings and the login throttle over the online store's
    ``backend`` (its schema is the online store's: open that first)."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    # --- accounts --------------------------------------------------------------------------
    def create(self, username: str, password_hash: str) -> Account:
        """A new account; :class:`StoreError` when the name is taken (whatever its case)."""
        account = Account(secrets.token_urlsafe(ID_BYTES), username, password_hash,
                          time.time())
        try:
            self.backend.write(S.INSERT_ACCOUNT, (account.id, username, name_key(username),
                                                  password_hash, account.created))
        except self.backend.integrity:
            raise StoreError(f"the username {username} is taken") from None
        return account

    def by_name(self, username: str) -> Account | None:
        row = self.backend.one(S.ACCOUNT_BY_NAME, (name_key(username),))
        return Account(*row) if row else None

    def by_id(self, account_id: str) -> Account | None:
        row = self.backend.one(S.ACCOUNT_BY_ID, (account_id,))
        return Account(*row) if row else None

    def set_password(self, account_id: str, password_hash: str) -> None:
        self.backend.write(S.SET_PASSWORD, (password_hash, account_id))

    def delete(self, account_id: str, at: float | None = None) -> list[str]:
        """Forget the account's personal data in one transaction: its name and password,
        its sessions, ratings and rating history, its chat messages, and its name in its
        games (seats, the join actions of the log and the records say :data:`DELETED`);
        the games stay.
        The games whose names changed."""
        at = time.time() if at is None else at
        with self.backend.transaction() as tx:
            seats = tx.rows(S.SEATS_OF_ACCOUNT, (account_id,))
            tx.run(S.FORGET_SEAT_NAMES, (DELETED, account_id))
            for game_id, side in seats:
                _forget_joins(tx, game_id, side)
                _forget_in_record(tx, game_id, side)
                tx.run(S.DELETE_CHAT_OF_SEAT, (game_id, side))
            for statement in (S.DELETE_SESSIONS, S.DELETE_RATINGS, S.DELETE_RATING_CHANGES):
                tx.run(statement, (account_id,))
            tx.run(S.FORGET_ACCOUNT, (at, account_id))
        return sorted({g for g, _ in seats})

    # --- sessions --------------------------------------------------------------------------
    def open_session(self, account_id: str, token: str, expires: float) -> None:
        now = time.time()
        self.backend.write(S.DELETE_EXPIRED_SESSIONS, (now,))
        self.backend.write(S.INSERT_SESSION, (token_hash(token), account_id, now, expires))

    def session(self, token: str) -> Account | None:
        """The account of the session cookie ``token`` while it lasts, or None."""
        row = self.backend.one(S.SESSION, (token_hash(token), time.time()))
        return Account(*row) if row else None

    def close_session(self, token: str) -> None:
        self.backend.write(S.DELETE_SESSION, (token_hash(token),))

    def close_other_sessions(self, account_id: str, token: str) -> None:
        """Log the account out everywhere but in the session ``token``."""
        self.backend.write(S.DELETE_OTHER_SESSIONS, (account_id, token_hash(token)))

    # --- seats -----------------------------------------------------------------------------
    def claim_guest_seat(self, account_id: str, game_id: str, seat_token: str) -> bool:
        """Make a guest's seat (proved by its token) the account's; whether it was one."""
        return self.backend.write(S.CLAIM_GUEST_SEAT,
                                  (account_id, game_id, token_hash(seat_token))) == 1

    def seat_account(self, game_id: str, side: str, account_id: str | None) -> bool:
        """Name the account taking a seat not joined yet; whether the seat was free."""
        return self.backend.write(S.SEAT_ACCOUNT, (account_id, game_id, side)) == 1

    def results_of(self, account_id: str, limit: int = 50,
                   offset: int = 0) -> list[Result]:
        """The account's finished games and matches, the newest first."""
        return [Result(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), bool(r[6]), r[7],
                       r[8], r[9], r[10], r[11], (r[12], r[13]))
                for r in self.backend.rows(S.RESULTS_OF_ACCOUNT,
                                           (account_id, account_id, limit, offset))]

    def finish(self, tx: Tx, result: Result, settle: Settlement | None) -> None:
        """Record a game's or match's ``result`` inside the transaction ``tx`` that
        commits the action ending it, and the ratings it gives if it is rated
        (:meth:`settle`); the result's key (the game) holds both to once."""
        tx.run(S.INSERT_RESULT, (result.game_id, result.game, result.points, result.winner,
                                 result.how, dumps(result.score), int(result.rated),
                                 result.white, result.black, result.at))
        if settle is not None:
            self.settle(tx, settle, result.at)

    # --- ratings ---------------------------------------------------------------------------
    def rating(self, account_id: str, game: str, default: float) -> float:
        """The account's rating in ``game`` (``default`` before its first rated game)."""
        row = self.backend.one(S.RATING_OF, (account_id, game))
        return default if row is None else row[0]

    def ratings_of(self, account_ids: list[str], game: str) -> dict[str, tuple[str, float]]:
        """The usernames and ``game`` ratings of several accounts (deleted ones left out;
        no rating yet: NaN), by account."""
        out: dict[str, tuple[str, float]] = {}
        for i in range(0, len(account_ids), 500):
            part = account_ids[i:i + 500]
            for r in self.backend.rows(S.NAMES_AND_RATINGS.format(accounts=S.marks(len(part))),
                                       (game, *part)):
                out[r[0]] = (r[1], float("nan") if r[2] is None else r[2])
        return out

    def ratings(self, account_id: str) -> list[Rating]:
        return [Rating(*r) for r in self.backend.rows(S.RATINGS_OF, (account_id,))]

    def changes(self, account_id: str, limit: int = 1000) -> list[RatingChange]:
        """The account's rating changes, the oldest first (a chart over time)."""
        return [RatingChange(r[0], r[1], bool(r[2]), r[3], r[4], r[5], r[6], r[7])
                for r in self.backend.rows(S.RATING_CHANGES, (account_id, limit))]

    def changes_of_game(self, game_id: str) -> dict[str, tuple[float, float]]:
        """What a game did to its players' ratings: ``{account: (old, new)}``."""
        return {r[0]: (r[1], r[2])
                for r in self.backend.rows(S.RATING_CHANGES_OF_GAME, (game_id,))}

    def leaderboard(self, game: str, limit: int = 50) -> list[tuple[str, float, int, int]]:
        """The best ratings of ``game``: (username, rating, experience, played)."""
        return [tuple(r) for r in self.backend.rows(S.LEADERBOARD, (game, limit))]

    def settle(self, tx: Tx, s: Settlement, at: float) -> None:
        """Write the ratings a rated result gives, inside the transaction ``tx`` that
        commits the result: both players' ratings read and locked, changed by
        ``s.rate``, and one change each recorded (a second settlement of the same game
        breaks the key ``(game_id, account_id)``, and the whole transaction with it)."""
        for account in sorted((s.white, s.black)):
            tx.run(S.ENSURE_RATING, (account, s.game, s.start, at))
        rows = {r[0]: (r[2], r[3]) for r in tx.rows(S.RATINGS_TO_SETTLE,
                                                    (s.game, s.white, s.black))}
        new = dict(zip((s.white, s.black), s.rate(rows[s.white], rows[s.black]), strict=True))
        for account, opponent, side in ((s.white, s.black, 0), (s.black, s.white, 1)):
            rating, experience = new[account]
            tx.run(S.SET_RATING, (rating, experience, at, account, s.game))
            tx.run(S.INSERT_RATING_CHANGE, (s.game_id, account, s.game, opponent,
                                            int(s.winner == side), s.points,
                                            rows[account][0], rating, at))

    # --- the login throttle ----------------------------------------------------------------
    def failures(self, key: str, window: float) -> tuple[int, float]:
        """``(failures, since)``: the failed logins counted for ``key`` within the last
        ``window`` seconds and the time kept with them — the window's start
        (:meth:`failed`) or the last failure's (:meth:`failed_again`); ``(0, 0.0)`` when
        none are."""
        row = self.backend.one(S.THROTTLE, (key,))
        if row is None or row[1] < time.time() - window:
            return 0, 0.0
        return row[0], row[1]

    def failed(self, key: str, window: float) -> None:
        """Count one more failed login for ``key`` (a window older than ``window``
        seconds starts again)."""
        now = time.time()
        start = now - window
        self.backend.write(S.THROTTLE_FAILED, (key, now, start, start))

    def failed_again(self, key: str, window: float) -> None:
        """Count one more failed login for ``key``, keeping its time: the count goes on
        while failures come less than ``window`` seconds apart."""
        now = time.time()
        self.backend.write(S.THROTTLE_FAILED_AGAIN, (key, now, now - window))

    def forgive(self, key: str) -> None:
        self.backend.write(S.THROTTLE_CLEAR, (key,))

    def forget_old_failures(self, window: float) -> None:
        self.backend.write(S.THROTTLE_EXPIRED, (time.time() - window,))


def _forget_joins(tx: Tx, game_id: str, side: str) -> None:
    """The join actions of a deleted account's seat name :data:`DELETED` (action and
    result alike, so the log still replays)."""
    for row_id, action, result in tx.rows(S.JOINS_OF_SEAT, (game_id, side)):
        a, r = json.loads(action), json.loads(result)
        if a.get("type") == "join":
            a["name"] = r["name"] = DELETED
            tx.run(S.REWRITE_ACTION, (dumps(a), dumps(r), row_id))


def _forget_in_record(tx: Tx, game_id: str, side: str) -> None:
    """A finished game's stored record names a deleted account's side :data:`DELETED`."""
    row = tx.rows(S.GAME_RECORD, (game_id,))
    if not row or not row[0][0]:
        return
    record: dict[str, Any] = json.loads(row[0][0])
    names = record.get("names")
    if isinstance(names, dict) and side in names:
        names[side] = DELETED
        tx.run(S.SET_RECORD, (dumps(record), game_id))


__all__ = ["AccountStore", "Account", "Rating", "RatingChange", "Result", "Settlement", "DELETED",
           "name_key"]
