"""OpenSpiel games: every game of :data:`tavli.rl.games.GAMES` as a Python game of ``pyspiel``.

:func:`register` registers them all with ``pyspiel.register_game`` (once; ``import tavli``
never does), so OpenSpiel's algorithms, bots and tests load them by name:
``tavli_portes``, ``tavli_plakoto``, ``tavli_fevga``, ``tavli_backgammon``,
``tavli_backgammon_nocube`` and Dama's rule sets as ``tavli_dama_<rule set>``
(:func:`short_name`). :func:`load` registers and loads in one call.

What OpenSpiel sees of a game (read from its :class:`tavli.rl.base.GameState`, made by
:func:`tavli.rl.games.make_state` with ``chance=True``):

* **actions**: the state's codes (``num_distinct_actions`` = ``state.num_actions``; for the
  games with dice the whole-turn codes of :mod:`tavli.rl.actions`, 24,430);
* **chance**: the games with dice are ``EXPLICIT_STOCHASTIC``; a throw of two dice ``(a, b)``
  is the chance action ``6 * (a - 1) + (b - 1)`` (:func:`dice_action`), so
  ``max_chance_outcomes`` is 36 (as OpenSpiel's own backgammon). The opening throw is
  white's die then black's (30 outcomes, never a tie); a roll is ``a <= b`` (21 outcomes).
  Dama has no chance node: ``DETERMINISTIC``, ``max_chance_outcomes`` 0;
* **returns**: the game points won (cube, gammons, backgammons included), zero-sum, at the
  end only; the utility's bounds are the most one game can win (:func:`max_points`);
* **length**: a game stops as a draw after ``max_game_length`` decisions (turns and cube
  actions; chance nodes do not count), a parameter (default :data:`MAX_GAME_LENGTH`):
  dice games have no bound of their own (OpenSpiel's backgammon caps its games at 500 turns).
  Random play ends long before: at most 270 decisions in 300 games of Portes;
* **observations**: ``observation_tensor(player)`` is the state's
  ``observation(player)`` (the networks' encoder, the raw board, dice, cube, phase), its
  string the position as :func:`state_text` writes it. The games are of perfect
  information: the information state string is the history of actions, and there is no
  information state tensor (the observation is the state).

Parameters of each game: its rule options (booleans and strings, as
:mod:`tavli.engine.options` documents them; ``backgammon-nocube`` has no ``cube``, and
backgammon's ``crawford`` and ``beavers`` are left out: these are single money games
without beavers), and ``max_game_length``.

>>> game = load("portes")
>>> game.get_type().short_name, game.num_distinct_actions(), game.max_chance_outcomes()
('tavli_portes', 24430, 36)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 30)
>>> state.apply_action(dice_action((6, 1)))   # white throws 6, black 1: white starts
>>> state.apply_action(dice_action((4, 5)))   # and throws 4-5 for his first turn
>>> state.current_player(), state.action_to_string(state.legal_actions()[0])
(0, '8/3 6/2')
>>> print(str(state).splitlines()[0])
portes  white (X) to play 4-5
>>> load("backgammon", cube=False).max_utility(), load("backgammon").max_utility()
(3.0, 192.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as missing:  # the optional extra
    raise ImportError("the OpenSpiel games need OpenSpiel: pip install tavli[rl]") from missing

from tavli.engine.board import Position
from tavli.engine.games import find_game
from tavli.engine.layout import SIDE_NAMES
from tavli.errors import IllegalMove, OptionError
from tavli.rl.base import CHANCE, TERMINAL, GameState
from tavli.rl.games import GAMES, make_state
from tavli.rl.state import ANSWER, CUBE, DICE, MAX_CUBE, MOVE, TurnState

#: decisions after which a game stops as a draw, unless the parameter says otherwise
MAX_GAME_LENGTH = 1000
#: rule options a :class:`TurnState` does not play (single money games, no beavers)
UNPLAYED_OPTIONS = ("crawford", "beavers")
PREFIX = "tavli_"


def short_name(name: str) -> str:
    """OpenSpiel's name of the game ``name`` of :data:`GAMES`.

    >>> short_name("backgammon-nocube")
    'tavli_backgammon_nocube'
    """
    game = GAMES[name][0]
    slug = name.replace("-", "_")
    if not find_game(game).dice and not slug.startswith("dama"):
        slug = "dama_" + slug
    return PREFIX + slug


#: the throw of each chance action, and the action of each throw (see :func:`dice_action`)
THROWS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
THROW_ACTIONS = {dice: action for action, dice in enumerate(THROWS)}
#: chance actions: one per ordered pair of dice
DICE_OUTCOMES = len(THROWS)


def dice_action(dice: tuple[int, int]) -> int:
    """The chance action of a throw ``(a, b)``: ``6 * (a - 1) + (b - 1)``.

    >>> dice_action((1, 1)), dice_action((6, 1)), dice_action((6, 6))
    (0, 30, 35)
    """
    return THROW_ACTIONS[int(dice[0]), int(dice[1])]


def max_points(state: GameState) -> int:
    """The most game points one game of ``state``'s rules can win: a backgammon (3, when
    they count) or a gammon or mother (2), times the cube's highest value; a game of Dama
    is worth one point."""
    if not isinstance(state, TurnState):
        return 1
    return (3 if state.rules.backgammons else 2) * (MAX_CUBE if state.cube_on else 1)


def parameters(name: str) -> dict[str, Any]:
    """The parameters of the game ``name`` with their defaults: the rule options its state
    plays (those :data:`GAMES` does not fix) and ``max_game_length``."""
    game, fixed = GAMES[name]
    rules = {option: value for option, value in find_game(game).options.items()
             if option not in fixed and option not in UNPLAYED_OPTIONS}
    return {**rules, "max_game_length": MAX_GAME_LENGTH}


def game_type(name: str) -> pyspiel.GameType:
    """The ``pyspiel.GameType`` of the game ``name`` of :data:`GAMES`."""
    opening = make_state(name, chance=True)
    stochastic = opening.player == CHANCE
    modes = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Tavli {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=modes.EXPLICIT_STOCHASTIC if stochastic else modes.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(name),
    )


#: the games registered, by short name: a subclass of :class:`TavliGame` each
CLASSES: dict[str, type[TavliGame]] = {}


def register() -> list[str]:
    """Register every game of :data:`GAMES` with ``pyspiel`` (those not registered yet);
    the short names of all of them."""
    known = set(pyspiel.registered_names())
    for name in GAMES:
        short = short_name(name)
        if short in known:
            continue
        # a class, as OpenSpiel's own Python games: pyspiel's registry outlives the
        # interpreter, and a class (unlike a closure) is never freed by its last reference
        CLASSES[short] = type(f"TavliGame_{short}", (TavliGame,),
                              {"game_name": name, "game_kind": game_type(name)})
        pyspiel.register_game(CLASSES[short].game_kind, CLASSES[short])
    return [short_name(name) for name in GAMES]


def load(name: str, **params: Any) -> pyspiel.Game:
    """The game ``name`` (of :data:`GAMES`, or its short name) with ``params``, registered
    first if need be."""
    register()
    short = name if name in CLASSES else short_name(name) if name in GAMES else None
    if short is None:
        raise OptionError(f"unknown game {name!r}: expected one of {', '.join(GAMES)} "
                          f"or {', '.join(CLASSES)}")
    return pyspiel.load_game(short, params)


class TavliGame(pyspiel.Game):
    """A game of :data:`GAMES` with the parameters ``params`` (rule options and
    ``max_game_length``): :func:`register` makes a subclass per game, which says which
    (``game_name``) and holds its ``pyspiel.GameType`` (``game_kind``)."""

    game_name: str
    game_kind: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.game_name
        params = {**parameters(name), **(params or {})}
        rules = {k: v for k, v in params.items() if k != "max_game_length"}
        self.max_length = int(params["max_game_length"])
        if self.max_length < 1:
            raise OptionError(f"max_game_length must be positive, not {self.max_length}")
        self.opening = make_state(name, chance=True, **rules)
        stochastic = self.game_kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
        most = float(max_points(self.opening))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.opening.num_actions,
            max_chance_outcomes=DICE_OUTCOMES if stochastic else 0,
            num_players=2,
            min_utility=-most,
            max_utility=most,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(self.game_kind, info, params)

    def new_initial_state(self) -> TavliState:
        return TavliState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observation (:class:`Observer`), or for the information state (perfect
        recall) the history of actions."""
        if iig_obs_type is None or (iig_obs_type.public_info
                                    and not iig_obs_type.perfect_recall):
            return Observer(self.opening.observation_size, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class Kept:
    """A game state held by a :class:`TavliState`: OpenSpiel clones a Python state by
    deep-copying its attributes, and the state's own :meth:`~GameState.clone` is the fast
    copy."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict) -> Kept:
        return Kept(self.state.clone())


class TavliState(pyspiel.State):
    """A game of :class:`TavliGame` as OpenSpiel plays it."""

    def __init__(self, game: TavliGame) -> None:
        super().__init__(game)
        self.kept = Kept(game.opening.clone())
        self.decisions = 0
        self.max_length = game.max_length

    @property
    def game_state(self) -> GameState:
        """The :class:`~tavli.rl.base.GameState` underneath."""
        return self.kept.state

    def current_player(self) -> int:
        if self.decisions >= self.max_length:  # stopped as a draw
            return pyspiel.PlayerId.TERMINAL
        player = self.kept.state.player
        if player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return player

    def is_terminal(self) -> bool:
        return self.decisions >= self.max_length or self.kept.state.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        return self.kept.state.legal_actions().tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(THROW_ACTIONS[dice], p) for dice, p in self.kept.state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        state = self.kept.state
        if self.decisions >= self.max_length:
            raise IllegalMove(f"the game is over: stopped as a draw after {self.decisions} "
                              "decisions")
        if state.player == CHANCE:
            throws = dict(state.chance_outcomes())
            dice = THROWS[action] if 0 <= action < DICE_OUTCOMES else None
            if dice not in throws:
                raise IllegalMove(f"chance action {action} is not one of the "
                                  f"{len(throws)} throws here")
            state.throw(dice)
        else:
            state.step(action)
            self.decisions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < DICE_OUTCOMES:
                raise IllegalMove(f"{action} is not a chance action (0..{DICE_OUTCOMES - 1})")
            return "throw {}-{}".format(*THROWS[action])
        state = self.kept.state
        if not 0 <= action < state.num_actions:
            raise IllegalMove(f"{action} is not an action code (0..{state.num_actions - 1})")
        try:
            return state.action_to_string(action)
        except ValueError:  # a turn's code read when its dice are not on the table
            return f"turn {action}"

    def returns(self) -> list[float]:
        state = self.kept.state
        if not state.is_terminal():  # still going on, or stopped as a draw
            return [0.0, 0.0]
        return [float(r) for r in state.returns()]

    def __str__(self) -> str:
        text = state_text(self.kept.state)
        if self.decisions >= self.max_length and not self.kept.state.is_terminal():
            text += f"\nstopped as a draw after {self.decisions} decisions"
        return text


class Observer:
    """What a player sees (OpenSpiel's PyObserver interface): ``tensor`` the state's
    ``observation(player)``, the string :func:`state_text`."""

    def __init__(self, size: int, params: dict | None = None) -> None:
        if params:
            raise OptionError(f"observation parameters are not supported: {params}")
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TavliState, player: int) -> None:
        self.tensor[:] = state.game_state.observation(player)

    def string_from(self, state: TavliState, player: int) -> str:
        return str(state)


def state_text(state: GameState) -> str:
    """A state in words: for the games with dice the board (:func:`tavli.engine.render`)
    under a line saying what happens next (the throw, the turn, the cube); otherwise the
    state's own ``str``."""
    if not isinstance(state, TurnState):
        return str(state)
    turn = 0 if state.opening else state.turn
    board = str(Position(state.rules.game, state.board_array(), turn)).splitlines()[1:]
    cube = f", cube {state.cube}" if state.cube_on else ""
    if state.cube_owner >= 0:
        cube += f" ({SIDE_NAMES[state.cube_owner]}'s)"
    return "\n".join([f"{state.rules.game_name}  {_next(state)}{cube}", *board])


def _next(state: TurnState) -> str:
    """What the game waits for."""
    if state.opening:
        return "opening throw"
    side, other = (f"{SIDE_NAMES[s]} ({'XO'[s]})" for s in (state.turn, 1 - state.turn))
    if state.phase == DICE:
        return f"{side} to throw"
    if state.phase == MOVE:
        return f"{side} to play {state.dice[0]}-{state.dice[1]}"
    if state.phase == CUBE:
        return f"{side} to roll or double"
    if state.phase == ANSWER:
        return f"{other} to take or drop"
    if state.winner < 0:
        return "over: a draw"
    return f"over: {SIDE_NAMES[state.winner]} wins {state.points} ({state.kind})"


__all__ = ["register", "load", "TavliGame", "TavliState", "Observer", "short_name",
           "dice_action", "THROWS", "max_points", "state_text"]
