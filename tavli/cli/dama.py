"""The ``tavli dama ...`` commands (Dama, draughts: :mod:`tavli.dama`).

:func:`register` adds ``dama`` and its subcommands to the main parser's subparsers.

* ``dama moves FEN|start [--rules R] [--algebraic]`` — the legal moves
* ``dama show FEN|start [--rules R]`` — draw the position
* ``dama perft [FEN|start] --depth N [--rules R]`` — perft counts per depth
* ``dama hint FEN|start [--rules R] [--level L]`` — the AI's move and score
* ``dama play [--rules R] [--no-huffing] [--level L] [--white human|ai] [--black ...]
  [--lang en|el|it|de]``
* ``dama pdn FILE`` — replay a PDN file, print each game's result and final position
* ``dama match [--rules R] [--games N] [--level L] [--depth D] [--seed S]`` — the AI
  against plain minimax (material only)
* ``dama bench`` — perft speed against pydraughts' (``tavli bench dama`` with its
  defaults)
"""

from __future__ import annotations

import argparse
import json
import time

from tavli.cli.args import LANGS, at_least, seed_arg
from tavli.engine.dama.sets import DEFAULT_RULE_SET
from tavli.errors import OptionError, RecordError

RULES_HELP = "rule set: box (default), russian, italian"
MAX_PERFT_DEPTH = 20  # perft(12) from the start already takes minutes


def _position(text: str, rules: str, huffing: bool | None):
    from tavli.engine.dama.board import Position
    from tavli.engine.dama.rules import DamaRules

    r = DamaRules.for_name(rules, huffing)
    if text in ("start", "startpos", ""):
        return Position.start(r)
    return Position.from_fen(text, r)


def cmd_moves(args) -> int:
    pos = _position(args.fen, args.rules, args.huffing)
    for m in pos.legal_moves():
        print(m.notation(pos.rules, algebraic=True, full=len(m.captures) > 1)
              if args.algebraic else str(m))
    return 0


def cmd_show(args) -> int:
    pos = _position(args.fen, args.rules, args.huffing)
    print(pos.board_text())
    print(pos.fen())
    return 0


def cmd_perft(args) -> int:
    from tavli.engine.dama import movegen as mg

    if args.depth > MAX_PERFT_DEPTH:
        raise OptionError(f"--depth: perft goes to depth {MAX_PERFT_DEPTH} at most, "
                          f"got {args.depth}")
    pos = _position(args.fen, args.rules, args.huffing)
    buf = mg.new_buffer(args.depth + 1)
    for d in range(1, args.depth + 1):
        t = time.perf_counter()
        n = mg.perft_kernel(pos.wm, pos.wk, pos.bm, pos.bk, pos.turn, pos.huff, d,
                            pos.rules.geometry, pos.rules.flags, buf)
        print(f"perft({d}) = {n}  ({time.perf_counter() - t:.3f} s)")
    return 0


def cmd_hint(args) -> int:
    from tavli.ai.dama import Searcher, parse_level

    parse_level(args.level)  # a bad level is an error before the position is read
    pos = _position(args.fen, args.rules, args.huffing)
    if pos.is_game_over():
        print("no legal move: the side to move has lost")
        return 0
    r = Searcher(pos.rules).search(pos, args.level)
    print(f"{r.move}  score {r.score:+d}  depth {r.depth}  nodes {r.nodes}  "
          f"{r.seconds:.2f} s")
    return 0


def cmd_play(args) -> int:
    from tavli.tui.dama import play_tui
    from tavli.tui.words import terminal_lang

    play_tui(args.rules, args.huffing, args.level, args.white, args.black,
             None if args.fen in (None, "start") else args.fen,
             lang=terminal_lang(args.lang))
    return 0


def cmd_pdn(args) -> int:
    from tavli.play.dama.pdn import read_pdn_games

    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise RecordError(f"cannot read {args.file}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise RecordError(f"cannot read {args.file}: not UTF-8 text ({e})") from None
    games = read_pdn_games(text)
    for i, g in enumerate(games, 1):
        print(f"game {i}: {g.rules.option_text}, {len(g.moves)} moves, result {g.result}, "
              f"final {g.position.fen()}")
    return 0


def cmd_match(args) -> int:
    from tavli.ai.dama import match

    # its players refuse a bad level or depth before the first game
    res = match(args.rules, games=args.games, level=args.level,
                opponent_depth=args.depth, seed=args.seed, verbose=args.verbose)
    print(json.dumps(res, indent=1))
    return 0


def cmd_bench(args) -> int:
    from tavli.bench.dama import bench_dama

    bench_dama(args.positions, args.depth, args.start_depth, args.seed)
    return 0


def _position_args(p: argparse.ArgumentParser, fen_default: str | None = None) -> None:
    """The position (a FEN; optional with ``fen_default``) and the rule set a Dama
    subcommand reads."""
    p.add_argument("fen", nargs="?" if fen_default else None, default=fen_default,
                   help="a PDN FEN such as W:W21-32:B1-12, or 'start'")
    p.add_argument("--rules", default=DEFAULT_RULE_SET, help=RULES_HELP)
    p.add_argument("--no-huffing", dest="huffing", action="store_false", default=None,
                   help="box rules: compulsory capture instead of huffing")


def register(sub) -> None:
    """Register ``dama`` and its subcommands on ``sub`` (from
    ``parser.add_subparsers()``); each sets ``func`` to a function of ``args``."""
    d = sub.add_parser("dama", help="Dama (draughts): moves, play, AI, PDN, bench")
    dsub = d.add_subparsers(dest="dama_command", metavar="DAMA_COMMAND")
    d.set_defaults(func=lambda args: (d.print_help(), 2)[1])
    _register_positions(dsub)
    _register_games(dsub)
    p = dsub.add_parser("bench", help="perft speed, and the ratio against pydraughts")
    p.add_argument("--positions", type=at_least(1), default=8, help="positions per rule set")
    p.add_argument("--depth", type=at_least(1), default=3, help="perft depth on those positions")
    p.add_argument("--start-depth", type=at_least(1), default=9,
                   help="perft depth from the start")
    p.add_argument("--seed", type=seed_arg, default=1)
    p.set_defaults(func=cmd_bench)


def _register_positions(sub) -> None:
    """``dama moves``, ``show``, ``perft`` and ``hint``: one position's."""
    p = sub.add_parser("moves", help="list the legal moves")
    _position_args(p)
    p.add_argument("--algebraic", action="store_true", help="c3-d4 instead of 22-18")
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("show", help="draw a position")
    _position_args(p)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("perft", help="perft counts from a position")
    _position_args(p, fen_default="start")
    p.add_argument("--depth", type=at_least(1), default=6,
                   help=f"deepest perft, 1 to {MAX_PERFT_DEPTH}")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("hint", help="the AI's move for a position")
    _position_args(p)
    p.add_argument("--level", default="default", help="1-4, default, full, depth:N, time:S")
    p.set_defaults(func=cmd_hint)


def _register_games(sub) -> None:
    """``dama play``, ``pdn`` and ``match``: whole games."""
    p = sub.add_parser("play", help="play in the terminal")
    _position_args(p, fen_default="start")
    p.add_argument("--level", default="default", help="AI level (as for hint)")
    p.add_argument("--white", choices=["human", "ai"], default="human")
    p.add_argument("--black", choices=["human", "ai"], default="ai")
    p.add_argument("--lang", default=None, choices=LANGS,
                   help="the language of the game's texts (default: from LC_ALL, "
                        "LC_MESSAGES or LANG, else English); commands are typed in English")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("pdn", help="replay a PDN file")
    p.add_argument("file")
    p.set_defaults(func=cmd_pdn)

    p = sub.add_parser("match", help="the AI against plain depth-N minimax")
    p.add_argument("--rules", default=DEFAULT_RULE_SET, help=RULES_HELP)
    p.add_argument("--games", type=at_least(1), default=100)
    p.add_argument("--level", default="full")
    p.add_argument("--depth", type=at_least(1), default=4,
                   help="the minimax player's depth (at most 20)")
    p.add_argument("--seed", type=seed_arg, default=1)
    p.add_argument("--verbose", action="store_true")
    p.set_defaults(func=cmd_match)
