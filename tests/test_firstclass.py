"""Compiled functions handed to kernels by address (tavli.engine.firstclass): the same
results as a direct call, a caller found in Numba's cache by the next process, and the
searches and the evaluator compiled without what they call."""

import json
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
from numba import njit, typeof, types

from tavli.engine.firstclass import FirstClass


@njit(cache=True)
def _triple(x, out):
    out[0] = 3.0 * x[0]
    return 7


@njit(cache=True)
def _call_twice(fn, x, out):
    return fn(x, out) + fn(x, out)


SIG = types.int64(types.float64[::1], types.float64[::1])


def test_a_kernel_calls_it_by_address_with_the_direct_calls_result():
    fn = FirstClass(_triple, SIG)
    x, out = np.array([2.0]), np.zeros(1)
    assert _call_twice(fn, x, out) == 14 and out[0] == 6.0
    assert fn(x, out) == 7  # from Python: the function itself
    assert typeof(fn) == fn.type == types.FunctionType(SIG)


def test_it_travels_to_another_process_as_function_and_signature():
    fn = FirstClass(_triple, SIG)
    back = pickle.loads(pickle.dumps(fn))
    assert back == fn and hash(back) == hash(fn) and back.dispatcher is _triple


MODULE = """
import numpy as np
from numba import njit, types
from tavli.engine.firstclass import FirstClass

@njit(cache=True)
def leaf(x):
    return x[0] + 1.0

@njit(cache=True)
def caller(fn, x):
    return fn(x) * 2.0

fn = FirstClass(leaf, types.float64(types.float64[::1]))
print(caller(fn, np.array([1.5])), dict(caller.stats.cache_hits), flush=True)
"""


def test_a_caller_typed_with_it_is_found_in_the_cache_by_the_next_process(tmp_path):
    (tmp_path / "fcmod.py").write_text(MODULE)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH":
           os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    runs = [subprocess.run([sys.executable, "-c", "import fcmod"], env=env, capture_output=True,
                           text=True, timeout=120) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    first, second = (r.stdout.split(" ", 1) for r in runs)
    assert first[0] == second[0] == "5.0"
    assert first[1].strip() == "{}" and second[1].strip() != "{}", (first, second)


PROBE = """
import json
from tavli.ai.analyzer import Analyzer
from tavli.ai.evaluator import evaluate
from tavli.ai.race import encode_race
from tavli.engine.movegen import generate
from tavli.engine.rules import Rules

an = Analyzer(Rules.for_game("plakoto"))
an.searcher.compile(1)
after_search = [len(evaluate.signatures), len(generate.signatures)]
an.searcher.functions[0].compile()
print(json.dumps({"search": after_search, "evaluate": len(evaluate.signatures),
                  "encoder": len(encode_race.signatures)}))
"""


def test_the_search_and_the_evaluator_compile_without_what_they_call(tmp_path):
    """What lets the warm-up compile them in parallel (tavli.ai.warmup's first stage)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(PROBE)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got == {"search": [0, 0], "evaluate": 1, "encoder": 0}, got


def test_a_typed_call_answers_as_the_dispatcher_and_travels_without_its_entry():
    from tavli.engine.firstclass import TypedCall

    call = TypedCall(_triple)
    x, out = np.array([2.0]), np.zeros(1)
    assert call(x, out) == 7 and out[0] == 6.0  # through the dispatcher, then kept
    x[0] = 5.0
    assert call(x, out) == 7 and out[0] == 15.0  # straight to the compiled code
    back = pickle.loads(pickle.dumps(call))
    assert back.dispatcher is _triple and back(x, out) == 7


def test_one_position_at_a_time_is_the_batch():
    from tavli.ai.evaluator import Evaluator
    from tavli.engine.board import Position

    ev = Evaluator.shipped("plakoto")
    start = Position.start("plakoto")
    boards = np.stack([start.array, start.swap_turn().array, start.array])
    turns = np.array([start.turn, 1 - start.turn, start.turn])
    batch, used = ev.evaluate_arrays(boards, turns)
    for k in range(3):  # the first call dispatches, the next ones go straight
        one, u = ev.evaluate_arrays(boards[k:k + 1], turns[k:k + 1])
        assert np.array_equal(one[0], batch[k]) and u[0] == used[k]



RECEIVER = """
import pickle, sys
import tavli.ai.evaluator, tavli.ai.features, tavli.engine.movegen
encoder, (evf, gen) = pickle.loads(sys.stdin.buffer.read())
print(encoder.dispatcher is tavli.ai.features.encode_portes2_full,
      evf.dispatcher is tavli.ai.evaluator.evaluate,
      gen.dispatcher is tavli.engine.movegen.generate, flush=True)
"""


def test_another_process_receives_the_packages_own_compiled_functions():
    """Pickled to a pool or Ray worker, the functions handed over are the receiver's own
    module-level kernels (found in Numba's cache), not copies Numba would compile again
    without it."""
    from tavli.ai.evaluator import Evaluator
    from tavli.ai.search import Searcher
    from tavli.engine.rules import Rules

    ev = Evaluator.shipped("portes")
    sent = pickle.dumps((ev.tables.contact.enc, Searcher(ev, Rules.for_game("portes")).functions))
    res = subprocess.run([sys.executable, "-c", RECEIVER], input=sent, capture_output=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode().split() == ["True", "True", "True"]
