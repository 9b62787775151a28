"""How many threads the BLAS behind NumPy uses, set while the process runs.

Fitting (:mod:`tavli.training.fitting`) multiplies batches of 512 positions by matrices of a few
hundred by a few hundred: too small for threads to pay, and on a machine whose cores are
busy with other work the threads wait on each other. One thread made an epoch about ten
times faster than OpenBLAS's default (a thread per core) on this project's shared 2-core
machine (docs/ai.md, "Supervised rounds"). ``OPENBLAS_NUM_THREADS`` only counts before
NumPy is loaded, so :func:`blas_threads` asks the loaded OpenBLAS library itself (found
in the process's memory map; Linux). Elsewhere, or with another BLAS, it changes nothing.

>>> with blas_threads(1):
...     pass
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_PREFIXES = ("scipy_openblas_", "openblas_")
_SUFFIXES = ("64_", "_64_", "")


def _openblas() -> list[tuple[ctypes._CFuncPtr, ctypes._CFuncPtr]]:
    """(get, set) thread-count functions of each OpenBLAS loaded in this process."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return []
    paths = sorted({ln.split()[-1] for ln in maps.splitlines()
                    if "openblas" in ln.lower() and ln.split()[-1].startswith("/")})
    found = []
    for p in paths:
        try:
            lib = ctypes.CDLL(p)
        except OSError:
            continue
        for pre in _PREFIXES:
            for suf in _SUFFIXES:
                get = getattr(lib, f"{pre}get_num_threads{suf}", None)
                set_ = getattr(lib, f"{pre}set_num_threads{suf}", None)
                if get is not None and set_ is not None:
                    get.restype = ctypes.c_int
                    set_.argtypes = [ctypes.c_int]
                    found.append((get, set_))
                    break
            else:
                continue
            break
    return found


@contextmanager
def blas_threads(n: int) -> Iterator[None]:
    """Run the block with OpenBLAS limited to ``n`` threads (restored after)."""
    libs = _openblas()
    before = [get() for get, _ in libs]
    for _, set_ in libs:
        set_(n)
    try:
        yield
    finally:
        for (_, set_), k in zip(libs, before, strict=True):
            set_(k)
