"""Housekeeping: no module-level function or class of the package that nothing uses."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# dead, but in a file another branch of issue 16 rewrites: removed when that branch lands
KNOWN: set[str] = {"_roll_text"}


def _words() -> Counter[str]:
    """How often each word occurs in the package, the tests, the docs and the scripts."""
    words: Counter[str] = Counter()
    for folder, pattern in (("tavli", "*.py"), ("tavli", "*.js"), ("tests", "*.py"),
                            ("scripts", "*.py"), ("docs", "*.md")):
        for path in (ROOT / folder).rglob(pattern):
            words.update(re.findall(r"\w+", path.read_text(encoding="utf-8")))
    words.update(re.findall(r"\w+", (ROOT / "README.md").read_text(encoding="utf-8")))
    return words


def test_every_top_level_definition_is_used_somewhere():
    words = _words()
    defined: Counter[str] = Counter()
    where: dict[str, str] = {}
    for path in sorted((ROOT / "tavli").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                defined[node.name] += 1
                where[node.name] = f"{path.relative_to(ROOT)}:{node.lineno}"
    unused = sorted(f"{where[n]} {n}" for n, k in defined.items()
                    if words[n] <= k and n not in KNOWN and not n.startswith("__"))
    assert unused == []
