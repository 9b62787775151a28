"""What the screen, the commands and the turns of a dice game read of the session they
serve.

:class:`tavli.tui.dice.DiceSession` is the one implementation; the parts it is made of
name this protocol instead of importing it, so the session imports its parts and none of
them imports the session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # annotations only: the terminal's start stays cheap
    from pathlib import Path

    from tavli.engine.board import Move
    from tavli.play.game import Game
    from tavli.play.match import Match
    from tavli.play.players import Player


class SessionState(Protocol):
    """The game or match played in the terminal, its players and its file."""

    players: list[Player | None]
    save_path: Path | None
    last_move: Move | None

    @property
    def match(self) -> Match | None: ...
    @property
    def game(self) -> Game: ...
    def humans(self) -> list[int]: ...
    def viewer(self) -> int: ...
    def player_label(self, side: int, long: bool = False) -> str: ...
    def save_command(self, args: list[str]) -> None: ...
    def autosave(self) -> None: ...
