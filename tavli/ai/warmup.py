"""Preparing the engine: every compiled kernel a request can reach, compiled (or loaded
from Numba's cache) before a request needs it.

The work is a list of named parts in stages (:data:`STAGES`): the parts of a stage are
independent of each other and compile in parallel, one process each
(:func:`prepare_parallel`); a later stage links what the earlier ones compiled, loaded
from Numba's cache (a kernel loaded from the cache is not typed again, only linked into
the kernels that call it). A first run pays the compiling once, spread over the cores, and
the hint's own kernels come first.

Each part runs under a lock shared by every process of this cache (:func:`part_lock`), so
that the app's server process and its workers never compile the same part twice at once:
the second waits, then loads it. Each part has a message key of the catalogues
(``warm.*``) and its English text, so whoever prepares it can say what is being prepared
(the app's progress bar, the command line's).

>>> [p.key for p in STAGES[0]]
['warm.movegen', 'warm.encoders', 'warm.valuers', 'warm.search']
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path


@dataclass(frozen=True)
class Part:
    """One part of the preparation: its message key, its English text, the function (a
    name of this module, so that another process can run it) and, for a part that can
    be done for one game alone (:func:`needs`), that game (empty: every game)."""

    key: str
    text: str
    run: str
    game: str = ""

    @property
    def name(self) -> str:
        """Its name for locks and progress marks (the function's, and the game's)."""
        return f"{self.run}-{self.game}" if self.game else self.run

    def __call__(self) -> None:
        with part_lock(self.name):
            self.work()

    def work(self) -> None:
        """The part's work, without its lock; then it is marked done."""
        globals()[self.run](*((self.game,) if self.game else ()))
        mark_done(self.name)


# --- the parts ------------------------------------------------------------------------------

def _dice_rules():
    from tavli.engine.board import Position
    from tavli.engine.games import game_names
    from tavli.engine.rules import Rules

    for name in game_names():
        rules = Rules.for_game(name)
        yield rules, Position.start(rules)


def movegen() -> None:
    """The move generator of every game with dice (the legal-move lists; the searches call
    the same compiled generator by address)."""
    for rules, start in _dice_rules():
        start.legal_moves((6, 5), rules)


def steptree() -> None:
    """The page's turn tree (every order of a move's steps), a move's steps played one by
    one (the last move's frames, a move's text read step by step) and a game's end (the
    verdict after every move): what playing a move runs besides the move generator."""
    import numpy as np

    from tavli.engine.movegen import apply_step, step_code
    from tavli.engine.steptree import search
    from tavli.play.game import base_result

    for rules, start in _dice_rules():
        search(start, (6, 5), start.legal_moves((6, 5), rules))
        board = np.array(start.array, dtype=np.int8)  # as tavli.web.steps copies it
        kernel = start.variant.kernel
        step_code(board, start.turn, 24, 6, kernel)  # every game has checkers there
        apply_step(board, start.turn, 24, 6, kernel)
        base_result(start, rules)


def _analyzers(game: str = ""):
    """An analyzer of each game with dice that has a shipped network (or of ``game``
    alone), with its rules and start."""
    from tavli.ai.analyzer import Analyzer
    from tavli.ai.shipped import has_shipped_net
    from tavli.engine.board import Position
    from tavli.engine.rules import Rules

    chosen = [(r := Rules.for_game(game), Position.start(r))] if game else _dice_rules()
    for rules, start in chosen:
        if has_shipped_net(rules.game):
            yield Analyzer(rules), rules, start


def encoders(game: str = "") -> None:
    """The inputs of every shipped network (each family's encoder and the race
    networks'; ``game``'s alone), which the evaluator calls by address."""
    for an, _, _ in _analyzers(game):
        for weights in (an.evaluator.tables.contact, an.evaluator.tables.race):
            weights.enc.compile()


def valuers(game: str = "") -> None:
    """The evaluator (``evaluate``: a position's class, the networks' forward pass, the
    bear-off databases), compiled from its signature without the encoders it calls by
    address (:func:`encoders` compiles them beside it). One serves every game."""
    first = next(_analyzers(game), None)
    if first is not None:
        first[0].searcher.functions[0].compile()


def search(game: str = "") -> None:
    """The 1-ply search of the hints and AI moves, compiled from its signature without
    running it: what it calls by address (the evaluator, the move generator) compiles
    beside it, in :func:`valuers` and :func:`movegen`. One serves every game."""
    first = next(_analyzers(game), None)
    if first is not None:
        first[0].searcher.compile(1)


def network(game: str = "") -> None:
    """The AI's moves and hints (1-ply, the default level) and its cube decisions (of
    every game, or ``game``'s): what :func:`movegen`, :func:`encoders` and :func:`search`
    compiled, put together."""
    from tavli.ai.context import EvalContext

    for an, rules, start in _analyzers(game):
        an.rank(start, start.legal_moves((6, 5), rules)[:2], EvalContext(plies=1))
        an.position_outputs(start, EvalContext(plies=1))
        an.position_valuer(start)


def deep() -> None:
    """The 2-ply search (the world-class level, the reviews)."""
    from tavli.ai.context import EvalContext

    for an, rules, start in _analyzers():
        an.rank(start, start.legal_moves((6, 5), rules)[:2], EvalContext(plies=2))


def dama_moves() -> None:
    """Dama's move generator, every rule set."""
    from tavli.engine.dama.sets import RULE_SETS
    from tavli.play.dama.game import DamaGame

    for rules in RULE_SETS:
        DamaGame(rules).legal_moves()


def dama_search() -> None:
    """Dama's AI."""
    from tavli.ai.dama import Searcher
    from tavli.engine.dama.sets import RULE_SETS
    from tavli.play.dama.game import DamaGame

    for rules in RULE_SETS:
        # a throwaway search: the first one's speed (loading the kernels) would mislead
        # the time estimate of the searches kept for real moves
        g = DamaGame(rules)
        Searcher(g.rules, tt_bits=10).search(g.position, "depth:3")


MOVEGEN = Part("warm.movegen", "the move generator", "movegen")
ENCODERS = Part("warm.encoders", "the AI's view of the board", "encoders")
VALUERS = Part("warm.valuers", "the AI's judgement of positions", "valuers")
SEARCH = Part("warm.search", "the AI's search", "search")
NETWORK = Part("warm.network", "the AI's moves and hints", "network")
STEPTREE = Part("warm.steptree", "the moves step by step", "steptree")
DAMA_MOVES = Part("warm.dama_moves", "Dama's moves", "dama_moves")
DAMA_SEARCH = Part("warm.dama_search", "Dama's AI", "dama_search")
DEEP = Part("warm.deep", "the deeper analysis", "deep")
#: the parts in stages, most needed first: each stage's parts compile in parallel, the
#: longest first (the four of the first stage share two cores evenly in this order)
STAGES: tuple[tuple[Part, ...], ...] = (
    (MOVEGEN, ENCODERS, VALUERS, SEARCH), (NETWORK, DAMA_MOVES, STEPTREE, DAMA_SEARCH),
    (DEEP,))
#: what the app's server process runs itself (plain requests: a game's legal moves)
SERVER_PARTS = (MOVEGEN, STEPTREE, DAMA_MOVES)
#: what an online server process runs for every action (`tavli serve`: no Dama online)
ONLINE_PARTS = (MOVEGEN, STEPTREE)
#: the stages a first hint or AI move needs, by kind of game (every game of the kind)
NEEDS: dict[str, tuple[tuple[Part, ...], ...]] = {
    "dice": (STAGES[0], (NETWORK,)), "dama": ((DAMA_MOVES,), (DAMA_SEARCH,))}


def needs(game: str) -> tuple[tuple[Part, ...], ...]:
    """The stages a first hint or AI move of ``game``, a game with dice, needs (``tavli
    hint``): only its own network's encoders and moves (the other families' encoders are
    a third of the work); every game's when ``game`` names none (:data:`NEEDS`).

    >>> [[p.name for p in stage] for stage in needs("fevga")]
    [['movegen', 'encoders-fevga', 'valuers-fevga', 'search-fevga'], ['network-fevga']]
    """
    from tavli.engine.games import find_variant

    try:
        find_variant(game)
    except ValueError:  # not a game with dice (tavli.errors.ParseError)
        return NEEDS["dice"]
    own = lambda part: replace(part, game=game)  # noqa: E731
    return ((MOVEGEN, own(ENCODERS), own(VALUERS), own(SEARCH)), (own(NETWORK),))


def all_parts() -> list[Part]:
    """Every part, stage after stage."""
    return [p for stage in STAGES for p in stage]


# --- running them ---------------------------------------------------------------------------

def _lock_dir() -> Path:
    """One folder of locks per Numba cache (``NUMBA_CACHE_DIR``, else this install's)."""
    where = os.environ.get("NUMBA_CACHE_DIR") or str(Path(__file__).resolve().parent.parent)
    digest = hashlib.sha256(where.encode()).hexdigest()[:12]
    user = os.getuid() if hasattr(os, "getuid") else 0
    path = Path(tempfile.gettempdir()) / f"tavli-warm-{user}-{digest}"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _lock_fd(name: str) -> int | None:
    try:
        return os.open(_lock_dir() / f"{name}.lock", os.O_CREAT | os.O_RDWR, 0o600)
    except OSError:
        return None


@contextlib.contextmanager
def part_lock(name: str, wait: bool = True) -> Iterator[bool]:
    """Hold the lock of part ``name`` shared by every process of this cache (a process
    that finds it taken waits, then loads what the other compiled); yields True. With
    ``wait`` False it yields False at once when another process holds it. Without
    ``fcntl`` (Windows) there is no lock: two processes may then compile the same part."""
    try:
        import fcntl
    except ImportError:
        yield True
        return
    fd = _lock_fd(name)
    if fd is None:
        yield True
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)  # closing releases the lock


def mark_done(name: str) -> None:
    """Mark part ``name`` done in this run's progress folder (``TAVLI_WARM_PROGRESS``, the
    app's: its page shows how far the warm-up is), if there is one."""
    folder = os.environ.get("TAVLI_WARM_PROGRESS")
    if folder:
        try:
            (Path(folder) / f"{name}.done").touch()
        except OSError:
            pass


def prepare_stages(stages: tuple[tuple[Part, ...], ...] = STAGES) -> float:
    """Run ``stages`` in this process, sharing the work with the other processes doing
    the same (the app's workers): in each stage, first the parts no other process is
    preparing, then the others (waiting for them, then loading them). Returns the
    seconds it took."""
    t = time.perf_counter()
    for stage in stages:
        busy = []
        for part in stage:
            with part_lock(part.name, wait=False) as mine:
                if mine:
                    part.work()
                else:
                    busy.append(part)
        for part in busy:
            part()
    return time.perf_counter() - t


def run_part(part: Part) -> float:
    """Run ``part`` (in a worker process too). Returns the CPU seconds it took."""
    t = time.process_time()
    part()
    return time.process_time() - t


Step = Callable[[int, int, Part], None]


def prepare(parts: Iterable[Part] | None = None, step: Step | None = None) -> float:
    """Run ``parts`` (default: all) in this process, one after another, telling
    ``step(done, total, part)`` before each. Returns the seconds it took."""
    parts = list(all_parts() if parts is None else parts)
    t = time.perf_counter()
    for i, part in enumerate(parts):
        if step is not None:
            step(i, len(parts), part)
        part()
    return time.perf_counter() - t


def _start_method() -> str:
    """How the helper processes start: forked from this one on Linux when it runs no
    other thread (they skip importing the engine again: half a second of a first hint),
    else spawned (forking a process with threads may copy a lock some thread holds)."""
    import sys
    import threading

    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


def prepare_parallel(processes: int | None = None, step: Step | None = None,
                     stages: tuple[tuple[Part, ...], ...] = STAGES) -> tuple[float, float]:
    """Run every stage's parts in up to ``processes`` worker processes (default: the
    cores), stage after stage, and load them in this process: each stage while the
    workers compile the next (a stage of fewer parts than cores leaves a core for it),
    the last at the end. ``step(done, total, part)`` is told as each part finishes in a
    worker (``part``: the one just done). Returns the wall seconds it took and the CPU
    seconds of the worker processes."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    t = time.perf_counter()
    total = sum(len(s) for s in stages)
    done, cpu = 0, 0.0
    workers = processes or min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                               else (os.cpu_count() or 1), 4)
    compiled: tuple[Part, ...] = ()
    with ProcessPoolExecutor(max(1, workers), mp_context=get_context(_start_method())) as pool:
        for stage in stages:
            futures = {pool.submit(run_part, p): p for p in stage}
            for part in compiled:  # in the cache now: loading it costs little
                part()
            for f in as_completed(futures):
                cpu += f.result()
                done += 1
                if step is not None:
                    step(done, total, futures[f])
            compiled = stage
    for part in compiled:
        part()
    return time.perf_counter() - t, cpu


__all__ = ["Part", "STAGES", "SERVER_PARTS", "ONLINE_PARTS", "NEEDS", "needs", "all_parts",
           "part_lock",
           "run_part", "prepare", "prepare_parallel", "prepare_stages", "mark_done"]
