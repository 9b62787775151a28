"""Move notation as players know it from gnubg: ``24/18 13/11``, ``bar/22*``, ``13/7*/1``,
``6/off``, ``8/4(2)``; Plakoto marks a pin with ``^`` (``13/9^``).

Points are in the mover's own numbering; ``bar`` is 25 and ``off`` is 0.

>>> format_steps(((24, 18, False), (13, 11, False)), 0)
'24/18 13/11'
>>> format_steps(((8, 4, False), (8, 4, False), (6, 2, False), (6, 2, False)), 0)
'8/4(2) 6/2(2)'
>>> format_steps(((6, 2, True), (6, 2, False)), 0)
'6/2*(2)'
>>> format_steps(((13, 7, True), (7, 1, False)), 0)
'13/7*/1'
>>> parse_move("bar/22* 13/7(2)")
[[25, 22], [13, 7], [13, 7]]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from tavli.engine.dice import dice_text
from tavli.engine.games import Variant, find_variant
from tavli.engine.view import Dice, MoveView, PositionView, Step
from tavli.errors import IllegalMove, ParseError

if TYPE_CHECKING:
    from tavli.engine.rules import Rules


def point_name(p: int) -> str:
    return "bar" if p == 25 else "off" if p == 0 else str(p)


def format_steps(steps: tuple[Step, ...] | list[Step], game: str | int | Variant,
                 seen: Callable[[int], int] | None = None) -> str:
    """Canonical text of a turn given as single steps (same checker's steps joined);
    ``seen`` renumbers the points as they are written (see :func:`format_steps_seen`).
    The texts are remembered (the same steps recur in position after position)."""
    mark = find_variant(game).hit_mark
    if seen is None and isinstance(steps, tuple):
        key = (mark, steps)
        text = _TEXTS.get(key)
        if text is None:
            if len(_TEXTS) >= _TEXTS_KEPT:
                _TEXTS.clear()
            text = _TEXTS[key] = (_format_two(steps, mark) if len(steps) == 2
                                  else _format(steps, mark, None))
        return text
    return _format(steps, mark, seen)


def _format_two(steps: tuple[Step, ...], mark: str) -> str:
    """:func:`_format` of two steps (most turns), written out."""
    (s1, t1, f1), (s2, t2, f2) = steps
    if s2 == t1:  # one checker, both steps
        via = f"/{point_name(t1)}{mark}" if f1 else ""
        return f"{point_name(s1)}{via}/{point_name(t2)}{mark if f2 else ''}"
    if s1 == s2 and t1 == t2:
        return f"{point_name(s1)}/{point_name(t1)}{mark if f1 or f2 else ''}(2)"
    one = f"{point_name(s1)}/{point_name(t1)}{mark if f1 else ''}"
    two = f"{point_name(s2)}/{point_name(t2)}{mark if f2 else ''}"
    return f"{one} {two}" if (-s1, t1) < (-s2, t2) else f"{two} {one}"


_TEXTS: dict[tuple[str, tuple[Step, ...]], str] = {}  # format_steps's texts met
_TEXTS_KEPT = 1 << 15  # at most some 15 MB


def _format(steps: tuple[Step, ...] | list[Step], mark: str,
            seen: Callable[[int], int] | None) -> str:
    """:func:`format_steps` of ``steps`` with the variant's ``mark`` for a hit or pin."""
    chains: list[list] = []  # [points..., marks...]: points[i] -> points[i+1], marks[i+1]
    for s, t, flag in steps:
        for ch in chains:
            if ch[0][-1] == s and s != 0:
                ch[0].append(t)
                ch[1].append(flag)
                break
        else:
            chains.append([[s, t], [False, flag]])
    # a checker's path shows its start, its end and the points where it hit or pinned
    paths: list[tuple[int, int, tuple[int, ...], frozenset[int]]] = []
    for pts, marks in chains:
        shown = tuple(p for k, p in enumerate(pts) if k == 0 or k == len(pts) - 1 or marks[k])
        hits = frozenset(p for k, p in enumerate(pts) if marks[k])
        paths.append((pts[0], pts[-1], shown, hits))
    paths.sort(key=lambda x: (-x[0], x[1], x[2]))
    out: list[str] = []
    i = 0
    while i < len(paths):  # identical paths are written once with a count, as gnubg does:
        j = i              # 6/2*(2) when two checkers go 6/2 and one of them hits
        hits: set[int] = set()
        while j < len(paths) and paths[j][2] == paths[i][2]:
            hits |= paths[j][3]
            j += 1
        text = "/".join(point_name(seen(p) if seen else p) + (mark if p in hits else "")
                        for p in paths[i][2])
        out.append(text + (f"({j - i})" if j - i > 1 else ""))
        i = j
    return " ".join(out)


def format_steps_seen(steps: tuple[Step, ...] | list[Step], game: str | int | Variant,
                      mover: int, viewer: int) -> str:
    """The text of ``mover``'s steps in ``viewer``'s numbering: the points where the
    viewer sees them on his side of the board (the bar and off keep their names).

    >>> format_steps_seen(((8, 2, False), (6, 2, False)), 0, 1, 0)
    '17/23 19/23'
    >>> format_steps_seen(((24, 18, False),), 2, 0, 1)  # Fevga: white's 24 is black's 12
    '12/6'
    """
    if mover == viewer:
        return format_steps(steps, game)
    v = find_variant(game)
    return format_steps(steps, v, lambda p: p if p in (0, 25) else v.opponent_point(p))


_TOKEN = re.compile(r"^(bar|off|\d{1,2})((?:/(?:bar|off|\d{1,2})[*^]?)+)(?:\((\d)\))?$")


def _point(text: str, what: str) -> int:
    if text == "bar":
        return 25
    if text == "off":
        return 0
    n = int(text)
    if not 1 <= n <= 25:
        raise ParseError(f"point {n} in {what!r} is outside 1..24 (or bar/off)")
    return n


def parse_move(text: str) -> list[list[int]]:
    """Read move text into checker paths ``[from, via..., to]``, repeats expanded.

    Raises :class:`ParseError` for anything that is not move notation.
    """
    if not isinstance(text, str):
        raise ParseError(f"a move must be text, got {type(text).__name__}")
    tokens = text.strip().lower().replace(",", " ").split()
    if not tokens:
        raise ParseError("empty move")
    paths: list[list[int]] = []
    for tok in tokens:
        m = _TOKEN.match(tok)
        if not m:
            raise ParseError(
                f"cannot read {tok!r}: write moves as from/to, e.g. 24/18 13/11, bar/22*, "
                "6/off, 8/4(2)")
        pts = [_point(m.group(1), tok)] + [
            _point(x.rstrip("*^"), tok) for x in m.group(2)[1:].split("/")]
        if pts[0] == 0:
            raise ParseError(f"{tok!r}: a move cannot start off the board")
        if 25 in pts[1:] or 0 in pts[1:-1]:
            raise ParseError(f"{tok!r}: the bar can only be a start and off only an end")
        for a, b in zip(pts, pts[1:], strict=False):
            if b >= a:
                raise ParseError(f"{tok!r}: checkers move from higher to lower points")
        n = int(m.group(3) or 1)
        if not 1 <= n <= 4:
            raise ParseError(f"{tok!r}: a repeat count must be 1-4")
        paths.extend([list(pts) for _ in range(n)])
        if sum(len(q) - 1 for q in paths) > 4:  # each hop takes at least one die
            raise ParseError(f"{text.strip()[:60]!r}: a move has at most four steps "
                             "(one per die; four with a double)")
    return paths


def match_move(pos: PositionView, text: str, dice: Dice, rules: Rules) -> MoveView:
    """The legal move that ``text`` denotes, or :class:`IllegalMove` saying why not."""
    from tavli.engine.movegen import STEP_REASONS, apply_step, step_code

    paths = parse_move(text)
    legal = pos.legal_moves(dice, rules)
    by_after = {m.after.array.tobytes(): m for m in legal}
    me = pos.turn
    kernel = pos.variant.kernel
    dvals = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    hops = [(p[k], p[k + 1]) for p in paths for k in range(len(p) - 1)]
    problems: list[str] = []
    finals: list[tuple[np.ndarray, int]] = []

    wanted = " ".join(text.strip().lower().replace(",", " ").split())
    same = [m for m in legal if str(m) == wanted]
    if len(same) == 1:  # canonical text (records, the apps) names its move exactly
        return same[0]
    found: dict[bytes, MoveView] = {}

    def search(arr: np.ndarray, todo: list[tuple[int, int]], left: list[int], used: int) -> bool:
        if not todo:
            key = arr.tobytes()
            finals.append((arr, used))
            if key in by_after:
                found[key] = by_after[key]
            return False
        for h, (a, b) in enumerate(todo):
            for d in sorted(set(left), reverse=True):
                t = a - d
                if b == 0:
                    if t > 0:
                        pass  # a step on the way home to bear off
                elif t < b:
                    continue
                code = step_code(arr, me, a, d, kernel)
                if code:
                    problems.append(f"{point_name(a)}/{point_name(max(t, 0))}: "
                                    f"{STEP_REASONS[code]}")
                    continue
                nxt = arr.copy()
                apply_step(nxt, me, a, d, kernel)
                reach = max(t, 0)
                rest = todo[:h] + todo[h + 1:]
                if reach != b:
                    rest = [(reach, b)] + rest
                rem = list(left)
                rem.remove(d)
                if search(nxt, rest, rem, used + 1):
                    return True
        return False

    start = np.array(pos.array)
    search(start, hops, dvals, 0)
    if len(found) > 1:  # e.g. 14/8 could hit on the way or not: the marks decide
        marks = text.count("*") + text.count("^")
        exact = [m for m in found.values() if sum(f for _, _, f in m.steps) == marks]
        if len(exact) == 1:
            return exact[0]
        options = " or ".join(sorted(str(m) for m in (exact or found.values())))
        raise IllegalMove(f"{text.strip()} is ambiguous: write {options}")
    if found:
        return next(iter(found.values()))
    dtext = dice_text(dice)
    if not legal:
        raise IllegalMove(f"no legal move with {dtext}: the turn passes")
    if finals:
        need = len(legal[0].steps)
        used = max(u for _, u in finals)
        if used < need:
            raise IllegalMove(f"{text.strip()}: must play {need} dice with {dtext} "
                              f"(only {used} played), e.g. {legal[0]}")
        if (used == 1 and dice[0] != dice[1] and rules.must_play_higher):
            raise IllegalMove(f"{text.strip()}: only one die can be played and it must be "
                              f"the higher one, e.g. {legal[0]}")
        raise IllegalMove(f"{text.strip()} is not legal with {dtext}: it breaks an end-of-turn "
                          f"rule of {rules.game_name} (starting quarter or prime)")
    if problems:
        raise IllegalMove(f"{text.strip()}: {problems[0]}")
    raise IllegalMove(f"{text.strip()} cannot be played with {dtext}")
