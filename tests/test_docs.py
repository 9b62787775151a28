"""The documentation's ``>>>`` examples are part of the suite: every Markdown file with an
example lies on pytest's path and matches its doctest glob (pyproject.toml), so an
example the engine no longer agrees with fails the build."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent


def _pytest_options() -> tuple[list[str], list[str]]:
    opts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"]
    globs = [a.split("=", 1)[1] for a in opts["addopts"].split()
             if a.startswith("--doctest-glob=")]
    return opts["testpaths"], globs


def test_every_markdown_example_is_collected():
    testpaths, globs = _pytest_options()
    collected = {p.resolve() for pattern in testpaths for p in ROOT.glob(pattern)}
    with_examples = [p for p in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
                     if ">>> " in p.read_text(encoding="utf-8")]
    assert {p.name for p in with_examples} >= {"README.md", "formats.md", "rules.md"}
    for path in with_examples:
        assert path.resolve() in collected or any(
            d in path.resolve().parents for d in collected if d.is_dir()), path
        assert any(fnmatch.fnmatch(path.name, g) for g in globs), path


def test_training_artefacts_live_apart_from_the_docs():
    """training/ holds logs, snapshots and a script run by hand: not docs, not tests."""
    testpaths, _ = _pytest_options()
    collected = {p.resolve() for pattern in testpaths for p in ROOT.glob(pattern)}
    training = (ROOT / "training").resolve()
    assert (training / "README.md").is_file() and any(training.glob("*.npz"))
    assert not any(p == training or training in p.parents or p in training.parents
                   for p in collected)
    in_docs = [p for p in (ROOT / "docs").rglob("*") if p.is_file() and p.suffix != ".md"]
    assert in_docs == []
