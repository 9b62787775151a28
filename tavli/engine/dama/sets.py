"""Dama's rule sets by name (no NumPy: the command line's help reads them).

:class:`tavli.engine.dama.rules.DamaRules` is each set's definition; everything that
needs a name, a default or an alias asks here.
"""

RULE_SETS = ("box", "russian", "italian")
#: the rule set of the game box, played when none is named
DEFAULT_RULE_SET = "box"
ALIASES = {"default": "box", "dama": "box", "shashki": "russian", "ru": "russian",
           "it": "italian", "fid": "italian", "damaitaliana": "italian"}
