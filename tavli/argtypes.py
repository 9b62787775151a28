"""Argument types shared by the command-line parsers (argparse ``type=`` callables), and
their parser class, which reports a bad command line in one line.

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

from tavli.errors import one_line

MAX_SEED = 2**32 - 1
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
