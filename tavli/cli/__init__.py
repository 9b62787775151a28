"""The ``tavli`` command: a thin layer over the library (see docs/cli.md).

One module per command group, each declaring its own arguments in a ``register(sub)``
function that adds its subcommands to the top parser's subparsers (and sets their
``func``); :func:`build_parser` only calls them, in the order ``tavli --help`` lists the
commands. The imports go one way, downward:

* :mod:`~tavli.cli.args` — the parser class, the argument types, the shared options;
* :mod:`~tavli.cli.text` — the command's texts in the language of ``--lang``;
* :mod:`~tavli.cli.common` — the rules and the position a command names, ``--batch``,
  :func:`run_command`;
* the command groups: :mod:`~tavli.cli.positions` (moves, show), :mod:`~tavli.cli.rollout`
  (rollout; the rollouts of hint and analyse), :mod:`~tavli.cli.hint`,
  :mod:`~tavli.cli.analyse`, :mod:`~tavli.cli.train` (train, train-race, distill,
  train-round), :mod:`~tavli.cli.bench`, :mod:`~tavli.cli.bearoff`,
  :mod:`~tavli.cli.met`, :mod:`~tavli.cli.dama` (perft; Dama's answers to the common
  commands; the old ``tavli dama`` lines), :mod:`~tavli.cli.records` (convert, verify),
  :mod:`~tavli.cli.serve`, :mod:`~tavli.cli.play`;
* this module: the parser assembled, :func:`main`.

A command group imports the lower modules, never this one; only ``hint`` and
``analyse`` import another group (:mod:`~tavli.cli.rollout`, which imports no group), and
``positions``, ``hint``, ``bench`` and ``play`` hand a Dama game to :mod:`~tavli.cli.dama`
(which imports no group).
Heavy modules (NumPy, the compiled generator, the AI, the web apps) are imported inside
the commands so that ``tavli --help`` starts fast.
"""

from __future__ import annotations

import argparse
import io
import sys

from tavli.cli import (
    analyse,
    bearoff,
    bench,
    dama,
    hint,
    met,
    play,
    positions,
    records,
    rollout,
    serve,
    train,
)
from tavli.cli.args import EXIT_USAGE, Parser, add_lang_option, dama_rule_set
from tavli.cli.common import run_command
from tavli.errors import CliError

__all__ = ["CliError", "build_parser", "main", "run_command"]

#: the command groups, in the order ``tavli --help`` lists their commands
GROUPS = (positions, hint, rollout, analyse, train, bench, bearoff, met, dama, records,
          serve, play)


def build_parser() -> argparse.ArgumentParser:
    """The ``tavli`` parser: ``--lang`` and every command group's subcommands."""
    p = Parser(
        prog="tavli",
        description="Tavli (Portes, Plakoto, Fevga) and backgammon: rules engine and play.")
    add_lang_option(p, "the language of the commands' texts: en (default), el, it, de; "
                       "also $TAVLI_LANG")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for group in GROUPS:
        group.register(sub)
    return p


def _runs_compiled_code(args: argparse.Namespace) -> bool:
    """Whether the command may call Numba kernels (``show`` does not; the browser app's
    server says so itself while it warms up)."""
    return (args.command not in ("show", "met", "convert")
            and not (args.command == "play" and not args.tui))


#: the commands that think (the AI): on a first run they prepare the engine first
THINKING = ("hint", "analyse", "analyze", "rollout", "play")


def prepare_engine(args: argparse.Namespace) -> bool:
    """On a first run (Numba's cache empty) of a command that thinks, compile what it
    needs first, in parallel processes (:func:`tavli.ai.warmup.prepare_parallel`), with a
    progress bar on stderr (one line when stderr is not a terminal). Returns whether it
    did."""
    if args.command not in THINKING:
        return False
    from tavli.web.warmup import cache_is_cold

    if not cache_is_cold():
        return False
    from tavli.ai.warmup import NEEDS, needs, prepare_parallel
    from tavli.engine.numba_cache import COMPILE_MESSAGE

    game = str(getattr(args, "game", None) or getattr(args, "variant", None) or "")
    stages = NEEDS["dama"] if dama_rule_set(game) else needs(game)
    if not sys.stderr.isatty():
        print(COMPILE_MESSAGE, file=sys.stderr, flush=True)
        prepare_parallel(stages=stages)
        return True
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/"
               "{task.total}"), TimeElapsedColumn())
    # drawn at each step, without rich's refresh thread: the helper processes can then
    # be forked (:func:`tavli.ai.warmup.prepare_parallel`)
    with Progress(*columns, console=Console(stderr=True), transient=True,
                  auto_refresh=False) as bar:
        task = bar.add_task("tavli: first run: preparing the engine",
                            total=sum(len(s) for s in stages))
        bar.refresh()
        prepare_parallel(stages=stages, step=lambda done, total, part: bar.update(
            task, completed=done, description=f"tavli: first run: prepared {part.text}",
            refresh=True))
    return True


def main(argv: list[str] | None = None) -> int:
    """Run ``tavli`` on ``argv`` (default: the command line) and return the exit status."""
    parser = build_parser()
    args = parser.parse_args(dama.modern_argv(sys.argv[1:] if argv is None else list(argv)))
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    if argv is None and _runs_compiled_code(args):  # a real command line, not a test's call
        from tavli.engine.numba_cache import announce_compile

        if not prepare_engine(args):
            announce_compile()  # a first run compiles: say so
    if isinstance(sys.stdin, io.TextIOWrapper):
        # bytes that are not text in the locale's encoding reach the parsers as U+FFFD (and
        # are reported as bad input) instead of stopping the program with a traceback
        sys.stdin.reconfigure(errors="replace")
    return run_command(args)
