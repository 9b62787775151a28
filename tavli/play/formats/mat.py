"""gnubg/Jellyfish ``.mat`` match files: text, one numbered line per pair of turns.

::

     5 point match

     Game 1
     black : 0                      white : 0
      1)                             21: 13/11 24/23
      2) 52: 13/8 24/22               Doubles => 2
      3)  Takes                      31: 8/5 6/5
      ...
                                      Wins 2 points

The left column is gnubg's player 0 (O, tavli's black), the right one player 1 (X,
tavli's white); the score line names them and gives the score before the game. A turn
is ``DICE: steps`` in the mover's own numbering, one die per step (25 the bar, 0 off);
``DICE:`` alone passes. ``Doubles => N``, ``Takes``, ``Drops``, ``Beavers => N`` and
``Wins N point(s)`` are the other actions. A header of ``0 point match`` is money play.
Lines starting with ``;`` are comments.
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
    within_limits,
)
from tavli.play.game import Game
from tavli.play.match import Match
from tavli.play.text import nonblank_lines

COL = 28  # width of the left column after "NNN) "
RIGHT_FROM = 20  # an action starting at this column or later is the right player's

_HEADER = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_NUM = re.compile(r"^\s*\d+\)")
_ACT = re.compile(
    r"(?P<dice>[1-6][1-6]):(?P<move>(?:[ \t]+(?:bar|off|\d+)(?:/(?:bar|off|\d+)\*?)+"
    r"(?:\(\d\))?)*)(?:[ \t]+\(no move\))?"
    r"|Doubles\s*=>\s*(?P<dbl>\d+)|(?P<take>Takes)|(?P<drop>Drops|Passes)"
    r"|(?P<beaver>Beavers)(?:\s*=>\s*\d+)?"
    r"|Wins\s+(?P<win>\d+)\s+points?(?:\s+and\s+the\s+match)?", re.I)
_OFF = re.compile(r"(?<=/)0\b")
#: characters of a line that is not a comment (gnubg's are under 80): a longer one is
#: refused before any pattern runs over it
MAX_LINE = 500


def _turn_text(a: Act) -> str:
    assert a.dice is not None
    d = f"{max(a.dice)}{min(a.dice)}:"
    steps = " ".join(f"{s}/{t}{'*' if h else ''}" for s, t, h in a.steps)
    return f"{d} {steps}" if steps else d


def _act_text(a: Act, cube: list[int]) -> str:
    if a.kind == "turn":
        return _turn_text(a)
    if a.kind == "double":
        cube[0] *= 2
        return f" Doubles => {cube[0]}"
    if a.kind == "beaver":
        cube[0] *= 2
        return f" Beavers => {cube[0]}"
    if a.kind == "win":
        return f" Wins {a.points} point{'s' if a.points != 1 else ''}"
    return {"take": " Takes", "drop": " Drops"}[a.kind]


def dumps(obj: Game | Match) -> str:
    """The ``.mat`` text of a backgammon game (money play) or match."""
    length, games = backgammon_games(obj, ".mat")
    out = [f" {length} point match", ""]
    white, black = (n.replace(":", " ") for n in names_to_write(obj))  # ':' ends a name
    for k, (g, sc) in enumerate(zip(games, scores_before(obj), strict=True)):
        out += [f" Game {k + 1}", f" {black} : {sc[1]:<23d}{white} : {sc[0]}"]
        n = 0
        row: list[str | None] = [None, None]

        def flush() -> None:
            nonlocal n, row
            if row != [None, None]:
                n += 1
                left = row[0] or ""
                width = max(COL, len(left) + 1)
                out.append(f"{n:3d}) {left:<{width}}{row[1] or ''}".rstrip())  # noqa: B023 (called within the iteration)
            row = [None, None]

        cube = [1]
        for a in acts_of(g):
            col = 0 if a.side == 1 else 1  # black left
            text = _act_text(a, cube)
            if a.kind == "win":  # in the winner's column, as gnubg writes it
                if col == 1 and row[0] is not None and row[1] is None:
                    row[1] = text
                    flush()
                    continue
                flush()
                out.append(" " * 5 + (text if col == 0 else " " * COL + text))
                continue
            if col == 0:
                flush()
                row[0] = text
            else:
                if row[1] is not None:
                    flush()
                row[1] = text
                flush()
        flush()
        out.append("")
    return "\n".join(out) + "\n"


def loads(text: str) -> Game | Match:
    """Read ``.mat`` text and replay it into a tavli game (``0 point match``) or match."""
    ms: MatchScript | None = None
    gs: GameScript | None = None
    total = 0
    for lineno, raw in nonblank_lines(text):
        line = raw.rstrip()
        at = f"line {lineno}"
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        if len(line) > MAX_LINE:
            raise RecordError(f"{at} is too long to be a .mat line: {len(line):,} characters "
                              f"(at most {MAX_LINE})")
        if ms is None:
            m = _HEADER.match(line)
            if not m:
                raise RecordError(f"not a .mat match file: {at} should be 'N point match', "
                                  f"not {line.strip()[:40]!r}")
            ms = MatchScript(int(m.group(1)))
            continue
        if _GAME.match(line):
            gs = GameScript()
            ms.games.append(gs)
            within_limits(ms, total)
            continue
        if gs is None:
            raise RecordError(f"{at}: expected 'Game 1', got {line.strip()[:40]!r}")
        if not gs.acts and gs.score is None and (m := _SCORE.match(line)) and \
                not _NUM.match(line):
            gs.score = (int(m.group(4)), int(m.group(2)))  # right is white
            if len(ms.games) == 1:
                ms.names = names_read(m.group(3), m.group(1), at)
            continue
        num = _NUM.match(line)
        body = line[num.end():] if num else line
        offset = num.end() if num else 0
        if num is None and "Wins" not in line:
            raise RecordError(f"{at}: cannot read {line.strip()[:50]!r}")
        pos = 0
        acts: list[Act] = []
        for m in _ACT.finditer(body):
            gap = body[pos:m.start()]
            if gap.strip():
                raise RecordError(f"{at}: cannot read {gap.strip()[:40]!r}")
            pos = m.end()
            col = m.start() + offset - (num.end() if num else 5)
            side = 0 if col >= RIGHT_FROM else 1
            if m.group("dice"):
                dice = (int(m.group("dice")[0]), int(m.group("dice")[1]))
                mv = _OFF.sub("off", " ".join(m.group("move").split()))
                acts.append(Act(side, "turn", dice, move=mv))
            elif m.group("dbl"):
                acts.append(Act(side, "double", points=int(m.group("dbl"))))
            elif m.group("take"):
                acts.append(Act(side, "take"))
            elif m.group("drop"):
                acts.append(Act(side, "drop"))
            elif m.group("beaver"):
                acts.append(Act(side, "beaver"))
            else:
                acts.append(Act(side, "win", points=int(m.group("win"))))
        if body[pos:].strip():
            raise RecordError(f"{at}: cannot read {body[pos:].strip()[:40]!r}")
        gs.acts += acts
        total += len(acts)
        within_limits(ms, total)
    if ms is None:
        raise RecordError("not a .mat match file: it is empty")
    return build(ms, ".mat")
