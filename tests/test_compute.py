"""Jobs where `Compute` says (issue #32): this process, local processes, a Ray instance.
A job's output must not depend on where its tasks ran: labels, a training round, a
strength match, a rollout. The Ray tests share one local instance of two workers."""

from __future__ import annotations

import json
import os
import sys
import time

import numpy as np
import pytest

from tavli.ai.context import RolloutContext
from tavli.ai.rollout import rollout
from tavli.ai.shipped import shipped_net
from tavli.bench.strength import run_strength
from tavli.cli import main
from tavli.compute import Compute, as_compute, open_pool
from tavli.engine.board import Position
from tavli.errors import OptionError
from tavli.rl.selfplay import random_pair, self_play

ON_RAY = Compute(ray=True, jobs=2)


@pytest.fixture(scope="module")
def ray_instance():
    """One local Ray instance of two workers for the module's tests."""
    import ray

    # the workers import this module's task functions too
    tests = os.path.dirname(os.path.abspath(__file__))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": tests}})
    yield ray
    ray.shutdown()


def _setup(base: int) -> dict:
    import os

    return {"base": base, "pid": os.getpid()}


def _work(state: dict, x: int) -> tuple[int, int]:
    return state["base"] + x * x, state["pid"]


def test_the_settings_say_where_and_refuse_nonsense():
    assert Compute().here and Compute(jobs=1).describe() == "this process"
    assert Compute(jobs=3).local_processes == 3 and not Compute(jobs=3).here
    assert ON_RAY.uses_ray and ON_RAY.local_processes == 0
    assert "Ray cluster at h:1" in Compute(ray_address="h:1").describe()
    assert as_compute(2) == Compute(jobs=2) and as_compute(ON_RAY) is ON_RAY
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(OptionError, match="jobs"):
            Compute(jobs=bad)
    with pytest.raises(OptionError, match="address"):
        Compute(ray_address=" ")


def test_a_pool_gives_the_same_results_wherever_it_runs(ray_instance):
    tasks = list(range(12))
    expected = [7 + x * x for x in tasks]
    for compute in (Compute(), Compute(jobs=2), ON_RAY):
        with open_pool(compute, _setup, (7,)) as pool:
            ordered = list(pool.map(_work, tasks, ordered=True))
            assert [r for r, _ in ordered] == expected, compute
            assert sorted(r for r, _ in pool.map(_work, tasks)) == sorted(expected)
            pids = {p for _, p in ordered}
            assert (pids == {os.getpid()}) == compute.here, (compute, pids)


def _round_args(run, start, *extra):
    return ["train-round", "portes", "--from", str(start), "--run", str(run),
            "--positions", "120", "--targets", "ply1", "--chunk", "60", "--epochs", "2",
            "--batch", "32", "--games", "40", "--z", "0", "--seed", "4", *extra]


def test_a_round_on_ray_is_the_round_in_local_processes(tmp_path, ray_instance, capsys):
    start = tmp_path / "start.npz"
    shipped_net("portes").save(start)
    assert main(_round_args(tmp_path / "local", start, "--jobs", "2")) == 0
    assert main(_round_args(tmp_path / "ray", start, "--ray", "--jobs", "2")) == 0
    out = capsys.readouterr().out
    assert "labelling on 2 local processes" in out
    assert "labelling on a local Ray instance of 2 workers" in out
    local = json.loads((tmp_path / "local" / "rounds.json").read_text())
    on_ray = json.loads((tmp_path / "ray" / "rounds.json").read_text())
    assert local == on_ray
    for name in ("best.npz", "round-1/fit/student.npz"):
        a = np.load(tmp_path / "local" / name)
        b = np.load(tmp_path / "ray" / name)
        assert all(np.array_equal(a[k], b[k]) for k in a.files), name
    for c in range(2):  # the labels, byte for byte
        name = f"round-1/labels/chunk-{c:05d}.npy"
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes()
    sums = "round-1/labels/SHA256SUMS"
    assert (tmp_path / "local" / sums).read_text() == (tmp_path / "ray" / sums).read_text()


def test_a_strength_match_on_ray_is_the_local_one(ray_instance):
    # compiled players (blocks of pairs) and players driven through Python (a pair a task)
    # (local processes: tests/test_strength.py)
    for a, b, game, games in (("neural:0", "pubeval", "backgammon", 240),
                              ("greedy", "random", "plakoto", 6)):
        here = run_strength(a, b, game, games, seed=6)
        there = run_strength(a, b, game, games, seed=6, compute=ON_RAY)
        assert np.array_equal(here.points, there.points), (a, b)


def test_a_rollout_on_ray_is_the_local_one(ray_instance):
    pos = Position.start("backgammon")
    ctx = RolloutContext(games=144, truncate=2, seed=3)
    here = rollout(pos, ctx)
    there = rollout(pos, ctx, compute=ON_RAY)
    assert here.trials == there.trials == 144
    assert np.array_equal(here.outputs, there.outputs) and here.equity == there.equity


def test_self_play_of_the_environments_is_the_same_here_in_processes_and_on_ray(
        ray_instance):
    """Research environments' experience (tavli.rl.selfplay) on the jobs of training."""
    here = self_play("plakoto", random_pair, 10, seed=4, per_task=3)
    for where in (Compute(jobs=2), ON_RAY):
        there = self_play("plakoto", random_pair, 10, compute=where, seed=4, per_task=3)
        assert [e.returns for e in here] == [e.returns for e in there], where
        assert all(np.array_equal(a.actions, b.actions)
                   and np.array_equal(a.observations, b.observations)
                   for a, b in zip(here, there, strict=True)), where
    assert all(sum(e.returns) == 0 and len(e.actions) == len(e.observations) for e in here)


def test_without_ray_the_option_names_the_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    with pytest.raises(OptionError, match=r"tavli\[ray\]"):
        open_pool(ON_RAY, _setup, (1,))
    assert main(["rollout", "backgammon", "start", "--games", "36", "--ray"]) == 2
    assert "pip install 'tavli[ray]'" in capsys.readouterr().err


def test_an_address_nothing_answers_at_is_refused_at_once(capsys):
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t = time.perf_counter()
    assert main(["rollout", "backgammon", "start", "--games", "36", "--ray-address",
                 f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert "no Ray cluster answers at" in err and time.perf_counter() - t < 10
    assert main(["rollout", "backgammon", "start", "--games", "36", "--ray-address",
                 "nonsense"]) == 2
    assert "host:port" in capsys.readouterr().err
