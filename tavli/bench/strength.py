"""``tavli bench strength``: duplicate-dice games between two players.

Each dice sequence is played twice with the seats swapped (white always starts), money
scoring without the cube. Players are named:

* ``neural`` or ``neural:LEVEL`` (a level name or a ply 0-2) — the shipped evaluator (the
  family's network, its race network where one ships, the bear-off databases);
* ``net:FILE`` — a weights file at 0-ply (e.g. a training checkpoint), valuing races too;
* either with ``+race:FILE`` (a race network for the races: ``net:a.npz+race:b.npz``) or
  ``+race:off`` (no race network: ``neural:0+race:off`` is the shipped contact network
  valuing races);
* ``pubeval`` (Portes/backgammon), ``random``, ``greedy`` (the heuristic player);
* ``gnubg[:PLY]`` — gnubg's own network at 0-ply (or 1, 2-ply: ``gnubg:1``) via the PyPI
  package ``gnubg-nn`` (Portes and backgammon; a test extra, not a runtime dependency).

When both players are compiled (a network at 0-ply without noise, pubeval, random) the
games run inside one Numba call; otherwise in Python through :func:`tavli.play.players.play_game`.

With ``--cube`` the games are money play with the cube (Jacoby on); with ``--match N``
the two players play N-point matches with the cube under match rules (Crawford), each
pair of matches on one dice sequence with the seats swapped (the dice agree until the
play differs), and the figure is the share of matches won. Cube logics:
``neural[:LEVEL]`` decides by cubeful equity (the match score through the MET in a match),
``neural-thresholds[:LEVEL]`` by the old fixed thresholds on the cubeless equity,
``neural-money[:LEVEL]`` by cubeful *money* equity whatever the score (the match-play
yardstick).

Long runs (a search level against another takes seconds a game) take ``--log FILE``: each
pair's result is appended to the file as it finishes, a rerun with the same arguments
plays only the pairs still missing; ``--jobs N`` plays pairs in N processes, ``--ray``
or ``--ray-address`` on Ray (:mod:`tavli.compute`), the same points wherever.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from tavli.compute import Compute, as_compute, open_pool
from tavli.engine.games import HITTING
from tavli.engine.rules import Rules
from tavli.errors import RuleError
from tavli.play.players import Player

#: the neural players' names and their cube logics (:data:`tavli.ai.neural.CUBE_MODES`)
CUBE_PLAYERS = {"neural": "cubeful", "neural-thresholds": "thresholds",
                "neural-money": "money"}


@dataclass
class Spec:
    text: str
    compiled: int | None  # selfplay kind, or None for a Python player
    net: Any = None
    player: Any = None


def _race_part(t: str) -> tuple[str, str | None]:
    """``t`` without its ``+race:...`` suffix, and the suffix's value (None if none)."""
    i = t.lower().rfind("+race:")
    if i < 0:
        return t, None
    return t[:i], t[i + len("+race:"):]


def _with_race(contact, race_text: str | None, default, rules: Rules):
    """The evaluator of ``contact`` with the race network named by ``race_text`` (a file,
    ``off``, or None for ``default``)."""
    from tavli.ai.evaluator import Evaluator
    from tavli.ai.shipped import load_race_net

    if race_text is None:
        race = default
    elif race_text.strip().lower() == "off":
        race = None
    elif not race_text.strip():
        raise RuleError("+race: needs a race network file or 'off'")
    else:
        race = load_race_net(race_text, rules.game)
    return Evaluator(contact, race=race)


def parse_player(text: str, rules: Rules) -> Spec:
    from tavli.ai.fastplay import NET, PUBEVAL, RANDOM
    from tavli.ai.levels import parse_level
    from tavli.ai.neural import NeuralPlayer, PubevalPlayer
    from tavli.ai.shipped import load_contact_net, shipped_net, shipped_race_net
    from tavli.play.players import GreedyPlayer

    full = text.strip()
    t, race_text = _race_part(full)
    key = t.lower()
    if race_text is not None and not (key.startswith("net:") or key.split(":")[0] in (
            "neural", "neural-thresholds", "neural-money")):
        raise RuleError(f"+race: goes with a neural or net:FILE player, not {t[:40]!r}")
    if key == "random":
        return Spec(t, RANDOM)
    if key == "pubeval":
        if rules.variant.kernel != HITTING:
            raise RuleError("pubeval plays Portes and backgammon only")
        return Spec(t, PUBEVAL, player=PubevalPlayer())
    if key in ("greedy", "heuristic"):
        return Spec(t, None, player=GreedyPlayer())
    if key == "gnubg" or key.startswith("gnubg:"):
        ply = key.partition(":")[2].strip() or "0"
        if ply not in ("0", "1", "2"):
            raise RuleError(f"gnubg's ply must be 0, 1 or 2, not {ply[:20]!r}")
        return Spec(t, None, player=GnubgPlayer(int(ply)))
    if key.startswith("net:"):
        ev = _with_race(load_contact_net(t[4:], rules.game), race_text, None, rules)
        return Spec(full, NET, net=ev, player=NeuralPlayer(0, net=ev))
    if key.split(":")[0] in CUBE_PLAYERS:
        level = t.split(":", 1)[1] if ":" in t else None
        ctx = parse_level(level)
        ev = _with_race(shipped_net(rules.game), race_text, shipped_race_net(rules.game), rules)
        cube = CUBE_PLAYERS[key.split(":")[0]]
        player = NeuralPlayer(level, net=ev, seed=0, cube=cube)
        # the compiled matches play without the cube: with it, games run in Python
        compiled = NET if ctx.plies == 0 and ctx.noise == 0 and not rules.cube else None
        return Spec(full, compiled, net=ev, player=player)
    raise RuleError(f"unknown player {text[:60]!r}: neural[:LEVEL], neural-thresholds[:LEVEL], "
                    "neural-money[:LEVEL], net:FILE (either with +race:FILE or +race:off), "
                    "pubeval, random, greedy or gnubg[:PLY]")


class GnubgPlayer(Player):
    """gnubg-nn's best move at ``ply`` (0, 1 or 2: ``best_move(board, d1, d2, n=ply)``;
    needs the ``gnubg-nn`` package)."""

    def __init__(self, ply: int = 0) -> None:
        self.ply = ply
        self.name = "gnubg" if ply == 0 else f"gnubg:{ply}"
        try:
            import gnubg_nn
        except ImportError:
            raise RuleError("the gnubg player needs the gnubg-nn package: pip install "
                            "'tavli[bench]' (or pip install gnubg-nn)") from None
        self.g = gnubg_nn

    def choose_move(self, position, dice, moves, rules):
        if not moves:
            return None
        a = position.array
        me = position.turn
        board = [[int(x) for x in a[1 - me, 1:26]], [int(x) for x in a[me, 1:26]]]
        steps = self.g.best_move(board, int(dice[0]), int(dice[1]), n=self.ply)
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
    def pair_se(self) -> float:
        """The standard error of the points per game taken over the dice pairs' means (the
        two games of a pair share their dice, so players of like strength score nearly
        opposite results in them: this is the tighter, honest error of a duplicate
        match)."""
        pairs = self.points[:len(self.points) // 2 * 2].reshape(-1, 2).mean(axis=1)
        return float(pairs.std(ddof=1) / math.sqrt(len(pairs))) if len(pairs) > 1 else math.nan

    @property
    def wins(self) -> int:
        return int((self.points > 0).sum())

    @property
    def draws(self) -> int:
        return int((self.points == 0).sum())

    @property
    def share(self) -> float:
        """A's share of all points played (points won / points won and lost)."""
        total = float(np.abs(self.points).sum())
        return float(self.points[self.points > 0].sum()) / total if total else 0.5

    def win_rate(self) -> tuple[float, float]:
        """Share of games won and its 95% half-width (draws count half)."""
        n = len(self.points)
        p = (self.wins + 0.5 * self.draws) / n
        return p, 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)


def _pair_seq(seed: int, k: int) -> list[int]:
    """The dice of pair ``k`` (see :func:`~tavli.ai.fastplay.pair_seed_base`)."""
    from tavli.ai.fastplay import pair_seed_base

    rng = random.Random((pair_seed_base(seed) + k) % 4294967296)
    return [rng.randint(1, 6) for _ in range(8000)]


def _reseed(player, n: int) -> None:
    """Players that draw random numbers start each game from a seed of their own, so that
    a pair's games do not depend on which pairs were played before (resume, ``jobs``)."""
    rng = getattr(player, "rng", None)
    if isinstance(rng, random.Random):
        player.rng = random.Random(n)
    elif isinstance(rng, np.random.Generator):
        player.rng = np.random.default_rng(n)


def _play_pair(a, b, rules: Rules, seed: int, k: int) -> tuple[float, float]:
    """A's points in the two games of pair ``k`` (same dice, seats swapped)."""
    from tavli.engine.dice import ScriptedDice
    from tavli.play.game import Game
    from tavli.play.players import play_game

    seq = _pair_seq(seed, k)
    pts = []
    for swap in range(2):
        players = (a, b) if swap == 0 else (b, a)
        _reseed(a, (seed * 100_003 + k) * 4 + 2 * swap)
        _reseed(b, (seed * 100_003 + k) * 4 + 2 * swap + 1)
        g = Game(rules, dice=ScriptedDice(seq), first=0)
        o = play_game(g, players)
        white = 0 if o.winner is None else (o.points if o.winner == 0 else -o.points)
        pts.append(float(white if swap == 0 else -white))
    return pts[0], pts[1]


def _play_match_pair(a, b, rules: Rules, seed: int, k: int, target: int
                     ) -> tuple[float, float]:
    """A's results (+1 won, -1 lost) in the two ``target``-point matches of pair ``k``:
    the same dice sequence, seats swapped (who opens depends on the dice alone, so each
    player opens one of the two)."""
    from tavli.engine.dice import DiceSource
    from tavli.play.match import Match
    from tavli.play.players import play_game

    out = []
    for swap in range(2):
        players = (a, b) if swap == 0 else (b, a)
        _reseed(a, (seed * 100_003 + k) * 4 + 2 * swap)
        _reseed(b, (seed * 100_003 + k) * 4 + 2 * swap + 1)
        dice = DiceSource(rng=random.Random((pair_seed(seed, k) * 7919) % 4294967296))
        m = Match(target, rules.game_name, rules={rules.game_name: rules}, dice=dice)
        while True:
            play_game(m.game, players)
            if m.is_over:
                break
            m.next_game()
        white_won = m.winner == 0
        a_won = white_won if swap == 0 else not white_won
        out.append(1.0 if a_won else -1.0)
    return out[0], out[1]


def pair_seed(seed: int, k: int) -> int:
    """The seed of dice pair ``k`` of a run seeded ``seed``."""
    from tavli.ai.fastplay import pair_seed_base

    return (pair_seed_base(seed) + k) % 4294967296


def play_pairs(a, b, rules: Rules, pairs: int, seed: int) -> np.ndarray:
    """A's points in ``2 pairs`` duplicate-dice games between two Python players."""
    return np.array([p for k in range(pairs) for p in _play_pair(a, b, rules, seed, k)])


def _strength_setup(a_text: str, b_text: str, game: str, rules_options: list[str],
                    seed: int, cube: bool = False, match: int = 0) -> dict:
    """A worker's players and rules, made from the players' texts (a player object need
    not pickle)."""
    rules = _match_rules(game, rules_options, cube, match)
    return dict(a=_as_player(parse_player(a_text, rules)),
                b=_as_player(parse_player(b_text, rules)), rules=rules, seed=seed, match=match)


def _strength_pair(w: dict, k: int) -> tuple[int, tuple[float, float]]:
    return k, _pair(w["a"], w["b"], w["rules"], w["seed"], k, w["match"])


def _pair(a, b, rules: Rules, seed: int, k: int, match: int) -> tuple[float, float]:
    if match:
        return _play_match_pair(a, b, rules, seed, k, match)
    return _play_pair(a, b, rules, seed, k)


def _match_rules(game: str, rules_options: list[str] | None, cube: bool = False,
                 match: int = 0) -> Rules:
    """The rules of a strength run: without the cube, (``cube``) money play with the
    cube and the Jacoby rule, or (``match`` points) match play with the cube and the
    Crawford rule (backgammon)."""
    rules = Rules.for_game(game, rules_options or [])
    if match:
        if cube:
            raise RuleError("--cube is money play: --match plays matches (with the cube)")
        if not isinstance(match, int) or isinstance(match, bool) or not 1 <= match <= 99:
            raise RuleError(f"--match must be 1..99 points, got {match!r}")
        if not rules.cube:
            raise RuleError(f"{rules.game_name} is played without the doubling cube: "
                            "--match plays backgammon matches")
        if rules.jacoby or rules.beavers:
            raise RuleError("jacoby and beavers are money-play rules: not with --match")
        return rules.with_options({"crawford": True})
    if cube:
        if not rules.cube:
            raise RuleError(f"{rules.game_name} is played without the doubling cube")
        return rules.with_options({"jacoby": True})
    return rules.with_options({"cube": False}) if rules.cube else rules


class MatchLog:
    """A strength run's results, one JSON line per dice pair after a header line naming
    the match, so that a long run can stop and resume (``--log FILE``)."""

    def __init__(self, path, header: dict) -> None:
        from pathlib import Path

        self.path = Path(path)
        if self.path.suffix == ".gz":
            # the log is appended to line by line; a compressed name would hold plain text
            # (or, for a log compressed after its run, could not be read)
            raise RuleError(f"{self.path}: a strength log is plain JSON lines; gunzip it "
                            f"and pass {self.path.with_suffix('')} (gzip -9 -n it again "
                            "when the run is over)")
        self.header = header
        self.done: dict[int, tuple[float, float]] = {}
        try:
            text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        except (OSError, ValueError) as e:
            raise RuleError(f"cannot read the strength log {self.path}: {e}") from None
        if text:
            lines = text.splitlines()
            try:
                first = json.loads(lines[0])
            except (ValueError, RecursionError):
                raise RuleError(f"{self.path} is not a strength log") from None
            if first != header:
                raise RuleError(f"{self.path} logs another match ({lines[0]}); "
                                "use another --log file")
            for ln in lines[1:]:
                try:
                    e = json.loads(ln)
                    self.done[int(e["pair"])] = (float(e["a_points"][0]),
                                                 float(e["a_points"][1]))
                except (ValueError, KeyError, IndexError, TypeError, RecursionError):
                    continue  # a line cut short when a run was stopped
            if not text.endswith("\n"):
                with open(self.path, "a", encoding="utf-8") as f:
                    f.write("\n")
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.path.write_text(json.dumps(header) + "\n", encoding="utf-8")
            except OSError as e:
                raise RuleError(f"cannot write the strength log {self.path}: {e}") from None

    def add(self, k: int, pts: tuple[float, float]) -> None:
        self.done[k] = pts
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"pair": k, "a_points": list(pts)}) + "\n")


def run_strength(a_text: str, b_text: str, game: str = "backgammon", games: int = 10000,
                 seed: int = 1, rules_options: list[str] | None = None, log=None,
                 compute: Compute | int = 1, progress=None, cube: bool = False,
                 match: int = 0) -> Result:
    """A's points per game over ``games`` duplicate-dice games. With ``log`` (a path) the
    results of each pair are appended to that file and a rerun plays only the missing
    pairs; the games are played where ``compute`` says (:class:`~tavli.compute.Compute`,
    or a number of local processes), with the same points wherever; ``cube``:
    money play with the cube (Jacoby on); ``match``: ``games`` matches to that many
    points (each +1 when A wins it, -1 when it loses)."""
    rules = _match_rules(game, rules_options, cube, match)
    a = parse_player(a_text, rules)
    b = parse_player(b_text, rules)
    pairs = max(1, games // 2)
    mlog = None
    if log is not None:
        header = {"players": [a_text, b_text], "game": game, "seed": seed,
                  "rules": list(rules_options or [])}
        if cube:
            header["cube"] = True
        if match:
            header["match"] = match
        mlog = MatchLog(log, header)
    compute = as_compute(compute)
    if a.compiled is not None and b.compiled is not None and not match:
        from tavli.ai.fastplay import match_job

        t0 = time.time()

        def told(done: int) -> None:
            if progress is not None:
                rate = 120 * done / max(1e-9, time.time() - t0)
                print(f"\r{2 * done}/{2 * pairs} games  {rate:.0f} games/min", end="",
                      file=progress, flush=True)

        res = match_job(a.net, a.compiled, b.net, b.compiled, rules, pairs, seed, compute,
                        told)
        if progress is not None:
            print(file=progress)
        if mlog is not None:
            for k in range(pairs):
                if k not in mlog.done:
                    mlog.add(k, (float(res[2 * k]), float(res[2 * k + 1])))
        return Result(len(res), res)
    done = {k: v for k, v in (mlog.done if mlog else {}).items() if k < pairs}
    todo = [k for k in range(pairs) if k not in done]
    total = sum(sum(v) for v in done.values())
    t0 = time.time()

    def record(k: int, pts: tuple[float, float]) -> None:
        nonlocal total
        done[k] = pts
        total += sum(pts)
        if mlog is not None:
            mlog.add(k, pts)
        if progress is not None:
            rate = (len(done) - (pairs - len(todo))) / max(1e-9, time.time() - t0)
            if match:
                print(f"\r{2 * len(done)}/{2 * pairs} matches  won "
                      f"{50 * (1 + total / (2 * len(done))):.1f}%  {2 * rate * 60:.2f} "
                      "matches/min", end="", file=progress, flush=True)
            else:
                print(f"\r{2 * len(done)}/{2 * pairs} games  {total / (2 * len(done)):+.3f} "
                      f"ppg  {2 * rate * 60:.1f} games/min", end="", file=progress, flush=True)

    if not compute.here and len(todo) > 1:
        # the first pair here: a cold cache compiles once, in this process (which says
        # so), and the workers load the kernels from the cache instead of compiling each
        pa, pb = _as_player(a), _as_player(b)
        record(todo[0], _pair(pa, pb, rules, seed, todo[0], match))
        with open_pool(compute, _strength_setup, (a_text, b_text, game,
                                                  list(rules_options or []), seed, cube,
                                                  match)) as pool:
            for k, pts in pool.map(_strength_pair, todo[1:]):
                record(k, pts)
    else:
        pa, pb = _as_player(a), _as_player(b)
        for k in todo:
            record(k, _pair(pa, pb, rules, seed, k, match))
    if progress is not None and todo:
        print(file=progress)
    res = np.array([p for k in range(pairs) for p in done[k]])
    return Result(len(res), res)


def _as_player(spec: Spec):
    from tavli.play.players import RandomPlayer

    return spec.player if spec.player is not None else RandomPlayer(seed=0)


def bench_strength(a_text: str, b_text: str, game: str = "backgammon", games: int = 10000,
                   seed: int = 1, rules_options: list[str] | None = None,
                   out=None, log=None, compute: Compute | int = 1, progress=None,
                   cube: bool = False, match: int = 0) -> Result:
    """Play and print: games, A's win rate with a 95% interval, points per game ± SE (with
    ``match``: matches won with a 95% interval)."""
    out = out or sys.stdout
    t0 = time.time()
    r = run_strength(a_text, b_text, game, games, seed, rules_options, log=log, compute=compute,
                     progress=progress, cube=cube, match=match)
    dt = time.time() - t0
    p, hw = r.win_rate()
    if match:
        print(f"{a_text} vs {b_text}: {game}, {r.games} {match}-point matches (cube, "
              f"Crawford; pairs on the same dice with the seats swapped, seed {seed}), "
              f"{dt:.1f} s", file=out)
        print(f"  {a_text} wins {r.wins}, loses {r.games - r.wins}", file=out)
        print(f"  matches won {100 * p:.1f}% ± {100 * hw:.1f}% (95%); 95% interval "
              f"[{100 * (p - hw):.1f}%, {100 * (p + hw):.1f}%]", file=out)
        print(f"  over the {r.games // 2} pairs: {100 * p:.1f}% ± {50 * r.pair_se:.1f}% "
              "(1 SE of the pairs' means)", file=out)
        return r
    print(f"{a_text} vs {b_text}: {game}, {r.games} games (duplicate dice, seed {seed}, "
          f"{'money play with the cube, Jacoby' if cube else 'no cube'}), {dt:.1f} s", file=out)
    print(f"  {a_text} wins {r.wins}, loses {r.games - r.wins - r.draws}, draws {r.draws}",
          file=out)
    print(f"  win rate {100 * p:.1f}% ± {100 * hw:.1f}% (95%); "
          f"share of points {100 * r.share:.1f}%", file=out)
    print(f"  points per game {r.ppg:+.3f} ± {r.se:.3f} (1 SE); "
          f"95% interval [{r.ppg - 1.96 * r.se:+.3f}, {r.ppg + 1.96 * r.se:+.3f}]", file=out)
    print(f"  over the {r.games // 2} dice pairs: {r.ppg:+.4f} ± {r.pair_se:.4f} (1 SE of the "
          "pairs' means)", file=out)
    return r
