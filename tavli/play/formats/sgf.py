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
    scores_before,
)
from tavli.play.game import Game
from tavli.play.match import Match

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


def dumps(obj: Game | Match) -> str:
    """The ``.sgf`` text of a backgammon game (money play) or match."""
    length, games = backgammon_games(obj, ".sgf")
    trees = []
    for k, (g, sc) in enumerate(zip(games, scores_before(obj), strict=True)):
        ru = "Crawford:CrawfordGame" if g.crawford else "Crawford" if length else \
            "Jacoby" if g.rules.jacoby else ""
        head = (f"(;FF[4]GM[6]CA[UTF-8]AP[tavli]MI[length:{length}][game:{k}][ws:{sc[1]}]"
                f"[bs:{sc[0]}]PW[black]PB[white]" + (f"RU[{ru}]" if ru else ""))
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


_TOKEN = re.compile(r"\s*(?:(?P<open>\()|(?P<close>\))|(?P<semi>;)|"
                    r"(?P<prop>[A-Za-z]+)(?P<vals>(?:\s*\[(?:[^\]\\]|\\.)*\])+))", re.S)
_VAL = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.S)


def _parse_trees(text: str) -> list[list[dict[str, list[str]]]]:
    """The game trees of an SGF collection, each a list of nodes (property -> values)."""
    trees: list[list[dict[str, list[str]]]] = []
    depth = 0
    pos = 0
    node: dict[str, list[str]] | None = None
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise RecordError(f"not a readable SGF file: unexpected {text[pos:pos + 20]!r} "
                              f"at character {pos}")
        pos = m.end()
        if m.group("open"):
            depth += 1
            if depth > 1:
                raise RecordError("SGF variations are not supported: one line of play per "
                                  "game")
            trees.append([])
            node = None
        elif m.group("close"):
            depth -= 1
            if depth < 0:
                raise RecordError("not a readable SGF file: unbalanced ')'")
            node = None
        elif m.group("semi"):
            if depth != 1:
                raise RecordError("not a readable SGF file: a node outside a game tree")
            node = {}
            trees[-1].append(node)
        else:
            if node is None:
                raise RecordError("not a readable SGF file: a property outside a node")
            vals = [v.replace("\\]", "]").replace("\\\\", "\\")
                    for v in _VAL.findall(m.group("vals"))]
            node.setdefault(m.group("prop").upper(), []).extend(vals)
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
        elif length != ms.length:
            raise RecordError(f"{where}: match length {length}, the first game says "
                              f"{ms.length}")
        ru = " ".join(root.get("RU", []))
        gs = GameScript(score=score, crawford=("CrawfordGame" in ru) if length else None)
        ms.games.append(gs)
        for i, node in enumerate(nodes[1:] if not ({"B", "W"} & node_keys(root))
                                 else nodes):
            for bad in ("AB", "AW", "AE"):
                if bad in node:
                    raise RecordError(f"{where}: position set-up ({bad}) is not supported")
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


def node_keys(node: dict[str, list[str]]) -> set[str]:
    return set(node)
