"""Training the networks: self-play TD, labels, fits, distillation, supervised rounds.

Imports the runtime (engine, play, ai) and is never imported by it: the app and the
players work without this package (the import-linter contracts in ``pyproject.toml``).
"""
