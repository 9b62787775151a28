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

from tavli.errors import RuleError

LEVELS: dict[str, tuple[int, float]] = {
    "beginner": (0, 0.35),
    "casual": (0, 0.15),
    "intermediate": (0, 0.06),
    "advanced": (0, 0.0),
    "expert": (1, 0.0),
    "worldclass": (2, 0.0),
}
DEFAULT_LEVEL = "expert"
def parse_level(level: str | int | None) -> tuple[int, float]:
    if level is None:
        return LEVELS[DEFAULT_LEVEL]
    if isinstance(level, int) or (isinstance(level, str) and level.isascii() and level.isdigit()
                                   and len(level) < 10):
        ply = int(level)
        if ply not in (0, 1, 2):
            raise RuleError(f"ply must be 0, 1 or 2, not {level}")
        return ply, 0.0
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
