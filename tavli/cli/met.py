"""``tavli met``: the match equity table, or one score's MWC, take and cash points and
gammon values (docs/cli.md). The tables (:mod:`tavli.play.cube`) load inside the command."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from tavli.errors import CliError

if TYPE_CHECKING:
    from tavli.play.cube.met import MET


def register(sub) -> None:
    """The ``met`` subcommand's parser."""
    mt = sub.add_parser("met", help="match equity: the table, or one score's take and cash "
                                     "points and gammon values",
                        description="The match equity table of backgammon matches (computed "
                                    "by tavli, or the published Kazaross-XG2), or one score's "
                                    "entry; --tavli: a Tavli match's equity.")
    mt.add_argument("--length", type=int, metavar="N",
                    help="the match length (1..99: past 25 the table's extension, as gnubg's; "
                         "the table: default 15)")
    mt.add_argument("--score", metavar="A-B",
                    help="points won by me and by the opponent: show that score's entry")
    which = mt.add_mutually_exclusive_group()
    which.add_argument("--published", action="store_true",
                       help="the published Kazaross-XG2 table")
    which.add_argument("--computed", action="store_true",
                       help="the table tavli computes (the default)")
    mt.add_argument("--tavli", action="store_true",
                    help="a Tavli match (Portes, Plakoto, Fevga; no cube): default 5 points")
    mt.set_defaults(func=cmd_met)


def table_text(met: MET, length: int) -> list[str]:
    """The table up to ``length`` away, in percent: a row per my away count, a column per
    the opponent's, then the post-Crawford row."""
    head = "away " + "".join(f"{b:>6}" for b in range(1, length + 1))
    lines = [f"{met.name}: my MWC (%), me N-away (rows) against the opponent (columns)", head]
    for a in range(1, length + 1):
        lines.append(f"{a:>4} " + "".join(f"{100 * met.mwc(a, b):6.1f}"
                                           for b in range(1, length + 1)))
    lines.append("post-Crawford, trailer N-away against 1-away:")
    lines.append("     " + "".join(f"{100 * met.mwc(b, 1, True):6.1f}"
                                   for b in range(1, length + 1)))
    return lines


def entry_text(met: MET, length: int, score: tuple[int, int]) -> list[str]:
    """One score: MWC, take and cash points (initial double and redoubles), gammon values."""
    from tavli.play.cube.prices import cash_point, gammon_values, take_point

    a, b = length - score[0], length - score[1]
    crawford = 1 in (a, b) and max(a, b) > 1
    lines = [f"{met.name}", f"score {score[0]}-{score[1]} in a {length}-point match: "
             f"me {a}-away, opponent {b}-away"]
    for post in ((False, True) if crawford else (False,)):
        label = ("post-Crawford game" if post else "Crawford game") if crawford else "game"
        lines.append(f"{label}: MWC {100 * met.mwc(a, b, post):.1f}%")
        gv = gammon_values(met, a, b, 1, crawford)
        lines.append(f"  gammon values (cube 1): win {gv.win_gammon:.2f}, backgammon "
                     f"{gv.win_backgammon:.2f}; lose {gv.lose_gammon:.2f}, backgammon "
                     f"{gv.lose_backgammon:.2f}")
        if crawford and not post:
            lines.append("  no cube in the Crawford game")
            continue
        cube = 1
        while cube < max(a, b):
            take = (f"I take from {100 * take_point(met, a, b, cube, post):.1f}%"
                    if cube < b else "the opponent cannot usefully double")
            cash = (f"my double is a pass from {100 * cash_point(met, a, b, cube, post):.1f}%"
                    if cube < a else "I cannot usefully double")
            lines.append(f"  cube {cube}->{2 * cube}: {take}; {cash}")
            cube *= 2
    return lines


def tavli_text(length: int, score: tuple[int, int]) -> list[str]:
    """A Tavli match's MWC at the score, for each next game and starter."""
    from tavli.play.cube.tavli_met import Starter, TavliEquity

    eq = TavliEquity(length)
    lines = [f"Tavli match to {length}, score {score[0]}-{score[1]}: my MWC (%)",
             "next game   I start  opponent  opening throw"]
    for g in eq.rotation:
        vals = [100 * eq.mwc(score[0], score[1], g, s) for s in Starter]
        lines.append(f"{g:<10}" + "".join(f"{v:9.1f}" for v in vals))
    return lines


def cmd_met(args: argparse.Namespace) -> int:
    from tavli.cli.cubehint import parse_score
    from tavli.play.cube.met import MAX_MATCH, computed_met, published_met

    if args.length is not None and not 1 <= args.length <= MAX_MATCH:
        raise CliError(f"--length must be 1..{MAX_MATCH}, got {args.length}")
    if args.tavli:
        if args.published or args.computed:
            raise CliError("--tavli has its own equity: --published/--computed are for "
                           "backgammon")
        length = args.length or 5
        score = parse_score(args.score, length) if args.score else (0, 0)
        print("\n".join(tavli_text(length, score)))
        return 0
    met = published_met() if args.published else computed_met()
    if args.score is not None:
        if args.length is None:
            raise CliError("--score needs --length (the match length)")
        lines = entry_text(met, args.length, parse_score(args.score, args.length))
    else:
        lines = table_text(met, args.length or 15)
    print("\n".join(lines))
    return 0
