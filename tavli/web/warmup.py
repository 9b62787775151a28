"""Warming the engine while the app already serves (``tavli play``), and saying how far it
is (``GET /api/warmup``: the page's progress bar).

The compiled kernels (Numba, ``cache=True``) are compiled on their first use and kept in
Numba's cache on disk; the first run compiles them, later runs load them (a second or
two). The work comes in named parts (:mod:`tavli.ai.warmup`): the server process prepares
its own (the move generator, the turn's steps, Dama's moves) in a thread, and each worker
process prepares the AI's stage by stage as it starts (:func:`tavli.web.workers.warm`);
a lock per part keeps two processes from compiling the same part at once, so the first
run's compiling is spread over the cores. Each process marks a part done in the run's
progress folder (``TAVLI_WARM_PROGRESS``, inherited by the workers), which
:class:`WarmUp` reads. The page, the list of games and every request that needs no
kernel answer meanwhile; the page shows the progress bar while a cold cache is prepared.

:func:`cache_is_cold` is a minimal check of Numba's cache (are the move generator's and
the search's compiled kernels there?), only to tell the user why the first start is slow.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tavli.ai.warmup import SERVER_PARTS, Part, all_parts, mark_done, prepare
from tavli.web.workers import EnginePool

ROOT = Path(__file__).resolve().parent.parent  # the tavli package
KERNELS = (("movegen", ROOT / "engine" / "__pycache__"),
           ("steptree", ROOT / "engine" / "__pycache__"),
           ("search", ROOT / "ai" / "__pycache__"), ("dama", ROOT / "ai" / "__pycache__"))
COMPILING = ("tavli: first run: compiling the engine, once (the page works meanwhile and "
             "shows how far it is)")
PROGRESS_ENV = "TAVLI_WARM_PROGRESS"


def _cache_dirs(modules: tuple[str, ...] | None = None) -> list[tuple[str, Path, bool]]:
    """``(module, folder, recursive)`` where Numba keeps each module's cached kernels
    (``modules``: those of :data:`KERNELS` to look for; default all):
    ``$NUMBA_CACHE_DIR`` (a tree mirroring the sources) when set, else the module's
    ``__pycache__`` or, for a read-only install, the user's cache."""
    kernels = [(n, f) for n, f in KERNELS if modules is None or n in modules]
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return [(name, Path(env), True) for name, _ in kernels]
    # the user-wide cache: ~/.cache/ and Numba's folder name, lower-cased here (a module
    # naming the package in lower case counts as a kernel source for the cache stamp, so
    # editing it would throw the compiled kernels away)
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "NUMBA".lower()
    out = []
    for name, folder in kernels:
        out.append((name, folder, False))
        if not os.access(folder.parent, os.W_OK):
            out.append((name, user, True))
    return out


def cache_is_cold(modules: tuple[str, ...] | None = None) -> bool:
    """True when a kernel module (of ``modules``, names of :data:`KERNELS`; default
    all) has no compiled kernel in Numba's cache (the first run compiles them)."""
    found: dict[str, bool] = {}
    for name, folder, recursive in _cache_dirs(modules):
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
    return prepare(SERVER_PARTS)


class WarmUp:
    """The app's warm-up and how far it is: which parts are done (in any process of this
    run), whether the cache was cold when it started."""

    def __init__(self, progress: Path, cold: bool) -> None:
        self.progress = progress
        self.cold = cold
        self.parts = all_parts()
        self.started = time.monotonic()

    def done(self) -> set[str]:
        """The parts (function names) done so far."""
        try:
            return {p.stem for p in self.progress.glob("*.done")}
        except OSError:
            return set()

    def status(self) -> dict[str, Any]:
        """What ``GET /api/warmup`` answers: ``ready``, ``cold``, ``done`` of ``total``
        parts, and the next part not done (``key``, ``text``: what is being prepared)."""
        done = self.done()
        left = [p for p in self.parts if p.name not in done]
        out: dict[str, Any] = {"ready": not left, "cold": self.cold,
                               "done": len(self.parts) - len(left), "total": len(self.parts),
                               "seconds": round(time.monotonic() - self.started, 1)}
        if left:
            out.update(key=left[0].key, text=left[0].text)
        return out


def progress_folder() -> Path:
    """A fresh folder for this run's progress marks (named in the environment, so that the
    worker processes, started later, mark theirs there too)."""
    path = Path(tempfile.mkdtemp(prefix="tavli-warm-progress-"))
    os.environ[PROGRESS_ENV] = str(path)
    return path


def start(pool: EnginePool, say: Callable[[str], None] | None = None) -> WarmUp:
    """Warm the server's kernels in a background thread and start the workers (each
    warms its own as it starts); ``say`` is told once when they must be compiled (an empty
    cache). Returns the :class:`WarmUp` that says how far it is."""
    cold = cache_is_cold()
    warm = WarmUp(progress_folder(), cold)

    def run() -> None:
        if say is not None and cold:
            say(COMPILING)
        pool.warm()  # the workers start preparing at once, in parallel with this thread
        warm_server()

    threading.Thread(target=run, name="tavli-warm-up", daemon=True).start()
    return warm


def ready_status() -> dict[str, Any]:
    """What ``GET /api/warmup`` answers when no warm-up runs (tests, embedded apps)."""
    total = len(all_parts())
    return {"ready": True, "cold": False, "done": total, "total": total, "seconds": 0.0}


__all__ = ["start", "warm_server", "cache_is_cold", "COMPILING", "WarmUp", "Part",
           "ready_status", "mark_done", "PROGRESS_ENV"]
