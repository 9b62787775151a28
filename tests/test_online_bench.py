"""A small ``tavli bench server`` run: real ``tavli serve`` processes, simulated players
in a client process, the report's figures, nothing lost."""

from __future__ import annotations

import pytest

from tavli.errors import CliError
from tavli.online.bench import bench_server, parse_think, quantile


def _clean(res: dict) -> None:
    assert res["connected"] == res["players"]
    assert res["actions"] > 0 and res["moves"] > 0 and res["actions_per_s"] > 0
    p50, p95, p99 = res["p50"], res["p95"], res["p99"]
    assert 0 < p50[0] <= p95[0] <= p99[0] and p95[1] <= p95[0] <= p95[2]
    assert res["errors"] == {} and res["tracebacks"] == 0
    for k in ("lost", "mismatched", "not_received", "duplicated", "out_of_order",
              "log_gaps", "unanswered"):
        assert res[k] == 0, k
    assert "act -> opponent p50" in res["text"] and "lost            0" in res["text"]


def test_bench_server_one_process_sqlite():
    res = bench_server(players=8, processes=1, seconds=3, think=(0.05, 0.2), quiet=True)
    assert res["processes"] == 1 and res["store"].startswith("SQLite")
    _clean(res)


def test_bench_server_two_processes_postgresql(pg_cluster):
    res = bench_server(players=8, processes=2, seconds=3, think=(0.05, 0.2), quiet=True,
                       db=pg_cluster.create_database("bench2"))
    assert res["processes"] == 2 and res["store"].startswith("PostgreSQL")
    assert len(res["server_cpu"]) == 2
    _clean(res)


def test_options_are_checked():
    assert parse_think("1-3") == (1.0, 3.0) and parse_think("0.5") == (0.5, 0.5)
    for bad in ("3-1", "x", "", "1-2-3", "-1"):
        with pytest.raises(CliError):
            parse_think(bad)
    with pytest.raises(CliError):
        bench_server(players=3)
    with pytest.raises(CliError):
        bench_server(players=4, processes=3)
    assert quantile([], 0.5)[0] != quantile([], 0.5)[0]  # NaN


def test_one_command_runs_several_configurations(capsys, monkeypatch):
    """``--players 4,6 --processes 1,2``: a run for each, in order, then the table of
    them all. (Each run is the ``bench_server`` the two tests above check for real; here
    a stand-in for it keeps the suite quick: four real runs took half a minute.)"""
    from tavli.online import bench
    from tavli.online.bench import bench_servers

    real = bench.bench_server

    def quick(**kw):  # one real SQLite run, the others its copies with their settings
        if not hasattr(quick, "res"):
            quick.res = real(**{**kw, "players": 4, "processes": 1, "seconds": 1})
        store = "SQLite (a temporary file)" if kw["processes"] == 1 else "PostgreSQL (x)"
        return {**quick.res, "players": kw["players"], "connected": kw["players"],
                "processes": kw["processes"],
                "store": store}

    monkeypatch.setattr(bench, "bench_server", quick)
    runs = bench_servers(players=[4, 6], processes=[1, 2], seconds=2,
                         think=(0.05, 0.2))
    assert [(r["players"], r["processes"]) for r in runs] == [(4, 1), (4, 2), (6, 1),
                                                               (6, 2)]
    assert [r["store"].split(" ")[0] for r in runs] == ["SQLite", "PostgreSQL"] * 2
    for r in runs:
        _clean(r)
        assert r["server_ms_per_action"] > 0
    table = capsys.readouterr().out.split("tavli bench server: 4 runs")[1]
    assert "server CPU/action" in table and "p99" in table
    assert len([line for line in table.splitlines() if "SQLite" in line
                or "PostgreSQL" in line]) == 4
    with pytest.raises(CliError):
        bench_servers(players=[4, 5], processes=[1])
    with pytest.raises(CliError):
        bench_servers(players=[4], processes=[1, 3])


def test_the_command_line_takes_lists_and_single_numbers():
    from tavli.cli import build_parser

    p = build_parser()
    a = p.parse_args(["bench", "server", "--players", "1000,3000", "--processes", "1,2"])
    assert a.n_players == [1000, 3000] and a.processes == [1, 2]
    a = p.parse_args(["bench", "server", "--players", "200", "--processes", "2"])
    assert a.n_players == [200] and a.processes == [2]
    a = p.parse_args(["bench", "server"])
    assert a.n_players == [1000] and a.processes == [1]
    with pytest.raises(SystemExit):
        p.parse_args(["bench", "server", "--processes", "3"])


def test_a_server_keeps_what_survives_a_young_collection_out_of_the_next():
    """quieter_gc: what outlives a young collection is frozen (no middle collection then
    scans a million live objects), and the thresholds are the server's."""
    import subprocess
    import sys

    code = ("import gc; from tavli.online.serve import quieter_gc, YOUNG_GC_EVERY; "
            "quieter_gc(); frozen = gc.get_freeze_count(); "
            "kept = [[i] for i in range(5000)]; gc.collect(0); "
            "print(gc.get_freeze_count() - frozen >= 5000, len(gc.get_objects(1)), "
            "gc.get_threshold()[0] == YOUNG_GC_EVERY)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["True", "0", "True"]


def test_a_server_prepares_the_engine_before_it_listens(monkeypatch, tmp_path):
    """`tavli serve` compiles (or loads) the move generator and the turn's steps before
    it listens, so that no action waits for a compile; a first run says so part by part."""
    import argparse

    import uvicorn

    from tavli.online import serve

    told: list[str] = []
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "empty"))  # a first run
    serve.prepare_engine(told.append)
    assert told == ["tavli serve: first run: preparing the move generator (1/2)",
                    "tavli serve: first run: preparing the moves step by step (2/2)"]
    warm = tmp_path / "warm" / "x" / "tavli"  # a cache that has both: nothing said
    warm.mkdir(parents=True)
    for name in ("movegen.generate-1", "steptree.search-1"):
        (warm / f"{name}.py311.nbi").write_bytes(b"")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "warm"))
    told.clear()
    serve.prepare_engine(told.append)
    assert told == []

    order: list[str] = []
    monkeypatch.setattr(serve, "prepare_engine", lambda: order.append("prepare"))
    monkeypatch.setattr(serve, "quieter_gc", lambda: None)  # not this process's collector
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: order.append("listen"))
    args = argparse.Namespace(host=None, port=0, db=str(tmp_path / "online.sqlite3"),
                              name=None, abandon_after=300.0)
    assert serve.run(args) == 0
    assert order == ["prepare", "listen"]
