"""``tavli rollout`` and ``tavli hint --rollout``: the command line of
:mod:`tavli.ai.rollout` (its arguments, text and JSON output)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .argtypes import at_least, seed_arg
from .errors import CliError


def positive_float(text: str) -> float:
    """An argparse type for a number above 0.

    >>> positive_float("0.01")
    0.01
    >>> positive_float("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a number above 0 is needed, got '0'
    """
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"a number above 0 is needed, got {text!r}")
    return value


def add_rollout_command(sub, rule_help: str, games_help: str) -> None:
    """The ``rollout`` subcommand's parser."""
    from .games import game_names

    r = sub.add_parser("rollout", help="value a position (or a roll's moves) by rollouts",
                       description="Monte Carlo play-outs of a position with the AI: the "
                                   "side to move before its roll, or with --dice the best "
                                   "moves of that roll, ranked.")
    r.add_argument("game", help="|".join(game_names()))
    r.add_argument("position", help="position ID, gnubg ID, 'start' or '-'")
    r.add_argument("--dice", "-d", help="roll out the moves of this roll, e.g. 31")
    r.add_argument("--moves", type=at_least(1), default=5,
                   help="with --dice: the best N moves by 0-ply (default 5)")
    r.add_argument("--games", type=at_least(1), default=1296, help=games_help)
    r.add_argument("--ply", type=at_least(0, 1), default=0,
                   help="the ply the moves are chosen at in the trials: 0 (default) or 1")
    r.add_argument("--truncate", type=at_least(1), default=None, metavar="T",
                   help="stop each trial after T turns and take the 0-ply value")
    r.add_argument("--seed", type=seed_arg, default=1)
    r.add_argument("--jobs", type=at_least(1), default=1,
                   help="processes (the figures do not depend on it)")
    r.add_argument("--target-se", type=positive_float, default=None, metavar="E",
                   help="stop once the equity's standard error is below E")
    r.add_argument("--no-luck", action="store_true",
                   help="no luck adjustment (about 20 times faster trials at 0-ply)")
    r.add_argument("--evaluator", default="neural", metavar="EV",
                   help="neural (the shipped evaluator, default) or net:FILE")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.add_argument("--rule", action="append", metavar="NAME=VALUE", help=rule_help)
    r.set_defaults(func=cmd_rollout)


def evaluator_arg(text: str, game: str | int):
    """The evaluator named on the command line: ``neural`` or ``net:FILE``."""
    from .ai.evaluator import Evaluator
    from .ai.net import Net

    if text.strip().lower() == "neural":
        return Evaluator.shipped(game)
    if text.lower().startswith("net:") and text[4:]:
        return Evaluator(Net.load(text[4:]))
    raise CliError(f"unknown evaluator {text[:60]!r}: neural or net:FILE")


def _head(pos, what: str) -> str:
    return f"rollout of {pos.game_name} {pos.id()}, {what}"


def cmd_rollout(args: argparse.Namespace) -> int:
    from .ai.rollout import describe, format_result, rollout, rollout_moves
    from .board import parse_dice
    from .cli import _read_position, _rules

    rules = _rules(args.game, args.rule)
    pos = _read_position(args.game, args.position)
    if pos.game != rules.game:
        raise CliError(f"the position is {pos.game_name}'s, not {rules.game_name}'s")
    ev = evaluator_arg(args.evaluator, rules.game)
    kw: dict[str, Any] = dict(evaluator=ev, games=args.games, ply=args.ply,
                              truncate=args.truncate, seed=args.seed, jobs=args.jobs,
                              rules=rules, target_se=args.target_se, luck=not args.no_luck,
                              progress=sys.stderr)
    count_bg = bool(rules.backgammons)
    side = ("white", "black")[pos.turn]
    if args.dice is None:
        r = rollout(pos, **kw)
        if args.json:
            print(json.dumps({"game": pos.game_name, "position": pos.id(), **r.to_dict()}))
            return 0
        print(f"{_head(pos, side + ' to roll')}: {r.trials} trials ({describe(r)}), "
              f"{r.seconds:.1f} s, {r.trials / max(r.seconds, 1e-9):.1f} trials/s")
        for line in format_result(r, count_bg):
            print(line)
        _print_reduction(r)
        return 0
    dice = parse_dice(args.dice)
    results = rollout_moves(pos, dice, args.moves, **kw)
    if args.json:
        print(json.dumps({"game": pos.game_name, "position": pos.id(), "dice": list(dice),
                          "moves": [r.to_dict() for r in results]}))
        return 0
    if not results:
        from .dice import dice_text

        print(f"no legal move with {dice_text(dice)}: the turn passes")
        return 0
    secs = sum(r.seconds for r in results)
    print(f"{_head(pos, side + ' rolled ' + args.dice)}: the best {len(results)} moves by "
          f"0-ply, {args.games} trials each ({describe(results[0])}), {secs:.1f} s")
    print_ranked(results, count_bg)
    return 0


def _print_reduction(r) -> None:
    if r.settings.get("luck", True) and r.equity_se > 0 and r.trials > 1:
        print(f"luck adjustment: equity SE {r.plain_equity_se:.4f} -> {r.equity_se:.4f} "
              f"({r.plain_equity_se / r.equity_se:.1f} times smaller)")


def print_ranked(results, count_bg: bool) -> None:
    """Rolled-out moves best first: equity ± SE (luck-adjusted), the plain equity ± SE, the
    probabilities, the trials."""
    cols = [("win", 0), ("w g", 1), ("w bg", 2), ("l g", 3), ("l bg", 4)]
    if not count_bg:
        cols = [c for c in cols if "bg" not in c[0]]
    print(f"{'#':>3} {'move':28s} {'equity':>8} {'± SE':>7} {'plain':>8} {'± SE':>7}  "
          + " ".join(f"{label:>5}" for label, _ in cols) + f" {'trials':>7}")
    for i, r in enumerate(results, 1):
        print(f"{i:3d} {str(r.move):28s} {r.equity:+8.4f} {_se(r.equity_se):>7} "
              f"{r.plain_equity:+8.4f} {_se(r.plain_equity_se):>7}  "
              + " ".join(f"{r.outputs[k]:5.3f}" for _, k in cols) + f" {r.trials:>7}")


def _se(v: float) -> str:
    return "-" if v != v else f"{v:.4f}"


def hint_rollouts(pos, ranked, rules, trials: int, json_out: bool) -> list[dict] | None:
    """``tavli hint --rollout N``: the top 3 of the hint's ranking rolled out with N trials
    each (0-ply, luck-adjusted, seed 1), printed ranked (or returned for JSON)."""
    from .ai.rollout import describe, rollout_moves

    top = [r.move for r in ranked[:3]]
    results = rollout_moves(pos, None, candidates=top, games=trials, rules=rules,
                            progress=sys.stderr)
    if json_out:
        return [r.to_dict() for r in results]
    print()
    print(f"rollouts of the top {len(results)}: {trials} trials each ({describe(results[0])})")
    print_ranked(results, bool(rules.backgammons))
    return None
