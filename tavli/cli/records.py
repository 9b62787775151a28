"""``tavli convert`` (a game or match file in another format) and ``tavli verify`` (the
dice of a finished online game recomputed from its seeds)."""

from __future__ import annotations

import argparse
import json

from tavli.cli.args import add_lang_option
from tavli.errors import CliError, one_line


def register(sub) -> None:
    """The ``convert`` and ``verify`` subcommands' parsers."""
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


def cmd_convert(args: argparse.Namespace) -> int:
    from tavli import i18n
    from tavli.cli.text import _
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
