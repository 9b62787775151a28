"""Every command the CLI offers works on the README's install (no test extras), or says
in one line which extra it needs (issue 31: ``tavli bench server`` stopped with
ModuleNotFoundError: httpx)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the packages of the test and bench extras (pyproject.toml), as imported
EXTRAS = ("httpx", "gnubg_nn", "draughts", "playwright", "pytest", "hypothesis",
          "schemathesis", "jsonschema",
          "axe_playwright_python", "importlinter", "xdist",
          "pettingzoo", "gymnasium", "pyspiel", "open_spiel", "sklearn")
#: where tavli imports one of them, each guarded (the command says what it needs first,
#: or goes on without the reference)
GUARDED = {
    "tavli/online/benchclient.py": {"httpx"},        # bench server: require_extra first
    "tavli/bench/gnubg_ref.py": {"gnubg_nn"},        # None when missing: NOTE printed
    "tavli/bench/movegen.py": {"gnubg_nn"},          # no gnubg column when missing
    "tavli/bench/strength.py": {"gnubg_nn"},         # the gnubg player: one RuleError line
    "tavli/bench/dama.py": {"draughts"},             # "pydraughts not installed: no ratio"
    # the research environments (extra rl): ImportError naming `pip install tavli[rl]`
    "tavli/rl/pettingzoo.py": {"pettingzoo", "gymnasium"},
    "tavli/rl/gym.py": {"gymnasium"},
    "tavli/rl/views.py": {"gymnasium"},
    "tavli/rl/openspiel.py": {"pyspiel", "open_spiel"},
    "tavli/bench/env.py": {"pyspiel"},               # bench env: require_extra (tavli[rl])
}
PLAIN_INSTALL = f"""
import sys
for m in {EXTRAS!r}:
    sys.modules[m] = None  # as if not installed: importing it fails
from tavli.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _imported_extras(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names & set(EXTRAS)


def test_only_guarded_modules_import_an_extra():
    found = {str(p.relative_to(ROOT)): _imported_extras(p)
             for p in (ROOT / "tavli").rglob("*.py")}
    unguarded = {f: n for f, n in found.items() if n and not n <= GUARDED.get(f, set())}
    assert unguarded == {}, "a module imports a test extra without a guard (issue 31)"


def plain(*argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", PLAIN_INSTALL, *argv], capture_output=True,
                          text=True, timeout=300, env=env)


@pytest.mark.parametrize("argv, package", [
    (["bench", "server", "--players", "2", "--seconds", "1"], "httpx"),
    (["bench", "cube", "--positions", "4"], "gnubg-nn"),
    (["bench", "choices", "--games", "2"], "gnubg-nn"),
    (["bench", "strength", "neural:0", "gnubg", "--games", "2"], "gnubg-nn"),
])
def test_commands_that_need_an_extra_say_which(argv, package):
    done = plain(*argv)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr[-800:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and package in lines[0] and "tavli[bench]" in lines[0], lines


def test_benchmarks_with_an_optional_reference_run_without_it():
    done = plain("bench", "dama", "--positions", "4")
    assert done.returncode == 0, done.stderr[-800:]
    assert "pydraughts not installed" in done.stdout


@pytest.mark.parametrize("module", ["tavli.rl.pettingzoo", "tavli.rl.gym",
                                    "tavli.rl.openspiel"])
def test_the_research_environments_name_their_extra(module):
    code = ("import sys\nfor m in ('pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel'):\n"
            "    sys.modules[m] = None\n"
            "import tavli, tavli.rl.games\n"  # the rest of tavli.rl needs no extra
            f"try:\n    import {module}\nexcept ImportError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-800:]
    assert "pip install tavli[rl]" in done.stdout
