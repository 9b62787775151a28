"""The WebSocket protocol as a JSON Schema (docs/server.md, "The WebSocket protocol"):
what a client sends — :mod:`tavli.online.protocol`'s models, which read every message,
and the service's action model, which reads every action — and what the server sends,
the models here, whose game state is the HTTP API's (:class:`OnlineState`).

:func:`websocket_schema` makes the document; docs/server.md holds it (its last section,
between :data:`BEGIN` and :data:`END`), and a test keeps the two the same: after a
change, ``python -m tavli.online.messages docs/server.md`` writes it there.

>>> doc = websocket_schema()
>>> sorted(doc["$defs"]["ClientMessage"]["discriminator"]["mapping"])
['act', 'hello', 'ping']
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import Field
from pydantic.json_schema import models_json_schema

from tavli.online.answers import ChatMessage, OnlineState, Seek
from tavli.online.protocol import Act, Hello, Ping
from tavli.web.answers import Side
from tavli.web.openapi import CODES, Answer

#: the codes of the WebSocket's errors: the HTTP API's (the service answers alike) and
#: the connection's own
WS_CODES = tuple(dict.fromkeys(CODES + ("hello_first", "timeout", "too_many_connections",
                                         "internal")))
REF = "#/$defs/{model}"


class ActionDone(Answer):
    """An accepted action as the log holds it."""

    seq: int
    side: Side | None = Field(description="null: the server's own (a timeout)")
    action: dict[str, Any]
    result: dict[str, Any] = Field(description="what it did: the dice thrown, the move "
                                               "played in canonical text, …")
    at: float = Field(description="when it was committed (server time, seconds)")


class Welcome(Answer):
    """The answer to a hello: the seat, the state and the actions missed."""

    type: Literal["welcome"]
    side: Side | None
    state: OnlineState
    actions: list[ActionDone]


class Ack(Answer):
    """The action of this number is committed."""

    type: Literal["ack"]
    seq: int


class Update(Answer):
    """Actions this connection has not been sent yet, in order, and the state after."""

    type: Literal["update"]
    actions: list[ActionDone]
    state: OnlineState


class Presence(Answer):
    type: Literal["presence"]
    seats: dict[Side, bool] = Field(description="each seat connected")
    spectators: int
    absent: dict[Side, float | None] = Field(description="seconds away, as state.absent")


class Error(Answer):
    """A message refused (``seq``: the action refused); nothing changed."""

    type: Literal["error"]
    error: str
    code: Literal[WS_CODES]  # type: ignore[valid-type]
    seq: int = Field(None, description="the refused action's number")


class Pong(Answer):
    type: Literal["pong"]
    data: Any = Field(description="the ping's")


class Chat(Answer):
    """Chat messages this connection may read (docs/server.md, "Chat")."""

    type: Literal["chat"]
    messages: list[ChatMessage]


class LobbyNews(Answer):
    """``/ws/lobby``: the seeks, at once and whenever they change."""

    type: Literal["lobby"]
    games: list[Seek]


#: what the server sends on a game's WebSocket, and on the lobby's
SERVER = (Welcome, Ack, Update, Presence, Error, Pong, Chat)
LOBBY = (LobbyNews, Error)


def websocket_schema() -> dict[str, Any]:
    """The protocol's JSON Schema (2020-12): ``$defs`` of every message and the service's
    action, and the unions ``ClientMessage``, ``ServerMessage`` (``/ws/online/{id}``) and
    ``LobbyMessage`` (``/ws/lobby``), each told apart by its ``type``."""
    from tavli.online.service import action_model

    models = [Hello, Act, Ping, action_model(), *SERVER, LobbyNews]
    _, top = models_json_schema([(m, "validation") for m in models], ref_template=REF)
    defs = top["$defs"]
    defs["Act"]["properties"]["action"] = {"$ref": REF.format(model="ActionBody")}
    defs["ClientMessage"] = union(Hello, Act, Ping)
    defs["ServerMessage"] = union(*SERVER)
    defs["LobbyMessage"] = union(*LOBBY)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "tavli serve: the WebSocket messages",
            "description": "JSON text frames of /ws/online/{id} (ClientMessage from the "
                           "client, ServerMessage from the server) and /ws/lobby "
                           "(LobbyMessage). docs/server.md, The WebSocket protocol.",
            "$defs": dict(sorted(defs.items()))}


def union(*models: Any) -> dict[str, Any]:
    """One of ``models``, told apart by their ``type`` (each has one constant)."""
    tags = {m.model_fields["type"].annotation.__args__[0]: m.__name__ for m in models}
    return {"oneOf": [{"$ref": REF.format(model=name)} for name in tags.values()],
            "discriminator": {"propertyName": "type",
                              "mapping": {t: REF.format(model=n) for t, n in tags.items()}}}


#: the lines around the schema in docs/server.md
BEGIN = "<!-- the WebSocket schema: python -m tavli.online.messages docs/server.md -->\n"
END = "<!-- the end of the WebSocket schema -->\n"


def schema_text() -> str:
    """The document as docs/server.md holds it: a JSON block, a message a line."""
    doc = websocket_schema()
    head = json.dumps({k: v for k, v in doc.items() if k != "$defs"}, ensure_ascii=False)
    defs = ",\n".join(f"  {json.dumps(name)}: {json.dumps(d, ensure_ascii=False)}"
                      for name, d in doc["$defs"].items())
    return f"```json\n{head[:-1]},\n \"$defs\": {{\n{defs}\n }}\n}}\n```\n"


def documented(doc: str) -> str:
    """The schema's block in the Markdown text ``doc`` (between :data:`BEGIN` and
    :data:`END`)."""
    return doc.split(BEGIN, 1)[1].split(END, 1)[0]


def write_into(path: str) -> None:
    """Put the schema, as it is now, into the Markdown file ``path``."""
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    head, rest = doc.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + schema_text() + END + tail)


#: every message the server may send on a game's WebSocket
ServerMessage = Annotated[Welcome | Ack | Update | Presence | Error | Pong | Chat,
                          Field(discriminator="type")]

if __name__ == "__main__":
    import sys

    write_into(sys.argv[1])

__all__ = ["websocket_schema", "schema_text", "documented", "write_into", "ServerMessage",
           "WS_CODES", "Welcome", "Ack", "Update", "Presence", "Error", "Pong", "Chat",
           "LobbyNews", "ActionDone"]
