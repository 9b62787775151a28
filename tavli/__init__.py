"""tavli: rules engine, games, matches and AI for Tavli (Portes, Plakoto, Fevga) and
backgammon.

Everything the docs use is a name of this package:

* positions and moves: :class:`Position`, :class:`Move`, :func:`parse_dice`;
* the games: :class:`Variant` (one per game with dice: :data:`VARIANTS`,
  :func:`find_variant`) and the :class:`Rules` a game is played by; every game and rule set,
  Dama's too, in one registry (:func:`find_game`, :func:`games`), the rules of any game by
  name (:func:`rules_for`) and a new game of any kind (:func:`new_game`);
* play: :class:`Game` (one game, its :class:`Outcome`) and :class:`Match`;
* records: :func:`game_record`, :func:`match_record`, :func:`load_record` (from a dict or
  JSON text), :func:`save_record` and :func:`load_record_file` (files);
* players: :class:`Player`, :class:`RandomPlayer`, :class:`GreedyPlayer`,
  :func:`play_game`, and the AI: :class:`NeuralPlayer`, :class:`LevelPlayer`,
  :class:`PubevalPlayer`, :class:`Analyzer`, :func:`rank_moves`, :class:`Net`,
  :class:`Evaluator` (a family's networks and the bear-off databases);
* the cube: :class:`CubeInfo` (cube and score, :class:`Owner`), :func:`cube_decision`
  (a :class:`CubeDecision`: cubeful equities and the proper action);
* errors: :class:`TavliError` and one subclass per kind of error.

Names that need NumPy (or the compiled engine) load on first use, so that
``import tavli`` and ``tavli --help`` stay fast.

>>> import tavli
>>> pos = tavli.Position.start("fevga")
>>> [str(m) for m in pos.legal_moves("66")]
['24/18']
>>> tavli.Rules("backgammon", jacoby=True)
Rules('backgammon', jacoby=True)
>>> g = tavli.Game("plakoto", seed=3)
>>> tavli.play_game(g, (tavli.GreedyPlayer(), tavli.RandomPlayer(seed=1))).winner in (0, 1)
True
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from tavli.engine.games import VARIANTS, Variant, find_game, find_variant, games
from tavli.engine.rules import Rules
from tavli.errors import (
    AccessDenied,
    ApiError,
    BearoffError,
    CliError,
    ClockError,
    DiceProofError,
    DistillError,
    GameOver,
    IllegalMove,
    InvalidPosition,
    NetError,
    OptionError,
    ParseError,
    ProtocolError,
    RecordError,
    RecordShapeError,
    RuleError,
    RulesError,
    ServeError,
    StaleAction,
    StoreError,
    TavliError,
    TrainingError,
    WrongState,
)

if TYPE_CHECKING:
    from tavli.ai.analyzer import Analyzer
    from tavli.ai.cubeplay import cube_decision
    from tavli.ai.evaluator import Evaluator
    from tavli.ai.net import Net
    from tavli.ai.neural import LevelPlayer, NeuralPlayer, PubevalPlayer, rank_moves
    from tavli.engine.board import Move, Position, parse_dice
    from tavli.play.cube.cubeful import CubeDecision
    from tavli.play.cube.info import CubeInfo as CubeInfo
    from tavli.play.cube.info import Owner as Owner
    from tavli.play.game import Game, Outcome
    from tavli.play.match import Match
    from tavli.play.players import GreedyPlayer, Player, RandomPlayer, play_game
    from tavli.play.record import game_record, load_record, match_record
    from tavli.play.record import load as load_record_file
    from tavli.play.record import save as save_record

__version__ = "0.1.0"

# name -> (module, attribute): loaded on first use (they import NumPy)
_LAZY: dict[str, tuple[str, str]] = {
    **{n: ("tavli.engine.board", n) for n in ("Position", "Move", "parse_dice")},
    **{n: ("tavli.play.game", n) for n in ("Game", "Outcome")},
    "Match": ("tavli.play.match", "Match"),
    **{n: ("tavli.play.record", n) for n in ("game_record", "match_record", "load_record")},
    "save_record": ("tavli.play.record", "save"),
    "load_record_file": ("tavli.play.record", "load"),
    **{n: ("tavli.play.players", n)
       for n in ("Player", "RandomPlayer", "GreedyPlayer", "play_game")},
    **{n: ("tavli.ai.neural", n)
       for n in ("NeuralPlayer", "LevelPlayer", "PubevalPlayer", "rank_moves")},
    "Analyzer": ("tavli.ai.analyzer", "Analyzer"),
    "rules_for": ("tavli.engine.catalog", "rules_for"),
    "new_game": ("tavli.play.catalog", "new_game"),
    "Net": ("tavli.ai.net", "Net"),
    "Evaluator": ("tavli.ai.evaluator", "Evaluator"),
    "cube_decision": ("tavli.ai.cubeplay", "cube_decision"),
    "CubeDecision": ("tavli.play.cube.cubeful", "CubeDecision"),
    **{n: ("tavli.play.cube.info", n) for n in ("CubeInfo", "Owner")},
}

__all__ = [
    "Position", "Move", "parse_dice",
    "Variant", "VARIANTS", "find_variant", "find_game", "games", "rules_for", "new_game",
    "Rules",
    "Game", "Outcome", "Match",
    "game_record", "match_record", "load_record", "save_record", "load_record_file",
    "Player", "RandomPlayer", "GreedyPlayer", "play_game",
    "NeuralPlayer", "LevelPlayer", "PubevalPlayer", "Analyzer", "rank_moves", "Net",
    "Evaluator", "cube_decision", "CubeDecision", "CubeInfo", "Owner",
    "TavliError", "ParseError", "IllegalMove", "InvalidPosition", "RuleError", "GameOver",
    "WrongState", "RecordError", "OptionError", "CliError", "NetError", "DistillError",
    "TrainingError", "BearoffError", "StoreError", "AccessDenied", "StaleAction",
    "DiceProofError", "RecordShapeError", "RulesError", "ClockError", "ProtocolError",
    "ServeError", "ApiError",
]


def __getattr__(name: str) -> Any:
    """Load a name that needs NumPy on first use (and keep it)."""
    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(import_module(module, __name__), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
