"""Dice sources. A game draws every die from one injectable source, so a seeded run
reproduces exactly; the default draws from the operating system's secure source.

>>> a, b = DiceSource(seed=7), DiceSource(seed=7)
>>> [a.die() for _ in range(5)] == [b.die() for _ in range(5)]
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from tavli.errors import RecordError

#: the largest seed of the dice (0 to 2^32 - 1): the command line's ``--seed``, a game's
#: ``seed`` in the browser app and in a record (a seed is a setting, not a payload)
MAX_SEED = 2**32 - 1

# How many of the 36 rolls move one checker exactly d pips (index d = 1..12; 0 unused),
# blocked points ignored: the chance of a shot at distance d is SHOT_ROLLS[d] / 36.
SHOT_ROLLS = (0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3)


def dice_text(dice: Iterable[int]) -> str:
    """A roll as players and gnubg write it: the higher die first.

    >>> dice_text((1, 3)), dice_text([6, 6])
    ('3-1', '6-6')
    """
    a, b = dice
    return f"{max(a, b)}-{min(a, b)}"


class DiceSource:
    """Dice from ``random.Random(seed)``, a given ``rng`` (anything with ``randint``), or
    ``random.SystemRandom()`` when neither is given."""

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self.seed = seed
        if rng is not None:
            self.rng = rng
        elif seed is not None:
            self.rng = random.Random(seed)
        else:
            self.rng = random.SystemRandom()

    def die(self) -> int:
        return int(self.rng.randint(1, 6))


class ScriptedDice(DiceSource):
    """Dice read from a list (used to replay records and in tests)."""

    def __init__(self, dice: Iterable[int]) -> None:
        super().__init__(rng=random.Random(0))
        self._it: Iterator[int] = iter(list(dice))

    def die(self) -> int:
        try:
            d = next(self._it)
        except StopIteration:
            raise RecordError("the recorded dice ran out") from None
        if not isinstance(d, int) or not 1 <= d <= 6:
            raise RecordError(f"recorded die {d!r} is not 1..6")
        return d
