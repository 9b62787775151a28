"""The WebSocket protocol of online games: reading a client's message, its limits, and the
server's messages (docs/server.md, "The WebSocket protocol").

Every client message is one JSON object in a text frame of at most :data:`MAX_MESSAGE`
bytes, with a ``type``: ``hello`` (the seat token, if any, and the last action number the
client has seen), ``act`` (an action and the number it should get) or ``ping``. A message
that breaks a rule is answered with one ``error`` message (:class:`ProtocolError`'s text
and code); the connection stays usable and the game unchanged.

>>> read_message('{"type": "act", "seq": 3, "action": {"type": "roll"}}')
{'type': 'act', 'seq': 3, 'action': {'type': 'roll'}}
>>> read_message('{"type": "act", "seq": "3"}')
Traceback (most recent call last):
...
tavli.errors.ProtocolError: act: seq must be a whole number (the action's number)
>>> b = Bucket(rate=1, burst=2, now=0.0)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

import json
import time
from typing import Any

from tavli.errors import ProtocolError

MAX_MESSAGE = 4096       # bytes of a client's message (the app refuses larger ones)
MAX_FRAME = 64 * 1024    # bytes of a frame the server reads at all (larger: connection closed)
RATE = 20.0              # messages a second a connection may send, on average ...
BURST = 40               # ... and at once
FLOOD_CLOSE = 200        # messages refused for the rate in a row: the connection is closed
HELLO_TIMEOUT = 15.0     # seconds a new connection has to say hello
PER_ADDRESS = 32         # connections from one address to one process
PER_GAME = 256           # connections to one game on one process
RESYNC_MAX = 200         # actions sent to a client that resyncs (further behind: the state)
TYPES = {"hello": {"token", "seq"}, "act": {"seq", "action"}, "ping": {"data"}}




def read_message(text: str | bytes | None) -> dict[str, Any]:
    """A client's message checked for its size, JSON and form (:class:`ProtocolError`)."""
    if text is None or isinstance(text, bytes):
        raise ProtocolError("messages are JSON text frames, not binary ones", "invalid")
    if len(text) > MAX_MESSAGE or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise ProtocolError(f"the message is larger than {MAX_MESSAGE:,} bytes", "too_large")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:  # also huge numbers, deep nesting
        raise ProtocolError(f"malformed JSON: {e}", "malformed_json") from None
    check_text(data)
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object with a type", "invalid")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        raise ProtocolError(f"type must be one of {', '.join(TYPES)}, not "
                            f"{json.dumps(kind)[:40]}", "invalid")
    extra = set(data) - {"type"} - TYPES[kind]
    if extra:
        raise ProtocolError(f"{kind}: unknown field {', '.join(sorted(extra))[:60]}",
                            "invalid")
    seq = data.get("seq")
    if kind == "act" or seq is not None:
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < 2 ** 53:
            raise ProtocolError(f"{kind}: seq must be a whole number (the action's number)"
                                if kind == "act" else
                                f"{kind}: seq must be a whole number (the last action seen)",
                                "invalid")
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > 200):
            raise ProtocolError("hello: token must be a seat token (text)", "invalid")
    if kind == "act" and not isinstance(data.get("action"), dict):
        raise ProtocolError("act: action must be a JSON object with a type", "invalid")
    return data


def check_text(data: Any) -> None:
    """Refuse a message whose strings (a value or a field's name) hold a lone surrogate
    (JSON's ``"\\ud800"``): no UTF-8 encodes one, so neither the log nor an answer
    echoing it could hold it. A message is at most :data:`MAX_MESSAGE` bytes: encoding it
    again costs microseconds."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("the message holds a lone surrogate (\\ud800-\\udfff), "
                            "which is not text", "invalid") from None


class Bucket:
    """A token bucket: :meth:`take` is True for at most ``burst`` messages at once and
    ``rate`` a second on average."""

    def __init__(self, rate: float = RATE, burst: int = BURST,
                 now: float | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def error(message: str, code: str, seq: int | None = None) -> dict[str, Any]:
    """The server's error message (``seq``: the action it refuses)."""
    out: dict[str, Any] = {"type": "error", "error": message, "code": code}
    if seq is not None:
        out["seq"] = seq
    return out


def action_out(a: Any) -> dict[str, Any]:
    """An accepted action as clients see it."""
    return {"seq": a.seq, "side": a.side, "action": a.action, "result": a.result, "at": a.at}


__all__ = ["read_message", "ProtocolError", "Bucket", "error", "action_out", "MAX_MESSAGE",
           "MAX_FRAME", "PER_ADDRESS", "PER_GAME", "RATE", "BURST", "FLOOD_CLOSE",
           "HELLO_TIMEOUT", "RESYNC_MAX"]
