"""``tavli moves`` (a position's legal moves for a roll, also ``--batch``) and ``tavli show``
(a position drawn, or its JSON document); a Dama game's are :mod:`tavli.cli.dama`'s."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tavli.cli import dama
from tavli.cli.args import add_lang_option, add_rule_option, dama_rule_set, games_help
from tavli.cli.common import (
    batch,
    check_batch_alone,
    check_not_over,
    game_and_position,
    read_position,
    rules_for,
)
from tavli.errors import CliError


def register(sub) -> None:
    """The ``moves`` and ``show`` subcommands' parsers."""
    m = sub.add_parser("moves", help="list the legal moves of a position",
                       description="List the legal moves of a position for a roll.")
    m.add_argument("game", nargs="?", help=games_help(dama=True))
    m.add_argument("position", nargs="?",
                   help="tavli position ID, gnubg Position ID, 'start', or '-' (JSON on stdin)")
    m.add_argument("--dice", "-d", help="the roll, e.g. 31")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.add_argument("--batch", action="store_true",
                   help="read lines 'GAME POSITION DICE' from stdin, write one JSON line each")
    add_rule_option(m)
    # Dama: c3-d4 instead of 22-18 (docs/cli.md; kept out of the dice games' help)
    m.add_argument("--algebraic", action="store_true",
                   help="Dama: write the moves' squares as a1..h8")
    add_lang_option(m)
    m.set_defaults(func=cmd_moves)

    s = sub.add_parser("show", help="draw a position or print its JSON document")
    s.add_argument("game", nargs="?", help=games_help(" (optional for IDs)", dama=True))
    s.add_argument("position", nargs="?", help="position ID, gnubg ID, 'start' or '-'")
    s.add_argument("--json", action="store_true", help="print the JSON position document")
    add_lang_option(s)
    s.set_defaults(func=cmd_show)


def _move_entries(pos, dice, rules) -> list[dict[str, Any]]:
    check_not_over(pos, rules)
    out = []
    for m in pos.legal_moves(dice, rules):
        e = {"move": str(m), "position": m.after.id()}
        if pos.variant.gnubg_ids:
            e["gnubg_id"] = m.after.gnubg_id()
        out.append(e)
    return out


def cmd_moves(args: argparse.Namespace) -> int:
    from tavli.cli.text import no_move
    from tavli.engine.board import parse_dice
    from tavli.engine.dice import dice_text

    if dama_rule_set(args.game) is not None:
        return dama.moves(args)
    if args.algebraic:
        raise CliError("--algebraic names Dama's squares: tavli moves dama|russian|italian "
                       "FEN --algebraic")
    if args.batch:
        check_batch_alone(args)
        return batch(args, 0, lambda pos, dice, rules, _extra, _text: _move_entries(
            pos, dice, rules))
    if args.game is None or args.position is None or args.dice is None:
        raise CliError("usage: tavli moves GAME POSITION --dice 31 (or --batch)")
    rules = rules_for(args.game, args.rule)
    pos = read_position(args.game, args.position)
    dice = parse_dice(args.dice)
    entries = _move_entries(pos, dice, rules)
    if args.json:
        print(json.dumps({"moves": entries}))
    elif not entries:
        print(no_move(dice_text(dice)))
    else:
        for e in entries:
            print(e["move"])
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from tavli.cli.text import board
    from tavli.engine.board import Position

    game, text = game_and_position(args.game, args.position,
                                   "tavli show [GAME] POSITION [--json]")
    if dama_rule_set(game) is not None:
        return dama.show(args, text)
    if game is None and text == "start":
        raise CliError("name the game: tavli show GAME start")
    if text == "-":
        pos = read_position(game, text)  # the JSON document names its game
    else:
        pos = Position.from_id(text, game)
    print(json.dumps(pos.to_json()) if args.json else board(pos))
    return 0
