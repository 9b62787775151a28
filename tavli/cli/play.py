"""``tavli play``: a game or match in the browser app (:mod:`tavli.web.server`) or, with
``--tui``, in the terminal (:mod:`tavli.tui`); ``--game dama|russian|italian`` plays
Dama there (its rules found here, :func:`~tavli.cli.common.dama_rules_for`).

Options that a saved file fixes (--game, --points, --rule) default to None so that
``--resume`` can tell them apart from the defaults.
"""

from __future__ import annotations

import argparse

from tavli.cli.args import LANGS, add_rule_option, dama_rule_set, games_help, seed_arg
from tavli.cli.common import dama_rules_for
from tavli.errors import CliError


def register(sub) -> None:
    """The ``play`` subcommand's parser."""
    p = sub.add_parser("play", help="play a game or match (--tui: in the terminal)")
    p.add_argument("--tui", action="store_true",
                   help="play in the terminal instead of the browser")
    p.add_argument("--lang", default=None, choices=LANGS,
                   help="terminal: the language of its texts (default: from LC_ALL, "
                        "LC_MESSAGES or LANG, else English)")
    p.add_argument("--host", default=None,
                   help="browser app: address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=None,
                   help="browser app: port to listen on (default 8765; 0 = any free port)")
    p.add_argument("--no-browser", action="store_true",
                   help="browser app: print the URL without opening a browser")
    p.add_argument("--db", metavar="FILE", default=None,
                   help="browser app: SQLite file of saved games (default $TAVLI_DB or "
                        "~/.local/share/tavli/games.sqlite3)")
    from tavli.engine.games import ROTATIONS, find_variant

    rotations = "; ".join(f"{name} (a match {'→'.join(find_variant(g).display for g in games)})"
                          for name, games in ROTATIONS.items())
    p.add_argument("--game", default=None,
                   help=f"{rotations}; or one game: {games_help(dama=True)} (default: tavli)")
    p.add_argument("--points", type=int, default=None,
                   help="match length in points (default 5; 1 with a single game name: "
                        "one game)")
    p.add_argument("--opponent", default=None, metavar="PLAYER",
                   help="who plays black: neural (the AI at level expert, the default), "
                        "neural:LEVEL or a LEVEL (beginner, casual, intermediate, advanced, "
                        "expert, worldclass), greedy, random, or human (hot-seat)")
    p.add_argument("--white", default=None, metavar="PLAYER",
                   help="who plays white: human (default) or a computer player as for "
                        "--opponent (two computer players play on their own)")
    p.add_argument("--seed", type=seed_arg, default=None, help="seed the dice (reproducible)")
    p.add_argument("--save", metavar="FILE", default=None,
                   help="save the game/match to FILE after every move")
    p.add_argument("--resume", metavar="FILE", default=None,
                   help="resume a saved game/match from FILE (and keep saving to it "
                        "unless --save names another file)")
    add_rule_option(p)
    # Dama in the terminal: a start position, a FEN (docs/cli.md; kept out of the help)
    p.add_argument("--position", default=None, metavar="FEN",
                   help="Dama (--tui): start from this PDN FEN instead of the start")
    p.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    if getattr(args, "tui", False):
        from tavli import tui

        if dama_rule_set(args.game) is not None:
            return tui.run(args, dama=dama_rules_for(args.game, args.rule))
        if args.position is not None:
            raise CliError("--position: a Dama start (tavli play --tui --game dama "
                           "--position FEN)")
        return tui.run(args)
    from tavli.web.server import run

    return run(args)
