"""The steps of a turn as the page plays them, worked out by the engine (the page has no
rules: it only follows what this module says).

* :func:`turn_tree`: every order of single checker steps in which the side to move may
  play a legal move, as a tree of *nodes* (the steps played so far), each with the board
  after them, the dice still unused and the steps that may follow; a node that completes
  a turn names its legal move;
* :func:`move_frames`: the boards of a move step by step (to animate a move played);
* :func:`opposite`: how the two sides number the points (to label them for either side);
* :func:`board_fields`, :func:`last_frames`: what the game state carries of these.

A node's key is the multiset of its steps, written ``"24/21 13/10"`` (each ``from/to``,
25 the bar and 0 off, sorted from the highest), ``""`` for none. Its board is the board
array of :mod:`tavli.engine.layout` as hexadecimal digits (:func:`board_text`).

The steps and their order come from the engine's single-step rules
(:func:`tavli.engine.movegen.step_code`, :func:`tavli.engine.movegen.apply_step`, with the variant's
kernel): a node exists only if its steps can be played in some order that goes on to the
position of one of the legal moves (:meth:`tavli.engine.board.Position.legal_moves`), so the
page offers exactly the steps that keep a legal move in reach.

>>> from tavli.engine.board import Position
>>> pos = Position.start("portes")
>>> tree = turn_tree(pos, (3, 1), pos.legal_moves((3, 1)))
>>> root = tree["nodes"][0]
>>> tree["dice"], root["key"], [step[:2] for step in root["next"]][:3]
([3, 1], '', [[24, 23], [24, 21], [13, 10]])
>>> node = tree["nodes"][next(i for f, t, i in root["next"] if (f, t) == (8, 5))]
>>> node["key"], node["dice"], [step[:2] for step in node["next"]]
('8/5', [1], [[24, 23], [8, 7], [6, 5], [5, 4]])
>>> done = tree["nodes"][next(i for f, t, i in node["next"] if (f, t) == (6, 5))]
>>> done["key"], done["next"], str(pos.legal_moves((3, 1))[done["move"]])
('8/5 6/5', [], '8/5 6/5')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from tavli.engine.board import Move, Position
from tavli.engine.games import find_variant
from tavli.errors import TavliError
from tavli.play.game import Game

Step = tuple[int, int]
Key = tuple[Step, ...]


def key_text(key: Iterable[Step]) -> str:
    """The text of a node's key: its steps ``from/to``, highest first."""
    return " ".join(f"{f}/{t}" for f, t in sorted(key, reverse=True))


_HEX = bytes.maketrans(bytes(range(16)), b"0123456789abcdef")


def board_text(arr: np.ndarray) -> str:
    """A board array (:mod:`tavli.engine.layout`) as hexadecimal digits, one per slot, row after
    row: the 26 slots of white (0 off, 1..24 its points, 25 its bar), of black (in black's
    own numbering), then white's and black's pin flags (Plakoto); the zeros at the end are
    left out (a slot past the end holds 0).

    >>> from tavli.engine.board import Position
    >>> board_text(Position.start("portes").array)
    '000000503000050000000000200000005030000500000000002'
    """
    text = np.asarray(arr, dtype=np.uint8).tobytes().translate(_HEX).decode("ascii")
    return text.rstrip("0")


def dice_of_turn(dice: Sequence[int]) -> list[int]:
    """The dice a turn plays, higher first: a double four times."""
    d1, d2 = int(dice[0]), int(dice[1])
    return [d1] * 4 if d1 == d2 else sorted((d1, d2), reverse=True)


def opposite(game: str | int) -> list[int]:
    """``out[p]``: the other side's number of point ``p`` (1..24; ``out[0]`` is 0), the same
    both ways round (:meth:`tavli.engine.games.Variant.opponent_point`)."""
    v = find_variant(game)
    return [0] + [v.opponent_point(p) for p in range(1, 25)]


def _reaches(s: int, t: int, d: int) -> bool:
    """Does a die of ``d`` take a checker from ``s`` to ``t`` (0 = off)?"""
    return t == s - d or (t == 0 and s - d <= 0)


def _without(rem: tuple[int, ...], d: int) -> tuple[int, ...]:
    i = rem.index(d)
    return rem[:i] + rem[i + 1:]


def _step(arr: np.ndarray, me: int, s: int, t: int, rem: tuple[int, ...],
          kernel: int) -> Iterable[tuple[int, np.ndarray]]:
    """Each way the engine allows to play ``s/t`` with one of the dice ``rem`` (the die,
    the board after), the smallest die first."""
    from tavli.engine.movegen import OK, apply_step, step_code

    for d in sorted(set(rem)):
        if _reaches(s, t, d) and step_code(arr, me, s, d, kernel) == OK:
            after = arr.copy()
            apply_step(after, me, s, d, kernel)
            yield d, after


def turn_tree(pos: Position, dice: Sequence[int], legal: Sequence[Move], *,
              steps: bool = True) -> dict[str, Any]:
    """The tree of the turn of ``pos``'s side to move with ``dice``, whose legal moves are
    ``legal`` (in the order the state lists them): ``{"dice": [...], "nodes": [...]}``.

    ``dice`` are the dice the turn plays, higher first (a double four times); node 0 is
    the root (no step played). A node is ``{"key", "board", "dice": [the dice still
    unused, higher first], "next": [[from, to, node], ...]}`` and, when its steps make a
    legal move, ``"move"``: that move's index in ``legal``. Every order of steps that ends
    on the position of a legal move is there, also when the engine wrote that move with
    other steps (``7/6 6/off`` for ``7/1 1/off``). When one multiset of steps can leave
    different dice unused (a checker borne off with either of two dice), the node shows
    the larger ones left. ``steps=False``: the root only, without its steps (a turn the
    page does not play: the AI's).

    The nodes are searched depth first (:func:`tavli.engine.steptree.search`, compiled): from a
    node, the sources from the highest point down and for each the distinct dice left
    from the smallest up; a node's board is the first found, the steps on from it are in
    the order first found, and the nodes are listed by their number of steps, then by
    their steps from the highest."""
    dice_all = dice_of_turn(dice)
    if steps and legal:
        from tavli.engine.steptree import search

        n, meta, boards, edges = search(pos, dice_all, legal)
        if n:
            return {"dice": dice_all, "nodes": _nodes(meta, boards, edges, len(dice_all))}
    # no legal move (the turn passes) or no steps asked for: the root alone
    root = {"key": "", "board": board_text(pos.array), "dice": list(dice_all), "next": []}
    return {"dice": dice_all, "nodes": [root]}


def bare_root(tree: dict[str, Any]) -> dict[str, Any]:
    """``tree`` (:func:`turn_tree`'s) with its root only, without its steps: the form
    ``steps=False`` gives, for a seat that does not play the turn."""
    root = tree["nodes"][0]
    return {"dice": tree["dice"], "nodes": [{"key": root["key"], "board": root["board"],
                                             "dice": root["dice"], "next": []}]}


_STEP_TEXT = [f"{c >> 5}/{c & 31}" for c in range(1024)]
_BOARD_CHARS = 104
_KEYS: dict[int, str] = {}  # the texts of the nodes' keys met (packed: tavli.engine.steptree)
_LEFT: dict[int, tuple[int, ...]] = {}  # the dice left met (packed, with their number)


def _key_text(key: int, n: int) -> str:
    text = _KEYS.get(key)
    if text is None:
        if len(_KEYS) >= 1 << 16:
            _KEYS.clear()
        text = _KEYS[key] = " ".join([_STEP_TEXT[(key >> (30 - 10 * j)) & 1023]
                                      for j in range(n)])
    return text


def _dice_left(rem: int, n: int) -> tuple[int, ...]:
    dice = _LEFT.get(rem << 3 | n)
    if dice is None:
        dice = _LEFT[rem << 3 | n] = tuple((rem >> (9 - 3 * j)) & 7 for j in range(n))
    return dice


def _nodes(meta: np.ndarray, boards: np.ndarray, edges: np.ndarray,
           ndice: int) -> list[dict[str, Any]]:
    """The tree's nodes from :func:`tavli.engine.steptree.search`'s arrays."""
    texts = boards.tobytes().translate(_HEX).decode("ascii")
    nxt = edges.tolist()
    out: list[dict[str, Any]] = []
    keys, left = _KEYS, _LEFT
    at = 0
    for key, k, rem, move, first, end in meta.tolist():
        text = keys.get(key)
        if text is None:
            text = _key_text(key, k)
        dice = left.get(rem << 3 | (ndice - k))
        if dice is None:
            dice = _dice_left(rem, ndice - k)
        node: dict[str, Any] = {"key": text, "board": texts[at:at + _BOARD_CHARS].rstrip("0"),
                                "dice": list(dice), "next": nxt[first:end]}
        if move >= 0:
            node["move"] = move
        out.append(node)
        at += _BOARD_CHARS
    return out


def _walk(order: list[tuple[int, int]], i: int, arr: np.ndarray, rem: tuple[int, ...],
          me: int, kernel: int) -> list[tuple[Any, ...]] | None:
    """The boards and unused dice after each of the steps ``order[i:]`` from ``arr``
    (``rem``: the dice left), trying each die a step can use; None if they cannot be
    played. (A module function, not a closure that calls itself: that closure and its
    cells were a reference cycle per move shown, garbage only the collector frees, a
    burst of it stopping an online server for a third of a second.)"""
    if i == len(order):
        return []
    s, t = order[i]
    for d, after in _step(arr, me, s, t, rem, kernel):
        rest = _walk(order, i + 1, after, _without(rem, d), me, kernel)
        if rest is not None:
            return [(after, _without(rem, d)), *rest]
    return None


def move_frames(before: Position, dice: Sequence[int],
                steps: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """The boards of a move from ``before`` with ``dice``, one frame per step played in
    order (``steps``: ``[from, to, ...]``), the first the board before: ``{"board": text,
    "dice": [unused, higher first]}``. Raises ValueError if the steps cannot be played."""
    kernel = before.variant.kernel
    me = before.turn
    rem0 = tuple(sorted(dice_of_turn(dice), reverse=True))
    order = [(int(s[0]), int(s[1])) for s in steps]
    start = np.array(before.array, dtype=np.int8)
    path = _walk(order, 0, start, rem0, me, kernel)
    if path is None:
        raise ValueError(f"the steps {order} cannot be played from {before.id()}")
    return [{"board": board_text(arr), "dice": list(rem)}
            for arr, rem in [(start, rem0), *path]]


def last_frames(last: Mapping[str, Any] | None) -> list[dict[str, Any]] | None:
    """The frames (:func:`move_frames`) of the state's ``last`` action when it is a move
    (it keeps the position before it and its steps), else None (also when the stored
    action does not replay: the page then shows the new position without animating)."""
    if not last or last.get("kind") != "move" or not last.get("before"):
        return None
    try:
        return move_frames(Position.from_json(last["before"]), last["dice"], last["steps"])
    except (TavliError, ValueError, KeyError, TypeError, IndexError):
        return None


def board_fields(game: Game, person: bool) -> dict[str, Any]:
    """The game state's fields for drawing and playing the board (docs/web.md):
    ``turn_tree`` (:func:`turn_tree` of the turn whose dice are out, its steps only when
    ``person`` plays it; None before the dice are thrown) and ``opposite``
    (:func:`opposite`)."""
    tree = None
    if game.phase == "move" and game.dice:
        tree = turn_tree(game.position, game.dice, game.legal_moves(), steps=person)
    return {"turn_tree": tree, "opposite": opposite(game.rules.game)}


def point(v: int | str) -> int:
    """A step's point as a request gives it: 0-25, ``"bar"`` (25) or ``"off"`` (0), or
    their text (422 otherwise)."""
    from tavli.web.errors import ApiError

    if isinstance(v, str):
        key = v.strip().lower()
        if key == "bar":
            return 25
        if key == "off":
            return 0
        if key.isascii() and key.isdigit() and len(key) < 10:
            v = int(key)
        else:
            raise ApiError(422, f"a step point must be 0-25, 'bar' or 'off', got {v!r}",
                           "invalid", key="err.steps")
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 25:
        raise ApiError(422, f"a step point must be 0-25, got {v!r}"[:80], "invalid",
                       key="err.steps")
    return v


def match_steps(g: Game, raw: Sequence[Sequence[int | str]]) -> Move:
    """The legal move of ``g`` (dice out) made of the steps ``raw`` (``[[from, to], ...]``
    in any order): the browser app's and online play's way to name a move by the checkers
    moved. :class:`~tavli.errors.IllegalMove` when no legal move has those steps."""
    from tavli.engine.dice import dice_text
    from tavli.errors import IllegalMove
    from tavli.web.errors import ApiError

    if any(not isinstance(st, list | tuple) or len(st) != 2 for st in raw):
        raise ApiError(422, "steps: each step is [from, to]", "invalid", key="err.steps")
    steps = sorted((point(f), point(t)) for f, t in raw)
    if not steps:
        raise ApiError(422, "steps: empty (a turn without a legal move passes by "
                            "itself)", "invalid", key="err.empty_move")
    found = [m for m in g.legal_moves()
             if sorted((f, t) for f, t, _h in m.steps) == steps]
    if not found:
        text = " ".join(f"{'bar' if f == 25 else f}/{'off' if t == 0 else t}"
                        for f, t in steps)
        raise IllegalMove(f"{text} is not a legal move with {dice_text(g.dice or (0, 0))}")
    return found[0]


__all__ = ["turn_tree", "bare_root", "move_frames", "last_frames", "board_fields", "opposite",
           "key_text", "board_text", "dice_of_turn", "point", "match_steps"]
