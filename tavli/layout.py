"""The one board layout shared by every backgammon-family game (no NumPy/Numba here).

A position's checkers are a ``numpy.int8`` array of shape ``(4, 26)``:

* row ``side`` (0 or 1) counts that side's checkers, indexed in **that side's own
  numbering**: index ``OFF`` (0) is borne off, 1..24 are its points (it moves from 24
  toward 1), index ``BAR`` (25) is its bar;
* row ``2 + side`` holds Plakoto pin flags: ``1`` at point ``p`` when that side's single
  checker on its point ``p`` is pinned by the opponent (always 0 in other games).

Side 0 is called *white* (gnubg's X), side 1 *black* (gnubg's O). The array never changes
orientation with the turn; the side to move is a separate field of the position.
"""

from __future__ import annotations

OFF = 0
BAR = 25
NSLOTS = 26
NROWS = 4
CHECKERS = 15

PORTES = 0
PLAKOTO = 1
FEVGA = 2
BACKGAMMON = 3

GAME_NAMES = ("portes", "plakoto", "fevga", "backgammon")
GAME_ALIASES = {
    "portes": PORTES,
    "plakoto": PLAKOTO,
    "tapa": PLAKOTO,
    "fevga": FEVGA,
    "narde": FEVGA,
    "moultezim": FEVGA,
    "backgammon": BACKGAMMON,
    "bg": BACKGAMMON,
}
SIDE_NAMES = ("white", "black")


def game_code(name: str | int) -> int:
    """Return the game code for a game name or alias (case-insensitive).

    >>> game_code("Tapa") == PLAKOTO
    True
    """
    from .errors import ParseError

    if isinstance(name, int) and not isinstance(name, bool):
        if 0 <= name < len(GAME_NAMES):
            return name
        raise ParseError(f"unknown game code {name}")
    key = str(name).strip().lower()
    if key not in GAME_ALIASES:
        raise ParseError(
            f"unknown game {name!r}: expected one of {', '.join(GAME_NAMES)} "
            "(or the aliases tapa, narde, moultezim)"
        )
    return GAME_ALIASES[key]


def opponent_point(game: int, p: int) -> int:
    """The opponent's number for my point ``p`` (1..24); the mapping is its own inverse.

    >>> opponent_point(PORTES, 6), opponent_point(FEVGA, 24), opponent_point(FEVGA, 12)
    (19, 12, 24)
    """
    if game == FEVGA:
        return ((p + 11) % 24) + 1
    return 25 - p
