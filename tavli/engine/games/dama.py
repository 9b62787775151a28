"""Dama's rule sets as variants: every fact that sets one apart lives here.

The box's own rules (``box``, the default, with the rule option ``huffing``), Russian
draughts (``russian``, *shashki*) and Italian draughts (``italian``, the FID's rules) are
registered with the games with dice (:mod:`tavli.engine.games.base`), as rule sets of the
game ``dama``. :class:`tavli.engine.dama.rules.DamaRules` is a variant with its options;
the compiled generator reads the flags it derives from the attributes below. No NumPy
here: the command line's help lists them.

>>> from tavli.engine.games import find_game
>>> r = find_game("shashki")
>>> r.display, r.men_capture_backwards, r.notation
('Russian draughts', True, 'algebraic')
>>> find_game("dama").options
{'huffing': True}
"""

from __future__ import annotations

from typing import ClassVar

from tavli.engine.games.base import BaseVariant
from tavli.engine.options import Option

HUFFING = Option(
    "huffing", bool, False,
    "Dama (box rules): capturing is optional, but a player who could capture and did not "
    "may have the piece that should have captured removed (huffed) by the opponent. Off: "
    "capturing is compulsory (free choice between sequences).",
)


class DamaVariant(BaseVariant):
    """A rule set of Dama (draughts on the dark squares of an 8x8 board, 12 men a side)."""

    game = "dama"
    #: the mirrored board of the Italian rules (a dark square in each player's right-hand
    #: corner)
    italian_board: ClassVar[bool] = False
    #: kings move any distance along a diagonal (else one square)
    flying_kings: ClassVar[bool] = True
    #: men capture backwards too (else forwards only)
    men_capture_backwards: ClassVar[bool] = False
    #: men may capture kings
    men_capture_kings: ClassVar[bool] = True
    #: a man crowned in the middle of a capture goes on capturing as a king
    promotion_continues: ClassVar[bool] = True
    #: among captures, the Italian order of choice (most pieces, by a king, most kings...)
    capture_priority: ClassVar[bool] = False
    #: plies (half-moves) without a capture or a man's move that end the game drawn
    draw_plies: ClassVar[int] = 30
    #: a king's worth in men x100 (the AI's material scale)
    king_value: ClassVar[int] = 300
    #: the notation its players write moves in: ``numeric`` (squares 1-32, ``22-18``,
    #: ``22x13``) or ``algebraic`` (``c3-d4``, ``c3:e5``)
    notation: ClassVar[str] = "numeric"
    #: PDN's GameType tag of a game of these rules in its own notation
    pdn_gametype: ClassVar[str]
    #: the GameType number that means these rules in a PDN file without a Rules tag (the
    #: standard's: 25 Russian, 22 Italian), if any
    pdn_game_type: ClassVar[int | None] = None


class BoxDama(DamaVariant):
    """The rules printed on the game box: men move and capture forward only, flying kings,
    captures chain and may turn; capturing optional, with huffing (by option)."""

    name = "box"
    display = "Dama"
    aliases = ("dama",)
    options = {"huffing": True}
    declares = (HUFFING,)
    pdn_gametype = "25,W,8,8,N2,0"
    summary = "draughts by the game box's rules: flying kings, huffing"


class RussianDama(DamaVariant):
    """Russian draughts: men capture backwards too, flying kings, compulsory capture with
    free choice between sequences."""

    name = "russian"
    display = "Russian draughts"
    aliases = ("shashki", "ru")
    men_capture_backwards = True
    notation = "algebraic"
    pdn_gametype = "25,W,8,8,A0,0"
    pdn_game_type = 25
    summary = "Russian draughts (shashki): men capture backwards, flying kings"


class ItalianDama(DamaVariant):
    """Italian draughts (FID): mirrored board, kings move one square, men capture forward
    only and cannot capture kings, compulsory capture by the priority rules."""

    name = "italian"
    display = "Italian draughts"
    aliases = ("damaitaliana", "fid", "it")
    italian_board = True
    flying_kings = False
    men_capture_kings = False
    promotion_continues = False
    capture_priority = True
    draw_plies = 80
    king_value = 250
    pdn_gametype = "22,W,8,8,N2,1"
    pdn_game_type = 22
    summary = "Italian draughts: short kings, men cannot take kings, priority rules"


#: Dama's rule sets, the default first (registered by :mod:`tavli.engine.games`)
DAMA_VARIANTS = (BoxDama(), RussianDama(), ItalianDama())
