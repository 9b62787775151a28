"""``tavli bearoff build`` and ``tavli bearoff show``: the exact bear-off databases the AI
uses (:mod:`tavli.ai.bearoff`), built into the cache or a folder, and a bear-off
position's values."""

from __future__ import annotations

import argparse
import sys

from tavli.cli.args import games_help
from tavli.cli.common import game_and_position, read_position
from tavli.errors import CliError


def register(sub) -> None:
    """The ``bearoff`` subcommand's parser and its actions ``build`` and ``show``."""
    bo = sub.add_parser("bearoff", help="exact bear-off databases: build, show a position",
                        description="The exact bear-off databases the AI uses (docs/ai.md): "
                                    "build them, or show a bear-off position's values.")
    bsub = bo.add_subparsers(dest="action", metavar="ACTION", required=True)
    bb = bsub.add_parser("build", help="build the databases (once; about 10-30 s)")
    bb.add_argument("--force", action="store_true", help="build them again if present")
    bb.add_argument("--dir", metavar="DIR", help="the folder (default: $TAVLI_CACHE_DIR, "
                    "else $XDG_CACHE_HOME/tavli, else ~/.cache/tavli)")
    bb.set_defaults(func=cmd_bearoff_build)
    bs = bsub.add_parser("show", help="a bear-off position's rolls to bear off and chances")
    bs.add_argument("game", nargs="?", help=games_help(" (optional for IDs)"))
    bs.add_argument("position", nargs="?",
                    help="position ID, gnubg ID, '-' (JSON on stdin), or one side's checkers "
                         "on points 1..6 as counts, e.g. 3,2,0,0,0,1")
    bs.add_argument("--dir", metavar="DIR", help="the databases' folder (default: the cache)")
    bs.set_defaults(func=cmd_bearoff_show)


def _where(args: argparse.Namespace):
    """``--dir`` (None: the cache) and the databases' file in it."""
    from pathlib import Path

    from tavli.ai import bearoff

    folder = Path(args.dir).expanduser() if args.dir else None
    if folder is not None and folder.exists() and not folder.is_dir():
        raise CliError(f"--dir {args.dir}: not a folder")
    return folder, (folder or bearoff.cache_dir()) / bearoff.FILE_NAME


def cmd_bearoff_build(args: argparse.Namespace) -> int:
    import time

    from tavli.ai import bearoff

    _folder, path = _where(args)
    if path.exists() and not args.force:
        print(f"the bear-off databases are already built: {path} (--force builds "
              "them again)")
        return 0
    t0 = time.perf_counter()
    bearoff.build(path, progress=sys.stderr)
    print(f"built the bear-off databases in {time.perf_counter() - t0:.1f} s: {path} "
          f"({path.stat().st_size / 1e6:.1f} MB)")
    return 0


def cmd_bearoff_show(args: argparse.Namespace) -> int:
    from tavli.ai import bearoff
    from tavli.ai.bearoff_text import looks_like_counts, parse_counts, position_text, side_text

    folder, path = _where(args)
    game, text = game_and_position(args.game, args.position,
                                   "tavli bearoff show [GAME] POSITION [--dir DIR]")
    counts = parse_counts(text) if game is None and looks_like_counts(text) else None
    pos = None if counts is not None else read_position(game, text)
    if folder is None:
        tables = bearoff.load_tables()
    elif not path.exists():
        raise CliError(f"no bear-off databases in {folder}: build them with `tavli "
                       f"bearoff build --dir {folder}`")
    else:
        tables = bearoff.load(path)
    if counts is not None:
        lines = side_text(tables[0], counts, "one side")
    else:
        lines = position_text(tables, pos.array, pos.turn)
    print("\n".join(lines))
    return 0
