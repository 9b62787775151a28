"""The warm-up of `tavli play` (and of the test suite under pytest-xdist) reaches every
kernel it names: it raises nothing (the worker processes swallow its errors, so a broken
warm-up would only show as a slow first AI move)."""

from __future__ import annotations

from tavli.web import warmup, workers


def test_the_warm_ups_run_and_leave_the_cache_warm():
    assert warmup.warm_server() >= 0.0
    assert workers.warm() >= 0.0
    assert not warmup.cache_is_cold()
