"""Provably fair dice: the commitment, the rolls from both seeds (all 36 equally likely),
and `tavli verify`: a finished game's record verifies, and tampering with any die, seed or
the commitment is detected, one line per problem."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from tavli import cli
from tavli.errors import DiceProofError, RecordError, WrongState
from tavli.online.fairdice import (
    FairDice,
    check_client_seed,
    commitment,
    new_server_seed,
    proof,
    roll_pair,
    verify_record,
)
from tavli.play.game import Game
from tavli.play.record import game_record

SEEDS = {"white": "white-seed-123", "black": "black-seed-456"}


def _finished(seed: str | None = None) -> dict:
    """The record of a finished Portes game played with fair dice (random legal moves)."""
    import random

    seed = seed or new_server_seed()
    dice = FairDice(seed, SEEDS)
    g = Game("portes", dice=dice)
    rng = random.Random(5)
    while not g.is_over:
        g.roll()
        g.play(rng.choice(g.legal_moves()) if g.legal_moves() else None)
    rec = game_record(g)
    rec["fair_dice"] = dice.proof(reveal=True)
    return rec


@pytest.fixture(scope="module")
def record():
    return _finished()


def test_rolls_are_uniform_and_depend_on_every_seed():
    seed = "ab" * 32
    counts = Counter(roll_pair(seed, SEEDS, n) for n in range(36 * 500))
    assert len(counts) == 36
    chi2 = sum((c - 500) ** 2 / 500 for c in counts.values())
    assert chi2 < 80  # 35 degrees of freedom: p < 1e-4 above about 74
    base = [roll_pair(seed, SEEDS, n) for n in range(40)]
    assert base == [roll_pair(seed, dict(SEEDS), n) for n in range(40)]  # deterministic
    for other in (("cd" * 32, SEEDS), (seed, {**SEEDS, "white": "white-seed-124"}),
                  (seed, {**SEEDS, "black": "black-seed-457"}),
                  (seed, {"white": SEEDS["black"], "black": SEEDS["white"]})):
        assert [roll_pair(*other, n) for n in range(40)] != base


def test_the_commitment_is_the_hash_of_the_seed():
    import hashlib

    seed = new_server_seed()
    assert len(seed) == 64 and commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    with pytest.raises(DiceProofError):
        commitment("not hex")


def test_client_seeds_must_be_in_before_the_first_die_and_not_after():
    dice = FairDice(new_server_seed(), {"white": SEEDS["white"]})
    with pytest.raises(WrongState, match="black's seed"):
        dice.die()
    dice.set_client_seed("black", SEEDS["black"])
    dice.die()
    with pytest.raises(WrongState):
        dice.set_client_seed("white", "another-seed-1")
    for bad in ("short", "x" * 129, "has space in it", 12345678, None):
        with pytest.raises(DiceProofError):
            check_client_seed(bad)


def test_a_finished_game_verifies(record, tmp_path, capsys):
    rolls, problems = verify_record(record)
    assert problems == [] and rolls >= 20
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert cli.main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out == f"{path}: the dice verify: {rolls} rolls from the committed server seed " \
                  "and both client seeds\n"


def _tampered(record, change):
    rec = copy.deepcopy(record)
    change(rec)
    return verify_record(rec)[1]


def test_tampering_with_any_die_is_detected(record):
    events = record["games"][0]["events"]
    picked = [*range(6), *range(len(events) - 3, len(events))]  # the opening, the end
    for k, ev in ((k, events[k]) for k in picked):
        for i in (0, 1):
            def change(rec, k=k, i=i):
                ev = rec["games"][0]["events"][k]
                key = "opening" if "opening" in ev else "dice"
                ev[key][i] = ev[key][i] % 6 + 1
            problems = _tampered(record, change)
            assert problems, (k, i, ev)
            assert any("roll" in p and "the seeds give" in p for p in problems)


def test_swapping_the_dice_of_a_roll_is_detected(record):
    ev = next(k for k, e in enumerate(record["games"][0]["events"])
              if "dice" in e and e["dice"][0] != e["dice"][1] and k > 0)

    def change(rec):
        rec["games"][0]["events"][ev]["dice"].reverse()
    assert _tampered(record, change)


def test_tampering_with_a_seed_or_the_commitment_is_detected(record):
    def server(rec):
        s = rec["fair_dice"]["server_seed"]
        rec["fair_dice"]["server_seed"] = ("0" if s[0] != "0" else "1") + s[1:]
    problems = _tampered(record, server)
    assert problems[0].startswith("the server seed does not match the commitment")
    assert len(problems) > 1  # and the dice differ

    def client(rec):
        rec["fair_dice"]["client_seeds"]["black"] += "x"
    problems = _tampered(record, client)
    assert problems and all(p.startswith(("roll ", "… and")) for p in problems)

    other = commitment(new_server_seed())

    def commit(rec):
        rec["fair_dice"]["commitment"] = other
    problems = _tampered(record, commit)
    assert len(problems) == 1 and "does not match the commitment" in problems[0]


def test_an_unfinished_game_has_nothing_to_verify():
    rec = game_record(Game("portes"))
    rec["fair_dice"] = proof(commitment("00" * 32), SEEDS, None)
    assert verify_record(rec) == (0, ["the server seed is not revealed: the game is not over"])


def test_problems_are_one_line_each_with_status_1(record, tmp_path, capsys):
    rec = copy.deepcopy(record)
    rec["fair_dice"]["client_seeds"]["white"] = "someone-elses-seed"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    assert cli.main(["verify", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(line.startswith(f"{path}: ") for line in lines)
    assert len(lines) <= 21


@pytest.mark.parametrize("content, message", [
    ("{not json", "is not valid JSON"),
    ('{"format": "tavli-record", "version": 1, "games": [{}]}', "no fair_dice proof"),
    ('{"fair_dice": {"scheme": "tavli-hmac-sha256/1", "commitment": "xyz"}}',
     "commitment must be 64"),
    ('{"fair_dice": {"scheme": "dice-by-hand"}}', "unknown scheme"),
    ('[1, 2]', "no fair_dice proof"),
])
def test_a_corrupted_record_is_one_line_with_status_2(content, message, tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text(content)
    assert cli.main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tavli: error: ") and message in err and err.count("\n") == 1


def test_a_missing_file_is_one_line(tmp_path, capsys):
    assert cli.main(["verify", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_record_that_does_not_replay_says_so(record):
    def change(rec):
        rec["games"][0]["events"][3]["move"] = "24/off"
    problems = _tampered(record, change)
    assert any(p.startswith("the record does not replay: game 1, event 4") for p in problems)
    with pytest.raises(RecordError):
        verify_record({"fair_dice": "nope"})
