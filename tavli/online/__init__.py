"""Online play (docs/server.md): the provably fair dice, the service that checks every
action with the engine and commits it to the store of online games (games, seats, the
ordered log of accepted actions, the dice commitment and seeds: :mod:`tavli.store`)
before it is acknowledged, and the server (``tavli serve``: the HTTP API and the
WebSocket protocol).

Nothing here imports a database driver or NumPy until it is used: ``tavli --help`` and
``tavli verify`` stay light.
"""
