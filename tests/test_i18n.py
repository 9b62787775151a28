"""The message catalogues (issue 20): every message the code uses is in every language's
catalogue, translated, with the same placeholders; the compiled .mo files match their .po
sources; the language of a request is negotiated; the page's catalogue endpoint and the
API's errors answer in it."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from tavli import i18n
from tavli.i18n_compile import LOCALE, mo_bytes, parse_po

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "tavli" / "web" / "static"
ACTORS = ["you", "ai", "white", "black"]


def po(lang: str) -> dict[str, str]:
    return parse_po((LOCALE / f"{lang}.po").read_text(encoding="utf-8"), f"{lang}.po")


def placeholders(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def dynamic_families() -> dict[str, list[str]]:
    """The keys the code builds from a prefix and a value (`side.${side}`), each with the
    values it can take."""
    from tavli.ai.levels import LEVELS
    from tavli.engine.games import ROTATIONS, VARIANTS
    from tavli.web.reviews import LUCK_KEYS, RATING_KEYS

    games = [v.name for v in VARIANTS] + list(ROTATIONS) + ["dama"]
    return {"side.": ["white", "black"], "level.": list(LEVELS), "game.": games,
            "gl.": ["playing", "over", "imported"],   # a game's status in the list
            **{f"err.{m}.": ["white", "black"] for m in ("person_plays", "ai_plays",
                                                         "turn_of")},
            "kind.": ["single", "gammon", "backgammon", "mother", "drop", "resign", "draw",
                      "time", "abandoned"],
            **{f"on.st.{m}.": ["white", "black", "both"] for m in ("waiting", "seed")},
            "srv.ev.": ["take", "drop", "beaver"],
            **{f"srv.{m}.": ["white", "black"] for m in ("win", "match_won", "doubles",
                                                         "move", "opening",
                                                         "opening.rolls", "opening.with")},
            **{f"st.{m}.": ACTORS for m in ("pass", "roll", "roll_double", "offered",
                                            "move")},
            # resigning, forfeits (the move list); the review's and the cube hint's words
            "srv.ev.resign.": ["single", "gammon", "backgammon"],
            "srv.ev.forfeit.": ["time", "abandoned"],
            "side.cap.": ["white", "black"], "rv.who.": ["white", "black", "ai"],
            "rating.": sorted(RATING_KEYS.values()), "luck.": sorted(LUCK_KEYS.values()),
            "mark.": ["very_bad", "bad", "doubtful"],
            "verdict.": ["missed_double", "wrong_double", "wrong_take", "wrong_pass"],
            "rv.did.": ["no_double", "double", "take", "beaver", "pass", "no_double.re",
                        "double.re"],
            "cube.row.": [k + re for k in ("no_double", "double_take", "double_pass")
                          for re in ("", ".re")],
            "cube.act.": [k + re for k in ("no_double_take", "no_double_beaver",
                                           "double_take", "double_pass", "too_good_pass",
                                           "too_good_take", "none") for re in ("", ".re")],
            "cube.why.": ["crawford", "opponent", "unused", "dead", "highest", "none"],
            "cube.sit.match": ["", ".crawford", ".post"],
            "dama.rn.": ["box", "box_compulsory", "russian", "italian"],
            # the resign choices (both apps) and the settings' colours (issue 31)
            "on.resign.": ["single", "gammon", "backgammon"],
            "rv.n_err.": ["missed_double", "wrong_double", "wrong_take", "wrong_pass"],
            "a11y.theme.": ["system", "light", "dark"],
            "tui.doing.": ["opening", "roll", "move", "double"],
            # the CLI's columns, position classes and valuers (tavli/cli/text.py)
            "cli.col.": ["win", "wg", "wbg", "lg", "lbg"],
            "cli.cls.": ["contact", "race", "bearoff"],
            "cli.val.": ["contact", "race", "bo1", "bo2"],
            "tui.resign.kind.": ["single", "gammon", "backgammon"],
            "tui.resign.offer.": ["single", "gammon", "backgammon"],
            "tui.pl.kind.": ["human", "random", "greedy"],
            "tui.note.": ["fevga"],
            "dama.reason.": ["resignation", "agreement", "repetition", "no_pieces",
                             "no_move"]}


def api_error_codes() -> set[str]:
    """The codes of the API's errors: the third argument of every ``ApiError(...)`` and
    the last of every ``_answer(...)`` in tavli/web and tavli/online."""
    codes = {"error", "invalid", "malformed_json", "illegal_move", "game_over",
             "wrong_state", "http", "unavailable"}
    for folder in ("web", "online"):
        for path in (ROOT / "tavli" / folder).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                    continue
                args = node.args
                if node.func.id == "ApiError" and len(args) >= 3:
                    arg = args[2]
                elif node.func.id == "_answer" and args:
                    arg = args[-1]
                else:
                    continue
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    codes.add(arg.value)
    return codes


def used_keys() -> set[str]:
    """Every message key the page and the server use (extracted from the sources)."""
    prefixes = sorted({k.split(".")[0] for k in po("en") if k})
    alt = "|".join(prefixes)
    literal = re.compile(rf"""["'`]((?:{alt})\.[a-z_]+(?:\.[a-z_]+)*)["'`]""")
    template = re.compile(rf"""`((?:{alt})\.(?:[a-z_]+\.)*)\$\{{""")
    attr = re.compile(r'data-i18n(?:-label|-placeholder)?="([^"]+)"')
    # "game." + name: a lookup with a fallback (gameName, errorText): a known family's
    # keys are all used; another prefix is an open lookup (the server's words without it)
    concat = re.compile(rf"""["']((?:{alt})\.(?:[a-z_]+\.)*)["']\s*\+""")
    keys: set[str] = set()
    families = dynamic_families()
    for path in list(STATIC.glob("*.js")) + list(STATIC.glob("*.html")):
        text = path.read_text(encoding="utf-8")
        keys |= set(literal.findall(text))
        if path.suffix == ".html":
            keys |= set(attr.findall(text))
        for prefix in template.findall(text):
            assert prefix in families, f"{path.name}: `{prefix}${{...}}` is not a known family"
            keys |= {prefix + v for v in families[prefix]}
        for prefix in concat.findall(text):
            keys |= {prefix + v for v in families.get(prefix, [])}
    python = re.compile(rf"""\b(?:gettext|_|ngettext|n)\((?:\s*(?:"[^"]*"|[\w.]+)\s*,)?"""
                        rf"""\s*"((?:{alt})\.[a-z_.]+)\"""")
    python_family = re.compile(rf"""(?:\b_\(|\bn\(|\bkey=)f"((?:{alt})\.(?:[a-z_]+\.)*)\{{""")
    python_key = re.compile(rf"""\bkey="((?:{alt})\.[a-z_.]+)\"""")
    # messages for the page (tavli.i18n.msg) and keys the server sends: any string that
    # reads as a key (not a file name), and f"prefix.{...}" / "prefix." + ... families
    python_any = re.compile(rf"""\"((?:{alt})\.[a-z_]+(?:\.[a-z_]+)*)(?<!\.sgf)\"""")
    python_any_family = re.compile(rf"""f"((?:{alt})\.(?:[a-z_]+\.)*)\{{|"""
                                   rf"""\"((?:{alt})\.(?:[a-z_]+\.)*(?:match)?)"\s*\+""")
    for path in (ROOT / "tavli").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        keys |= set(python.findall(text)) | set(python_key.findall(text))
        keys |= set(python_any.findall(text))
        for prefix in python_family.findall(text):
            assert prefix in families, f"{path.name}: f\"{prefix}{{...}}\" is not a known family"
            keys |= {prefix + v for v in families[prefix]}
        for prefix in (a or b for a, b in python_any_family.findall(text)):
            if prefix != "err.":     # the codes of the API's errors (below)
                assert prefix in families, f"{path.name}: {prefix!r} is not a known family"
                keys |= {prefix + v for v in families[prefix]}
    keys |= {f"err.{c}" for c in api_error_codes()}
    return keys


def test_every_language_has_every_message_translated():
    en = po("en")
    for lang in i18n.LANGUAGES:
        cat = po(lang)
        assert set(cat) == set(en), f"{lang}: keys differ: {set(cat) ^ set(en)}"
        for key, text in cat.items():
            if not key:
                continue
            forms = text.split("\0")
            assert all(forms), f"{lang}: {key!r} is not translated"
            want = placeholders(en[key].split("\0")[-1]) | ({"n"} if "\0" in key else set())
            for form in forms:
                assert placeholders(form) <= want, f"{lang}: {key!r} has {form!r}"


def test_every_message_used_is_in_the_catalogues():
    known = {k.split("\0")[0] for k in po("en")}
    missing = sorted(used_keys() - known)
    assert missing == [], f"messages without a catalogue entry: {missing}"
    assert {"btn.roll", "st.pass.ai", "game.fevga", "err.turn_of.black", "n.points",
            "game.plakoto"} <= used_keys()


def test_the_compiled_catalogues_are_up_to_date():
    for lang in i18n.LANGUAGES:
        mo = (LOCALE / f"{lang}.mo").read_bytes()
        assert mo == mo_bytes(po(lang)), f"{lang}.mo is stale: python -m tavli.i18n_compile"


def test_players_names_for_the_games_and_terms():
    assert [i18n.game_name("el", g) for g in ("tavli", "portes", "plakoto", "fevga", "dama")] \
        == ["Τάβλι", "Πόρτες", "Πλακωτό", "Φεύγα", "Ντάμα"]
    assert i18n.gettext("el", "term.mother") == "μάνα"
    assert i18n.gettext("el", "term.gammon") == "μαρς"
    assert i18n.game_name("de", "dama") == "Dame" and i18n.game_name("it", "plakoto") == "Plakotò"
    assert i18n.ngettext("de", "n.points", 1) == "1 Punkt"
    assert i18n.ngettext("it", "n.points", 5) == "5 punti"


@pytest.mark.parametrize("header, chosen, want", [
    ("el-GR,el;q=0.9,en;q=0.8", None, "el"),
    ("fr-FR,fr;q=0.9,de;q=0.7,it;q=0.8", None, "it"),
    ("de;q=0, en;q=0.1", None, "en"),
    ("xx, ;;q=abc,,", None, "en"),
    ("el", "de", "de"),
    ("it", "klingon", "it"),
    ("", "EL_gr", "el"),
])
def test_negotiation(header, chosen, want):
    assert i18n.negotiate(header, chosen) == want


def test_catalogue_endpoint_follows_the_browser_and_the_choice(client):
    r = client.get("/api/i18n", headers={"Accept-Language": "el-GR,el;q=0.9"})
    assert r.status_code == 200
    body = r.json()
    assert body["lang"] == "el" and body["languages"]["el"] == "Ελληνικά"
    assert body["messages"]["game.fevga"] == "Φεύγα"
    assert body["messages"]["n.points"] == ["{n} πόντος", "{n} πόντοι"]
    assert "Accept-Language" in r.headers["vary"]
    assert client.get("/api/i18n?lang=de", headers={"Accept-Language": "el"}).json()["lang"] \
        == "de"
    assert client.get("/api/i18n", headers={"X-Tavli-Lang": "it"}).json()["messages"][
        "btn.roll"] == "Tira i dadi"
    assert client.get("/api/i18n?lang=fr").json()["lang"] == "en"
    # every language's catalogue has the same keys
    keys = {lang: set(client.get(f"/api/i18n?lang={lang}").json()["messages"])
            for lang in i18n.LANGUAGES}
    assert all(k == keys["en"] for k in keys.values())


def test_api_errors_in_the_requests_language(client):
    r = client.get("/api/games/nope", headers={"X-Tavli-Lang": "el"})
    assert r.status_code == 404
    # the error by its key: no English detail is needed
    assert r.json() == {"code": "not_found",
                        "error": "Δεν υπάρχει τέτοιο παιχνίδι (ίσως διαγράφηκε)"}
    r = client.post("/api/games", json={"variant": "portes", "points": "x"},
                    headers={"Accept-Language": "de-DE"})
    assert r.status_code == 422 and r.json() == {"code": "invalid",
                                                 "error": "Ungültiger Wert: points"}
    # a position that cannot be read (the engine's ParseError)
    r = client.post("/api/games", json={"variant": "portes", "position": "zzz"},
                    headers={"X-Tavli-Lang": "it"})
    assert r.status_code == 422 and r.json()["error"] == "Il testo non è leggibile"
    # English: the message as it was, no detail
    r = client.get("/api/games/nope")
    assert r.status_code == 404 and "detail" not in r.json() and "nope" in r.json()["error"]
    r = client.get("/api/nothing", headers={"X-Tavli-Lang": "it"})
    assert r.status_code == 404 and r.json()["error"] == "Non trovato"


def test_engine_and_dama_errors_need_no_english_detail(client):
    st = client.post("/api/games", json={"variant": "portes", "opponent": "human",
                                         "seed": 3, "first": "white"}).json()
    gid = st["id"]
    st = client.post(f"/api/games/{gid}/roll").json()
    r = client.post(f"/api/games/{gid}/move", json={"move": "24/1"},
                    headers={"X-Tavli-Lang": "de"})
    assert r.status_code == 422 and r.json() == {"code": "illegal_move",
                                                 "error": "Ungültiger Zug"}
    r = client.post(f"/api/games/{gid}/move", json={"move": "24/1"})
    assert r.json()["error"].startswith("illegal move: ")      # English: the engine's words
    d = client.post("/api/games", json={"variant": "russian",
                                        "opponent": "human"}).json()
    r = client.post(f"/api/games/{d['id']}/undo", headers={"X-Tavli-Lang": "el"})
    assert r.status_code == 409 and r.json() == {"code": "wrong_state",
                                                 "error": "Δεν υπάρχει τίποτα για αναίρεση"}
    r = client.post("/api/games", json={"variant": "dama", "level": "superb"},
                    headers={"X-Tavli-Lang": "it"})
    assert r.status_code == 422 and r.json()["error"] == "Livello dell'IA sconosciuto"


def test_the_states_messages_in_the_requests_language(client):
    st = client.post("/api/games", json={"variant": "portes", "opponent": "human",
                                         "seed": 3}).json()
    gid = st["id"]
    assert st["message"].startswith("Opening throw: each side throws one die")
    el = client.get(f"/api/games/{gid}", headers={"X-Tavli-Lang": "el"}).json()
    assert el["message"].startswith("Ζαριά για την αρχή: ο καθένας ρίχνει")
    st = client.post(f"/api/games/{gid}/roll", json={}, headers={"X-Tavli-Lang": "de"}).json()
    assert st["opening_text"].startswith("Eröffnungswurf: Weiß ") and "beginnt" in \
        st["opening_text"], st["opening_text"]
    en = client.get(f"/api/games/{gid}").json()
    assert en["opening_text"].startswith("Opening throw: white ")
    assert en["message"].endswith(f"to move {en['dice_text']}.")


def test_an_error_with_a_key_is_translated_whole(client):
    gid = client.post("/api/games", json={"variant": "portes", "opponent": "human",
                                          "seed": 3}).json()["id"]
    st = client.post(f"/api/games/{gid}/roll", json={}).json()
    other = "black" if st["turn"] == "white" else "white"
    r = client.post(f"/api/games/{gid}/move", json={"side": other, "move": "24/18"},
                    headers={"X-Tavli-Lang": "de"})
    body = r.json()
    assert r.status_code == 409 and body["code"] == "wrong_player" and "detail" not in body
    assert body["error"] == f"{'Weiß' if st['turn'] == 'white' else 'Schwarz'} ist am Zug"
    r = client.post(f"/api/games/{gid}/move", json={"side": other, "move": "24/18"})
    assert r.json()["error"] == f"it is {st['turn']}'s turn, not {other}'s"
