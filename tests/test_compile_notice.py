"""A first run says that it compiles (else it looks hung for half a minute); a warm cache
says nothing; ``tavli --help`` stays light (no NumPy, no Numba)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from numba import njit

from tavli.engine.numba_cache import COMPILE_MESSAGE, announce_compile

ROOT = Path(__file__).parent.parent


def _tavli(args, cache_dir, timeout=600):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "tavli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_first_run_says_it_compiles_and_a_warm_cache_says_nothing(tmp_path):
    args = ["moves", "portes", "start", "--dice", "31"]
    first = _tavli(args, tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stderr == COMPILE_MESSAGE + "\n"
    assert first.stdout.splitlines()[:2] == ["24/21 24/23", "24/20"]
    assert list(tmp_path.rglob("*.nbi"))  # the kernels went to NUMBA_CACHE_DIR
    again = _tavli(args, tmp_path)
    assert again.returncode == 0 and again.stderr == ""
    assert again.stdout == first.stdout


def test_bad_input_on_a_cold_cache_is_still_one_line(tmp_path):
    res = _tavli(["moves", "portes", "start", "--dice", "71"], tmp_path)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith("tavli: error: ") and res.stderr.count("\n") == 1


def test_announce_fires_once_at_the_first_compile():
    said: list[str] = []
    announce_compile(lambda: said.append("compiling"))
    try:
        @njit
        def double(x):
            return 2 * x

        @njit
        def triple(x):
            return 3 * x

        assert said == []               # nothing compiled yet
        assert double(2) == 4 and said == ["compiling"]
        assert triple(np.float64(1.5)) == 4.5 and said == ["compiling"]  # once
    finally:
        announce_compile(lambda: None)


def test_help_imports_neither_numpy_nor_numba():
    code = ("import sys\nfrom tavli.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted({'numpy', 'numba'} & set(sys.modules)))")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[-1] == "[]"


def test_worker_processes_do_not_compile_again(tmp_path):
    """``bench strength --jobs 2`` plays its first pair in the main process, which compiles
    (and says so once); the worker processes load the kernels from the cache."""
    res = _tavli(["bench", "strength", "greedy", "random", "--game", "portes", "--games", "6",
                  "--jobs", "2"], tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stderr == COMPILE_MESSAGE + "\n"
    assert "6 games" in res.stdout
