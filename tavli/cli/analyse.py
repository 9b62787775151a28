"""``tavli analyse`` (``analyze``): a game or match record reviewed by the AI, every turn
and cube decision with its loss; ``--rollout N`` rolls out the marked checker plays
(:mod:`tavli.cli.rollout`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tavli.cli.args import add_compute_args, add_lang_option, at_least, compute_of
from tavli.errors import CliError


def register(sub) -> None:
    """The ``analyse`` subcommand's parser (alias ``analyze``)."""
    a = sub.add_parser("analyse", aliases=["analyze"], help="analyse a game or match record")
    a.add_argument("record", help="a JSON game/match record file")
    a.add_argument("--level", "-l", default=None, help="analysis level (default expert)")
    a.add_argument("--ply", type=int, choices=[0, 1, 2], default=None,
                   help="analysis ply (overrides --level)")
    a.add_argument("--ai", default=None, metavar="LEVEL",
                   help="the level the AI played at in this record: analyse one ply deeper "
                        "(at most 2-ply) unless --level or --ply says otherwise")
    a.add_argument("--rollout", type=at_least(1), default=None, metavar="N",
                   help="also roll out each checker play marked doubtful or worse: the "
                        "analysis' top 3 and the move played, N trials each (0-ply, "
                        "luck-adjusted), and say whether the rollout confirms the error")
    add_compute_args(a, "1")
    a.add_argument("--json", action="store_true", help="print JSON")
    add_lang_option(a)
    a.set_defaults(func=cmd_analyse)


def _review_ply(args: argparse.Namespace) -> tuple[int, dict[str, str]]:
    """The ply of the review and the levels the record was played at (``--ai``)."""
    from tavli.ai.analysis import review_ply
    from tavli.ai.levels import level_name, parse_level
    from tavli.errors import RuleError

    levels = {}
    if args.ai is not None:
        try:
            levels = {"the AI": level_name(args.ai)}
        except RuleError as e:
            raise CliError(f"--ai: {e}") from None
    if args.ply is not None:
        return args.ply, levels
    if args.level is not None or not levels:
        return parse_level(args.level).plies, levels
    return review_ply(levels), levels


def cmd_analyse(args: argparse.Namespace) -> int:
    from tavli import i18n
    from tavli.ai import analysis
    from tavli.ai.analysis import format_analysis, ply_note
    from tavli.play.record import dice_only, load

    ply, levels = _review_ply(args)
    obj = dice_only(load(args.record), "tavli analyse")
    entries = analysis.analyse_turns(obj, ply)
    result = analysis.summarise(entries, ply, analysis.result_of(obj), ply_note(ply, levels))
    rolled: dict = {}
    if args.rollout is not None:
        from tavli.cli.rollout import analysis_rollouts

        rolled = analysis_rollouts(obj, entries, result["turns"], args.rollout,
                                   compute_of(args))
    if args.json:
        print(json.dumps(result))
        return 0

    def below(t: dict[str, Any]) -> list[str]:
        return rolled.get((t["game"], t["turn"]), [])

    if i18n.current() == i18n.DEFAULT:
        print(format_analysis(result, below))
    else:
        from tavli.ai.analysis import ply_note_msg
        from tavli.cli.text import analysis_text

        print(analysis_text({**result, "ply_note_msg": ply_note_msg(ply, levels)}, below))
    if args.rollout is not None and not rolled:
        from tavli.cli.text import _

        print(_("cli.an.nothing"))
    return 0
