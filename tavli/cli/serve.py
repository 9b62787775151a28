"""``tavli serve``: the online server (:mod:`tavli.online.serve` declares its options and
runs it)."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    """The ``serve`` subcommand's parser."""
    from tavli.online.serve import add_arguments

    sv = sub.add_parser("serve", help="run the online server (games played over the network)",
                        description="Serve online games: an HTTP API that creates and joins "
                        "games and one WebSocket per game (docs/server.md). Loopback only "
                        "unless --host is given.")
    add_arguments(sv)
    sv.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from tavli.online.serve import run

    return run(args)
