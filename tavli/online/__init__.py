"""Online play (docs/server.md): the store of online games (games, seats, the ordered log
of accepted actions, the dice commitment and seeds) with its SQLite and PostgreSQL
backends and schema migrations, the provably fair dice, the service that checks every
action with the engine and commits it before it is acknowledged, and the server
(``tavli serve``: the HTTP API and the WebSocket protocol).

Nothing here imports a database driver or NumPy until it is used: ``tavli --help`` and
``tavli verify`` stay light.
"""
