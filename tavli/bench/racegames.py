"""Races for measurement and training: race starting positions sampled from self-play,
and duplicate games from them, compiled.

* :func:`sample_races` plays self-play games from the start and records, per game, the
  position where contact ends (the first race-class one, the side to move with it), or
  one race-class position of the game chosen at random (:func:`sample_starts`);
* :func:`race_pairs` plays each race position twice with the same dice, seats swapped
  (:func:`race_match`, :func:`pair_stats`).

Every kernel takes the evaluator as one value (:data:`~tavli.ai.evaluator.Tables`) and
plays the 0-ply choice of it. Race networks are trained on these starts by
:mod:`tavli.training.racegames`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from tavli.ai.evaluator import C_CONTACT, C_RACE, Evaluator, position_class
from tavli.ai.fastplay import NET, _choose, terminal, throw
from tavli.ai.net import Net, make_scratch, read_npz, write_npz
from tavli.ai.shipped import family_rules, shipped_net
from tavli.engine.games import find_variant
from tavli.engine.games.kernel import F_KERNEL
from tavli.engine.movegen import HASH_SIZE, MAX_STATES, generate
from tavli.engine.rules import Rules
from tavli.errors import TrainingError

MAX_RACE_PLIES = 1000  # a race is never this long; a game that is gets cut off
# _choose's pubeval weights are unused by NET players: zeros, made inside each kernel (a
# global array is a read-only constant to Numba, another type than the trainers' writable
# weights: it compiled _choose a second time)
NO_PUBEVAL = (2, 122)


@njit(cache=True)
def _copy(dst, src):
    for k in range(104):
        dst[k] = src[k]


@njit(cache=True)
def sample_races(ev, start, flags, n_games, seed, explore, pick_any, s, boards, turns):
    """Play ``n_games`` self-play games from the board array ``start`` with the 0-ply
    choice of ``ev`` (a random legal move with probability ``explore``) and record race
    positions into ``boards`` (int8[M, 104]) and ``turns`` (the side to move): the first
    race-class position of each game (``pick_any`` false: the game stops there), or one
    race-class position of the game drawn uniformly (``pick_any`` true). Games that end
    before a race (or go from contact straight to a bear-off) give none. Returns how many
    were recorded (at most M)."""
    np.random.seed(seed)
    family = flags[F_KERNEL]
    st, buf, table = s.st, s.buf, s.table
    sf = st.reshape(104)
    outp = table.shape[0] - buf.shape[0]
    got = 0
    pick = np.zeros(104, dtype=np.int8)
    player = (np.int64(NET), ev)  # plain int64: a literal compiles _choose again
    pubw = np.zeros(NO_PUBEVAL)
    for _g in range(n_games):
        if got >= boards.shape[0]:
            break
        st[:, :] = start
        me = np.random.randint(0, 2)
        seen = 0
        pick_turn = 0
        for _ply in range(4 * MAX_RACE_PLIES):
            cls = position_class(sf, family)
            if cls == C_RACE:
                seen += 1
                if np.random.random() * seen < 1.0:  # reservoir sampling of one position
                    _copy(pick, sf)
                    pick_turn = me
                if not pick_any:
                    break
            elif cls != C_CONTACT and not pick_any:
                break  # contact ended in a bear-off: no race start here
            d1, d2 = throw()
            n = generate(st, me, d1, d2, flags, buf, table)
            if n > 0:
                if explore > 0.0 and np.random.random() < explore:
                    i = table[outp + np.random.randint(0, n)]
                else:
                    i = _choose(player, pubw, st, me, n, flags, s)
                _copy(sf, buf[i])
                if not np.isnan(terminal(sf, me, flags, s.tgt)):
                    break
            me = 1 - me
        if seen > 0:
            _copy(boards[got], pick)
            turns[got] = pick_turn
            got += 1
    return got


@njit(cache=True)
def _play_out(a, b, st, me, a_side, flags, s):
    """Play the board array ``st`` to the end with random dice, ``me`` to move, player
    ``a`` (``(kind, tables)``) for side ``a_side`` and ``b`` for the other. Returns the
    points of the side that moved first (0 if cut off)."""
    sf = st.reshape(104)
    buf, table = s.buf, s.table
    root = me
    pubw = np.zeros(NO_PUBEVAL)
    for _ply in range(MAX_RACE_PLIES):
        d1, d2 = throw()
        n = generate(st, me, d1, d2, flags, buf, table)
        if n > 0:
            i = _choose(a if me == a_side else b, pubw, st, me, n, flags, s)
            _copy(sf, buf[i])
            pts = terminal(sf, me, flags, s.tgt)
            if not np.isnan(pts):
                return pts if me == root else -pts
        me = 1 - me
    return 0.0


@njit(cache=True)
def race_pairs(a, b, boards, turns, flags, seed, s, results):
    """Duplicate games from race positions: position ``k`` (``boards[k]``, ``turns[k]``
    to move) is played twice with the same dice (seeded ``seed + k``), the evaluator ``a``
    (:data:`~tavli.ai.evaluator.Tables`) first on the side to move, then on the other.
    ``results[2k]``, ``results[2k + 1]`` get ``a``'s points."""
    st = s.st
    pa = (np.int64(NET), a)  # plain int64, as compiled_match's players: one _choose
    pb = (np.int64(NET), b)
    for k in range(boards.shape[0]):
        me = turns[k]
        for swap in range(2):
            np.random.seed((seed + k) % 4294967296)
            _copy(st.reshape(104), boards[k])
            a_side = me if swap == 0 else 1 - me
            pts = _play_out(pa, pb, st, me, a_side, flags, s)
            results[2 * k + swap] = pts if swap == 0 else -pts

@dataclass
class RaceStarts:
    """Race positions of one family: flat boards ``int8[N, 104]`` and the side to move
    of each (``turns``), with the games they were sampled from."""

    family: str
    boards: np.ndarray
    turns: np.ndarray
    games: int = 0
    seed: int = 0

    def __len__(self) -> int:
        return len(self.boards)

    def save(self, path: str | Path) -> None:
        meta = {"family": self.family, "games": self.games, "seed": self.seed}
        write_npz(path, boards=self.boards, turns=self.turns,
                  meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8))

    @classmethod
    def load(cls, path: str | Path) -> RaceStarts:
        """The positions saved in ``path``; :class:`TrainingError` when it cannot be read
        or holds no race positions of a family."""
        z = read_npz(path, ("boards", "turns", "meta"), "race starts", "a race starts",
                     TrainingError)
        try:
            meta = json.loads(bytes(z["meta"]).decode())
            family = find_variant(meta["family"]).family
            boards = np.ascontiguousarray(z["boards"], dtype=np.int8)
            turns = np.ascontiguousarray(z["turns"], dtype=np.int64)
            ok = boards.ndim == 2 and boards.shape[1] == 104 and turns.shape == boards.shape[:1]
        except (ValueError, KeyError, TypeError, AttributeError):
            ok = False
        if not ok or len(boards) == 0 or not np.isin(turns, (0, 1)).all():
            raise TrainingError(f"{path}: not a race starts file")
        return cls(family, boards, turns, int(meta.get("games", 0)), int(meta.get("seed", 0)))

    def split(self, n_check: int) -> tuple[RaceStarts, RaceStarts]:
        """The training part and the last ``n_check`` positions (fewer when the file is
        small: a tenth at most)."""
        k = min(n_check, len(self) // 10)
        cut = len(self) - k
        return (RaceStarts(self.family, self.boards[:cut], self.turns[:cut]),
                RaceStarts(self.family, self.boards[cut:], self.turns[cut:]))


def contact_evaluator(game: str, net: Net | None = None, race: Net | None = None) -> Evaluator:
    """An evaluator of ``game``'s family: the contact network ``net`` (default the shipped
    one) with the race network ``race`` (default none)."""
    return Evaluator(net if net is not None else shipped_net(game), race=race)


def sample_starts(game: str, games: int, seed: int, *, pick_any: bool = False,
                  explore: float = 0.0, evaluator: Evaluator | None = None) -> RaceStarts:
    """Race positions from ``games`` self-play games of ``evaluator`` (default: the
    family's shipped one): where contact ends, or (``pick_any``) one race-class position
    of each game at random."""
    rules = family_rules(game)
    ev = evaluator or Evaluator.shipped(rules.game)
    boards = np.zeros((games, 104), dtype=np.int8)
    turns = np.zeros(games, dtype=np.int64)
    start = np.array(rules.variant.start_array())
    n = sample_races(ev.tables, start, rules.kernel_flags(), games, seed % 2**31, explore,
                     pick_any, ev.scratch(MAX_STATES, HASH_SIZE), boards, turns)
    return RaceStarts(rules.variant.family, boards[:n].copy(), turns[:n].copy(), games, seed)


def race_match(a: Evaluator, b: Evaluator, starts: RaceStarts, rules: Rules,
               seed: int) -> np.ndarray:
    """``a``'s points in duplicate games from each start (two games a start, seats
    swapped, the same dice)."""
    res = np.zeros(2 * len(starts))
    race_pairs(a.tables, b.tables, starts.boards, starts.turns, rules.kernel_flags(),
               seed % 2**31, _scratch_for(a, b), res)
    return res


def pair_stats(res: np.ndarray) -> tuple[float, float]:
    """Points per game of duplicate games (``res``: two games a pair, the same dice) and
    its standard error, taken over the pairs' means (the two games of a pair share their
    luck, so the games are not independent)."""
    pairs = res.reshape(-1, 2).mean(axis=1)
    se = float(pairs.std(ddof=1) / math.sqrt(len(pairs))) if len(pairs) > 1 else 0.0
    return float(res.mean()), se


def _scratch_for(*evs: Evaluator):
    return make_scratch(max(e.n_inputs for e in evs), max(e.hidden for e in evs), MAX_STATES,
                        HASH_SIZE)
