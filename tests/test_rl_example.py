"""docs/research.md's example (examples/value_policy.py) runs, on a tiny budget: it
trains a value network of afterstates with scikit-learn and plays it against random,
greedy and the shipped network."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "value_policy.py"


def test_the_research_example_trains_and_plays(capsys):
    spec = importlib.util.spec_from_file_location("value_policy", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    results = module.main(["--game", "plakoto", "--games", "6", "--rounds", "2",
                           "--eval", "4"])
    out = capsys.readouterr().out
    assert "round 2:" in out and "against greedy:" in out
    assert set(results) == {"random", "greedy", "neural (beginner)"}
    for mean, half in results.values():
        assert -2 <= mean <= 2 and half >= 0  # Plakoto: a game is worth 1 or 2 points
