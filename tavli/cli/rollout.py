"""``tavli rollout``, ``tavli hint --rollout`` and ``tavli analyse --rollout``: the command
line of :mod:`tavli.ai.rollout` (its arguments, text and JSON output). :mod:`tavli.cli.hint`
and :mod:`tavli.cli.analyse` import their rollouts from here."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING, Any

from tavli.cli.args import (
    add_compute_args,
    add_lang_option,
    add_rule_option,
    at_least,
    compute_of,
    games_help,
    positive_float,
    seed_arg,
)
from tavli.cli.common import read_position, rules_for
from tavli.compute import HERE, Compute
from tavli.errors import CliError

if TYPE_CHECKING:
    from tavli.engine.games import Variant

#: the indent of the rollouts under a decision of ``tavli analyse``
INDENT = "      "


def register(sub) -> None:
    """The ``rollout`` subcommand's parser."""
    r = sub.add_parser("rollout", help="value a position (or a roll's moves) by rollouts",
                       description="Monte Carlo play-outs of a position with the AI: the "
                                   "side to move before its roll, or with --dice the best "
                                   "moves of that roll, ranked.")
    r.add_argument("game", help=games_help())
    r.add_argument("position", help="position ID, gnubg ID, 'start' or '-'")
    r.add_argument("--dice", "-d", help="roll out the moves of this roll, e.g. 31")
    r.add_argument("--moves", type=at_least(1), default=5,
                   help="with --dice: the best N moves by 0-ply (default 5)")
    r.add_argument("--games", type=at_least(1), default=1296,
                   help="trials (default 1296; a multiple of 1296 stratifies the first two "
                        "rolls)")
    r.add_argument("--ply", type=at_least(0, 1), default=0,
                   help="the ply the moves are chosen at in the trials: 0 (default) or 1")
    r.add_argument("--truncate", type=at_least(1), default=None, metavar="T",
                   help="stop each trial after T turns and take the 0-ply value")
    r.add_argument("--seed", type=seed_arg, default=1)
    add_compute_args(r, "1; the figures do not depend on it")
    r.add_argument("--target-se", type=positive_float, default=None, metavar="E",
                   help="stop once the equity's standard error is below E")
    r.add_argument("--no-luck", action="store_true",
                   help="no luck adjustment (about 20 times faster trials at 0-ply)")
    r.add_argument("--evaluator", default="neural", metavar="EV",
                   help="neural (the shipped evaluator, default) or net:FILE")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    add_rule_option(r)
    add_lang_option(r)
    r.set_defaults(func=cmd_rollout)


def evaluator_arg(text: str, game: Variant):
    """The evaluator named on the command line: ``neural`` or ``net:FILE``."""
    from tavli.ai.evaluator import Evaluator
    from tavli.ai.net import Net

    if text.strip().lower() == "neural":
        return Evaluator.shipped(game)
    if text.lower().startswith("net:") and text[4:]:
        return Evaluator(Net.load(text[4:]))
    raise CliError(f"unknown evaluator {text[:60]!r}: neural or net:FILE")


def _head(pos, what: str) -> str:
    from tavli.cli.text import _, game_word

    return _("cli.ro.head", game=game_word(pos.game_name), id=pos.id(), what=what)


def _words() -> dict:
    """:func:`tavli.ai.rollout.format_result`'s words in the command's language."""
    from tavli.cli.text import _

    return {"equity": _("cli.col.equity"), "adjusted": _("cli.ro.adjusted"),
            "plain": _("cli.ro.plain"),
            "labels": tuple(_(f"cli.col.{k}") for k in ("win", "wg", "wbg", "lg", "lbg"))}


def cmd_rollout(args: argparse.Namespace) -> int:
    from tavli import i18n
    from tavli.ai.context import RolloutContext
    from tavli.ai.rollout import format_result, rollout, rollout_moves
    from tavli.cli.text import _, no_move, rollout_how, side_word
    from tavli.engine.board import parse_dice

    rules = rules_for(args.game, args.rule)
    pos = read_position(args.game, args.position)
    if pos.game != rules.game:
        raise CliError(f"the position is {pos.game_name}'s, not {rules.game_name}'s")
    ev = evaluator_arg(args.evaluator, rules.variant)
    ctx = RolloutContext.at_ply(args.ply, games=args.games, truncate=args.truncate,
                                seed=args.seed, luck=not args.no_luck,
                                target_se=args.target_se)
    kw: dict[str, Any] = dict(evaluator=ev, compute=compute_of(args), rules=rules,
                              progress=sys.stderr)
    count_bg = bool(rules.backgammons)
    side = side_word(pos.turn)
    if args.dice is None:
        r = rollout(pos, ctx, **kw)
        if args.json:
            print(json.dumps({"game": pos.game_name, "position": pos.id(), **r.to_dict()}))
            return 0
        print(_("cli.ro.result", head=_head(pos, _("cli.ro.to_roll", side=side)),
                trials=r.trials, how=rollout_how(r), secs=f"{r.seconds:.1f}",
                rate=f"{r.trials / max(r.seconds, 1e-9):.1f}"))
        for line in format_result(r, count_bg, words=_words()):
            print(line)
        _print_reduction(r)
        return 0
    dice = parse_dice(args.dice)
    results = rollout_moves(pos, dice, args.moves, ctx, **kw)
    if args.json:
        print(json.dumps({"game": pos.game_name, "position": pos.id(), "dice": list(dice),
                          "moves": [r.to_dict() for r in results]}))
        return 0
    if not results:
        from tavli.engine.dice import dice_text

        print(no_move(dice_text(dice)))
        return 0
    secs = sum(r.seconds for r in results)
    print(i18n.ngettext(i18n.current(), "cli.ro.best", len(results),
                        head=_head(pos, _("cli.ro.rolled", side=side, dice=args.dice)),
                        trials=args.games, how=rollout_how(results[0]),
                        secs=f"{secs:.1f}"))
    print("\n".join(ranked_lines(results, count_bg)))
    return 0


def _print_reduction(r) -> None:
    from tavli.cli.text import _

    if r.settings.get("luck", True) and r.equity_se > 0 and r.trials > 1:
        print(_("cli.ro.reduction", plain=f"{r.plain_equity_se:.4f}",
                adjusted=f"{r.equity_se:.4f}",
                times=f"{r.plain_equity_se / r.equity_se:.1f}"))


def ranked_lines(results, count_bg: bool, played: str | None = None) -> list[str]:
    """Rolled-out moves best first: equity ± SE (luck-adjusted), the plain equity ± SE, the
    probabilities, the trials; ``played``: the position ID after the move played, marked."""
    from tavli.cli.text import _, columns

    cols = [(label, k, max(5, len(label))) for label, k in columns(count_bg)]
    trials = _("cli.col.trials")
    tw = max(7, len(trials))
    lines = [f"{'#':>3} {_('cli.col.move'):28s} {_('cli.col.equity'):>8} {'± SE':>7} "
             f"{_('cli.ro.plain'):>8} {'± SE':>7}  "
             + " ".join(f"{label:>{w}}" for label, _k, w in cols) + f" {trials:>{tw}}"]
    for i, r in enumerate(results, 1):
        mine = played is not None and r.move.after.id() == played
        lines.append(f"{i:3d} {str(r.move):28s} {r.equity:+8.4f} {_se(r.equity_se):>7} "
                     f"{r.plain_equity:+8.4f} {_se(r.plain_equity_se):>7}  "
                     + " ".join(f"{r.outputs[k]:{w}.3f}" for _l, k, w in cols)
                     + f" {r.trials:>{tw}}" + (f"  {_('cli.an.played')}" if mine else ""))
    return lines


def _se(v: float) -> str:
    return "-" if v != v else f"{v:.4f}"


def roll_moves(pos, moves, rules, trials: int, compute: Compute = HERE) -> list:
    """``moves`` of one roll in ``pos`` rolled out as ``hint --rollout`` and ``analyse
    --rollout`` do: ``trials`` each, 0-ply, luck-adjusted, seed 1, progress on stderr;
    best first (:func:`tavli.ai.rollout.rollout_moves`), played where ``compute`` says."""
    from tavli.ai.context import RolloutContext
    from tavli.ai.rollout import rollout_moves

    return rollout_moves(pos, None, None, RolloutContext(games=trials), rules=rules,
                         candidates=list(moves), progress=sys.stderr, compute=compute)


def _top_lines(key: str, results, rules, trials: int, played: str | None = None) -> list[str]:
    """The head ``key`` (a plural message: how many, the trials, the settings) and the
    ranked table of ``results``."""
    from tavli import i18n
    from tavli.cli.text import rollout_how

    return [i18n.ngettext(i18n.current(), key, len(results), trials=trials,
                          how=rollout_how(results[0]))] + ranked_lines(
        results, bool(rules.backgammons), played)


def hint_rollouts(pos, ranked, rules, trials: int, json_out: bool) -> list[dict] | None:
    """``tavli hint --rollout N``: the top 3 of the hint's ranking rolled out with N trials
    each (0-ply, luck-adjusted, seed 1), printed ranked (or returned for JSON)."""
    from tavli.ai.analysis import TOP

    results = roll_moves(pos, [r.move for r in ranked[:TOP]], rules, trials)
    if json_out:
        return [r.to_dict() for r in results]
    print()
    print("\n".join(_top_lines("cli.ro.top", results, rules, trials)))
    return None


def confirms(best, played) -> tuple[bool, float, float]:
    """Whether a rollout confirms a move as an error: the ``played`` move's rolled-out
    equity below the ``best``'s by more than 2 combined standard errors; also that
    difference and its SE.

    >>> from types import SimpleNamespace as R
    >>> confirms(R(equity=0.2, equity_se=0.03), R(equity=0.05, equity_se=0.04))
    (True, 0.15, 0.05)
    >>> confirms(R(equity=0.2, equity_se=0.03), R(equity=0.12, equity_se=0.04))[0]
    False
    """
    diff = best.equity - played.equity
    se = math.hypot(best.equity_se, played.equity_se)
    return bool(diff > 2 * se), round(diff, 6), round(se, 6)


def analysis_rollouts(obj, entries, turns: list[dict], trials: int,
                      compute: Compute = HERE) -> dict[tuple, list[str]]:
    """``tavli analyse --rollout N``: every checker play the analysis marks (doubtful or
    worse) with its best moves (:attr:`~tavli.ai.analysis.TurnAnalysis.top`) and the move
    played rolled out on its position and roll as :func:`roll_moves` does. ``entries``:
    :func:`~tavli.ai.analysis.analyse_turns`' answer, ``turns`` its turn dicts
    (:func:`~tavli.ai.analysis.summarise`), each rolled-out one given ``rollouts`` (the
    results' :meth:`~tavli.ai.rollout.RolloutResult.to_dict` with ``played``) and
    ``confirmed`` (:func:`confirms`). Returns the text lines of each, by (game, turn)."""
    from tavli.ai.analysis import TurnAnalysis, games_of
    from tavli.cli.text import _

    games = games_of(obj)
    moves = [e for e in entries if isinstance(e, TurnAnalysis)]
    out: dict[tuple, list[str]] = {}
    for e, t in zip(moves, turns, strict=True):
        if not t["mark"]:  # a loss of 0.04 or more: an unforced move
            continue
        game = games[e.game - 1]
        pos, dice, chosen = game.turns[e.number - 1]
        played = chosen.after.id()
        legal = {m.after.id(): m for m in pos.legal_moves(dice, game.rules)}
        wanted = list(e.top) + ([] if played in e.top else [played])
        results = roll_moves(pos, [legal[k] for k in wanted], game.rules, trials, compute)
        mine = next(r for r in results if r.move.after.id() == played)
        t["rollouts"] = [{**r.to_dict(), "played": r is mine} for r in results]
        ok, diff, se = confirms(results[0], mine)
        t["confirmed"] = ok
        verdict = _("cli.an.confirmed" if ok else "cli.an.not_confirmed",
                    diff=f"{diff:.4f}", se=f"{se:.4f}")
        lines = _top_lines("cli.an.top", results, game.rules, trials, played) + [verdict]
        out[(e.game, e.number)] = [INDENT + line for line in lines]
    return out

