"""Invalid WebSocket frames in the server's log: one line at most a minute, no traceback.

uvicorn closes a connection whose text frame is not UTF-8 as it should (close code 1007),
but logs each one as an ERROR with a full traceback: anyone could fill the server's log
by sending such frames. :class:`BadFrames`, a filter on uvicorn's error logger, lets one
line through (a warning) every :data:`INTERVAL` seconds, counting the others in the next
line; every other record passes untouched.

>>> f = BadFrames(interval=60.0, now=lambda: 0.0)
>>> r = logging.LogRecord("uvicorn.error", logging.ERROR, "", 0, UVICORN_TEXT, (), None)
>>> f.filter(r), r.levelname, r.getMessage()
(True, 'WARNING', 'a WebSocket text frame was not UTF-8: its connection was closed (1007)')
>>> f.filter(logging.LogRecord("uvicorn.error", logging.ERROR, "", 0, UVICORN_TEXT, (), None))
False
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

#: what uvicorn logs (``logger.exception``) for a text frame that is not UTF-8
UVICORN_TEXT = "Invalid UTF-8 sequence received from client."
#: seconds between two lines about invalid frames
INTERVAL = 60.0
LOGGER = "uvicorn.error"


class BadFrames(logging.Filter):
    """A logging filter: uvicorn's records of invalid UTF-8 frames as one warning line per
    ``interval`` seconds (with the count of those left out since), without traceback."""

    def __init__(self, interval: float = INTERVAL,
                 now: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.now = now
        self.last: float | None = None   # when the last line was let through
        self.left_out = 0                # records dropped since

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != UVICORN_TEXT:
            return True
        now = self.now()
        if self.last is not None and now - self.last < self.interval:
            self.left_out += 1
            return False
        more = f" ({self.left_out} more since the last line)" if self.left_out else ""
        self.last, self.left_out = now, 0
        record.msg = f"a WebSocket text frame was not UTF-8: its connection was closed (1007){more}"
        record.args = ()
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_bad_frames(logger: logging.Logger | None = None) -> BadFrames:
    """Install :class:`BadFrames` on uvicorn's error logger, once per process (the one
    already installed, if any)."""
    logger = logger or logging.getLogger(LOGGER)
    for f in logger.filters:
        if isinstance(f, BadFrames):
            return f
    f = BadFrames()
    logger.addFilter(f)
    return f


__all__ = ["BadFrames", "quiet_bad_frames", "UVICORN_TEXT", "INTERVAL"]
