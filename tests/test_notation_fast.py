"""The shortcuts of move notation (tavli/engine/notation.py): the texts remembered and the
two-step turns written out are the general algorithm's texts, for every legal move of
random positions of the four games and every hit/pin mark and order of two steps."""

from __future__ import annotations

from test_web_steps_kernel import rolls

import tavli.engine.notation as nt
from tavli.engine.games import find_variant


def test_the_shortcuts_write_what_the_general_algorithm_writes() -> None:
    pairs = 0
    for game in ("portes", "plakoto", "fevga", "backgammon"):
        mark = find_variant(game).hit_mark
        for pos, dice, rules in rolls(game, 60, seed=7):
            for m in pos.legal_moves(dice, rules):
                steps = m.marked_steps
                want = nt._format(steps, mark, None)
                nt._TEXTS.clear()
                assert nt.format_steps(steps, pos.game) == want  # worked out
                assert nt.format_steps(steps, pos.game) == want  # remembered
                assert str(m) == want
                if len(steps) != 2:
                    continue
                for f1 in (False, True):
                    for f2 in (False, True):
                        for a, b in ((steps[0], steps[1]), (steps[1], steps[0])):
                            two = ((a[0], a[1], f1), (b[0], b[1], f2))
                            assert nt._format_two(two, mark) == nt._format(two, mark, None)
                            pairs += 1
    assert pairs > 500


def test_the_memory_is_bounded() -> None:
    kept = nt._TEXTS_KEPT
    try:
        nt._TEXTS_KEPT = 3
        for d in range(1, 6):
            nt.format_steps(((24, 24 - d, False),), "portes")
        assert len(nt._TEXTS) <= 3
        assert nt.format_steps(((24, 20, False), (13, 11, True)), "portes") == "24/20 13/11*"
    finally:
        nt._TEXTS_KEPT = kept
