"""What the command groups share when they run: the rules and the position a command
line names, the ``--batch`` line protocol, and :func:`run_command`, which runs a parsed
command line and turns a user's error into one line and exit status 2.

Below the command modules of :mod:`tavli.cli` (above :mod:`~tavli.cli.args` and
:mod:`~tavli.cli.text`): they import it, it imports none of them. Heavy modules are
imported inside the functions.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from tavli.cli.args import EXIT_USAGE, dama_rule_set
from tavli.errors import CliError, GameOver, ParseError, RuleError, TavliError, one_line


def require_extra(module: str, package: str, command: str, extra: str = "bench") -> None:
    """Stop ``command`` with one line when ``module`` (PyPI ``package``) is missing: the
    README's install (``make play``, ``pip install tavli``) leaves the benchmarks'
    references out; ``pip install 'tavli[bench]'`` (or the ``extra`` named) brings them."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        raise CliError(f"{command} needs the {package} package, which the plain install "
                       f"leaves out: pip install 'tavli[{extra}]' (or pip install "
                       f"{package})") from None


def rules_for(game: str, options: list[str] | None):
    """The :class:`~tavli.engine.rules.Rules` of ``game`` with the ``--rule`` options."""
    from tavli.engine.rules import Rules

    return Rules.for_game(game, options or [])


def dama_rules_for(game: str, options: list[str] | None):
    """The :class:`~tavli.engine.dama.rules.DamaRules` of the Dama game ``game`` names
    (:func:`~tavli.cli.args.dama_rule_set`) with the ``--rule`` options (``huffing=false``
    makes the box rules' capture compulsory), as :func:`rules_for` for a game with dice."""
    from tavli.engine.dama.rules import DamaRules

    variant = dama_rule_set(game)
    if variant is None:
        raise RuleError(f"{game!r} is not one of Dama's games")
    return DamaRules.for_game(variant, options or [])


def dama_position(text: str, rules):
    """The Dama position a ``POSITION`` argument names: a PDN FEN, or ``start``."""
    from tavli.engine.dama.board import Position

    if text in ("start", "startpos", ""):
        return Position.start(rules)
    return Position.from_fen(text, rules)


def position_text(text: str) -> str:
    """A ``POSITION`` argument's text; ``-``: the JSON document on stdin."""
    if text == "-":
        text = sys.stdin.read()
        if not text.strip():
            raise CliError("no position document on standard input")
    return text


def read_position(game: str | None, text: str):
    """The position a ``POSITION`` argument names; ``-``: the JSON document on stdin."""
    from tavli.engine.board import Position

    return Position.from_id(position_text(text), game)


def check_not_over(pos, rules) -> None:
    """A finished game has no moves to list: say who won (GameOver, exit status 2)."""
    from tavli.play.game import Outcome, base_result

    result = base_result(pos, rules)
    if result is not None:
        from tavli import i18n
        from tavli.cli.text import error_msg, outcome_msg

        raise error_msg(GameOver(f"the game is over: {Outcome(*result)}"),
                        i18n.msg("cli.over", result=outcome_msg(*result)))


def game_and_position(game: str | None, text: str | None, usage: str
                      ) -> tuple[str | None, str]:
    """``[GAME] POSITION`` read from two optional arguments: one alone is the position
    unless it names a game."""
    from tavli.engine.games import find_variant

    try:
        named = game is not None and (dama_rule_set(game) is not None
                                      or bool(find_variant(game)))
    except ParseError:
        named = False
    if text is None and game is not None and not named:
        game, text = None, game  # POSITION alone
    if text is None:
        raise CliError(f"usage: {usage}")
    return game, text


def check_batch_alone(args: argparse.Namespace) -> None:
    """``--batch`` reads its games, positions and dice from stdin: none on the line."""
    given = [name for name, value in (("GAME", args.game), ("POSITION", args.position),
                                      ("--dice", args.dice)) if value is not None]
    if given:
        raise CliError(f"--batch reads 'GAME POSITION DICE' lines from standard input: "
                       f"{', '.join(given)} cannot be given with it")


#: a batch line's answer from its position, dice, rules, optional fields and the
#: position's text (an XGID or a Match ID also carries a match score)
Entries = Callable[[Any, tuple[int, int], Any, list[str], str], Any]


def batch(args: argparse.Namespace, extra: int, entries: Entries, whole: bool = False) -> int:
    """The line protocol of ``--batch``: ``GAME POSITION DICE`` (plus ``extra`` optional
    fields) per line in, one JSON line out, ``{"error": ...}`` for a bad line. ``entries``
    gives a line's moves, or (``whole``) its whole answer."""
    from tavli.engine.board import parse_dice

    rules_cache: dict[str, Any] = {}
    usage = "GAME POSITION DICE" + " [LEVEL]" * extra
    for lineno, line in enumerate(sys.stdin, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            parts = line.split()
            if not 3 <= len(parts) <= 3 + extra:
                raise CliError(f"expected '{usage}'")
            game, ptext, dtext = parts[:3]
            if ptext == "-":
                raise CliError("POSITION cannot be '-' in batch mode")
            if game not in rules_cache:
                rules_cache[game] = rules_for(game, args.rule)
            pos = read_position(game, ptext)
            got = entries(pos, parse_dice(dtext), rules_cache[game], parts[3:], ptext)
            out: dict[str, Any] = got if whole else {"moves": got}
        except TavliError as e:
            out = {"error": f"line {lineno}: {one_line(e)}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


def run_command(args: argparse.Namespace) -> int:
    """Run a parsed command line (``args.func(args)``) and return the exit status: an
    error the user caused (a :class:`~tavli.errors.TavliError`) is one line on stderr and
    status 2; Ctrl-C is status 130; a closed pipe ends quietly. Anything else is a bug
    and shows as a traceback."""
    from tavli import i18n
    from tavli.cli.text import cli_lang, error_line, explicit_lang

    lang = i18n.DEFAULT
    try:
        lang = cli_lang(getattr(args, "cli_lang", None))
        if hasattr(args, "lang") and args.lang is None:  # play --tui: else LANG
            args.lang = explicit_lang(getattr(args, "cli_lang", None))
        with i18n.using(lang):
            return int(args.func(args) or 0)
    except TavliError as e:
        print(error_line(e, lang), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `tavli moves ... | head`
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
