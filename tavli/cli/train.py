"""``tavli train``, ``tavli train-race``, ``tavli distill`` and ``tavli train-round``: training
the networks (docs/ai.md). The training modules load inside the commands."""

from __future__ import annotations

import argparse

from tavli.cli.args import add_compute_args, at_least, compute_of, even_games, seed_arg
from tavli.errors import CliError


def register(sub) -> None:
    """The training subcommands' parsers."""
    _register_train(sub)
    _register_train_race(sub)
    _register_distill(sub)
    _register_train_round(sub)


def _run_args(p: argparse.ArgumentParser, games: int, run: str, hidden: int,
              hidden_tail: str) -> None:
    """The game, the games to reach, the run folder and a new network's hidden units of
    ``train`` and ``train-race``."""
    p.add_argument("game", help="portes|backgammon (one network), plakoto or fevga")
    p.add_argument("--games", type=at_least(1), default=games,
                   help=f"total games to reach (default {games:,})")
    p.add_argument("--run", default=None, help=f"run folder (default {run})")
    p.add_argument("--hidden", type=at_least(1), default=hidden,
                   help="hidden units of a new network" + hidden_tail)


def _step_size_args(p: argparse.ArgumentParser, half_life: str, floor: str) -> None:
    """The TD step size of ``train`` and ``train-race``: its start, half-life and floor
    (their defaults in words)."""
    p.add_argument("--alpha", dest="alpha0", type=float, default=None, metavar="ALPHA",
                   help="the step size at the start (default 0.1; kept by a resumed run)")
    p.add_argument("--half-life", type=int, default=None, metavar="GAMES",
                   help=f"the step size halves every GAMES games (default {half_life})")
    p.add_argument("--floor", type=float, default=None, metavar="ALPHA",
                   help=f"the smallest step size (default {floor})")


def _register_train(sub) -> None:
    """``train``: TD self-play of a network."""
    t = sub.add_parser("train", help="train a network by self-play (resumable)")
    _run_args(t, 1_000_000, "runs/FAMILY", 80, "")
    t.add_argument("--inputs", default=None, metavar="ENCODER",
                   help="the encoder a new network reads (default the family's own; "
                        "portes-2 for portes/backgammon; kept by a resumed run)")
    t.add_argument("--seed", type=seed_arg, default=None)
    t.add_argument("--from", dest="start_from", default=None, metavar="FILE",
                   help="a new run starts from these weights (e.g. tavli/data/plakoto.npz) "
                        "instead of random ones")
    _step_size_args(t, "300,000; kept by a resumed run", "0.01; kept by a resumed run")
    t.add_argument("--explore", type=float, default=None, metavar="SHARE",
                   help="share of self-play turns played at random (default 0; kept by a "
                        "resumed run)")
    t.add_argument("--lambda", dest="lam", type=float, default=None, metavar="L",
                   help="TD(lambda)'s lambda in [0, 1) (default 0: TD(0); kept by a "
                        "resumed run)")
    t.add_argument("--targets", default=None, metavar="td|ply1",
                   help="td: learn toward the roll played (default); ply1: toward the mean "
                        "over the 21 rolls (about 20x slower; kept by a resumed run)")
    t.add_argument("--check-every", type=int, default=None, metavar="GAMES",
                   help="games between strength checks, written to log.jsonl (default "
                        "50,000; kept by a resumed run)")
    t.add_argument("--check-pairs", type=int, default=None, metavar="PAIRS",
                   help="duplicate-dice game pairs per strength check (default 1,000; "
                        "kept by a resumed run)")
    t.set_defaults(func=cmd_train)


def _register_train_race(sub) -> None:
    """``train-race``: TD self-play of a race network from race positions."""
    r = sub.add_parser("train-race", help="train a race network by TD from race positions "
                       "(resumable)",
                       description="Train the race network of a family: games from race "
                                   "positions (where contact ended in self-play of the "
                                   "shipped network) played to the end, TD(0).")
    _run_args(r, 200_000, "runs/FAMILY-race", 64, " (default 64)")
    r.add_argument("--seed", type=seed_arg, default=None)
    r.add_argument("--starts", default=None, metavar="FILE",
                   help="a new run trains from these race positions instead of sampling "
                        "its own")
    r.add_argument("--sample", type=at_least(10), default=30_000, metavar="GAMES",
                   help="self-play games a new run samples its starts from (default 30,000)")
    r.add_argument("--check", default=None, metavar="FILE",
                   help="rollouts of `tavli bench race --rollouts FILE`: log the error "
                        "against them at each check")
    _step_size_args(r, "50,000", "0.005")
    r.add_argument("--explore", type=float, default=None, metavar="SHARE",
                   help="share of turns that go on with a random move, the target staying "
                        "the best move's value (default 0)")
    r.add_argument("--targets", default=None, metavar="td|ply1",
                   help="td: learn toward the roll played (default); ply1: toward the mean "
                        "over the 21 rolls (about 20x slower)")
    r.add_argument("--check-every", type=int, default=None, metavar="GAMES",
                   help="games between checks, written to log.jsonl (default 10,000)")
    r.set_defaults(func=cmd_train_race)


def _register_distill(sub) -> None:
    """``distill label`` and ``distill fit``: a network taught its own 1-ply."""
    d = sub.add_parser("distill", help="teach a network its own 1-ply lookahead")
    dsub = d.add_subparsers(dest="step", metavar="STEP", required=True)
    dl = dsub.add_parser("label", help="label self-play positions with a net's 1-ply outputs")
    dl.add_argument("teacher", help="the teacher's weights (e.g. tavli/data/plakoto.npz)")
    dl.add_argument("out", help="the labels file to write (.npz, a new file)")
    dl.add_argument("--games", type=at_least(1), required=True, help="self-play games")
    dl.add_argument("--seed", type=seed_arg, required=True)
    dl.add_argument("--keep", type=at_least(0), default=6,
                    help="candidates labelled per sampled turn (0: the positions played; "
                         "default 6)")
    dl.add_argument("--every", type=float, default=0.25, metavar="SHARE",
                    help="share of turns sampled (default 0.25)")
    dl.add_argument("--limit", type=at_least(1), default=None, metavar="N",
                    help="stop at N positions")
    dl.set_defaults(func=cmd_distill)
    df = dsub.add_parser("fit", help="fit a student to labels, from a net's weights")
    df.add_argument("init", help="the weights the student starts from (the teacher)")
    df.add_argument("out", help="the student's weights file to write (a new file)")
    df.add_argument("data", nargs="+", help="labels files from `tavli distill label`")
    df.add_argument("--hidden", type=at_least(1), default=320, help="hidden units "
                    "(default 320; the first ones start as the teacher's)")
    df.add_argument("--epochs", type=at_least(1), default=80, help="passes (default 80)")
    df.add_argument("--lr", type=float, default=1e-3, help="Adam's step size (default 0.001)")
    df.set_defaults(func=cmd_distill)


def _register_train_round(sub) -> None:
    """``train-round``: supervised rounds (label, fit, keep a better net)."""
    tr = sub.add_parser(
        "train-round", help="supervised rounds: label with 2-ply, fit, keep a better net",
        description="Supervised rounds (resumable: run the same command again): label "
                    "positions of the current net's self-play with a deeper search of its "
                    "evaluator, fit a student to them, play it against the net, keep it "
                    "only if significantly better; stop after --rounds or two rounds "
                    "without gain. The current net is RUN/best.npz.")
    tr.add_argument("game", help="the game whose family's network is trained (portes, "
                                 "backgammon, plakoto, fevga)")
    tr.add_argument("--from", dest="start_from", metavar="NET", default=None,
                    help="the network to start from (default: the shipped one)")
    tr.add_argument("--race", metavar="NET", default=None,
                    help="a race network for the evaluator (labels and matches)")
    tr.add_argument("--run", required=True, metavar="DIR", help="the run folder")
    tr.add_argument("--labels", metavar="DIR", default=None,
                    help="a dataset folder to keep round 1's labels in, e.g. one committed "
                         "under training/datasets/ (later rounds' beside it, DIR-round-R); "
                         "a run resumes from the chunks it holds (default: RUN/round-R/"
                         "labels)")
    tr.add_argument("--rounds", type=at_least(1), default=1,
                    help="rounds in all (default 1; a rerun may raise it)")
    tr.add_argument("--positions", type=at_least(1), default=50_000,
                    help="positions labelled a round (default 50,000)")
    tr.add_argument("--targets", choices=["ply2", "ply1", "rollout"], default="ply2",
                    help="the labels: 2-ply (default), 1-ply or a truncated rollout")
    tr.add_argument("--class", dest="position_class", default="contact",
                    choices=["contact", "race", "bear-off", "any"],
                    help="the positions kept (default contact)")
    tr.add_argument("--every", type=float, default=0.1, metavar="SHARE",
                    help="share of self-play turns whose position is labelled (default 0.1)")
    tr.add_argument("--screen", type=float, default=0.1, metavar="SHARE",
                    help="share of turns screened: where 1-ply chooses another move than "
                         "0-ply, both after-positions are labelled (default 0.1)")
    tr.add_argument("--trials", type=at_least(1), default=36,
                    help="rollout: play-outs a position (default 36)")
    tr.add_argument("--depth", type=at_least(0), default=7,
                    help="rollout: turns a play-out (default 7; 0: to the end)")
    tr.add_argument("--luck", action="store_true",
                    help="rollout: take the luck of every roll out (less noise, about 20x "
                         "the work)")
    tr.add_argument("--chunk", type=at_least(1), default=1000,
                    help="positions a labels file (default 1,000)")
    add_compute_args(tr, "one per core")
    tr.add_argument("--hidden", type=at_least(1), default=None,
                    help="the student's hidden units (default: the teacher's)")
    tr.add_argument("--epochs", type=at_least(1), default=30, help="most epochs (default 30)")
    tr.add_argument("--patience", type=at_least(0), default=3,
                    help="stop after this many epochs without a better held-out error "
                         "(default 3; 0: never)")
    tr.add_argument("--lr", type=float, default=1e-3, help="Adam's step size (default 0.001)")
    tr.add_argument("--batch", type=at_least(1), default=512,
                    help="positions a gradient step (default 512)")
    tr.add_argument("--games", type=even_games, default=10_000,
                    help="games of the student-teacher match (default 10,000)")
    tr.add_argument("--z", type=float, default=2.0,
                    help="standard errors the student must win by to be kept (default 2)")
    tr.add_argument("--seed", type=seed_arg, default=1)
    tr.set_defaults(func=cmd_train_round)


def cmd_train(args: argparse.Namespace) -> int:
    from tavli.training.train import train

    train(args.game, args.games, args.run, hidden=args.hidden, seed=args.seed,
          check_every=args.check_every, check_pairs=args.check_pairs,
          start_from=args.start_from, half_life=args.half_life, floor=args.floor,
          explore=args.explore, lam=args.lam, targets=args.targets, alpha0=args.alpha0,
          inputs=args.inputs)
    return 0


def cmd_train_race(args: argparse.Namespace) -> int:
    from tavli.training.racetrain import train_race_net

    train_race_net(args.game, args.games, args.run, hidden=args.hidden, seed=args.seed,
                   starts=args.starts, sample_games=args.sample, check=args.check,
                   alpha0=args.alpha0, half_life=args.half_life, floor=args.floor,
                   explore=args.explore, targets=args.targets, check_every=args.check_every)
    return 0


def cmd_distill(args: argparse.Namespace) -> int:
    from pathlib import Path

    from tavli.ai.net import Net
    from tavli.training import distill

    out = Path(args.out)
    if out.exists():
        raise CliError(f"{out} exists: name a new file (nothing is overwritten)")
    if not out.parent.is_dir():
        raise CliError(f"no folder {out.parent} for {out}")
    if args.step == "label":
        teacher = Net.load(args.teacher)
        data = distill.label(teacher, args.games, args.seed, args.keep, args.every, args.limit)
        data.save(out)
        print(f"{len(data.boards)} positions from {data.games} games -> {out}")
    else:
        init = Net.load(args.init)
        data = [distill.Labelled.load(f) for f in args.data]
        distill.fit(init, data, args.hidden, args.epochs, out, lr=args.lr)
    return 0


def cmd_train_round(args: argparse.Namespace) -> int:
    from tavli.ai.encode import family_name
    from tavli.ai.net import Net
    from tavli.ai.shipped import shipped_net
    from tavli.engine.games import find_variant
    from tavli.training.fitting import FitSettings
    from tavli.training.labels import LabelSettings
    from tavli.training.rounds import RoundSettings, train_rounds

    family = find_variant(args.game).family
    start = Net.load(args.start_from) if args.start_from else shipped_net(args.game)
    if family_name(start.family) != family:
        raise CliError(f"{args.start_from} is a {family_name(start.family)} network, not "
                       f"one of {family} ({args.game})")
    race = Net.load(args.race) if args.race else None
    settings = RoundSettings(
        positions=args.positions,
        labels=LabelSettings(targets=args.targets, cls=args.position_class, every=args.every,
                             screen=args.screen, trials=args.trials, depth=args.depth,
                             luck=args.luck, chunk=args.chunk),
        fit=FitSettings(hidden=args.hidden, epochs=args.epochs, patience=args.patience,
                        lr=args.lr, batch=args.batch),
        games=args.games, z=args.z, seed=args.seed)
    train_rounds(start, args.run, settings, args.rounds, race, compute_of(args, None),
                 labels=args.labels)
    return 0
