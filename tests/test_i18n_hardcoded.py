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
lists the texts that are the same in every language.

The terminal's modules (``tavli play --tui``, Dama's too: tavli/tui/*.py, Dama's part
tavli/tui/dama.py) are read with :mod:`ast`: a string literal with a word in it (a plain
string or the text of an f-string, also in ``+`` and ``x if c else y``) given to what
shows or asks something (``print_fn``, ``input_fn``, ``say``, ``error``, ``ask``, rich's
``Text``/``append``) fails.
And every code the web app's refusals answer with (tavli/web/security.py, limits.py,
tavli/online/ratelimit.py) has its message ``err.<code>`` in every catalogue."""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

from tavli.i18n_compile import parse_po

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "tavli" / "web" / "static"
TERMINALS = sorted((ROOT / "tavli" / "tui").glob("*.py"))  # Dama's terminal is tui/dama.py
#: what the terminals show or ask with (the first argument is the text)
SHOWN = {"print_fn", "input_fn", "say", "error", "ask", "Text", "append", "print", "input"}

#: texts that read the same in every language (names, symbols, notation: the terminal's
#: board marks the bar "BAR" as moves are typed, bar/22)
ALLOWED = {"Tavli", "XGID", "gnubg", "MWC", "JSON", "SGF", "PDN", "BAR"}

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


# --- the terminals --------------------------------------------------------------------------

def _texts(node: ast.AST) -> list[str]:
    """The literal texts an expression writes: a string, an f-string's text parts, the
    sides of ``+`` and of ``a if c else b`` (not what calls, like ``_()``, return)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values
                if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _texts(node.left) + _texts(node.right)
    if isinstance(node, ast.IfExp):
        return _texts(node.body) + _texts(node.orelse)
    return []


def py_findings(path: Path, functions: set[str] | None = None,
                allowed: set[str] = ALLOWED) -> list[str]:
    """Literal English texts a terminal shows (see the module's docstring); only in the
    ``functions`` named, when given."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = [tree] if functions is None else [
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in functions]
    for node in (n for root in roots for n in ast.walk(root)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) \
            else ""
        if name not in SHOWN:
            continue
        for text in _texts(node.args[0]):
            if KEY.match(text.strip()):
                continue
            if [w for w in WORD.findall(text) if w not in allowed]:
                found.append(f"{path.name}:{node.lineno}: {text!r}")
    return found


def test_the_terminal_heuristic_finds_hard_coded_english(tmp_path):
    py = tmp_path / "x.py"
    py.write_text('print_fn(f"{side} (AI) plays {move}.")\nprint_fn(_("dama.tui.hint"))\n'
                  'self.screen.say("Saved." if ok else "")\nsay(f"  {n:>3}. {m}")\n'
                  'line = screen.ask("resign " + kinds)\nt.append(f"{disc} ", style="bold")\n'
                  'print_fn("")\n')
    assert [f.split(":")[1] for f in py_findings(py)] == ["1", "3", "5"]


def test_no_hard_coded_english_in_the_terminals():
    found = [f for path in TERMINALS for f in py_findings(path)]
    assert found == [], "texts outside the catalogue:\n" + "\n".join(found)


#: the CLI's player-facing commands (docs/cli.md, Languages): what they print is the
#: catalogue's (tavli/cli/text.py)
CLI_DIR = ROOT / "tavli" / "cli"
CLI = {CLI_DIR / "positions.py": {"cmd_moves", "cmd_show"},
       CLI_DIR / "hint.py": {"cmd_hint", "_print_ranked", "_cube_hint"},
       CLI_DIR / "analyse.py": {"cmd_analyse"},
       CLI_DIR / "records.py": {"cmd_convert", "_what", "cmd_replay", "_game_line", "cmd_verify"},
       CLI_DIR / "rollout.py": {"cmd_rollout", "_print_reduction", "ranked_lines",
                                "_top_lines", "hint_rollouts", "analysis_rollouts"}}


def test_no_hard_coded_english_in_the_cli_commands():
    found = [f for path, names in CLI.items()
             for f in py_findings(path, names, ALLOWED | {"SE"})]
    assert found == [], "texts outside the catalogue:\n" + "\n".join(found)


# --- the web app's refusals -----------------------------------------------------------------

def refusal_codes() -> set[str]:
    """The codes of the answers given before a request reaches the app: each ``(status,
    text, code)`` a check returns, each ``(reason, code)`` of a WebSocket refusal, and
    the last argument of each ``_answer(...)``."""
    codes: set[str] = set()
    for rel in ("tavli/web/security.py", "tavli/web/limits.py", "tavli/online/ratelimit.py"):
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            last = None
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
                last = node.value.elts[-1]
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id == "_answer" and node.args):
                last = node.args[-1]
            if isinstance(last, ast.Constant) and isinstance(last.value, str):
                codes.add(last.value)
    return codes


def test_every_refusal_has_a_message_in_every_language():
    from tavli.web.security import REFUSALS

    codes = refusal_codes()
    assert {"forbidden_host", "forbidden_origin", "unauthorized", "unsupported_media_type",
            "bad_request", "too_large", "rate_limited"} <= codes
    assert codes <= set(REFUSALS)
    for lang in ("en", "el", "it", "de"):
        cat = parse_po((ROOT / "tavli" / "locale" / f"{lang}.po").read_text(encoding="utf-8"))
        missing = [c for c in sorted(codes) if not cat.get(f"err.{c}")]
        assert missing == [], f"{lang}: no message for {missing}"
