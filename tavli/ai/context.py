"""How to evaluate: one value for the settings that travel together (gnubg's
``evalcontext``), instead of loose integers through every signature.

An :class:`EvalContext` says how deep the search looks (``plies``), which candidates each
deeper ply keeps (``move_filter``: gnubg's move filters), how much noise a weak level adds
to the equities it chooses by (``noise``), and the match context the equities are for
(``score``: :class:`~tavli.play.cube.scoring.ScoreWeights` of the side to move; None or a
money score is money play). The levels are contexts (:mod:`tavli.ai.levels`).

A :class:`RolloutContext` (gnubg's ``rolloutcontext``) says how to roll a position out:
how many trials, the checker play inside them (an :class:`EvalContext` at ply 0 or 1),
where to cut them, the dice's seed, whether to take the luck out, and the standard error
to stop at.

>>> ctx = EvalContext(plies=2)
>>> ctx.filters()
((1, 8, 0.16), (2, 3, 0.08))
>>> EvalContext(plies=1).at_score(None) == EvalContext(plies=1)
True
>>> RolloutContext(games=36, play=EvalContext(plies=1)).settings()
{'ply': 1, 'truncate': None, 'seed': 1, 'luck': True}
>>> RolloutContext(games=0)
Traceback (most recent call last):
...
tavli.errors.OptionError: games must be a whole number of at least 1, not 0
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tavli.errors import OptionError, RuleError

if TYPE_CHECKING:
    from tavli.play.cube.scoring import ScoreWeights

#: the deepest search the AI has
MAX_PLIES = 2


@dataclass(frozen=True)
class MoveFilter:
    """The candidates a deeper ply re-values: at most ``keep`` of the previous ply's best,
    each within ``width`` (equity) of the best (gnubg's move filter)."""

    keep: int
    width: float


#: gnubg's "normal" filters: 8 within 0.16 go on to 1-ply, 3 within 0.08 to 2-ply
DEFAULT_FILTERS = (MoveFilter(8, 0.16), MoveFilter(3, 0.08))


@dataclass(frozen=True)
class EvalContext:
    """How to evaluate a position or rank the moves of a roll (see the module docstring)."""

    plies: int = 0
    noise: float = 0.0
    move_filter: tuple[MoveFilter, ...] = DEFAULT_FILTERS
    score: ScoreWeights | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.plies, int) or not 0 <= self.plies <= MAX_PLIES:
            raise RuleError(f"ply must be 0, 1 or 2, not {self.plies}")
        if len(self.move_filter) < self.plies:
            raise RuleError("a move filter is needed for every ply searched")

    @property
    def is_money(self) -> bool:
        """Equities for money play (no match score, or a money one)."""
        return self.score is None or self.score.is_money

    def filters(self) -> tuple[tuple[int, int, float], ...]:
        """``(ply, keep, width)`` for each ply past 0 that this context searches."""
        return tuple((d + 1, f.keep, f.width)
                     for d, f in enumerate(self.move_filter[:self.plies]))

    def at_plies(self, plies: int) -> EvalContext:
        """The same context searching ``plies`` deep."""
        return self if plies == self.plies else replace(self, plies=plies)

    def at_score(self, score: ScoreWeights | None) -> EvalContext:
        """The same context for equities at the match ``score`` (None: money play)."""
        return self if score is self.score else replace(self, score=score)


#: 0-ply, money play: what a quick look at a position uses
MONEY_0PLY = EvalContext()
#: 1-ply, money play: the cube decision's default depth
ONE_PLY = EvalContext(plies=1)


@dataclass(frozen=True)
class RolloutContext:
    """How to roll out (gnubg's ``rolloutcontext``): ``games`` trials (fewer with
    ``target_se``: they stop once the equity's standard error is below it), each move in
    them chosen by ``play`` (ply 0 or 1), each trial cut after ``truncate`` turns if given,
    dice from ``seed``, the luck of every roll taken out with ``luck``. Settings out of
    range raise :class:`~tavli.errors.OptionError`."""

    games: int = 1296
    play: EvalContext = MONEY_0PLY
    truncate: int | None = None
    seed: int = 1
    luck: bool = True
    target_se: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.games, int) or self.games < 1:
            raise OptionError(f"games must be a whole number of at least 1, not "
                              f"{self.games!r}")
        if self.play.plies not in (0, 1):
            raise OptionError(f"a rollout plays at ply 0 or 1, not {self.play.plies!r}")
        if self.truncate is not None and (not isinstance(self.truncate, int)
                                          or self.truncate < 1):
            raise OptionError(f"truncate must be at least 1 turn (or none), not "
                              f"{self.truncate!r}")
        if not isinstance(self.seed, int) or not 0 <= self.seed < 2**32:
            raise OptionError(f"seed must be a whole number from 0 to 4294967295, not "
                              f"{self.seed!r}")
        if self.target_se is not None and not self.target_se > 0:
            raise OptionError(f"the target standard error must be above 0, not "
                              f"{self.target_se!r}")

    @classmethod
    def at_ply(cls, ply: int, **settings) -> RolloutContext:
        """The context whose trials play at ``ply`` (OptionError unless 0 or 1)."""
        if ply not in (0, 1):
            raise OptionError(f"a rollout plays at ply 0 or 1, not {ply!r}")
        return cls(play=EvalContext(plies=ply), **settings)

    @property
    def ply(self) -> int:
        """The depth the trials' moves are chosen at."""
        return self.play.plies

    def settings(self) -> dict:
        """What a result records of how it was rolled out."""
        return {"ply": self.ply, "truncate": self.truncate, "seed": self.seed,
                "luck": self.luck}

    def with_seed(self, seed: int) -> RolloutContext:
        """The same rollout with the dice of ``seed``."""
        return replace(self, seed=seed)


#: 1296 trials played out at 0-ply, luck-adjusted, seed 1 (``tavli rollout``'s defaults)
DEFAULT_ROLLOUT = RolloutContext()
