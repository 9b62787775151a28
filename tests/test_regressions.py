"""Regression tests for engine bugs found while writing the test suite (all fixed): each
test shows the input that once went wrong."""

from __future__ import annotations

import io
import json
import random
import sys

import pytest

from tavli import Position, RecordError
from tavli.cli import main
from tavli.play.match import Match
from tavli.play.record import load_record, match_record


def _match_record():
    m = Match(target=1, seed=2)
    rng = random.Random(2)
    g = m.game
    while not g.is_over:
        g.roll()
        legal = g.legal_moves()
        g.play(rng.choice(legal) if legal else None)
    return match_record(m)


@pytest.mark.parametrize("rules", ["black", [1, 2], {"portes": 5}, {"plakoto": -1}])
def test_malformed_match_rules_raise_record_error(rules):
    # tavli/play/record.py load_record passed md["rules"] straight to Match(); a value that is
    # not a mapping of mappings escaped as AttributeError/TypeError instead of RecordError
    rec = _match_record()
    assert load_record(json.dumps(rec)).is_over          # the record itself is fine
    rec["match"]["rules"] = rules
    with pytest.raises(RecordError):
        load_record(json.dumps(rec))


def test_batch_rejects_stdin_position_and_goes_on(capsys, monkeypatch):
    # docs/cli.md: "POSITION cannot be `-` in batch mode" and one JSON line per input
    # line, processing continues after a bad line. the CLI's _read_position() read the
    # rest of stdin for "-", so the following lines were swallowed.
    lines = "portes start 31\nportes - 31\nfevga start 66\nplakoto start 11\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["moves", "--batch"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(rows) == 4
    assert "moves" in rows[0]
    assert list(rows[1]) == ["error"]
    assert [e["move"] for e in rows[2]["moves"]] == ["24/18"]
    assert [e["move"] for e in rows[3]["moves"]] == [
        str(m) for m in Position.start("plakoto").legal_moves("11")]
