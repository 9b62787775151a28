"""The one board layout shared by every backgammon-family game (no NumPy/Numba here).
The games themselves, their names and geometry are in :mod:`tavli.engine.games`.

A position's checkers are a ``numpy.int8`` array of shape ``(4, 26)``:

* row ``side`` (0 or 1) counts that side's checkers, indexed in **that side's own
  numbering**: index ``OFF`` (0) is borne off, 1..24 are its points (it moves from 24
  toward 1), index ``BAR`` (25) is its bar;
* row ``2 + side`` holds Plakoto pin flags: ``1`` at point ``p`` when that side's single
  checker on its point ``p`` is pinned by the opponent (always 0 in other games).

Side 0 is called *white* (gnubg's X), side 1 *black* (gnubg's O). The array never changes
orientation with the turn; the side to move is a separate field of the position.
"""

from __future__ import annotations

OFF = 0
BAR = 25
NSLOTS = 26
NROWS = 4
CHECKERS = 15

SIDE_NAMES = ("white", "black")
