"""The OpenSpiel games (tavli.rl.openspiel): OpenSpiel's own random-simulation test on every
game, its MCTS bot playing Portes, chance, returns, serialization, bad input."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.bots import uniform_random

from tavli.errors import IllegalMove, OptionError
from tavli.rl import openspiel
from tavli.rl.games import GAMES, make_state
from tavli.rl.openspiel import THROWS, dice_action, load, register

SHORT_NAMES = register()


@pytest.mark.parametrize("short", SHORT_NAMES)
def test_random_simulation_passes_for_every_game(short):
    game = pyspiel.load_game(short)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    stochastic = make_state(openspiel.CLASSES[short].game_name, chance=True).player == -1
    modes = pyspiel.GameType.ChanceMode
    assert game.get_type().chance_mode == (modes.EXPLICIT_STOCHASTIC if stochastic
                                           else modes.DETERMINISTIC)


def test_one_game_per_name_and_registering_twice_changes_nothing():
    assert SHORT_NAMES == [openspiel.short_name(name) for name in GAMES]
    assert "tavli_backgammon_nocube" in SHORT_NAMES
    assert register() == SHORT_NAMES
    assert set(SHORT_NAMES) <= set(pyspiel.registered_names())
    game = load("fevga", prime_rule="forbid")
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert "prime_rule=forbid" in str(game)


def test_utility_bounds_are_the_most_a_game_can_win():
    assert load("backgammon").max_utility() == 3 * 64
    assert load("backgammon-nocube").min_utility() == -3
    assert load("portes").max_utility() == 2
    assert load("portes", backgammons=True).max_utility() == 3
    assert "cube" not in load("backgammon-nocube").get_type().parameter_specification
    assert "beavers" not in load("backgammon").get_type().parameter_specification


def _random_action(state, rng):
    """A throw by its probability at a chance node, else a legal action."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return int(rng.choice([a for a, _ in outcomes], p=[p for _, p in outcomes]))
    return int(rng.choice(state.legal_actions()))


def _play_randomly(state, rng, until=None):
    while not state.is_terminal() and (until is None or not until(state)):
        state.apply_action(_random_action(state, rng))


def test_chance_outcomes_are_the_throws_and_sum_to_one():
    game = load("portes")
    state = game.new_initial_state()
    opening = state.chance_outcomes()
    assert len(opening) == 30 and sum(p for _, p in opening) == pytest.approx(1)
    assert all(0 <= a < game.max_chance_outcomes() == 36 for a, _ in opening)
    assert dice_action((3, 3)) not in dict(opening)  # no tie at the opening
    state.apply_action(dice_action((2, 5)))  # black's die is higher: black starts
    rolls = state.chance_outcomes()
    assert len(rolls) == 21 and sum(p for _, p in rolls) == pytest.approx(1)
    assert dict(rolls)[dice_action((5, 5))] == pytest.approx(1 / 36)
    assert dict(rolls)[dice_action((1, 6))] == pytest.approx(2 / 36)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, dice_action((1, 6))) == "throw 1-6"
    state.apply_action(dice_action((1, 6)))
    assert state.current_player() == 1
    assert str(state).splitlines()[0] == "portes  black (O) to play 1-6"


def test_returns_and_observations_are_the_game_states():
    rng = np.random.default_rng(3)
    game = load("backgammon")
    state = game.new_initial_state()
    mirror = make_state("backgammon", chance=True)
    while not state.is_terminal():
        action = _random_action(state, rng)
        if state.is_chance_node():
            mirror.throw(THROWS[action])
        else:
            assert state.legal_actions() == mirror.legal_actions().tolist()
            for side in (0, 1):
                assert np.array_equal(state.observation_tensor(side), mirror.observation(side))
            mirror.step(action)
        state.apply_action(action)
    assert mirror.is_terminal()
    assert state.returns() == list(mirror.returns()) != [0, 0]
    assert "wins" in str(state).splitlines()[0]


def test_mcts_bot_plays_a_game_of_portes_against_a_random_bot():
    game = load("portes")
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2, max_simulations=3, evaluator=evaluator,
                         random_state=rng),
            uniform_random.UniformRandomBot(1, rng)]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    assert state.is_terminal()
    assert returns[0] == -returns[1] and abs(returns[0]) in (1, 2)


def test_clone_and_serialization_keep_the_game():
    game = load("plakoto")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    _play_randomly(state, np.random.default_rng(1), until=lambda s: len(s.history()) > 40)
    copy = state.clone()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, restored = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    for other in (copy, restored):
        assert str(other) == str(state) and other.history() == state.history()
    # the copies go on by themselves: the same actions give the same end
    for other in (copy, restored):
        _play_randomly(other, np.random.default_rng(2))
    _play_randomly(state, np.random.default_rng(2))
    assert copy.returns() == restored.returns() == state.returns()
    assert copy.history() == state.history()


def test_a_game_longer_than_max_game_length_stops_as_a_draw():
    game = load("portes", max_game_length=3)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    state = game.new_initial_state()
    _play_randomly(state, np.random.default_rng(0))
    assert state.is_terminal() and state.returns() == [0, 0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert "stopped as a draw after 3 decisions" in str(state)
    with pytest.raises(IllegalMove, match="stopped as a draw"):
        state.apply_action(0)


def test_bad_input_is_refused_and_changes_nothing():
    state = load("portes").new_initial_state()
    with pytest.raises(IllegalMove, match="not one of the 30 throws"):
        state.apply_action(dice_action((4, 4)))  # a tie is no opening throw
    with pytest.raises(IllegalMove):
        state.apply_action(36)
    state.apply_action(dice_action((6, 1)))
    state.apply_action(dice_action((2, 6)))
    before = (str(state), state.history(), state.legal_actions())
    with pytest.raises(IllegalMove, match="not legal here"):
        state.apply_action(24429)
    assert (str(state), state.history(), state.legal_actions()) == before
    with pytest.raises(IllegalMove, match="not an action code"):
        state.action_to_string(0, 10 ** 6)
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        load("chess")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'cube'"):
        load("portes", cube=True)
    with pytest.raises(OptionError, match="max_game_length"):
        load("portes", max_game_length=0)
