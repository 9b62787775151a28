"""Interfaces for researchers: every game as a reinforcement-learning environment
(docs/research.md). The runtime never imports this package; the wrappers need the extra
``tavli[rl]``.

* :mod:`tavli.rl.games` — :func:`~tavli.rl.games.make_state`, a game's state by name;
  :mod:`tavli.rl.base` the protocol every state keeps; :mod:`tavli.rl.state` (the games
  with dice) and :mod:`tavli.rl.dama` (Dama) the states; :mod:`tavli.rl.actions` the
  action space of the games with dice (one code per whole turn);
* :mod:`tavli.rl.pettingzoo`, :mod:`tavli.rl.gym`, :mod:`tavli.rl.openspiel` — the
  wrappers (with the extra); :mod:`tavli.rl.vector` many games stepped in one call;
* :mod:`tavli.rl.policies` — the baselines; :mod:`tavli.rl.selfplay` — experience on
  training's jobs (here, local processes, Ray).
"""
