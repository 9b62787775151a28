"""Many games with dice stepped at once: :class:`VectorTurnEnv`, for throughput.

``num_envs`` games of one game (Portes, Plakoto, Fevga, backgammon with or without the
cube) live in arrays, and :meth:`VectorTurnEnv.step` advances all of them in one compiled
call: each env plays its chosen code (:mod:`tavli.rl.actions`), the engine's one verdict
(:func:`tavli.engine.games.kernel.verdict`) judges the end, a finished game starts again
at once (its rewards and ``terminated`` flag are returned by that step), the next dice
are thrown and the next legal turns generated (:func:`tavli.engine.movegen.generate`).

Each env is exactly a :class:`tavli.rl.state.TurnState` (``chance=False``) seeded with
``seeds[k]``: the same dice, legal codes, cube decisions and outcomes. A finished game
goes on with the same dice generator, as ``TurnState.reset(seed=state.rng[0])`` does.

>>> env = VectorTurnEnv("portes", 4, seed=1)
>>> env.players.tolist(), env.dice.tolist(), env.counts.tolist()
([0, 0, 1, 0], [[1, 1], [1, 4], [4, 1], [6, 1]], [42, 14, 14, 10])
>>> from tavli.rl.state import TurnState
>>> twin = TurnState(env.rules, seed=int(env.seeds[2]))   # env 2's game, alone
>>> twin.player, twin.dice, len(twin.legal_actions())
(1, (4, 1), 14)
>>> step = env.step(env.random_actions())
>>> step.rewards.shape, step.terminated.tolist(), env.players.tolist()
((4, 2), [False, False, False, False], [1, 1, 0, 1])
>>> env.observations().shape, env.legal_mask().sum(axis=1).tolist() == env.counts.tolist()
((4, 339), True)

The legal turns are kept as their codes (``codes``, padded ``int64[N, M]``, ``counts``
of them) and their single steps (``int8[N, M, 4, 3]``), not their final boards: the steps
are 12 bytes a turn where a board is 104, and ``M`` grows to the largest count met
(hundreds in rare positions), so ``N x M`` boards would take ~100 MB at N = 1024. The
chosen turn's steps are played on the board with the generator's own single-step
function, which gives the generator's final board.

The envs are stepped in blocks, one per thread (``threads``, by default one per CPU the
process may use; a block has at least :data:`MIN_BLOCK` envs), each block a compiled call
that releases the interpreter's lock, with the generator's work buffers of its thread.
Numba's own parallel loop was tried first and dropped: on the project's two-core machine
a parallel region cost 8 ms to start with OpenMP and 60 us with the workqueue layer.

The cube (backgammon): ``phases`` says whether an env waits for a turn (0), a roll or
double (1, codes ``ROLL``/``DOUBLE``) or an answer (2, ``TAKE``/``DROP``), as
:data:`tavli.rl.state.PHASES` numbers them; a pass is the one legal code ``PASS``.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from tavli.ai.encode import encoder_function, n_inputs
from tavli.engine.firstclass import TypedCall
from tavli.engine.games import find_game
from tavli.engine.games.kernel import BACKGAMMON, F_KERNEL, GAMMON, GOES_ON, verdict
from tavli.engine.layout import NSLOTS
from tavli.engine.movegen import STEPS, apply_step_rec, borrow, generate
from tavli.errors import IllegalMove, OptionError
from tavli.rl.actions import DOUBLE, DROP, NUM_ACTIONS, PASS, ROLL, TAKE, encode_steps
from tavli.rl.games import GAMES, game_rules
from tavli.rl.state import (
    BOARD,
    MAX_CUBE,
    OBS_EXTRA,
    PHASES,
    _die,
    splitmix,
    work_buffers,
    write_observation,
)

#: the games of :data:`tavli.rl.games.GAMES` it plays: those with dice
GAMES_WITH_DICE = tuple(name for name, (game, _) in GAMES.items() if find_game(game).dice)
#: an env's phase: a turn to play, a roll or double, an answer (as PHASES numbers them)
MOVE, CUBE, ANSWER = (PHASES.index(name) for name in ("move", "cube", "answer"))
#: legal turns room per env at first (grown to the largest count met)
FIRST_CAPACITY = 64
#: ``counts[k]`` after the generator's work buffers overflowed (cannot happen for a
#: position of play; said plainly rather than wrong)
WORK_OVERFLOW = -(1 << 40)


class VectorStep(NamedTuple):
    """What :meth:`VectorTurnEnv.step` returns: ``rewards`` float32[N, 2], the game points
    each side won in the game that ended at this step (0 elsewhere and for a draw),
    ``terminated`` bool[N]: that env's game ended and a new one began, ``movers``
    int8[N]: the side that decided in this step (the mover's reward is
    ``rewards[k, movers[k]]``)."""

    rewards: np.ndarray
    terminated: np.ndarray
    movers: np.ndarray


# --- the compiled course of one env ------------------------------------------------------
#: the fewest envs a thread of its own steps (below, one thread steps them all)
MIN_BLOCK = 64
_POOLS: dict[int, ThreadPoolExecutor] = {}


def thread_pool(n: int) -> ThreadPoolExecutor:
    """The process's pool of ``n`` threads that step blocks of envs (made once)."""
    pool = _POOLS.get(n)
    if pool is None:
        pool = _POOLS[n] = ThreadPoolExecutor(n, thread_name_prefix="tavli-vector")
    return pool


def env_blocks(num_envs: int, threads: int | None) -> list[tuple[int, int]]:
    """The envs cut into blocks, one per thread (``threads``; None: one per CPU the
    process may use), each of at least :data:`MIN_BLOCK` envs (a thread is worth its
    hand-over only for many)."""
    if threads is None:
        threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else (os.cpu_count() or 1)
    if not isinstance(threads, int) or threads < 1:
        raise OptionError(f"threads must be a positive integer, not {threads!r}")
    blocks = max(1, min(threads, num_envs // MIN_BLOCK))
    edges = np.linspace(0, num_envs, blocks + 1).astype(int).tolist()
    return list(zip(edges[:-1], edges[1:], strict=True))


# ``st`` is the tuple of state arrays (see VectorTurnEnv._state), ``cfg`` the rules:
# (kernel flags, the start board, cube on, Jacoby, opening reroll).

@njit(cache=True)
def _borrowed(st):
    """The state arrays without their reference counts (as the generator's work buffers:
    they outlive the call), so that the views the helpers take of them (an env's board,
    its dice generator) cost no atomic increment and decrement."""
    boards, turns, players, phases, dice, cubes, owners, rngs, counts, codes, steps = st
    return (borrow(boards), borrow(turns), borrow(players), borrow(phases),
            borrow(dice), borrow(cubes), borrow(owners), borrow(rngs), borrow(counts),
            borrow(codes), borrow(steps))


@njit(cache=True, inline="always")
def _generate_env(k, st, flags, buf, table):
    """The legal turns of env ``k`` (its board, side and dice set): codes and steps.
    Returns 1 when they do not fit (``counts[k]`` = minus how many there are), else 0."""
    boards, turns, players, phases, dice, cubes, owners, rngs, counts, codes, steps = st
    d1 = np.int64(dice[k, 0])
    d2 = np.int64(dice[k, 1])
    n = generate(boards[k].reshape(4, NSLOTS), np.int64(turns[k]), d1, d2, flags, buf,
                 table)
    if n < 0:
        counts[k] = WORK_OVERFLOW
        return 1
    if n == 0:
        counts[k] = 1
        codes[k, 0] = PASS
        steps[k, 0, 0, 0] = 0
        return 0
    if n > codes.shape[1]:
        counts[k] = -n
        return 1
    outp = table.shape[0] - buf.shape[0]
    for j in range(n):
        i = table[outp + j]
        for s in range(4):
            for c in range(3):
                steps[k, j, s, c] = buf[i, STEPS + 3 * s + c]
        codes[k, j] = encode_steps(steps[k, j], d1, d2)
    counts[k] = n
    return 0


@njit(cache=True, inline="always")
def _throw(k, d1, d2, st, flags, buf, table):
    """Env ``k``'s side to move throws ``d1, d2``: its legal turns."""
    boards, turns, players, phases, dice, cubes, owners, rngs, counts, codes, steps = st
    dice[k, 0] = d1
    dice[k, 1] = d2
    phases[k] = MOVE
    players[k] = turns[k]
    return _generate_env(k, st, flags, buf, table)


@njit(cache=True, inline="always")
def _decision(k, player, phase, first, second, st):
    """Env ``k`` waits for ``player`` to choose ``first`` or ``second`` (the cube)."""
    boards, turns, players, phases, dice, cubes, owners, rngs, counts, codes, steps = st
    phases[k] = phase
    players[k] = player
    counts[k] = 2
    codes[k, 0] = first
    codes[k, 1] = second
    return 0


@njit(cache=True, inline="always")
def _begin_turn(k, st, cfg, buf, table):
    """The side to move may double first (holding the cube or nobody does), or throws."""
    boards, turns, players, phases, dice, cubes, owners, rngs, counts, codes, steps = st
    flags, start, cube_on, jacoby, reroll = cfg
    me = turns[k]
    if cube_on and cubes[k] < MAX_CUBE and (owners[k] == -1 or owners[k] == me):
        return _decision(k, me, CUBE, ROLL, DOUBLE, st)
    rng = rngs[k:k + 1]
    d1 = _die(rng)
    d2 = _die(rng)
    return _throw(k, d1, d2, st, flags, buf, table)


@njit(cache=True, inline="always")
def _open_game(k, st, cfg, buf, table):
    """Env ``k`` starts a game: the opening throw (one die each, a tie thrown again)
    decides who starts, and with those dice unless the rules reroll."""
    boards, turns, players, phases, dice, cubes, owners, rngs, counts, codes, steps = st
    flags, start, cube_on, jacoby, reroll = cfg
    boards[k, :] = start
    cubes[k] = 1
    owners[k] = -1
    rng = rngs[k:k + 1]
    while True:
        a = _die(rng)
        b = _die(rng)
        if a != b:
            break
    turns[k] = 0 if a > b else 1
    if reroll:
        return _begin_turn(k, st, cfg, buf, table)
    return _throw(k, a, b, st, flags, buf, table)


@njit(cache=True, inline="always")
def _finish(k, winner, points, cube, rewards, terminated):
    """Env ``k``'s game ends: ``winner`` (-1: a draw) wins ``points`` times the cube."""
    if winner >= 0:
        rewards[k, winner] = points * cube
        rewards[k, 1 - winner] = -points * cube
    terminated[k] = True


@njit(cache=True)
def _advance(k, action, j, st, cfg, rewards, terminated, buf, table):
    """Env ``k`` takes ``action`` (its legal code number ``j``), then on to the next
    decision (a new game when this one ends). Returns 1 when the next legal turns did
    not fit, else 0."""
    boards, turns, players, phases, dice, cubes, owners, rngs, counts, codes, steps = st
    flags = cfg[0]
    rewards[k, 0] = 0
    rewards[k, 1] = 0
    terminated[k] = False
    me = np.int64(turns[k])
    if phases[k] == MOVE:
        kernel = flags[F_KERNEL]
        for s in range(4):
            frm = np.int64(steps[k, j, s, 0])
            if frm == 0:
                break
            apply_step_rec(boards, k, me, frm, frm - steps[k, j, s, 1], kernel)
        w, pts, kind = verdict(boards[k], flags)
        if kind != GOES_ON:
            if (kind == GAMMON or kind == BACKGAMMON) and cfg[3] and cubes[k] == 1:
                pts = 1  # the Jacoby rule: no gammon before the cube is turned
            _finish(k, w, pts, cubes[k], rewards, terminated)
            return _open_game(k, st, cfg, buf, table)
        turns[k] = 1 - me
        return _begin_turn(k, st, cfg, buf, table)
    if phases[k] == CUBE:
        if action == ROLL:
            rng = rngs[k:k + 1]
            d1 = _die(rng)
            d2 = _die(rng)
            return _throw(k, d1, d2, st, flags, buf, table)
        return _decision(k, 1 - me, ANSWER, TAKE, DROP, st)
    if action == DROP:  # the doubler wins the cube's value before the double
        _finish(k, me, 1, cubes[k], rewards, terminated)
        return _open_game(k, st, cfg, buf, table)
    cubes[k] *= 2
    owners[k] = 1 - me
    rng = rngs[k:k + 1]
    d1 = _die(rng)
    d2 = _die(rng)
    return _throw(k, d1, d2, st, flags, buf, table)


@njit(cache=True)
def _choices(actions, st, chosen):
    """Each env's action as the number of its legal code (into ``chosen``); the first
    env whose action is not legal, or -1."""
    counts, codes = st[8], st[9]
    for k in range(actions.shape[0]):
        j = -1
        for q in range(counts[k]):
            if codes[k, q] == actions[k]:
                j = q
                break
        if j < 0:
            return k
        chosen[k] = j
    return -1


@njit(cache=True, nogil=True)
def _step_range(lo, hi, actions, chosen, st, cfg, rewards, terminated, buf, table):
    """One step of envs ``lo`` to ``hi`` - 1, whose chosen turns are known
    (:func:`_choices`), without the interpreter's lock (a thread per block of envs).
    Returns how many envs' legal turns did not fit."""
    st = _borrowed(st)
    overflows = 0
    for k in range(lo, hi):
        overflows += _advance(k, actions[k], chosen[k], st, cfg, rewards, terminated, buf,
                              table)
    return overflows


@njit(cache=True)
def _open_all(st, cfg, buf, table):
    overflows = 0
    for k in range(st[0].shape[0]):
        overflows += _open_game(k, st, cfg, buf, table)
    return overflows


@njit(cache=True)
def _regenerate(st, flags, buf, table):
    """The legal turns again of the envs whose turns did not fit (``counts`` < 0)."""
    counts = st[8]
    overflows = 0
    for k in range(counts.shape[0]):
        if counts[k] < 0:
            overflows += _generate_env(k, st, flags, buf, table)
    return overflows


@njit(cache=True)
def _fill_mask(codes, counts, mask):
    for k in range(counts.shape[0]):
        for j in range(counts[k]):
            mask[k, codes[k, j]] = True


@njit(cache=True)
def _random_codes(codes, counts, rng, out):
    for k in range(counts.shape[0]):
        out[k] = codes[k, np.int64(splitmix(rng) % np.uint64(counts[k]))]


@njit(cache=True)
def _observe(st, sides, encoder, n_features, out):
    boards, turns, players, phases, dice, cubes, owners, rngs, counts, codes, steps = st
    for k in range(boards.shape[0]):
        d1 = np.int64(dice[k, 0]) if phases[k] == MOVE else 0
        d2 = np.int64(dice[k, 1]) if phases[k] == MOVE else 0
        write_observation(out[k], boards[k], np.int64(sides[k]), encoder, n_features, d1, d2,
                          cubes[k], np.int64(owners[k]), np.int64(phases[k]),
                          np.int64(players[k]))


def _read_only(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


class VectorTurnEnv:
    """``num_envs`` games of ``game`` (one of :data:`GAMES_WITH_DICE` or any name of a
    game with dice, with the rule options ``rule_options``), dice from ``seed``.

    Read (never write) the state: ``boards`` int8[N, 104] (the board arrays of
    :mod:`tavli.engine.layout`, flat), ``turns`` (the side whose turn it is),
    ``players`` (the side to decide: the opponent when he answers a double),
    ``phases``, ``dice`` int8[N, 2] (of the turn to play), ``cubes``, ``cube_owners``
    (-1 centred), ``counts`` and ``codes`` (the legal codes: the first ``counts[k]`` of
    row ``k``; :meth:`legal_codes` pads them with -1), ``seeds`` (env ``k``'s first game
    is ``TurnState(rules, seed=seeds[k])``).
    """

    num_actions = NUM_ACTIONS

    def __init__(self, game: str = "portes", num_envs: int = 1, seed: int | None = None,
                 threads: int | None = None, **rule_options: Any) -> None:
        if not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise OptionError(f"num_envs must be a positive integer, not {num_envs!r}")
        self._blocks = env_blocks(int(num_envs), threads)
        self.rules = game_rules(game, **rule_options)
        self.game = game
        self.num_envs = n = int(num_envs)
        options = self.rules.options()
        self.flags = self.rules.kernel_flags()
        start = np.array(self.rules.variant.start_array(options), dtype=np.int8).reshape(-1)
        self._cfg = (self.flags, start, bool(options.get("cube", False)),
                     bool(options.get("jacoby", False)), bool(options.get("opening_reroll",
                                                                          False)))
        self.family = self.rules.variant.kernel
        self.encoder = encoder_function(self.family)
        # every argument built in observations(): typed once (the encoder would be typed
        # at every call otherwise, tavli.engine.firstclass)
        self._observe = TypedCall(_observe)
        self.n_features = n_inputs(self.family)
        self.observation_size = self.n_features + OBS_EXTRA
        self._boards = np.zeros((n, BOARD), dtype=np.int8)
        self._turns = np.zeros(n, dtype=np.int8)
        self._players = np.zeros(n, dtype=np.int8)
        self._phases = np.zeros(n, dtype=np.int8)
        self._dice = np.zeros((n, 2), dtype=np.int8)
        self._cubes = np.ones(n, dtype=np.int64)
        self._owners = np.full(n, -1, dtype=np.int8)
        self._rngs = np.zeros(n, dtype=np.uint64)
        self._counts = np.zeros(n, dtype=np.int64)
        self._codes = np.zeros((n, FIRST_CAPACITY), dtype=np.int64)
        self._steps = np.zeros((n, FIRST_CAPACITY, 4, 3), dtype=np.int8)
        self._chosen = np.zeros(n, dtype=np.int64)
        self._pick_rng = np.zeros(1, dtype=np.uint64)
        self.reset(seed)

    def _state(self) -> tuple[np.ndarray, ...]:
        return (self._boards, self._turns, self._players, self._phases, self._dice,
                self._cubes, self._owners, self._rngs, self._counts, self._codes,
                self._steps)

    # --- the course of the games ---------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Every env to a new game; ``seed`` (else fresh entropy) makes the dice."""
        words = np.random.SeedSequence(seed).generate_state(self.num_envs + 1,
                                                            dtype=np.uint64)
        self.seeds = _read_only(words[:self.num_envs].copy())
        self._rngs[:] = self.seeds
        self._pick_rng[0] = words[-1]
        self._settle(_open_all(self._state(), self._cfg, *work_buffers()))

    def step(self, actions: np.ndarray) -> VectorStep:
        """Every env takes its code ``actions[k]`` (one of its legal codes); the
        :class:`tavli.errors.IllegalMove` for the first env whose code is not legal
        names it, and then nothing has changed."""
        acts = self._actions(actions)
        movers = self._players.copy()
        rewards = np.empty((self.num_envs, 2), dtype=np.float32)
        terminated = np.empty(self.num_envs, dtype=np.bool_)
        state = self._state()
        bad = _choices(acts, state, self._chosen)
        if bad >= 0:
            raise IllegalMove(f"env {bad}: action {int(acts[bad])} is not legal there "
                              f"({PHASES[self._phases[bad]]}: {self._counts[bad]} legal "
                              f"actions)")

        def block(bounds: tuple[int, int]) -> int:
            return _step_range(bounds[0], bounds[1], acts, self._chosen, state, self._cfg,
                               rewards, terminated, *work_buffers())

        if len(self._blocks) == 1:
            overflows = block(self._blocks[0])
        else:
            overflows = sum(thread_pool(len(self._blocks)).map(block, self._blocks))
        self._settle(overflows)
        return VectorStep(rewards, terminated, movers)

    def _actions(self, actions: Any) -> np.ndarray:
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise OptionError(f"actions must be {self.num_envs} integer codes, got shape "
                              f"{acts.shape} of {acts.dtype}")
        return acts.astype(np.int64, copy=False)

    def _settle(self, overflows: int) -> None:
        """Room for the envs whose legal turns did not fit, and their turns again."""
        while overflows:
            low = int(self._counts.min())
            if low == WORK_OVERFLOW:
                raise RuntimeError("legal-move work buffers overflowed")
            m = self._codes.shape[1]
            while m < -low:
                m *= 2
            codes = np.zeros((self.num_envs, m), dtype=np.int64)
            codes[:, :self._codes.shape[1]] = self._codes
            steps = np.zeros((self.num_envs, m, 4, 3), dtype=np.int8)
            steps[:, :self._steps.shape[1]] = self._steps
            self._codes, self._steps = codes, steps
            overflows = _regenerate(self._state(), self.flags, *work_buffers())

    # --- what the agents see --------------------------------------------------------------
    def random_actions(self) -> np.ndarray:
        """One legal code per env, uniformly at random (from the env's own generator,
        apart from the dice)."""
        out = np.empty(self.num_envs, dtype=np.int64)
        _random_codes(self._codes, self._counts, self._pick_rng, out)
        return out

    def legal_mask(self) -> np.ndarray:
        """bool[N, NUM_ACTIONS]: True at each env's legal codes."""
        mask = np.zeros((self.num_envs, NUM_ACTIONS), dtype=np.bool_)
        _fill_mask(self._codes, self._counts, mask)
        return mask

    def legal_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """``(codes, counts)``: int64[N, M] each env's legal codes first, -1 after them
        (M the largest count), and how many."""
        width = int(self._counts.max())
        codes = self._codes[:, :width].copy()
        codes[np.arange(width) >= self._counts[:, None]] = -1
        return codes, self._counts.copy()

    def observations(self, sides: np.ndarray | None = None) -> np.ndarray:
        """float32[N, observation_size]: what ``sides[k]`` (default: each env's player to
        decide) sees, laid out as :meth:`tavli.rl.state.TurnState.observation`."""
        if sides is None:
            sides = self._players
        sides = np.asarray(sides)
        if sides.shape != (self.num_envs,) or not np.isin(sides, (0, 1)).all():
            raise OptionError(f"sides must be {self.num_envs} sides, 0 or 1")
        out = np.zeros((self.num_envs, self.observation_size), dtype=np.float32)
        self._observe(self._state(), sides.astype(np.int64), self.encoder, self.n_features,
                      out)
        return out

    boards = property(lambda self: _read_only(self._boards))
    turns = property(lambda self: _read_only(self._turns))
    players = property(lambda self: _read_only(self._players))
    phases = property(lambda self: _read_only(self._phases))
    dice = property(lambda self: _read_only(self._dice))
    cubes = property(lambda self: _read_only(self._cubes))
    cube_owners = property(lambda self: _read_only(self._owners))
    counts = property(lambda self: _read_only(self._counts))
    codes = property(lambda self: _read_only(self._codes))

    def __repr__(self) -> str:
        return f"VectorTurnEnv({self.game!r}, {self.num_envs})"


__all__ = ["VectorTurnEnv", "VectorStep", "GAMES_WITH_DICE", "MOVE", "CUBE", "ANSWER"]
