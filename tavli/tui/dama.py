"""Play Dama in the terminal (``tavli dama play``).

The board is drawn from White's side with the square numbers beside it; type a move by
numbers or by names (``22-18``, ``c3-d4``, ``22x13``; a capture that two routes could
make needs its landing squares, ``22x13x6``). Other commands:

``moves`` (or ``?``) list the legal moves · ``hint`` the AI's choice · ``huff N`` remove
the opponent's piece on N when he failed to capture (box rules) · ``undo`` take back your
last move · ``draw`` offer a draw (the AI accepts when its evaluation is not above 0) ·
``resign`` · ``save FILE`` write the game as PDN · ``fen`` print the position · ``quit``.

Everything said is a catalogue message (``dama.tui.*``) in the player's language
(``--lang``, else the environment's, as for ``tavli play --tui``:
:func:`tavli.tui.words.terminal_lang`); the commands are typed in English.
"""

from __future__ import annotations

from collections.abc import Callable

from tavli import i18n
from tavli.ai.dama import AIPlayer, static_eval
from tavli.engine.dama.sets import DEFAULT_RULE_SET
from tavli.errors import TavliError
from tavli.play.dama.game import DamaGame, colour_msg, reason_msg
from tavli.play.dama.pdn import write_pdn
from tavli.tui.words import _, error_text

#: the AI levels as the new-game dialog names them (``level.*`` in the catalogue)
LEVEL_NAMES = {"1": "beginner", "2": "casual", "3": "intermediate", "4": "advanced",
               "default": "expert", "full": "worldclass"}


def colour(c: int) -> str:
    """White or Black, capitalised, in the session's language."""
    return i18n.text(i18n.current(), colour_msg(c))


def rules_name(game: DamaGame) -> str:
    """The rule set as the players name it (``dama.rn.*``)."""
    return _(game.rules.title_key)


def player_name(kind: str, level: str) -> str:
    """``human`` or ``ai`` (at ``level``) as the session's language says it."""
    if kind != "ai":
        return _("dama.pl.human")
    name = LEVEL_NAMES.get(level.strip().lower())
    return _("dama.pl.ai", level=_(f"level.{name}") if name else level)


def _show(game: DamaGame, print_fn) -> None:
    print_fn("")
    print_fn(game.position.board_text(footer=False))
    print_fn(_("dama.tui.to_move", side=colour(game.turn), rules=rules_name(game)))
    if game.record:
        last = game.record[-1]
        text = (f"*{game.rules.square_text(last.huffed)}" if last.move is None
                else game.rules.move_text(last.move))
        print_fn(_("dama.tui.last", move=text))


def _save(game: DamaGame, path: str, print_fn: Callable[..., None]) -> None:
    """Write the game as PDN to ``path``; a file that cannot be written is reported."""
    if not path.strip():
        print_fn(_("dama.tui.error", text=_("dama.tui.usage_save")))
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(write_pdn(game))
    except OSError as e:
        print_fn(_("dama.tui.error", text=_("tui.save.cannot", path=path,
                                             why=e.strerror or e)))
        return
    print_fn(_("dama.tui.saved", path=path))


def play_tui(rules: str = DEFAULT_RULE_SET, huffing: bool | None = None, level: str = "default",
             white: str = "human", black: str = "ai", start: str | None = None,
             input_fn: Callable[[str], str] = input, print_fn: Callable[..., None] = print,
             lang: str | None = None) -> DamaGame:
    """Run a game; ``white``/``black`` are ``human`` or ``ai``; ``lang``: the language of
    what is said (default: the one of the moment, :func:`tavli.i18n.current`). Returns
    the game."""
    with i18n.using(lang or i18n.current()):
        return _play(rules, huffing, level, white, black, start, input_fn, print_fn)


def _play(rules: str, huffing: bool | None, level: str, white: str, black: str,
          start: str | None, input_fn: Callable[[str], str],
          print_fn: Callable[..., None]) -> DamaGame:
    game = DamaGame(rules, huffing, start)
    kinds = {0: white, 1: black}
    ais = {c: AIPlayer(game.rules, level) for c in (0, 1) if kinds[c] == "ai"}
    hint_ai = next(iter(ais.values()), None) or AIPlayer(game.rules, level)
    text = game.rules.move_text
    squares = game.rules.square_text
    print_fn(_("dama.tui.intro", rules=rules_name(game), white=player_name(white, level),
               black=player_name(black, level)))
    while not game.is_over():
        side = game.turn
        if kinds[side] == "ai":
            mv = ais[side].choose(game.position, game._positions)
            if mv.huff is not None:
                print_fn(_("dama.tui.ai_huffs", side=colour(side), square=squares(mv.huff)))
            played = game.play(mv)
            _show(game, print_fn)
            if played.captures:
                print_fn(_("dama.tui.ai_captures", side=colour(side), move=text(played),
                           squares=", ".join(map(squares, played.captures))))
            else:
                print_fn(_("dama.tui.ai_plays", side=colour(side), move=text(played)))
            continue
        _show(game, print_fn)
        legal = game.legal_moves()
        caps = [m for m in legal if m.captures]
        if caps:
            print_fn(_("dama.tui.captures" if game.rules.compulsory
                       else "dama.tui.captures_optional", moves=", ".join(map(text, caps))))
        if game.huff_candidates:
            print_fn(_("dama.tui.may_huff",
                       squares=", ".join(map(squares, game.huff_candidates))))
        try:
            line = input_fn(_("dama.tui.prompt", side=colour(side))).strip()
        except EOFError:
            line = "quit"
        if not line:
            continue
        cmd, _sep, arg = line.partition(" ")
        cmd = cmd.lower()
        try:
            if cmd in ("quit", "exit", "q"):
                break
            if cmd in ("help", "h"):
                print_fn(_("dama.tui.help"))
            elif cmd in ("moves", "?"):
                print_fn(", ".join(text(m) for m in legal))
            elif cmd == "hint":
                mv = hint_ai.choose(game.position, game._positions)
                print_fn(_("dama.tui.hint", move=text(mv)))
            elif cmd == "huff":
                game.huff(arg)  # a square's number or name; ParseError for other text
                print_fn(_("dama.tui.you_huff", square=arg))
            elif cmd == "undo":
                if not game.record:
                    print_fn(_("dama.tui.nothing_to_undo"))
                    continue
                game.undo()
                while game.record and kinds[game.turn] == "ai":
                    game.undo()
            elif cmd == "draw":
                other = 1 - side
                if kinds[other] == "human" or static_eval(game.position) >= 0:
                    game.agree_draw()
                else:
                    print_fn(_("dama.tui.draw_declined"))
            elif cmd == "resign":
                game.resign(side)
            elif cmd == "save":
                _save(game, arg, print_fn)
            elif cmd == "fen":
                print_fn(game.position.fen())
            else:
                game.play(line)
        except TavliError as e:
            print_fn(_("dama.tui.error", text=error_text(e, arg if cmd == "huff" else line)))
    if game.is_over():
        _show(game, print_fn)
        print_fn(_("dama.tui.game_over", result=game.result,
                   reason=i18n.text(i18n.current(), reason_msg(game))))
    return game
