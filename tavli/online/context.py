"""What the online server's routes share (:class:`OnlineContext`), built once by
:func:`tavli.online.app.create_online_app` and handed to each domain's ``mount_*``:
:mod:`tavli.online.routes` (HTTP: the games, the lobby, the pages) and
:mod:`tavli.online.ws` (the WebSocket).

>>> check_game_id("abc_-9")
'abc_-9'
>>> check_game_id("../x")
Traceback (most recent call last):
...
tavli.errors.ApiError: no online game with this id
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tavli.online import protocol
from tavli.online.accounts import Accounts
from tavli.online.aiseat import AiSeat
from tavli.online.hub import Hub
from tavli.online.service import OnlineGames
from tavli.store.online import OnlineStore
from tavli.web.errors import ApiError

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def check_game_id(game_id: str) -> str:
    """``game_id`` if it can name an online game, else the 404 of a game that is not."""
    if not GAME_ID.match(game_id):
        raise ApiError(404, "no online game with this id", "not_found", key="err.no_game")
    return game_id


@dataclass(frozen=True, eq=False)
class OnlineContext:
    """The online server's parts and limits: the ``store``, the service ``games`` over
    it, the ``hub`` of this process's connections, the ``ai`` seats' driver, the players'
    ``accounts``; a
    connection's messages a second (``rate``) and at once (``burst``), the connections
    one address (``per_address``) and one game (``per_game``) may have open."""

    store: OnlineStore
    games: OnlineGames
    hub: Hub
    ai: AiSeat
    accounts: Accounts
    rate: float = protocol.RATE
    burst: int = protocol.BURST
    per_address: int = protocol.PER_ADDRESS
    per_game: int = protocol.PER_GAME


__all__ = ["OnlineContext", "GAME_ID", "check_game_id"]
