"""Dama's engine: the board and its moves (:mod:`board`, :mod:`movegen`), the rule sets."""
