"""Rollouts by the contact network alone (no race network), for `tavli train-race --check`.

    python training/race/check_rollouts.py GAME OUT.npz [POSITIONS] [TRIALS] [SEED]

The positions are sampled as `tavli bench race` samples its own (one race-class position
of each self-play game, at random), with another seed than the benchmark's, and played out
by the shipped contact network with the bear-off databases: the yardstick the race
networks' training is checked against while no race network exists yet.
"""

import sys

from tavli.ai.racebench import make_rollouts
from tavli.ai.racetrain import contact_evaluator, family_rules

game, out = sys.argv[1], sys.argv[2]
positions = int(sys.argv[3]) if len(sys.argv) > 3 else 300
trials = int(sys.argv[4]) if len(sys.argv) > 4 else 1296
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 99
rules = family_rules(game)
ev = contact_evaluator(rules.game)
r = make_rollouts(ev, rules, positions, trials, seed, f"{ev.contact!r} alone", sys.stderr)
r.save(out)
print(f"{len(r.boards)} positions, mean rollout SE {r.ses.mean():.4f} -> {out}")
