"""Online play's foundations (docs/server.md): the store of online games (games, seats,
the ordered log of accepted actions, the dice commitment and seeds) with its SQLite and
PostgreSQL backends and schema migrations, the provably fair dice, and the service that
checks every action with the engine and commits it before it is acknowledged.

Nothing here imports a database driver or NumPy until it is used: ``tavli --help`` and
``tavli verify`` stay light.
"""
