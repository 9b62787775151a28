"""Many games of Dama stepped at once: :class:`VectorDamaEnv`, for throughput (in blocks
on threads as :class:`tavli.rl.vector.VectorTurnEnv`).

``num_envs`` games under one rule set live in arrays (each row the state of a
:class:`tavli.rl.dama.DamaState`), and :meth:`VectorDamaEnv.step` advances all of them in
one compiled call: each plays its chosen code (:mod:`tavli.rl.dama`'s action space), the
rules' one verdict (:func:`tavli.play.dama.game.judge`, compiled here as it is) says
whether the game is over, a finished game starts again at once (its rewards and
``terminated`` flag are returned by that step), and the next legal codes are generated.
Each env is exactly a ``DamaState`` of the same rules (tested move by move).

>>> env = VectorDamaEnv("russian", 3)
>>> env.counts.tolist(), env.players.tolist()
([7, 7, 7], [0, 0, 0])
>>> step = env.step(env.random_actions())
>>> env.players.tolist(), step.rewards.shape, env.observations().shape
([1, 1, 1], (3, 2), (3, 164))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from tavli.engine.dama.rules import DamaRules
from tavli.errors import IllegalMove, OptionError
from tavli.play.dama.game import judge
from tavli.rl.dama import (
    CROWDED,
    DUPLICATE,
    FULL,
    NMOVES,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    QUIET,
    REPS,
    STM,
    DamaState,
    RouteOverflow,
    _generate,
    _observe,
    _play,
    work_space,
)
from tavli.rl.state import splitmix
from tavli.rl.vector import VectorStep, env_blocks, thread_pool

#: the rules' verdict, the very function DamaGame reads, compiled for the batched step
_judge = njit(cache=True)(judge)


@njit(cache=True)
def _choices(actions, s, codes):
    """The first env whose action is not one of its legal codes, or -1."""
    for k in range(actions.shape[0]):
        n = s[k, NMOVES]
        j = np.searchsorted(codes[k, :n], actions[k])
        if j >= n or codes[k, j] != actions[k]:
            return k
    return -1


@njit(cache=True)
def _settle(k, n, s, terminated, rewards, draw_plies):
    """The verdict on env ``k`` after its moves are generated (``n`` of them)."""
    over, winner, _ = _judge(s[k, REPS], s[k, QUIET], draw_plies, n > 0, s[k, STM])
    terminated[k] = over
    if over and winner >= 0:
        rewards[k, winner] = 1.0
        rewards[k, 1 - winner] = -1.0
    return over


@njit(cache=True)
def _restart(k, s, hist, start, start_hist):
    s[k, :] = start
    hist[k, 0, :] = start_hist


@njit(cache=True)
def _after_play(k, s, hist, moves, codes, start, start_hist, rewards, terminated, out, stk,
                nb, ray, raylen, R, draw_plies):
    """Env ``k`` has played: its next moves, the verdict, a new game if it is over.
    Returns 0 or the generator's complaint (FULL: ``moves`` too small, CROWDED,
    DUPLICATE)."""
    n = _generate(s[k], moves[k], codes[k], out, stk, nb, ray, raylen, R)
    if n < 0:
        return n
    if _settle(k, n, s, terminated, rewards, draw_plies):
        _restart(k, s, hist, start, start_hist)
        n = _generate(s[k], moves[k], codes[k], out, stk, nb, ray, raylen, R)
    return min(n, 0)


@njit(cache=True, nogil=True)
def _step(first, last, actions, s, hist, moves, codes, start, start_hist, rewards,
          terminated, out, stk, nb, ray, raylen, R, draw_plies):
    """One step of envs ``first`` to ``last`` - 1 (their actions legal: :func:`_choices`),
    without the interpreter's lock (a thread per block of envs). Returns ``(0, -1)``, or
    the generator's complaint with the env it came from (which has played, and waits for
    :func:`_after_play` again)."""
    for k in range(first, last):
        _play(s[k], hist[k], moves[k], codes[k], actions[k])
        status = _after_play(k, s, hist, moves, codes, start, start_hist, rewards,
                             terminated, out, stk, nb, ray, raylen, R, draw_plies)
        if status < 0:
            return status, k
    return 0, -1


@njit(cache=True)
def _observe_all(s, draw_plies, x):
    for k in range(s.shape[0]):
        _observe(s[k], s[k, STM], draw_plies, False, x[k])


@njit(cache=True)
def _random_codes(s, codes, rng, out):
    for k in range(s.shape[0]):
        out[k] = codes[k, splitmix(rng) % np.uint64(s[k, NMOVES])]


class VectorDamaEnv:
    """``num_envs`` games of Dama under ``rules`` (a rule set's name or
    :class:`DamaRules`; rule options on top), from the start; ``seed`` only draws
    :meth:`random_actions`."""

    num_actions = NUM_ACTIONS
    observation_size = OBSERVATION_SIZE

    def __init__(self, rules: DamaRules | str = "box", num_envs: int = 1,
                 seed: int | None = None, threads: int | None = None,
                 **rule_options: Any) -> None:
        if not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise OptionError(f"num_envs must be a positive integer, not {num_envs!r}")
        self._blocks = env_blocks(int(num_envs), threads)
        one = DamaState(DamaRules.for_game(DamaRules.for_name(rules).variant, rule_options)
                        if rule_options else rules)
        self.rules = one.rules
        self.num_envs = n = int(num_envs)
        self._geometry = (one.nb, one.ray, one.raylen, one.flags)
        self.draw_plies = one.draw_plies
        self._start, self._start_hist = one.s.copy(), one.hist[0].copy()
        self._s = np.repeat(one.s[None, :], n, axis=0)
        self._hist = np.repeat(one.hist[None, :, :], n, axis=0)
        self._moves = np.repeat(one.moves[None, :, :], n, axis=0)
        self._codes = np.repeat(one.codes[None, :], n, axis=0)
        self._rng = np.array(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64))

    def step(self, actions: Any) -> VectorStep:
        """Every env plays its code ``actions[k]``; an illegal code is refused
        (:class:`tavli.errors.IllegalMove` naming the env) and nothing changes."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise OptionError(f"actions must be {self.num_envs} integer codes, got shape "
                              f"{acts.shape} of {acts.dtype}")
        acts = acts.astype(np.int64, copy=False)
        bad = _choices(acts, self._s, self._codes)
        if bad >= 0:
            raise IllegalMove(f"env {bad}: action {int(acts[bad])} is not legal there "
                              f"({int(self._s[bad, NMOVES])} legal actions)")
        movers = self._s[:, STM].astype(np.int8)
        rewards = np.zeros((self.num_envs, 2), dtype=np.float32)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)

        def block(bounds: tuple[int, int]) -> tuple[int, int]:
            work = (*work_space(), *self._geometry, self.draw_plies)
            return _step(*bounds, acts, *self._arrays(), rewards, terminated, *work)

        if len(self._blocks) == 1:
            done = [block(self._blocks[0])]
        else:
            done = list(thread_pool(len(self._blocks)).map(block, self._blocks))
        work = (*work_space(), *self._geometry, self.draw_plies)
        for (status, k), (_, last) in zip(done, self._blocks, strict=True):
            while status == FULL:  # more room (every thread done), then the block's rest
                self._moves = np.concatenate([self._moves, np.zeros_like(self._moves)],
                                             axis=1)
                self._codes = np.concatenate([self._codes, np.zeros_like(self._codes)],
                                             axis=1)
                status = _after_play(k, *self._arrays(), rewards, terminated, *work)
                if status == 0:
                    status, k = _step(k + 1, last, acts, *self._arrays(), rewards,
                                      terminated, *work)
            if status == CROWDED:
                raise RouteOverflow(f"env {k}: a route holds more moves than the action "
                                    "space codes")
            if status == DUPLICATE:
                raise RuntimeError(f"env {k}: the generator listed a move twice")
        return VectorStep(rewards, terminated, movers)

    def _arrays(self) -> tuple[np.ndarray, ...]:
        return (self._s, self._hist, self._moves, self._codes, self._start,
                self._start_hist)

    def random_actions(self) -> np.ndarray:
        """One uniformly random legal code per env."""
        out = np.empty(self.num_envs, dtype=np.int64)
        _random_codes(self._s, self._codes, self._rng, out)
        return out

    def observations(self) -> np.ndarray:
        """Each env as its side to move sees it (:meth:`DamaState.observation`)."""
        x = np.zeros((self.num_envs, OBSERVATION_SIZE), dtype=np.float32)
        _observe_all(self._s, self.draw_plies, x)
        return x

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros((self.num_envs, NUM_ACTIONS), dtype=np.bool_)
        for k in range(self.num_envs):
            mask[k, self._codes[k, :self._s[k, NMOVES]]] = True
        return mask

    counts = property(lambda self: self._s[:, NMOVES].copy())
    players = property(lambda self: self._s[:, STM].copy())

    def legal_codes(self, k: int) -> np.ndarray:
        return self._codes[k, :self._s[k, NMOVES]].copy()

    def __repr__(self) -> str:
        return f"VectorDamaEnv({self.rules!r}, {self.num_envs})"

