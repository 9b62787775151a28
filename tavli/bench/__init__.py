"""Benchmarks: figures measured against references (gnubg-nn, pubeval, greedy, OpenSpiel).

Imports the runtime and, for gating matches, nothing of training; never imported by the
runtime (the import-linter contracts in ``pyproject.toml``).
"""
