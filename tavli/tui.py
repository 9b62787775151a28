"""Terminal play (placeholder until the full TUI lands)."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    raise NotImplementedError
