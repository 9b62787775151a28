"""Starting terminal play (``tavli play --tui``): a new game or match from the command
line's options (the game, the points, the rule options of each game of a match) or one
resumed from its saved file, and the players of both sides; a game of Dama the same way
(its rules found by the command line, its file PDN)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from tavli.engine.dice import DiceSource
from tavli.errors import CliError, RuleError, TavliError
from tavli.play.history import Opening, Roll
from tavli.tui.dice import DiceSession
from tavli.tui.session import TerminalSession, replaces_another_file

if TYPE_CHECKING:
    from tavli.ai.dama import AIPlayer
    from tavli.engine.dama.rules import DamaRules
    from tavli.play.dama.game import DamaGame
    from tavli.play.game import Game
    from tavli.play.match import Match
    from tavli.play.players import Player
    from tavli.tui.dama import DamaSession


def player_choices() -> str:
    from tavli.ai.levels import DEFAULT_LEVEL, LEVELS

    return (f"human, random, greedy, neural (level {DEFAULT_LEVEL}), neural:LEVEL or a "
            f"LEVEL: {', '.join(LEVELS)}")


def make_player(name: str | None, seed: int | None, what: str) -> Player | None:
    """None for a human, else the computer player ``name`` names: ``random``, ``greedy``,
    ``neural`` (the AI at the default level), ``neural:LEVEL`` or a bare level name
    (see :data:`tavli.ai.levels.LEVELS`; a ply 0-2 too). CliError for another name."""
    from tavli.ai.levels import DEFAULT_LEVEL, LEVELS
    from tavli.ai.neural import LevelPlayer
    from tavli.play.players import get_player

    key = (name or "human").strip().lower()
    bare = key.replace("-", "").replace("_", "").replace(" ", "")
    if key == "human":
        return None
    if key in ("random", "greedy"):
        return get_player(key, seed)
    if key == "neural":
        level = DEFAULT_LEVEL
    elif key.startswith("neural:"):
        level = key.split(":", 1)[1]
    elif bare in LEVELS:
        level = bare
    else:
        raise CliError(f"{what}: unknown player {str(name)[:40]!r}: choose "
                       f"{player_choices()}")
    try:
        return LevelPlayer(level, seed=seed)
    except TavliError as e:
        raise CliError(f"{what}: {e}") from None


def _match_rules(rotation: tuple[str, ...], items: list[str]) -> dict[str, Any]:
    """Rule options of the command line for each game of a match: an option goes to the
    games it applies to; one that applies to none of them is an error."""
    from tavli.engine.rules import OPTIONS, Rules, option_applies

    per_game: dict[str, list[str]] = {name: [] for name in rotation}
    for item in items:
        name = item.split("=", 1)[0].strip() if "=" in item else item
        opt = OPTIONS.get(name)
        if opt is None or "=" not in item:
            Rules.for_game(rotation[0], [item])  # raises with the engine's message
            continue
        games = [g for g in rotation if option_applies(name, g)]
        if not games:
            raise RuleError(f"rule option {name!r} does not apply to "
                            f"{' or '.join(rotation)}")
        for g in games:
            per_game[g].append(item)
    return {g: Rules.for_game(g, opts) for g, opts in per_game.items()}


def _dice_used(games: list[Game]) -> int:
    """How many dice the recorded games threw (to continue a seeded sequence): two for
    every opening throw and every roll in their histories."""
    return sum(2 for g in games for a in g.history if isinstance(a, Opening | Roll))


def _new(args: argparse.Namespace) -> tuple[Game | Match, int | None]:
    from tavli.engine.games import ROTATIONS, rotation
    from tavli.engine.rules import Rules
    from tavli.play.game import Game
    from tavli.play.match import Match

    variant = (args.game or "tavli").strip().lower()
    points = 5 if args.points is None else args.points
    rules = list(args.rule or [])
    try:
        games = rotation(variant)
    except TavliError as e:
        raise CliError(f"--game: {e}; or {' or '.join(ROTATIONS)} for a match") from None
    if variant not in ROTATIONS:
        variant = games[0]
        if points == 1:
            return Game(Rules.for_game(variant, rules), seed=args.seed), args.seed
    return Match(points, variant, rules=_match_rules(games, rules),
                 seed=args.seed), args.seed


def _saved_text(args: argparse.Namespace) -> str:
    """The text of the file ``--resume`` names (a dice game's JSON record or a Dama game's
    PDN), once the options it fixes are found not given."""
    path = Path(args.resume)
    given = [o for o, v in (("--game", args.game), ("--points", args.points),
                            ("--rule", args.rule),
                            ("--position", getattr(args, "position", None)))
             if v is not None]
    if given:
        raise CliError(f"{', '.join(given)} cannot be combined with --resume: the saved "
                       "file keeps its own game, points and rules")
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise CliError(f"cannot resume from {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise CliError(f"cannot resume from {path}: not a text file") from None


def is_pdn(text: str) -> bool:
    """A saved game is a Dama game's PDN unless it is a JSON record (an object)."""
    return not text.lstrip().startswith("{")


def _resume(args: argparse.Namespace, text: str
            ) -> tuple[Game | Match, int | None, dict[str, Any]]:
    from tavli.play.match import Match
    from tavli.play.record import dice_only, load_record

    try:
        obj = dice_only(load_record(text), "--resume")
    except TavliError as e:
        raise CliError(f"cannot resume from {args.resume}: {e}") from None
    data = json.loads(text)  # valid: the record was read from it
    settings = data.get("tui") if isinstance(data.get("tui"), dict) else {}
    seed = args.seed if args.seed is not None else data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        seed = None
    games = obj.games if isinstance(obj, Match) else [obj]
    src = DiceSource(seed=seed)
    if seed is not None and args.seed is None:
        # go on with the same seeded dice, as if play had never stopped
        for _ in range(_dice_used(games)):
            src.die()
    for old in games:
        old.dice_source = src
    if isinstance(obj, Match):
        obj.dice_source = src
        obj.seed = seed
    return obj, seed, settings


def _dice_session(args: argparse.Namespace, console: Console, text: str | None,
                  save_path: Path | None) -> DiceSession:
    """A dice game or match: new, or resumed from its record ``text``; its players."""
    settings: dict[str, Any] = {}
    if text is not None:
        obj, seed, settings = _resume(args, text)
    else:
        obj, seed = _new(args)
    white = getattr(args, "white", None) or settings.get("white") or "human"
    black = args.opponent or settings.get("black") or "neural"
    pseed = None if seed is None else seed + 1
    players = [make_player(white, pseed, _what(args, "--white", getattr(args, "white", None),
                                               "white")),
               make_player(black, None if pseed is None else pseed + 1,
                           _what(args, "--opponent", args.opponent, "black"))]
    return DiceSession(console, obj, players, save_path, seed)


def _what(args: argparse.Namespace, option: str, given: str | None, side: str) -> str:
    """Where a player's name came from, for an error: its option, or the saved file."""
    return option if given or not args.resume else f"the {side} player saved in " \
        f"{args.resume}"


def run(args: argparse.Namespace, dama: DamaRules | None = None) -> int:
    """``tavli play --tui``: play a game or match in the terminal; ``dama``: a game of
    Dama under these rules (the command line found them by the game's name)."""
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    console = Console(highlight=False)
    for opt in ("resume", "save"):
        if getattr(args, opt, None) == "":
            raise CliError(f"--{opt} needs a file name")
    text = _saved_text(args) if args.resume else None
    save_path = Path(args.save or args.resume) if args.resume else \
        Path(args.save) if args.save else None
    if dama is not None or (text is not None and is_pdn(text)):
        session: TerminalSession = _dama_session(args, console, dama, text, save_path)
    else:
        session = _dice_session(args, console, text, save_path)
    if save_path is not None and save_path.is_dir():
        raise CliError(f"{save_path} is a directory: --save needs a file name")
    if save_path is not None and args.save and replaces_another_file(
            save_path, Path(args.resume) if args.resume else None):
        raise CliError(f"{save_path} exists: continue that game with --resume {save_path}, "
                       "or save to another file (nothing was changed)")
    if save_path is not None:
        try:
            session.save()
        except OSError as e:
            raise CliError(f"cannot save to {save_path}: {e.strerror or e}") from None
    from tavli import i18n
    from tavli.tui.words import terminal_lang

    with i18n.using(terminal_lang(getattr(args, "lang", None))):
        session.intro(resumed=bool(args.resume))
        return session.play()


# -- Dama ---------------------------------------------------------------------------------

def dama_player_choices() -> str:
    from tavli.ai.dama import LEVEL_ALIASES

    return (f"human, neural (the AI at level expert), neural:LEVEL or a LEVEL: "
            f"{', '.join(LEVEL_ALIASES)} (or 1-4, depth:N, time:S after neural:)")


def make_dama_player(name: str | None, rules: DamaRules, what: str) -> AIPlayer | None:
    """None for a person, else Dama's AI at the level ``name`` names: ``neural`` (or
    ``ai``; the default level), ``neural:LEVEL`` or a bare level name of the dice games
    (``expert``). CliError for another name or a bad level."""
    from tavli.ai.dama import LEVEL_ALIASES, AIPlayer, dama_level

    key = (name or "human").strip().lower()
    kind, colon, level = key.partition(":")
    if key == "human":
        return None
    if kind in ("neural", "ai"):
        level = level if colon else "default"
    elif key in LEVEL_ALIASES:
        level = key
    else:
        raise CliError(f"{what}: unknown player {str(name)[:40]!r} for Dama: choose "
                       f"{dama_player_choices()}")
    try:
        return AIPlayer(rules, dama_level(level))
    except TavliError as e:
        raise CliError(f"{what}: {e}") from None


def _dama_game(args: argparse.Namespace, rules: DamaRules | None, text: str | None
               ) -> tuple[DamaGame, dict[str, str]]:
    """A new game of Dama (from ``--position``), or the one a PDN ``text`` records, and
    its tags."""
    from tavli.play.dama.game import DamaGame
    from tavli.play.dama.pdn import read_pdn

    if text is None:
        assert rules is not None
        start = getattr(args, "position", None)
        return DamaGame(rules, start=None if start in ("start", "") else start), {}
    try:
        game = read_pdn(text)
    except TavliError as e:
        raise CliError(f"cannot resume from {args.resume}: {e}") from None
    tags: dict[str, str] = getattr(game, "tags", {})
    if tags.get("Result", "*") not in ("*", game.result):
        raise CliError(f"cannot resume from {args.resume}: the game is over "
                       f"({tags['Result']})")
    return game, tags


def _dama_session(args: argparse.Namespace, console: Console, rules: DamaRules | None,
                  text: str | None, save_path: Path | None) -> DamaSession:
    """A game of Dama: new, or resumed from its PDN ``text``; its players (the White
    and Black tags of a file saved here name them)."""
    from tavli.tui.dama import DamaSession

    given = [o for o, v in (("--points", args.points not in (None, 1)),
                            ("--seed", args.seed is not None)) if v]
    if given:
        raise CliError(f"{', '.join(given)}: not for Dama (one game, no dice)")
    game, tags = _dama_game(args, rules, text)
    white = getattr(args, "white", None) or tags.get("White") or "human"
    black = args.opponent or tags.get("Black") or "neural"
    players = [make_dama_player(white, game.rules,
                                _what(args, "--white", getattr(args, "white", None), "white")),
               make_dama_player(black, game.rules,
                                _what(args, "--opponent", args.opponent, "black"))]
    return DamaSession(console, game, players, save_path)
