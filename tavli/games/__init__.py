"""One module per game: its start position, its checker-play rules, its scoring.

The compiled rule predicates (``@njit``) live here next to the prose rules they implement;
:mod:`tavli.movegen` combines them into the one legal-turn generator.
"""
