"""Keep Numba's on-disk cache in step with the sources.

Numba checks only the file that defines a compiled function: a kernel that calls
functions of another module (the self-play loop calls the encoders, the network and the
move generator) keeps its cached machine code after that other module changes. For a
fresh install this never matters (every file is new); in a working copy it does.
:func:`refresh` compares a stamp of the source files compiled code can depend on (every
module that imports Numba, and every package module those import, transitively: path,
size, time) with the one saved at the last call and, when they differ, deletes the cached
kernels so that they compile again. Editing a module no kernel reaches (the web app, the
terminal UI) keeps the cache. The test suite calls it first (``tests/conftest.py``).

:func:`announce_compile` says so, once, when a kernel is about to be compiled (an empty
cache: the first run compiles for seconds with no output otherwise).

>>> len(sources_stamp())  # a SHA-256 in hex
64
"""

from __future__ import annotations

import ast
import hashlib
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).parent.parent  # the package: kernels live in engine/ and ai/
COMPILE_MESSAGE = "tavli: first run: compiling the engine, once"


def _imports(path: Path, root: Path) -> set[Path]:
    """The package modules ``path`` imports (``from tavli.x import y``, ``import tavli.x``,
    and relative forms), as files under ``root``."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return set()
    out: set[Path] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            stems = [a.name.split(".")[1:] for a in node.names
                     if a.name.split(".")[0] == root.name]
            base = root
        elif isinstance(node, ast.ImportFrom):
            base, parts = _from_base(node, path, root)
            if base is None:
                continue
            stems = [parts] if parts else []
            stems += [parts + [a.name] for a in node.names]
        else:
            continue
        for stem in stems:
            for cand in (base.joinpath(*stem).with_suffix(".py") if stem else None,
                         base.joinpath(*stem, "__init__.py")):
                if cand is not None and cand.is_file() and root in cand.parents:
                    out.add(cand)
    return out


def _from_base(node: ast.ImportFrom, path: Path, root: Path) -> tuple[Path | None, list[str]]:
    """Where a ``from X import ...`` of ``path`` starts, as a folder and the names below it
    (None for a module outside the package)."""
    parts = node.module.split(".") if node.module else []
    if node.level:
        base = path.parent
        for _ in range(node.level - 1):
            base = base.parent
        return base, parts
    if parts and parts[0] == root.name:
        return root, parts[1:]
    return None, []


_NUMBA_IMPORT = re.compile(r"^\s*(?:import\s+numba\b|from\s+numba\b)", re.MULTILINE)


def kernel_sources(root: Path = ROOT) -> list[Path]:
    """The ``.py`` files compiled code can depend on: those that import Numba and the
    package modules they import, transitively."""
    todo = [p for p in root.rglob("*.py")
            if _NUMBA_IMPORT.search(p.read_text(encoding="utf-8"))]
    seen: set[Path] = set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo.extend(_imports(p, root) - seen)
    return sorted(seen)


def sources_stamp(root: Path = ROOT) -> str:
    """A digest of :func:`kernel_sources`: relative path, size and modification time."""
    h = hashlib.sha256()
    for path in kernel_sources(root):
        st = path.stat()
        h.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def refresh(root: Path = ROOT) -> bool:
    """Delete Numba's cached kernels under ``root`` if any source changed since the last
    call. Returns True when it deleted (or found nothing to compare with)."""
    stamp = root / "__pycache__" / "numba-sources.stamp"
    now = sources_stamp(root)
    try:
        if stamp.read_text() == now:
            return False
    except OSError:
        pass
    for cache in list(root.rglob("*.nbi")) + list(root.rglob("*.nbc")):
        try:
            cache.unlink()
        except OSError:
            pass
    try:
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(now)
    except OSError:
        pass  # a read-only install: nothing to keep in step
    return True


class _FirstCompile:
    """Numba compile-event listener that calls its callback at the first compile only."""

    def __init__(self) -> None:
        self.say: Callable[[], None] | None = None
        self.fired = False

    def start(self) -> None:
        if not self.fired and self.say is not None:
            self.fired = True
            self.say()


_first_compile: _FirstCompile | None = None


def _print_message() -> None:
    print(COMPILE_MESSAGE, file=sys.stderr, flush=True)


def announce_compile(say: Callable[[], None] | None = None) -> None:
    """From now on, when Numba starts compiling a kernel in this process, call ``say``
    (default: print :data:`COMPILE_MESSAGE` on stderr) before it compiles, once per process.

    Numba reports a compile only when its on-disk cache holds no machine code for the
    kernel (first run, an edited source, another Numba version; it honours
    ``NUMBA_CACHE_DIR``), so a warm cache says nothing. Calling this again replaces
    ``say`` and arms it again. Imports Numba."""
    global _first_compile
    if _first_compile is None:
        from numba.core import event

        first = _FirstCompile()

        class Listener(event.Listener):
            def on_start(self, ev: event.Event) -> None:
                first.start()

            def on_end(self, ev: event.Event) -> None:
                pass

        event.register("numba:compile", Listener())
        _first_compile = first
    _first_compile.say = say or _print_message
    _first_compile.fired = False
