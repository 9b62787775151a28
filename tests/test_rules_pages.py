"""The rules pages for players (issue 20, tavli/web/rules.py) and the installable app
(manifest, icons, service worker: tavli/web/pwa.py), without a browser: every game's
rules in every language with every section and option text, the options of a game marked,
bad requests answered with one line, the manifest valid and its icons of their sizes."""

from __future__ import annotations

import copy
import re
import struct
import warnings
from pathlib import Path

import pytest
from test_web_modules import PAGES, graph

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tavli import i18n
from tavli.engine.games import VARIANTS, game_names
from tavli.engine.rules import OPTIONS
from tavli.web import pwa, rules

STATIC = Path(rules.__file__).with_name("static")
LANGS = list(i18n.LANGUAGES)
KEY = re.compile(r"\b(?:rules|top|app|game|heading|options)\.[a-z_]+\b")


# --- the prose -------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_every_game_has_every_section_and_option_in_every_language(lang):
    assert rules.problems(lang) == []
    assert set(rules.PAGES) >= set(game_names())
    # the same keys as the English, nothing more
    en, data = rules.book("en"), rules.book(lang)
    assert {k: sorted(v) for k, v in data.items()} == {k: sorted(v) for k, v in en.items()}
    assert {k: sorted(v) for k, v in data["options"].items()} == \
        {k: sorted(v) for k, v in en["options"].items()}


def test_a_missing_section_or_option_text_or_language_fails():
    data = copy.deepcopy(rules.book("el"))
    del data["plakoto"]["mother"]
    del data["options"]["prime_rule"]["forbid"]
    data["heading"]["cube"] = ""
    found = rules.problems("el", data)
    assert "el: plakoto has no section mother" in found
    assert "el: option prime_rule has no text 'forbid'" in found
    assert "el: no heading for section cube" in found
    # a language without its file
    assert all((rules.BOOK / f"{lang}.toml").is_file() for lang in LANGS)
    assert sorted(p.stem for p in rules.BOOK.glob("*.toml")) == sorted(LANGS)


def test_a_new_game_without_a_page_is_reported():
    from tavli.engine.games import Portes, register_variant, unregister_variant

    class Nack(Portes):
        name = "nackrules"
        display = "Nack"
        code = 97
        aliases = ()

    register_variant(Nack())
    try:
        assert "en: no rules page for the game nackrules" in rules.problems("en")
    finally:
        unregister_variant("nackrules")


def test_the_options_come_from_the_variants():
    for v in VARIANTS:
        page = rules.rules_page(v.name, "en")
        assert [o["name"] for o in page["options"]] == list(v.options)
        for o in page["options"]:
            assert o["value"] == o["default"] == v.options[o["name"]]
            assert not o["changed"]
            applies = [r for r in o["readings"] if r["applies"]]
            assert len(applies) == 1 and applies[0]["default"]
    assert set(rules.OPTION_SECTION) == set(OPTIONS) | set(rules.DAMA_OPTIONS)


def test_a_game_started_with_other_options_shows_them():
    page = rules.rules_page("fevga", "de", {"prime_rule": "forbid",
                                            "starting_quarter_rule": "off",
                                            "lang": "de"})
    opts = {o["name"]: o for o in page["options"]}
    assert opts["prime_rule"]["changed"] and opts["starting_quarter_rule"]["changed"]
    assert not opts["must_play_higher"]["changed"]
    forbid = next(r for r in opts["prime_rule"]["readings"] if r["value"] == "forbid")
    assert forbid["applies"] and not forbid["default"]
    assert forbid["text"] == rules.book("de")["options"]["prime_rule"]["forbid"]
    html = rules.page_html(page)
    assert 'lang="de"' in html and "Sechserblockade" in html
    # the option's text that applies is in the summary and marked in its section
    assert html.count(forbid["text"]) == 2
    assert re.search(r'<li class="applies" data-value="forbid">', html)
    assert not re.search(r'<li class="applies" data-value="must_open">', html)
    assert page["from_game"] and i18n.gettext("de", "rules.this_game") in html
    assert i18n.gettext("de", "rules.applies") in html


def test_without_a_game_the_defaults_are_shown_unmarked(client):
    r = client.get("/rules/fevga?lang=el")
    assert i18n.gettext("el", "rules.defaults") in r.text
    assert i18n.gettext("el", "rules.this_game") not in r.text
    assert 'class="mark applies"' not in r.text and 'class="mark default"' in r.text


@pytest.mark.parametrize("lang", LANGS)
def test_pages_in_each_language_have_no_raw_key(client, lang):
    for game in rules.PAGES:
        r = client.get(f"/rules/{game}?lang={lang}")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        text = re.sub(r"<[^>]+>", " ", r.text)
        assert not KEY.findall(text), (game, KEY.findall(text)[:5])
        assert f'<html lang="{lang}">' in r.text
        for sec in rules.PAGES[game]:
            assert f'<section id="{sec}">' in r.text
            assert rules.book(lang)["heading"][sec] in r.text
    assert "Πλακωτό" in client.get("/rules?lang=el").text


def test_the_match_page_lists_the_rotation_and_the_target(client):
    r = client.get("/rules/tavli?lang=el&points=7")
    assert r.status_code == 200
    assert "<strong>7</strong>" in r.text
    order = [r.text.index(f"/rules/{g}?lang=el\">") for g in ("portes", "plakoto", "fevga")]
    rotation = r.text[r.text.index('<ol class="rotation">'):]
    assert [rotation.index(i18n.game_name("el", g)) for g in ("portes", "plakoto", "fevga")] \
        == sorted(rotation.index(i18n.game_name("el", g)) for g in ("portes", "plakoto",
                                                                     "fevga"))
    assert order
    # a game of a match links to the match's page
    r = client.get("/rules/plakoto?lang=it&match=tavli&points=5")
    assert 'href="/rules/tavli?lang=it&amp;points=5"' in r.text


def test_dama_pages_show_the_rule_set_and_huffing(client):
    from tavli.engine.dama.rules import RULE_SETS, DamaRules

    page = rules.rules_page("dama", "en")
    opts = {o["name"]: o for o in page["options"]}
    assert [r["value"] for r in opts["rules"]["readings"]] == list(RULE_SETS)
    assert opts["rules"]["value"] == DamaRules().name and opts["huffing"]["value"] is True
    r = client.get("/rules/dama?lang=de&rules=box&huffing=false")
    assert re.search(r'data-option="huffing".*?<li class="applies" data-value="false">',
                     r.text, re.S)
    assert "Schlagzwang" in r.text
    r = client.get("/rules/dama?lang=it&rules=russian")
    assert re.search(r'<li class="applies" data-value="russian">', r.text)
    assert re.search(r'data-option="huffing".*?<li class="applies" data-value="false">',
                     r.text, re.S)   # Russian draughts: capturing is compulsory
    assert client.get("/rules/dama?rules=checkers").status_code == 422
    assert client.get("/rules/dama?huffing=perhaps").status_code == 422


def test_the_api_gives_the_same_page_as_json(client):
    r = client.get("/api/rules/backgammon?jacoby=true&crawford=false",
                   headers={"Accept-Language": "it-IT"})
    assert r.status_code == 200
    page = r.json()
    assert page["lang"] == "it" and page["game"] == "backgammon"
    opts = {o["name"]: o for o in page["options"]}
    assert opts["jacoby"]["value"] is True and opts["crawford"]["value"] is False
    assert [s["id"] for s in page["sections"]] == list(rules.PAGES["backgammon"])
    cube = next(s for s in page["sections"] if s["id"] == "cube")
    assert cube["options"] == ["cube", "crawford", "jacoby", "beavers"]


@pytest.mark.parametrize("path,status,words", [
    ("/rules/chess", 404, "no rules for 'chess'"),
    ("/rules/portes?prime_rule=forbid", 422, "applies to fevga only"),
    ("/rules/fevga?prime_rule=sometimes", 422, "takes one of must_open, forbid, off"),
    ("/rules/tavli?points=1000", 422, "points must be a number from 1 to 99"),
    ("/api/rules/portes?cube=maybe", 422, "applies to backgammon only"),
    ("/api/rules/nope", 404, "no rules for 'nope'"),
])
def test_bad_requests_get_one_clear_line(client, path, status, words):
    r = client.get(path)
    assert r.status_code == status
    assert words in r.text
    assert "Traceback" not in r.text


def test_rules_pages_are_served_by_the_online_server_too(tmp_path):
    from tavli.online.app import create_online_app

    c = TestClient(create_online_app(str(tmp_path / "o.sqlite3"),
                                     allowed_hosts=["testserver"]))
    assert "Μάνα" in c.get("/rules/plakoto?lang=el").text
    assert c.get("/manifest.webmanifest").status_code == 200
    assert c.get("/sw.js").headers["content-type"].startswith("text/javascript")
    for page in ("lobby.html", "online.html"):
        html = (STATIC / page).read_text(encoding="utf-8")
        assert 'rel="manifest"' in html and "data-rules" in html
        assert "pwa.js" in graph(PAGES[page])   # the page's modules register the worker


# --- installable: manifest, icons, service worker --------------------------------------------

def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG file's IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    return struct.unpack(">II", head[16:24])


def test_the_manifest_is_valid_and_its_icons_exist(client):
    r = client.get("/manifest.webmanifest", headers={"Accept-Language": "el"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    m = r.json()
    for field in ("name", "short_name", "start_url", "display", "icons", "theme_color",
                  "background_color"):
        assert m[field], field
    assert m["name"] == "Τάβλι" and m["display"] == "standalone" and m["start_url"] == "/"
    assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"])
    purposes = set()
    for icon in m["icons"]:
        assert icon["type"] == "image/png" and icon["src"].startswith("/static/")
        w, h = (int(x) for x in icon["sizes"].split("x"))
        assert png_size(STATIC / icon["src"].removeprefix("/static/")) == (w, h)
        assert client.get(icon["src"]).headers["content-type"] == "image/png"
        purposes.add((w, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= purposes
    assert client.get("/manifest.webmanifest").json()["name"] == "Tavli"


def test_the_page_links_the_manifest_and_registers_the_worker(client):
    html = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color"' in html
    assert '<script type="module" src="/static/play.js">' in html and "data-rules" in html
    assert {"pwa.js", "rules.js"} <= set(graph("play.js"))


def test_the_service_worker_keeps_the_shell_and_never_the_api(client):
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    js = r.text
    assert "__SHELL__" not in js and "__VERSION__" not in js
    shell = pwa.shell()
    assert "/" in shell and "/static/app.js" in shell and "/static/icon-512.png" in shell
    assert not [u for u in shell if u.startswith(("/api", "/ws"))]
    for url in shell:   # every file it keeps at once is served
        assert client.get(url).status_code == 200, url
    assert '!url.pathname.startsWith("/api/")' in js
    assert '!url.pathname.startsWith("/ws/")' in js
    assert 'request.method === "GET"' in js


def test_the_icons_script_draws_the_committed_icons():
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "scripts" / "make_icons.py"
    spec = importlib.util.spec_from_file_location("make_icons", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    small = mod.png(8, mod.render(8, mod.drawing(True), samples=1))
    assert small[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", small[16:24]) == (8, 8)
    # the committed 192 px maskable icon is what the script draws
    assert mod.png(192, mod.render(192, mod.drawing(True))) == \
        (STATIC / "icon-maskable-192.png").read_bytes()


@pytest.mark.parametrize("lang", LANGS)
def test_the_lists_of_the_rules_are_lists_not_run_on_paragraphs(client, lang):
    """Issue 49: a list item that wraps onto a second line made its whole block one
    paragraph, the items joined by " - ". Every "- " line of the book is an item."""
    items = 0
    for game in rules.PAGES:
        html = client.get(f"/rules/{game}?lang={lang}").text
        for para in re.findall(r"<p>(.*?)</p>", html, re.S):
            assert not re.search(r"(?:^|\s)- ", para), (game, para[:120])
        for sec in rules.PAGES[game]:
            text = rules.section_text(rules.book(lang), game, sec)
            want = sum(1 for ln in text.splitlines() if ln.strip().startswith("- "))
            section = re.search(rf'<section id="{sec}">(.*?)</section>', html, re.S).group(1)
            section = re.sub(r"<div id=\"opt-.*|<ol class=\"rotation.*", "", section, flags=re.S)
            assert len(re.findall(r"<li>", section)) == want, (game, sec)
            items += want
    assert items > 20
