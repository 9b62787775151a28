"""The networks shipped with the package, one per family (``tavli/data/<family>.npz``,
and ``<family>-race.npz`` where a race network ships), loaded once each.

:func:`tavli.ai.evaluator.shipped_evaluator` puts a family's networks together with the
bear-off databases.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from tavli.ai.encode import family_name
from tavli.ai.net import Net, NetError
from tavli.ai.race import RACE
from tavli.engine.games import find_variant
from tavli.engine.rules import Rules


def shipped_net(game: int | str) -> Net:
    """The trained network shipped with the package for ``game``'s family
    (``tavli/data/<family>.npz``, the variant's :attr:`~tavli.engine.games.Variant.family`;
    loaded once per family)."""
    return family_net(find_variant(game).family)


@functools.cache
def family_net(family: str) -> Net:
    name = f"{family}.npz"
    ref = resources.files("tavli").joinpath("data", name)
    if not ref.is_file():
        raise NetError(f"no trained network for {family} is installed ({name})")
    with resources.as_file(ref) as path:
        return Net.load(path)


def shipped_race_net(game: int | str) -> Net | None:
    """The race network shipped for ``game``'s family (``tavli/data/<family>-race.npz``),
    or None when none is installed (loaded once per family)."""
    return family_race_net(find_variant(game).family)


@functools.cache
def family_race_net(family: str) -> Net | None:
    ref = resources.files("tavli").joinpath("data", f"{family}-race.npz")
    if not ref.is_file():
        return None
    with resources.as_file(ref) as path:
        return Net.load(path)


def has_shipped_net(game: int) -> bool:
    try:
        shipped_net(game)
        return True
    except NetError:
        return False


def engine_name(game: int) -> str:
    """``neural`` when a trained network ships for ``game``, else ``greedy``."""
    return "neural" if has_shipped_net(game) else "greedy"


def training_rules(family: str) -> Rules:
    """The rules a family's network is trained and measured under: its game's
    ``training_game`` (Portes and backgammon share a network trained under backgammon
    rules: gammons and backgammons counted, higher die), else that game's defaults."""
    return Rules.for_game(find_variant(family).training_game or family)


def family_rules(game: str) -> Rules:
    """The rules ``game``'s family's networks are trained and measured under
    (:func:`training_rules`)."""
    return training_rules(find_variant(game).family)


def family_of_net(net: Net) -> str:
    return family_name(net.family)


def load_contact_net(path: str | Path, game: int | str) -> Net:
    """A contact network file (the family's own inputs, not a race network) for ``game``'s
    family; :class:`NetError` if it is not one."""
    net = Net.load(path)
    family = find_variant(game).family
    if net.encoder == RACE:
        raise NetError(f"{path} is a race network: name it with +race:FILE after a "
                       "contact network")
    if family_of_net(net) != family:
        raise NetError(f"{path} is a {family_of_net(net)} network, not {family}")
    return net


def load_race_net(path: str | Path, game: int | str) -> Net:
    """A race network file for ``game``'s family; :class:`NetError` if it is not one."""
    net = Net.load(path)
    family = find_variant(game).family
    if net.encoder != RACE:
        raise NetError(f"{path} is not a race network (its inputs are not 'race')")
    if family_of_net(net) != family:
        raise NetError(f"{path} is a {family_of_net(net)} race network, not {family}")
    return net
