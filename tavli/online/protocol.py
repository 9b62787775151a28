"""The WebSocket protocol of online games: reading a client's message, its limits, and the
server's messages (docs/server.md, "The WebSocket protocol").

Every client message is one JSON object in a text frame of at most :data:`MAX_MESSAGE`
bytes, with a ``type``: ``hello`` (the seat token, if any, and the last action number the
client has seen), ``act`` (an action and the number it should get) or ``ping`` — the
models :class:`Hello`, :class:`Act`, :class:`Ping`, which read every message (strict JSON
types, no unknown field) and which the protocol's schema is generated from
(:mod:`tavli.online.messages`). A message that breaks a rule is answered with one
``error`` message (:class:`ProtocolError`'s text and code); the connection stays usable
and the game unchanged.

>>> read_message('{"type": "act", "seq": 3, "action": {"type": "roll"}}')
{'type': 'act', 'seq': 3, 'action': {'type': 'roll'}}
>>> read_message('{"type": "act", "seq": "3", "action": {}}')
Traceback (most recent call last):
...
tavli.errors.ProtocolError: act.seq: Input should be a valid integer
>>> b = Bucket(rate=1, burst=2, now=0.0)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from tavli.errors import ProtocolError, one_line
from tavli.play.text import utf8_encodable

MAX_MESSAGE = 4096       # bytes of a client's message (the app refuses larger ones)
MAX_FRAME = 64 * 1024    # bytes of a frame the server reads at all (larger: connection closed)
RATE = 20.0              # messages a second a connection may send, on average ...
BURST = 40               # ... and at once
FLOOD_CLOSE = 200        # messages refused for the rate in a row: the connection is closed
HELLO_TIMEOUT = 15.0     # seconds a new connection has to say hello
PER_ADDRESS = 32         # connections from one address to one process
PER_GAME = 256           # connections to one game on one process
RESYNC_MAX = 200         # actions sent to a client that resyncs (further behind: the state)
#: an action's number: a whole number JavaScript holds exactly
SEQ_MAX = 2 ** 53


class ClientMessage(BaseModel):
    """A client's message: JSON's own types (``"3"`` is not 3), no unknown field."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(ClientMessage):
    """The connection's seat and where the client is: the first message (docs/server.md,
    "Hello")."""

    type: Literal["hello"]
    token: str | None = Field(None, max_length=200,
                              description="the seat's token; none: a spectator")
    seq: int | None = Field(None, ge=0, lt=SEQ_MAX,
                            description="the last action seen; none: the state only")


class Act(ClientMessage):
    """An action of the connection's seat, and the number it should get
    (``state.seq + 1``)."""

    type: Literal["act"]
    seq: int = Field(ge=0, lt=SEQ_MAX)
    action: dict[str, Any] = Field(description="the service's action (its own model: "
                                               "tavli.online.service.action_model)")


class Ping(ClientMessage):
    """Answered ``pong`` with the same ``data``."""

    type: Literal["ping"]
    data: Any = None


#: every message a client may send, told apart by its type
Message = Annotated[Hello | Act | Ping, Field(discriminator="type")]
MESSAGE = TypeAdapter(Message)


def read_message(text: str | bytes | None) -> dict[str, Any]:
    """A client's message checked for its size, JSON and form (:class:`ProtocolError`),
    as the fields it gave."""
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
    try:
        return MESSAGE.validate_python(data).model_dump(exclude_unset=True)
    except ValidationError as e:
        raise ProtocolError(one_line(message_errors(e), 160), "invalid") from None


def message_errors(e: ValidationError) -> str:
    """What is wrong with a message, one line: each bad field (``act.seq``) and why."""
    parts = []
    for err in e.errors(include_url=False):
        where = ".".join(str(x) for x in err.get("loc", ()))
        why = "unknown field" if err.get("type") == "extra_forbidden" else err.get("msg")
        parts.append(f"{where}: {why}" if where else str(why))
    return "; ".join(parts)


def check_text(data: Any) -> None:
    """Refuse a message whose strings (a value or a field's name) hold a lone surrogate
    (JSON's ``"\\ud800"``): no UTF-8 encodes one, so neither the log nor an answer
    echoing it could hold it. A message is at most :data:`MAX_MESSAGE` bytes: encoding it
    again costs microseconds."""
    if not utf8_encodable(data):
        raise ProtocolError("the message holds a lone surrogate (\\ud800-\\udfff), "
                            "which is not text", "invalid")


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
           "Hello", "Act", "Ping", "Message", "MESSAGE",
           "MAX_FRAME", "PER_ADDRESS", "PER_GAME", "RATE", "BURST", "FLOOD_CLOSE",
           "HELLO_TIMEOUT", "RESYNC_MAX"]
