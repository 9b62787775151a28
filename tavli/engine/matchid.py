"""gnubg's Match ID: the state of a match around a position, in 12 base64 characters.

The Match ID packs 67 bits, least-significant bit first, into 9 bytes (the last 5 bits
zero) and writes them in standard base64 without padding. Fields in order (width):
cube value as log2 (4), cube owner (2: 0, 1 or 3 for the middle), player on roll (1),
Crawford game (1), game state (3: 0 no game, 1 playing, 2 over, 3 resigned, 4 dropped),
player to decide (1: differs from the player on roll while a double is offered),
double offered (1), resignation offered (2: 0 none, 1 single, 2 gammon, 3 backgammon),
die 1 (3), die 2 (3) (0 when not rolled; written higher first, as gnubg
does), match length (15; 0 for money play), score of
player 0 (15), score of player 1 (15), and one bit that is set when the Jacoby rule is
*not* in effect (gnubg writes it so: set in match play, clear in a money session with
the Jacoby rule; checked against Debian's gnubg 1.07).

This module is the codec of a :class:`MatchState`; :mod:`tavli.play.formats.matchid` makes
one from a game or a match.

gnubg's player 0 (O) is tavli's black, player 1 (X) tavli's white: a Match ID's side to
move, cube owner and scores are translated accordingly.

>>> st = parse_match_id("cAkAAAAAAAAE")
>>> st.on_roll, encode_match_id(st)
(0, 'cAkAAAAAAAAE')
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from tavli.errors import ParseError

#: gnubg's player number of tavli's white (0) and black (1); the map is its own inverse
GNUBG_PLAYER = (1, 0)
STATES = ("none", "playing", "over", "resigned", "dropped")
RESIGNATIONS = (None, "single", "gammon", "backgammon")
_FIELDS = (("cube_log", 4), ("owner", 2), ("move", 1), ("crawford", 1), ("state", 3),
           ("turn", 1), ("doubled", 1), ("resign", 2), ("die1", 3), ("die2", 3),
           ("length", 15), ("score0", 15), ("score1", 15),
           ("no_jacoby", 1))
_MID = re.compile(r"^[A-Za-z0-9+/]{12}$")


@dataclass(frozen=True)
class MatchState:
    """What a Match ID holds, in tavli's terms (sides 0 = white, 1 = black)."""

    cube_value: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    state: str = "playing"
    turn: int = 0
    double_offered: bool = False
    resignation: str | None = None
    dice: tuple[int, int] | None = None
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False


def encode_match_id(st: MatchState) -> str:
    """gnubg's Match ID of ``st``."""
    log = st.cube_value.bit_length() - 1
    if st.cube_value != 1 << log or not 0 <= log < 16:
        raise ParseError(f"cube value {st.cube_value} is not a power of 2 up to 2^15")
    d1, d2 = sorted(st.dice or (0, 0), reverse=True)  # the higher die first, as gnubg
    values = {
        "cube_log": log,
        "owner": 3 if st.cube_owner is None else GNUBG_PLAYER[st.cube_owner],
        "move": GNUBG_PLAYER[st.on_roll], "crawford": int(st.crawford),
        "state": STATES.index(st.state), "turn": GNUBG_PLAYER[st.turn],
        "doubled": int(st.double_offered), "resign": RESIGNATIONS.index(st.resignation),
        "die1": d1, "die2": d2, "length": st.length,
        "score0": st.score[1], "score1": st.score[0], "no_jacoby": int(not st.jacoby),
    }
    bits = 0
    shift = 0
    for name, width in _FIELDS:
        v = values[name]
        if not 0 <= v < 1 << width:
            raise ParseError(f"Match ID field {name} = {v} does not fit {width} bits")
        bits |= v << shift
        shift += width
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


def parse_match_id(text: str) -> MatchState:
    """Read gnubg's Match ID (12 base64 characters) into a :class:`MatchState`."""
    if not isinstance(text, str) or not _MID.match(text.strip()):
        raise ParseError(f"{str(text)[:40]!r} is not a gnubg Match ID (12 base64 characters)")
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise ParseError(f"{text!r} is not valid base64") from None
    bits = int.from_bytes(raw, "little")
    f: dict[str, int] = {}
    for name, width in _FIELDS:
        f[name] = bits & ((1 << width) - 1)
        bits >>= width
    if bits:
        raise ParseError(f"{text!r}: bits set beyond the Match ID's 67")
    if f["owner"] == 2:
        raise ParseError(f"{text!r}: cube owner 2 is not a player")
    if f["state"] >= len(STATES):
        raise ParseError(f"{text!r}: unknown game state {f['state']}")
    if (f["die1"] == 0) != (f["die2"] == 0) or f["die1"] > 6 or f["die2"] > 6:
        raise ParseError(f"{text!r}: dice {f['die1']}-{f['die2']} are not two dice 1-6")
    st = MatchState(
        cube_value=1 << f["cube_log"],
        cube_owner=None if f["owner"] == 3 else GNUBG_PLAYER[f["owner"]],
        on_roll=GNUBG_PLAYER[f["move"]], crawford=bool(f["crawford"]),
        state=STATES[f["state"]], turn=GNUBG_PLAYER[f["turn"]],
        double_offered=bool(f["doubled"]), resignation=RESIGNATIONS[f["resign"]],
        dice=(f["die1"], f["die2"]) if f["die1"] else None, length=f["length"],
        score=(f["score1"], f["score0"]), jacoby=not f["no_jacoby"])
    check_score(st, f"Match ID {text.strip()!r}")
    return st


def check_score(st: MatchState, what: str) -> None:
    """Refuse a score that cannot happen in the state's match (``what`` names the ID in
    the message): each side's score below the match length while a game is on (the
    score before it), and the Crawford game only when a side is one point from winning."""
    if not st.length:
        return
    top = max(st.score)
    if top >= st.length and st.state in ("none", "playing"):
        raise ParseError(f"{what}: a score of {top} cannot stand in a {st.length}-point "
                         f"match that goes on")
    if st.crawford and top != st.length - 1:
        raise ParseError(f"{what}: the Crawford game needs a side 1 point from winning the "
                         f"{st.length}-point match (the score is {st.score[0]}-{st.score[1]})")
