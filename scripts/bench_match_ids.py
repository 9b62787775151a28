"""Compare tavli's gnubg Match IDs with Debian gnubg's for N random match states (one
gnubg call): ``python scripts/bench_match_ids.py [N]``. Prints how many agree."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_formats import _each, _shown, _states, gnubg  # noqa: E402


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    states = []
    k = n
    while len(states) < n:
        states = _states(k)
        k = k * 3 // 2 + 10
    states = states[:n]
    with tempfile.TemporaryDirectory() as d:
        shown = _shown(gnubg(_each(f"set gnubgid {ids}" for ids, _ in states), Path(d)))
    same = sum(f"{p}:{m}" == ids for (p, m), (ids, _) in zip(shown, states, strict=True))
    print(f"{same}/{len(states)} Match IDs (with Position IDs) equal gnubg's")
    return 0 if same == len(states) else 1


if __name__ == "__main__":
    sys.exit(main())
