"""eXtreme Gammon's position ID (XGID): a position with its cube, score and dice.

``XGID=BOARD:CUBE:OWNER:TURN:DICE:SCORE1:SCORE2:FLAGS:LENGTH:MAXCUBE``

BOARD
    26 characters seen by player 1 (the "bottom" player; tavli's **white**): character 0
    is black's bar, characters 1..24 white's points 1..24, character 25 white's bar.
    ``-`` is an empty point, ``A``..``O`` 1..15 white checkers, ``a``..``o`` black ones.
CUBE
    log2 of the cube value. OWNER: 0 in the middle, 1 white, -1 black.
TURN
    1 white on roll, -1 black. DICE: ``00`` to roll (or double), ``D`` a double is
    offered, ``B`` a beaver, ``R`` a raccoon, else the two dice thrown (``52``).
SCORE1, SCORE2
    white's and black's score. FLAGS: in a match 1 for the Crawford game; in money play
    1 for the Jacoby rule plus 2 for beavers. LENGTH: the match length, 0 for money.
MAXCUBE
    log2 of the highest cube allowed (10 writes a 1024 limit).

A side's borne-off checkers are what remains of 15.

This module is the codec of a board array and a :class:`MatchState`;
:mod:`tavli.play.formats.xgid` reads and writes positions, games and matches with it.

>>> arr, turn, st = decode_xgid('XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:2:1:0:5:10')
>>> turn, st.cube_value, st.cube_owner, st.score
(1, 2, 1, (2, 1))
>>> encode_xgid(arr, turn, st)
'XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:2:1:0:5:10'
"""

from __future__ import annotations

import numpy as np

from tavli.engine.matchid import MatchState, check_score
from tavli.errors import ParseError

PREFIX = "XGID="
MAX_CUBE_LOG = 10


def _side_sign(side: int | None) -> int:
    return 0 if side is None else (1 if side == 0 else -1)


def encode_xgid(a: np.ndarray, turn: int, st: MatchState) -> str:
    """The XGID of the backgammon board array ``a`` with ``turn`` on roll and ``st``."""
    chars = ["-"] * 26
    for p in range(1, 25):
        w, b = int(a[0, p]), int(a[1, 25 - p])
        if w:
            chars[p] = chr(ord("A") + w - 1)
        elif b:
            chars[p] = chr(ord("a") + b - 1)
    if a[0, 25]:
        chars[25] = chr(ord("A") + int(a[0, 25]) - 1)
    if a[1, 25]:
        chars[0] = chr(ord("a") + int(a[1, 25]) - 1)
    log = st.cube_value.bit_length() - 1
    if st.double_offered:
        dice = "D"
    elif st.dice:
        dice = f"{st.dice[0]}{st.dice[1]}"
    else:
        dice = "00"
    flags = int(st.crawford) if st.length else int(st.jacoby)
    fields = ["".join(chars), str(log), str(_side_sign(st.cube_owner)),
              str(_side_sign(turn)), dice, str(st.score[0]), str(st.score[1]),
              str(flags), str(st.length), str(MAX_CUBE_LOG)]
    return PREFIX + ":".join(fields)


def _int(text: str, what: str, lo: int, hi: int) -> int:
    try:
        v = int(text)
    except ValueError:
        raise ParseError(f"XGID: {what} {text[:12]!r} is not a number") from None
    if not lo <= v <= hi:
        raise ParseError(f"XGID: {what} {v} is outside {lo}..{hi}")
    return v


def decode_xgid(text: str) -> tuple[np.ndarray, int, MatchState]:
    """Read an XGID (with or without ``XGID=``) into a backgammon board array, the side on
    roll (to move) and its :class:`MatchState`."""
    if not isinstance(text, str):
        raise ParseError("an XGID must be text")
    t = text.strip()
    if t.upper().startswith(PREFIX):
        t = t[len(PREFIX):]
    parts = t.split(":")
    if len(parts) != 10:
        raise ParseError(f"{text.strip()[:60]!r} is not an XGID (10 fields separated by ':')")
    board, cube, owner, turn, dice, s1, s2, flags, length, _maxcube = parts
    if len(board) != 26:
        raise ParseError("XGID: the board must have 26 characters")
    arr = np.zeros((4, 26), dtype=np.int16)
    for i, c in enumerate(board):
        if c == "-":
            continue
        if "A" <= c <= "O":
            side, n = 0, ord(c) - ord("A") + 1
        elif "a" <= c <= "o":
            side, n = 1, ord(c) - ord("a") + 1
        else:
            raise ParseError(f"XGID: board character {c!r} is not - or a letter A-O/a-o")
        if i == 0 and side == 0 or i == 25 and side == 1:
            raise ParseError("XGID: a checker on the wrong side's bar")
        slot = (25 if i == 0 else 25 - i) if side == 1 else i
        arr[side, slot] = n
    for side in (0, 1):
        on = int(arr[side, 1:].sum())
        if on > 15:
            raise ParseError("XGID: more than 15 checkers for one side")
        arr[side, 0] = 15 - on
    tv = _int(turn, "turn", -1, 1)
    if tv == 0:
        raise ParseError("XGID: turn must be 1 or -1")
    on_roll = 0 if tv == 1 else 1
    log = _int(cube, "cube", 0, 15)
    ov = _int(owner, "cube owner", -1, 1)
    n = _int(length, "match length", 0, 32767)
    sc = (_int(s1, "score", 0, 32767), _int(s2, "score", 0, 32767))
    fl = _int(flags, "Crawford/Jacoby flags", 0, 3)
    offered = dice.upper() in ("D", "B", "R")
    dv: tuple[int, int] | None = None
    if not offered and dice != "00":
        if len(dice) != 2 or not all(c in "123456" for c in dice):
            raise ParseError(f"XGID: dice {dice[:8]!r} are not 00, D, B, R or two dice 1-6")
        dv = (int(dice[0]), int(dice[1]))
    st = MatchState(
        cube_value=1 << log, cube_owner=None if ov == 0 else (0 if ov == 1 else 1),
        on_roll=on_roll, crawford=bool(n and fl & 1), state="playing",
        turn=1 - on_roll if offered else on_roll, double_offered=offered, dice=dv,
        length=n, score=sc, jacoby=bool(not n and fl & 1))
    check_score(st, "XGID")
    return arr.astype(np.int8), on_roll, st
