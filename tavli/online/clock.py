"""Time in online games: the players' clocks and absence (docs/server.md, "Clocks").

**The clock** (optional, set at creation: ``{"reserve": S, "delay": S}``): each side has
a reserve of seconds; whenever a side's decision is awaited — to roll, to move, to answer
a double — its clock runs: first the per-move ``delay`` (free), then its reserve. The
delay starts again each time the clock passes to a side; the roll and the move of one
turn share one delay. Nobody's clock runs before the opening throw, between the games
of a match (either player throws the opening dice and starts the next game), before both
client seeds are in, or once the game is over. In a match the reserve is for the whole
match. When the running side's reserve is spent, its flag falls and it loses on time.

The time stamps of the committed actions are the record: :meth:`Clock.tick` is called
with each action's ``at`` as the log is applied, so every process, and a restarted one,
computes the same clock from the same log.

>>> c = Clock.start({"reserve": 60, "delay": 10})
>>> c.tick(100.0, "white")            # white's roll is awaited from t=100
>>> c.left(105.0), c.left(130.0)      # 5 s into the delay; then 20 s of the reserve
(60.0, 40.0)
>>> c.tick(130.0, "black")            # white moved at t=130: black's turn
>>> c.reserve["white"], c.flag_at()   # black falls at 130 + 10 + 60
(40.0, 200.0)
>>> c.fallen(199.0), c.fallen(200.0)
(None, 'black')

**Absence**: a seat is connected while a server process holds a connection of it (each
process marks the seat ``seen`` in the store every presence beat); it is away from the
moment its last connection closed (``left``) or, when a process died, from its last
``seen``. :func:`absent_for` says for how long.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from tavli.errors import ClockError

SIDES = ("white", "black")
MAX_RESERVE = 7 * 86400.0   # seconds: a week
MAX_DELAY = 3600.0
MAX_ABANDON = 7 * 86400.0
DEFAULT_ABANDON = 300.0     # seconds away after which the opponent may claim the game
PRESENCE_BEAT = 5.0         # seconds between a process's presence writes and reads
ONLINE_BEATS = 2.5          # a seat seen within this many presence beats is connected




def _seconds(value: Any, what: str, low: float, high: float, *, zero: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or \
            not math.isfinite(value):
        raise ClockError(f"{what} must be a number of seconds, not {str(value)[:20]!r}")
    if value < low or (value == low and not zero) or value > high:
        bound = f"{'at least' if zero else 'more than'} {low:g}"
        raise ClockError(f"{what} must be {bound} and at most {high:g} seconds, not {value:g}")
    return float(value)


def read_clock(value: Any) -> dict[str, float] | None:
    """The clock of a create request (None: no clock), checked (:class:`ClockError`).

    >>> read_clock({"reserve": 300, "delay": 12})
    {'reserve': 300.0, 'delay': 12.0}
    >>> read_clock({"reserve": 0})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tavli.errors.ClockError: clock.reserve must be more than 0 and at most 604800 ...
    """
    if value is None:
        return None
    if not isinstance(value, dict) or not set(value) <= {"reserve", "delay"} or \
            "reserve" not in value:
        raise ClockError('clock must be {"reserve": SECONDS, "delay": SECONDS}')
    return {"reserve": _seconds(value["reserve"], "clock.reserve", 0, MAX_RESERVE,
                                zero=False),
            "delay": _seconds(value.get("delay", 0), "clock.delay", 0, MAX_DELAY, zero=True)}


def read_abandon(value: Any) -> float | None:
    """``abandon_after`` of a create request (None: a game is never abandoned)."""
    if value is None:
        return None
    return _seconds(value, "abandon_after", 0, MAX_ABANDON, zero=False)


@dataclass
class Clock:
    """Both sides' reserves as they stood at :attr:`since`, the delay, and the side whose
    clock runs (None: nobody's)."""

    reserve: dict[str, float]
    delay: float
    running: str | None = None
    since: float | None = None

    @classmethod
    def start(cls, settings: dict[str, float]) -> Clock:
        r = float(settings["reserve"])
        return cls({"white": r, "black": r}, float(settings.get("delay", 0)))

    def tick(self, at: float, running: str | None) -> None:
        """An action was committed at ``at``; after it ``running``'s decision is awaited
        (None: nobody's). The side whose clock ran is charged when the clock passes on."""
        if running == self.running and (self.since is not None or running is None):
            return  # the same side goes on (a roll, then its move): one delay
        if self.running is not None and self.since is not None:
            self.reserve[self.running] = self.left(at)
        self.running = running
        self.since = at

    def used(self, now: float) -> float:
        """Seconds of the running side's reserve spent since :attr:`since` (0: none)."""
        if self.running is None or self.since is None:
            return 0.0
        return max(0.0, now - self.since - self.delay)

    def left(self, now: float) -> float:
        """The running side's reserve at ``now`` (never below 0)."""
        if self.running is None:
            return 0.0
        return max(0.0, self.reserve[self.running] - self.used(now))

    def flag_at(self) -> float | None:
        """When the running side's flag falls (None: no clock runs)."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.delay + self.reserve[self.running]

    def fallen(self, now: float) -> str | None:
        """The side whose flag has fallen at ``now``, or None."""
        at = self.flag_at()
        return self.running if at is not None and now >= at else None

    def to_dict(self) -> dict[str, Any]:
        """``state.clock``: reserves as of ``since``, the delay, the running side."""
        return {"reserve": {s: round(v, 3) for s, v in self.reserve.items()},
                "delay": self.delay, "running": self.running, "since": self.since}


def connected(seat: Any, beat: float, now: float) -> bool:
    """Is ``seat`` (a :class:`~tavli.store.base.Seat`) connected to some process?"""
    seen, left = seat.seen, getattr(seat, "left", None)
    return seen is not None and now - seen < ONLINE_BEATS * beat and \
        (left is None or left < seen)


def absent_for(seat: Any, beat: float, now: float) -> float | None:
    """Seconds ``seat`` has been away at ``now`` (None while connected, for the AI and for
    a seat not taken yet): since its last connection closed, its last sign of life, or
    since it joined when it has never connected."""
    if seat.player != "human" or seat.joined is None or connected(seat, beat, now):
        return None
    marks = [t for t in (seat.seen, getattr(seat, "left", None), seat.joined) if t is not None]
    return round(max(0.0, now - max(marks)), 3)


__all__ = ["Clock", "ClockError", "read_clock", "read_abandon", "connected", "absent_for",
           "DEFAULT_ABANDON", "PRESENCE_BEAT", "SIDES"]
