"""Compiled whole games between players, for strength measurement and training.

Everything a game needs runs inside one Numba function: dice, the shared legal-turn
generator (:func:`tavli.engine.movegen.generate`), the encoders, the network and the end of the
game, so self-play runs without Python overhead per move. Kernels take the network as one
value (:attr:`Net.weights <tavli.ai.net.Net.weights>`), the rules as one tuple of flags
(:meth:`tavli.engine.rules.Rules.kernel_flags`) and their work arrays as one
:data:`~tavli.ai.net.Scratch` (:meth:`Net.scratch <tavli.ai.net.Net.scratch>`).

Player kinds for :func:`play_games`: ``NET`` (0-ply, the given weights), ``PUBEVAL``
(Tesauro's linear evaluator; Portes/backgammon only), ``RANDOM``.
"""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
from numba import njit

from tavli.ai.encode import is_contact
from tavli.ai.evaluator import Evaluator, evaluate
from tavli.ai.net import N_OUT, flip, forward, make_scratch, money_equity
from tavli.compute import Compute, open_pool
from tavli.engine.games.kernel import BACKGAMMON, DRAW, F_BACKGAMMONS, F_KERNEL, GOES_ON, verdict
from tavli.engine.movegen import HASH_SIZE, MAX_STATES, generate

NET = 0
PUBEVAL = 1
RANDOM = 2


def pubeval_weights() -> np.ndarray:
    """``float64[2, 122]``: row 0 the race weights, row 1 the contact weights."""
    data = json.loads(resources.files("tavli").joinpath("data", "pubeval.json").read_text())
    return np.array([data["race"], data["contact"]], dtype=np.float64)


@njit(cache=True)
def pubeval_score(b, me, weights, race):
    """Tesauro's pubeval of the board ``b`` (after a move of ``me``), from ``me``'s view."""
    m = me * 26
    o = (1 - me) * 26
    if b[m] == 15:
        return 99999999.0
    w = weights[0] if race else weights[1]
    s = 0.0
    for loc in range(1, 25):
        base = 5 * (24 - loc)
        n = b[m + loc]
        if n == 0 and b[o + 25 - loc] == 1:
            s += w[base]
        elif n == 1:
            s += w[base + 1]
        elif n >= 2:
            s += w[base + 2]
            if n == 3:
                s += w[base + 3]
            elif n >= 4:
                s += w[base + 4] * (n - 3) * 0.5
    s += w[120] * b[o + 25] * 0.5
    s += w[121] * b[m] / 15.0
    return s


@njit(cache=True)
def terminal(b, mover, flags, tgt):
    """Is the game over after ``mover``'s turn ended in ``b``? (The one verdict,
    :func:`tavli.engine.games.kernel.verdict`.) Writes the final outputs from ``mover``'s view
    into ``tgt`` and returns the points (signed for ``mover``, 0 for a draw) as a float,
    or NaN when play goes on."""
    for k in range(N_OUT):
        tgt[k] = 0.0
    winner, pts, kind = verdict(b, flags)
    if kind == GOES_ON:
        return np.nan
    if kind == DRAW:
        tgt[0] = 0.5
        return 0.0
    won = winner == mover
    if won:  # outputs: win, gammon, backgammon (mine); gammon, backgammon (his)
        tgt[0] = 1.0
    g0 = 1 if won else 3
    if pts >= 2:
        tgt[g0] = 1.0
    if kind == BACKGAMMON:
        tgt[g0 + 1] = 1.0
    return float(pts) if won else -float(pts)


@njit(cache=True, inline="always")
def new_game(st, start):
    """Set the board array ``st`` to ``start`` and draw the side that starts."""
    st[:, :] = start
    return np.random.randint(0, 2)


@njit(cache=True, inline="always")
def throw():
    """Two dice from NumPy's generator (seeded by the caller)."""
    d1 = np.random.randint(1, 7)
    d2 = np.random.randint(1, 7)
    return d1, d2


@njit(cache=True, inline="always")
def _reply_equity(net, b, op, count_bg, x, h, y):
    """The money equity of after-position ``b`` for the mover: minus the opponent's
    (``op`` to move), by the network; ``x``, ``h``, ``y`` are work arrays."""
    net.enc(b, op, x)
    forward(net, x, h, y)
    return -money_equity(y, count_bg)


MAX_PLIES = 3000  # a training game this long is cut off (never seen in practice)


@njit(cache=True)
def _best_move(net, j0, j1, me, flags, s):
    """The best of the generated moves ``j0 .. j1 - 1`` (in the scratch ``s``'s move
    buffers) for ``me`` (a move that ends the game first, else the one worst for the
    opponent by his money equity): returns its record index in ``s.buf`` (-1 if none) and
    its points if it ends the game (NaN if not); writes its outputs from ``me``'s view
    into ``s.tb`` and its inputs (the opponent to move) into ``s.xb``."""
    buf, table, tgt, tb, xc, hc, yc, xb = s.buf, s.table, s.tgt, s.tb, s.xc, s.hc, s.yc, s.xb
    outp = table.shape[0] - buf.shape[0]
    count_bg = flags[F_BACKGAMMONS] != 0
    n_in = net.W1.shape[0]
    op = 1 - me
    best = -1e9
    bi = -1
    done = np.nan
    for j in range(j0, j1):
        i = table[outp + j]
        pts = terminal(buf[i], me, flags, tgt)
        if not np.isnan(pts):
            e = pts + 100.0  # a won game beats any evaluation
            if e > best:
                best = e
                bi = i
                done = pts
                for k in range(N_OUT):
                    tb[k] = tgt[k]
            continue
        e = _reply_equity(net, buf[i], op, count_bg, xc, hc, yc)
        if e > best:
            best = e
            bi = i
            done = np.nan
            flip(yc, tb)
            for k in range(n_in):
                xb[k] = xc[k]
    return bi, done


@njit(cache=True)
def _play_roll(net, st, me, d1, d2, flags, explore, s):
    """The turn of ``me`` with the roll ``d1``-``d2`` in the board array ``st``: the best
    move by :func:`_best_move` (with probability ``explore`` a random legal one instead).
    Returns ``(record index in s.buf, points if it ends the game)``; ``(-1, NaN)`` when no
    move is legal, and then ``s.tb``/``s.xb`` describe the unchanged position with the
    opponent to move."""
    n = generate(st, me, d1, d2, flags, s.buf, s.table)
    if n <= 0:
        net.enc(st.reshape(104), 1 - me, s.xb)
        forward(net, s.xb, s.hc, s.yc)
        flip(s.yc, s.tb)
        return -1, np.nan
    j0, j1 = 0, n
    if explore > 0.0 and n > 1 and np.random.random() < explore:
        j0 = np.random.randint(0, n)  # a random move: value only that one
        j1 = j0 + 1
    return _best_move(net, j0, j1, me, flags, s)


@njit(cache=True)
def _choose(player, pubw, st, me, n, flags, s):
    """Index (into ``s.buf``) of the move that ``player`` (kind, evaluator
    :data:`~tavli.ai.evaluator.Tables`) chooses among the ``n`` generated."""
    kind, net = player
    buf, table, tgt, x, h, y = s.buf, s.table, s.tgt, s.x, s.h, s.y
    outp = table.shape[0] - buf.shape[0]
    if kind == RANDOM:
        return table[outp + np.random.randint(0, n)]
    family = flags[F_KERNEL]
    count_bg = flags[F_BACKGAMMONS] != 0
    op = 1 - me
    race = not is_contact(st.reshape(104))
    best = -1e18
    bi = table[outp]
    for j in range(n):
        i = table[outp + j]
        pts = terminal(buf[i], me, flags, tgt)
        if not np.isnan(pts):
            e = 1e9 + pts
        elif kind == PUBEVAL:
            e = pubeval_score(buf[i], me, pubw, race)
        else:
            evaluate(net, buf[i], op, family, x, h, y)
            e = -money_equity(y, count_bg)
        if e > best:
            best = e
            bi = i
    return bi


@njit(cache=True)
def play_games(a, b, pubw, start, flags, n_pairs, seed, s, results):
    """Duplicate-dice games between players ``a`` and ``b`` (each ``(kind, weights)``)
    from the board array ``start``: each dice sequence is played twice, A as white then B
    as white, white starting. ``results[k]`` gets A's points (money scoring, no cube; 0
    for a draw) for game ``k`` (2 ``n_pairs`` games). ``seed`` is the base of
    :func:`pair_seed_base`: pair ``k`` draws its dice from ``seed + k``. ``s`` (work
    arrays) fits both networks."""
    st, tgt, buf, table = s.st, s.tgt, s.buf, s.table
    sf = st.reshape(104)
    dice = np.zeros((4000, 2), dtype=np.int64)
    for pair in range(n_pairs):
        np.random.seed((seed + pair) % 4294967296)
        for k in range(dice.shape[0]):
            dice[k, 0] = np.random.randint(1, 7)
            dice[k, 1] = np.random.randint(1, 7)
        for swap in range(2):
            np.random.seed((seed + 7919 * pair + swap + 1) % 4294967296)  # random players
            st[:, :] = start
            me = np.int64(0)  # plain int64: a literal 0 compiles the callees twice
            res = 0.0
            for ply in range(dice.shape[0]):
                n = generate(st, me, dice[ply, 0], dice[ply, 1], flags, buf, table)
                if n > 0:
                    a_moves = (me == 0) == (swap == 0)
                    i = _choose(a if a_moves else b, pubw, st, me, n, flags, s)
                    for k in range(104):
                        sf[k] = buf[i, k]
                    pts = terminal(sf, me, flags, tgt)
                    if not np.isnan(pts):
                        white_pts = pts if me == 0 else -pts
                        res = white_pts if swap == 0 else -white_pts
                        break
                me = 1 - me
            results[2 * pair + swap] = res


def compiled_match(net_a, kind_a: int, net_b, kind_b: int, rules, pairs: int, seed: int,
                   scratch=None, first_pair: int = 0) -> np.ndarray:
    """A's points in ``2 pairs`` duplicate-dice games (money scoring, no cube) between two
    compiled players (``NET`` with its network or :class:`~tavli.ai.evaluator.Evaluator`
    (a network alone plays with the bear-off databases), ``PUBEVAL`` or ``RANDOM``): the
    pairs ``first_pair``, ``first_pair + 1``, … of the match of ``seed`` (a pair's games
    depend on its number alone, so a match split into blocks of pairs gives the same
    points). ``scratch``: work arrays to use (:data:`~tavli.ai.net.Scratch`; made here
    when none is given or it is too small for the networks)."""
    from tavli.ai.net import Net
    from tavli.engine.board import Position

    def as_ev(net):
        return net if isinstance(net, Evaluator) else Evaluator(net)

    a = as_ev(net_a or net_b or Net.random(rules.game, hidden=2, seed=0))
    b = as_ev(net_b) if net_b is not None else a
    n_in = max(a.n_inputs, b.n_inputs)
    hidden = max(a.hidden, b.hidden)
    if scratch is None or scratch.x.shape[0] < n_in or scratch.h.shape[0] < hidden:
        scratch = make_scratch(n_in, hidden, MAX_STATES, HASH_SIZE)
    res = np.zeros(2 * pairs)
    play_games((kind_a, a.tables), (kind_b, b.tables), pubeval_weights(),
               np.array(Position.start(rules).array), rules.kernel_flags(), pairs,
               (pair_seed_base(seed) + first_pair) % 4294967296, scratch, res)
    return res


#: dice pairs a task of a distributed match (:func:`match_job`)
MATCH_BLOCK = 100


def _match_setup(a, kind_a: int, b, kind_b: int, rules):
    sizes = [e for e in (a, b) if e is not None and hasattr(e, "n_inputs")]
    n_in = max([e.n_inputs for e in sizes], default=1)
    hidden = max([e.hidden for e in sizes], default=1)
    return a, kind_a, b, kind_b, rules, make_scratch(n_in, hidden, MAX_STATES, HASH_SIZE)


def _match_block(state, task: tuple[int, int, int]) -> tuple[int, np.ndarray]:
    a, kind_a, b, kind_b, rules, scratch = state
    seed, first, n = task
    return first, compiled_match(a, kind_a, b, kind_b, rules, n, seed, scratch, first)


def match_job(a, kind_a: int, b, kind_b: int, rules, pairs: int, seed: int, compute=None,
              progress=None) -> np.ndarray:
    """:func:`compiled_match` as a job of blocks of :data:`MATCH_BLOCK` pairs run where
    ``compute`` (:class:`tavli.compute.Compute`) says: the same points wherever it runs.
    ``progress(pairs_done)`` is told as blocks finish."""
    compute = compute or Compute()
    a, b = (Evaluator(n) if n is not None and not isinstance(n, Evaluator) else n
            for n in (a, b))
    blocks = [(seed, k, min(MATCH_BLOCK, pairs - k)) for k in range(0, pairs, MATCH_BLOCK)]
    res = np.zeros(2 * pairs)
    if not blocks:
        return res
    # the first block here: a cold cache compiles once, in this process, and the workers
    # load the kernels instead of compiling each
    state = _match_setup(a, kind_a, b, kind_b, rules)
    first, pts = _match_block(state, blocks[0])
    res[:len(pts)] = pts
    done = blocks[0][2]
    if progress is not None:
        progress(done)
    with open_pool(compute, _match_setup, (a, kind_a, b, kind_b, rules)) as pool:
        for first, pts in pool.map(_match_block, blocks[1:]):
            res[2 * first:2 * first + len(pts)] = pts
            done += len(pts) // 2
            if progress is not None:
                progress(done)
    return res


PAIR_STRIDE = 1_000_003


def pair_seed_base(seed: int) -> int:
    """The random seed of the first dice sequence of a duplicate-dice match with ``seed``;
    pair ``k`` uses this plus ``k``. Seeds are ``PAIR_STRIDE`` sequences apart, so matches
    of different seeds share no dice below a million pairs (seed 1 starts at 1, as it always
    did: its published figures replay).

    >>> pair_seed_base(1), pair_seed_base(2)
    (1, 1000004)
    """
    return ((seed - 1) * PAIR_STRIDE + 1) % 4294967296
