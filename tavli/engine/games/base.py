"""What every game and rule set is, and the one registry of them all.

A *variant* is a game as it is played by one set of rules: the four games with dice
(:class:`tavli.engine.games.Variant`: Portes, Plakoto, Fevga, backgammon) and Dama's three
rule sets (:class:`tavli.engine.games.dama.DamaVariant`: the box rules, Russian, Italian).
They share what a menu, the command line, a record or the web API asks of any game — its
name and other names, how players call it, which *game* of the box it belongs to, its
rule options with their defaults — and each kind adds the facts its own engine reads.

The registry resolves a name once (:func:`find_game`); everything below the boundary
holds the variant itself. No NumPy here: the command line's help reads the registry.

>>> [v.name for v in all_variants()]
['portes', 'plakoto', 'fevga', 'backgammon', 'box', 'russian', 'italian']
>>> games()["dama"]
(<Variant box>, <Variant russian>, <Variant italian>)
>>> find_game("shashki").game, find_game("Tapa").name
('dama', 'plakoto')
"""

from __future__ import annotations

from typing import Any, ClassVar

from tavli.engine.options import Option, declare, withdraw

# The compiled rule sets of checker play (what ``Rules.kernel_flags()[0]`` says to
# compiled code): a variant with dice names the one it follows.
HITTING = 0   # blots are hit and re-enter from the bar (Portes, backgammon)
PINNING = 1   # a lone checker is pinned; the mother checker (Plakoto)
RUNNING = 2   # both sides run the same way, one checker holds a point (Fevga)
KERNEL_NAMES = ("hitting", "pinning", "running")


class BaseVariant:
    """A registered game or rule set: class attributes say what it is. One instance of
    each is registered (:func:`register_variant`)."""

    #: the name everything uses (records, the command line, the web API)
    name: ClassVar[str]
    #: how players call it
    display: ClassVar[str]
    #: other names that find it (``tapa`` for Plakoto, ``shashki`` for Russian draughts)
    aliases: ClassVar[tuple[str, ...]] = ()
    #: the game of the box it is a rule set of (its own name for the games with dice;
    #: ``dama`` for Dama's rule sets)
    game: ClassVar[str]
    #: played with dice on the 24 points (the backgammon family), else on a draughts board
    dice: ClassVar[bool] = False
    #: its rule options and their defaults (:mod:`tavli.engine.options` says what each is)
    options: ClassVar[dict[str, Any]] = {}
    #: rule options of its own, beyond the shared ones of :mod:`tavli.engine.options`
    #: (registered with the variant; list them in ``options`` too, with their defaults)
    declares: ClassVar[tuple[Option, ...]] = ()
    #: one line for menus and ``--help``
    summary: ClassVar[str] = ""
    #: what a player should know when looking at the board (shown beside it), if anything
    note: ClassVar[str] = ""

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"

    def __reduce__(self) -> tuple[Any, ...]:  # pickles by name: one instance per variant
        return (find_game, (self.name,))


# --- the registry ----------------------------------------------------------------------------

_BY_NAME: dict[str, BaseVariant] = {}
_BY_CODE: dict[int, Any] = {}
#: every registered variant, in registration order
ALL: list[BaseVariant] = []
#: the games with dice (:class:`tavli.engine.games.Variant`), in registration order
VARIANTS: list[Any] = []


def register_variant(variant: BaseVariant) -> BaseVariant:
    """Add ``variant`` to the registry (its names, and a game with dice's code, must be
    new)."""
    keys = [variant.name, *variant.aliases]
    taken = [k for k in keys if k.lower() in _BY_NAME]
    if variant.dice:
        code = variant.code  # type: ignore[attr-defined]
        if code in _BY_CODE or not 0 <= code < 128:
            taken.append(str(code))
        if variant.kernel not in (HITTING, PINNING, RUNNING):  # type: ignore[attr-defined]
            raise ValueError(f"{variant.name}: unknown kernel "
                             f"{variant.kernel}")  # type: ignore[attr-defined]
    if taken:
        raise ValueError(f"cannot register {variant.name}: name or code taken or out of "
                         f"range ({', '.join(taken)})")
    declare(variant.declares, variant.name)
    ALL.append(variant)
    if variant.dice:
        VARIANTS.append(variant)
        _BY_CODE[variant.code] = variant  # type: ignore[attr-defined]
    for k in keys:
        _BY_NAME[k.lower()] = variant
    return variant


def unregister_variant(name: str) -> None:
    """Remove a variant added by :func:`register_variant` (tests of toy variants)."""
    v = find_game(name)
    ALL.remove(v)
    if v.dice:
        VARIANTS.remove(v)
        del _BY_CODE[v.code]  # type: ignore[attr-defined]
    withdraw(v.declares)
    for k in [v.name, *v.aliases]:
        _BY_NAME.pop(k.lower(), None)


def lookup(name: str | int) -> BaseVariant | None:
    """The variant called ``name`` (any case, an alias too) or, for an int, the game with
    dice of that code; None when there is none."""
    if isinstance(name, int) and not isinstance(name, bool):
        return _BY_CODE.get(name)
    return _BY_NAME.get(str(name).strip().lower())


def find_game(name: str | BaseVariant) -> BaseVariant:
    """The game or rule set called ``name`` (or an alias, any case): any registered
    variant, with dice or not. What the interfaces call to resolve a name once.

    >>> find_game("Shashki").name
    'russian'
    >>> find_game("chess")
    Traceback (most recent call last):
    ...
    tavli.errors.ParseError: unknown game 'chess': expected one of portes, plakoto, fevga, \
backgammon, box, russian, italian (or the aliases tapa, narde, moultezim, bg, dama, \
shashki, ru, damaitaliana, fid, it)
    """
    if isinstance(name, BaseVariant):
        return name
    v = lookup(str(name))
    if v is None:
        from tavli.errors import ParseError

        raise ParseError(unknown(name, ALL))
    return v


def unknown(name: object, among: list[Any]) -> str:
    """The message for a name that finds no variant ``among`` those listed."""
    aliases = [a for x in among for a in x.aliases]
    return (f"unknown game {str(name)[:40]!r}: expected one of "
            f"{', '.join(v.name for v in among)} (or the aliases {', '.join(aliases)})")


def option_games(name: str) -> tuple[str, ...]:
    """The registered games and rule sets that have the rule option ``name``."""
    return tuple(v.name for v in ALL if name in v.options)


def all_variants() -> list[BaseVariant]:
    """Every registered game and rule set, in registration order."""
    return list(ALL)


def menu_name(variant: BaseVariant) -> str:
    """What a menu or the command line calls ``variant``: its game's name for the game's
    default rule set (``dama`` for the box rules), else its own.

    >>> [menu_name(v) for v in games()["dama"]]
    ['dama', 'russian', 'italian']
    """
    return variant.game if games()[variant.game][0] is variant else variant.name


def games() -> dict[str, tuple[BaseVariant, ...]]:
    """The games of the box, each with its rule sets (the first its default):
    ``{"portes": (portes,), ..., "dama": (box, russian, italian)}``."""
    out: dict[str, tuple[BaseVariant, ...]] = {}
    for v in ALL:
        out[v.game] = (*out.get(v.game, ()), v)
    return out
