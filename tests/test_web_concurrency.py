"""One game's thinking never delays another game's request: the engine works in worker
processes, reviews run as background jobs with their progress, the Dama AI has a time
budget, the app starts serving before the engine is warm (docs/web.md, "Concurrency")."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tavli.ai.analysis import analyse
from tavli.play.game import Game
from tavli.play.players import GreedyPlayer, RandomPlayer, play_game
from tavli.play.record import game_record, load_record
from tavli.web.app import create_app

pytestmark = pytest.mark.serial  # wall-clock bounds: run alone (make test)


def call(base, method, path, body=None, timeout=30.0):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    t = time.perf_counter()
    with urllib.request.urlopen(req, timeout=timeout) as r:
        out = r.status, json.loads(r.read() or b"null")
    return (*out, time.perf_counter() - t)


def _record(variant="portes", seed=8, turns=None):
    """A game played by the greedy player against a random one (its first ``turns``)."""
    g = Game(variant, seed=seed)
    if turns is None:
        play_game(g, (GreedyPlayer(), RandomPlayer(seed=seed)))
    else:
        players = (GreedyPlayer(), RandomPlayer(seed=seed))
        while len(g.turns) < turns and not g.is_over:
            if g.phase in ("opening", "roll"):
                g.roll()
            else:
                g.play(players[g.turn].choose_move(g.position, g.dice, g.legal_moves(),
                                                   g.rules))
    return game_record(g, seed)


def test_plain_requests_do_not_wait_for_a_review(server):
    """A 2-ply review runs in the background (202 with its progress) while another game
    is played at the usual speed."""
    rec = _record("portes", seed=3, turns=60)
    status, imported, _ = call(server, "POST", "/api/records", rec)
    assert status == 201
    status, game, _ = call(server, "POST", "/api/games", {"variant": "portes",
                                                          "opponent": "human"})
    path = f"/api/games/{imported['id']}/review?ply=2"
    status, first, dt = call(server, "GET", path, timeout=10)
    assert status == 202 and first["status"] == "running" and first["total"] >= 40, first
    times: list[float] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def play():  # plain requests in another game for as long as the review runs
        st = game
        try:
            while not stop.is_set():
                g = st["id"]
                if st["phase"] == "over":
                    act = ("POST", "/api/games", {"variant": "portes", "opponent": "human"})
                elif st["phase"] == "move":
                    act = ("POST", f"/api/games/{g}/move",
                           {"steps": [s[:2] for s in st["legal_moves"][0]["steps"]]})
                else:
                    act = ("POST", f"/api/games/{g}/roll", {})
                for method, p, body in (("GET", f"/api/games/{g}", None),
                                        ("GET", "/api/games", None), act):
                    status, out, dt = call(server, method, p, body)
                    times.append(dt)
                    if p != "/api/games":
                        st = out
        except BaseException as e:  # noqa: BLE001 - reported by the test
            errors.append(e)

    t = threading.Thread(target=play)
    t.start()
    done = first["done"]
    try:
        for _ in range(2400):
            status, out, _ = call(server, "GET", path)
            if status == 200:
                break
            assert out["done"] >= done  # the progress goes up
            done = out["done"]
            time.sleep(0.25)
    finally:
        stop.set()
        t.join(30)
    assert status == 200 and len(out["turns"]) == first["total"]
    assert errors == []
    assert len(times) >= 10, times
    assert max(times) < 1.0, f"a plain request took {max(times):.2f} s during the review"


def test_a_review_in_parts_is_the_whole_analysis(client):
    rec = _record("plakoto", seed=5)
    gid = client.post("/api/records", json=rec).json()["id"]
    for _ in range(600):
        r = client.get(f"/api/games/{gid}/review", params={"ply": 1})
        if r.status_code == 200:
            break
        time.sleep(0.1)
    got = r.json()
    want = analyse(load_record(rec), 1)
    page_only = ("board", "index", "dice_text", "text", "text_msg")
    assert [{k: v for k, v in t.items() if k not in page_only}
            for t in got["turns"]] == want["turns"]
    assert got["players"] == want["players"]
    assert [t["index"] for t in got["turns"]] == list(range(len(want["turns"])))


def test_requests_for_one_review_share_its_job(client):
    api = client.app.state.api
    gid = client.post("/api/records", json=_record("portes", seed=4, turns=20)).json()["id"]
    answers = []

    def ask():
        answers.append(client.get(f"/api/games/{gid}/review", params={"ply": 2}))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(a.status_code in (200, 202) for a in answers)
    assert len(api.reviews) == 1
    job = next(iter(api.reviews._jobs.values()))
    job.finished.wait(600)
    assert job.error is None
    r = client.get(f"/api/games/{gid}/review", params={"ply": 2})
    assert r.status_code == 200 and len(api.reviews) == 1


def test_reviews_kept_are_bounded(db):
    c = TestClient(create_app(db, allowed_hosts=["testserver"], reviews=2))
    ids = [c.post("/api/records", json=_record("portes", seed=s)).json()["id"]
           for s in (1, 2, 3)]
    for gid in ids:
        for _ in range(600):
            if c.get(f"/api/games/{gid}/review", params={"ply": 0}).status_code == 200:
                break
            time.sleep(0.1)
    assert len(c.app.state.api.reviews) <= 2


def test_dama_ai_has_a_time_budget_and_leaves_other_requests_free(server):
    """depth:20 would think for many minutes; the server stops it at its budget while
    the same game and others answer at once."""
    from tavli.web.workers import DAMA_BUDGET, default_pool

    assert default_pool().warm(wait=300)  # every worker started, its kernels loaded
    st = call(server, "POST", "/api/games", {"variant": "russian",
                                             "level": "depth:20", "ai_side": "black"})[1]
    gid = st["id"]
    st = call(server, "POST", f"/api/games/{gid}/move", {"move": "c3-d4"})[1]
    assert st["to_act"] == "ai"
    other = call(server, "POST", "/api/games", {"variant": "dama", "opponent": "human"})[1]
    result = {}

    def think():
        result["answer"] = call(server, "POST", f"/api/games/{gid}/ai", {}, timeout=120)

    t = threading.Thread(target=think)
    t.start()
    time.sleep(0.3)
    slowest = 0.0
    for path in (f"/api/games/{gid}", f"/api/games/{other['id']}", "/api/games",
                 "/api/games?variant=dama"):
        status, out, dt = call(server, "GET", path)
        assert status == 200
        slowest = max(slowest, dt)
    busy = urllib.request.Request(f"{server}/api/games/{gid}/ai", data=b"{}", method="POST",
                                  headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(busy, timeout=30)
        second = 200
    except urllib.error.HTTPError as e:
        second = e.code
    t.join(120)
    status, out, dt = result["answer"]
    assert status == 200 and out["last"]["by"] == "ai"
    assert dt < DAMA_BUDGET + 10, f"the AI took {dt:.1f} s"  # unbounded: minutes
    assert slowest < 1.0, f"a plain request took {slowest:.2f} s while the AI thought"
    assert second in (409, 200)  # the AI is already thinking (or has just played)


def test_dama_search_budget():
    from tavli.ai.dama import Searcher
    from tavli.play.dama.game import DamaGame

    g = DamaGame("russian")
    for mv in ("c3-d4", "f6-g5", "g3-f4"):
        g.play(mv)
    s = Searcher(g.rules)
    s.search(g.position, "depth:2")  # the kernels loaded, the speed estimate made
    t = time.perf_counter()
    res = s.search(g.position, "depth:20", g._positions, budget=1.0)
    assert time.perf_counter() - t < 2.5
    assert 2 <= res.depth < 20 and res.move in g.legal_moves()


def test_load_bench_plain_requests_stay_fast():
    """The judge (``tavli bench web`` made small): nine clients' plain requests while a
    tenth has a match reviewed at 2-ply. The bound is generous (timing noise on a busy
    machine must not fail it); a review that held the other games (tens of seconds)
    would."""
    from tavli.web.bench import bench_web

    out = io.StringIO()
    res = bench_web(clients=10, requests=5, ply=2, points=1, seed=3, out=out)
    text = out.getvalue()
    assert "alone" in text and "with review" in text, text
    assert res["errors"] == [], res["errors"][:3]
    loaded = res["loaded"]
    assert len(loaded.times) >= 50, text
    assert loaded.p(0.95) < 1.0, text
    assert res["review_s"] > 1.0, text  # the review really ran meanwhile


def test_the_page_is_served_while_the_engine_compiles(tmp_path):
    """A first start (Numba's cache empty) says so in one line and serves the page and
    the list of games at once; the kernels compile in the background."""
    import queue

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from tavli.cli import main; sys.exit(main())",
         "play", "--no-browser", "--port", "0", "--db", str(tmp_path / "g.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    try:
        line = lines.get(timeout=60)
        t0 = time.perf_counter()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        base = m.group(0).rstrip("/")
        assert "first run: compiling the engine" in lines.get(timeout=10)
        for _ in range(200):
            try:
                page = urllib.request.urlopen(base + "/", timeout=10).read().decode()
                break
            except OSError:
                time.sleep(0.05)
        assert "<svg id=\"board\"" in page
        assert call(base, "GET", "/api/games")[1]["games"] == []
        assert call(base, "GET", "/api/info")[0] == 200
        assert call(base, "GET", "/api/games?variant=dama")[0] == 200
        assert time.perf_counter() - t0 < 10
    finally:
        proc.terminate()
        proc.wait(30)


def test_cache_check(tmp_path, monkeypatch):
    from tavli.web.warmup import cache_is_cold

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert cache_is_cold()
    for name in ("movegen.generate-1", "steptree.search-1", "search.v2-3", "dama._search-9"):
        d = tmp_path / "x" / "tavli"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"{name}.py311.nbi").write_bytes(b"")
    assert not cache_is_cold()


def test_the_page_shows_a_reviews_progress(browser, server):
    """A long review: the page says how far it is ("Reviewing… 40%"), then shows it."""
    from conftest import ARTIFACTS

    from tavli.web.bench import long_record

    for (w, h), name, seed in (((1366, 768), "desk", 9), ((360, 740), "phone", 10)):
        gid = call(server, "POST", "/api/records", long_record(5, seed))[1]["id"]
        ctx = browser.new_context(viewport={"width": w, "height": h})
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.on("console", lambda m, errors=errors: errors.append(m.text)
                if m.type == "error" else None)
        page.goto(f"{server}/#/game/{gid}")  # an imported record opens its review
        for _ in range(600):  # (no wait_for_function: the page's CSP forbids eval)
            text = page.locator("#status").inner_text()
            if re.fullmatch(r"Reviewing… \d+%", text):
                break
            page.wait_for_timeout(100)
        assert re.fullmatch(r"Reviewing… \d+%", text), text
        page.screenshot(path=str(ARTIFACTS / f"review-progress-{name}.png"))
        page.wait_for_selector("#review:not([hidden])", timeout=300000)
        page.screenshot(path=str(ARTIFACTS / f"review-done-{name}.png"))
        assert errors == [], errors
        ctx.close()


def test_ai_work_has_a_deadline(db):
    """An AI move that takes longer than the deadline is answered with 503 and changes
    nothing (the worker's late answer is dropped)."""
    from tavli.web.workers import EnginePool

    pool = EnginePool(1)
    try:
        assert pool.warm(wait=300)
        c = TestClient(create_app(db, allowed_hosts=["testserver"], pool=pool,
                                  ai_deadline=0.001))
        st = c.post("/api/games", json={"variant": "portes", "level": "worldclass",
                                        "first": "black", "seed": 4}).json()
        st = c.post(f"/api/games/{st['id']}/ai").json()  # the AI's roll: no engine
        assert st["phase"] == "move" and st["ai_to_act"]
        r = c.post(f"/api/games/{st['id']}/ai")
        assert r.status_code == 503 and "more than" in r.json()["error"]
        assert c.get(f"/api/games/{st['id']}").json() == st
        r = c.get(f"/api/games/{st['id']}/hint", params={"level": "worldclass"})
        assert r.status_code == 503
    finally:
        pool.shutdown()


def test_bench_web_command(monkeypatch, capsys):
    from tavli import cli
    from tavli.web import bench

    seen = {}
    monkeypatch.setattr(bench, "bench_web", lambda **kw: seen.update(kw) or {"errors": []})
    assert cli.main(["bench", "web", "--clients", "4", "--requests", "7", "--ply", "1",
                     "--points", "2", "--seed", "5"]) == 0
    assert seen == {"clients": 4, "requests": 7, "ply": 1, "points": 2, "seed": 5}
    with pytest.raises(SystemExit) as e:
        cli.main(["bench", "web", "--clients", "1"])
    assert e.value.code == 2 and "--clients" in capsys.readouterr().err


def test_workers_exit_with_their_server(tmp_path):
    """A server that dies as its workers start (killed, or Ctrl-C at once) leaves no
    worker process behind."""
    import uuid
    from pathlib import Path

    mark = uuid.uuid4().hex
    script = ("import os, time\n"
              "from tavli.web.workers import EnginePool\n"
              "if __name__ == '__main__':\n"
              "    EnginePool(2, warm_up=False).warm()\n"
              "    time.sleep(0.2)\n"
              "    os._exit(0)\n")
    (tmp_path / "die.py").write_text(script)
    env = {**os.environ, "TAVLI_TEST_MARK": mark,
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]),
                                          os.environ.get("PYTHONPATH", "")])}
    subprocess.run([sys.executable, str(tmp_path / "die.py")], env=env, timeout=60,
                   check=True)

    def marked() -> list[int]:
        out = []
        for d in Path("/proc").iterdir():
            try:
                if d.name.isdigit() and mark.encode() in (d / "environ").read_bytes():
                    out.append(int(d.name))
            except OSError:
                pass
        return out

    for _ in range(300):
        if not marked():
            break
        time.sleep(0.1)
    left = marked()
    for pid in left:  # clean up before failing
        os.kill(pid, 9)
    assert left == [], "worker processes outlived their server"
