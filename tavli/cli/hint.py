"""``tavli hint``: a roll's legal moves ranked by the AI (at money or at a match score),
or without dice the cube decision; ``--batch`` answers lines, ``--rollout N`` rolls out
the top moves (:mod:`tavli.cli.rollout`). A Dama game's hint (the AI's move and score) is
:mod:`tavli.cli.dama`'s."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tavli.cli import dama
from tavli.cli.args import add_lang_option, add_rule_option, at_least, dama_rule_set, games_help
from tavli.cli.common import (
    batch,
    check_batch_alone,
    check_not_over,
    position_text,
    read_position,
    rules_for,
)
from tavli.errors import CliError


def register(sub) -> None:
    """The ``hint`` subcommand's parser."""
    h = sub.add_parser("hint", help="rank the legal moves, or the cube decision, with the AI",
                       description="With --dice: every legal move ranked with equity and "
                                   "win/gammon probabilities (first: the move the AI "
                                   "plays). Without: the cube decision before the roll "
                                   "(backgammon): cubeful equities of no double, "
                                   "double/take, double/pass and the proper action. "
                                   "At a match score (--match, --score, or the one an "
                                   "XGID or Match ID carries) moves are ranked by match "
                                   "winning chances, shown as MWC.")
    h.add_argument("game", nargs="?", help=games_help(dama=True))
    h.add_argument("position", nargs="?", help="position ID, gnubg ID, 'start' or '-'")
    h.add_argument("--dice", "-d", help="the roll, e.g. 31")
    h.add_argument("--level", "-l", default=None,
                   help="beginner|casual|intermediate|advanced|expert|worldclass or a ply "
                        "0-2 (default expert)")
    h.add_argument("--json", action="store_true", help="print JSON")
    h.add_argument("--batch", action="store_true",
                   help="read lines 'GAME POSITION DICE [LEVEL]' from stdin, one JSON line "
                        "each")
    h.add_argument("--rollout", type=at_least(1), default=None, metavar="N",
                   help="also roll out the top 3 moves, N trials each (0-ply, "
                        "luck-adjusted), ranked with their standard errors; without "
                        "--dice: the cube decision from an N-trial rollout")
    add_rule_option(h)
    h.add_argument("--match", type=int, default=None, metavar="N",
                   help="a match to N points (default money play; Portes, Plakoto, "
                        "Fevga: a Tavli match); moves are then ranked by match winning "
                        "chances")
    h.add_argument("--score", default=None, metavar="A-B",
                   help="points won by the side to move and the opponent")
    h.add_argument("--cube", type=int, default=None, metavar="V",
                   help="backgammon: the cube's value (default 1)")
    h.add_argument("--owner", default=None, help="backgammon: the cube's owner me|opp|centre")
    h.add_argument("--crawford", action="store_true",
                   help="backgammon: this is the Crawford game")
    add_lang_option(h)
    h.set_defaults(func=cmd_hint)


def _hint_ranked(pos, dice, rules, level, score=None) -> tuple[list, str, str]:
    """The ranked moves (by match winning chances at a match ``score``:
    :class:`~tavli.play.cube.scoring.ScoreWeights`), the position's class and the valuer that
    answers for it before the roll."""
    from tavli.ai.analyzer import Analyzer
    from tavli.ai.levels import parse_level

    how = parse_level(level).at_score(score)
    check_not_over(pos, rules)
    moves = pos.legal_moves(dice, rules)
    an = Analyzer(rules)
    cls, valuer = an.position_valuer(pos)
    return an.rank(pos, moves, how), cls, valuer


def _batch_hint(args: argparse.Namespace, pos, dice, rules, level, text: str
                ) -> dict[str, Any]:
    """A ``--batch`` line's answer: the position's class, the valuer answering for it and
    the ranked moves, at the match score of the options (``--match``, ``--score``, ...)
    or of the line's XGID or Match ID as ``tavli hint`` takes it (``score`` then added,
    and each move's ``mwc``); money play otherwise."""
    from tavli.cli.cubehint import id_match_state

    score = _hint_score(args, pos, rules, id_match_state(text))
    ranked, cls, valuer = _hint_ranked(pos, dice, rules, level, score)
    doc = {"class": cls, "evaluator": valuer, "moves": [r.to_dict() for r in ranked]}
    if not score.is_money:
        doc["score"] = score.to_dict()
    return doc


def cmd_hint(args: argparse.Namespace) -> int:
    from tavli.engine.board import parse_dice

    if dama_rule_set(args.game) is not None:
        return dama.hint(args)
    if args.batch:
        check_batch_alone(args)
        if args.rollout is not None:
            raise CliError("--rollout cannot be used with --batch")
        return batch(args, 1, lambda pos, dice, rules, extra, text: _batch_hint(
            args, pos, dice, rules, extra[0] if extra else args.level, text), whole=True)
    if args.game is None or args.position is None:
        raise CliError("usage: tavli hint GAME POSITION [--dice 31] [--level L] (or --batch)")
    from tavli.cli.cubehint import id_match_state

    rules = rules_for(args.game, args.rule)
    text = position_text(args.position)
    pos = read_position(args.game, text)
    state = id_match_state(text)  # an XGID's or a Match ID's cube and score
    if args.dice is None and state is not None and state.dice and rules.cube:
        args.dice = "".join(str(d) for d in state.dice)
    if args.dice is None:
        return _cube_hint(args, pos, rules, state)
    dice = parse_dice(args.dice)
    score = _hint_score(args, pos, rules, state)
    ranked, cls, valuer = _hint_ranked(pos, dice, rules, args.level, score)
    if args.json:
        doc: dict[str, Any] = {"class": cls, "evaluator": valuer,
                               "moves": [r.to_dict() for r in ranked]}
        if not score.is_money:
            doc["score"] = score.to_dict()
        if args.rollout is not None:
            from tavli.cli.rollout import hint_rollouts

            doc["rollouts"] = hint_rollouts(pos, ranked, rules, args.rollout, True) \
                if ranked else []
        print(json.dumps(doc))
        return 0
    _print_ranked(ranked, dice, rules, score, cls, valuer)
    if ranked and args.rollout is not None:
        from tavli.cli.rollout import hint_rollouts

        hint_rollouts(pos, ranked, rules, args.rollout, False)
    return 0


def _print_ranked(ranked, dice, rules, score, cls: str, valuer: str) -> None:
    """The hint's table: the moves ranked, with the probabilities the scoring in force
    counts (no backgammon columns without them), then the position's class."""
    from tavli.cli.text import _, class_line, columns, no_move, score_line
    from tavli.engine.dice import dice_text

    entries = [r.to_dict() for r in ranked]
    if not entries:
        print(no_move(dice_text(dice)))
        return
    best = entries[0]["equity"]
    keys = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
    cols = [(label, keys[k], max(5, len(label))) for label, k in columns(rules.backgammons)]
    match = not score.is_money
    if match:
        print(score_line(score))
    ply = _("cli.col.ply")
    pw = max(3, len(ply))
    print(f"{'#':>3} {_('cli.col.move'):28s} {ply:>{pw}} {_('cli.col.equity'):>8} "
          f"{_('cli.col.diff'):>7}  " + ("   MWC  " if match else "")
          + " ".join(f"{label:>{w}}" for label, _k, w in cols))
    for i, e in enumerate(entries, 1):
        diff = "" if i == 1 else f"{e['equity'] - best:+.3f}"
        mwc = f"{100 * e['mwc']:6.2f}%  " if match else ""
        print(f"{i:3d} {e['move']:28s} {e['ply']:{pw}d} {e['equity']:+8.3f} {diff:>7}  "
              + mwc + " ".join(f"{e[key]:{w}.3f}" for _l, key, w in cols))
    print(class_line(cls, valuer))


def _score_options_given(args: argparse.Namespace) -> bool:
    return (args.match is not None or args.score is not None or args.cube is not None
            or args.owner is not None or args.crawford)


def _hint_score(args: argparse.Namespace, pos, rules, state):
    """How the outcomes count for a move hint: from the options, else from the match
    state of an XGID or Match ID, else money play."""
    from tavli.cli.cubehint import cube_info_from_id, score_from_options
    from tavli.errors import OptionError
    from tavli.play.cube.scoring import ScoreWeights

    if _score_options_given(args) or state is None or not rules.cube:
        return score_from_options(rules, args.match, args.score, args.cube, args.owner,
                                  args.crawford)
    try:
        return ScoreWeights.from_cube(cube_info_from_id(state, rules, pos.turn))
    except OptionError as e:
        raise CliError(str(e)) from None


def _cube_hint(args: argparse.Namespace, pos, rules, state=None) -> int:
    from tavli.ai.levels import parse_level
    from tavli.cli.cubehint import cube_hint, cube_info_from_id, cube_info_from_options

    if state is not None and rules.cube and not _score_options_given(args):
        ci = cube_info_from_id(state, rules, pos.turn)
    else:
        ci = cube_info_from_options(rules, args.match, args.score, args.cube, args.owner,
                                    args.crawford)
    check_not_over(pos, rules)
    ply = min(parse_level(args.level).plies, 2)
    for line in cube_hint(pos, rules, ci, ply, args.json, rollout=args.rollout):
        print(line)
    return 0
