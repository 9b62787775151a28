"""The AI players: the neural player at every level, and pubeval.

Levels (name: ply, equity noise):

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

What a user interface needs: :class:`LevelPlayer` (the AI at a level: the neural player
where a trained network ships for the game, else the greedy heuristic), :func:`rank_moves`
(a hint) and :func:`accepts_resignation` (the AI's answer to a resignation).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from importlib import resources

import numpy as np

from tavli.ai.encode import family_name, family_of
from tavli.ai.evaluator import Evaluator, as_evaluator
from tavli.ai.net import Net, NetError, equity
from tavli.engine.board import Dice, Move, Position
from tavli.engine.games import HITTING, find_variant
from tavli.engine.layout import BAR, OFF
from tavli.engine.rules import Rules
from tavli.errors import RuleError
from tavli.play.cube.scoring import ScoreWeights
from tavli.play.game import RESIGN_POINTS, Game
from tavli.play.players import GreedyPlayer, Player

LEVELS: dict[str, tuple[int, float]] = {
    "beginner": (0, 0.35),
    "casual": (0, 0.15),
    "intermediate": (0, 0.06),
    "advanced": (0, 0.0),
    "expert": (1, 0.0),
    "worldclass": (2, 0.0),
}
DEFAULT_LEVEL = "expert"
#: the cube logics of :class:`NeuralPlayer`: Janowski's cubeful model (at the match score
#: in a match), the old fixed thresholds on the cubeless equity, or the cubeful model as in
#: money play whatever the score (the last two kept for the benchmarks)
CUBE_MODES = ("cubeful", "thresholds", "money")


def shipped_net(game: int | str) -> Net:
    """The trained network shipped with the package for ``game``'s family
    (``tavli/data/<family>.npz``, the variant's :attr:`~tavli.engine.games.Variant.family`;
    loaded once per family)."""
    return _family_net(find_variant(game).family)


@functools.cache
def _family_net(family: str) -> Net:
    name = f"{family}.npz"
    ref = resources.files("tavli").joinpath("data", name)
    if not ref.is_file():
        raise NetError(f"no trained network for {family} is installed ({name})")
    with resources.as_file(ref) as path:
        return Net.load(path)


def shipped_race_net(game: int | str) -> Net | None:
    """The race network shipped for ``game``'s family (``tavli/data/<family>-race.npz``),
    or None when none is installed (loaded once per family)."""
    return _family_race_net(find_variant(game).family)


@functools.cache
def _family_race_net(family: str) -> Net | None:
    ref = resources.files("tavli").joinpath("data", f"{family}-race.npz")
    if not ref.is_file():
        return None
    with resources.as_file(ref) as path:
        return Net.load(path)


def shipped_evaluator(game: int | str) -> Evaluator:
    """The evaluator shipped for ``game``'s family: its trained network, its race network
    where one ships, and the bear-off databases (:class:`~tavli.ai.evaluator.Evaluator`;
    built once per family)."""
    family = find_variant(game).family
    return _family_evaluator(family)


@functools.cache
def _family_evaluator(family: str) -> Evaluator:
    return Evaluator(_family_net(family), race=_family_race_net(family))


def has_shipped_net(game: int) -> bool:
    try:
        shipped_net(game)
        return True
    except NetError:
        return False


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


def engine_name(game: int) -> str:
    """``neural`` when a trained network ships for ``game``, else ``greedy``."""
    return "neural" if has_shipped_net(game) else "greedy"


@dataclass
class RankedMove:
    """A move with its outputs (mover's view), equity and the ply it was valued at; at a
    match score the equity is the normalised match equity and ``mwc`` the match winning
    chance (:mod:`tavli.play.cube.scoring`)."""

    move: Move
    outputs: np.ndarray
    equity: float
    ply: int
    mwc: float | None = None

    def to_dict(self) -> dict:
        """The move, its equity, ply and outputs by name (``tavli hint --json``), and its
        ``mwc`` at a match score."""
        o = [round(float(v), 4) for v in self.outputs]
        doc = {"move": str(self.move), "equity": round(self.equity, 4), "ply": self.ply,
               "win": o[0], "win_gammon": o[1], "win_backgammon": o[2],
               "lose_gammon": o[3], "lose_backgammon": o[4],
               "position": self.move.after.id()}
        if self.mwc is not None:
            doc["mwc"] = round(self.mwc, 4)
        return doc


class Analyzer:
    """Ranks moves with a network, with gnubg-style move filtering between plies."""

    FILTER_1 = (8, 0.16)  # candidates kept for 1-ply: at most 8, within 0.16 of the best
    FILTER_2 = (3, 0.08)

    def __init__(self, rules: Rules, net: Net | Evaluator | None = None) -> None:
        from tavli.ai.search import Searcher

        self.rules = rules
        self.evaluator = as_evaluator(net, rules.game)
        self.net = self.evaluator.contact
        if self.net.family != family_of(rules.game):
            raise NetError(f"the network is for {family_name(self.net.family)}, the game "
                           f"{rules.game_name}")
        self.count_bg = bool(rules.backgammons)
        self.searcher = Searcher(self.evaluator, rules)

    def __repr__(self) -> str:
        return f"Analyzer({self.rules!r}, {self.evaluator!r})"

    def equity(self, outputs: np.ndarray, score: ScoreWeights | None = None) -> np.ndarray:
        """Cubeless equity of network outputs, backgammons counted where they score: money
        equity, or at a match ``score`` the normalised match equity
        (:class:`~tavli.play.cube.scoring.ScoreWeights`)."""
        if score is None or score.is_money:
            return np.asarray(equity(outputs, self.count_bg))
        y = np.asarray(outputs, dtype=np.float64)
        gw, bw, gl, bl = score.values
        e = 2 * y[..., 0] - 1 + gw * y[..., 1] - gl * y[..., 3]
        if self.count_bg:
            e = e + bw * y[..., 2] - bl * y[..., 4]
        return np.asarray(e)

    def rank(self, position: Position, moves: list[Move], ply: int,
             score: ScoreWeights | None = None) -> list[RankedMove]:
        """``moves`` ranked best first; the leading ones valued at ``ply``. At a match
        ``score`` (:class:`~tavli.play.cube.scoring.ScoreWeights` of the side to move) every
        ply chooses and ranks by match winning chances, and each move has its MWC."""
        if not moves:
            return []
        arr = np.stack([m.after.array for m in moves])
        mover = position.turn
        money = score is None or score.is_money
        gv = None if money else score.kernel_weights(mover)
        out = self.searcher.outputs(arr, mover, 0)
        eq = self.equity(out, score)
        plies = np.zeros(len(moves), dtype=int)
        for depth, (keep, width) in ((1, self.FILTER_1), (2, self.FILTER_2)):
            if ply < depth or len(moves) == 1:
                break
            cand = [i for i in np.argsort(-eq, kind="stable") if plies[i] == depth - 1]
            cand = [i for i in cand[:keep] if eq[i] >= eq[cand[0]] - width]
            o = self.searcher.outputs(arr[cand], mover, depth, gv)
            out[cand] = o
            eq[cand] = self.equity(o, score)
            plies[cand] = depth
        order = sorted(range(len(moves)), key=lambda i: (-plies[i], -eq[i]))
        return [RankedMove(moves[i], out[i], float(eq[i]), int(plies[i]),
                           None if money else score.mwc(float(eq[i]))) for i in order]

    def position_valuer(self, position: Position) -> tuple[str, str]:
        """The class of ``position`` (``contact``, ``race`` or ``bear-off``:
        :data:`~tavli.ai.evaluator.CLASSES`) and the valuer that answers for it at 0-ply
        (``contact net``, ``race net``, a bear-off database:
        :data:`~tavli.ai.evaluator.VALUERS`)."""
        from tavli.ai.evaluator import CLASSES, VALUERS, position_class

        flat = np.ascontiguousarray(position.array, dtype=np.int8).reshape(104)
        cls = int(position_class(flat, self.evaluator.family))
        used = int(self.evaluator.evaluate([position])[1][0])
        return CLASSES[cls], VALUERS[used]

    def position_outputs(self, position: Position, ply: int = 0,
                         score: ScoreWeights | None = None) -> np.ndarray:
        """Outputs for the side to move in ``position`` (before its roll); at a match
        ``score`` (the side to move's) the search chooses moves by it."""
        if ply == 0:
            return self.evaluator.evaluate([position])[0][0]
        # the position seen as the after-position of the opponent's turn
        sw = position.swap_turn()
        gv = None if score is None or score.is_money else score.kernel_weights(position.turn)
        o = self.searcher.outputs(sw.array[None], sw.turn, ply, gv)[0]
        return np.array([1 - o[0], o[3], o[4], o[1], o[2]], dtype=np.float32)


class NeuralPlayer(Player):
    """Plays by the shipped (or a given) network at a level (see the module docstring)."""

    #: the deepest ply a cube decision searches (see docs/ai.md, Cubeful equity)
    CUBE_MAX_PLY = 2

    def __init__(self, level: str | int | None = None, net: Net | Evaluator | None = None,
                 seed: int | None = None, cube: str = "cubeful") -> None:
        if cube not in CUBE_MODES:
            raise RuleError(f"unknown cube logic {cube!r}: expected one of "
                            f"{', '.join(CUBE_MODES)}")
        self.cube = cube
        self.ply, self.noise = parse_level(level)
        self.level = level if level is not None else DEFAULT_LEVEL
        self.name = f"neural:{self.level}"
        self._net = net
        self._analyzers: dict[tuple, Analyzer] = {}
        self.rng = np.random.default_rng(seed)

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
        ranked = self.analyzer(rules).rank(position, list(moves), self.ply, score)
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
        d = decide_from(a.position_outputs(game.position, ply, score), game.position, ci, ply)
        if game.phase == "double":
            if d.beaver and game.rules.beavers and not getattr(game, "match_play", False):
                return "beaver"
            return "take" if d.take else "drop"
        return "double" if d.double else "roll"

    def _threshold_cube_action(self, game: Game) -> str:
        """The old cube logic: fixed thresholds on the cubeless 0-ply equity."""
        a = self.analyzer(game.rules)
        o = a.position_outputs(game.position if game.phase == "roll"
                               else game.position.swap_turn(), 0)
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
        from tavli.ai.selfplay import pubeval_score

        if rules.variant.kernel != HITTING:
            raise RuleError("pubeval plays Portes and backgammon only")
        if not moves:
            return None
        w = _pubeval_weights_cached()
        race = not is_contact(np.ascontiguousarray(position.array).reshape(104))
        scores = [pubeval_score(np.ascontiguousarray(m.after.array).reshape(104),
                                position.turn, w, race) for m in moves]
        return moves[int(np.argmax(scores))]


@functools.lru_cache(maxsize=1)
def _pubeval_weights_cached() -> np.ndarray:
    from tavli.ai.selfplay import pubeval_weights

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
        ranked = _analyzer(rules).rank(position, list(moves), parse_level(level)[0], score)
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
        o = _analyzer(game.rules).position_outputs(pos, 0)  # the resigner's view
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
