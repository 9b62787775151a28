"""Preparing the engine: every compiled kernel a request can reach, compiled (or loaded
from Numba's cache) before a request needs it.

The work is a list of named parts (:func:`server_parts`: what a plain request of the app
runs in its server process; :func:`worker_parts`: what the AI and the hints run), so that
whoever prepares them can say which part is being prepared (the app's progress bar, the
command line's): each part has a message key of the catalogues (``warm.*``) and its
English text.

>>> [p.key for p in server_parts()][:2]
['warm.movegen', 'warm.steptree']
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Part:
    """One part of the preparation: its message key, its English text, the work."""

    key: str
    text: str
    run: Callable[[], None]
    game: str | None = None   # the game's name the text names ({game}), if any


def _movegen() -> None:
    from tavli.engine.board import Position
    from tavli.engine.games import game_names
    from tavli.engine.rules import Rules

    for name in game_names():
        rules = Rules.for_game(name)
        Position.start(rules).legal_moves((6, 5), rules)


def _steptree() -> None:
    from tavli.engine.board import Position
    from tavli.engine.games import game_names
    from tavli.engine.rules import Rules
    from tavli.engine.steptree import search

    for name in game_names():
        rules = Rules.for_game(name)
        start = Position.start(rules)
        search(start, (6, 5), start.legal_moves((6, 5), rules))


def _dama_moves() -> None:
    from tavli.engine.dama.sets import RULE_SETS
    from tavli.play.dama.game import DamaGame

    for rules in RULE_SETS:
        DamaGame(rules).legal_moves()


def _network(name: str) -> Callable[[], None]:
    def run() -> None:
        from tavli.ai.analyzer import Analyzer
        from tavli.ai.context import EvalContext
        from tavli.engine.board import Position
        from tavli.engine.rules import Rules

        rules = Rules.for_game(name)
        pos = Position.start(rules)
        moves = pos.legal_moves((6, 5), rules)
        an = Analyzer(rules)
        an.rank(pos, moves[:2], EvalContext(plies=2))
        an.position_outputs(pos, EvalContext(plies=1))
    return run


def _dama_search() -> None:
    from tavli.ai.dama import Searcher
    from tavli.engine.dama.sets import RULE_SETS
    from tavli.play.dama.game import DamaGame

    for rules in RULE_SETS:
        g = DamaGame(rules)
        Searcher(g.rules, tt_bits=10).search(g.position, "depth:3")


def server_parts() -> list[Part]:
    """What the app's server process runs for plain requests: the move generator and the
    turn tree's search of every game, Dama's moves."""
    return [Part("warm.movegen", "the move generator", _movegen),
            Part("warm.steptree", "the turn's steps", _steptree),
            Part("warm.dama_moves", "Dama's moves", _dama_moves)]


def worker_parts() -> list[Part]:
    """What the AI, the hints and the reviews run: the move generator, each network at
    every ply, Dama's search."""
    from tavli.ai.shipped import has_shipped_net
    from tavli.engine.games import game_names
    from tavli.engine.rules import Rules

    parts = [Part("warm.movegen", "the move generator", _movegen)]
    for name in game_names():
        if has_shipped_net(Rules.for_game(name).game):
            parts.append(Part("warm.network", "the AI for {game}", _network(name), name))
    parts.append(Part("warm.dama_search", "Dama's AI", _dama_search))
    return parts


def run_parts(parts: Iterable[Part],
              step: Callable[[int, int, Part], None] | None = None) -> float:
    """Run ``parts`` in order, telling ``step(done, total, part)`` before each one (and
    ``step(total, total, None)``-like completion is the caller's). Returns the seconds."""
    parts = list(parts)
    t = time.perf_counter()
    for i, part in enumerate(parts):
        if step is not None:
            step(i, len(parts), part)
        part.run()
    return time.perf_counter() - t


def prepare(step: Callable[[int, int, Part], None] | None = None) -> float:
    """Prepare everything the app prepares, in this process: the server's parts and the
    workers'. Returns the seconds it took."""
    return run_parts(_unique(server_parts() + worker_parts()), step)


def _unique(parts: list[Part]) -> list[Part]:
    seen: set[tuple[str, str | None]] = set()
    out = []
    for p in parts:
        if (p.key, p.game) not in seen:
            seen.add((p.key, p.game))
            out.append(p)
    return out


__all__ = ["Part", "server_parts", "worker_parts", "run_parts", "prepare"]
