import json, random, time, sys, tempfile, os
from tavli.online.fairdice import new_client_seed
from tavli.online.service import OnlineGames
from tavli.online.store import open_store
from tavli.web.newgame import NewGame
from tavli.online.protocol import action_out

N = int(sys.argv[1]) if len(sys.argv) > 1 else 100
d = tempfile.mkdtemp()
rng = random.Random(1)
with open_store(os.path.join(d, "x.db")) as store:
    games = OnlineGames(store)
    ids = []
    for i in range(N):
        new = games.create(NewGame(variant="portes", opponent="human"), name="Ann")
        tokens = {new.side: new.token, new.invite_side: new.invite_token}
        seq = games.act(new.game_id, new.invite_token, 1, {"type": "join", "name": "Bob"}).seq
        for side in ("white", "black"):
            seq = games.act(new.game_id, tokens[side], seq + 1, {"type": "seed", "seed": new_client_seed()}).seq
        ids.append((new.game_id, tokens))
    views = {g: games.view(g) for g, _ in ids}
    tact = tview = tjson = 0.0
    n = 0
    import cProfile, pstats
    prof = cProfile.Profile() if "-p" in sys.argv else None
    if prof: prof.enable()
    t0 = time.process_time()
    for rnd in range(40):
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
            s = time.perf_counter()
            done = games.act(g, tokens[v["turn"]], v["seq"] + 1, a)
            s2 = time.perf_counter()
            v = games.view(g)
            s3 = time.perf_counter()
            text = json.dumps({"type": "update", "actions": [action_out(done)], "state": v}, separators=(",", ":"), ensure_ascii=False)
            s4 = time.perf_counter()
            views[g] = v
            tact += s2 - s; tview += s3 - s2; tjson += s4 - s3; n += 1
    cpu = time.process_time() - t0
    if prof:
        prof.disable(); pstats.Stats(prof).sort_stats("cumtime").print_stats(45)
    print(f"{n} actions: act {tact/n*1e3:.2f} ms, view {tview/n*1e3:.2f} ms, json {tjson/n*1e3:.2f} ms, cpu/action {cpu/n*1e3:.2f} ms, len {len(text)}")
