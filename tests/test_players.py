"""Computer players: legality, automatic play, and greedy clearly stronger than random."""

from __future__ import annotations

import pytest

from tavli.errors import RuleError
from tavli.play.game import Game
from tavli.play.players import (
    GreedyPlayer,
    Player,
    RandomPlayer,
    act,
    get_player,
    play_game,
)

GAMES = ("portes", "plakoto", "fevga", "backgammon")


class Checked(Player):
    """Wraps a player and checks that every move it returns is one it was offered."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls = 0

    def choose_move(self, position, dice, moves, rules):
        got = self.inner.choose_move(position, dice, moves, rules)
        self.calls += 1
        if moves:
            assert any(got is m for m in moves), f"{self.name} returned {got!r}"
        else:
            assert got is None
        return got

    def cube_action(self, game):
        return self.inner.cube_action(game)


@pytest.mark.parametrize("game", GAMES)
def test_greedy_beats_random(game):
    n = 60
    wins = 0
    for k in range(n):
        g = Game(game, seed=1000 + k)
        greedy, rnd = GreedyPlayer(), RandomPlayer(seed=k)
        side = k % 2  # greedy plays white in even games, black in odd ones
        out = play_game(g, (greedy, rnd) if side == 0 else (rnd, greedy))
        wins += out.winner == side
    assert wins >= 0.7 * n, f"greedy won only {wins}/{n} {game} games against random"


@pytest.mark.parametrize("game", GAMES)
def test_players_only_play_legal_moves(game):
    for k in range(3):
        a, b = Checked(GreedyPlayer()), Checked(RandomPlayer(seed=k))
        g = Game(game, seed=50 + k)
        out = play_game(g, (a, b) if k % 2 else (b, a))
        assert g.is_over and g.outcome == out
        assert a.calls > 5 and b.calls > 5


@pytest.mark.parametrize("game", GAMES)
def test_play_game_ends_with_an_outcome(game):
    g = Game(game, seed=7)
    seen = []
    out = play_game(g, (RandomPlayer(1), RandomPlayer(2)),
                    on_action=lambda gm, kind, value: seen.append(kind))
    assert out is g.outcome and g.phase == "over"
    assert out.winner in (0, 1, None) and out.points >= 0
    assert seen[0] == "opening" and seen.count("move") + seen.count("pass") == len(g.moves)


def test_random_player_is_reproducible():
    def moves(seed):
        g = Game("portes", seed=3)
        play_game(g, (RandomPlayer(seed), RandomPlayer(seed + 1)))
        return [str(m) for m in g.moves]

    assert moves(4) == moves(4)


def test_get_player():
    assert isinstance(get_player("random", seed=1), RandomPlayer)
    assert isinstance(get_player(" Greedy "), GreedyPlayer)
    with pytest.raises(RuleError, match="unknown player"):
        get_player("gnu")


def test_default_cube_action_never_doubles_always_takes():
    g = Game("backgammon", seed=2, first=0)
    p = RandomPlayer(0)
    assert g.can_double() and p.cube_action(g) == "roll"
    g.double()
    assert p.cube_action(g) == "take"


class Doubler(RandomPlayer):
    def cube_action(self, game):
        return "double" if game.phase == "roll" else "drop"


def test_cube_actions_in_play_game():
    g = Game("backgammon", seed=2, first=0)
    out = play_game(g, (Doubler(0), Doubler(1)))
    assert (out.winner, out.points, out.kind) == (0, 1, "drop")

    g = Game("backgammon", seed=2, first=0)
    kinds = []
    play_game(g, (Doubler(0), RandomPlayer(1)), on_action=lambda gm, k, v: kinds.append(k))
    assert kinds[:2] == ["double", "take"] and g.cube_value >= 2


def test_act_passes_when_no_move_is_possible():
    from tavli.engine.board import Position

    # white on the bar against a closed board cannot enter
    pos = Position.from_points("portes", {25: 1, 6: 14},
                               {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3})
    g = Game("portes", position=pos)
    g.set_dice((6, 5))
    kind, dice = act(g, GreedyPlayer())
    assert (kind, dice) == ("pass", (6, 5)) and g.turn == 1


def test_greedy_prefers_pinning_the_mother_checker():
    from tavli.engine.board import Position

    # Plakoto: black's mother is alone on its 24-point (white's 1); white can pin it
    # with a 1 from his 2-point and win at once (he has left his own 24-point)
    pos = Position.from_points("plakoto", {2: 1, 6: 7, 5: 7},
                               {24: 1, 12: 7, 11: 7}, turn=0)
    moves = pos.legal_moves((1, 3))
    chosen = GreedyPlayer().choose_move(pos, (1, 3), moves, Game("plakoto").rules)
    assert chosen is not None and chosen.after.mother_pinned(1)
