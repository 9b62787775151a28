"""Matches: a Tavli match rotates Portes → Plakoto → Fevga until a player reaches the
target (3, 5 or 7; default 5); a single-variant match plays one game throughout. The
winner of a game starts the next by throwing both dice; after a draw (Plakoto) the next
game opens with the opening throw again. Backgammon matches use the cube with the
Crawford rule.

>>> m = Match(target=3, seed=11)
>>> m.game.rules.game_name
'portes'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tavli.engine.dice import DiceSource
from tavli.engine.games import ROTATIONS, rotation
from tavli.engine.layout import SIDE_NAMES
from tavli.engine.rules import Rules
from tavli.errors import GameOver, RuleError, WrongState
from tavli.play.game import Game

TAVLI_ROTATION = ROTATIONS["tavli"]


class Match:
    """A match to ``target`` points of ``variant`` ("tavli" or a game name).

    ``rules`` maps game names to :class:`Rules` or option mappings for that game.
    """

    def __init__(self, target: int = 5, variant: str = "tavli", *,
                 rules: Mapping[str, Rules | Mapping[str, Any]] | None = None,
                 dice: DiceSource | None = None, seed: int | None = None,
                 opening_each_game: bool = False) -> None:
        if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= 99:
            raise RuleError(f"match target must be 1..99 points, got {target!r}")
        self.target = target
        v = str(variant).strip().lower()
        self.rotation: tuple[str, ...] = rotation(v)
        self.variant = v if v in ROTATIONS else self.rotation[0]
        self.rules: dict[str, Rules] = {}
        if rules is not None and not isinstance(rules, Mapping):
            raise RuleError("match rules must map game names to rule options")
        for name in self.rotation:
            given = (rules or {}).get(name)
            if given is not None and not isinstance(given, Rules | Mapping):
                raise RuleError(f"rules for {name} must be rule options, not {given!r}")
            if isinstance(given, Rules):
                if given.game_name != name:
                    raise RuleError(f"rules for {name} are for {given.game_name}")
                self.rules[name] = given
            else:
                self.rules[name] = Rules.for_game(name, given or {})
        for name in rules or {}:
            if name not in self.rules:
                raise RuleError(f"the match does not play {name}")
        if not isinstance(opening_each_game, bool):
            raise RuleError(f"opening_each_game must be true or false, got "
                            f"{opening_each_game!r}")
        #: every game starts with the opening throw (international backgammon custom, as
        #: gnubg plays) instead of the previous winner throwing both dice
        self.opening_each_game = opening_each_game
        self.dice_source = dice if dice is not None else DiceSource(seed=seed)
        self.seed = seed
        #: the players' names (white, black), as for :attr:`Game.names`
        self.names: tuple[str, str] | None = None
        self.games: list[Game] = []
        self._crawford_done = False
        self._start_game(None)

    # --- progress -----------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game being played (or the last one, once the match is over)."""
        return self.games[-1]

    @property
    def score(self) -> tuple[int, int]:
        """Points won so far by white and by black."""
        s = [0, 0]
        for g in self.games:
            if g.outcome is not None and g.outcome.winner is not None:
                s[g.outcome.winner] += g.outcome.points
        return s[0], s[1]

    @property
    def is_over(self) -> bool:
        """Has a side reached the target?"""
        return max(self.score) >= self.target

    @property
    def winner(self) -> int | None:
        """The side that won the match (None while it goes on)."""
        s = self.score
        if not self.is_over:
            return None
        return 0 if s[0] > s[1] else 1

    def __repr__(self) -> str:
        won = f", winner={SIDE_NAMES[self.winner]!r}" if self.winner is not None else ""
        return (f"Match({self.target}, {self.variant!r}, score={self.score}, "
                f"games={len(self.games)}, playing={self.game.rules.game_name!r}{won})")

    def next_game(self) -> Game:
        """Start the next game once the current one is over (the finished game is then
        sealed: :meth:`Game.undo` refuses in it)."""
        if self.is_over:
            raise GameOver(f"the match is over: {SIDE_NAMES[self.winner or 0]} won "
                           f"{self.score[0]}-{self.score[1]}")
        if not self.game.is_over:
            raise WrongState("the current game is not over")
        out = self.game.outcome
        self.game.sealed = True  # its end now stands: no undo into a decided game
        starter = out.winner if out is not None and not self.opening_each_game else None
        self._start_game(starter)
        return self.game

    def _start_game(self, starter: int | None) -> None:
        name = self.rotation[len(self.games) % len(self.rotation)]
        rules = self.rules[name]
        crawford = False
        if rules.cube and rules.crawford and not self._crawford_done:
            if self.target > 1 and max(self.score) == self.target - 1:
                crawford = True
                self._crawford_done = True
        game = Game(rules, dice=self.dice_source, first=starter, match_play=True,
                    crawford=crawford)
        game.match = self
        self.games.append(game)

    def to_dict(self) -> dict[str, Any]:
        """The match's settings as records store them (target, variant, rules; and
        ``opening_each_game`` when set)."""
        doc: dict[str, Any] = {"target": self.target, "variant": self.variant,
                               "rules": {n: r.options() for n, r in self.rules.items()}}
        if self.opening_each_game:
            doc["opening_each_game"] = True
        return doc
