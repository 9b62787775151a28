"""The AI's levels (name: ply, equity noise):

==============  ====  =====
beginner        0     0.35
casual          0     0.15
intermediate    0     0.06
advanced        0     0
expert          1     0      (the default: well under 0.2 s a move)
worldclass      2     0
==============  ====  =====

Noise is added to each candidate's equity before choosing, so weak levels make the kind
of mistakes people make (close moves confused), not random blunders.
"""

from __future__ import annotations

from tavli.ai.context import EvalContext
from tavli.errors import RuleError

#: each level is a way to evaluate (:class:`~tavli.ai.context.EvalContext`)
LEVELS: dict[str, EvalContext] = {
    "beginner": EvalContext(plies=0, noise=0.35),
    "casual": EvalContext(plies=0, noise=0.15),
    "intermediate": EvalContext(plies=0, noise=0.06),
    "advanced": EvalContext(plies=0),
    "expert": EvalContext(plies=1),
    "worldclass": EvalContext(plies=2),
}
DEFAULT_LEVEL = "expert"


def parse_level(level: str | int | None) -> EvalContext:
    """The context of a level: its name (any case, ``-``/``_``/spaces ignored), a ply
    ``0``-``2`` (no noise), or None for the default; RuleError for anything else.

    >>> parse_level("World-class") == LEVELS["worldclass"], parse_level("1").plies
    (True, 1)
    """
    if level is None:
        return LEVELS[DEFAULT_LEVEL]
    if isinstance(level, int) or (isinstance(level, str) and level.isascii() and level.isdigit()
                                   and len(level) < 10):
        return EvalContext(plies=int(level))  # the context refuses a ply past 2
    key = str(level).strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    if key not in LEVELS:
        raise RuleError(f"unknown level {str(level)[:40]!r}: one of {', '.join(LEVELS)} "
                        "or a ply 0-2")
    return LEVELS[key]


def level_name(level: str | int | None) -> str:
    """The canonical name of a level (``expert``, ``worldclass``, or a ply ``0``-``2``);
    RuleError for an unknown one."""
    parse_level(level)
    if level is None:
        return DEFAULT_LEVEL
    return str(level).strip().lower().replace("-", "").replace("_", "").replace(" ", "")
