"""Terminal play (``tavli play --tui``): a coloured board drawn with rich, typed moves.

The board is drawn from white's side of the table, as in :mod:`tavli.engine.render`: white's
points 13-24 along the top from left to right, 12-1 along the bottom, white's home at
the bottom right, the bar in the middle and the borne-off trays on the right. The point
numbers printed above and below are those of the player who types the moves (the human
side against a bot; in hot-seat play, the side to act), so a move is typed exactly as
the numbers read.

Input is read with ``console.input`` (standard input), one line at a time: a move in
notation (``24/18 13/11``) or its number in the list, or a command (``help``). A move is
shown on the board and played when confirmed with Enter (``undo`` takes it back). End of
input quits cleanly; with ``--save`` the game is saved after every action.

Dama (``tavli play --tui --game dama|russian|italian``) is played through the same
session, its board drawn as text with the square numbers, its moves typed in its notation.

The modules: :mod:`.start` starts play (``run``: a new game or match, or one resumed from
its file, and the players); :mod:`.session` is what every game's session shares (the
players, saving, the loop of play); :mod:`.dice` the dice games' session (a game or
match) and :mod:`.dama` Dama's; for the dice games :mod:`.turns` a turn's prompts (or a
computer player's action), :mod:`.commands` the commands typed at the prompts,
:mod:`.screen` what is shown and read (messages and prompts for every game; the board with
its panel), :mod:`.board` draws the board.
"""

from tavli.tui.board import BoardView
from tavli.tui.dice import DiceSession
from tavli.tui.session import TerminalSession
from tavli.tui.start import run

__all__ = ["BoardView", "DiceSession", "TerminalSession", "run"]
