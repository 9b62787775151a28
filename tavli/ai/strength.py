"""``tavli bench strength``: duplicate-dice games between two players.

Each dice sequence is played twice with the seats swapped (white always starts), money
scoring without the cube. Players are named:

* ``neural`` or ``neural:LEVEL`` (a level name or a ply 0-2) — the shipped network;
* ``net:FILE`` — a weights file at 0-ply (e.g. a training checkpoint);
* ``pubeval`` (Portes/backgammon), ``random``, ``greedy`` (the heuristic player);
* ``gnubg`` — gnubg's own network at 0-ply via the PyPI package ``gnubg-nn`` (Portes and
  backgammon; a test extra, not a runtime dependency).

When both players are compiled (a network at 0-ply without noise, pubeval, random) the
games run inside one Numba call; otherwise in Python through :func:`tavli.players.play_game`.
"""

from __future__ import annotations

import math
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import RuleError
from ..rules import Rules


@dataclass
class Spec:
    text: str
    compiled: int | None  # selfplay kind, or None for a Python player
    net: Any = None
    player: Any = None


def parse_player(text: str, rules: Rules) -> Spec:
    from ..players import GreedyPlayer
    from .net import Net
    from .players import NeuralPlayer, PubevalPlayer, parse_level, shipped_net
    from .selfplay import NET, PUBEVAL, RANDOM

    t = text.strip()
    key = t.lower()
    if key == "random":
        return Spec(t, RANDOM)
    if key == "pubeval":
        if rules.game not in (0, 3):
            raise RuleError("pubeval plays Portes and backgammon only")
        return Spec(t, PUBEVAL, player=PubevalPlayer())
    if key in ("greedy", "heuristic"):
        return Spec(t, None, player=GreedyPlayer())
    if key == "gnubg":
        return Spec(t, None, player=GnubgPlayer())
    if key.startswith("net:"):
        net = Net.load(t[4:])
        return Spec(t, NET, net=net, player=NeuralPlayer(0, net=net))
    if key == "neural" or key.startswith("neural:"):
        level = t.split(":", 1)[1] if ":" in t else None
        ply, noise = parse_level(level)
        net = shipped_net(rules.game)
        player = NeuralPlayer(level, net=net, seed=0)
        return Spec(t, NET if ply == 0 and noise == 0 else None, net=net, player=player)
    raise RuleError(f"unknown player {text!r}: neural[:LEVEL], net:FILE, pubeval, random, "
                    "greedy or gnubg")


class GnubgPlayer:
    """gnubg-nn's 0-ply best move (needs the ``gnubg-nn`` package)."""

    name = "gnubg"

    def __init__(self) -> None:
        try:
            import gnubg_nn
        except ImportError:
            raise RuleError("the gnubg player needs the gnubg-nn package "
                            "(pip install gnubg-nn)") from None
        self.g = gnubg_nn

    def choose_move(self, position, dice, moves, rules):
        if not moves:
            return None
        a = position.array
        me = position.turn
        board = [[int(x) for x in a[1 - me, 1:26]], [int(x) for x in a[me, 1:26]]]
        steps = self.g.best_move(board, int(dice[0]), int(dice[1]))
        text = " ".join(f"{'bar' if s == 25 else s}/{'off' if t <= 0 else t}"
                        for s, t in steps)
        return position.find_move(text, dice, rules)

    def cube_action(self, game) -> str:
        return "take" if game.phase == "double" else "roll"


@dataclass
class Result:
    games: int
    points: np.ndarray  # A's points per game

    @property
    def ppg(self) -> float:
        return float(self.points.mean())

    @property
    def se(self) -> float:
        return float(self.points.std(ddof=1) / math.sqrt(len(self.points)))

    @property
    def wins(self) -> int:
        return int((self.points > 0).sum())

    @property
    def draws(self) -> int:
        return int((self.points == 0).sum())

    def win_rate(self) -> tuple[float, float]:
        """Share of games won and its 95% half-width (draws count half)."""
        n = len(self.points)
        p = (self.wins + 0.5 * self.draws) / n
        return p, 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)


def _python_games(a, b, rules: Rules, pairs: int, seed: int) -> np.ndarray:
    from ..dice import ScriptedDice
    from ..game import Game
    from ..players import play_game

    out = np.zeros(2 * pairs)
    for k in range(pairs):
        rng = random.Random(seed + k)
        seq = [rng.randint(1, 6) for _ in range(8000)]
        for swap in range(2):
            players = (a, b) if swap == 0 else (b, a)
            g = Game(rules, dice=ScriptedDice(seq), first=0)
            o = play_game(g, players)
            white = 0 if o.winner is None else (o.points if o.winner == 0 else -o.points)
            out[2 * k + swap] = white if swap == 0 else -white
    return out


def run_strength(a_text: str, b_text: str, game: str = "backgammon", games: int = 10000,
                 seed: int = 1, rules_options: list[str] | None = None) -> Result:
    rules = Rules.for_game(game, rules_options or [])
    if rules.cube:
        rules = rules.with_options({"cube": False})
    a = parse_player(a_text, rules)
    b = parse_player(b_text, rules)
    pairs = max(1, games // 2)
    if a.compiled is not None and b.compiled is not None:
        from .selfplay import compiled_match

        res = compiled_match(a.net, a.compiled, b.net, b.compiled, rules, pairs, seed)
        return Result(len(res), res)
    return Result(2 * pairs, _python_games(_as_player(a), _as_player(b), rules, pairs, seed))


def _as_player(spec: Spec):
    from ..players import RandomPlayer

    return spec.player if spec.player is not None else RandomPlayer(seed=0)


def bench_strength(a_text: str, b_text: str, game: str = "backgammon", games: int = 10000,
                   seed: int = 1, rules_options: list[str] | None = None,
                   out=None) -> Result:
    """Play and print: games, A's win rate with a 95% interval, points per game ± SE."""
    out = out or sys.stdout
    t0 = time.time()
    r = run_strength(a_text, b_text, game, games, seed, rules_options)
    dt = time.time() - t0
    p, hw = r.win_rate()
    print(f"{a_text} vs {b_text}: {game}, {r.games} games (duplicate dice, seed {seed}, "
          f"no cube), {dt:.1f} s", file=out)
    print(f"  {a_text} wins {r.wins}, loses {r.games - r.wins - r.draws}, draws {r.draws}",
          file=out)
    print(f"  win rate {100 * p:.1f}% ± {100 * hw:.1f}% (95%)", file=out)
    print(f"  points per game {r.ppg:+.3f} ± {r.se:.3f} (1 SE); "
          f"95% interval [{r.ppg - 1.96 * r.se:+.3f}, {r.ppg + 1.96 * r.se:+.3f}]", file=out)
    return r
