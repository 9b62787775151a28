"""Provably fair dice: nobody — not the server, not a player — can predict or choose a die.

1. Before the first roll the server draws a secret **server seed** (32 random bytes) and
   publishes its **commitment**, ``SHA-256(server seed)``: from then on the server cannot
   change its seed without the change showing.
2. Each player contributes a **client seed** (his browser's own random text, 8-128 of the
   characters ``A-Z a-z 0-9 _ -``); an AI seat's seed is fixed when the game is created,
   before any player's is known.
3. Roll ``n`` (0, 1, 2, … over the whole game or match; each opening throw is one roll,
   white's die first) is ``HMAC-SHA256(key = server seed, message)`` with the message
   ``b"tavli-dice/1"`` followed by white's and black's client seeds, each as a 2-byte
   big-endian length and its ASCII bytes, then ``n`` as 8 bytes big-endian and a 4-byte
   block counter (0 first). The digest's bytes are read in order and the first byte
   ``b < 252`` (= 7 × 36) gives the roll ``v = b mod 36``: dice ``(v div 6 + 1,
   v mod 6 + 1)``, each of the 36 rolls equally likely (no modulo bias). If all 32 bytes
   are 252 or more (chance 2^-192), block 1 is read, and so on.
4. When the game ends the server reveals its seed; the record keeps the proof
   (``fair_dice``: scheme, commitment, server seed, client seeds) and anyone can recompute
   every die (:func:`verify_record`, ``tavli verify RECORD``).

>>> seed = "00" * 32
>>> commitment(seed)[:16]
'66687aadf862bd77'
>>> roll_pair(seed, {"white": "alice-seed", "black": "bob-seed-1"}, 0)
(1, 2)
>>> dice = FairDice(seed, {"white": "alice-seed", "black": "bob-seed-1"})
>>> [dice.die() for _ in range(4)]
[1, 2, 1, 2]
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from typing import Any

from tavli.engine.dice import DiceSource
from tavli.engine.layout import SIDE_NAMES
from tavli.errors import DiceProofError, RecordError, WrongState

SCHEME = "tavli-hmac-sha256/1"
SEED_BYTES = 32
_LABEL = b"tavli-dice/1"
#: a client seed: 8 to 128 of ``A-Z a-z 0-9 _ -`` (the action's model says so too)
CLIENT_SEED = r"^[A-Za-z0-9_-]{8,128}$"
_CLIENT_SEED = re.compile(CLIENT_SEED)
_HEX64 = re.compile(r"[0-9a-f]{64}")
#: problems listed by :func:`verify_record` before the rest are only counted
MAX_PROBLEMS = 20


def new_server_seed() -> str:
    """A fresh secret server seed: 32 bytes from the OS's secure source, as hex."""
    return secrets.token_hex(SEED_BYTES)


def new_client_seed() -> str:
    """A client seed as a browser would make one (for AI seats and tests)."""
    return secrets.token_urlsafe(18)


def _seed_bytes(server_seed: str) -> bytes:
    if not isinstance(server_seed, str) or not _HEX64.fullmatch(server_seed):
        raise DiceProofError("a server seed is 64 lowercase hexadecimal digits")
    return bytes.fromhex(server_seed)


def commitment(server_seed: str) -> str:
    """The commitment published before the first roll: SHA-256 of the seed's bytes, hex."""
    return hashlib.sha256(_seed_bytes(server_seed)).hexdigest()


def check_client_seed(seed: Any) -> str:
    """``seed`` if it is a client seed (8-128 of ``A-Z a-z 0-9 _ -``), else
    :class:`DiceProofError`."""
    if not isinstance(seed, str) or not _CLIENT_SEED.fullmatch(seed):
        shown = repr(seed)[:40]
        raise DiceProofError(f"a client seed is 8 to 128 of the characters A-Z a-z 0-9 _ -, "
                             f"not {shown}")
    return seed


def _message(client_seeds: Mapping[str, str], n: int, block: int) -> bytes:
    parts = [_LABEL]
    for side in SIDE_NAMES:
        raw = check_client_seed(client_seeds.get(side)).encode("ascii")
        parts.append(len(raw).to_bytes(2, "big") + raw)
    parts.append(n.to_bytes(8, "big") + block.to_bytes(4, "big"))
    return b"".join(parts)


def roll_pair(server_seed: str, client_seeds: Mapping[str, str], n: int) -> tuple[int, int]:
    """Roll ``n`` (from 0) of a game or match: two dice, 1..6 each."""
    key = _seed_bytes(server_seed)
    block = 0
    while True:
        digest = hmac.new(key, _message(client_seeds, n, block), hashlib.sha256).digest()
        for b in digest:
            if b < 252:
                v = b % 36
                return v // 6 + 1, v % 6 + 1
        block += 1


class FairDice(DiceSource):
    """The dice of an online game: roll ``n`` from the server seed and both client seeds.

    The game draws one die at a time, always in pairs (an opening throw: white's die then
    black's; a roll: both dice), so die ``2n`` and ``2n + 1`` are roll ``n``. Client seeds
    may be added until the first die is drawn (:meth:`set_client_seed`); drawing before
    both are in raises :class:`WrongState` naming the seat that has not sent its seed."""

    def __init__(self, server_seed: str, client_seeds: Mapping[str, str] | None = None,
                 drawn: int = 0) -> None:
        super().__init__(rng=None)
        self.server_seed = server_seed
        self.commitment = commitment(server_seed)
        self.client_seeds: dict[str, str] = {}
        self.drawn = 0  #: dice drawn so far
        for side, seed in (client_seeds or {}).items():
            self.set_client_seed(side, seed)
        self.drawn = drawn

    def set_client_seed(self, side: str, seed: str) -> None:
        if side not in SIDE_NAMES:
            raise DiceProofError(f"a client seed belongs to white or black, not {side!r}")
        if side in self.client_seeds:
            raise WrongState(f"{side}'s dice seed is already set")
        if self.drawn:
            raise WrongState("the dice are rolling: no seed can be added now")
        self.client_seeds[side] = check_client_seed(seed)

    def missing(self) -> list[str]:
        """The seats whose client seed is still awaited."""
        return [s for s in SIDE_NAMES if s not in self.client_seeds]

    def die(self) -> int:
        wait = self.missing()
        if wait:
            raise WrongState(f"the dice wait for {' and '.join(wait)}'s seed")
        pair = roll_pair(self.server_seed, self.client_seeds, self.drawn // 2)
        d = pair[self.drawn % 2]
        self.drawn += 1
        return d

    def proof(self, reveal: bool) -> dict[str, Any]:
        """The record's ``fair_dice`` entry; the server seed only with ``reveal`` (at the
        end of the game or match), else None."""
        return proof(self.commitment, self.client_seeds, self.server_seed if reveal else None)


def proof(commit: str, client_seeds: Mapping[str, str], server_seed: str | None
          ) -> dict[str, Any]:
    """A record's ``fair_dice`` entry."""
    return {"scheme": SCHEME, "commitment": commit,
            "client_seeds": {s: client_seeds.get(s) for s in SIDE_NAMES},
            "server_seed": server_seed}


def _read_proof(data: Any) -> tuple[str, dict[str, str], str | None]:
    """The commitment, client seeds and server seed of a record's ``fair_dice`` entry
    (:class:`RecordError` for a record without one, or one of the wrong form)."""
    if not isinstance(data, dict) or "fair_dice" not in data:
        raise RecordError("the record has no fair_dice proof: it was not played online")
    p = data["fair_dice"]
    if not isinstance(p, dict):
        raise RecordError("fair_dice must be an object")
    if p.get("scheme") != SCHEME:
        raise RecordError(f"fair_dice: unknown scheme {str(p.get('scheme'))[:40]!r} "
                          f"(this tavli verifies {SCHEME})")
    commit = p.get("commitment")
    if not isinstance(commit, str) or not _HEX64.fullmatch(commit):
        raise RecordError("fair_dice: the commitment must be 64 lowercase hexadecimal digits")
    seeds = p.get("client_seeds")
    if not isinstance(seeds, dict):
        raise RecordError("fair_dice: client_seeds must be an object")
    try:
        client = {s: check_client_seed(seeds.get(s)) for s in SIDE_NAMES}
        server = p.get("server_seed")
        if server is not None:
            _seed_bytes(server)
    except DiceProofError as e:
        raise RecordError(f"fair_dice: {e}") from None
    return commit, client, server


def verify_record(data: Any) -> tuple[int, list[str]]:
    """Recompute every die of a finished online game's record: ``(rolls, problems)``,
    one line per problem (none: every die is the seeds' and the seed is the committed
    one). A record that is not a tavli record, or has no proof of the right form, raises
    :class:`RecordError`; a server seed not yet revealed, a seed that does not match the
    commitment, a record that does not replay and each roll that differs from the seeds'
    are problems."""
    from tavli.play.record import load_record

    commit, client, server = _read_proof(data)
    if server is None:
        return 0, ["the server seed is not revealed: the game is not over"]
    problems = []
    if commitment(server) != commit:
        problems.append(f"the server seed does not match the commitment: SHA-256 of the seed "
                        f"is {commitment(server)[:16]}…, the commitment {commit[:16]}…")
    drawn: list[int] = []
    try:
        load_record(data, drawn=drawn)
    except RecordError as e:
        problems.append(f"the record does not replay: {e}")
    rolls = len(drawn) // 2
    wrong = []
    for n in range(rolls):
        got = (drawn[2 * n], drawn[2 * n + 1])
        want = roll_pair(server, client, n)
        if got != want:
            wrong.append(f"roll {n + 1}: the record has {_pair(got)}, the seeds give "
                         f"{_pair(want)}")
    problems += wrong[:MAX_PROBLEMS]
    if len(wrong) > MAX_PROBLEMS:
        problems.append(f"… and {len(wrong) - MAX_PROBLEMS} more rolls that differ")
    return rolls, problems


def _pair(d: tuple[int, int]) -> str:
    """A drawn pair in drawing order (white's die first in an opening throw)."""
    return f"{d[0]}-{d[1]}"


__all__ = ["SCHEME", "FairDice", "commitment", "roll_pair", "new_server_seed",
           "new_client_seed", "check_client_seed", "proof", "verify_record"]
