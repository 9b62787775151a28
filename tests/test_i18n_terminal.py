"""The terminal and the web app's refusals in the player's language (issue 20): Dama's
terminal game (``tavli play --tui --game dama``) and the backgammon terminal's resignation
and saving played in Greek with scripted input say everything in Greek (the commands are
typed in English), and the refusals answered before a request reaches the app come in the
request's language."""

from __future__ import annotations

import io
import re
import warnings

import pytest

from tavli import i18n
from tavli.cli import main
from tavli.errors import IllegalMove, ParseError
from tavli.tui.words import answer, error_text

#: words a Greek screen may show in Latin letters: the commands typed (they stay English),
#: the notation and file formats, and the names every language writes the same
LATIN = {"moves", "hint", "huff", "undo", "draw", "resign", "save", "fen", "quit", "help",
         "FILE", "PDN", "FEN", "board", "double", "take", "drop", "single", "gammon",
         "backgammon", "bar", "off", "BAR", "Enter", "Ctrl", "tavli", "play", "tui",
         "resume", "json", "pdn",
         "triple"}                                     # typed by the player, quoted back
WORD = re.compile(r"[A-Za-z]{3,}")


def english(text: str) -> list[str]:
    """The lines of ``text`` with a Latin-letter word that is not a command or a name."""
    return [line for line in text.splitlines()
            if [w for w in WORD.findall(line) if w not in LATIN]]


@pytest.fixture(autouse=True)
def no_locale(monkeypatch):
    """The environment's language is chosen per test."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def dama(dama_terminal):
    """``dama(lines, *options, game="dama")``: Dama played in the terminal with ``lines``
    typed; (game, everything shown)."""
    return dama_terminal


# --- Dama -------------------------------------------------------------------------------------

def test_dama_in_greek_says_everything_in_greek(tmp_path, dama):
    path = tmp_path / "g.pdn"
    g, out = dama(["help", "moves", "22-19", "zz", "hint", "huff x", "undo", "c3-d4",
                   "save", f"save {path}", "fen", "resign"],
                  "--opponent", "neural:1", "--lang", "el", game="russian")
    assert out.startswith("Ντάμα, κανόνες: ρωσικοί. Λευκά: παίκτης, Μαύρα: υπολογιστής "
                          "(αρχάριος).")
    assert "Σειρά: Λευκά (κανόνες: ρωσικοί)" in out and "Σειρά: Λευκά> " in out
    assert "  huff N       φύσημα: βγάζεις το κομμάτι του αντιπάλου" in out  # the help
    assert "a3-b4, c3-b4, c3-d4" in out                          # moves: players' notation
    assert "σφάλμα: 22-19: δεν είναι νόμιμη κίνηση εδώ" in out
    assert "σφάλμα: zz: δεν διαβάζεται" in out and "σφάλμα: x: δεν διαβάζεται" in out
    assert "υπόδειξη: " in out and "τίποτα για αναίρεση" in out
    assert "Μαύρα (υπολογιστής): παίζουν " in out and "τελευταία κίνηση: " in out
    assert "δεν υπάρχει αρχείο για αποθήκευση: γράψε save ΑΡΧΕΙΟ" in out
    assert f"Αποθηκεύτηκε στο {path}." in out
    assert out.rstrip().endswith("Τέλος παιχνιδιού: 0-1 (παραίτηση).")
    assert path.read_text(encoding="utf-8").startswith("[Event")
    assert g.end_reason() == "resignation"
    assert english(out.replace(str(path), "")) == []


BOX_CAPTURE = "W:W18,20-22,24-26,28-32:B1-5,7-12,19"   # White may capture 24x15x6


def test_dama_captures_huffs_and_draws_in_greek(dama):
    # box rules: White declines the capture, and Black may huff the piece that could take
    g, out = dama(["18-14", "huff 24", "draw"], "--opponent", "human",
                  "--position", BOX_CAPTURE, "--lang", "el")
    assert ("Κινήσεις που παίρνουν (δεν είναι υποχρεωτικές, αλλά μπορεί να σε φυσήξουν): "
            "24x15x6") in out
    assert "Ο αντίπαλος δεν πήρε ενώ μπορούσε: μπορείς να φυσήξεις 24 (huff N)" in out
    assert "Φυσάς το κομμάτι στο 24." in out and "τελευταία κίνηση: *24" in out
    assert out.rstrip().endswith("Τέλος παιχνιδιού: 1/2-1/2 (συμφωνία).")
    assert g.result == "1/2-1/2" and english(out) == []


def test_dama_ai_huffs_captures_and_declines_in_german(dama):
    g, out = dama(["18-14", "resign"], "--opponent", "beginner", "--position", BOX_CAPTURE,
                  "--lang", "de")
    assert ("Schlagzüge (freiwillig, aber wer nicht schlägt, kann gepustet werden): "
            "24x15x6") in out
    assert "Schwarz (KI) pustet den Stein auf 24." in out
    assert "Schwarz (KI) zieht 9x18 und schlägt 14." in out
    assert out.rstrip().endswith("Spiel vorbei: 0-1 (Aufgabe).")
    # a lost position: the AI does not take a draw
    g, out = dama(["draw", "resign"], "--opponent", "neural:1", "--position", "W:W29:B1-12",
                  "--lang", "de", game="russian")
    assert "Die KI lehnt das Remis ab." in out and "Weiß am Zug> " in out
    assert "Dame, Regeln: russisch. Weiß: Spieler, Schwarz: KI (Anfänger)." in out


def test_dama_play_takes_lang_and_the_environment(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("resign\n"))
    assert main(["play", "--tui", "--game", "dama", "--opponent", "human", "--lang", "el"]) == 0
    out = capsys.readouterr().out
    assert "Ντάμα, κανόνες: του κουτιού, με φύσημα." in out
    assert "Τέλος παιχνιδιού: 0-1 (παραίτηση)." in out and english(out) == []
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("resign\n"))
    assert main(["play", "--tui", "--game", "italian", "--opponent", "human"]) == 0
    out = capsys.readouterr().out
    assert "Dama, regole: italiane. Bianco: giocatore, Nero: giocatore." in out
    assert "Partita finita: 0-1 (" in out
    # English without a language; --lang wins over the environment
    monkeypatch.setattr("sys.stdin", io.StringIO("resign\n"))
    assert main(["play", "--tui", "--game", "dama", "--opponent", "human", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Game over: 0-1 (resignation)." in out and "White to move" in out


# --- the backgammon terminal ----------------------------------------------------------------

def bg(monkeypatch, capsys, args, lines):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    rc = main(["play", "--tui", "--game", "portes", "--points", "1", "--seed", "3", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def test_backgammon_resign_and_save_in_greek(monkeypatch, capsys, tmp_path):
    path, other = tmp_path / "g.json", tmp_path / "notes.txt"
    other.write_text("mine")
    rc, out, err = bg(monkeypatch, capsys, ["--opponent", "human", "--lang", "el"],
                      ["save a b", "save", f"save {other}", f"save {path}", "undo", "zz",
                       "24/1", "resign x y", "resign", "όχι", "resign triple",
                       "resign gammon", "no", "resign", "single", "ναι"])
    assert rc == 0, err
    flat = " ".join(out.split())           # the prompts may be wrapped by the console
    for text in ("χρήση: save [ΑΡΧΕΙΟ]",
                 "δεν υπάρχει αρχείο για αποθήκευση: γράψε save ΑΡΧΕΙΟ",
                 f"το {other} υπάρχει ήδη: διάλεξε άλλο όνομα (δεν άλλαξε τίποτα)",
                 f"Αποθηκεύτηκε στο {path}.",
                 "Από εδώ και πέρα το παιχνίδι αποθηκεύεται εκεί μετά από κάθε κίνηση.",
                 "τίποτα για να πάρεις πίσω: το undo παίρνει πίσω",
                 "zz: δεν διαβάζεται", "24/1: δεν είναι νόμιμη κίνηση εδώ",
                 "χρήση: resign [single|gammon|backgammon]",
                 "παραιτείσαι με απλή ήττα (1 πόντος) ή μαρς (2 πόντοι); γράψε single, "
                 "gammon ή όχι >",
                 "Το παιχνίδι συνεχίζεται.",
                 "εδώ παραιτείσαι με single ή gammon, όχι 'triple' (το παιχνίδι συνεχίζεται)",
                 # black starts (seed 3); white is asked whether he accepts
                 "τα μαύρα παραιτούνται με μαρς. λευκά ○: δέχεσαι και κερδίζεις 2 πόντους; "
                 "ναι ή όχι >",
                 "τα μαύρα παραιτούνται με μαρς· τα λευκά δεν δέχονται: το παιχνίδι "
                 "συνεχίζεται.",
                 "τα μαύρα παραιτούνται. λευκά ○: δέχεσαι και κερδίζεις 1 πόντο; ναι ή όχι >",
                 "τα μαύρα παραιτούνται· τα λευκά δέχονται και κερδίζουν 1 πόντο.",
                 "Τέλος παιχνιδιού: κερδίζουν τα λευκά 1 πόντο (παραίτηση)."):
        assert text in flat, text
    assert english(out.replace(str(path), "").replace(str(other), "")) == []
    assert path.exists() and other.read_text() == "mine"


def test_backgammon_resign_against_the_ai_in_german(monkeypatch, capsys):
    rc, out, err = bg(monkeypatch, capsys, ["--lang", "de"], ["resign", "ja"])
    assert rc == 0, err
    flat = " ".join(out.split())
    assert ("Weiß ○: das Spiel (1 Punkt) oder mit Gammon (2 Punkte) aufgeben? tippe single, "
            "gammon oder nein >") in flat
    assert "Weiß gibt das Spiel auf; Schwarz nimmt an und gewinnt 1 Punkt." in flat
    assert "Spiel vorbei: " in flat and "Game over" not in flat


def test_yes_and_no_in_every_language():
    for lang, yes, no in (("en", "y", "n"), ("el", "Ναι", "οχι"), ("it", "Sì", "no"),
                          ("de", "JA", "nein")):
        with i18n.using(lang):
            assert answer(yes) is True and answer(no) is False and answer("yes") is True
            assert answer("maybe") is None and answer("") is None


def test_engine_errors_in_the_players_language():
    assert error_text(IllegalMove("24/18 is blocked"), "24/18") == "24/18 is blocked"
    with i18n.using("it"):
        assert error_text(ParseError("cannot read"), "zz") == "zz: non si legge (help dice " \
                                                              "cosa scrivere)"


# --- the web app's refusals --------------------------------------------------------------------

def test_refusals_in_the_requests_language(db):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from tavli.web.app import create_app

    c = TestClient(create_app(db, allowed_hosts=["testserver"], token="tok"))
    el = {"X-Tavli-Lang": "el", "X-Tavli-Token": "tok"}
    r = c.get("/api/games", headers={"Accept-Language": "el-GR,el;q=0.9"})
    assert r.status_code == 401 and r.json()["code"] == "unauthorized"
    assert r.json()["error"].startswith("Ο διακομιστής χρειάζεται το κλειδί πρόσβασής του")
    assert "token" in r.json()["detail"]                      # the English text, as before
    r = c.get("/api/games", headers={**el, "Origin": "http://evil.example"})
    assert (r.status_code, r.json()["code"]) == (403, "forbidden_origin")
    assert r.json()["error"] == "Τα αιτήματα από άλλον ιστότοπο απορρίπτονται"
    r = c.get("/api/games", headers={**el, "Host": "evil.example"})
    assert (r.status_code, r.json()["code"]) == (403, "forbidden_host")
    assert r.json()["error"] == "Ο διακομιστής δεν απαντά σε αυτή τη διεύθυνση"
    r = c.post("/api/games?lang=de", content=b"{}", headers={"X-Tavli-Token": "tok",
                                                             "Content-Type": "text/plain"})
    assert (r.status_code, r.json()["code"]) == (415, "unsupported_media_type")
    assert r.json()["error"].startswith("Die Anfrage muss JSON senden")
    r = c.post("/api/games", content=b"x" * 100_000,
               headers={**el, "X-Tavli-Lang": "it", "Content-Type": "application/json"})
    assert (r.status_code, r.json()["code"]) == (413, "too_large")
    assert r.json()["error"] == "La richiesta è troppo grande"
    r = c.post("/api/games", content=b"{}", headers={**el, "Content-Length": "x",
                                                      "Content-Type": "application/json"})
    assert (r.status_code, r.json()["code"]) == (400, "bad_request")

    def chunks():  # no Content-Length: refused while it is read
        for _ in range(100):
            yield b"x" * 1000

    r = c.post("/api/games", content=chunks(), headers={**el,
                                                        "Content-Type": "application/json"})
    assert (r.status_code, r.json()["code"]) == (413, "too_large")
    assert r.json()["error"] == "Το αίτημα είναι πολύ μεγάλο"
    # English: the answer as it always was, no detail
    r = c.get("/api/games", headers={"Origin": "http://evil.example", "X-Tavli-Token": "tok"})
    assert r.json() == {"error": "requests from another site (http://evil.example) are "
                                 "refused", "code": "forbidden_origin"}
