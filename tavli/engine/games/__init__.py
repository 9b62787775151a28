"""The games: one :class:`Variant` per game with dice, and Dama's rule sets
(:mod:`.dama`), in one registry (:mod:`.base`: :func:`find_game` finds any of them,
:func:`find_variant` a game with dice).

Every fact about a game lives in its variant: its names, its code in position IDs, the
compiled rule set (*kernel*) its checker play uses, its network family, its start
position, how the two sides' points face each other, what the board holds (a bar, pins),
its part of position validation and its rule options with their defaults. Code outside
this package asks the variant (``pos.variant.pins``, ``find_variant(name).display``)
instead of comparing game codes. The compiled rule predicates (``@njit``) live in one
module per rule set next to the prose rules they implement (:mod:`.portes`,
:mod:`.plakoto`, :mod:`.fevga`), the one end-of-game verdict in :mod:`.kernel`.

This module imports no NumPy or Numba: the command line reads the list of games from it
without loading the engine. (Model: python-chess's ``chess.variant`` registry of classes
with attributes and hooks, and OpenSpiel's registration of games with a declared
parameter specification.)

>>> [v.name for v in VARIANTS]
['portes', 'plakoto', 'fevga', 'backgammon']
>>> find_variant("Tapa").name, find_variant("narde").display
('plakoto', 'Fevga')
>>> find_variant("backgammon").kernel == find_variant("portes").kernel
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from tavli.engine.games.base import (
    ALL,
    HITTING,
    KERNEL_NAMES,
    PINNING,
    RUNNING,
    VARIANTS,
    BaseVariant,
    all_variants,
    find_game,
    games,
    lookup,
    menu_name,
    register_variant,
    unknown,
    unregister_variant,
)
from tavli.engine.games.dama import DAMA_VARIANTS

if TYPE_CHECKING:
    from numpy import ndarray

else:
    ndarray = Any  # NumPy is not loaded here: at run time the hints read Any


class Variant(BaseVariant):
    """A game of the backgammon family: class attributes say what it is, the methods do
    what differs. One instance per game is registered (:func:`register_variant`)."""

    dice = True
    #: its number in the tavli position ID (0..127) and in ``Position.game``
    code: ClassVar[int]
    #: the compiled rule set of its checker play: HITTING, PINNING or RUNNING
    kernel: ClassVar[int]
    #: the network family (the name of the shipped net, ``tavli/data/<family>.npz``)
    family: ClassVar[str]
    #: does a hit checker go to a bar (and re-enter from it)?
    has_bar: ClassVar[bool] = True
    #: are blots hit?
    hits: ClassVar[bool] = True
    #: are lone checkers pinned (rows 2-3 of the board array)?
    pins: ClassVar[bool] = False
    #: must the first checker pass the opponent's start before another leaves (Fevga)?
    first_checker: ClassVar[bool] = False
    #: is a doubling cube offered (rule option ``cube``)?
    cube: ClassVar[bool] = False
    #: do its rules know a drawn game (Plakoto's two pinned mothers)? Then players may
    #: also agree on a draw (online: ``offer_draw``), which scores nothing
    draws: ClassVar[bool] = False
    #: does gnubg's Position ID describe its positions (backgammon's board)?
    gnubg_ids: ClassVar[bool] = False
    #: the mark of a hit (``*``) or a pin (``^``) in move notation
    hit_mark: ClassVar[str] = "*"
    #: the game whose default rules train this game's network (itself when empty)
    training_game: ClassVar[str] = ""

    #: the start: each side's checkers per point, in its own numbering (the same for both)
    start: ClassVar[dict[int, int]] = {}

    # --- hooks ----------------------------------------------------------------------------
    def start_array(self, options: Mapping[str, Any] | None = None) -> ndarray:
        """The start position as a board array (``int8[4, 26]``, :mod:`tavli.engine.layout`):
        :attr:`start` for both sides. ``options``: the game's rule options by name, for a
        variant whose start depends on one (None: its defaults)."""
        import numpy as np

        a = np.zeros((4, 26), dtype=np.int8)
        for side in (0, 1):
            for p, n in self.start.items():
                a[side, p] = n
        return a

    def opponent_point(self, p: int) -> int:
        """The opponent's number for my point ``p`` (1..24); its own inverse."""
        return 25 - p

    def validate(self, arr: ndarray) -> str | None:
        """What makes a board array impossible in this game beyond the common checks
        (15 checkers a side, counts not negative, one side per point), or None."""
        from tavli.engine.layout import BAR

        name = self.display
        for side in (0, 1):
            if not self.has_bar and arr[side, BAR]:
                return f"{name} has no bar"
            if not self.pins and arr[2 + side].any():
                return f"{name} has no pinned checkers"
        return None

    def shares_point(self, arr: ndarray, p: int) -> str | None:
        """What is wrong with white's point ``p`` holding checkers of both sides (``q``
        is black's number for it), or None when this game allows it there."""
        q = self.opponent_point(p)
        return f"white's point {p} (black's {q}) holds checkers of both sides"

    def first_checker_locked(self, arr: ndarray, side: int) -> bool:
        """Does a first-checker rule still keep ``side``'s other checkers at the start?"""
        return False

    def first_checker_passed(self, arr: ndarray, side: int) -> bool:
        """Has ``side``'s first checker passed, so that the rule restricts nothing more?"""
        return False

    def mother_pinned(self, arr: ndarray, side: int) -> bool:
        """Is ``side``'s mother checker pinned (the game ends at the turn's end)?"""
        return False

    @property
    def game(self) -> str:  # type: ignore[override]
        """A game with dice is a game of its own (not a rule set of another)."""
        return self.name


class Portes(Variant):
    """Portes: hitting, a bar, single and gammon (backgammons by option)."""

    name = "portes"
    display = "Portes"
    code = 0
    kernel = HITTING
    family = "portes"
    start = {24: 2, 13: 5, 8: 3, 6: 5}
    options = {"must_play_higher": False, "opening_reroll": True, "backgammons": False}
    gnubg_ids = True  # the same board as backgammon
    training_game = "backgammon"  # its network learns backgammon (gammons, higher die)
    summary = "hitting and the bar, as in backgammon (no cube)"


class Backgammon(Portes):
    """International backgammon: Portes' checker play with the cube and its options."""

    name = "backgammon"
    display = "Backgammon"
    aliases = ("bg",)
    code = 3
    cube = True
    options = {"must_play_higher": True, "opening_reroll": False, "backgammons": True,
               "cube": True, "crawford": True, "jacoby": False, "beavers": False}
    summary = "international backgammon with the doubling cube"


class Plakoto(Variant):
    """Plakoto (Tapa): pins instead of hits, no bar, the mother checker."""

    name = "plakoto"
    display = "Plakoto"
    aliases = ("tapa",)
    code = 1
    kernel = PINNING
    family = "plakoto"
    start = {24: 15}
    has_bar = False
    hits = False
    pins = True
    draws = True
    hit_mark = "^"
    options = {"must_play_higher": False, "opening_reroll": True}
    summary = "pinning instead of hitting; the mother checker"

    def shares_point(self, arr: ndarray, p: int) -> str | None:
        q = self.opponent_point(p)
        pin0, pin1 = int(arr[2, p]), int(arr[3, q])
        if pin0 and pin1:
            return f"white's point {p}: both sides cannot be pinned there"
        if not (pin0 or pin1):
            return f"white's point {p} holds checkers of both sides but none is pinned"
        return None

    def validate(self, arr: ndarray) -> str | None:
        problem = super().validate(arr)
        if problem:
            return problem
        for p in range(1, 25):
            q = self.opponent_point(p)
            mine, theirs = int(arr[0, p]), int(arr[1, q])
            for pin, count, other, who in ((arr[2, p], mine, theirs, "white"),
                                           (arr[3, q], theirs, mine, "black")):
                if pin and (count != 1 or other == 0):
                    return (f"a pinned {who} checker stands alone under at least one "
                            f"opposing checker (white's point {p})")
        return None

    def mother_pinned(self, arr: ndarray, side: int) -> bool:
        return bool(arr[side, 24] == 1 and arr[2 + side, 24] == 1)


class Fevga(Variant):
    """Fevga (Narde, Moultezim): both sides run the same way; no hits, no pins."""

    name = "fevga"
    display = "Fevga"
    aliases = ("narde", "moultezim")
    code = 2
    kernel = RUNNING
    family = "fevga"
    start = {24: 15}  # each in its own corner: diagonally opposite
    has_bar = False
    hits = False
    first_checker = True
    options = {"must_play_higher": True, "opening_reroll": True,
               "starting_quarter_rule": "own", "prime_rule": "must_open"}
    summary = "both sides run the same way round; one checker holds a point"
    note = "both sides run the same way"

    def opponent_point(self, p: int) -> int:
        return ((p + 11) % 24) + 1

    def first_checker_locked(self, arr: ndarray, side: int) -> bool:
        a = arr[side]
        return bool(a[24] == 14 and a[12:24].sum() > 0)

    def first_checker_passed(self, arr: ndarray, side: int) -> bool:
        return bool(arr[side, 24] < 15 and not self.first_checker_locked(arr, side))

    def validate(self, arr: ndarray) -> str | None:
        problem = super().validate(arr)
        if problem:
            return problem
        for side, who in ((0, "white"), (1, "black")):
            a = arr[side]
            # Until the first checker has passed the opponent's start (reached the
            # 11-point or lower, or borne off) no other checker may leave the 24-point.
            if a[24] <= 13 and not (a[0] or a[1:12].any()):
                return (f"{who} has moved {15 - int(a[24])} checkers from the 24-point "
                        "but none has passed the opponent's start (the 12-point): the "
                        "first-checker rule allows a second checker to leave only after "
                        "that")
        return None


# --- the registry (:mod:`tavli.engine.games.base`) -------------------------------------------


def find_variant(name: str | int | Variant) -> Variant:
    """The game with dice called ``name`` (or an alias, any case), or with that code.

    >>> find_variant(2).name
    'fevga'
    >>> find_variant("chess")
    Traceback (most recent call last):
    ...
    tavli.errors.ParseError: unknown game 'chess': expected one of portes, plakoto, fevga, \
backgammon (or the aliases tapa, narde, moultezim, bg)
    >>> find_variant("shashki")
    Traceback (most recent call last):
    ...
    tavli.errors.ParseError: russian is a rule set of dama, not a game with dice
    """
    if isinstance(name, Variant):
        return name
    v = lookup(name)
    if v is not None and v.dice:
        return v  # type: ignore[return-value]
    from tavli.errors import ParseError

    if isinstance(name, int) and not isinstance(name, bool):
        raise ParseError(f"unknown game code {name}")
    if v is not None:
        raise ParseError(f"{v.name} is a rule set of {v.game}, not a game with dice")
    raise ParseError(unknown(name, VARIANTS))


def game_names() -> list[str]:
    """The names of the registered games with dice, in registration order."""
    return [v.name for v in VARIANTS]


# Matches that rotate through several games: a Tavli match plays Portes, Plakoto and
# Fevga in turn.
ROTATIONS: dict[str, tuple[str, ...]] = {"tavli": ("portes", "plakoto", "fevga")}


def rotation(name: str) -> tuple[str, ...]:
    """The games a match of ``name`` plays in turn: a rotation (``tavli``) or one game.

    >>> rotation("tavli"), rotation("Tapa")
    (('portes', 'plakoto', 'fevga'), ('plakoto',))
    """
    key = str(name).strip().lower()
    if key in ROTATIONS:
        return ROTATIONS[key]
    return (find_variant(key).name,)


def match_kinds() -> list[str]:
    """What a match can be: every game, then every rotation (the menus' list)."""
    return game_names() + list(ROTATIONS)


for _v in (Portes(), Plakoto(), Fevga(), Backgammon(), *DAMA_VARIANTS):
    register_variant(_v)

__all__ = ["BaseVariant", "Variant", "VARIANTS", "ALL", "find_variant", "find_game", "lookup",
           "all_variants", "games", "register_variant", "unregister_variant", "game_names",
           "rotation", "match_kinds", "ROTATIONS", "HITTING", "PINNING", "RUNNING",
           "KERNEL_NAMES", "unknown", "menu_name"]
