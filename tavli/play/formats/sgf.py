"""gnubg's ``.sgf`` match files: Smart Game Format with ``GM[6]`` (backgammon), one game
tree per game.

The root node of each tree carries ``MI[length:N][game:K][ws:S0][bs:S1]`` (match length,
0 for money play; game number from 0; the scores before the game), ``PW``/``PB`` (the
players), ``RU`` (``Crawford``, ``Crawford:CrawfordGame`` in the Crawford game) and
``RE`` (``W+2``, ``B+1``; ``R`` appended for a resignation). As gnubg writes it, ``W`` is
its player 0 (tavli's black) and ``B`` its player 1 (tavli's white). Then one node per
action: ``;B[52mhxv]`` is a turn (the dice, then one pair of letters per die: from, to),
``;B[52]`` a turn that passes, ``;B[double]``, ``;W[take]``, ``;W[drop]``, ``;W[beaver]``.
Points are letters ``a``..``x``: for ``W`` (black) point ``p`` of its own numbering is
the letter ``p - 1``, for ``B`` (white) the letter ``24 - p``; ``y`` is the bar and ``z``
off.
"""

from __future__ import annotations

import re

from tavli.errors import RecordError
from tavli.play.formats.script import (
    Act,
    GameScript,
    MatchScript,
    acts_of,
    backgammon_games,
    build,
    names_read,
    names_to_write,
    scores_before,
)
from tavli.play.game import Game
from tavli.play.match import Match
from tavli.play.record import MAX_GAMES, MAX_TOTAL

COLOR = ("B", "W")  # tavli white is gnubg's player 1, SGF "B"


def _letter(p: int, side: int) -> str:
    if p == 25:
        return "y"
    if p == 0:
        return "z"
    return chr(ord("a") + (p - 1 if side == 1 else 24 - p))


def _point(c: str, side: int) -> int:
    if c == "y":
        return 25
    if c == "z":
        return 0
    k = ord(c) - ord("a")
    return k + 1 if side == 1 else 24 - k


def _escape(text: str) -> str:
    """A property value as SGF writes it: ``]`` and ``\\`` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def dumps(obj: Game | Match) -> str:
    """The ``.sgf`` text of a backgammon game (money play) or match."""
    length, games = backgammon_games(obj, ".sgf")
    white, black = (_escape(n) for n in names_to_write(obj))
    trees = []
    for k, (g, sc) in enumerate(zip(games, scores_before(obj), strict=True)):
        ru = "Crawford:CrawfordGame" if g.crawford else "Crawford" if length else \
            "Jacoby" if g.rules.jacoby else ""
        head = (f"(;FF[4]GM[6]CA[UTF-8]AP[tavli]MI[length:{length}][game:{k}][ws:{sc[1]}]"
                f"[bs:{sc[0]}]PW[{black}]PB[{white}]" + (f"RU[{ru}]" if ru else ""))
        nodes = []
        for a in acts_of(g):
            c = COLOR[a.side]
            if a.kind == "win":
                head += f"RE[{c}+{a.points}{'R' if a.resigned else ''}]"
            elif a.kind == "turn":
                assert a.dice is not None
                d = f"{a.dice[0]}{a.dice[1]}"
                st = "".join(_letter(s, a.side) + _letter(t, a.side) for s, t, _ in a.steps)
                nodes.append(f";{c}[{d}{st}]")
            else:
                nodes.append(f";{c}[{a.kind}]")
        trees.append(head + "\n" + "\n".join(nodes) + ")")
    return "\n".join(trees) + "\n"


#: the most nodes (one per action, a root per game) and property values a file may hold:
#: the import limits, with room for gnubg's analysis (a few values a node)
MAX_NODES = MAX_TOTAL + MAX_GAMES
MAX_VALUES = 20 * MAX_NODES
_NAME = re.compile(r"[A-Za-z]+")
_SPACE = re.compile(r"\s*")
_ESCAPE = re.compile(r"\\(.)", re.S)


def _value_end(text: str, start: int) -> int:
    """The index of the ``]`` that closes the value opening at ``start`` (one past its
    ``[``): the first one not escaped by an odd run of backslashes. Each character is
    looked at a bounded number of times, so a huge comment costs linear time and no
    more memory than its own text."""
    i = start
    while True:
        j = text.find("]", i)
        if j < 0:
            raise RecordError("the SGF file ends inside a property value (truncated?)")
        k = j
        while k > start and text[k - 1] == "\\":
            k -= 1
        if (j - k) % 2 == 0:
            return j
        i = j + 1


def _values(text: str, pos: int) -> tuple[list[str], int]:
    """The values ``[..][..]`` from ``pos`` on, unescaped, and the index after them."""
    vals: list[str] = []
    while True:
        after = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if after >= len(text) or text[after] != "[":
            return vals, pos
        end = _value_end(text, after + 1)
        vals.append(_ESCAPE.sub(r"\1", text[after + 1:end]))
        pos = end + 1


def _parse_trees(text: str) -> list[list[dict[str, list[str]]]]:
    """The game trees of an SGF collection, each a list of nodes (property -> values).

    A hand-written scanner, not one regular expression over the text: Python's regular
    expressions backtrack through an alternation repeated per character, which made a
    50 MB comment cost gigabytes."""
    trees: list[list[dict[str, list[str]]]] = []
    depth = 0
    node: dict[str, list[str]] | None = None
    pos = nodes = values = 0
    while True:
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if pos >= len(text):
            break
        c = text[pos]
        if c == "(":
            depth += 1
            if depth > 1:
                raise RecordError("SGF variations are not supported: one line of play per "
                                  "game")
            trees.append([])
            if len(trees) > MAX_GAMES:
                raise RecordError(f"too many games to import: more than {MAX_GAMES}")
            node = None
            pos += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                raise RecordError("not a readable SGF file: unbalanced ')'")
            node = None
            pos += 1
        elif c == ";":
            if depth != 1:
                raise RecordError("not a readable SGF file: a node outside a game tree")
            node = {}
            trees[-1].append(node)
            nodes += 1
            if nodes > MAX_NODES:
                raise RecordError(f"too many moves to import: more than {MAX_NODES:,} "
                                  "nodes")
            pos += 1
        else:
            m = _NAME.match(text, pos)
            vals, after = _values(text, m.end()) if m else ([], pos)
            if not m or not vals:
                raise RecordError(f"not a readable SGF file: unexpected "
                                  f"{text[pos:pos + 20]!r} at character {pos}")
            if node is None:
                raise RecordError("not a readable SGF file: a property outside a node")
            node.setdefault(m.group().upper(), []).extend(vals)
            values += len(vals)
            if values > MAX_VALUES:
                raise RecordError(f"too many property values to import: more than "
                                  f"{MAX_VALUES:,}")
            pos = after
    if depth != 0:
        raise RecordError("the SGF file ends inside a game tree (truncated?)")
    if not trees:
        raise RecordError("not an SGF file: no game tree")
    return trees


_MOVE = re.compile(r"^([1-6])([1-6])((?:[a-z][a-z])*)$")
_RESULT = re.compile(r"^([BW])\+(\d+)(R?)$")


def loads(text: str) -> Game | Match:
    """Read gnubg ``.sgf`` text and replay it into a tavli game (money) or match."""
    ms: MatchScript | None = None
    for k, nodes in enumerate(_parse_trees(text)):
        where = f"game {k + 1}"
        if not nodes:
            raise RecordError(f"{where}: an empty game tree")
        root = nodes[0]
        if root.get("GM", ["1"])[0].strip() != "6":
            raise RecordError(f"{where}: not a backgammon SGF (GM[6])")
        info: dict[str, str] = {}
        for v in root.get("MI", []):
            key, _, val = v.partition(":")
            info[key.strip()] = val.strip()
        try:
            length = int(info.get("length", "0"))
            score = (int(info["bs"]), int(info["ws"])) if "ws" in info and "bs" in info \
                else None
        except ValueError:
            raise RecordError(f"{where}: MI values must be numbers") from None
        if ms is None:
            ms = MatchScript(length)
            if "PW" in root and "PB" in root:
                ms.names = names_read(root["PB"][0], root["PW"][0], f"{where}: PW/PB")
        elif length != ms.length:
            raise RecordError(f"{where}: match length {length}, the first game says "
                              f"{ms.length}")
        ru = " ".join(root.get("RU", []))
        gs = GameScript(score=score, crawford=("CrawfordGame" in ru) if length else None)
        ms.games.append(gs)
        _refuse_setup(nodes, where)
        for i, node in enumerate(nodes[1:] if not ({"B", "W"} & node_keys(root))
                                 else nodes):
            colors = [c for c in ("B", "W") if c in node]
            if not colors:
                continue
            if len(colors) > 1:
                raise RecordError(f"{where}, node {i + 1}: both B and W in one node")
            c = colors[0]
            side = COLOR.index(c)
            val = node[c][0].strip().lower()
            if val in ("double", "take", "drop", "beaver"):
                gs.acts.append(Act(side, val))
                continue
            m = _MOVE.match(val)
            if not m or len(m.group(3)) > 16:
                raise RecordError(f"{where}, node {i + 1}: cannot read the move "
                                  f"{c}[{val[:30]}]")
            pts = m.group(3)
            steps = [(_point(pts[j], side), _point(pts[j + 1], side), False)
                     for j in range(0, len(pts), 2)]
            gs.acts.append(Act(side, "turn", (int(m.group(1)), int(m.group(2))), steps))
        res = root.get("RE")
        if res and res[0].strip():
            r = _RESULT.match(res[0].strip())
            if not r:
                raise RecordError(f"{where}: cannot read the result RE[{res[0][:20]}]")
            gs.acts.append(Act(COLOR.index(r.group(1)), "win", points=int(r.group(2)),
                               resigned=bool(r.group(3))))
    assert ms is not None
    return build(ms, ".sgf")


SETUP = ("AB", "AW", "AE")  # checkers added (black, white), points emptied


def _refuse_setup(nodes: list[dict[str, list[str]]], where: str) -> None:
    """A game that starts from a set-up position (gnubg writes ``AE``/``AW``/``AB`` after
    ``set board``), in its root or any node, is refused naming the properties: tavli
    imports games from the opening position only, and must not drop them silently."""
    for k, node in enumerate(nodes):
        found = [p for p in SETUP if p in node]
        if found:
            at = "its root" if k == 0 else f"node {k + 1}"
            raise RecordError(f"{where}: {at} sets up a position ({', '.join(found)}): "
                              "tavli imports .sgf games from the opening position only")


def node_keys(node: dict[str, list[str]]) -> set[str]:
    return set(node)
