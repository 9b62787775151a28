"""Perft from the initial position against the published counts (spec, "Dama")."""

import time

import pytest

from tavli.engine.dama import movegen as mg
from tavli.engine.dama.rules import DamaRules

WHITE = sum(1 << i for i in range(20, 32))
BLACK = sum(1 << i for i in range(12))

PUBLISHED = {
    "italian": [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875],
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586],
}


@pytest.mark.parametrize("name", ["italian", "russian"])
def test_perft_to_depth_9(name):
    rules = DamaRules.for_name(name)
    buf = mg.new_buffer(10)
    t = time.perf_counter()
    got = [mg.perft_kernel(WHITE, 0, BLACK, 0, 0, 0, d, rules.geometry, rules.flags, buf)
           for d in range(1, 10)]
    assert got == PUBLISHED[name]
    assert time.perf_counter() - t < 30


def test_box_perft_matches_russian_before_backward_captures():
    # box and russian differ only once a man could capture backwards (and by huffing
    # choices): the first 4 plies have no captures at all.
    box = DamaRules.for_name("box", huffing=False)
    got = [mg.perft_kernel(WHITE, 0, BLACK, 0, 0, 0, d, box.geometry, box.flags)
           for d in range(1, 5)]
    assert got == PUBLISHED["russian"][:4]
