"""The part of the browser app's API that differs between kinds of games: a
:class:`GameKind` per kind (the backgammon family's games and matches:
:class:`tavli.web.dicegames.DiceGames`; Dama: :class:`tavli.web.damagames.DamaGames`).

:class:`tavli.web.api.TavliApi` is the one API of every game (``/api/games``): it keeps
the sessions, checks who may act, saves and answers, and hands what is a game's own to
the kind of the session (``s.kind``, set once when the game is made or loaded). The
model is python-chess's one ``Board`` with its variant subclasses: the same calls, each
kind answering them its way. An action a kind does not have (a roll in Dama, a huff in
Portes) is answered by this base class: ``422`` ``unsupported`` (:meth:`GameKind.lacks`).

A kind's actions come in two shapes:

* the actions a player or the AI takes in turn (``move``, ``roll``, ``double``, ``take``,
  ``drop``, ``beaver``, ``huff``, ``resign``) return what they do to a session,
  ``do(session, side)``, which the
  API applies under the game's lock once it has checked that ``side`` may act;
* the others (``undo``, ``next_game``, the hints, the review, the export, ``continue``)
  take the session (under its lock where they change it) and do their own checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol

from tavli.web.errors import ApiError, Body
from tavli.web.newgame import NewGame

SideName = Literal["white", "black"]
#: what a turn's action does to a session, given the side acting
Do = Callable[[Any, str], None]


class MoveBody(Body):
    """A move: its text (``move``), or the backgammon family's ``steps`` (``[[24, 18],
    [13, 11]]``), or Dama's ``path`` (the squares visited); each kind reads its own."""

    side: SideName | None = None
    move: str | None = None
    steps: list[tuple[int | str, int | str]] | None = None
    path: list[int] | None = None


class ResignBody(Body):
    """A resignation: what it concedes (``single``, ``gammon`` or ``backgammon``, as the
    state's ``resign_values`` offers), by the side to act."""

    value: Literal["single", "gammon", "backgammon"] = "single"
    side: SideName | None = None


class HuffBody(Body):
    """A huff (Dama's box rules): the square of the piece taken off, by number or name."""

    square: int | str
    side: SideName | None = None


class GameSession(Protocol):
    """What the API reads of every session (each kind has its own class)."""

    id: str
    meta: dict[str, Any]       # "players": {side: {"type": "human"|"ai", "level": ...}}
    last: dict[str, Any] | None
    lock: Any                  # the game's own lock
    thinking: Any              # held while the AI thinks about this game
    version: int               # counts the saved actions: an AI answer is for one version
    kind: GameKind             # set once, when the session is made or loaded

    @property
    def imported(self) -> bool: ...      # a record for review only

    @property
    def finished(self) -> bool: ...      # the game (or match) is over

    @property
    def what(self) -> str: ...           # "game" or "match", for messages


class GameKind:
    """The kind of game a session is (subclasses override what their games have)."""

    #: the store's list of this kind's games (:data:`tavli.web.listing.TAVLI`, ``DAMA``)
    listed: str = ""
    #: how a refusal names a game of this kind ("a Dama game")
    display: str = "this game"
    #: the worker function that chooses the AI's action (:mod:`tavli.web.workers`)
    decide: Callable[[dict[str, Any]], dict[str, Any]]
    #: the AI's action when it needs no thinking, else None (the server plays it at once)
    quick: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None

    # --- making and storing -----------------------------------------------------------
    def makes(self, variant: str) -> bool:
        """Is a new game of ``variant`` (a request's ``variant``) of this kind?"""
        raise NotImplementedError

    def new_session(self, req: NewGame) -> GameSession:
        """The session of a new game as ``req`` asks (422 for what cannot be set up)."""
        raise NotImplementedError

    def rematch_request(self, s: GameSession) -> NewGame:
        """The request that made ``s`` (a rematch repeats it; ``s`` is over)."""
        raise NotImplementedError

    def load(self, game_id: str) -> GameSession | None:
        """The stored game ``game_id`` replayed into a session, or None if there is none."""
        raise NotImplementedError

    def stored(self, game_id: str) -> bool:
        """Is ``game_id`` in the store (still)?"""
        raise NotImplementedError

    def save(self, s: GameSession) -> None:
        """Store ``s`` as it stands (one transaction)."""
        raise NotImplementedError

    def remove(self, game_id: str) -> bool:
        """Delete the stored game; False if there was none."""
        raise NotImplementedError

    def state(self, s: GameSession) -> dict[str, Any]:
        """What the page is told about ``s`` (docs/web.md)."""
        raise NotImplementedError

    # --- who acts ---------------------------------------------------------------------
    def over(self, s: GameSession) -> ApiError | None:
        """The 409 that answers an action because the game is over, else None."""
        raise NotImplementedError

    def actor(self, s: GameSession) -> str:
        """The side to act now."""
        raise NotImplementedError

    def open_to_both(self, s: GameSession) -> bool:
        """May either player act now, whoever plays which side (the opening throw)?"""
        return False

    # --- the AI -----------------------------------------------------------------------
    def ai_job(self, s: GameSession, side: str) -> dict[str, Any]:
        """What the AI needs to decide for ``side`` (small, for a worker process)."""
        raise NotImplementedError

    def ai_apply(self, s: GameSession, side: str, decision: dict[str, Any]) -> None:
        """Play the AI's ``decision`` (:attr:`decide`'s answer) for ``side``."""
        raise NotImplementedError

    # --- the actions (those a kind lacks are refused) ---------------------------------
    def lacks(self, action: str) -> ApiError:
        """The answer to an action this kind of game does not have."""
        return ApiError(422, f"{self.display} has no {action}", "unsupported",
                        key="err.no_action", params={"action": action})

    def move(self, body: MoveBody) -> Do:
        raise self.lacks("move")

    def huff(self, body: HuffBody) -> Do:
        raise self.lacks("huff")

    def roll(self) -> Do:
        raise self.lacks("roll")

    def double(self) -> Do:
        raise self.lacks("double")

    def take(self) -> Do:
        raise self.lacks("take")

    def drop(self) -> Do:
        raise self.lacks("drop")

    def beaver(self) -> Do:
        raise self.lacks("beaver")

    def resign(self, body: ResignBody) -> Do:
        raise self.lacks("resign")

    def undo(self, s: GameSession) -> None:
        """Take back the last move (under ``s.lock``)."""
        raise self.lacks("undo")

    def next_game(self, s: GameSession) -> None:
        """Start the next game of a match (under ``s.lock``)."""
        raise self.lacks("next")

    def hint_job(self, s: GameSession, level: str | None
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The answer's head and what a worker needs to rank the moves."""
        raise self.lacks("hint")

    def cube_hint_job(self, s: GameSession, level: str | None) -> dict[str, Any]:
        """What a worker needs for the cube decision due."""
        raise self.lacks("cube-hint")

    def review_job(self, s: GameSession, ply: int | None) -> Any:
        """The review of the game, made in the background (:mod:`tavli.web.reviews`)."""
        raise self.lacks("review")

    def export(self, s: GameSession) -> dict[str, Any]:
        """The game's record (under ``s.lock``)."""
        raise self.lacks("record")

    def export_text(self, s: GameSession, fmt: str) -> str:
        """The game in another program's file format (under ``s.lock``)."""
        raise self.lacks("record")

    def continued(self, s: GameSession, req: Any) -> GameSession:
        """A new session going on from the end of the imported ``s`` (under its lock)."""
        raise self.lacks("continue")


__all__ = ["GameKind", "GameSession", "MoveBody", "HuffBody", "ResignBody", "Do"]
