"""Play: games, matches and their records, above the engine.

A :mod:`game` strings turns of the engine's positions together (opening roll, dice,
cube, resignations, the end and its points); a :mod:`match` strings games; the
:mod:`history` is a game's typed actions; :mod:`record` is the JSON record; :mod:`formats`
reads and writes other programs' files (gnubg .mat/.sgf, XGID, Match ID); :mod:`players`
the simple bots; :mod:`cube` the cube's state and match equity; :mod:`dama` Dama's games
and PDN. Formats import games and matches, never the other way round.
"""
