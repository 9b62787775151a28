"""A game or match of the browser app in memory (:class:`Session`), and how it goes to
and comes back from the store: the engine's record (:mod:`tavli.play.record`) plus the app's
metadata (players, title, the state of a seeded dice generator, the last action).

The record keeps every die thrown, also dice thrown and not yet played, so a restart
resumes exactly; the metadata keeps the generator's state so that a seeded game goes on
with the same dice as if the server had never stopped.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from typing import Any

from tavli.engine.dice import DiceSource
from tavli.engine.layout import SIDE_NAMES
from tavli.errors import RecordError
from tavli.play.game import Game
from tavli.play.match import Match
from tavli.play.record import game_record, load_record, match_record


@dataclass
class Session:
    """One game or match in memory, with its own lock."""

    id: str
    obj: Game | Match
    meta: dict[str, Any]
    last: dict[str, Any] | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    version: int = 0  # counts the saved actions: the AI's answer is for one version
    thinking: threading.Lock = field(default_factory=threading.Lock)  # an AI move pending
    # its kind of game (tavli.web.kind), set once by the API when it is made or loaded
    kind: Any = field(default=None, repr=False, compare=False)

    @property
    def what(self) -> str:
        """``match`` or ``game``, for messages."""
        return "match" if isinstance(self.obj, Match) else "game"

    @property
    def match(self) -> Match | None:
        return self.obj if isinstance(self.obj, Match) else None

    @property
    def game(self) -> Game:
        return self.obj.game if isinstance(self.obj, Match) else self.obj

    @property
    def games(self) -> list[Game]:
        """Every game played so far (one for a single game)."""
        return list(self.obj.games) if isinstance(self.obj, Match) else [self.obj]

    @property
    def finished(self) -> bool:
        m = self.match
        return m.is_over if m is not None else self.game.is_over

    @property
    def imported(self) -> bool:
        return bool(self.meta.get("imported"))

    def record(self) -> dict[str, Any]:
        m = self.match
        if m is not None:
            return match_record(m)
        return game_record(self.game, self.meta.get("seed"))

    def score(self) -> list[int]:
        """Points of white and black: the match score, or the game's outcome."""
        m = self.match
        if m is not None:
            return list(m.score)
        out = self.game.outcome
        return [out.points if out is not None and out.winner == side else 0
                for side in (0, 1)]


def _rng_state(src: DiceSource) -> Any:
    rng = src.rng
    if type(rng) is random.Random:
        v, state, gauss = rng.getstate()
        return [v, list(state), gauss]
    return None


def _dice_source(meta: dict[str, Any]) -> DiceSource:
    state = meta.get("rng")
    if state:
        rng = random.Random()
        rng.setstate((state[0], tuple(state[1]), state[2]))
        return DiceSource(rng=rng)
    return DiceSource()


def restore(game_id: str, record: dict[str, Any], meta: dict[str, Any]) -> Session:
    """The session of a stored row: the record replayed (dice out included), then the
    dice generator where it stopped."""
    obj = load_record(record)
    s = Session(game_id, obj, meta, meta.get("last"))
    if s.imported:
        return s
    src = _dice_source(meta)
    for g in s.games:
        g.dice_source = src
    if isinstance(obj, Match):
        obj.dice_source = src
        obj.seed = meta.get("seed")
    g = s.game
    pending = meta.get("pending")  # rows stored before records kept the dice out
    if pending and g.phase == "roll":
        g.set_dice(tuple(pending))
    if pending and list(g.dice or ()) != list(pending):
        raise RecordError(f"the saved dice {pending} do not replay")
    return s


def row(s: Session) -> dict[str, Any]:
    """The store's row of ``s`` (:meth:`tavli.store.local.LocalStore.save`'s arguments), its
    metadata brought up to date."""
    g = s.game
    s.meta["pending"] = list(g.dice) if g.phase == "move" and g.dice else None
    if not s.imported:
        s.meta["rng"] = _rng_state(g.dice_source)
    s.meta["last"] = s.last
    s.meta["score"] = s.score()
    status = "imported" if s.imported else "over" if s.finished else "playing"
    return {"kind": "match" if s.match is not None else "game",
            "variant": s.meta["variant"], "status": status, "title": s.meta["title"],
            "record": s.record(), "meta": s.meta}


def players(opponent: str, ai_side: str = "black", level: str = "expert"
            ) -> dict[str, dict[str, str]]:
    """Who plays each side: people, or the AI at ``level`` on ``ai_side``."""
    out: dict[str, dict[str, str]] = {side: {"type": "human"} for side in SIDE_NAMES}
    if opponent == "ai":
        out[ai_side] = {"type": "ai", "level": level}
    return out


__all__ = ["Session", "restore", "row", "players"]
