"""The compiled turn tree (tavli/engine/steptree.py behind tavli/web/steps.py's turn_tree) against
the Python search it replaced, kept here as the reference: the same tree, node for node
(keys, boards, dice left, steps on in the same order, moves), over random positions of
every game reached by random play (doubles, hits, pins, the bar and bear-offs included),
with all the rule options that change the legal moves."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pytest

from tavli.engine.board import Move, Position
from tavli.engine.movegen import OK, apply_step, step_code
from tavli.engine.rules import Rules
from tavli.engine.steptree import search
from tavli.play.game import Game
from tavli.web.steps import board_text, dice_of_turn, key_text, turn_tree

Step = tuple[int, int]
Key = tuple[Step, ...]


# --- the reference: the Python search turn_tree had before the compiled one ---------------
def _without(rem: tuple[int, ...], d: int) -> tuple[int, ...]:
    i = rem.index(d)
    return rem[:i] + rem[i + 1:]


def reference_tree(pos: Position, dice: Sequence[int], legal: Sequence[Move], *,
                   steps: bool = True) -> dict[str, Any]:
    dice_all = dice_of_turn(dice)
    boards: dict[Key, np.ndarray] = {}
    left: dict[Key, tuple[int, ...]] = {}
    edges: dict[Key, dict[Step, Key]] = {}
    done: dict[Key, int] = {}
    if steps and legal:
        _search(pos, dice_all, legal, boards, left, edges, done)
    root: Key = ()
    if root not in boards:
        boards[root] = pos.array
        left[root] = tuple(dice_all)
    keys = sorted(boards, key=lambda k: (len(k), [(-f, -t) for f, t in k]))
    index = {k: i for i, k in enumerate(keys)}
    nodes: list[dict[str, Any]] = []
    for key in keys:
        node: dict[str, Any] = {
            "key": key_text(key), "board": board_text(boards[key]), "dice": list(left[key]),
            "next": [[f, t, index[c]] for (f, t), c in edges.get(key, {}).items()]}
        if key in done:
            node["move"] = done[key]
        nodes.append(node)
    return {"dice": dice_all, "nodes": nodes}


def _search(pos: Position, dice: list[int], legal: Sequence[Move],
            boards: dict[Key, np.ndarray], left: dict[Key, tuple[int, ...]],
            edges: dict[Key, dict[Step, Key]], done: dict[Key, int]) -> None:
    kernel = pos.variant.kernel
    me = pos.turn
    finals: dict[bytes, int] = {}
    for i, m in enumerate(legal):
        finals.setdefault(m.after.array.tobytes(), i)
    length = len(legal[0].steps)
    seen: dict[tuple[Key, tuple[int, ...]], bool] = {}

    def visit(key: Key, arr: np.ndarray, rem: tuple[int, ...]) -> bool:
        memo = (key, rem)
        if memo in seen:
            return seen[memo]
        good = False
        if len(key) == length:
            i = finals.get(arr.tobytes())
            if i is not None:
                done[key] = i
                good = True
        else:
            for s in [int(p) for p in np.flatnonzero(arr[me, 1:]) + 1][::-1]:
                for d in sorted(set(rem)):
                    if step_code(arr, me, s, d, kernel) != OK:
                        continue
                    after = arr.copy()
                    apply_step(after, me, s, d, kernel)
                    step = (s, max(s - d, 0))
                    child = tuple(sorted((*key, step), reverse=True))
                    if visit(child, after, _without(rem, d)):
                        edges.setdefault(key, {})[step] = child
                        good = True
        if good:
            boards.setdefault(key, arr)
            if key not in left or rem > left[key]:
                left[key] = rem
        seen[memo] = good
        return good

    visit((), np.array(pos.array, dtype=np.int8), tuple(dice))


# --- random positions ---------------------------------------------------------------------
RULES = {
    "portes": [Rules("portes"), Rules("portes", must_play_higher=True)],
    "plakoto": [Rules("plakoto")],
    "fevga": [Rules("fevga"), Rules("fevga", prime_rule="forbid")],
    "backgammon": [Rules("backgammon")],
}


def rolls(game: str, count: int, seed: int) -> Iterable[tuple[Position, tuple[int, int], Rules]]:
    """``count`` positions with their roll from random games of ``game`` (each roll of
    each game in turn, so the ends of the games, bear-offs, come too), every tenth with a
    double thrown instead; the rules cycle through ``RULES[game]``."""
    rnd = random.Random(seed)
    made = 0
    while True:
        rules = RULES[game][made % len(RULES[game])]
        g = Game(rules, seed=rnd.randrange(1 << 30))
        while not g.is_over and made < count:
            if g.phase in ("opening", "roll"):
                g.roll()
                if g.phase != "move":
                    continue
            assert g.dice is not None
            dice = g.dice
            if made % 10 == 9:
                d = rnd.randint(1, 6)
                dice = (d, d)
            yield g.position, dice, rules
            made += 1
            legal = g.legal_moves()
            g.play(rnd.choice(legal) if legal else None)
        if made >= count:
            return


def test_the_settings_pass_their_rules() -> None:
    assert Rules("fevga", prime_rule="forbid").kernel_flags() != Rules("fevga").kernel_flags()
    assert (Rules("portes", must_play_higher=True).kernel_flags()
            != Rules("portes").kernel_flags())


@pytest.mark.parametrize("game", list(RULES))
def test_the_compiled_tree_is_the_reference_tree(game: str) -> None:
    kinds = {"double": 0, "bear-off": 0, "bar": 0, "pass": 0}
    for k, (pos, dice, rules) in enumerate(rolls(game, 300, seed=len(game))):
        legal = pos.legal_moves(dice, rules)
        want = reference_tree(pos, dice, legal)
        assert turn_tree(pos, dice, legal) == want, (k, pos.id(), dice)
        kinds["double"] += dice[0] == dice[1] and bool(legal)
        kinds["bear-off"] += any(t == 0 for m in legal for _f, t, _h in m.steps)
        kinds["bar"] += pos.bar(pos.turn) > 0
        kinds["pass"] += not legal
    # the sample has what makes the trees differ
    assert kinds["double"] >= 20 and kinds["bear-off"] >= 10, kinds
    assert game in ("plakoto", "fevga") or kinds["bar"] >= 1, kinds  # no hits there


def test_the_order_of_keys_and_lists_is_the_reference_order() -> None:
    # == on dicts ignores the order of their keys, JSON does not
    pos = Position.from_points("backgammon", {6: 3, 5: 2, 4: 4, 2: 2}, {24: 2, 13: 13})
    legal = pos.legal_moves((4, 4))
    got, want = turn_tree(pos, (4, 4), legal), reference_tree(pos, (4, 4), legal)
    assert [list(n) for n in got["nodes"]] == [list(n) for n in want["nodes"]]
    assert repr(got) == repr(want)


def test_no_steps_and_a_pass_are_the_root_alone() -> None:
    pos = Position.start("portes")
    legal = pos.legal_moves((6, 5))
    assert turn_tree(pos, (6, 5), legal, steps=False) == reference_tree(
        pos, (6, 5), legal, steps=False)
    closed = Position.from_points("portes", {25: 1, 8: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2,
                                                             6: 2, 13: 3})
    assert closed.legal_moves((6, 5)) == []
    assert turn_tree(closed, (6, 5), []) == reference_tree(closed, (6, 5), [])


def test_a_small_table_grows() -> None:
    # the search starts with small hash tables and searches again with larger ones
    import tavli.engine.steptree as st

    pos = Position.from_points("portes", {p: 1 for p in range(1, 16)}, {1: 15})
    legal = pos.legal_moves((1, 1))
    first = st.FIRST_BITS
    try:
        st.FIRST_BITS = 6
        small = turn_tree(pos, (1, 1), legal)
    finally:
        st.FIRST_BITS = first
    assert small == turn_tree(pos, (1, 1), legal) == reference_tree(pos, (1, 1), legal)
    assert len(small["nodes"]) > 64
    n = search(pos, [1, 1, 1, 1], legal)[0]
    assert n == len(small["nodes"])
