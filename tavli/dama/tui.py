"""Play Dama in the terminal (``tavli dama play``).

The board is drawn from White's side with the square numbers beside it; type a move by
numbers or by names (``22-18``, ``c3-d4``, ``22x13``; a capture that two routes could
make needs its landing squares, ``22x13x6``). Other commands:

``moves`` (or ``?``) list the legal moves · ``hint`` the AI's choice · ``huff N`` remove
the opponent's piece on N when he failed to capture (box rules) · ``undo`` take back your
last move · ``draw`` offer a draw (the AI accepts when its evaluation is not above 0) ·
``resign`` · ``save FILE`` write the game as PDN · ``fen`` print the position · ``quit``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import TavliError
from .ai import AIPlayer, static_eval
from .game import DamaGame, colour_name
from .pdn import write_pdn

HELP = ("moves | hint | huff N | undo | draw | resign | save FILE | fen | quit; "
        "or a move: 22-18, c3-d4, 22x13")


def _show(game: DamaGame, print_fn) -> None:
    print_fn("")
    print_fn(game.position.board_text())
    if game.record:
        print_fn(f"last: {game.record[-1]}")


def _save(game: DamaGame, path: str, print_fn: Callable[..., None]) -> None:
    """Write the game as PDN to ``path``; a file that cannot be written is reported."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(write_pdn(game))
    except OSError as e:
        print_fn(f"error: cannot save to {path}: {e.strerror or e}")
        return
    print_fn(f"saved to {path}")


def play_tui(rules: str = "box", huffing: bool | None = None, level: str = "default",
             white: str = "human", black: str = "ai", start: str | None = None,
             input_fn: Callable[[str], str] = input, print_fn: Callable[..., None] = print,
             ) -> DamaGame:
    """Run a game; ``white``/``black`` are ``human`` or ``ai``. Returns the game."""
    game = DamaGame(rules, huffing, start)
    kinds = {0: white, 1: black}
    ais = {c: AIPlayer(game.rules, level) for c in (0, 1) if kinds[c] == "ai"}
    hint_ai = next(iter(ais.values()), None) or AIPlayer(game.rules, level)
    print_fn(f"Dama — {game.rules.option_text} rules. White: {white}, Black: {black}. "
             f"Type 'help' for commands.")
    while not game.is_over():
        colour = game.turn
        if kinds[colour] == "ai":
            mv = ais[colour].choose(game.position, game._positions)
            if mv.huff is not None:
                print_fn(f"{colour_name(colour)} (AI) huffs the piece on {mv.huff}.")
            played = game.play(mv)
            _show(game, print_fn)
            caps = f", capturing {', '.join(map(str, played.captures))}" if played.captures else ""
            print_fn(f"{colour_name(colour)} (AI) plays {game.rules.move_text(played)}{caps}.")
            continue
        _show(game, print_fn)
        legal = game.legal_moves()
        caps = [m for m in legal if m.captures]
        if caps:
            note = "" if game.rules.compulsory else " (optional, but you may be huffed)"
            print_fn(f"Captures{note}: {', '.join(map(game.rules.move_text, caps))}")
        if game.huff_candidates:
            print_fn(f"Your opponent failed to capture: you may huff "
                     f"{', '.join(map(str, game.huff_candidates))} (huff N) before moving.")
        try:
            line = input_fn(f"{colour_name(colour)} to move> ").strip()
        except EOFError:
            line = "quit"
        if not line:
            continue
        cmd, _, arg = line.partition(" ")
        cmd = cmd.lower()
        try:
            if cmd in ("quit", "exit", "q"):
                break
            if cmd in ("help", "h"):
                print_fn(HELP)
            elif cmd in ("moves", "?"):
                print_fn(", ".join(game.rules.move_text(m) for m in legal))
            elif cmd == "hint":
                mv = hint_ai.choose(game.position, game._positions)
                print_fn(f"hint: {game.rules.move_text(mv)}")
            elif cmd == "huff":
                game.huff(arg)  # a square's number or name; ParseError for other text
                print_fn(f"You huff the piece on {arg}.")
            elif cmd == "undo":
                if not game.record:
                    print_fn("nothing to undo")
                    continue
                game.undo()
                while game.record and kinds[game.turn] == "ai":
                    game.undo()
            elif cmd == "draw":
                other = 1 - colour
                if kinds[other] == "human" or static_eval(game.position) >= 0:
                    game.agree_draw()
                else:
                    print_fn("The AI declines the draw.")
            elif cmd == "resign":
                game.resign(colour)
            elif cmd == "save":
                _save(game, arg, print_fn)
            elif cmd == "fen":
                print_fn(game.position.fen())
            else:
                game.play(line)
        except TavliError as e:
            print_fn(f"error: {e}")
    if game.is_over():
        _show(game, print_fn)
        print_fn(f"Game over: {game.result} ({game.end_reason()}).")
    return game
