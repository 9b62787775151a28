"""Command-line options of ``tavli play`` (kept apart so ``tavli --help`` stays light)."""

from __future__ import annotations

import argparse


def add_play_arguments(p: argparse.ArgumentParser, rule_help: str) -> None:
    p.add_argument("--tui", action="store_true",
                   help="play in the terminal (the default until the browser app exists)")
    p.add_argument("--game", default="tavli",
                   help="tavli (a match Portes→Plakoto→Fevga) or portes|plakoto|fevga|"
                        "backgammon (default: tavli)")
    p.add_argument("--points", type=int, default=5,
                   help="match length in points (default 5; 1 = a single game)")
    p.add_argument("--opponent", default="greedy",
                   help="who plays black: human (hot-seat), random or greedy (default)")
    p.add_argument("--seed", type=int, default=None, help="seed the dice (reproducible)")
    p.add_argument("--save", metavar="FILE", default=None,
                   help="save the game/match to FILE after every move")
    p.add_argument("--resume", metavar="FILE", default=None,
                   help="resume a saved game/match from FILE")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE", help=rule_help)
