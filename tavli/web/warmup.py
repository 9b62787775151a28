"""Warming the engine while the app already serves (``tavli play``).

The compiled kernels (Numba, ``cache=True``) are compiled on their first use and kept in
Numba's cache on disk; the first run compiles them (about half a minute), later runs
load them (a second or two). :func:`start` does that in the background: the server
process's kernels (the move generator, which every state of a game needs) in a thread,
then the worker processes' (networks, search, Dama AI) in the pool. The page, the list
of games and every request that needs no kernel answer meanwhile; a request that needs
one waits for it (the first AI move may wait for the workers' warm-up).

:func:`cache_is_cold` is a minimal check of Numba's cache (are the move generator's and
the search's compiled kernels there?), only to tell the user why the first start is slow.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tavli.engine.dama.sets import RULE_SETS
from tavli.web.workers import EnginePool

ROOT = Path(__file__).resolve().parent.parent  # the tavli package
KERNELS = (("movegen", ROOT / "engine" / "__pycache__"),
           ("steptree", ROOT / "engine" / "__pycache__"),
           ("search", ROOT / "ai" / "__pycache__"), ("dama", ROOT / "ai" / "__pycache__"))
COMPILING = "tavli: first run: compiling the engine, about 30 s, once (the page works meanwhile)"


def _cache_dirs() -> list[tuple[str, Path, bool]]:
    """``(module, folder, recursive)`` where Numba keeps each module's cached kernels:
    ``$NUMBA_CACHE_DIR`` (a tree mirroring the sources) when set, else the module's
    ``__pycache__`` or, for a read-only install, the user's cache."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return [(name, Path(env), True) for name, _ in KERNELS]
    # the user-wide cache: ~/.cache/ and Numba's folder name, lower-cased here (a module
    # naming the package in lower case counts as a kernel source for the cache stamp, so
    # editing it would throw the compiled kernels away)
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "NUMBA".lower()
    out = []
    for name, folder in KERNELS:
        out.append((name, folder, False))
        if not os.access(folder.parent, os.W_OK):
            out.append((name, user, True))
    return out


def cache_is_cold() -> bool:
    """True when a kernel module has no compiled kernel in Numba's cache (the first run
    compiles them)."""
    found: dict[str, bool] = {}
    for name, folder, recursive in _cache_dirs():
        pattern = f"{name}.*.nbi"
        try:
            hit = any(folder.rglob(pattern) if recursive else folder.glob(pattern))
        except OSError:
            hit = False
        found[name] = found.get(name, False) or hit
    return not all(found.values())


def warm_server() -> float:
    """Compile (or load) the kernels the server process runs for plain requests: the move
    generator and the turn tree's search (:mod:`tavli.engine.steptree`) of every game, Dama's.
    Returns the seconds it took."""
    t = time.perf_counter()
    from tavli.engine.board import Position
    from tavli.engine.games import game_names
    from tavli.engine.rules import Rules
    from tavli.play.dama.game import DamaGame
    from tavli.web.steps import turn_tree

    for name in game_names():
        rules = Rules.for_game(name)
        start = Position.start(rules)
        turn_tree(start, (6, 5), start.legal_moves((6, 5), rules))
    for rules in RULE_SETS:
        DamaGame(rules).legal_moves()
    return time.perf_counter() - t


def start(pool: EnginePool, say: Callable[[str], None] | None = None) -> threading.Thread:
    """Warm the server's kernels, then the workers', in a background thread; ``say`` is
    told once when they must be compiled (an empty cache)."""
    def run() -> None:
        if say is not None and cache_is_cold():
            say(COMPILING)
        try:
            warm_server()
        finally:
            pool.warm()

    t = threading.Thread(target=run, name="tavli-warm-up", daemon=True)
    t.start()
    return t


__all__ = ["start", "warm_server", "cache_is_cold", "COMPILING"]
