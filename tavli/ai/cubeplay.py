"""The AI's cube decisions: cubeless probabilities from the network at some ply, made
cubeful by Janowski's model (:mod:`tavli.play.cube.cubeful`) with the cube efficiency of the
position's class.

>>> from tavli import Position
>>> from tavli.play.cube.info import CubeInfo
>>> from tavli.ai.context import MONEY_0PLY
>>> d = cube_decision(Position.start("backgammon"), CubeInfo(), MONEY_0PLY)
>>> d.action
'No double, take'
"""

from __future__ import annotations

import functools

from tavli.ai.context import ONE_PLY, EvalContext
from tavli.ai.evaluator import CLASSES, Evaluator, position_class
from tavli.engine.board import Position
from tavli.engine.rules import Rules
from tavli.play.cube.cubeful import CubeDecision, decide, efficiency
from tavli.play.cube.info import CubeInfo


def position_efficiency(position: Position) -> tuple[str, float]:
    """The class of ``position`` ("contact", "race", "bear-off") and its cube efficiency
    (:func:`tavli.play.cube.cubeful.efficiency`, with the pips of the side to move)."""
    b = position.flat()
    cls = CLASSES[int(position_class(b, position.variant.kernel))]
    return cls, efficiency(cls, position.pip_count(position.turn))


@functools.lru_cache(maxsize=8)
def _shipped_analyzer(rules: Rules):
    from tavli.ai.analyzer import Analyzer

    return Analyzer(rules)


def cube_decision(position: Position, cube: CubeInfo | None = None,
                  ctx: EvalContext = ONE_PLY, evaluator: Evaluator | None = None,
                  rules: Rules | None = None) -> CubeDecision:
    """The cube decision of the side to move in ``position`` (before its roll) with the
    cube and score ``cube`` (default: money, cube centred): the network's cubeless
    probabilities searched as ``ctx`` says (0-2 plies; default 1) made cubeful by
    Janowski's model. ``evaluator``: default the shipped one; ``rules``: default the
    game's standard rules."""
    from tavli.ai.analyzer import Analyzer

    rules = rules if rules is not None else Rules.for_game(position.game)
    a = (_shipped_analyzer(rules) if evaluator is None else Analyzer(rules, evaluator))
    probs = a.position_outputs(position, ctx)
    return decide_from(probs, position, cube if cube is not None else CubeInfo(), ctx.plies)


def decide_from(probs, position: Position, cube: CubeInfo, ply: int = 0) -> CubeDecision:
    """The decision from ``probs`` already computed for ``position``."""
    _, x = position_efficiency(position)
    return decide(probs, cube, x, ply)
