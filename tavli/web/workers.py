"""The engine's worker processes: AI moves, hints, reviews and the Dama AI (docs/web.md).

The server process answers requests; everything that thinks runs here, in a pool of
worker processes (one per core, at most four, each started with ``spawn``, at a lower
scheduling priority than the server), so that one game's thinking never holds the
server's interpreter lock and never delays another game's request. A worker gets small
picklable inputs (position ID, dice, rule options, level, a record) and answers with
small results (the move chosen, ranked moves, analysed turns); each worker keeps its own
players and networks (they are not shared between threads or processes).

The functions below run in a worker; :class:`EnginePool` is the server's side.

>>> ai_action({"engine": "greedy", "level": "expert", "rules": {"game": "portes"},
...            "position": "AOBz8AEw4HPwATA", "phase": "roll", "dice": None,
...            "cube_value": 1, "cube_owner": None, "can_double": False})
{'action': 'roll'}
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

DAMA_BUDGET = 3.0     # seconds one Dama AI move may think, whatever its level
AI_DEADLINE = 60.0    # seconds the server waits for an AI move or a hint
PART_DEADLINE = 300.0  # seconds for one part of a review
WARM_GRACE = 600.0    # more, while the workers may still be warming up (compiling)
NICE = 5              # workers run at a lower priority than the server process
MAX_WORKERS = 4       # one per core, at most this many (each holds about 200 MB)

_lock = threading.Lock()   # in-process use (tests, the doctest): the caches are not shared
_players: dict[tuple, Any] = {}
_analyzers: dict[Any, Any] = {}
_records: OrderedDict[str, Any] = OrderedDict()
_dama: OrderedDict[tuple, Any] = OrderedDict()


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# --- in a worker ------------------------------------------------------------------------------

def _init(nice: int, warm_up: bool, parent: int) -> None:
    if nice:
        try:
            os.nice(nice)
        except OSError:
            pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us

    def watch() -> None:  # a server killed outright (even as we start) leaves no worker
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="tavli-parent-watch", daemon=True).start()
    if warm_up:
        try:
            _warm_in_worker()
        except Exception:  # noqa: BLE001 - a request then meets the problem and reports it
            pass


def _pid() -> int:
    time.sleep(0.05)  # long enough for the other workers to take the other calls
    return os.getpid()


def warm() -> float:
    """Load the networks and compile (or load from Numba's cache) every kernel a request
    can reach (:data:`tavli.ai.warmup.STAGES`: the move generator, the networks at each
    ply, Dama's search), sharing the compiling with the other workers. Returns the
    seconds it took."""
    from tavli.ai.warmup import prepare_stages

    return prepare_stages()


def _warm_in_worker() -> None:
    """A worker's warm-up: what a hint, an AI move or Dama's AI needs, before the worker
    takes its first call; the rest (the 2-ply search of the reviews and the world-class
    level) in a thread of its own, while the worker already answers."""
    from tavli.ai.warmup import STAGES, prepare_stages

    prepare_stages(STAGES[:-1])
    threading.Thread(target=prepare_stages, args=(STAGES[-1:],), name="tavli-warm-deep",
                     daemon=True).start()


def _player(engine: str, level: str):
    from tavli.ai.neural import NeuralPlayer
    from tavli.play.players import GreedyPlayer

    key = (engine, level)
    p = _players.get(key)
    if p is None:
        p = _players[key] = NeuralPlayer(level) if engine == "neural" else GreedyPlayer()
    return p


def _analyzer(rules):
    from tavli.ai.analyzer import Analyzer

    a = _analyzers.get(rules)
    if a is None:
        a = _analyzers[rules] = Analyzer(rules)
    return a


class _CubeView:
    """What a player's decisions read of a game: the cube, and the match around it (its
    score, from the job's ``match``: :func:`tavli.play.cube.scoring.match_state`), so that
    the AI plays the score as it does outside the app."""

    is_over = False

    def __init__(self, job: dict[str, Any], position, rules) -> None:
        self.phase = job["phase"]
        self.position = position
        self.rules = rules
        self.dice = tuple(job["dice"]) if job.get("dice") else None
        self.cube_value = job["cube_value"]
        self.cube_owner = job["cube_owner"]
        self._can_double = job["can_double"]
        state = job.get("match")
        self.match_play = state is not None
        self.crawford = bool(state and state.get("crawford"))
        self.match = _MatchView(state, self) if state else None

    def can_double(self) -> bool:
        return self._can_double


class _MatchView:
    """What a player reads of a match: target, score, rotation, the game being played."""

    def __init__(self, state: dict[str, Any], game: _CubeView) -> None:
        self.target = int(state["target"])
        self.score = (int(state["score"][0]), int(state["score"][1]))
        self.rotation = tuple(state["rotation"])
        self.opening_each_game = bool(state.get("opening_each_game"))
        self.game = game


def ai_action(job: dict[str, Any]) -> dict[str, Any]:
    """The AI's next action in a backgammon-family game: ``{"action": "take" | "drop" |
    "double" | "roll"}`` or ``{"action": "move", "move": text, "after": position ID}``."""
    from tavli.engine.board import Position
    from tavli.engine.rules import Rules

    with _lock:
        rules = Rules.from_dict(job["rules"])
        pos = Position.from_id(job["position"])
        player = _player(job["engine"], job["level"])
        phase = job["phase"]
        if phase == "double":
            return {"action": player.cube_action(_CubeView(job, pos, rules))}
        if phase == "roll":
            if job["can_double"] and player.cube_action(_CubeView(job, pos, rules)) == "double":
                return {"action": "double"}
            return {"action": "roll"}
        dice = tuple(job["dice"])
        moves = pos.legal_moves(dice, rules)
        move = player.choose_move_in(_CubeView(job, pos, rules), moves)
        if move is None:
            return {"action": "move", "move": None, "after": None}
        return {"action": "move", "move": str(move), "after": move.after.id()}


def quick_action(job: dict[str, Any]) -> dict[str, Any] | None:
    """The AI's action when it needs no thinking (a roll with no cube decision to make),
    for the server to play at once; else None.

    >>> quick_action({"phase": "roll", "can_double": False})
    {'action': 'roll'}
    """
    if job["phase"] == "roll" and not job["can_double"]:
        return {"action": "roll"}
    return None


def hint_moves(job: dict[str, Any]) -> dict[str, Any]:
    """The legal moves of a roll ranked best first: by the network at ``job["ply"]`` (with
    the position's class and the valuer answering for it before the roll; in a match,
    ``job["match"]``, by match winning chances, each move with its ``mwc``, and the
    answer's ``score`` says how the outcomes count), or (``engine`` greedy) by the greedy
    player's score at 0-ply."""
    from tavli.ai.context import EvalContext
    from tavli.engine.board import Position
    from tavli.engine.rules import Rules
    from tavli.play.cube.scoring import weights_from_state

    with _lock:
        rules = Rules.from_dict(job["rules"])
        pos = Position.from_id(job["position"])
        dice = tuple(job["dice"])
        moves = pos.legal_moves(dice, rules)
        if job["engine"] == "neural":
            an = _analyzer(rules)
            score = weights_from_state(job.get("match"), pos.turn)
            ranked = an.rank(pos, list(moves), EvalContext(plies=job["ply"], score=score))
            cls, valuer = an.position_valuer(pos)
            out = {"ply": job["ply"], "class": cls, "evaluator": valuer,
                   "moves": [{**r.to_dict(), "steps": _steps(r.move)} for r in ranked]}
            if not score.is_money:
                out["score"] = score.to_dict()
            return out
        player = _player("greedy", "expert")
        scores = player.evaluate([m.after for m in moves], pos.turn, rules) if moves else []
        order = sorted(range(len(moves)), key=lambda i: -float(scores[i]))
        return {"ply": 0, "moves": [{"move": str(moves[i]), "steps": _steps(moves[i]),
                                     "equity": None, "score": round(float(scores[i]), 4),
                                     "position": moves[i].after.id()} for i in order]}


def _steps(move) -> list[list[Any]]:
    return [[f, t, bool(h)] for f, t, h in move.steps]


def review_part(record: dict[str, Any], key: str, ply: int, start: int,
                stop: int) -> list[Any]:
    """Turns ``start`` to ``stop`` of the record's analysis at ``ply`` and the cube
    decisions before them (:func:`tavli.ai.analysis.analyse_turns`), each with its board
    as a JSON document."""
    from tavli.ai.analysis import analyse_turns
    from tavli.engine.board import Position
    from tavli.play.record import load_record

    with _lock:
        obj = _records.get(key)
        if obj is None:
            obj = _records[key] = load_record(record)
            while len(_records) > 2:
                _records.popitem(last=False)
        turns = analyse_turns(obj, ply, start, stop)
        return [(t, Position.from_id(t.position).to_json()) for t in turns]


def _dama_player(rules: str, huffing: bool):
    """One search (its transposition table: 40 MB) per rule set, the last two kept."""
    from tavli.ai.dama import Searcher
    from tavli.engine.dama.rules import DamaRules

    key = (rules, huffing)
    s = _dama.get(key)
    if s is None:
        s = _dama[key] = Searcher(DamaRules.for_name(rules, huffing))
        while len(_dama) > 2:
            _dama.popitem(last=False)
    _dama.move_to_end(key)
    return s


def dama_move(job: dict[str, Any]) -> dict[str, Any]:
    """The Dama AI's move after the plies played: ``{"move": full notation, "huff":
    square or None}``, within ``job["budget"]`` seconds whatever the level."""
    from tavli.play.dama.game import DamaGame

    with _lock:
        g = DamaGame(job["rules"], huffing=job["huffing"])
        for ply in job["plies"]:
            if ply.startswith("*"):
                g.huff(int(ply[1:]))
            else:
                g.play(ply)
        searcher = _dama_player(g.rules.name, g.rules.huffing)
        res = searcher.search(g.position, job["level"], g._positions, job.get("budget"))
        mv = res.move
        return {"move": mv.notation(g.rules, full=True), "huff": mv.huff,
                "depth": res.depth, "seconds": round(res.seconds, 3)}


# --- in the server ---------------------------------------------------------------------------

class PoolError(Exception):
    """The engine could not answer (too slow, or its worker died): answered as 503."""


class EnginePool:
    """The server's handle on the worker processes (made on first use, made again if a
    worker dies)."""

    def __init__(self, workers: int | None = None, nice: int = NICE,
                 warm_up: bool = True) -> None:
        self.workers = max(1, workers or min(cores(), MAX_WORKERS))
        self.nice = nice
        self.warm_up = warm_up  # each worker warms its kernels when it starts
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._answered = 0  # calls answered: after one per worker, all are warm

    def executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                ctx = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=ctx, initializer=_init,
                    initargs=(self.nice, self.warm_up, os.getpid()))
            return self._executor

    def _broken(self, ex: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is ex:
                self._executor = None
        ex.shutdown(wait=False, cancel_futures=True)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """``fn(*args)`` in a worker; a pool whose worker died is replaced first."""
        for _ in range(2):
            ex = self.executor()
            try:
                fut = ex.submit(fn, *args)
            except BrokenProcessPool:
                self._broken(ex)
                continue
            fut.add_done_callback(lambda f, ex=ex: self._check(f, ex))
            return fut
        raise PoolError("the engine's worker processes cannot start")

    def _check(self, fut: Future, ex: ProcessPoolExecutor) -> None:
        if fut.cancelled():
            return
        if isinstance(fut.exception(), BrokenProcessPool):
            self._broken(ex)
        elif fut.exception() is None:
            self._answered += 1

    def deadline(self, seconds: float) -> float:
        """``seconds``, with :data:`WARM_GRACE` more while the workers may still be
        warming up (the first call of a worker waits for its warm-up)."""
        return seconds + (WARM_GRACE if self._answered < self.workers else 0.0)

    def warm(self, wait: float | None = None) -> bool:
        """Start every worker (each warms its kernels as it starts, before its first
        call). With ``wait``, wait up to that many seconds until each has answered;
        returns whether they all have."""
        deadline = time.monotonic() + (wait or 0.0)
        seen: set[int] = set()
        while True:
            futures = [self.submit(_pid) for _ in range(self.workers)]
            if wait is None:
                return False
            for f in futures:
                try:
                    seen.add(f.result(max(0.0, deadline - time.monotonic())))
                except Exception:  # noqa: BLE001 - a timeout, or a worker that died
                    return False
            if len(seen) >= self.workers:
                return True
            if time.monotonic() > deadline:
                return False

    async def run(self, fn: Callable[..., Any], *args: Any,
                  timeout: float = AI_DEADLINE) -> Any:
        """``fn(*args)`` in a worker, awaited without holding a thread of the server."""
        timeout = self.deadline(timeout)
        fut = self.submit(fn, *args)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(fut), timeout)
        except TimeoutError:
            raise PoolError(f"the engine took more than {timeout:g} s") from None
        except BrokenProcessPool:
            raise PoolError("the engine's worker process stopped; try again") from None

    def call(self, fn: Callable[..., Any], *args: Any, timeout: float = AI_DEADLINE) -> Any:
        """``fn(*args)`` in a worker, waited for in this thread."""
        timeout = self.deadline(timeout)
        fut = self.submit(fn, *args)
        try:
            return fut.result(timeout)
        except TimeoutError:
            fut.cancel()
            raise PoolError(f"the engine took more than {timeout:g} s") from None
        except BrokenProcessPool:
            raise PoolError("the engine's worker process stopped; try again") from None

    def shutdown(self) -> None:
        with self._lock:
            ex, self._executor = self._executor, None
        if ex is not None:
            ex.shutdown(wait=False, cancel_futures=True)


_default: EnginePool | None = None
_default_lock = threading.Lock()


def default_pool() -> EnginePool:
    """The process's shared pool (one per server process, shared by its apps)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = EnginePool()
        return _default


__all__ = ["EnginePool", "PoolError", "default_pool", "cores", "ai_action", "quick_action",
           "hint_moves",
           "review_part", "dama_move", "warm", "DAMA_BUDGET"]
