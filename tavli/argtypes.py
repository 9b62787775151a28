"""Argument types shared by the command-line parsers (argparse ``type=`` callables).

>>> seed_arg("42")
42
>>> seed_arg("-1")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: a seed is a whole number from 0 to 4294967295, got '-1'
"""

from __future__ import annotations

import argparse

MAX_SEED = 2**32 - 1


def seed_arg(text: str) -> int:
    """A random seed: a whole number in ``0..2**32 - 1`` (what every generator takes)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number from 0 to {MAX_SEED}, got {text!r}")
    return value


def at_least(low: int):
    """An argparse type for whole numbers of ``low`` or more.

    >>> at_least(2)("10")
    10
    >>> at_least(2)("1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a whole number of at least 2 is needed, got '1'
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(
                f"a whole number of at least {low} is needed, got {text!r}")
        return value

    parse.__name__ = f"at_least_{low}"
    return parse
