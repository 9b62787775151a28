"""Record what the commands answer, to show that a refactoring changed nothing.

    python scripts/behaviour_check.py record OUTDIR [--tavli PATH]
    python scripts/behaviour_check.py compare BEFORE AFTER

``record`` makes fixed inputs (positions met in seeded games of the four dice games,
records of games and of a Tavli and a backgammon match) in ``OUTDIR/inputs`` and answers
them with the ``tavli`` command (``--tavli PATH``: another checkout's, that checkout
first on the path): ``hint --batch`` at every level
(worldclass on a third of the positions), ``analyse`` of every record (JSON at 0-ply,
text at 1-ply), seeded rollouts, a cube hint, Dama's moves and fixed-depth hints per rule
set. ``compare`` lists the outputs that differ, timing fields left out; it exits 1 when
one does. The inputs are made with the tavli this script imports, once: ``record``
reuses an ``OUTDIR/inputs`` that exists, so copy the first recording's ``inputs`` to the
second's folder before recording it.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

LEVELS = ("beginner", "casual", "intermediate", "advanced", "expert")
TIMING = {"seconds", "ai_seconds", "ai_max_seconds", "mean_ai_seconds"}
DAMA_RULES = ("box", "russian", "italian")
#: the command, as every checkout has it (older ones have no ``python -m tavli``)
MAIN = "import sys; from tavli.cli import main; sys.exit(main())"


def make_inputs(folder: Path) -> None:
    """Positions (``batch.txt``: ``GAME ID DICE``) and records, from seeded games."""
    import tavli
    from tavli.play.players import GreedyPlayer, RandomPlayer, act, play_game

    folder.mkdir(parents=True)
    rng = random.Random(7)
    lines = []
    for game in ("portes", "plakoto", "fevga", "backgammon"):
        for i in range(4):
            g = tavli.Game(game, seed=100 + i)
            players = (GreedyPlayer(), RandomPlayer(seed=i))
            while not g.is_over:
                act(g, players[g.turn])
                if not g.is_over and rng.random() < 0.35:
                    lines.append(f"{game} {g.position.id()} {rng.randint(1, 6)}{rng.randint(1, 6)}")
            (folder / f"{game}-{i}.json").write_text(json.dumps(tavli.game_record(g)))
    for target, variant, seed in ((3, "tavli", 5), (3, "backgammon", 6)):
        m = tavli.Match(target, variant, seed=seed)
        while True:
            play_game(m.game, (GreedyPlayer(), RandomPlayer(seed=seed)))
            if m.is_over:
                break
            m.next_game()
        (folder / f"match-{variant}.json").write_text(json.dumps(tavli.match_record(m)))
    (folder / "batch.txt").write_text("\n".join(lines) + "\n")


def record(out: Path, checkout: Path | None) -> None:
    inputs = out / "inputs"
    if not inputs.exists():
        make_inputs(inputs)
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)

    def tavli(args: list[str], name: str, stdin: str | None = None) -> None:
        done = subprocess.run([sys.executable, "-c", MAIN, *args], input=stdin, env=env,
                              capture_output=True, text=True, timeout=3600)
        (out / name).write_text(done.stdout)

    batch = (inputs / "batch.txt").read_text()
    for level in LEVELS:
        tavli(["hint", "--batch", "--level", level], f"hint-{level}.jsonl", batch)
    third = "".join(line + "\n" for k, line in enumerate(batch.splitlines(), 1) if k % 3 == 0)
    tavli(["hint", "--batch", "--level", "worldclass"], "hint-worldclass.jsonl", third)
    for rec in sorted(inputs.glob("*.json")):
        tavli(["analyse", str(rec), "--json", "--level", "0"], f"analyse-{rec.stem}.json")
        tavli(["analyse", str(rec)], f"analyse-{rec.stem}.txt")
    for k, line in enumerate(batch.splitlines()[69::70], 1):
        game, pos, dice = line.split()
        tavli(["rollout", game, pos, "--games", "144", "--seed", "3", "--json"],
              f"rollout-{k}.json")
        tavli(["rollout", game, pos, "--dice", dice, "--games", "72", "--seed", "4",
               "--truncate", "5", "--json"], f"rollout-dice-{k}.json")
    tavli(["hint", "backgammon", "start", "--match", "7", "--score", "2-4", "--cube", "2",
           "--owner", "me", "--level", "0"], "cube.txt")
    for rules in DAMA_RULES:  # the old `tavli dama` lines: a newer checkout runs them as
        # the common commands they now are (`tavli moves dama start`, said on stderr)
        tavli(["dama", "moves", "start", "--rules", rules], f"dama-moves-{rules}.txt")
        tavli(["dama", "hint", "start", "--rules", rules, "--level", "depth:9"],
              f"dama-hint-{rules}.txt")


def _comparable(path: Path):
    """The output without its timings: JSON without the seconds, text without the
    trailing ``N.NN s`` of a Dama hint."""
    text = path.read_text()
    try:
        return _without_timing(json.loads(text))
    except ValueError:
        return [line.rsplit("  ", 1)[0] if line.endswith(" s") else line
                for line in text.splitlines()]


def _without_timing(doc):
    if isinstance(doc, dict):
        return {k: _without_timing(v) for k, v in doc.items() if k not in TIMING}
    if isinstance(doc, list):
        return [_without_timing(v) for v in doc]
    return doc


def compare(before: Path, after: Path) -> int:
    names = sorted(p.name for p in before.iterdir() if p.is_file())
    differ = [n for n in names
              if not (after / n).exists() or _comparable(before / n) != _comparable(after / n)]
    for n in differ:
        print(f"differs: {n}")
    print(f"{len(names)} outputs, {len(differ)} differ")
    return 1 if differ else 0


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "record":
        checkout = Path(argv[3]) if len(argv) == 4 and argv[2] == "--tavli" else None
        record(Path(argv[1]), checkout)
        return 0
    if len(argv) == 3 and argv[0] == "compare":
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
