"""The public API: the names the docs use, each class with a useful repr, each public
method with a docstring, every type hint resolvable at run time, ``py.typed`` shipped."""

from __future__ import annotations

import inspect
import subprocess
import sys
import tomllib
import typing
from pathlib import Path

import pytest

import tavli
from tavli.ai.context import MONEY_0PLY

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTED = ("Game", "Match", "play_game", "game_record", "match_record", "load_record",
              "save_record", "load_record_file", "RandomPlayer", "GreedyPlayer",
              "NeuralPlayer", "Analyzer", "rank_moves", "Variant", "find_variant",
              "VARIANTS", "Rules", "Position", "Move", "TavliError")


def _public_functions(obj: object) -> list[tuple[str, typing.Callable[..., object]]]:
    """(name, function) for a public function, or a public class's own methods and
    properties (those its tavli base classes define too)."""
    if not inspect.isclass(obj):
        return [(obj.__name__, obj)] if inspect.isfunction(obj) else []
    found = []
    for cls in obj.__mro__:
        if not cls.__module__.startswith("tavli"):
            continue
        for attr, v in vars(cls).items():
            if attr.startswith("_"):
                continue
            f = (v.fget if isinstance(v, property) else
                 v.__func__ if isinstance(v, staticmethod | classmethod) else v)
            if inspect.isfunction(f):
                found.append((f"{obj.__name__}.{attr}", f))
    return found


def test_the_names_the_docs_use_are_exported():
    assert set(DOCUMENTED) <= set(tavli.__all__)
    for name in tavli.__all__:
        assert getattr(tavli, name) is not None, name
    assert set(tavli.__all__) <= set(dir(tavli))  # lazy names too
    with pytest.raises(AttributeError):
        tavli.NoSuchName  # noqa: B018


def test_import_tavli_stays_light():
    code = "import sys, tavli; print(sorted({'numpy', 'numba'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", tavli.__all__)
def test_docstrings_and_type_hints(name):
    obj = getattr(tavli, name)
    if inspect.isclass(obj) or inspect.isfunction(obj):
        assert inspect.getdoc(obj), f"{name} has no docstring"
    if inspect.isclass(obj):
        typing.get_type_hints(obj)
    for qual, f in _public_functions(obj):
        assert inspect.getdoc(f), f"{qual} has no docstring"
        typing.get_type_hints(f)  # names imported only for type checkers fail here


def _examples() -> dict[str, object]:
    g = tavli.Game("portes", seed=1)
    return {
        "Position": tavli.Position.start("plakoto"),
        "Move": tavli.Position.start("fevga").legal_moves("66")[0],
        "Rules": tavli.Rules("backgammon", jacoby=True),
        "Variant": tavli.find_variant("fevga"),
        "Game": g,
        "Outcome": tavli.play_game(tavli.Game("fevga", seed=2),
                                   (tavli.GreedyPlayer(), tavli.RandomPlayer(seed=3))),
        "Match": tavli.Match(3, seed=1),
        "Player": tavli.Player(),
        "RandomPlayer": tavli.RandomPlayer(seed=1),
        "GreedyPlayer": tavli.GreedyPlayer(),
        "NeuralPlayer": tavli.NeuralPlayer("casual"),
        "LevelPlayer": tavli.LevelPlayer("beginner"),
        "PubevalPlayer": tavli.PubevalPlayer(),
        "Analyzer": tavli.Analyzer(tavli.Rules("plakoto")),
        "Net": tavli.Net.random(0, hidden=4, seed=1),
        "Evaluator": tavli.Evaluator(tavli.Net.random(0, hidden=4, seed=1), bearoff=False),
        "CubeDecision": tavli.cube_decision(tavli.Position.start("backgammon"),
                                            ctx=MONEY_0PLY),
        "CubeInfo": tavli.CubeInfo(cube=2, owner=tavli.Owner.ME, length=7, away=(3, 5)),
        "Owner": tavli.Owner.OPPONENT,
    }


def test_every_public_class_has_a_useful_repr():
    examples = _examples()
    classes = {n for n in tavli.__all__ if inspect.isclass(getattr(tavli, n))
               and not issubclass(getattr(tavli, n), BaseException)}
    assert classes == set(examples)
    for name, obj in examples.items():
        assert isinstance(obj, getattr(tavli, name))
        assert " object at 0x" not in repr(obj), name
    assert repr(examples["Rules"]) == "Rules('backgammon', jacoby=True)"
    assert repr(examples["Move"]) == "Move('24/18')"
    assert repr(examples["Net"]) == "Net('portes', hidden=4, games=0)"
    assert repr(examples["Match"]) == ("Match(3, 'tavli', score=(0, 0), games=1, "
                                       "playing='portes')")
    assert repr(examples["NeuralPlayer"]) == "NeuralPlayer(level='casual')"
    assert repr(examples["Analyzer"]).startswith("Analyzer(Rules('plakoto'), "
                                                 "Evaluator(Net('plakoto'")
    assert repr(examples["CubeDecision"]).startswith("CubeDecision(nd=")
    assert repr(examples["CubeInfo"]).startswith("CubeInfo(cube=2, owner=<Owner.ME: 0>, "
                                                 "length=7, away=(3, 5)")
    assert repr(examples["Evaluator"]) == ("Evaluator(Net('portes', hidden=4, games=0), "
                                           "race=None, bearoff=False)")


def test_cube_info_from_a_match_game_resolves_its_hints():
    hints = typing.get_type_hints(tavli.CubeInfo.from_game)
    assert {"game", "match", "side", "met", "return"} <= set(hints)
    m = tavli.Match(5, "backgammon", seed=3)
    ci = tavli.CubeInfo.from_game(m.game, m)
    assert (ci.length, ci.away, ci.owner) == (5, (5, 5), tavli.Owner.CENTRED)


def test_game_repr_shows_rules_phase_turn_dice_and_position():
    g = tavli.Game("portes", seed=1)
    assert repr(g) == f"Game('portes', phase='opening', turn='white', position='{g.position.id()}')"
    dice = g.roll()
    assert repr(g) == (f"Game('portes', phase='move', turn='{('white', 'black')[g.turn]}', "
                       f"dice={dice}, position='{g.position.id()}')")
    b = tavli.Game(tavli.Rules("backgammon", cube=False), seed=1)
    assert repr(b).startswith("Game(Rules('backgammon', cube=False), phase='opening'")
    tavli.play_game(b, (tavli.GreedyPlayer(), tavli.GreedyPlayer()))
    assert repr(b).endswith(f", outcome='{b.outcome}')")


def test_rules_repr_round_trips_and_shows_only_what_differs():
    assert tavli.Rules("backgammon") == tavli.Rules.for_game("backgammon")
    assert repr(tavli.Rules("backgammon")) == "Rules('backgammon')"
    assert repr(tavli.Rules("tapa")) == "Rules('plakoto')"
    for r in (tavli.Rules("fevga", prime_rule="off", must_play_higher=False),
              tavli.Rules.for_game("backgammon", ["beavers=yes", "cube=true"])):
        assert eval(repr(r), {"Rules": tavli.Rules}) == r
    assert repr(tavli.Rules("fevga", prime_rule="off", must_play_higher=False)) == (
        "Rules('fevga', must_play_higher=False, prime_rule='off')")


def test_py_typed_ships_with_the_package():
    assert (ROOT / "tavli" / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["tavli"]
