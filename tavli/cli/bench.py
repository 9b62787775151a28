"""``tavli bench``: the benchmarks that print figures and ratios (the first run from an
empty cache, the move generator, the
AI's strength and speed, the race and cube benchmarks, Dama, the web app, the online
server). The benchmarks themselves live with what they measure (:mod:`tavli.bench.movegen`,
:mod:`tavli.bench.ai`, :mod:`tavli.bench.strength`, ...), loaded inside the commands."""

from __future__ import annotations

import argparse
import sys

from tavli.cli import dama
from tavli.cli.args import (
    add_compute_args,
    add_rule_option,
    at_least,
    compute_of,
    dama_rule_set,
    even_games,
    numbers,
    seed_arg,
)
from tavli.cli.common import require_extra
from tavli.errors import CliError


def register(sub) -> None:
    """The ``bench`` subcommand's parser: one ``WHAT`` and the options of every benchmark."""
    b = sub.add_parser("bench", help="benchmarks that print figures and ratios")
    b.add_argument("what", choices=["coldstart", "movegen", "strength", "race", "cube",
                                    "choices", "dama", "web", "server", "eval", "rollout",
                                    "moves", "jobs", "env"])
    _play_options(b)
    _service_options(b)
    _ply_options(b)
    b.set_defaults(func=cmd_bench, parser=b)


def _play_options(b: argparse.ArgumentParser) -> None:
    """The players and games of ``strength``, ``race``, ``eval``, ``rollout``, ``moves``."""
    b.add_argument("players", nargs="*",
                   help="strength: two players, e.g. neural pubeval, neural:worldclass "
                        "neural:0, greedy random, gnubg[:PLY], net:FILE")
    b.add_argument("--positions", type=at_least(4), default=None,
                   help="movegen: positions (default 12,000); eval: positions per round "
                        "(default 10,000); race: race positions (default 500); cube: "
                        "positions (default 1,000)")
    b.add_argument("--game", default="backgammon", help="strength, race: the game")
    b.add_argument("--games", type=at_least(1), default=None,
                   help="strength: games (matches with --match), an even number (each dice "
                        "sequence is played twice; default 10,000); rollout: trials per "
                        "position (default 1296); moves: games per level (default 4); race: "
                        "duplicate games from the positions, race net against contact net, "
                        "even (default 10,000); env: games each timed run plays (the "
                        "batched environments: per game of the batch; default runs of "
                        "--seconds)")
    b.add_argument("--trials", type=at_least(2), default=1296,
                   help="race: play-outs per position (default 1,296)")
    b.add_argument("--rollouts", metavar="FILE",
                   help="race: the positions and rollouts, read if the file exists, else "
                        "made and saved there")
    b.add_argument("--race", metavar="FILE", help="race, choices, moves, eval: the race network "
                                                   "(default the shipped one)")
    b.add_argument("--net", metavar="FILE", help="race, choices, moves, eval: the contact network "
                                                  "(default the shipped one)")
    b.add_argument("--seed", type=seed_arg, default=1)
    b.add_argument("--cube", action="store_true",
                   help="strength: money play with the cube (Jacoby on); players "
                        "neural[:LEVEL] (cubeful cube) and neural-thresholds[:LEVEL] "
                        "(the old fixed thresholds)")
    b.add_argument("--match", type=at_least(1, 25), default=None, metavar="N",
                   help="strength: play N-point matches with the cube and the Crawford rule "
                        "(--games counts matches, default 2,000); neural-money[:LEVEL] "
                        "decides the cube as in money play whatever the score")
    add_rule_option(b)
    b.add_argument("--log", metavar="FILE",
                   help="strength: append each dice pair's result to FILE and resume from "
                        "it (for long runs: search levels, gnubg, greedy)")
    add_compute_args(b, "1; strength: the games, race: the rollouts, jobs: the largest "
                        "number of workers measured")


def _service_options(b: argparse.ArgumentParser) -> None:
    """The clients and processes of ``web`` and ``server``."""
    b.add_argument("--clients", type=at_least(2), default=10,
                   help="web: clients (one reviews, the others make plain requests)")
    b.add_argument("--requests", type=at_least(1), default=None,
                   help="web: plain requests per client in the reference phase (default "
                        "30)")
    b.add_argument("--db", default=None,
                   help="server: the online store (default a temporary SQLite file with "
                        "one process, a throw-away PostgreSQL cluster with two or with "
                        "--db postgresql; or a file, postgresql://...)")
    b.add_argument("--players", dest="n_players", type=numbers(at_least(2, 20_000)),
                   default=[1000], metavar="N[,N...]",
                   help="server: simulated players, in pairs (default 1,000; at most "
                        "20,000); several, comma-separated (1000,3000): one run each")
    b.add_argument("--processes", type=numbers(at_least(1, 2)), default=[1],
                   metavar="P[,P...]",
                   help="server: tavli serve processes sharing the store, 1 or 2 (default "
                        "1); 1,2: each number of players with one process (SQLite unless "
                        "--db) and with two (PostgreSQL)")
    b.add_argument("--seconds", type=float, default=None,
                   help="server: seconds of play, after the set-up (default 60); env: "
                        "seconds of each timed run (default 1)")
    b.add_argument("--envs", type=numbers(at_least(1)), default=[256, 1024],
                   metavar="N[,N...]",
                   help="env: games in each batched environment measured (default "
                        "256,1024)")
    b.add_argument("--quick", action="store_true",
                   help="env: two short runs of small batches (a check that it runs, not "
                        "figures)")
    b.add_argument("--think", default="1-3", metavar="LOW-HIGH",
                   help="server: seconds a player waits before each roll and move, "
                        "uniform (default 1-3: a quick human)")
    b.add_argument("--client-processes", type=at_least(1), default=1, metavar="K",
                   help="server: processes running the simulated players (default 1)")
    b.add_argument("--profile", metavar="FILE",
                   help="server: run the first server under cProfile, statistics to FILE")


def _ply_options(b: argparse.ArgumentParser) -> None:
    """The plies of ``web``, ``cube`` and ``choices``; ``web``'s match."""
    b.add_argument("--ply", type=int, choices=[0, 1, 2], default=None,
                   help="web: review ply (default 2); cube: the ply of our cube decisions "
                        "(default 0)")
    b.add_argument("--gnubg-ply", type=int, choices=[0, 1, 2], default=None,
                   help="cube: the ply of gnubg-nn's cube decisions (default 0); choices: "
                        "gnubg's ply (default --ply)")
    b.add_argument("--judge-ply", type=int, choices=[0, 1, 2], default=2,
                   help="choices: the ply both judges value the two choices at (default 2)")
    b.add_argument("--points", type=at_least(1), default=3,
                   help="web: length of the match reviewed (greedy against random)")


def cmd_bench(args: argparse.Namespace) -> int:
    run = BENCHES.get(args.what)
    if run is None:
        raise CliError(f"unknown benchmark {args.what!r}")
    return run(args)


def _no_players(args: argparse.Namespace, usage: str) -> None:
    if args.players:
        raise CliError(f"usage: tavli bench {usage}")


def _even_games(args: argparse.Namespace, games: int) -> int:
    """``games`` (``--games`` or the benchmark's default): an even number, else the
    parser's one-line usage error."""
    try:
        even_games(str(games))
    except argparse.ArgumentTypeError as e:
        args.parser.error(f"argument --games: {e}")
    return games


def _bench_ai(args: argparse.Namespace) -> int:
    from tavli.bench import ai as bench

    if args.what == "eval":
        bench.bench_eval(positions=args.positions or 10000, seed=args.seed,
                         net=_evaluator_of(args))
    elif args.what == "rollout":
        bench.bench_rollout(games=args.games or 1296, seed=args.seed)
    else:
        bench.bench_moves(games=args.games or 4, seed=args.seed, net=_evaluator_of(args))
    return 0


def _bench_coldstart(args: argparse.Namespace) -> int:
    from tavli.bench.coldstart import bench_coldstart

    _no_players(args, "coldstart")
    bench_coldstart()
    return 0


def _bench_movegen(args: argparse.Namespace) -> int:
    from tavli.bench.movegen import bench_movegen

    bench_movegen(n_positions=args.positions or 12000, seed=args.seed)
    return 0


def _bench_race(args: argparse.Namespace) -> int:
    from tavli.bench.race import POSITIONS, bench_race

    _no_players(args, "race [--game G] [--positions N] [--trials N] [--rollouts FILE] "
                      "[--race FILE] [--net FILE] [--games N] [--jobs J]")
    games = _even_games(args, 10000 if args.games is None else args.games)
    bench_race(args.game, positions=args.positions or POSITIONS, trials=args.trials,
               seed=args.seed, rollouts=args.rollouts, race=args.race, net=args.net,
               games=games, progress=sys.stderr, compute=compute_of(args))
    return 0


def _bench_strength(args: argparse.Namespace) -> int:
    from tavli.bench.strength import bench_strength

    if len(args.players) != 2:
        raise CliError("usage: tavli bench strength PLAYER_A PLAYER_B [--game G] "
                       "[--games N] [--cube | --match N]")
    if dama_rule_set(args.game) is not None:  # the AI against plain minimax
        return dama.strength(args, _even_games(args, args.games or 100))
    if args.cube and args.match:
        raise CliError("--cube (money play) and --match N (match play) exclude each other")
    games = _even_games(args, (2000 if args.match else 10000) if args.games is None
                        else args.games)
    bench_strength(args.players[0], args.players[1], game=args.game, games=games,
                   seed=args.seed, rules_options=args.rule, log=args.log,
                   compute=compute_of(args),
                   progress=sys.stderr if args.log else None, cube=args.cube,
                   match=args.match or 0)
    return 0


def _bench_cube(args: argparse.Namespace) -> int:
    from tavli.bench.cube import bench_cube

    require_extra("gnubg_nn", "gnubg-nn", "tavli bench cube")  # gnubg decides alongside
    _no_players(args, "cube [--positions N] [--ply P] [--gnubg-ply P] [--seed S]")
    bench_cube(positions=args.positions or 1000, ply=args.ply or 0,
               gnubg_ply=args.gnubg_ply or 0, seed=args.seed)
    return 0


def _bench_choices(args: argparse.Namespace) -> int:
    from tavli.bench.choices import bench_choices

    require_extra("gnubg_nn", "gnubg-nn", "tavli bench choices")  # gnubg judges
    _no_players(args, "choices [--game G] [--games N] [--ply P] [--gnubg-ply P] "
                      "[--judge-ply P] [--net FILE] [--race FILE] [--seed S]")
    bench_choices(args.game, games=args.games or 100, ply=args.ply or 0,
                  gnubg_ply=args.gnubg_ply, judge_ply=args.judge_ply, seed=args.seed,
                  progress=sys.stderr, net=_evaluator_of(args))
    return 0


def _evaluator_of(args: argparse.Namespace):
    """The evaluator of ``--net`` and ``--race`` (each the shipped one where not given), or
    None for the shipped evaluator."""
    if args.net is None and args.race is None:
        return None
    from tavli.ai.evaluator import Evaluator
    from tavli.ai.net import Net
    from tavli.ai.shipped import family_race_net, shipped_net
    from tavli.engine.games import find_variant

    net = Net.load(args.net) if args.net else shipped_net(args.game)
    race = Net.load(args.race) if args.race else family_race_net(find_variant(args.game).family)
    return Evaluator(net, race)


def _bench_dama(args: argparse.Namespace) -> int:
    from tavli.bench.dama import bench_dama

    _no_players(args, "dama [--positions N] [--seed S]")
    bench_dama(**({} if args.positions is None else {"positions": args.positions}),
               seed=args.seed)
    return 0


def _bench_server(args: argparse.Namespace) -> int:
    from tavli.online.bench import bench_servers, clean, parse_think

    require_extra("httpx", "httpx", "tavli bench server")  # its simulated players' client
    runs = bench_servers(players=args.n_players, processes=args.processes, db=args.db,
                         seconds=60.0 if args.seconds is None else args.seconds,
                         think=parse_think(args.think),
                         clients=args.client_processes, seed=args.seed,
                         profile=args.profile)
    return 1 if any(not clean(res) for res in runs) else 0


def _bench_web(args: argparse.Namespace) -> int:
    from tavli.web.bench import bench_web

    res = bench_web(clients=args.clients, requests=args.requests or 30,
                    ply=2 if args.ply is None else args.ply,
                    points=args.points, seed=args.seed)
    return 1 if res["errors"] else 0


#: the benchmark of each ``WHAT``
def _bench_jobs(args: argparse.Namespace) -> int:
    from tavli.training.scaling import bench_jobs

    _no_players(args, "jobs [--positions CHUNKS] [--games N] [--jobs WORKERS] [--ray]")
    bench_jobs(chunks=args.positions or 20, pairs=(args.games or 10000) // 2,
               workers=args.jobs or 2, ray=True if args.ray else None)
    return 0


def _bench_env(args: argparse.Namespace) -> int:
    require_extra("pyspiel", "open_spiel", "tavli bench env", extra="rl")  # the reference
    require_extra("pettingzoo", "pettingzoo", "tavli bench env", extra="rl")
    from tavli.bench.env import bench_env

    _no_players(args, "env [--seconds S] [--games N] [--envs N[,N...]] [--quick] "
                      "[--seed S]")
    if args.quick:
        bench_env(seconds=0.05, games=args.games, runs=2, envs=[8, 32], seed=args.seed)
    else:
        bench_env(seconds=args.seconds or 1.0, games=args.games, envs=args.envs,
                  seed=args.seed)
    return 0


BENCHES = {"eval": _bench_ai, "rollout": _bench_ai, "moves": _bench_ai,
           "coldstart": _bench_coldstart, "movegen": _bench_movegen, "race": _bench_race,
           "strength": _bench_strength,
           "cube": _bench_cube, "choices": _bench_choices, "dama": _bench_dama,
           "server": _bench_server, "web": _bench_web, "jobs": _bench_jobs,
           "env": _bench_env}
