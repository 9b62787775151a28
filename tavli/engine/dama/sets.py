"""Dama's rule sets by name (no NumPy: the command line's help reads them): the
registry's variants of the game ``dama`` (:mod:`tavli.engine.games.dama`)."""

from tavli.engine.games import games

#: the rule sets' names, the default (the game box's rules) first
RULE_SETS = tuple(v.name for v in games()["dama"])
#: the rule set of the game box, played when none is named
DEFAULT_RULE_SET = RULE_SETS[0]
