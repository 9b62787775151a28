"""Every import is bounded (issue 31): a file larger than tavli.play.text.MAX_TEXT is
refused before it is read, and a file within it, however it is shaped (a huge comment,
millions of blank lines, a huge tag), is parsed in linear memory. Each case runs in a
fresh process that reports its peak memory and the import's time. The peak is the
process's own (``VmHWM`` of /proc/self/status): Linux carries ``ru_maxrss`` over from the
parent across exec, so a large pytest process would show as the child's peak."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tavli.play.formats import dumps, loads
from tavli.play.text import MAX_TEXT
from tests.test_formats import random_match

PROBE = """
import re, resource, sys, time
from tavli.play.formats import read
t = time.perf_counter()
try:
    read(sys.argv[1])
    out = "loaded"
except Exception as e:
    out = f"{type(e).__name__}: {e}"
secs = time.perf_counter() - t
try:
    with open("/proc/self/status") as f:
        peak_kb = int(re.search(r"VmHWM:\\s*(\\d+)", f.read()).group(1))
except OSError:
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(out)
print(secs, peak_kb // 1024)
"""
MAX_RSS_MB = 300
MAX_SECONDS = 3.0


def probe(path: Path) -> tuple[str, float, int]:
    """Import ``path`` in a fresh process: its outcome, seconds and peak RSS in MB."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True,
                          text=True, timeout=120, env=env, check=True)
    outcome, figures = done.stdout.strip().rsplit("\n", 1)
    secs, rss = figures.split()
    return outcome, float(secs), int(rss)


@pytest.fixture(scope="module")
def samples() -> dict[str, str]:
    m = random_match(2, length=3)
    return {fmt: dumps(m, fmt) for fmt in ("sgf", "mat", "json")}


@pytest.mark.serial
def test_a_50_mb_comment_in_an_sgf_is_refused_up_front(tmp_path, samples):
    path = tmp_path / "huge.sgf"
    path.write_text(samples["sgf"].replace("AP[tavli]", "AP[tavli]C[" + "y" * 50 * 2**20
                                           + "]", 1))
    outcome, secs, rss = probe(path)
    assert outcome.startswith("RecordError:") and "too large to import" in outcome
    assert secs < MAX_SECONDS and rss < MAX_RSS_MB, (secs, rss)


def _within_limit_files(tmp: Path, samples: dict[str, str]) -> dict[str, str]:
    n = MAX_TEXT - 64 * 1024  # just under the limit, with room for the game itself
    big = "x" * n
    pdn = ('[GameType "25,W,8,8,A0,0"]\n\n1. c3-d4 f6-g5 *\n')
    return {
        "comment.sgf": samples["sgf"].replace("AP[tavli]", f"AP[tavli]C[{big}]", 1),
        "blank lines.mat": samples["mat"].replace(" Game 1\n", " Game 1\n" + "\n" * n, 1),
        "comment.mat": f"; {big}\n" + samples["mat"],
        "blank lines.pdn": pdn.replace("1. c3", "\n" * n + "1. c3", 1),
        "tag.pdn": f'[Event "{big}"]\n' + pdn,
        "comment.pdn": pdn.replace("1. c3", "{" + big + "} 1. c3", 1),
        "string.json": json.dumps({**json.loads(samples["json"]), "note": big}),
    }


@pytest.mark.serial
def test_files_just_under_the_limit_import_in_bounded_memory_and_time(tmp_path, samples):
    for name, text in _within_limit_files(tmp_path, samples).items():
        path = tmp_path / name.replace(" ", "-")
        path.write_text(text)
        assert path.stat().st_size <= MAX_TEXT, name
        outcome, secs, rss = probe(path)
        assert outcome == "loaded", (name, outcome[:200])
        assert rss < MAX_RSS_MB and secs < MAX_SECONDS, (name, secs, rss)


@pytest.mark.serial
def test_a_json_record_of_millions_of_objects_is_refused_in_bounds(tmp_path):
    """Millions of small objects just under the limit: the JSON parser holds them all,
    still under the memory bound, and the record is refused."""
    n = (MAX_TEXT - 200) // 3
    path = tmp_path / "objects.json"
    path.write_text('{"format": "tavli-record", "version": 1, "games": ['
                    + ",".join(["{}"] * n) + "]}")
    outcome, secs, rss = probe(path)
    assert outcome.startswith("RecordError:"), outcome[:200]
    assert rss < MAX_RSS_MB and secs < MAX_SECONDS, (secs, rss)


@pytest.mark.parametrize("shape, says", [
    ("C[]" * 200_000, "too many property values"),
    ("(;GM[6])" * 200, "too many games"),
    ("()" * 200_000, "too many games"),
    (";" * 200_000, "too many moves"),
])
def test_sgf_shapes_that_would_fill_memory_are_refused(shape, says, samples):
    text = samples["sgf"].replace("AP[tavli]", "AP[tavli]" + shape, 1) \
        if shape.startswith(("C", ";")) else shape
    with pytest.raises(Exception, match=says):
        loads(text, "sgf")


@pytest.mark.parametrize("fmt", ["sgf", "mat", "json", "pdn"])
def test_a_text_over_the_limit_is_refused_before_parsing(fmt):
    with pytest.raises(Exception, match="too large to import"):
        loads(" " * (MAX_TEXT + 1), fmt)


def test_mat_line_and_game_limits(samples):
    long_line = samples["mat"].replace(" Game 1\n", " Game 1\n  1) " + "52: 13/8 " * 100
                                       + "\n", 1)
    with pytest.raises(Exception, match="too long to be a .mat line"):
        loads(long_line, "mat")
    with pytest.raises(Exception, match="too many games"):
        loads(samples["mat"].replace(" Game 1\n", " Game 1\n" * 200, 1), "mat")
