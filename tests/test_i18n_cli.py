"""The ``tavli`` command in the players' languages: ``--lang`` (on ``tavli`` or on a
command) and ``$TAVLI_LANG``; English by default whatever ``LANG`` says (issue #20)."""

from __future__ import annotations

import io
import json
import re

import pytest

from tavli import i18n
from tavli.cli import main
from tavli.cli.text import cli_lang, error_line
from tavli.engine.board import Position
from tavli.errors import IllegalMove
from tests.test_cube_analysis import missed_double_record

NO_MOVE = Position.from_points("portes", {25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
OVER = Position.from_points("portes", {}, {6: 15}, 1)
#: English words the commands used to print (none may be left in another language)
ENGLISH = re.compile(r"\b(to move|bar|off|pips|no legal move|the turn passes|position|"
                     r"evaluator|equity|win|move|diff|trials|rollout|played|best|game|"
                     r"match|white|black|wins|points?|error|cube|Cubeless|Cubeful|Proper|"
                     r"double|take|pass|analysis|luck|the)\b")
GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")


@pytest.fixture(autouse=True)
def no_language(monkeypatch):
    """No language in the environment unless a test sets one."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "TAVLI_LANG"):
        monkeypatch.delenv(var, raising=False)


def run(capsys, argv, stdin: str = "") -> tuple[int, str, str]:
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own errors
        code = int(e.code or 0)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def english(text: str) -> list[str]:
    """The English words of the old English output found in ``text``."""
    return ENGLISH.findall(text)


def test_show_in_greek_and_the_other_languages(capsys):
    code, out, err = run(capsys, ["--lang", "el", "show", "portes", "start"])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Πόρτες  παίζουν τα λευκά (X)"
    assert lines[-1].startswith("μπάρα X0 O0   έξω X0 O0   πόντοι X167 O167   id ")
    assert english(out) == []
    # --lang also after the command; the board's cells are the same in every language
    code, out_de, _ = run(capsys, ["show", "portes", "start", "--lang", "de"])
    assert out_de.splitlines()[0] == "Portes  Weiß (X) ist am Zug"
    assert out_de.splitlines()[1:-1] == lines[1:-1]
    code, out_it, _ = run(capsys, ["show", "--lang", "it", "plakoto", "start"])
    assert out_it.startswith("Plakotò  muove il bianco (X)\n")


def test_english_is_the_default_whatever_lang_says(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "el_GR.UTF-8")
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    code, out, _ = run(capsys, ["show", "portes", "start"])
    assert out.splitlines()[0] == "portes  white (X) to move"
    assert not GREEK.search(out)
    code, out, _ = run(capsys, ["moves", "portes", NO_MOVE.id(), "-d", "66"])
    assert out == "no legal move with 6-6: the turn passes\n"
    code, _, err = run(capsys, ["moves", "portes", OVER.id(), "-d", "31"])
    assert err == "tavli: error: the game is over: white wins 2 points (gammon)\n"
    assert cli_lang(None, {"LANG": "el_GR.UTF-8"}) == "en"


def test_tavli_lang_sets_the_language_and_lang_wins_over_it(capsys, monkeypatch):
    monkeypatch.setenv("TAVLI_LANG", "el_GR.UTF-8")
    code, out, _ = run(capsys, ["moves", "portes", NO_MOVE.id(), "-d", "66"])
    assert code == 0 and out == "καμία νόμιμη κίνηση με 6-6: η σειρά περνά\n"
    code, out, _ = run(capsys, ["--lang", "en", "moves", "portes", NO_MOVE.id(), "-d", "66"])
    assert out == "no legal move with 6-6: the turn passes\n"
    code, out, _ = run(capsys, ["moves", "--lang", "it", "portes", NO_MOVE.id(), "-d", "66"])
    assert out == "nessuna mossa legale con 6-6: il turno passa\n"
    # the language does not change what programs read
    code, out, _ = run(capsys, ["moves", "portes", "start", "-d", "31", "--json"])
    assert json.loads(out)["moves"][0]["move"]


def test_a_bad_language_is_one_line(capsys, monkeypatch):
    code, out, err = run(capsys, ["--lang", "fr", "show", "portes", "start"])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "argument --lang: invalid choice: 'fr'" in err
    monkeypatch.setenv("TAVLI_LANG", "klingon")
    code, out, err = run(capsys, ["show", "portes", "start"])
    assert code == 2 and out == ""
    assert err == "tavli: error: TAVLI_LANG='klingon': the language is one of en, el, it, de\n"


def test_errors_in_the_language_keep_the_english_detail(capsys):
    line = error_line(IllegalMove("24/18 is blocked"), "de")
    assert line == "tavli: Fehler: Ungültiger Zug (24/18 is blocked)"
    code, out, err = run(capsys, ["--lang", "de", "moves", "portes", "start", "-d", "3"])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("tavli: Fehler: Der Text ist nicht lesbar (dice must be")
    # a finished game: said wholly in the language
    code, _, err = run(capsys, ["--lang", "el", "moves", "portes", OVER.id(), "-d", "31"])
    assert err == "tavli: σφάλμα: το παιχνίδι τελείωσε: τα λευκά κερδίζουν 2 πόντους (μαρς)\n"
    code, _, err = run(capsys, ["--lang", "it", "moves", "portes", OVER.id(), "-d", "31"])
    assert err == "tavli: errore: la partita è finita: vince il bianco: 2 punti (gammon)\n"
    # in batch mode the error lines stay English (a program reads them)
    code, out, _ = run(capsys, ["--lang", "el", "moves", "--batch"],
                       stdin=f"portes {OVER.id()} 31\n")
    assert json.loads(out) == {"error": "line 1: the game is over: white wins 2 points "
                                        "(gammon)"}


def test_hint_in_greek(capsys):
    code, out, err = run(capsys, ["--lang", "el", "hint", "portes", "start", "-d", "31",
                                  "--level", "0"])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["#", "κίνηση", "βάθος", "αξία", "διαφ.", "νίκη", "ν",
                                "μαρς", "η", "μαρς"]
    assert lines[-1] == "θέση: επαφή· αποτίμηση: δίκτυο επαφής"
    assert english(out) == []
    # the same figures as in English
    code, out_en, _ = run(capsys, ["hint", "portes", "start", "-d", "31", "--level", "0"])
    assert out_en.splitlines()[0].split()[:3] == ["#", "move", "ply"]
    assert out_en.splitlines()[-1] == "position: contact; evaluator: contact net"
    assert [x.split()[1:] for x in lines[1:-1]] == [x.split()[1:]
                                                     for x in out_en.splitlines()[1:-1]]


def test_a_match_hint_and_the_cube_decision_in_german_and_greek(capsys):
    code, out, _ = run(capsys, ["--lang", "de", "hint", "backgammon", "start", "-d", "31",
                                "--level", "0", "--match", "5", "--score", "2-1"])
    assert out.startswith("Match auf 5 Punkte, es fehlen 3/4: Equity = normierte Match-Equity")
    code, out, err = run(capsys, ["--lang", "el", "hint", "backgammon", "start",
                                  "--level", "0"])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Παιχνίδι για χρήματα, κύβος στη μέση"
    assert lines[3] == "Αξίες με τον κύβο:"
    assert lines[4].startswith("1. Όχι διπλό")
    assert lines[-1].startswith("Σωστή απόφαση κύβου: Όχι διπλό, δεκτό (")
    assert english(out) == []


def test_analyse_and_convert_in_greek(capsys, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(missed_double_record()))
    code, out, err = run(capsys, ["--lang", "el", "analyse", str(path), "--ply", "0"])
    assert code == 0 and err == ""
    assert "πριν από τον γύρο 1: τα λευκά δεν διπλασίασαν (σωστό: Διπλό, πάσο)" in out
    assert "λάθος αποδοχή" in out and out.rstrip().endswith("Ανάλυση σε βάθος 0")
    assert english(out) == []
    code, out, err = run(capsys, ["convert", str(path), str(tmp_path / "copy.json"),
                                  "--lang", "el"])
    assert code == 0 and out == f"{path} -> {tmp_path / 'copy.json'}: ένα παιχνίδι\n"
    code, out, err = run(capsys, ["--lang", "de", "convert", str(path),
                                  str(tmp_path / "g.mat")])
    assert code == 2 and err.startswith("tavli: Fehler: Die Aufzeichnung")


def test_rollout_labels_in_italian(capsys):
    code, out, err = run(capsys, ["--lang", "it", "rollout", "portes", "start", "-d", "31",
                                  "--games", "4", "--moves", "2"])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("simulazione di Portes ")
    assert "il bianco ha tirato 31: le 2 mosse migliori a 0 ply, 4 prove ciascuna" in lines[0]
    assert lines[1].split()[:2] == ["#", "mossa"] and lines[1].split()[-1] == "prove"


def test_the_global_lang_reaches_the_terminal_games(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("resign\n"))
    assert main(["--lang", "el", "play", "--tui", "--game", "dama", "--opponent", "human"]) == 0
    assert "Τέλος παιχνιδιού: 0-1 (παραίτηση)." in capsys.readouterr().out
    # the terminal games still follow LANG when no language is asked for
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("resign\n"))
    assert main(["play", "--tui", "--game", "dama", "--opponent", "human"]) == 0
    assert "Partita finita: 0-1 (" in capsys.readouterr().out


def test_every_cli_message_is_in_every_language():
    keys = [k for k in i18n.catalogue("en")["messages"] if k.startswith("cli.")]
    assert len(keys) > 50
    for lang in ("el", "it", "de"):
        messages = i18n.catalogue(lang)["messages"]
        for k in keys:
            assert k in messages, (lang, k)
    # no English left in the Greek catalogue's command texts (names of terms aside)
    greek = i18n.catalogue("el")["messages"]
    for k in keys:
        text = greek[k] if isinstance(greek[k], str) else " ".join(greek[k])
        words = re.sub(r"\{\w+\}|MWC|SE|id|s\b|mp", "", text)
        assert GREEK.search(words) or not re.search(r"[A-Za-z]{3}", words), k
