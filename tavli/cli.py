"""The ``tavli`` command: a thin layer over the library (see docs/cli.md).

Heavy modules (NumPy, the compiled generator) are imported inside the commands so that
``tavli --help`` starts fast.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from typing import Any

from tavli.argtypes import EXIT_USAGE, Parser, at_least, even_games, seed_arg
from tavli.errors import CliError, GameOver, ParseError, TavliError, one_line

__all__ = ["CliError", "build_parser", "main", "run_command"]


def _rules(game: str, options: list[str] | None):
    from tavli.engine.rules import Rules

    return Rules.for_game(game, options or [])


def _read_position(game: str | None, text: str):
    from tavli.engine.board import Position

    if text == "-":
        text = sys.stdin.read()
        if not text.strip():
            raise CliError("no position document on standard input")
    return Position.from_id(text, game)


def _check_not_over(pos, rules) -> None:
    """A finished game has no moves to list: say who won (GameOver, exit status 2)."""
    from tavli.play.game import Outcome, base_result

    result = base_result(pos, rules)
    if result is not None:
        from tavli import i18n
        from tavli.cli_text import error_msg, outcome_msg

        raise error_msg(GameOver(f"the game is over: {Outcome(*result)}"),
                        i18n.msg("cli.over", result=outcome_msg(*result)))


def _check_batch_alone(args: argparse.Namespace) -> None:
    given = [name for name, value in (("GAME", args.game), ("POSITION", args.position),
                                      ("--dice", args.dice)) if value is not None]
    if given:
        raise CliError(f"--batch reads 'GAME POSITION DICE' lines from standard input: "
                       f"{', '.join(given)} cannot be given with it")


def _move_entries(pos, dice, rules) -> list[dict[str, Any]]:
    _check_not_over(pos, rules)
    out = []
    for m in pos.legal_moves(dice, rules):
        e = {"move": str(m), "position": m.after.id()}
        if pos.variant.gnubg_ids:
            e["gnubg_id"] = m.after.gnubg_id()
        out.append(e)
    return out


def cmd_moves(args: argparse.Namespace) -> int:
    from tavli.cli_text import no_move
    from tavli.engine.board import parse_dice
    from tavli.engine.dice import dice_text

    if args.batch:
        _check_batch_alone(args)
        return _batch(args, 0, lambda pos, dice, rules, _extra: _move_entries(pos, dice, rules))
    if args.game is None or args.position is None or args.dice is None:
        raise CliError("usage: tavli moves GAME POSITION --dice 31 (or --batch)")
    rules = _rules(args.game, args.rule)
    pos = _read_position(args.game, args.position)
    dice = parse_dice(args.dice)
    entries = _move_entries(pos, dice, rules)
    if args.json:
        print(json.dumps({"moves": entries}))
    elif not entries:
        print(no_move(dice_text(dice)))
    else:
        for e in entries:
            print(e["move"])
    return 0


def _batch(args: argparse.Namespace, extra: int, entries, whole: bool = False) -> int:
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
                rules_cache[game] = _rules(game, args.rule)
            pos = _read_position(game, ptext)
            got = entries(pos, parse_dice(dtext), rules_cache[game], parts[3:])
            out: dict[str, Any] = got if whole else {"moves": got}
        except TavliError as e:
            out = {"error": f"line {lineno}: {one_line(e)}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


def _game_and_position(game: str | None, text: str | None, usage: str
                       ) -> tuple[str | None, str]:
    """``[GAME] POSITION`` read from two optional arguments: one alone is the position
    unless it names a game."""
    from tavli.engine.games import find_variant

    try:
        named = game is not None and bool(find_variant(game))
    except ParseError:
        named = False
    if text is None and game is not None and not named:
        game, text = None, game  # POSITION alone
    if text is None:
        raise CliError(f"usage: {usage}")
    return game, text


def cmd_show(args: argparse.Namespace) -> int:
    from tavli.cli_text import board
    from tavli.engine.board import Position

    game, text = _game_and_position(args.game, args.position,
                                    "tavli show [GAME] POSITION [--json]")
    if game is None and text == "start":
        raise CliError("name the game: tavli show GAME start")
    if text == "-":
        pos = _read_position(game, text)  # the JSON document names its game
    else:
        pos = Position.from_id(text, game)
    print(json.dumps(pos.to_json()) if args.json else board(pos))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    if args.what in ("eval", "rollout", "moves"):
        from tavli.bench import ai as bench

        if args.what == "eval":
            bench.bench_eval(positions=args.positions or 10000, seed=args.seed)
        elif args.what == "rollout":
            bench.bench_rollout(games=args.games or 1296, seed=args.seed)
        else:
            bench.bench_moves(games=args.games or 4, seed=args.seed)
        return 0
    if args.what == "movegen":
        from tavli.bench.movegen import bench_movegen

        bench_movegen(n_positions=args.positions or 12000, seed=args.seed)
        return 0
    if args.what == "race":
        from tavli.bench.race import POSITIONS, bench_race

        if args.players:
            raise CliError("usage: tavli bench race [--game G] [--positions N] [--trials N] "
                           "[--rollouts FILE] [--race FILE] [--net FILE] [--games N] "
                           "[--jobs J]")
        games = 10000 if args.games is None else args.games
        try:
            even_games(str(games))
        except argparse.ArgumentTypeError as e:
            args.parser.error(f"argument --games: {e}")
        bench_race(args.game, positions=args.positions or POSITIONS, trials=args.trials,
                   seed=args.seed, rollouts=args.rollouts, race=args.race, net=args.net,
                   games=games, progress=sys.stderr, jobs=args.jobs)
        return 0
    if args.what == "strength":
        from tavli.bench.strength import bench_strength

        if len(args.players) != 2:
            raise CliError("usage: tavli bench strength PLAYER_A PLAYER_B [--game G] "
                           "[--games N] [--cube | --match N]")
        if args.cube and args.match:
            raise CliError("--cube (money play) and --match N (match play) exclude each other")
        games = (2000 if args.match else 10000) if args.games is None else args.games
        try:
            even_games(str(games))
        except argparse.ArgumentTypeError as e:
            args.parser.error(f"argument --games: {e}")
        bench_strength(args.players[0], args.players[1], game=args.game, games=games,
                       seed=args.seed, rules_options=args.rule, log=args.log, jobs=args.jobs,
                       progress=sys.stderr if args.log else None, cube=args.cube,
                       match=args.match or 0)
        return 0
    if args.what == "cube":
        from tavli.bench.cube import bench_cube

        if args.players:
            raise CliError("usage: tavli bench cube [--positions N] [--ply P] [--gnubg-ply P] "
                           "[--seed S]")
        bench_cube(positions=args.positions or 1000, ply=args.ply or 0,
                   gnubg_ply=args.gnubg_ply or 0, seed=args.seed)
        return 0
    if args.what == "choices":
        from tavli.bench.choices import bench_choices

        if args.players:
            raise CliError("usage: tavli bench choices [--game G] [--games N] [--ply P] "
                           "[--gnubg-ply P] [--judge-ply P] [--seed S]")
        bench_choices(args.game, games=args.games or 100, ply=args.ply or 0,
                      gnubg_ply=args.gnubg_ply, judge_ply=args.judge_ply, seed=args.seed,
                      progress=sys.stderr)
        return 0
    if args.what == "dama":
        from tavli.dama.cli import bench_dama

        bench_dama(seed=args.seed)
        return 0
    if args.what == "server":
        from tavli.online.bench import bench_server, parse_think

        res = bench_server(players=args.n_players, processes=args.processes, db=args.db,
                           seconds=args.seconds, think=parse_think(args.think),
                           clients=args.client_processes, seed=args.seed,
                           profile=args.profile)
        bad = (res["lost"] + res["mismatched"] + res["not_received"] + res["duplicated"]
               + res["out_of_order"] + res["log_gaps"])
        return 1 if bad or res["errors"] or res["tracebacks"] else 0
    if args.what == "web":
        from tavli.web.bench import bench_web

        res = bench_web(clients=args.clients, requests=args.requests or 30,
                        ply=2 if args.ply is None else args.ply,
                        points=args.points, seed=args.seed)
        return 1 if res["errors"] else 0
    raise CliError(f"unknown benchmark {args.what!r}")


def _hint_ranked(pos, dice, rules, level, score=None) -> tuple[list, str, str]:
    """The ranked moves (by match winning chances at a match ``score``:
    :class:`~tavli.play.cube.scoring.ScoreWeights`), the position's class and the valuer that
    answers for it before the roll."""
    from tavli.ai.analyzer import Analyzer
    from tavli.ai.levels import parse_level

    ply, _noise = parse_level(level)
    _check_not_over(pos, rules)
    moves = pos.legal_moves(dice, rules)
    an = Analyzer(rules)
    cls, valuer = an.position_valuer(pos)
    return an.rank(pos, moves, ply, score), cls, valuer


def _hint(pos, dice, rules, level) -> dict[str, Any]:
    """The hint's answer: the position's class, the valuer answering for it and the
    ranked moves."""
    ranked, cls, valuer = _hint_ranked(pos, dice, rules, level)
    return {"class": cls, "evaluator": valuer, "moves": [r.to_dict() for r in ranked]}


def cmd_hint(args: argparse.Namespace) -> int:
    from tavli.cli_text import _, class_line, columns, no_move, score_line
    from tavli.engine.board import parse_dice
    from tavli.engine.dice import dice_text

    if args.batch:
        _check_batch_alone(args)
        if args.rollout is not None:
            raise CliError("--rollout cannot be used with --batch")
        return _batch(args, 1, lambda pos, dice, rules, extra: _hint(
            pos, dice, rules, extra[0] if extra else args.level), whole=True)
    if args.game is None or args.position is None:
        raise CliError("usage: tavli hint GAME POSITION [--dice 31] [--level L] (or --batch)")
    from tavli.cube.hint import id_match_state

    rules = _rules(args.game, args.rule)
    text = args.position
    if text == "-":
        text = sys.stdin.read()
        if not text.strip():
            raise CliError("no position document on standard input")
    pos = _read_position(args.game, text)
    state = id_match_state(text)  # an XGID's or a Match ID's cube and score
    if args.dice is None and state is not None and state.dice and rules.cube:
        args.dice = "".join(str(d) for d in state.dice)
    if args.dice is None:
        return _cube_hint(args, pos, rules, state)
    dice = parse_dice(args.dice)
    score = _hint_score(args, pos, rules, state)
    ranked, cls, valuer = _hint_ranked(pos, dice, rules, args.level, score)
    entries = [r.to_dict() for r in ranked]
    if args.json:
        doc: dict[str, Any] = {"class": cls, "evaluator": valuer, "moves": entries}
        if not score.is_money:
            doc["score"] = score.to_dict()
        if args.rollout is not None:
            from tavli.rollout_cli import hint_rollouts

            doc["rollouts"] = hint_rollouts(pos, ranked, rules, args.rollout, True) \
                if ranked else []
        print(json.dumps(doc))
        return 0
    if not entries:
        print(no_move(dice_text(dice)))
        return 0
    best = entries[0]["equity"]
    # the probabilities the scoring in force counts (no backgammon columns without them)
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
    if args.rollout is not None:
        from tavli.rollout_cli import hint_rollouts

        hint_rollouts(pos, ranked, rules, args.rollout, False)
    return 0


def _score_options_given(args: argparse.Namespace) -> bool:
    return (args.match is not None or args.score is not None or args.cube is not None
            or args.owner is not None or args.crawford)


def _hint_score(args: argparse.Namespace, pos, rules, state):
    """How the outcomes count for a move hint: from the options, else from the match
    state of an XGID or Match ID, else money play."""
    from tavli.cube.hint import cube_info_from_id, score_from_options
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
    from tavli.cube.hint import cube_hint, cube_info_from_id, cube_info_from_options

    if state is not None and rules.cube and not _score_options_given(args):
        ci = cube_info_from_id(state, rules, pos.turn)
    else:
        ci = cube_info_from_options(rules, args.match, args.score, args.cube, args.owner,
                                    args.crawford)
    _check_not_over(pos, rules)
    ply = min(parse_level(args.level)[0], 2)
    for line in cube_hint(pos, rules, ci, ply, args.json, rollout=args.rollout):
        print(line)
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from tavli.ai import analysis
    from tavli.ai.analysis import format_analysis, ply_note, review_ply
    from tavli.ai.levels import level_name, parse_level
    from tavli.errors import RuleError
    from tavli.play.record import load

    levels = {}
    if args.ai is not None:
        try:
            levels = {"the AI": level_name(args.ai)}
        except RuleError as e:
            raise CliError(f"--ai: {e}") from None
    if args.ply is not None:
        ply = args.ply
    elif args.level is not None or not levels:
        ply = parse_level(args.level)[0]
    else:
        ply = review_ply(levels)
    obj = load(args.record)
    entries = analysis.analyse_turns(obj, ply)
    result = analysis.summarise(entries, ply, analysis.result_of(obj), ply_note(ply, levels))
    rolled: dict = {}
    if args.rollout is not None:
        from tavli.rollout_cli import analysis_rollouts

        rolled = analysis_rollouts(obj, entries, result["turns"], args.rollout)
    if args.json:
        print(json.dumps(result))
        return 0
    from tavli import i18n

    def below(t: dict[str, Any]) -> list[str]:
        return rolled.get((t["game"], t["turn"]), [])

    if i18n.current() == i18n.DEFAULT:
        print(format_analysis(result, below))
    else:
        from tavli.ai.analysis import ply_note_msg
        from tavli.cli_text import analysis_text

        print(analysis_text({**result, "ply_note_msg": ply_note_msg(ply, levels)}, below))
    if args.rollout is not None and not rolled:
        from tavli.cli_text import _

        print(_("cli.an.nothing"))
    return 0


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
    train_rounds(start, args.run, settings, args.rounds, race, args.jobs)
    return 0


def cmd_bearoff(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from tavli.ai import bearoff

    folder = Path(args.dir).expanduser() if args.dir else None
    if folder is not None and folder.exists() and not folder.is_dir():
        raise CliError(f"--dir {args.dir}: not a folder")
    path = (folder or bearoff.cache_dir()) / bearoff.FILE_NAME
    if args.action == "build":
        if path.exists() and not args.force:
            print(f"the bear-off databases are already built: {path} (--force builds "
                  "them again)")
            return 0
        t0 = time.perf_counter()
        bearoff.build(path, progress=sys.stderr)
        print(f"built the bear-off databases in {time.perf_counter() - t0:.1f} s: {path} "
              f"({path.stat().st_size / 1e6:.1f} MB)")
        return 0
    from tavli.ai.bearoff_text import looks_like_counts, parse_counts, position_text, side_text

    game, text = _game_and_position(args.game, args.position,
                                    "tavli bearoff show [GAME] POSITION [--dir DIR]")
    counts = parse_counts(text) if game is None and looks_like_counts(text) else None
    pos = None if counts is not None else _read_position(game, text)
    if folder is None:
        tables = bearoff.load_tables()
    elif not path.exists():
        raise CliError(f"no bear-off databases in {folder}: build them with `tavli "
                       f"bearoff build --dir {folder}`")
    else:
        tables = bearoff.load(path)
    if counts is not None:
        lines = side_text(tables[0], counts, "one side")
    else:
        lines = position_text(tables, pos.array, pos.turn)
    print("\n".join(lines))
    return 0


def cmd_met(args: argparse.Namespace) -> int:
    from tavli.cube.cli import cmd_met as run

    return run(args)


def cmd_convert(args: argparse.Namespace) -> int:
    from tavli import i18n
    from tavli.cli_text import _
    from tavli.play.formats import convert
    from tavli.play.match import Match

    obj = convert(args.input, args.output, args.from_format, args.format)
    what = (i18n.ngettext(i18n.current(), "cli.convert.match", len(obj.games),
                          target=obj.target)
            if isinstance(obj, Match) else _("cli.convert.one"))
    print(_("cli.convert", input=args.input, output=args.output, what=what))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Recompute the dice of a finished online game's record: status 0 when every die is
    the seeds' and the server seed the committed one, else one line per problem and 1."""
    from tavli.errors import RecordError
    from tavli.online.fairdice import verify_record

    path = args.record
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(f"{path} is not valid JSON: {e}") from None
    rolls, problems = verify_record(data)
    for p in problems:
        print(f"{path}: {one_line(p)}")
    if problems:
        return 1
    from tavli import i18n

    print(i18n.ngettext(i18n.current(), "cli.verify.ok", rolls, path=path))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from tavli.online.serve import run

    return run(args)


def cmd_play(args: argparse.Namespace) -> int:
    if getattr(args, "tui", False):
        from tavli import tui

        return tui.run(args)
    from tavli.web.server import run

    return run(args)


#: the CLI's languages (tavli.i18n.LANGUAGES; written out so that --help imports nothing)
LANGS = ("en", "el", "it", "de")


def add_lang_option(parser: argparse.ArgumentParser, shown: str | None = None) -> None:
    """``--lang en|el|it|de``, the language of the command's texts (default
    ``$TAVLI_LANG``, else English; :mod:`tavli.cli_text`). On ``tavli`` itself and on the
    commands that print player-facing text; given twice, the later one counts."""
    parser.add_argument("--lang", dest="cli_lang", choices=LANGS, default=argparse.SUPPRESS,
                        help=shown or "the language of the output: en (default), el, it, "
                                      "de; also $TAVLI_LANG")


def build_parser() -> argparse.ArgumentParser:
    from tavli.engine.games import game_names

    p = Parser(
        prog="tavli",
        description="Tavli (Portes, Plakoto, Fevga) and backgammon: rules engine and play.")
    add_lang_option(p, "the language of the commands' texts: en (default), el, it, de; "
                       "also $TAVLI_LANG")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    rule_help = "set a rule option, e.g. --rule must_play_higher=true (repeatable)"

    m = sub.add_parser("moves", help="list the legal moves of a position",
                       description="List the legal moves of a position for a roll.")
    m.add_argument("game", nargs="?", help="|".join(game_names()))
    m.add_argument("position", nargs="?",
                   help="tavli position ID, gnubg Position ID, 'start', or '-' (JSON on stdin)")
    m.add_argument("--dice", "-d", help="the roll, e.g. 31")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.add_argument("--batch", action="store_true",
                   help="read lines 'GAME POSITION DICE' from stdin, write one JSON line each")
    m.add_argument("--rule", action="append", metavar="NAME=VALUE", help=rule_help)
    add_lang_option(m)
    m.set_defaults(func=cmd_moves)

    s = sub.add_parser("show", help="draw a position or print its JSON document")
    s.add_argument("game", nargs="?", help="|".join(game_names()) + " (optional for IDs)")
    s.add_argument("position", nargs="?", help="position ID, gnubg ID, 'start' or '-'")
    s.add_argument("--json", action="store_true", help="print the JSON position document")
    add_lang_option(s)
    s.set_defaults(func=cmd_show)

    h = sub.add_parser("hint", help="rank the legal moves, or the cube decision, with the AI",
                       description="With --dice: every legal move ranked with equity and "
                                   "win/gammon probabilities (first: the move the AI "
                                   "plays). Without: the cube decision before the roll "
                                   "(backgammon): cubeful equities of no double, "
                                   "double/take, double/pass and the proper action. "
                                   "At a match score (--match, --score, or the one an "
                                   "XGID or Match ID carries) moves are ranked by match "
                                   "winning chances, shown as MWC.")
    h.add_argument("game", nargs="?", help="|".join(game_names()))
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
    h.add_argument("--rule", action="append", metavar="NAME=VALUE", help=rule_help)
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

    from tavli.rollout_cli import add_rollout_command

    add_rollout_command(sub, rule_help, "trials (default 1296; a multiple of 1296 "
                                        "stratifies the first two rolls)")

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
    a.add_argument("--json", action="store_true", help="print JSON")
    add_lang_option(a)
    a.set_defaults(func=cmd_analyse)

    t = sub.add_parser("train", help="train a network by self-play (resumable)")
    t.add_argument("game", help="portes|backgammon (one network), plakoto or fevga")
    t.add_argument("--games", type=at_least(1), default=1_000_000,
                   help="total games to reach (default 1,000,000)")
    t.add_argument("--run", default=None, help="run folder (default runs/FAMILY)")
    t.add_argument("--hidden", type=at_least(1), default=80,
                   help="hidden units of a new network")
    t.add_argument("--inputs", default=None, metavar="ENCODER",
                   help="the encoder a new network reads (default the family's own; "
                        "portes-2 for portes/backgammon; kept by a resumed run)")
    t.add_argument("--seed", type=seed_arg, default=None)
    t.add_argument("--from", dest="start_from", default=None, metavar="FILE",
                   help="a new run starts from these weights (e.g. tavli/data/plakoto.npz) "
                        "instead of random ones")
    t.add_argument("--alpha", dest="alpha0", type=float, default=None, metavar="ALPHA",
                   help="the step size at the start (default 0.1; kept by a resumed run)")
    t.add_argument("--half-life", type=int, default=None, metavar="GAMES",
                   help="the step size halves every GAMES games (default 300,000; kept "
                        "by a resumed run)")
    t.add_argument("--floor", type=float, default=None, metavar="ALPHA",
                   help="the smallest step size (default 0.01; kept by a resumed run)")
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

    r = sub.add_parser("train-race", help="train a race network by TD from race positions "
                       "(resumable)",
                       description="Train the race network of a family: games from race "
                                   "positions (where contact ended in self-play of the "
                                   "shipped network) played to the end, TD(0).")
    r.add_argument("game", help="portes|backgammon (one network), plakoto or fevga")
    r.add_argument("--games", type=at_least(1), default=200_000,
                   help="total games to reach (default 200,000)")
    r.add_argument("--run", default=None, help="run folder (default runs/FAMILY-race)")
    r.add_argument("--hidden", type=at_least(1), default=64,
                   help="hidden units of a new network (default 64)")
    r.add_argument("--seed", type=seed_arg, default=None)
    r.add_argument("--starts", default=None, metavar="FILE",
                   help="a new run trains from these race positions instead of sampling "
                        "its own")
    r.add_argument("--sample", type=at_least(10), default=30_000, metavar="GAMES",
                   help="self-play games a new run samples its starts from (default 30,000)")
    r.add_argument("--check", default=None, metavar="FILE",
                   help="rollouts of `tavli bench race --rollouts FILE`: log the error "
                        "against them at each check")
    r.add_argument("--alpha", dest="alpha0", type=float, default=None, metavar="ALPHA",
                   help="the step size at the start (default 0.1; kept by a resumed run)")
    r.add_argument("--half-life", type=int, default=None, metavar="GAMES",
                   help="the step size halves every GAMES games (default 50,000)")
    r.add_argument("--floor", type=float, default=None, metavar="ALPHA",
                   help="the smallest step size (default 0.005)")
    r.add_argument("--explore", type=float, default=None, metavar="SHARE",
                   help="share of turns that go on with a random move, the target staying "
                        "the best move's value (default 0)")
    r.add_argument("--targets", default=None, metavar="td|ply1",
                   help="td: learn toward the roll played (default); ply1: toward the mean "
                        "over the 21 rolls (about 20x slower)")
    r.add_argument("--check-every", type=int, default=None, metavar="GAMES",
                   help="games between checks, written to log.jsonl (default 10,000)")
    r.set_defaults(func=cmd_train_race)

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
    tr.add_argument("--jobs", type=at_least(1), default=None,
                    help="labelling processes (default: one per core)")
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

    b = sub.add_parser("bench", help="benchmarks that print figures and ratios")
    b.add_argument("what", choices=["movegen", "strength", "race", "cube", "choices", "dama", "web",
                                    "server", "eval", "rollout", "moves"])
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
                        "even (default 10,000)")
    b.add_argument("--trials", type=at_least(2), default=1296,
                   help="race: play-outs per position (default 1,296)")
    b.add_argument("--rollouts", metavar="FILE",
                   help="race: the positions and rollouts, read if the file exists, else "
                        "made and saved there")
    b.add_argument("--race", metavar="FILE", help="race: the race network (default the "
                                                   "shipped one)")
    b.add_argument("--net", metavar="FILE", help="race: the contact network (default the "
                                                  "shipped one)")
    b.add_argument("--seed", type=seed_arg, default=1)
    b.add_argument("--cube", action="store_true",
                   help="strength: money play with the cube (Jacoby on); players "
                        "neural[:LEVEL] (cubeful cube) and neural-thresholds[:LEVEL] "
                        "(the old fixed thresholds)")
    b.add_argument("--match", type=at_least(1, 25), default=None, metavar="N",
                   help="strength: play N-point matches with the cube and the Crawford rule "
                        "(--games counts matches, default 2,000); neural-money[:LEVEL] "
                        "decides the cube as in money play whatever the score")
    b.add_argument("--rule", action="append", metavar="NAME=VALUE", help=rule_help)
    b.add_argument("--log", metavar="FILE",
                   help="strength: append each dice pair's result to FILE and resume from "
                        "it (for long runs: search levels, gnubg, greedy)")
    b.add_argument("--jobs", type=at_least(1), default=1,
                   help="strength: processes for games played through Python; race: "
                        "processes for the rollouts")
    b.add_argument("--clients", type=at_least(2), default=10,
                   help="web: clients (one reviews, the others make plain requests)")
    b.add_argument("--requests", type=at_least(1), default=None,
                   help="web: plain requests per client in the reference phase (default "
                        "30)")
    b.add_argument("--db", default=None,
                   help="server: the online store (default a temporary SQLite file with "
                        "one process, a throw-away PostgreSQL cluster with two or with "
                        "--db postgresql; or a file, postgresql://...)")
    b.add_argument("--players", dest="n_players", type=at_least(2, 20_000), default=1000,
                   metavar="N",
                   help="server: simulated players, in pairs (default 1,000; at most 20,000)")
    b.add_argument("--processes", type=int, choices=[1, 2], default=1,
                   help="server: tavli serve processes sharing the store (default 1)")
    b.add_argument("--seconds", type=float, default=60.0,
                   help="server: seconds of play, after the set-up (default 60)")
    b.add_argument("--think", default="1-3", metavar="LOW-HIGH",
                   help="server: seconds a player waits before each roll and move, "
                        "uniform (default 1-3: a quick human)")
    b.add_argument("--client-processes", type=at_least(1), default=1, metavar="K",
                   help="server: processes running the simulated players (default 1)")
    b.add_argument("--profile", metavar="FILE",
                   help="server: run the first server under cProfile, statistics to FILE")
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
    b.set_defaults(func=cmd_bench, parser=b)

    bo = sub.add_parser("bearoff", help="exact bear-off databases: build, show a position",
                        description="The exact bear-off databases the AI uses (docs/ai.md): "
                                    "build them, or show a bear-off position's values.")
    bsub = bo.add_subparsers(dest="action", metavar="ACTION", required=True)
    bb = bsub.add_parser("build", help="build the databases (once; about 10-30 s)")
    bb.add_argument("--force", action="store_true", help="build them again if present")
    bb.add_argument("--dir", metavar="DIR", help="the folder (default: $TAVLI_CACHE_DIR, "
                    "else $XDG_CACHE_HOME/tavli, else ~/.cache/tavli)")
    bb.set_defaults(func=cmd_bearoff)
    bs = bsub.add_parser("show", help="a bear-off position's rolls to bear off and chances")
    bs.add_argument("game", nargs="?", help="|".join(game_names()) + " (optional for IDs)")
    bs.add_argument("position", nargs="?",
                    help="position ID, gnubg ID, '-' (JSON on stdin), or one side's checkers "
                         "on points 1..6 as counts, e.g. 3,2,0,0,0,1")
    bs.add_argument("--dir", metavar="DIR", help="the databases' folder (default: the cache)")
    bs.set_defaults(func=cmd_bearoff)

    mt = sub.add_parser("met", help="match equity: the table, or one score's take and cash "
                                     "points and gammon values",
                        description="The match equity table of backgammon matches (computed "
                                    "by tavli, or the published Kazaross-XG2), or one score's "
                                    "entry; --tavli: a Tavli match's equity.")
    mt.add_argument("--length", type=int, metavar="N",
                    help="the match length (1..25; the table: default 15)")
    mt.add_argument("--score", metavar="A-B",
                    help="points won by me and by the opponent: show that score's entry")
    which = mt.add_mutually_exclusive_group()
    which.add_argument("--published", action="store_true",
                       help="the published Kazaross-XG2 table")
    which.add_argument("--computed", action="store_true",
                       help="the table tavli computes (the default)")
    mt.add_argument("--tavli", action="store_true",
                    help="a Tavli match (Portes, Plakoto, Fevga; no cube): default 5 points")
    mt.set_defaults(func=cmd_met)

    from tavli.dama.cli import add_dama_commands

    add_dama_commands(sub)

    cv = sub.add_parser("convert", help="convert a game or match file (.json, .mat, .sgf)",
                        description="Read a game or match (a tavli record .json, a gnubg/"
                        "Jellyfish .mat, a gnubg .sgf), replay it through the engine and "
                        "write it in another format. The formats follow the extensions.")
    cv.add_argument("input", help="the file to read")
    cv.add_argument("output", help="the file to write")
    cv.add_argument("--format", choices=("json", "mat", "sgf"), default=None,
                    help="the output format (default: by OUTPUT's extension)")
    cv.add_argument("--from", dest="from_format", choices=("json", "mat", "sgf"),
                    default=None, help="the input format (default: by INPUT's extension)")
    add_lang_option(cv)
    cv.set_defaults(func=cmd_convert)

    vf = sub.add_parser("verify", help="recompute the dice of a finished online game",
                        description="Check a finished online game's record (JSON): the "
                        "revealed server seed against its commitment, and every die "
                        "against the seeds (docs/server.md, Provably fair dice). Prints "
                        "one line per problem; exit status 0 when the dice verify, 1 when "
                        "not, 2 when the file cannot be read as a record.")
    vf.add_argument("record", metavar="RECORD", help="the record file (.json)")
    add_lang_option(vf)
    vf.set_defaults(func=cmd_verify)

    sv = sub.add_parser("serve", help="run the online server (games played over the network)",
                        description="Serve online games: an HTTP API that creates and joins "
                        "games and one WebSocket per game (docs/server.md). Loopback only "
                        "unless --host is given.")
    from tavli.online.serve import add_arguments as add_serve_arguments

    add_serve_arguments(sv)
    sv.set_defaults(func=cmd_serve)

    pl = sub.add_parser("play", help="play a game or match (--tui: in the terminal)")
    from tavli.tui_args import add_play_arguments

    add_play_arguments(pl, rule_help)
    pl.set_defaults(func=cmd_play)
    return p


def _runs_compiled_code(args: argparse.Namespace) -> bool:
    """Whether the command may call Numba kernels (``show`` does not; the browser app's
    server says so itself while it warms up)."""
    return (args.command not in ("show", "met", "convert")
            and not (args.command == "play" and not args.tui))


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    if argv is None and _runs_compiled_code(args):  # a real command line, not a test's call
        from tavli.engine.numba_cache import announce_compile

        announce_compile()  # a first run compiles for half a minute: say so
    if isinstance(sys.stdin, io.TextIOWrapper):
        # bytes that are not text in the locale's encoding reach the parsers as U+FFFD (and
        # are reported as bad input) instead of stopping the program with a traceback
        sys.stdin.reconfigure(errors="replace")
    return run_command(args)


def run_command(args: argparse.Namespace) -> int:
    """Run a parsed command line (``args.func(args)``) and return the exit status: an
    error the user caused (a :class:`~tavli.errors.TavliError`) is one line on stderr and
    status 2; Ctrl-C is status 130; a closed pipe ends quietly. Anything else is a bug
    and shows as a traceback."""
    from tavli import i18n
    from tavli.cli_text import cli_lang, error_line, explicit_lang

    lang = i18n.DEFAULT
    try:
        lang = cli_lang(getattr(args, "cli_lang", None))
        if hasattr(args, "lang") and args.lang is None:  # play --tui, dama play: else LANG
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


if __name__ == "__main__":
    sys.exit(main())
