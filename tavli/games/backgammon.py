"""International backgammon, as the game box manual describes it.

Checker play is exactly Portes' (:mod:`tavli.games.portes`), with two differences set by
rule options: the higher die must be played when only one can be (``must_play_higher``,
default True) and the two opening dice are the first move (``opening_reroll``, default
False). Scoring: single 1, gammon 2, backgammon 3 (option ``backgammons``, default True),
times the doubling cube (see :mod:`tavli.cube`).
"""

from __future__ import annotations

from .portes import result_points, start_array

__all__ = ["start_array", "result_points"]
