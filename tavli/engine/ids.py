"""Text formats for positions: the tavli position ID, gnubg's Position ID and the JSON
position document. All three round-trip.

tavli position ID
    base64url (no padding) of: one header byte ``game << 1 | turn``; then, for white and
    then black, each point 1..24 and the bar as that many 1-bits followed by a 0-bit
    (gnubg's scheme; the borne-off count is what remains of 15), padded to 10 bytes; for
    Plakoto, two 24-bit masks (white's, then black's pinned points, bit ``p-1`` for point
    ``p``). 15 characters (23 for Plakoto). A game registered with a code of 4 or more
    (:func:`tavli.engine.games.register_variant`) writes header ``1 << 3 | turn`` (version 1)
    and its code in a second byte: one character more.

gnubg Position ID
    gnubg's 14-character base64 key of the board seen by the side to move: first the
    opponent's checkers (points 1..24 and bar, his numbering), then the mover's. It holds
    no turn: decoding gives white to move unless told otherwise.

The codecs never import the position class: a reader is handed the class to build
(``make``, :class:`tavli.engine.board.Position` hands itself in), a writer reads any
:class:`tavli.engine.view.PositionView`.

>>> from tavli.engine.board import Position
>>> Position.start("backgammon").gnubg_id()
'4HPwATDgc/ABMA'
>>> p = Position.start("plakoto", turn=1)
>>> Position.from_id(p.id()) == p
True
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

import numpy as np

from tavli.engine.games import find_variant
from tavli.engine.layout import BAR, OFF, SIDE_NAMES
from tavli.engine.matchid import parse_match_id
from tavli.engine.view import P, PositionView
from tavli.engine.xgid import decode_xgid
from tavli.errors import InvalidPosition, ParseError

_B64URL = re.compile(r"^[A-Za-z0-9_-]+$")
_GNUBG = re.compile(r"^[A-Za-z0-9+/]{14}$")


def pack_checkers(counts: np.ndarray) -> np.ndarray:
    """gnubg's 80-bit key of many boards at once: ``counts`` int[N, 50] (per board white's
    points 1..24 and bar, then black's) -> uint8[N, 10]: each count as that many 1-bits
    and a 0-bit, bit ``k`` of the 80 the bit ``k % 8`` of byte ``k // 8``, the rest 0."""
    n = np.asarray(counts, dtype=np.int64).reshape(-1, 50)
    if (n < 0).any():
        raise InvalidPosition("a negative checker count")
    if (n.sum(axis=1) > 30).any():
        raise InvalidPosition("more than 30 checkers on the board")
    ends = np.cumsum(n + 1, axis=1) - 1  # where each count's 0-bit falls
    bits = np.arange(80) <= ends[:, -1:]
    np.put_along_axis(bits, ends, False, axis=1)
    return np.packbits(bits, axis=1, bitorder="little")


def unpack_checkers(data: np.ndarray, what: str = "the position key") -> np.ndarray:
    """The counts int16[N, 50] of the keys ``data`` uint8[N, 10] (:func:`pack_checkers`);
    :class:`ParseError` for a key that is not one (too short, checkers after the last
    count, more than 15 checkers for a side)."""
    bits = np.unpackbits(np.asarray(data, dtype=np.uint8).reshape(-1, 10), axis=1,
                         bitorder="little")
    if ((bits == 0).sum(axis=1) < 50).any():
        raise ParseError(f"{what}: the ID ends before both sides are complete")
    zeros = np.argsort(bits, axis=1, kind="stable")[:, :50]  # the 0-bits, in order
    if (bits.astype(bool) & (np.arange(80) > zeros[:, -1:])).any():
        raise ParseError(f"{what}: too many checkers encoded")
    counts = (np.diff(zeros, axis=1, prepend=-1) - 1).astype(np.int16)
    if (counts.reshape(-1, 2, 25).sum(axis=2) > 15).any():
        raise ParseError(f"{what}: more than 15 checkers for one side")
    return counts


def _pack_counts(rows: list[np.ndarray]) -> bytes:
    """The 10-byte key of two rows of the board array (:func:`pack_checkers`)."""
    return pack_checkers(np.concatenate([r[1:26] for r in rows]))[0].tobytes()


def _unpack_counts(data: bytes, what: str) -> np.ndarray:
    counts = np.zeros((2, 26), dtype=np.int16)
    counts[:, 1:] = unpack_checkers(np.frombuffer(data, np.uint8), what).reshape(2, 25)
    counts[:, OFF] = 15 - counts[:, 1:].sum(axis=1)
    return counts


def _pin_masks(arrays: np.ndarray) -> np.ndarray:
    """Plakoto's pin flags of boards int8[N, 4, 26] as two 24-bit masks (white's, then
    black's; bit ``p - 1`` for point ``p``): uint8[N, 6]."""
    pins = (arrays[:, 2:, 1:25] != 0).reshape(-1, 48)
    return np.packbits(pins, axis=1, bitorder="little")


def id_bytes(variant, arrays: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """The tavli position IDs of many boards of one game as bytes: boards int8[N, 4, 26]
    (or [N, 104]) with ``turns`` the side to move each -> uint8[N, L], each row the bytes
    whose base64url is :func:`position_id` (L 11, or 17 for Plakoto; one more for a game
    registered with a code of 4 or more)."""
    a = np.asarray(arrays).reshape(-1, 4, 26)
    t = np.asarray(turns, dtype=np.uint8).reshape(-1)
    if len(t) != len(a) or (t > 1).any():
        raise InvalidPosition("one side to move (0 or 1) a board")
    if variant.code < 4:
        head = (variant.code << 1 | t)[:, None]
    else:
        head = np.stack([8 | t, np.full_like(t, variant.code)], axis=1)
    parts = [head.astype(np.uint8), pack_checkers(a[:, :2, 1:26])]
    if variant.pins:
        parts.append(_pin_masks(a))
    return np.concatenate(parts, axis=1)


def boards_from_id_bytes(variant, data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boards int8[N, 4, 26] and sides to move uint8[N] of rows written by
    :func:`id_bytes` for ``variant``; :class:`ParseError` where a row is not the canonical
    ID of such a position."""
    data = np.asarray(data, dtype=np.uint8)
    skip = 1 if variant.code < 4 else 2
    width = skip + 10 + (6 if variant.pins else 0)
    if data.ndim != 2 or data.shape[1] != width:
        raise ParseError(f"{variant.name} position IDs are {width} bytes each")
    turns = data[:, 0] & 1
    arrays = np.zeros((len(data), 4, 26), dtype=np.int8)
    counts = unpack_checkers(data[:, skip:skip + 10]).reshape(-1, 2, 25)
    arrays[:, :2, 1:] = counts
    arrays[:, :2, 0] = 15 - counts.sum(axis=2)
    if variant.pins:
        bits = np.unpackbits(data[:, skip + 10:], axis=1, bitorder="little")
        arrays[:, 2:, 1:25] = bits.reshape(-1, 2, 24)
    if not np.array_equal(id_bytes(variant, arrays, turns), data):
        raise ParseError(f"rows that are not canonical {variant.name} position IDs")
    return arrays, turns


def position_id(pos: PositionView) -> str:
    """The tavli position ID of ``pos`` (see the module docstring)."""
    data = id_bytes(pos.variant, pos.array[None], np.array([pos.turn]))[0].tobytes()
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _b64decode(text: str, alphabet: str) -> bytes:
    pad = "=" * (-len(text) % 4)
    try:
        if alphabet == "url":
            return base64.urlsafe_b64decode(text + pad)
        return base64.b64decode(text + pad, validate=True)
    except (binascii.Error, ValueError):
        raise ParseError(f"{text!r} is not valid base64") from None


def parse_tavli_id(text: str, make: type[P]) -> P:
    if not _B64URL.match(text) or len(text) not in (15, 16, 23, 24):
        raise ParseError(f"{text!r} is not a tavli position ID (15 or 23 characters)")
    data = _b64decode(text, "url")
    head = data[0]
    if head >> 3 == 1 and len(data) > 1 and data[1] >= 4 and not head & 6:
        code, skip = data[1], 2              # version 1: a registered game's own code
    elif head >> 3 == 0:
        code, skip = head >> 1, 1
    else:
        raise ParseError(f"{text!r}: unknown position ID version")
    v, turn = find_variant(code), head & 1
    if len(data) != skip + (16 if v.pins else 10):
        raise ParseError(f"{text!r}: wrong length for a {v.name} position ID")
    data = data[skip - 1:]  # the checkers from byte 1 on, as in version 0
    arr = np.zeros((4, 26), dtype=np.int16)
    arr[:2] = _unpack_counts(data[1:11], text)
    if v.pins:
        for side in (0, 1):
            mask = int.from_bytes(data[11 + 3 * side: 14 + 3 * side], "little")
            for p in range(1, 25):
                arr[2 + side, p] = (mask >> (p - 1)) & 1
    pos = make(v, arr.astype(np.int8), turn)
    canonical = position_id(pos)
    if canonical != text:  # unused bits set: one position, one ID
        raise ParseError(f"{text!r} is not a canonical position ID (unused bits are set); "
                         f"this position's ID is {canonical}")
    return pos


def gnubg_position_id(pos: PositionView) -> str:
    """gnubg's Position ID of ``pos`` seen from the side to move (Portes/backgammon)."""
    if not pos.variant.gnubg_ids:
        raise InvalidPosition(f"gnubg Position IDs exist only for Portes and backgammon, "
                              f"not {pos.game_name}")
    a = pos.array
    data = _pack_counts([a[1 - pos.turn], a[pos.turn]])
    return base64.b64encode(data).decode()[:14]


def parse_gnubg_id(text: str, make: type[P], game: str | int = "backgammon", turn: int = 0
                   ) -> P:
    g = find_variant(game)
    if not g.gnubg_ids:
        raise ParseError(f"a gnubg Position ID cannot hold a {g.name} position")
    if not _GNUBG.match(text):
        raise ParseError(f"{text!r} is not a gnubg Position ID (14 base64 characters)")
    counts = _unpack_counts(_b64decode(text, "std"), text)
    arr = np.zeros((4, 26), dtype=np.int8)
    arr[turn] = counts[1]
    arr[1 - turn] = counts[0]
    return make(g, arr, turn)


def parse_position(text: str, make: type[P], game: str | int | None = None) -> P:
    """Read a position given as a tavli ID, a gnubg Position ID (Portes/backgammon; also
    gnubg's ``PositionID:MatchID``, the side on roll from the Match ID; and an XGID),
    ``start`` (needs ``game``) or a JSON document (text starting with ``{``).

    When ``game`` is given, the position must be of that game.
    """
    if not isinstance(text, str):
        raise ParseError("a position must be given as text")
    text = text.strip()
    g = find_variant(game) if game is not None else None
    if text.startswith("{"):
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as e:  # huge numbers, deep nesting too
            raise ParseError(f"position document is not valid JSON: {e}") from None
        pos = position_from_json(doc, make)
    elif text.lower() == "start":
        if g is None:
            raise ParseError("'start' needs the game to be named")
        pos = make.start(g)
    elif text.upper().startswith("XGID="):
        arr, on_roll, _ = decode_xgid(text)
        pos = make("backgammon", arr, on_roll)
    elif len(text) == 27 and text[14] == ":" and _GNUBG.match(text[:14]):
        st = parse_match_id(text[15:])  # gnubg's PositionID:MatchID
        pos = parse_gnubg_id(text[:14], make, g if g is not None else "backgammon", st.on_roll)
    elif len(text) == 14 and _GNUBG.match(text):
        pos = parse_gnubg_id(text, make, g if g is not None else "backgammon")
    else:
        pos = parse_tavli_id(text, make)
    if g is not None and pos.game != g.code:
        raise ParseError(f"that position is {pos.game_name}, not {g.name}")
    return pos


def position_to_json(pos: PositionView) -> dict[str, Any]:
    """The JSON position document of ``pos`` (see docs/formats.md)."""
    doc: dict[str, Any] = {
        "game": pos.game_name,
        "turn": SIDE_NAMES[pos.turn],
    }
    for side in (0, 1):
        s: dict[str, Any] = {
            "points": pos.points(side)[1:],
            "bar": pos.bar(side),
            "off": pos.off(side),
        }
        if pos.variant.pins:
            s["pinned"] = list(pos.pinned(side))
            s["mother_pinned"] = pos.mother_pinned(side)
        if pos.variant.first_checker:
            s["first_checker"] = ("locked" if pos.first_checker_locked(side) else
                                  "passed" if pos.first_checker_passed(side) else "unmoved")
        doc[SIDE_NAMES[side]] = s
    doc["id"] = pos.id()
    if pos.variant.gnubg_ids:
        doc["gnubg_id"] = pos.gnubg_id()
    return doc


def position_from_json(doc: Any, make: type[P]) -> P:
    """Read a JSON position document (dict). Derived fields (id, gnubg_id,
    mother_pinned, first_checker) are optional; when present they must agree."""
    if not isinstance(doc, dict):
        raise ParseError("a position document must be a JSON object")
    try:
        g = find_variant(doc["game"])
    except KeyError:
        raise ParseError("position document lacks 'game'") from None
    turn_raw = doc.get("turn", "white")
    if turn_raw in (0, 1, "0", "1"):
        turn = int(turn_raw)
    elif isinstance(turn_raw, str) and turn_raw.lower() in SIDE_NAMES:
        turn = SIDE_NAMES.index(turn_raw.lower())
    else:
        raise ParseError(f"'turn' must be white or black, got {turn_raw!r}")
    arr = np.zeros((4, 26), dtype=np.int16)
    for side, name in enumerate(SIDE_NAMES):
        s = doc.get(name)
        if not isinstance(s, dict):
            raise ParseError(f"position document lacks the object {name!r}")
        pts = s.get("points")
        if isinstance(pts, list):
            if len(pts) != 24:
                raise ParseError(f"{name}.points must list 24 counts (points 1..24)")
            items = list(enumerate(pts, start=1))
        elif isinstance(pts, dict):
            try:
                items = [(int(k), v) for k, v in pts.items()]
            except ValueError:
                raise ParseError(f"{name}.points keys must be point numbers") from None
        else:
            raise ParseError(f"{name}.points must be a list of 24 counts or an object")
        for p, n in items:
            if not 1 <= p <= 24:
                raise ParseError(f"{name}.points: point {p} is outside 1..24")
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 15:
                raise ParseError(f"{name}.points: count {n!r} on point {p} is not 0..15")
            arr[side, p] = n
        for key, slot in (("bar", BAR), ("off", OFF)):
            v = s.get(key, 0)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 15:
                raise ParseError(f"{name}.{key} must be a count 0..15, got {v!r}")
            arr[side, slot] = v
        if "off" not in s:
            arr[side, OFF] = max(0, 15 - int(arr[side, 1:].sum()))
        pinned = s.get("pinned", [])
        if not isinstance(pinned, list):
            raise ParseError(f"{name}.pinned must be a list of points")
        for p in pinned:
            if not isinstance(p, int) or not 1 <= p <= 24:
                raise ParseError(f"{name}.pinned: {p!r} is not a point 1..24")
            arr[2 + side, p] = 1
    pos = make(g, arr.astype(np.int8), turn)
    derived = position_to_json(pos)
    if "id" in doc and doc["id"] != derived["id"]:
        raise ParseError("position document: 'id' does not match the checkers given")
    if "gnubg_id" in doc and doc["gnubg_id"] != derived.get("gnubg_id"):
        raise ParseError("position document: 'gnubg_id' does not match the checkers given")
    for name in SIDE_NAMES:
        for key in ("mother_pinned", "first_checker"):
            if key in doc[name] and doc[name][key] != derived[name].get(key):
                raise ParseError(f"position document: {name}.{key} is "
                                 f"{doc[name][key]!r} but the checkers say "
                                 f"{derived[name].get(key)!r}")
    return pos
