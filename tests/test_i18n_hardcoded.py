"""No player-visible English outside the catalogues (issue 20): the pages' texts are
looked up by key (i18n.js), so a text written into the page's HTML or JavaScript is a
text that stays English in Greek, Italian and German.

A heuristic, not a parser of JavaScript: in static/*.js, a string literal (quotes or a
template, its ``${...}`` parts left out) that has a word in it and is put where a player
reads it — assigned to textContent/innerText/title/placeholder, set as an aria-label,
title or placeholder attribute, passed to toast()/append(), or written as a table head or
cell of innerHTML — fails unless it is a message key; in static/*.html, a text node or a
title/aria-label/placeholder attribute with a word in it fails unless its element is
translated (data-i18n, data-i18n-label, data-i18n-placeholder) or is code. ``ALLOWED``
lists the texts that are the same in every language."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "tavli" / "web" / "static"

#: texts that read the same in every language (names, symbols, notation)
ALLOWED = {"Tavli", "XGID", "gnubg", "MWC", "JSON", "SGF", "PDN"}

WORD = re.compile(r"[A-Za-z]{2,}")
KEY = re.compile(r"^[a-z_]+(?:\.[a-z_]+)+$")
LITERAL = r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)"""
SINKS = [
    re.compile(r"\.(?:textContent|innerText|title|placeholder)\s*=\s*" + LITERAL),
    re.compile(r"""setAttribute\(\s*["'](?:aria-label|title|placeholder)["']\s*,\s*"""
               + LITERAL),
    re.compile(r"\b(?:toast|say|append|prepend)\(\s*" + LITERAL),
]
INNER_HTML = re.compile(r"\.innerHTML\s*=\s*((?:" + LITERAL + r"\s*\+?\s*)+)")
CELL = re.compile(r"<(t[hd]|span|div|button|label|p|h\d)\b[^>]*>([^<$]*)<")


def words(text: str) -> list[str]:
    """The words of a literal a player would read: not its ``${...}`` parts, not the
    names every language writes the same."""
    body = re.sub(r"\$\{[^}]*\}", " ", text[1:-1])
    if KEY.match(body.strip()):
        return []
    return [w for w in WORD.findall(body) if w not in ALLOWED]


def js_findings(path: Path) -> list[str]:
    found = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(("//", "*", "/*")):
            continue
        for sink in SINKS:
            for lit in sink.findall(line):
                if words(lit):
                    found.append(f"{path.name}:{n}: {lit}")
        for m in INNER_HTML.finditer(line):
            for _tag, text in CELL.findall(m.group(1)):
                if [w for w in WORD.findall(text) if w not in ALLOWED]:
                    found.append(f"{path.name}:{n}: <{_tag}>{text}")
    return found


class _Texts(HTMLParser):
    """The visible texts and labels of a page that no data-i18n translates."""

    SKIP = {"script", "style", "code", "pre"}
    VOID = {"meta", "link", "input", "img", "br", "hr", "source"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str | None]]] = []
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name, marker in (("aria-label", "data-i18n-label"), ("title", "data-i18n-title"),
                             ("placeholder", "data-i18n-placeholder")):
            value = a.get(name)
            if value and marker not in a and [w for w in WORD.findall(value)
                                              if w not in ALLOWED]:
                self.found.append(f"<{tag} {name}={value!r}>")
        if tag not in self.VOID:
            self.stack.append((tag, a))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        text = data.strip()
        if not text or not [w for w in WORD.findall(text) if w not in ALLOWED]:
            return
        if any(t in self.SKIP or "data-i18n" in a for t, a in self.stack):
            return
        if self.stack and self.stack[-1][0] == "title":
            return                     # the document's title: set by the page (app.title)
        self.found.append(f"text {text!r} in <{self.stack[-1][0] if self.stack else '?'}>")


def html_findings(path: Path) -> list[str]:
    p = _Texts()
    p.feed(path.read_text(encoding="utf-8"))
    return [f"{path.name}: {f}" for f in p.found]


def test_the_heuristic_finds_hard_coded_english(tmp_path):
    js = tmp_path / "x.js"
    js.write_text('a.textContent = "No mistakes found.";\nb.textContent = t("rv.none");\n'
                  'toast(`Press ${k} to copy`);\nc.title = "btn.copy";\n'
                  'd.innerHTML = "<th>move</th><th class=\'num\'></th>";\n')
    assert [f.split(":")[1] for f in js_findings(js)] == ["1", "3", "5"]
    page = tmp_path / "x.html"
    page.write_text('<p>Hello there</p><p data-i18n="k">Hello</p>'
                    '<svg aria-label="Dama board"></svg><b aria-label="x" '
                    'data-i18n-label="k">Tavli</b><code>24/18 13/11</code>')
    assert len(html_findings(page)) == 2


def test_no_hard_coded_english_in_the_pages():
    found = []
    for path in sorted(STATIC.glob("*.js")):
        found += js_findings(path)
    for path in sorted(STATIC.glob("*.html")):
        found += html_findings(path)
    assert found == [], "texts outside the catalogue:\n" + "\n".join(found)
