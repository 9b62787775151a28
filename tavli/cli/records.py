"""``tavli convert`` (a game or match file in another format), ``tavli replay`` (a file's
games replayed, each one's result and final position printed) and ``tavli verify`` (the
dice of a finished online game recomputed from its seeds)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tavli.cli.args import add_lang_option
from tavli.errors import CliError, one_line
from tavli.play.formats import FORMATS


def register(sub) -> None:
    """The ``convert``, ``replay`` and ``verify`` subcommands' parsers."""
    cv = sub.add_parser("convert", help="convert a game or match file (.json, .mat, .sgf, "
                        ".pdn)",
                        description="Read a game or match (a tavli record .json, a gnubg/"
                        "Jellyfish .mat, a gnubg .sgf, a PDN file of Dama games), replay it "
                        "through the engine and write it in another format. The formats "
                        "follow the extensions.")
    cv.add_argument("input", help="the file to read")
    cv.add_argument("output", help="the file to write")
    cv.add_argument("--format", choices=FORMATS, default=None,
                    help="the output format (default: by OUTPUT's extension)")
    cv.add_argument("--from", dest="from_format", choices=FORMATS,
                    default=None, help="the input format (default: by INPUT's extension)")
    add_lang_option(cv)
    cv.set_defaults(func=cmd_convert)

    rp = sub.add_parser("replay", help="replay a game or match file, print each game's end",
                        description="Read a game or match file (any format convert reads), "
                        "replay it through the engine and print one line per game: its "
                        "rule set or game, moves, result and final position (Dama: the "
                        "FEN; the dice games: the position ID).")
    rp.add_argument("file", help="the file to read (.json, .mat, .sgf, .pdn)")
    rp.add_argument("--from", dest="from_format", choices=FORMATS, default=None,
                    help="its format (default: by the extension)")
    add_lang_option(rp)
    rp.set_defaults(func=cmd_replay)

    vf = sub.add_parser("verify", help="recompute the dice of a finished online game",
                        description="Check a finished online game's record (JSON): the "
                        "revealed server seed against its commitment, and every die "
                        "against the seeds (docs/server.md, Provably fair dice). Prints "
                        "one line per problem; exit status 0 when the dice verify, 1 when "
                        "not, 2 when the file cannot be read as a record.")
    vf.add_argument("record", metavar="RECORD", help="the record file (.json)")
    add_lang_option(vf)
    vf.set_defaults(func=cmd_verify)


def cmd_convert(args: argparse.Namespace) -> int:
    from tavli.cli.text import _
    from tavli.play.formats import convert

    obj = convert(args.input, args.output, args.from_format, args.format)
    print(_("cli.convert", input=args.input, output=args.output, what=_what(obj)))
    _note_unfinished(args.input, obj)
    return 0


def _note_unfinished(path: str, obj: Any) -> None:
    """Say on stderr when a file's dice game or match ends before it is over: a file cut
    between two lines reads as a valid unfinished one, which must not pass unnoticed."""
    import sys

    from tavli.cli.text import _
    from tavli.play.game import Game
    from tavli.play.match import Match

    if isinstance(obj, Match) and not obj.is_over:
        print(_("cli.unfinished.match", path=path, target=obj.target, white=obj.score[0],
                black=obj.score[1], game=len(obj.games)), file=sys.stderr)
    elif isinstance(obj, Game) and not obj.is_over:
        print(_("cli.unfinished.game", path=path), file=sys.stderr)


def _what(obj: Any) -> str:
    """What a file held: ``one game``, ``a 5-point match, 4 games``, ``2 Dama games``."""
    from tavli import i18n
    from tavli.cli.text import _
    from tavli.play.game import Game
    from tavli.play.match import Match

    if isinstance(obj, Match):
        return i18n.ngettext(i18n.current(), "cli.convert.match", len(obj.games),
                             target=obj.target)
    if isinstance(obj, Game):
        return _("cli.convert.one")
    return i18n.ngettext(i18n.current(), "cli.convert.dama", len(_games(obj)))


def _games(obj: Any) -> list[Any]:
    """The games of what a file held: a match's, a list of Dama games, or the one game."""
    from tavli.play.match import Match

    if isinstance(obj, Match):
        return obj.games
    return obj if isinstance(obj, list) else [obj]


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a file and print each game's line (:func:`_game_line`)."""
    from tavli.play.formats import read

    obj = read(args.file, args.from_format)
    for n, game in enumerate(_games(obj), 1):
        print(_game_line(n, game))
    _note_unfinished(args.file, obj)
    return 0


def _game_line(n: int, game: Any) -> str:
    """``game 1: box, 12 moves, result 1-0, final W:W...`` for a Dama game (what ``tavli
    dama pdn`` printed), ``game 1: portes, 40 turns, white wins 1 point (single), final
    ID`` for a dice game."""
    from tavli import i18n
    from tavli.cli.text import game_word, outcome_msg
    from tavli.play.game import Game
    from tavli.play.history import Pass, Play

    language = i18n.current()
    if not isinstance(game, Game):  # a Dama game
        return i18n.ngettext(language, "cli.replay.dama", len(game.moves), game=n,
                             rules=game.rules.option_text, result=game.result,
                             position=game.position.fen())
    out = game.outcome
    result = (i18n.text(language, outcome_msg(out.winner, out.points, out.kind)) if out
              else i18n.gettext(language, "cli.replay.going"))
    turns = sum(isinstance(a, Play | Pass) for a in game.history)
    return i18n.ngettext(language, "cli.replay.dice", turns, game=n,
                         name=game_word(game.rules.game_name), result=result,
                         position=game.position.id())


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
