"""The ``tavli`` command: a thin layer over the library (see docs/cli.md).

Heavy modules (NumPy, the compiled generator) are imported inside the commands so that
``tavli --help`` starts fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

GAMES = ("portes", "plakoto", "fevga", "backgammon")
EXIT_USAGE = 2


class CliError(Exception):
    """A user error reported as one line on stderr (exit status 2)."""


def _rules(game: str, options: list[str] | None):
    from .rules import Rules

    return Rules.for_game(game, options or [])


def _read_position(game: str, text: str):
    from .ids import parse_position

    if text == "-":
        text = sys.stdin.read()
        if not text.strip():
            raise CliError("no position document on standard input")
    return parse_position(text, game)


def _move_entries(pos, dice, rules) -> list[dict[str, Any]]:
    out = []
    for m in pos.legal_moves(dice, rules):
        e = {"move": str(m), "position": m.after.id()}
        if pos.game in (0, 3):
            e["gnubg_id"] = m.after.gnubg_id()
        out.append(e)
    return out


def cmd_moves(args: argparse.Namespace) -> int:
    from .board import parse_dice
    from .errors import TavliError

    if args.batch:
        return _moves_batch(args)
    if args.game is None or args.position is None or args.dice is None:
        raise CliError("usage: tavli moves GAME POSITION --dice 31 (or --batch)")
    rules = _rules(args.game, args.rule)
    pos = _read_position(args.game, args.position)
    dice = parse_dice(args.dice)
    entries = _move_entries(pos, dice, rules)
    if args.json:
        print(json.dumps({"moves": entries}))
    elif not entries:
        print(f"no legal move with {dice[0]}-{dice[1]}: the turn passes")
    else:
        for e in entries:
            print(e["move"])
    del TavliError
    return 0


def _moves_batch(args: argparse.Namespace) -> int:
    from .board import parse_dice
    from .errors import TavliError

    rules_cache: dict[str, Any] = {}
    for lineno, line in enumerate(sys.stdin, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            parts = line.split()
            if len(parts) != 3:
                raise CliError(f"line {lineno}: expected 'GAME POSITION DICE'")
            game, ptext, dtext = parts
            if game not in rules_cache:
                rules_cache[game] = _rules(game, args.rule)
            pos = _read_position(game, ptext)
            out: dict[str, Any] = {"moves": _move_entries(pos, parse_dice(dtext),
                                                        rules_cache[game])}
        except (TavliError, CliError) as e:
            out = {"error": str(e)}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from .layout import GAME_ALIASES

    game = args.game
    text = args.position
    if text is None:
        if game is None or game.lower() in GAME_ALIASES:
            if game is None:
                raise CliError("usage: tavli show [GAME] POSITION [--json]")
        else:
            game, text = None, game
    if text is None:
        raise CliError("usage: tavli show [GAME] POSITION [--json]")
    if game is None and text in ("start", "-"):
        raise CliError("name the game: tavli show GAME start")
    if text == "-":
        data = sys.stdin.read()
        from .ids import parse_position

        pos = parse_position(data, game)
    else:
        from .ids import parse_position

        pos = parse_position(text, game)
    if args.json:
        print(json.dumps(pos.to_json()))
    else:
        print(pos)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "movegen":
        from .bench import bench_movegen

        bench_movegen(n_positions=args.positions, seed=args.seed)
        return 0
    raise CliError(f"unknown benchmark {args.what!r}")


def cmd_play(args: argparse.Namespace) -> int:
    from . import tui

    return tui.run(args)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tavli",
        description="Tavli (Portes, Plakoto, Fevga) and backgammon: rules engine and play.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    rule_help = "set a rule option, e.g. --rule must_play_higher=true (repeatable)"

    m = sub.add_parser("moves", help="list the legal moves of a position",
                       description="List the legal moves of a position for a roll.")
    m.add_argument("game", nargs="?", help="|".join(GAMES))
    m.add_argument("position", nargs="?",
                   help="tavli position ID, gnubg Position ID, 'start', or '-' (JSON on stdin)")
    m.add_argument("--dice", "-d", help="the roll, e.g. 31")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.add_argument("--batch", action="store_true",
                   help="read lines 'GAME POSITION DICE' from stdin, write one JSON line each")
    m.add_argument("--rule", action="append", metavar="NAME=VALUE", help=rule_help)
    m.set_defaults(func=cmd_moves)

    s = sub.add_parser("show", help="draw a position or print its JSON document")
    s.add_argument("game", nargs="?", help="|".join(GAMES) + " (optional for IDs)")
    s.add_argument("position", nargs="?", help="position ID, gnubg ID, 'start' or '-'")
    s.add_argument("--json", action="store_true", help="print the JSON position document")
    s.set_defaults(func=cmd_show)

    b = sub.add_parser("bench", help="benchmarks that print figures and ratios")
    b.add_argument("what", choices=["movegen"])
    b.add_argument("--positions", type=int, default=12000)
    b.add_argument("--seed", type=int, default=1)
    b.set_defaults(func=cmd_bench)

    pl = sub.add_parser("play", help="play a game or match (--tui: in the terminal)")
    from .tui_args import add_play_arguments

    add_play_arguments(pl, rule_help)
    pl.set_defaults(func=cmd_play)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    from .errors import TavliError

    try:
        return int(args.func(args) or 0)
    except (TavliError, CliError) as e:
        print(f"tavli: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
