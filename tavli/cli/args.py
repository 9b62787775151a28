"""What the command groups' parsers share: the parser class, which reports a bad command
line in one line; the argument types (argparse ``type=`` callables); and the options
several commands declare alike (``--lang``, ``--rule``, a ``GAME`` argument).

The bottom of :mod:`tavli.cli`: it imports nothing of the package.

>>> seed_arg("42")
42
>>> seed_arg("-1")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: a whole number from 0 to 4294967295 is needed, got '-1'
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn

from tavli.compute import Compute
from tavli.engine.dice import MAX_SEED
from tavli.engine.games import games, lookup, menu_name
from tavli.errors import one_line

EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line, ``tavli moves: error: ...`` (no usage
    block; a huge argument is cut), exit status 2. Subcommands' parsers are of this class
    too."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {one_line(message)}\n")


def even_games(text: str) -> int:
    """Games of duplicate dice: each dice sequence is played twice, so an even number of 2
    or more.

    >>> even_games("10")
    10
    >>> even_games("3")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: an even number of games is needed (dice are played twice), got '3'
    """
    value = at_least(2)(text)
    if value % 2:
        raise argparse.ArgumentTypeError(
            f"an even number of games is needed (dice are played twice), got {text!r}")
    return value


def at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type for whole numbers of ``low`` or more (and ``high`` or less).

    >>> at_least(2)("10")
    10
    >>> at_least(2)("1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a whole number of at least 2 is needed, got '1'
    """
    wanted = f"of at least {low}" if high is None else f"from {low} to {high}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                f"a whole number {wanted} is needed, got {text!r}")
        return value

    parse.__name__ = f"at_least_{low}"
    return parse


seed_arg = at_least(0, MAX_SEED)
"""A random seed: a whole number in ``0..2**32 - 1`` (what every generator takes)."""


def numbers(one: Callable[[str], int]) -> Callable[[str], list[int]]:
    """An argparse type for one number or several, comma-separated, each read by
    ``one``; each number once, in the order given.

    >>> numbers(at_least(1, 2))("1,2")
    [1, 2]
    >>> numbers(at_least(2))("1000")
    [1000]
    >>> numbers(at_least(1, 2))("1,3")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a whole number from 1 to 2 is needed, got '3'
    """

    def parse(text: str) -> list[int]:
        out: list[int] = []
        for part in text.split(","):
            value = one(part.strip())
            if value not in out:
                out.append(value)
        return out

    parse.__name__ = f"numbers_{one.__name__}"
    return parse


def positive_float(text: str) -> float:
    """An argparse type for a number above 0.

    >>> positive_float("0.01")
    0.01
    >>> positive_float("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a number above 0 is needed, got '0'
    """
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"a number above 0 is needed, got {text!r}")
    return value


#: the CLI's languages (tavli.i18n.LANGUAGES; written out so that --help imports nothing)
LANGS = ("en", "el", "it", "de")

RULE_HELP = "set a rule option, e.g. --rule must_play_higher=true (repeatable)"


def add_lang_option(parser: argparse.ArgumentParser, shown: str | None = None) -> None:
    """``--lang en|el|it|de``, the language of the command's texts (default
    ``$TAVLI_LANG``, else English; :mod:`tavli.cli.text`). On ``tavli`` itself and on the
    commands that print player-facing text; given twice, the later one counts."""
    parser.add_argument("--lang", dest="cli_lang", choices=LANGS, default=argparse.SUPPRESS,
                        help=shown or "the language of the output: en (default), el, it, "
                                      "de; also $TAVLI_LANG")


def add_rule_option(parser: argparse.ArgumentParser) -> None:
    """``--rule NAME=VALUE``, repeatable: a rule option of the game."""
    parser.add_argument("--rule", action="append", metavar="NAME=VALUE", help=RULE_HELP)


def dama_rule_set(game: str | None):
    """The Dama rule set (its :class:`~tavli.engine.games.dama.DamaVariant`) a ``GAME``
    names (``dama``/``box``, ``russian``/``shashki``, ``italian``...), or None for another
    name (a game with dice's, an unknown one, or none): the registry's answer, which the
    commands use to hand a game to its kind's code.

    >>> dama_rule_set("Dama").name, dama_rule_set("shashki").name, dama_rule_set("portes")
    ('box', 'russian', None)
    """
    if game is None:
        return None
    v = lookup(game)
    return None if v is None or v.dice else v


def dama_game_names() -> list[str]:
    """Dama's rule sets as a command line names them (``dama``, ``russian``, ``italian``)."""
    return [menu_name(v) for v in games()["dama"]]


def games_help(tail: str = "", dama: bool = False) -> str:
    """The help of a ``GAME`` argument: the games' names (with ``dama``, Dama's rule sets
    too), then ``tail``."""
    from tavli.engine.games import game_names

    names = list(game_names())
    if dama:
        names += [n for n in dama_game_names() if n not in names]
    return "|".join(names) + tail


def add_compute_args(p: argparse.ArgumentParser, jobs_default: str) -> None:
    """``--jobs``, ``--ray`` and ``--ray-address``: where a long job's tasks run
    (:class:`tavli.compute.Compute`; :func:`compute_of` reads them back). ``jobs_default``
    says in words what no ``--jobs`` means."""
    p.add_argument("--jobs", type=at_least(1), default=None,
                   help=f"worker processes, or Ray workers with --ray (default {jobs_default})")
    p.add_argument("--ray", action="store_true",
                   help="run the work on a local Ray instance of --jobs workers (the extra "
                        "tavli[ray])")
    p.add_argument("--ray-address", metavar="ADDR", default=None,
                   help="run the work on the Ray cluster at ADDR (host:port, or 'auto'; "
                        "started with `ray start --head`): one worker per CPU unless --jobs")


def compute_of(args: argparse.Namespace, jobs: int | None = 1):
    """The :class:`tavli.compute.Compute` of the options of :func:`add_compute_args`
    (``jobs``: the number of local processes without ``--jobs``; None: one per core)."""
    if args.ray or args.ray_address is not None:
        return Compute(jobs=args.jobs, ray=True, ray_address=args.ray_address).check()
    return Compute(jobs=args.jobs if args.jobs is not None else jobs)
