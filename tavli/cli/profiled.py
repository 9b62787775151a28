"""Run a ``tavli`` command under cProfile in every thread (the server's work is mostly in
its thread pool, which :mod:`cProfile` alone does not see), the statistics of all the
threads merged into one file when it ends (``tavli bench server --profile FILE``)::

    python -m tavli.cli.profiled FILE serve --port 8766 ...
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import threading
from typing import Any

_profiles: list[cProfile.Profile] = []
_lock = threading.Lock()


def _start(*_: Any) -> None:
    """Set as every new thread's profile function: replaces itself with a profiler."""
    p = cProfile.Profile()
    with _lock:
        _profiles.append(p)
    p.enable()


def _dump(path: str) -> None:
    stats: pstats.Stats | None = None
    with _lock:
        profiles = list(_profiles)
    for p in profiles:
        try:
            p.create_stats()
            if stats is None:
                stats = pstats.Stats(p)
            else:
                stats.add(p)
        except Exception:  # noqa: BLE001 - a thread still running: its part is left out
            continue
    if stats is not None:
        stats.dump_stats(path)


def main() -> None:
    path, argv = sys.argv[1], sys.argv[2:]
    threading.setprofile(_start)
    me = cProfile.Profile()
    with _lock:
        _profiles.append(me)
    me.enable()
    from tavli.cli import main as cli

    try:
        code = cli(argv)
    finally:
        me.disable()
        _dump(path)
    sys.exit(code)


if __name__ == "__main__":
    main()
