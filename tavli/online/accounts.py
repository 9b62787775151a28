"""Players' accounts on the online server (docs/server.md, "Accounts"): optional — a guest
still plays with a chosen name — for a name that stays one's own, ratings and a history.

:class:`Accounts` signs up (a username and a password, no e-mail), logs in and out,
changes a password, deletes an account with its personal data (the games stay, their
player "deleted player") and lets an account claim the games its browser played as a
guest (each proved by the seat token the browser kept). The store is
:class:`tavli.store.accounts.AccountStore`.

* Passwords are hashed with **Argon2id** (``argon2-cffi``'s defaults, RFC 9106's
  second recommended setting: 64 MiB, 3 passes, 4 lanes; each hash has its own salt) and
  never stored, logged or sent back in clear. At most :data:`HASHING` hashes run at once
  (64 MiB and a tenth of a second of CPU each): a flood of logins waits for its turn
  instead of taking the server's memory.
* A login that fails answers the same — "wrong username or password" — whether the
  username exists or not, and takes as long (an unknown name is checked against a dummy
  hash). Failed logins are counted in the store (every process of a deployment sees the
  same counts) per address and username pair and per address (:class:`LoginLimits`):
  after 3 failures of a pair each further one makes that pair wait twice as long (1 s,
  2 s, 4 s, … at most 15 minutes), and an address that failed 30 times in 15 minutes
  waits for the window's end; meanwhile a login is refused (429, ``Retry-After``) before
  its password is even checked. Failures from other addresses never slow the owner's
  login: guessing one account's password from many addresses costs a pair's wait at
  each.
* A session is a random cookie (192 bits) whose SHA-256 the store keeps, for
  :data:`SESSION_DAYS` days or until the player logs out; changing the password ends the
  account's other sessions, deleting the account all of them.

>>> from tavli.store.factory import open_store
>>> accounts = Accounts(open_store(":memory:"), hasher=FAST)
>>> ann, cookie = accounts.signup("Ann", "correct horse")
>>> accounts.session(cookie).username
'Ann'
>>> accounts.login("ann", "wrong horse", "10.0.0.1")
Traceback (most recent call last):
...
tavli.errors.ApiError: wrong username or password
>>> accounts.login("nobody", "wrong horse", "10.0.0.1")
Traceback (most recent call last):
...
tavli.errors.ApiError: wrong username or password
"""

from __future__ import annotations

import math
import re
import threading
import time
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from tavli.errors import ApiError, StoreError
from tavli.store.accounts import Account, AccountStore
from tavli.store.base import new_token
from tavli.store.online import OnlineStore

SESSION_DAYS = 30
#: Argon2id hashes computed at once (each takes 64 MiB for a tenth of a second)
HASHING = 2
#: a username: 3 to 20 letters (any script), digits, ``_`` or ``-``
USERNAME = re.compile(r"^[\w-]{3,20}$")
PASSWORD_MIN, PASSWORD_MAX = 8, 256
#: cheap parameters for the suite's many sign-ups (the same Argon2id, 1 MiB, 1 pass)
FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


@dataclass(frozen=True)
class LoginLimits:
    """How failed logins slow guessing down without locking the owner out: an address
    may fail ``free`` times for one username, then waits ``delay`` seconds before its
    next try, twice as long after each further failure (at most ``window``); and an
    address may fail ``per_address`` times in ``window`` seconds over all usernames.

    >>> [LoginLimits().pause(n) for n in (0, 2, 3, 4, 5, 20)]
    [0.0, 0.0, 1.0, 2.0, 4.0, 900.0]
    """

    free: int = 3
    delay: float = 1.0
    per_address: int = 30
    window: float = 900.0

    def pause(self, failures: int) -> float:
        """Seconds a pair waits after its ``failures``-th failure in a row."""
        if failures < self.free:
            return 0.0
        return min(self.window, self.delay * 2.0 ** min(failures - self.free, 64))


LOGIN_LIMITS = LoginLimits()


def read_username(text: object) -> str:
    """``text`` as a username (NFKC-normalized), or a 422 saying what one is."""
    name = unicodedata.normalize("NFKC", text) if isinstance(text, str) else ""
    if not USERNAME.match(name):
        raise ApiError(422, "a username is 3 to 20 letters, digits, _ or -", "invalid",
                       key="err.username")
    return name


def read_password(text: object, username: str = "") -> str:
    """``text`` as a new password, or a 422 saying why not."""
    if not isinstance(text, str) or not PASSWORD_MIN <= len(text) <= PASSWORD_MAX:
        raise ApiError(422, f"a password is {PASSWORD_MIN} to {PASSWORD_MAX} characters",
                       "invalid", key="err.password_length")
    if username and text.casefold() == username.casefold():
        raise ApiError(422, "the password must not be the username", "invalid",
                       key="err.password_username")
    return text


def wrong_login() -> ApiError:
    return ApiError(401, "wrong username or password", "login_failed", key="err.login_failed")


def too_many_logins(wait: float) -> ApiError:
    seconds = max(1, math.ceil(wait))
    return ApiError(429, f"too many failed logins: try again in {seconds} s", "rate_limited",
                    key="err.rate_limited", retry_after=seconds)


def logged_out() -> ApiError:
    return ApiError(401, "log in first", "logged_out", key="err.logged_out")


class Accounts:
    """Sign-up, login, sessions, password changes and deletion over the online store."""

    def __init__(self, store: OnlineStore, *, hasher: PasswordHasher | None = None,
                 limits: LoginLimits | None = None,
                 session_days: float = SESSION_DAYS) -> None:
        self.people = AccountStore(store.backend)
        self.hasher = hasher or PasswordHasher()
        self.limits = limits or LOGIN_LIMITS
        self.session_seconds = session_days * 86400.0
        self.hashing = threading.BoundedSemaphore(HASHING)
        self._dummy: str | None = None

    # --- passwords -------------------------------------------------------------------------
    def _hash(self, password: str) -> str:
        with self.hashing:
            return self.hasher.hash(password)

    def _verify(self, hashed: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``hashed`` was made from (None: an unknown
        account, checked against a dummy hash so that it takes as long)."""
        if hashed is None:
            if self._dummy is None:
                self._dummy = self._hash(new_token())
            hashed = self._dummy
            password = "\0" + password  # never matches
        with self.hashing:
            try:
                return self.hasher.verify(hashed, password)
            except (VerificationError, InvalidHashError):
                return False

    # --- sessions --------------------------------------------------------------------------
    def _open(self, account: Account) -> str:
        token = new_token()
        self.people.open_session(account.id, token, time.time() + self.session_seconds)
        return token

    def session(self, token: str | None) -> Account | None:
        """The account logged in with the session cookie ``token``, or None."""
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        return self.people.session(token)

    def require(self, token: str | None) -> Account:
        """The account of ``token``, or 401."""
        account = self.session(token)
        if account is None:
            raise logged_out()
        return account

    # --- sign-up, login, logout --------------------------------------------------------------
    def signup(self, username: object, password: object) -> tuple[Account, str]:
        """A new account, logged in: ``(account, session token)``; 409 when the name is
        taken (whatever its case)."""
        name = read_username(username)
        secret = read_password(password, name)
        try:
            account = self.people.create(name, self._hash(secret))
        except StoreError:
            raise ApiError(409, f"the username {name} is taken", "name_taken",
                           key="err.name_taken") from None
        return account, self._open(account)

    def login(self, username: object, password: object, address: str) -> tuple[Account, str]:
        """Log in: ``(account, session token)``. The same 401 for an unknown name and a
        wrong password; 429 with the seconds to wait while this address must wait for
        this name, or for any (:class:`LoginLimits`)."""
        name = unicodedata.normalize("NFKC", username) if isinstance(username, str) else ""
        pair, from_address = f"pair:{address}|{name.casefold()[:64]}", f"address:{address}"
        wait = self._wait(pair, from_address)
        if wait > 0:
            raise too_many_logins(wait)
        account = self.people.by_name(name) if USERNAME.match(name) else None
        secret = password if isinstance(password, str) and len(password) <= PASSWORD_MAX \
            else ""
        # an unknown name is checked too (against a dummy hash): it takes as long
        if not self._verify(account.password if account else None, secret) or not account:
            window = self.limits.window
            self.people.forget_old_failures(window)  # the table stays small
            self.people.failed(from_address, window)
            self.people.failed_again(pair, window)
            raise wrong_login()
        self.people.forgive(pair)
        if self.hasher.check_needs_rehash(account.password):  # parameters raised since
            self.people.set_password(account.id, self._hash(secret))
        return account, self._open(account)

    def _wait(self, pair: str, from_address: str) -> float:
        """Seconds before the address and username ``pair`` may try again (its failures
        in a row, :meth:`LoginLimits.pause`), or the address at all (its failures in the
        window); 0 when it may now."""
        limits, now = self.limits, time.time()
        failures, last = self.people.failures(pair, limits.window)
        wait = last + limits.pause(failures) - now if failures else 0.0
        failures, start = self.people.failures(from_address, limits.window)
        if failures >= limits.per_address:
            wait = max(wait, start + limits.window - now)
        return wait

    def logout(self, token: str | None) -> None:
        if token and isinstance(token, str) and len(token) <= 200:
            self.people.close_session(token)

    # --- the account -------------------------------------------------------------------------
    def change_password(self, token: str | None, old: object, new: object) -> None:
        """Change the password of the account logged in with ``token`` (the old one
        checked); its other sessions end."""
        account = self.require(token)
        if not self._verify(account.password, old if isinstance(old, str) else ""):
            raise wrong_login()
        self.people.set_password(account.id, self._hash(read_password(new, account.username)))
        self.people.close_other_sessions(account.id, token)

    def delete(self, token: str | None, password: object) -> list[str]:
        """Delete the account logged in with ``token`` (its password checked) with its
        personal data; its games stay, their player "deleted player". The games whose
        names changed."""
        account = self.require(token)
        if not self._verify(account.password, password if isinstance(password, str) else ""):
            raise wrong_login()
        return self.people.delete(account.id)

    def claim(self, token: str | None, seats: list[tuple[str, str]]) -> list[str]:
        """Make the guest seats ``(game id, seat token)`` the account's (each token proves
        the seat was this browser's; seats of other accounts stay theirs); the games
        claimed."""
        account = self.require(token)
        return [g for g, seat in seats if self.people.claim_guest_seat(account.id, g, seat)]


__all__ = ["Accounts", "LoginLimits", "LOGIN_LIMITS", "FAST", "SESSION_DAYS", "read_username",
           "read_password"]
