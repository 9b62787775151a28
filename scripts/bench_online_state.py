"""The CPU cost of an online game's action and of its new state, in one process without
sockets (issue #19): ``GAMES`` Portes games between two people (created, joined, seeded)
play random rolls and moves for 40 rounds; each action is timed as the server does it:
``act`` (play and store it), ``view`` (the state every player is sent) and ``json`` (the
update's text).

Run from a checkout: ``PYTHONPATH=$PWD python scripts/bench_online_state.py [GAMES] [-p]``
(``-p``: a cProfile of the rounds, by cumulative time). The times are CPU time of the
thread (``time.thread_time``: what another process on the machine takes does not count),
means per action with a 95 % confidence interval; ``cpu/action`` is the process's CPU time
over the rounds per action (the store's own work included).
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import tempfile
import time

from tavli.online.fairdice import new_client_seed
from tavli.online.protocol import action_out
from tavli.online.service import OnlineGames
from tavli.store.factory import open_store
from tavli.web.newgame import NewGame


def ci(xs: list[float]) -> str:
    """``mean ± half-width`` (95 %, normal) in ms."""
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5
    return f"{m * 1e3:.3f} ± {h * 1e3:.3f} ms"


def warm() -> None:
    """Load the compiled kernels a state needs (not timed: a server loads them once)."""
    from tavli.engine.board import Position
    from tavli.web.steps import move_frames, turn_tree

    pos = Position.start("portes")
    legal = pos.legal_moves((3, 1))
    turn_tree(pos, (3, 1), legal)
    move_frames(pos, (3, 1), [[f, t] for f, t, _h in legal[0].steps])


def main() -> None:
    games_n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 100
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as d, open_store(os.path.join(d, "x.db")) as store:
        games = OnlineGames(store)
        ids = []
        for _ in range(games_n):
            new = games.create(NewGame(variant="portes", opponent="human"), name="Ann")
            tokens = {new.side: new.token, new.invite_side: new.invite_token}
            seq = games.act(new.game_id, new.invite_token, 1,
                            {"type": "join", "name": "Bob"}).seq
            for side in ("white", "black"):
                seq = games.act(new.game_id, tokens[side], seq + 1,
                                {"type": "seed", "seed": new_client_seed()}).seq
            ids.append((new.game_id, tokens))
        views = {g: games.view(g) for g, _ in ids}
        warm()
        acts: list[float] = []
        shown: list[float] = []
        texts: list[float] = []
        prof = cProfile.Profile() if "-p" in sys.argv else None
        if prof:
            prof.enable()
        t0 = time.process_time()
        clock = time.thread_time
        for _ in range(40):
            for g, tokens in ids:
                v = views[g]
                if v["status"] == "over":
                    continue
                if v["phase"] in ("opening", "roll"):
                    a = {"type": "roll"}
                elif v["legal_moves"]:
                    a = {"type": "move", "move": rng.choice(v["legal_moves"])["move"]}
                else:
                    continue
                s1 = clock()
                done = games.act(g, tokens[v["turn"]], v["seq"] + 1, a)
                s2 = clock()
                v = games.view(g)
                s3 = clock()
                json.dumps({"type": "update", "actions": [action_out(done)], "state": v},
                           separators=(",", ":"), ensure_ascii=False)
                s4 = clock()
                views[g] = v
                acts.append(s2 - s1)
                shown.append(s3 - s2)
                texts.append(s4 - s3)
        cpu = time.process_time() - t0
        if prof:
            prof.disable()
            pstats.Stats(prof).sort_stats("cumtime").print_stats(45)
    n = len(acts)
    both = [a + b for a, b in zip(acts, shown, strict=True)]
    print(f"{n} actions: act {ci(acts)}, view {ci(shown)}, act+view {ci(both)}, "
          f"json {ci(texts)}, cpu/action {cpu / n * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
