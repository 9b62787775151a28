"""One error family: what a user can cause is a ``TavliError`` (one line, exit status 2);
anything else is a bug, and the command line lets its traceback show."""

from __future__ import annotations

import inspect
import io
import json

import pytest

import tavli
from tavli import cli, errors
from tavli.cli import dama as dama_cli
from tavli.cli import positions
from tavli.errors import CliError, OptionError, TavliError
from tavli.play.dama.game import DamaGame
from tavli.play.dama.pdn import write_pdn


def test_every_error_class_of_errors_py_is_a_tavli_error_and_exported():
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass)
               if issubclass(c, Exception) and c.__module__ == errors.__name__]
    assert len(classes) >= 10
    for c in classes:
        assert issubclass(c, TavliError), c
        assert getattr(tavli, c.__name__) is c and c.__name__ in tavli.__all__


def test_no_error_of_the_tavli_family_is_defined_outside_errors_py():
    """Every user-facing error is a TavliError, and every TavliError lives in errors.py."""
    import ast
    from pathlib import Path

    family = {c.__name__ for _, c in inspect.getmembers(errors, inspect.isclass)
              if issubclass(c, TavliError)}
    root = Path(tavli.__file__).parent
    found = []
    for path in root.rglob("*.py"):
        if path.name == "errors.py" and path.parent == root:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                if bases & family:
                    found.append(f"{path.relative_to(root)}: {node.name}")
    assert found == []


def test_cli_error_lives_in_errors_and_keeps_its_old_import_path():
    assert issubclass(CliError, TavliError)
    assert cli.CliError is CliError  # `from tavli.cli import CliError` (the web server)


def _bug(_args):
    raise ValueError("a bug, not bad input")


def test_a_bug_in_a_command_shows_as_a_traceback(monkeypatch, capsys):
    monkeypatch.setattr(positions, "cmd_show", _bug)
    with pytest.raises(ValueError, match="a bug"):
        cli.main(["show", "portes", "start"])
    monkeypatch.setattr(dama_cli, "show", lambda args, text: _bug(args))
    with pytest.raises(ValueError, match="a bug"):
        cli.main(["show", "dama", "start"])


def test_user_errors_are_one_line_with_status_2(monkeypatch, capsys):
    def refuse(_args):
        raise OptionError("--depth: too deep")

    monkeypatch.setattr(dama_cli, "show", lambda args, text: refuse(args))
    assert cli.main(["show", "dama", "start"]) == 2
    assert capsys.readouterr().err == "tavli: error: --depth: too deep\n"
    assert cli.main(["show", "portes", "nonsense"]) == 2
    assert capsys.readouterr().err.startswith("tavli: error: ")


def test_dama_command_handles_a_closed_pipe(monkeypatch):
    def closed(_args):
        raise BrokenPipeError

    class Out(io.StringIO):
        def fileno(self):
            return null.fileno()

    with open("/dev/null", "w") as null:
        monkeypatch.setattr("sys.stdout", Out())
        monkeypatch.setattr(dama_cli, "show", lambda args, text: closed(args))
        assert cli.main(["show", "dama", "start"]) == 0


def test_dama_terminal_reads_huff_squares_as_squares(dama_terminal):
    _g, text = dama_terminal(["huff x", "huff c3", "quit"], "--opponent", "neural:1")
    assert "error: cannot read square 'x'" in text  # not int()'s "invalid literal"
    assert "error: square 22 cannot be huffed now" in text  # c3, by name


def test_dama_terminal_reports_a_file_it_cannot_save(tmp_path, dama_terminal):
    _g, text = dama_terminal([f"save {tmp_path / 'no' / 'g.pdn'}", "quit"],
                             "--opponent", "neural:1")
    assert f"cannot save to {tmp_path / 'no' / 'g.pdn'}: " in text


def test_pdn_notation_is_an_option_error():
    with pytest.raises(OptionError, match="'roman'"):
        write_pdn(DamaGame("box"), notation="roman")


def test_resume_reports_bad_files_and_lets_bugs_through(monkeypatch, capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not text")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["play", "--tui", "--resume", str(bad)]) == 2
    assert f"cannot resume from {bad}: not a text file" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text(json.dumps(tavli.game_record(tavli.Game("portes", seed=1))))

    def broken(_text):
        raise KeyError("a bug in the replay")

    monkeypatch.setattr("tavli.play.record.load_record", broken)
    with pytest.raises(KeyError):
        cli.main(["play", "--tui", "--resume", str(good)])
