"""The rules engine: everything that defines a game and nothing that plays one.

Positions and moves (:mod:`board`), the variant registry and each game's rules
(:mod:`games`), the rule options (:mod:`rules`), the compiled move generator and turn tree
(:mod:`movegen`, :mod:`steptree`), dice, position IDs, move notation and the text board;
Dama's engine in :mod:`dama`. It imports nothing above it (``tavli.errors`` and
``tavli.i18n`` only), as the import-linter contracts in ``pyproject.toml`` check.
"""
