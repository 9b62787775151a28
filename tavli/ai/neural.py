"""The AI players: the neural player at every level (:mod:`tavli.ai.levels`), and pubeval.

What a user interface needs: :class:`LevelPlayer` (the AI at a level: the neural player
where a trained network ships for the game, else the greedy heuristic), :func:`rank_moves`
(a hint) and :func:`accepts_resignation` (the AI's answer to a resignation).
"""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np

from tavli.ai.analyzer import Analyzer
from tavli.ai.context import MAX_PLIES
from tavli.ai.evaluator import Evaluator
from tavli.ai.levels import DEFAULT_LEVEL, level_name, parse_level
from tavli.ai.net import Net
from tavli.ai.shipped import engine_name, has_shipped_net
from tavli.engine.board import Dice, Move, Position
from tavli.engine.games import HITTING
from tavli.engine.layout import BAR, OFF
from tavli.engine.rules import Rules
from tavli.errors import RuleError
from tavli.play.cube.scoring import ScoreWeights
from tavli.play.game import RESIGN_POINTS, Game
from tavli.play.players import GreedyPlayer, Player

#: the cube logics of :class:`NeuralPlayer`: Janowski's cubeful model (at the match score
#: in a match), the old fixed thresholds on the cubeless equity, or the cubeful model as in
#: money play whatever the score (the last two kept for the benchmarks)
CUBE_MODES = ("cubeful", "thresholds", "money")


class NeuralPlayer(Player):
    """Plays by the shipped (or a given) network at a level (see the module docstring)."""

    #: the deepest ply a cube decision searches (see docs/ai.md, Cubeful equity)
    CUBE_MAX_PLY = MAX_PLIES

    def __init__(self, level: str | int | None = None, net: Net | Evaluator | None = None,
                 seed: int | None = None, cube: str = "cubeful") -> None:
        if cube not in CUBE_MODES:
            raise RuleError(f"unknown cube logic {cube!r}: expected one of "
                            f"{', '.join(CUBE_MODES)}")
        self.cube = cube
        self.context = parse_level(level)
        self.level = level if level is not None else DEFAULT_LEVEL
        self.name = f"neural:{self.level}"
        self._net = net
        self._analyzers: dict[tuple, Analyzer] = {}
        self.rng = np.random.default_rng(seed)

    @property
    def ply(self) -> int:
        """The level's search depth."""
        return self.context.plies

    @property
    def noise(self) -> float:
        """The level's noise on the equities it chooses by."""
        return self.context.noise

    def analyzer(self, rules: Rules) -> Analyzer:
        """The analyzer it plays ``rules`` with (one per rule set, kept)."""
        key = (rules,)
        if key not in self._analyzers:
            self._analyzers[key] = Analyzer(rules, self._net)
        return self._analyzers[key]

    def choose_move(self, position: Position, dice: Dice, moves, rules: Rules,
                    score: ScoreWeights | None = None):
        """The move to play; at a match ``score`` (the side to move's
        :class:`~tavli.play.cube.scoring.ScoreWeights`) the one with the best match winning
        chances."""
        if not moves:
            return None
        if len(moves) == 1:
            return moves[0]
        ranked = self.analyzer(rules).rank(position, list(moves), self.context.at_score(score))
        if self.noise <= 0:
            return ranked[0].move
        eq = np.array([r.equity for r in ranked]) + self.rng.normal(0, self.noise, len(ranked))
        return ranked[int(np.argmax(eq))].move

    def choose_move_in(self, game: Game, moves):
        """The move to play in ``game``, at the score of its match (``game.match``)."""
        if len(moves) <= 1:
            return moves[0] if moves else None
        return self.choose_move(game.position, game.dice, moves, game.rules,
                                ScoreWeights.for_game(game))

    def cube_action(self, game: Game) -> str:
        """The cube decision: cubeful (Janowski's model on the network's probabilities
        at the level's ply, at most :attr:`CUBE_MAX_PLY`; the match score from
        ``game.match``), the old fixed thresholds with ``cube="thresholds"``, or with
        ``cube="money"`` the cubeful decision of money play (no Jacoby, no beavers)
        whatever the match score."""
        if self.cube == "thresholds":
            return self._threshold_cube_action(game)
        from tavli.ai.cubeplay import decide_from
        from tavli.play.cube.info import CubeInfo

        doubler = game.position.turn  # in phase "double" too: the doubler is on roll
        if self.cube == "money":
            ci = CubeInfo.from_game(game, None, side=doubler)
            if ci.jacoby or ci.beavers:
                ci = replace(ci, jacoby=False, beavers=False)
        else:
            ci = CubeInfo.from_game(game, getattr(game, "match", None), side=doubler)
        a = self.analyzer(game.rules)
        ply = min(self.ply, self.CUBE_MAX_PLY)
        score = _search_score(ci) if ply else None  # the search's own move choices
        ctx = self.context.at_plies(ply).at_score(score)
        d = decide_from(a.position_outputs(game.position, ctx), game.position, ci, ply)
        if game.phase == "double":
            if d.beaver and game.rules.beavers and not getattr(game, "match_play", False):
                return "beaver"
            return "take" if d.take else "drop"
        return "double" if d.double else "roll"

    def _threshold_cube_action(self, game: Game) -> str:
        """The old cube logic: fixed thresholds on the cubeless 0-ply equity."""
        a = self.analyzer(game.rules)
        o = a.position_outputs(game.position if game.phase == "roll"
                               else game.position.swap_turn())
        e = float(a.equity(o))
        if game.phase == "double":  # o is for the taker (he moves next)
            return "take" if e >= -0.5 else "drop"
        if game.cube_value > 1 or not game.can_double():
            too_good = e >= 1.0 - (0.2 if game.cube_owner is None else 0.1)
        else:
            too_good = e >= 0.95
        return "double" if 0.55 <= e and not too_good else "roll"

    def __repr__(self) -> str:
        return f"NeuralPlayer(level={self.level!r})"


def _search_score(ci) -> ScoreWeights | None:
    """The weights a cube decision's search chooses moves by (None: money play, or a
    score beyond the match equity table)."""
    from tavli.errors import OptionError

    try:
        return ScoreWeights.from_cube(ci)
    except OptionError:
        return None


class PubevalPlayer(Player):
    """Tesauro's pubeval (Portes/backgammon checker play): the field's standard yardstick.
    Whether the position is a race is judged before the move, as pubeval prescribes."""

    name = "pubeval"

    def choose_move(self, position: Position, dice: Dice, moves, rules: Rules):
        from tavli.ai.encode import is_contact
        from tavli.ai.fastplay import pubeval_score

        if rules.variant.kernel != HITTING:
            raise RuleError("pubeval plays Portes and backgammon only")
        if not moves:
            return None
        w = _pubeval_weights_cached()
        race = not is_contact(position.flat())
        scores = [pubeval_score(m.after.flat(),
                                position.turn, w, race) for m in moves]
        return moves[int(np.argmax(scores))]


@functools.lru_cache(maxsize=1)
def _pubeval_weights_cached() -> np.ndarray:
    from tavli.ai.fastplay import pubeval_weights

    return pubeval_weights()


class LevelPlayer(Player):
    """The AI at a level: the neural player where a trained network ships for the game
    being played, else the greedy heuristic (a Tavli match changes game between games)."""

    def __init__(self, level: str | int | None = None, seed: int | None = None,
                 cube: str = "cubeful") -> None:
        self.level = level_name(level)
        self.name = f"neural:{self.level}"
        self.neural = NeuralPlayer(self.level, seed=seed, cube=cube)
        self.greedy = GreedyPlayer()

    def engine(self, game: int) -> Player:
        """The player that plays ``game`` (a variant's code): neural or greedy."""
        return self.neural if has_shipped_net(game) else self.greedy

    def choose_move(self, position: Position, dice: Dice, moves, rules: Rules):
        return self.engine(rules.game).choose_move(position, dice, moves, rules)

    def choose_move_in(self, game: Game, moves):
        return self.engine(game.rules.game).choose_move_in(game, moves)

    def cube_action(self, game: Game) -> str:
        return self.engine(game.rules.game).cube_action(game)

    def __repr__(self) -> str:
        return f"LevelPlayer(level={self.level!r})"


@functools.lru_cache(maxsize=8)
def _analyzer(rules: Rules) -> Analyzer:
    return Analyzer(rules)


def rank_moves(rules: Rules, position: Position, moves: list[Move],
               level: str | int | None = None, score: ScoreWeights | None = None,
               ) -> tuple[str, list[tuple[Move, float]]]:
    """A hint: ``moves`` best first with their values, and the engine that valued them:
    ``("neural", [(move, cubeless equity)])`` at ``level``'s ply where a trained network
    ships for the game (at a match ``score``: the normalised match equity), else
    ``("greedy", [(move, heuristic score)])``."""
    if not moves:
        return engine_name(rules.game), []
    if has_shipped_net(rules.game):
        ranked = _analyzer(rules).rank(position, list(moves), parse_level(level).at_score(score))
        return "neural", [(r.move, r.equity) for r in ranked]
    scores = GreedyPlayer().evaluate([m.after for m in moves], position.turn, rules)
    order = sorted(range(len(moves)), key=lambda i: -float(scores[i]))
    return "greedy", [(moves[i], float(scores[i])) for i in order]


def accepts_resignation(game: Game, side: int, value: str) -> bool:
    """Whether ``side``'s opponent accepts ``side`` resigning ``value`` (single, gammon or
    backgammon): yes when the points conceded are at least what playing on is worth to
    him, the cubeless equity of the shipped network (before ``side``'s roll). Without a
    network, a race count: a gammon (backgammon) is expected when ``side``'s checkers need
    more pips to reach his home board (to leave the winner's) than the winner needs to
    bear off."""
    offered = RESIGN_POINTS[value]
    values = game.resign_values()
    pos = game.position if game.position.turn == side else game.position.swap_turn()
    if has_shipped_net(game.rules.game):
        o = _analyzer(game.rules).position_outputs(pos)  # the resigner's view, 0-ply
        gammons = "gammon" in values
        bgs = "backgammon" in values
        worth = (1 - 2 * float(o[0]) + (float(o[3]) - float(o[1])) * gammons
                 + (float(o[4]) - float(o[2])) * bgs)
        return offered >= worth - 1e-9
    a = pos.array
    race = pos.pip_count(1 - side)
    most = 1
    if "gammon" in values and a[side, OFF] == 0 and \
            sum((p - 6) * int(a[side, p]) for p in range(7, BAR + 1)) >= race:
        most = 2
        if "backgammon" in values and \
                sum((p - 18) * int(a[side, p]) for p in range(19, BAR + 1)) >= race:
            most = 3
    return offered >= most
