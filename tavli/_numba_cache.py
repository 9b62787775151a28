"""Keep Numba's on-disk cache in step with the sources.

Numba checks only the file that defines a compiled function: a kernel that calls
functions of another module (the self-play loop calls the encoders, the network and the
move generator) keeps its cached machine code after that other module changes. For a
fresh install this never matters (every file is new); in a working copy it does.
:func:`refresh` compares a stamp of every source file of the package (path, size, time)
with the one saved at the last call and, when they differ, deletes the cached kernels
so that they compile again. The test suite calls it first (``tests/conftest.py``).

>>> len(sources_stamp())  # a SHA-256 in hex
64
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).parent


def sources_stamp(root: Path = ROOT) -> str:
    """A digest of the package's ``.py`` files: relative path, size and modification time."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
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
