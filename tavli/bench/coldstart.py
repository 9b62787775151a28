"""``tavli bench coldstart``: what a new user waits for on the first run, from an empty
Numba cache.

Every figure comes from a child process of its own with its own fresh, empty, temporary
Numba cache folder (``NUMBA_CACHE_DIR``; the user's cache is never read or written), as a
user who starts with that game meets it: ``import tavli``; for each game the first
legal-move list, then the first hint (the page's default: the expert level's ply;
backgammon's cube hint too), and in another child the first legal-move list then the
first AI move (the default level; backgammon's cube decision before it), each with wall
and CPU seconds. Each is measured twice: compiled in that one process on first use
(``serial``), and prepared first as ``tavli hint`` does (``parallel``: the kernels that
game needs compiled stage by stage in one process per core, :func:`tavli.ai.warmup.needs`);
one hint more is prepared as the app's workers do (``app``: every game's kernels, for
the app does not know which game comes first). The
bear-off databases are the user's (built once, outside Numba's cache). A last child
prepares everything the app prepares on its first start (:func:`tavli.ai.warmup.prepare`)
in one more empty cache, in one process: all compiling together.
Each child records every compile Numba makes (its ``numba:compile`` events), and the
compile time of each compiled function (dispatcher, its own time without the functions
it compiled inside) is printed largest first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from tavli.bench.ai import machine

GAMES = ("portes", "plakoto", "fevga", "backgammon", "dama")
TARGET_WALL = 10.0   # seconds: the first hint and the first AI move of any game (issue #31)
TARGET_CPU = 30.0    # seconds of CPU: all compiling together


class CompileClock:
    """Numba compile-event listener: wall and CPU seconds of each compile, by dispatcher,
    its own time only (a function compiled while another compiles counts for itself)."""

    def __init__(self) -> None:
        self.stack: list[list[Any]] = []    # [name, wall0, cpu0, child wall, child cpu]
        self.own: dict[str, list[float]] = {}  # name -> [wall, cpu, compiles]

    def start(self, name: str) -> None:
        self.stack.append([name, time.perf_counter(), time.process_time(), 0.0, 0.0])

    def end(self) -> None:
        name, w0, c0, cw, cc = self.stack.pop()
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        row = self.own.setdefault(name, [0.0, 0.0, 0])
        row[0] += wall - cw
        row[1] += cpu - cc
        row[2] += 1
        if self.stack:
            self.stack[-1][3] += wall
            self.stack[-1][4] += cpu

    def install(self) -> None:
        from numba.core import event

        clock = self

        class Listener(event.Listener):
            def on_start(self, ev: event.Event) -> None:
                d = ev.data["dispatcher"]
                clock.start(f"{d.py_func.__module__}.{d.py_func.__qualname__}")

            def on_end(self, ev: event.Event) -> None:
                clock.end()

        event.register("numba:compile", Listener())


def _timed(label: str, fn: Callable[[], Any], steps: list[dict[str, Any]]) -> Any:
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    steps.append({"step": label, "wall": time.perf_counter() - w,
                  "cpu": time.process_time() - c})
    return out


def _dice_game(name: str, part: str, steps: list[dict[str, Any]]) -> None:
    """The first moves, then the first hint or (``part`` "ai") AI move of a game with
    dice, in this process."""
    from tavli.ai.analyzer import Analyzer
    from tavli.ai.context import EvalContext
    from tavli.ai.levels import DEFAULT_LEVEL, LEVELS
    from tavli.ai.neural import NeuralPlayer
    from tavli.engine.board import Position
    from tavli.engine.rules import Rules
    from tavli.play.game import Game

    rules = Rules.for_game(name)
    pos = Position.start(rules)
    moves = _timed("first legal moves", lambda: pos.legal_moves((3, 1), rules), steps)
    plies = LEVELS[DEFAULT_LEVEL].plies

    def hint() -> None:  # as the page's and `tavli hint`'s: the moves, the position's valuer
        an = Analyzer(rules)
        an.rank(pos, list(moves), EvalContext(plies=plies))
        an.position_valuer(pos)
        if rules.cube:
            from tavli.ai.cubeplay import cube_decision
            cube_decision(pos, rules=rules, ctx=EvalContext(plies=plies))

    if part == "hint":
        _timed("first hint", hint, steps)
        return
    game = Game(rules, seed=2, first=0)

    player = NeuralPlayer()

    def ai_move() -> None:
        if rules.cube:
            player.cube_action(game)
        game.roll()
        while len(game.legal_moves()) < 2:  # a forced move needs no thinking: play on
            game.play(game.legal_moves()[0] if game.legal_moves() else None)
            game.roll()
        player.choose_move_in(game, game.legal_moves())

    _timed("first AI move", ai_move, steps)


def _dama(steps: list[dict[str, Any]]) -> None:
    """Dama's first moves and AI move (the app's: the default level within its budget)."""
    from tavli.ai.dama import Searcher
    from tavli.play.dama.game import DamaGame

    g = DamaGame()
    _timed("first legal moves", g.legal_moves, steps)
    _timed("first AI move", lambda: Searcher(g.rules).search(g.position, "default",
                                                             budget=3.0), steps)


def child(what: str, imported: tuple[float, float] = (0.0, 0.0)) -> dict[str, Any]:
    """The measurements of one child process: ``what`` is ``GAME:hint:HOW`` or
    ``GAME:ai:HOW`` (``HOW``: ``serial``, every kernel compiled in this process on first
    use; ``parallel``, the game's needs prepared first as ``tavli hint`` does:
    :func:`tavli.ai.warmup.prepare_parallel`; ``app``, every game's, as the app does), or
    ``all``; ``imported``: the wall and CPU seconds ``import tavli`` took before."""
    steps: list[dict[str, Any]] = [{"step": "import tavli", "wall": imported[0],
                                    "cpu": imported[1]}]
    clock = CompileClock()
    clock.install()
    if what == "all":
        from tavli.ai.warmup import prepare
        _timed("everything the app prepares", prepare, steps)
        return {"what": what, "steps": steps, "compiles": clock.own}
    game, part, how = what.split(":")
    if how in ("parallel", "app"):
        from tavli.ai.warmup import NEEDS, needs, prepare_parallel
        kind = "dama" if game == "dama" else "dice"
        stages = needs(game) if how == "parallel" and kind == "dice" else NEEDS[kind]
        wall, cpu = prepare_parallel(stages=stages)  # CPU: the helper processes'
        steps.append({"step": "prepared in parallel", "wall": wall, "cpu": cpu})
    if game == "dama":
        _dama(steps)
    else:
        _dice_game(game, part, steps)
    return {"what": what, "steps": steps, "compiles": clock.own}


#: a child's program: ``import tavli`` timed first, in a fresh interpreter
CHILD = """import time
w, c = time.perf_counter(), time.process_time()
import tavli
imported = (time.perf_counter() - w, time.process_time() - c)
import json, tavli.bench.coldstart as cs
print(json.dumps(cs.child({what!r}, imported)))
"""


def run_child(what: str) -> dict[str, Any]:
    """:func:`child` in a fresh interpreter with a fresh, empty Numba cache folder."""
    with tempfile.TemporaryDirectory(prefix="tavli-coldstart-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        w = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", CHILD.format(what=what)],
            env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - w
    if proc.returncode != 0:
        raise RuntimeError(f"coldstart {what}: {proc.stderr.strip()[-2000:]}")
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    res["process_wall"] = wall
    return res


def _print_compiles(res: dict[str, Any], out: Callable[[str], None], top: int) -> None:
    rows = sorted(res["compiles"].items(), key=lambda kv: -kv[1][1])
    total_w = sum(r[0] for _, r in rows)
    total_c = sum(r[1] for _, r in rows)
    out(f"  compiling: {total_w:.1f} s wall, {total_c:.1f} s CPU, {len(rows)} functions, "
        f"{sum(r[2] for _, r in rows)} compiles (own time of each, largest first)")
    for name, (w, c, n) in rows[:top]:
        out(f"    {w:7.2f} {c:7.2f}  {n:3d}x  {name}")
    if len(rows) > top:
        rest = rows[top:]
        out(f"    {sum(r[0] for _, r in rest):7.2f} {sum(r[1] for _, r in rest):7.2f}  "
            f"       {len(rest)} more")


def bench_coldstart(games: tuple[str, ...] = GAMES, top: int = 12,
                    out: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure and print the first run of each game and of the app's whole warm-up."""
    out(f"tavli bench coldstart: each game in a fresh process with an empty Numba cache; "
        f"{machine()}")
    out(f"  {'':<30} {'wall s':>8} {'CPU s':>8}")
    results: dict[str, Any] = {}
    worst = {"parallel": 0.0, "app": 0.0}
    children = [f"{g}:{part}:{how}" for g in games for part in ("hint", "ai")
                for how in ("serial", "parallel")
                if not (g == "dama" and part == "hint")]  # Dama has no hint
    children += [f"{g}:hint:app" for g in games if g != "dama"][-1:]  # the same for all
    for what in (*children, "all"):
        res = results[what] = run_child(what)
        out(f"{what if what != 'all' else 'all the app prepares, in one process'}  "
            f"(process {res['process_wall']:.1f} s wall):")
        for s in res["steps"]:
            out(f"  {s['step']:<30} {s['wall']:8.2f} {s['cpu']:8.2f}")
        if what != "all":
            answered = sum(s["wall"] for s in res["steps"])
            out(f"  {'answered after':<30} {answered:8.2f}")
            how = what.rsplit(":", 1)[1]
            if how in worst:
                worst[how] = max(worst[how], answered)
        if what.endswith((":parallel", ":app")):
            out("  compiling: in the helper processes (the CPU above; the functions: the "
                "serial line)")
        else:
            _print_compiles(res, out, top)
    cpu = sum(r[1] for r in results["all"]["compiles"].values())
    out(f"target: first hint and first AI move <= {TARGET_WALL:g} s wall, prepared as tavli "
        f"hint does (worst {worst['parallel']:.1f} s; every game's, as the app: "
        f"{worst['app']:.1f} s), all compiling <= {TARGET_CPU:g} s CPU ({cpu:.1f} s); "
        f"{machine()}")
    return results


__all__ = ["bench_coldstart", "child", "run_child", "CompileClock", "GAMES"]
