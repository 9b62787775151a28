"""Dama (draughts, :mod:`tavli.dama`) through the common commands: a ``GAME`` that names
one of its rule sets (``dama``, ``russian``, ``italian``; :func:`~tavli.cli.args.dama_rule_set`)
is answered here.

* ``tavli moves dama|russian|italian FEN|start [--rule huffing=false] [--algebraic]
  [--json]`` — the legal moves (:func:`moves`)
* ``tavli show GAME FEN|start`` — the position drawn (:func:`show`)
* ``tavli hint GAME FEN|start [--level L] [--json]`` — the AI's move and score
  (:func:`hint`)
* ``tavli perft GAME [FEN|start] [--depth N]`` — perft counts per depth (registered here)
* ``tavli bench strength neural[:LEVEL] minimax[:DEPTH] --game GAME`` — the AI against
  plain minimax (:func:`strength`); ``tavli bench dama`` — perft speed
* ``tavli play --tui --game GAME`` — a game in the terminal (:mod:`tavli.tui.dama`)

``tavli dama SUB ...``, the old group, is a compatibility shim: :func:`modern_argv` says
the new command on stderr and runs it (``tavli dama pdn FILE`` is ``tavli replay FILE``).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time

from tavli.cli.args import (
    LANGS,
    Parser,
    add_rule_option,
    at_least,
    dama_game_names,
    dama_rule_set,
)
from tavli.cli.common import dama_position, dama_rules_for
from tavli.engine.games import menu_name
from tavli.errors import CliError, OptionError

MAX_PERFT_DEPTH = 20  # perft(12) from the start already takes minutes


def _rules_and_position(args: argparse.Namespace, text: str | None):
    rules = dama_rules_for(args.game, getattr(args, "rule", None))  # show has no --rule
    return rules, dama_position(text or "start", rules)


def _refuse(args: argparse.Namespace, options: tuple[str, ...], command: str) -> None:
    """The dice games' options of ``command`` have no meaning for Dama: refuse them."""
    given = [o for o in options
             if getattr(args, o.lstrip("-").replace("-", "_"), None) not in (None, False)]
    if given:
        raise CliError(f"{', '.join(given)}: not for Dama (tavli {command} {args.game} "
                       "FEN|start ...; docs/cli.md)")


def move_text(m, rules, algebraic: bool) -> str:
    """A move as ``tavli moves`` lists it: its numbers (``22-18``), or with ``algebraic``
    its square names (``c3-d4``; every landing square of a multiple capture)."""
    if algebraic:
        return m.notation(rules, algebraic=True, full=len(m.captures) > 1)
    return str(m)


def moves(args: argparse.Namespace) -> int:
    """``tavli moves GAME FEN|start``: the legal moves, one a line (or ``--json``)."""
    _refuse(args, ("--dice", "--batch"), "moves")
    if args.position is None:
        raise CliError(f"usage: tavli moves {args.game} FEN|start [--algebraic]")
    rules, pos = _rules_and_position(args, args.position)
    listed = [move_text(m, rules, args.algebraic) for m in pos.legal_moves()]
    if args.json:
        print(json.dumps({"moves": [{"move": t} for t in listed]}))
    else:
        for text in listed:
            print(text)
    return 0


def show(args: argparse.Namespace, text: str) -> int:
    """``tavli show GAME FEN|start``: the board and its FEN."""
    if args.json:
        raise CliError("--json: a Dama position's text is its FEN (tavli show GAME FEN)")
    _rules, pos = _rules_and_position(args, text)
    print(pos.board_text())
    print(pos.fen())
    return 0


def hint(args: argparse.Namespace) -> int:
    """``tavli hint GAME FEN|start --level L``: the AI's move and score."""
    from tavli.ai.dama import Searcher, dama_level, parse_level

    _refuse(args, ("--dice", "--batch", "--rollout", "--match", "--score", "--cube",
                   "--owner", "--crawford"), "hint")
    if args.position is None:
        raise CliError(f"usage: tavli hint {args.game} FEN|start [--level L]")
    level = dama_level(args.level)
    parse_level(level)  # a bad level is an error before the position is read
    rules, pos = _rules_and_position(args, args.position)
    if pos.is_game_over():
        if args.json:
            print(json.dumps({"move": None}))
        else:
            print("no legal move: the side to move has lost")
        return 0
    r = Searcher(rules).search(pos, level)
    if args.json:
        print(json.dumps({"move": str(r.move), "score": r.score, "depth": r.depth,
                          "nodes": r.nodes, "seconds": round(r.seconds, 3)}))
    else:
        print(f"{r.move}  score {r.score:+d}  depth {r.depth}  nodes {r.nodes}  "
              f"{r.seconds:.2f} s")
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    """``tavli perft GAME [FEN|start] --depth N``: the leaves at each depth, timed."""
    from tavli.engine.dama import movegen as mg

    if dama_rule_set(args.game) is None:
        raise CliError(f"perft counts Dama's moves (GAME: {'|'.join(dama_game_names())}); "
                       "the dice games' generator: tavli bench movegen")
    if args.depth > MAX_PERFT_DEPTH:
        raise OptionError(f"--depth: perft goes to depth {MAX_PERFT_DEPTH} at most, "
                          f"got {args.depth}")
    _rules, pos = _rules_and_position(args, args.position)
    buf = mg.new_buffer(args.depth + 1)
    for d in range(1, args.depth + 1):
        t = time.perf_counter()
        n = mg.perft_kernel(pos.wm, pos.wk, pos.bm, pos.bk, pos.turn, pos.huff, d,
                            pos.rules.geometry, pos.rules.flags, buf)
        print(f"perft({d}) = {n}  ({time.perf_counter() - t:.3f} s)")
    return 0


def strength(args: argparse.Namespace, games: int) -> int:
    """``tavli bench strength neural[:LEVEL] minimax[:DEPTH] --game GAME``: the AI
    against plain depth-N minimax (material only), ``games`` games."""
    from tavli.ai.dama import dama_level, match

    usage = "usage: tavli bench strength neural[:LEVEL] minimax[:DEPTH] --game " \
            f"{args.game} [--games N] [--seed S]"
    if args.cube or args.match or args.log or args.jobs is not None or args.ray \
            or args.ray_address is not None:
        raise CliError(f"--cube, --match, --log, --jobs and Ray are not for Dama ({usage})")
    ai, minimax = (p.strip().lower() for p in args.players)
    kind, _sep, level = ai.partition(":")
    mm, _sep, depth = minimax.partition(":")
    if kind not in ("neural", "ai") or mm != "minimax" or (depth and not depth.isdigit()):
        raise CliError(usage)
    # its players refuse a bad level or depth before the first game
    res = match(dama_rules_for(args.game, args.rule), games=games,
                level=dama_level(level or "default"),
                opponent_depth=int(depth) if depth else 4, seed=args.seed)
    print(json.dumps(res, indent=1))
    return 0


def register(sub) -> None:
    """``perft`` on ``sub`` (the old ``tavli dama`` lines are :func:`modern_argv`'s)."""
    p = sub.add_parser("perft", help="count Dama's move sequences to a depth (perft)")
    p.add_argument("game", help="|".join(dama_game_names()))
    p.add_argument("position", nargs="?", default="start",
                   help="a PDN FEN such as W:W21-32:B1-12, or 'start' (the default)")
    p.add_argument("--depth", type=at_least(1), default=6,
                   help=f"deepest perft, 1 to {MAX_PERFT_DEPTH}")
    add_rule_option(p)
    p.set_defaults(func=cmd_perft)



# -- the old ``tavli dama SUB`` command lines ------------------------------------------

#: the old subcommands the shim turns into the common commands
OLD = ("moves", "show", "perft", "hint", "play", "match", "bench", "pdn")


def _old_parser() -> argparse.ArgumentParser:
    """The options of the old ``tavli dama SUB`` command lines, all subcommands at once."""
    p = Parser(prog="tavli dama", add_help=False)
    p.add_argument("sub", choices=OLD)
    p.add_argument("fen", nargs="?")
    p.add_argument("--rules", default="box")
    p.add_argument("--no-huffing", action="store_true")
    for flag in ("--algebraic", "--verbose"):
        p.add_argument(flag, action="store_true")
    for option in ("--depth", "--level", "--games", "--seed", "--positions", "--start-depth"):
        p.add_argument(option)
    for side in ("--white", "--black"):
        p.add_argument(side, choices=("human", "ai"))
    p.add_argument("--lang", choices=LANGS)
    return p


def _player(kind: str | None, level: str | None, default: str) -> str:
    """An old ``--white``/``--black`` (``human`` or ``ai``, at ``--level``) as a player."""
    return "human" if (kind or default) == "human" else f"neural:{level or 'default'}"


def _new_command(old: argparse.Namespace) -> list[str]:
    """The common command an old ``tavli dama SUB`` line is."""
    variant = dama_rule_set(old.rules)  # the old --rules took every alias too
    if variant is None:
        raise CliError(f"unknown Dama rule set {old.rules!r} "
                       f"(choose {', '.join(dama_game_names())})")
    game = menu_name(variant)
    rules = ["--rule", "huffing=false"] if old.no_huffing else []
    given = [] if old.fen is None else [old.fen]

    def option(name: str, value: str | None) -> list[str]:
        return [] if value is None else [name, value]

    if old.sub == "pdn":
        return ["replay", *given]
    if old.sub == "show":
        return ["show", game, *given]
    if old.sub in ("moves", "hint"):
        return [old.sub, game, *given, *rules, *(["--algebraic"] if old.algebraic else []),
                *option("--level", old.level)]
    if old.sub == "perft":
        return ["perft", game, *given, *rules, *option("--depth", old.depth)]
    if old.sub == "play":
        return ["play", "--tui", "--game", game, *rules, *option("--position", old.fen),
                "--white", _player(old.white, old.level, "human"),
                "--opponent", _player(old.black, old.level, "ai"), *option("--lang", old.lang)]
    if old.sub == "match":
        return ["bench", "strength", f"neural:{old.level or 'full'}",
                f"minimax:{old.depth or 4}", "--game", game, *rules,
                "--games", old.games or "100", *option("--seed", old.seed)]
    return ["bench", "dama", *option("--positions", old.positions), *option("--seed", old.seed)]


def modern_argv(argv: list[str]) -> list[str]:
    """``argv`` with an old ``tavli dama SUB ...`` turned into the common command it now
    is (said on stderr; ``tavli dama pdn FILE`` is ``tavli replay FILE``); other command
    lines as they are."""
    at = next((i for i, word in enumerate(argv) if not word.startswith("-")
               and (i == 0 or argv[i - 1] != "--lang")), None)
    if at is None or argv[at] != "dama" or at + 1 >= len(argv) or argv[at + 1] not in OLD:
        return argv
    old = _old_parser().parse_args(argv[at + 1:])
    new = _new_command(old)
    dropped = [o for o, v in (("--verbose", old.verbose), ("--depth", old.sub == "bench"
                              and old.depth), ("--start-depth", old.start_depth)) if v]
    print(f"tavli: 'tavli dama {old.sub}' is now 'tavli {shlex.join(new)}'"
          + (f" ({', '.join(dropped)}: gone)" if dropped else ""), file=sys.stderr)
    return argv[:at] + new
