"""The players' chat of the online games, in the online store's database (schema: migration
4 of :data:`tavli.store.migrations.MIGRATIONS`): each message with its game, the side of
the seat that wrote it and when; a seat's own chat switch and its mute of the opponent are
the seat's (``chat``, ``muted``: :meth:`tavli.store.online.OnlineStore.update_seat`).

>>> from tavli.store.base import Seat, new_game_row
>>> from tavli.store.factory import open_store
>>> store = open_store(":memory:")
>>> store.create(new_game_row("g1", "game", "portes", {}, "0" * 64, "1" * 64),
...              [Seat("g1", "white", "human"), Seat("g1", "black", "human")])
>>> chat = ChatStore(store.backend)
>>> chat.say("g1", "white", "hello", 5.0, most=100).text
'hello'
>>> [m.text for m in chat.messages("g1")], [m.game_id for m in chat.since(0)]
(['hello'], ['g1'])
>>> store.close()
"""

from __future__ import annotations

from dataclasses import dataclass

from tavli.errors import ApiError
from tavli.store import sql as S
from tavli.store.base import Backend


@dataclass(frozen=True)
class Message:
    """One chat message: number ``id`` (growing over all games), by ``side``."""

    id: int
    game_id: str
    side: str
    text: str
    at: float


class ChatStore:
    """The chat messages over the online store's ``backend``."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    def say(self, game_id: str, side: str, text: str, at: float, *, most: int) -> Message:
        """Store a message of ``side`` in ``game_id``, unless the game has ``most``
        already (:class:`WrongState`; counted in the same transaction)."""
        with self.backend.transaction() as tx:
            if tx.rows(S.CHAT_COUNT, (game_id,))[0][0] >= most:
                raise ApiError(409, f"this game's chat is full ({most} messages)", "wrong_state",
                               key="err.chat_full", params={"n": most})
            return Message(*tx.rows(S.INSERT_CHAT, (game_id, side, text, at))[0])

    def messages(self, game_id: str, after: int = 0, limit: int = 200) -> list[Message]:
        """The messages of ``game_id`` numbered after ``after``, the oldest first."""
        return [Message(*r) for r in self.backend.rows(S.CHAT_OF_GAME,
                                                       (game_id, after, limit))]

    def since(self, after: int, limit: int = 1000) -> list[Message]:
        """The messages of every game numbered after ``after`` (another process's too)."""
        return [Message(*r) for r in self.backend.rows(S.CHAT_SINCE, (after, limit))]

    def end(self) -> int:
        """The number of the last message of any game (0: none)."""
        return self.backend.rows(S.CHAT_END)[0][0]


__all__ = ["ChatStore", "Message"]
