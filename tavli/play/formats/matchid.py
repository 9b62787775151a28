"""gnubg's Match ID: the state of a match around a position, in 12 base64 characters.

The Match ID of a game or a match (:func:`state_of` reads its :class:`MatchState`);
the 67 bits and their codec are :mod:`tavli.engine.matchid`'s. gnubg's player 0 (O) is
tavli's black, player 1 (X) tavli's white.

>>> from tavli.play.game import Game
>>> g = Game("backgammon", seed=1, first=0)
>>> match_id(g)
'cAkAAAAAAAAE'
>>> parse_match_id("cAkAAAAAAAAE").on_roll
0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavli.engine.matchid import (
    GNUBG_PLAYER,
    RESIGNATIONS,
    STATES,
    MatchState,
    encode_match_id,
    parse_match_id,
)

if TYPE_CHECKING:
    from tavli.play.game import Game
    from tavli.play.match import Match

__all__ = ["GNUBG_PLAYER", "RESIGNATIONS", "STATES", "MatchState", "match_id",
           "parse_match_id", "state_of"]


def state_of(obj: Game | Match) -> MatchState:
    """The :class:`MatchState` of a game (money play: length 0) or of a match's current
    game."""
    from tavli.play.match import Match

    if isinstance(obj, Match):
        g, length = obj.game, obj.target
        score = obj.score
        if g.outcome is not None and g.outcome.winner is not None:  # before this game
            s = list(score)
            s[g.outcome.winner] -= g.outcome.points
            score = (s[0], s[1])
    else:
        g, length, score = obj, 0, (0, 0)
    state = "playing"
    resign = None
    if g.outcome is not None:
        state = {"drop": "dropped", "resign": "resigned"}.get(g.outcome.kind, "over")
        if state == "resigned":
            last = g.history[-1]
            resign = getattr(last, "value", None)
    return MatchState(
        cube_value=g.cube_value, cube_owner=g.cube_owner, on_roll=g.position.turn,
        crawford=g.crawford, state=state, turn=g.turn if g.outcome is None else
        g.position.turn, double_offered=g.phase == "double", resignation=resign,
        dice=tuple(g.dice) if g.phase == "move" and g.dice else None,  # type: ignore[arg-type]
        length=length, score=score,
        jacoby=bool(g.rules.jacoby) and not g.match_play)  # Jacoby is a money-play rule


def match_id(obj: Game | Match | MatchState) -> str:
    """gnubg's Match ID of a game, a match (its current game) or a :class:`MatchState`."""
    return encode_match_id(obj if isinstance(obj, MatchState) else state_of(obj))
