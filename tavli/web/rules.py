"""The rules of each game for players, in their language (``GET /rules/{game}``).

The prose is per language, in ``tavli/web/rulebook/<lang>.toml``: a heading for every
section, the sections' texts (``[common]`` for what all the dice games share, ``[<game>]``
for the rest) and, for every rule option, its name and one text per value (``[options.
<name>]``: ``true``/``false``, or the option's choices). The facts come from the engine:
which options a game has and their defaults (``Variant.options``), the values of the game
being played (:class:`tavli.engine.rules.Rules`), the games a match plays in turn
(:data:`tavli.engine.games.ROTATIONS`). A page shows each option's texts, marking the one that
applies in the game it was opened from and the default.

``GET /rules/{game}?lang=..&<option>=<value>..`` is the page (HTML, no script),
``GET /api/rules/{game}`` the same as JSON, ``GET /rules`` lists the games.

>>> page = rules_page("fevga", "en", {"prime_rule": "forbid"})
>>> [s["id"] for s in page["sections"]][:4]
['goal', 'setup', 'opening', 'turn']
>>> prime = next(o for o in page["options"] if o["name"] == "prime_rule")
>>> prime["value"], prime["default"], [r["value"] for r in prime["readings"] if r["applies"]]
('forbid', 'must_open', ['forbid'])
>>> problems("en")
[]
"""

from __future__ import annotations

import html
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse

from tavli import i18n
from tavli.engine.games import ROTATIONS, find_variant, game_names
from tavli.engine.rules import OPTIONS, Rules
from tavli.errors import RuleError, RulesError, TavliError
from tavli.web.answers import RulesPage
from tavli.web.errors import ApiError
from tavli.web.lang import request_lang
from tavli.web.openapi import declared, with_parameters

BOOK = Path(__file__).with_name("rulebook")

#: the sections of each game's page, in order (their texts: ``[<game>]``, else ``[common]``)
PAGES: dict[str, tuple[str, ...]] = {
    "portes": ("goal", "setup", "opening", "turn", "hitting", "bearoff", "scoring"),
    "plakoto": ("goal", "setup", "opening", "turn", "pinning", "mother", "bearoff",
                "scoring"),
    "fevga": ("goal", "setup", "opening", "turn", "blocking", "first_checker", "bearoff",
              "scoring"),
    "backgammon": ("goal", "setup", "opening", "turn", "hitting", "bearoff", "scoring",
                   "cube"),
    "tavli": ("goal", "rotation", "match_start", "scoring"),
    "dama": ("goal", "setup", "turn", "captures", "kings", "end"),
}
#: the section in which an option's applying text is repeated
OPTION_SECTION = {"must_play_higher": "turn", "opening_reroll": "opening",
                  "backgammons": "scoring", "starting_quarter_rule": "blocking",
                  "prime_rule": "blocking", "cube": "cube", "crawford": "cube",
                  "jacoby": "cube", "beavers": "cube", "rules": "captures",
                  "huffing": "captures"}
#: Dama's options (its rule set and huffing: :class:`tavli.engine.dama.rules.DamaRules`)
DAMA_OPTIONS = ("rules", "huffing")
#: query parameters of a page that are not rule options
NOT_OPTIONS = {"lang", "match", "points", "token"}
CURRENT = ' aria-current="page"'




@cache
def book(lang: str) -> dict[str, Any]:
    """The prose of ``lang`` (``rulebook/<lang>.toml``)."""
    with open(BOOK / f"{lang}.toml", "rb") as f:
        return tomllib.load(f)


def readings(name: str) -> tuple[str, ...]:
    """The values of the option ``name``, each of which has a text: ``true``/``false`` or
    its choices."""
    if name == "rules":
        from tavli.engine.dama.rules import RULE_SETS

        return RULE_SETS
    if name == "huffing":
        return ("true", "false")
    opt = OPTIONS[name]
    return ("true", "false") if opt.kind is bool else opt.choices


def value_key(value: Any) -> str:
    """An option's value as its text's key (``True`` is ``"true"``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def section_text(data: dict[str, Any], page: str, section: str) -> str | None:
    """The text of ``section`` on ``page``'s page: the game's own, else the common one."""
    return data.get(page, {}).get(section) or data.get("common", {}).get(section)


def problems(lang: str, data: dict[str, Any] | None = None) -> list[str]:
    """What the prose of ``lang`` (or ``data``) lacks: a heading, a section of a page, an
    option's name or the text of one of its values, the page of a registered game."""
    data = book(lang) if data is None else data
    out = []
    for name in game_names():
        if name not in PAGES:
            out.append(f"{lang}: no rules page for the game {name}")
    for page, sections in PAGES.items():
        for sec in sections:
            if not data.get("heading", {}).get(sec):
                out.append(f"{lang}: no heading for section {sec}")
            if not section_text(data, page, sec):
                out.append(f"{lang}: {page} has no section {sec}")
    for name in (*OPTIONS, *DAMA_OPTIONS):
        texts = data.get("options", {}).get(name, {})
        for key in ("name", *readings(name)):
            if not texts.get(key):
                out.append(f"{lang}: option {name} has no text {key!r}")
    return sorted(set(out))


def parse_options(game: str, query: dict[str, str]) -> Rules:
    """The rules of ``game`` with the options given in a page's query (RulesError for an
    option the game lacks or a value it does not take)."""
    given = {k: v for k, v in query.items() if k not in NOT_OPTIONS}
    try:
        return Rules.for_game(game, given)
    except RuleError as e:
        raise RulesError(str(e)) from None


def dama_options(query: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Dama's option values given in a page's query, and their defaults (RulesError for a
    rule set that does not exist, a huffing value that is not true or false)."""
    from tavli.engine.dama.rules import DamaRules

    huffing = query.get("huffing")
    if huffing is not None and huffing.lower() not in ("true", "false"):
        raise RulesError(f"huffing takes true or false, not {huffing[:20]!r}")
    try:
        r = DamaRules.for_name(query.get("rules"),
                               None if huffing is None else huffing.lower() == "true")
    except RuleError as e:
        raise RulesError(str(e)) from None
    default = DamaRules()
    return ({"rules": r.name, "huffing": r.huffing},
            {"rules": default.name, "huffing": default.huffing})


def rules_page(game: str, lang: str, options: dict[str, str] | None = None, *,
               match: str | None = None, points: int | None = None) -> dict[str, Any]:
    """A game's (or a match's) rules in ``lang`` with the given option values: ``{game,
    lang, title, from_game, sections: [{id, heading, text, options}], options: [{name,
    label, value, default, changed, readings: [{value, text, applies, default}]}], games,
    match, points, target}``. ``text`` is the section's prose (see :func:`to_html`);
    ``from_game``: options were given (the page was opened from a game), so the values
    that apply are marked as the game's."""
    lang = i18n.supported(lang) or i18n.DEFAULT
    data = book(lang)
    _ = i18n.Translator(lang)
    key = str(game).strip().lower()
    values: dict[str, Any] = {}
    defaults: dict[str, Any] = {}
    if key in ROTATIONS:
        name, games = key, list(ROTATIONS[key])
    elif key == "dama":
        name, games = key, [key]
        values, defaults = dama_options(options or {})
    else:
        try:
            name = find_variant(key).name
        except TavliError:
            raise RulesError(f"no rules for {game[:40]!r}: expected one of "
                             f"{', '.join(sorted(PAGES))}") from None
        if name not in PAGES:
            raise RulesError(f"no rules page is written for {name}")
        games, rules = [name], parse_options(name, options or {})
        defaults = find_variant(name).options
        values = {opt: getattr(rules, opt) for opt in defaults}
    shown_options = []
    for opt, default in defaults.items():
        value, texts = values[opt], data["options"][opt]
        shown_options.append({
            "name": opt, "label": texts["name"], "value": value, "default": default,
            "changed": value != default,
            "readings": [{"value": r, "text": texts[r], "applies": r == value_key(value),
                          "default": r == value_key(default)} for r in readings(opt)]})
    sections = []
    for sec in PAGES[name]:
        sections.append({
            "id": sec, "heading": data["heading"][sec],
            "text": section_text(data, name, sec),
            "options": [o["name"] for o in shown_options
                        if OPTION_SECTION.get(o["name"]) == sec]})
    target = None
    if points is not None and name in ROTATIONS:
        target = data[name]["target"].format(points=points)
    from_game = any(k not in NOT_OPTIONS for k in (options or {}))
    return {"game": name, "lang": lang, "title": _("rules.title", game=i18n.game_name(lang,
                                                                                         name)),
            "from_game": from_game,
            "sections": sections, "options": shown_options, "games": games,
            "match": match if match in ROTATIONS else None, "points": points,
            "target": target}


# --- HTML ---------------------------------------------------------------------------------

def inline(text: str) -> str:
    """One line of prose as HTML: escaped, ``**strong**`` and ``*emphasis*``.

    >>> inline("a **b** & *c*")
    'a <strong>b</strong> &amp; <em>c</em>'
    """
    out = html.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"\*(.+?)\*", r"<em>\1</em>", out)


def blocks(text: str) -> list[tuple[str, list[str]]]:
    """Prose as its blocks: ``("p", [paragraph])`` or ``("ul", [item, ..])``. Paragraphs
    are split by blank lines; a line starting ``- `` starts a list item, and the lines
    indented under it (or simply following it) continue that item, so a list needs no
    blank line before it and its items may wrap.

    >>> blocks("One\\n two.\\n- a\\n  still a\\n- b")
    [('p', ['One two.']), ('ul', ['a still a', 'b'])]
    """
    out: list[tuple[str, list[str]]] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        para: list[str] = []
        items: list[str] = []
        for line in (ln.strip() for ln in block.splitlines()):
            if not line:
                continue
            if line.startswith("- "):
                if para:
                    out.append(("p", [" ".join(para)]))
                    para = []
                items.append(line[2:].strip())
            elif items:
                items[-1] += " " + line
            else:
                para.append(line)
        if para:
            out.append(("p", [" ".join(para)]))
        if items:
            out.append(("ul", items))
    return out


def to_html(text: str) -> str:
    """Prose as HTML: paragraphs split by blank lines, lines starting ``- `` a list
    (:func:`blocks`).

    >>> to_html("One.\\n\\n- a\\n- b")
    '<p>One.</p>\\n<ul><li>a</li><li>b</li></ul>'
    >>> to_html("One:\\n- a long\\n  item\\n- b")
    '<p>One:</p>\\n<ul><li>a long item</li><li>b</li></ul>'
    """
    out = []
    for kind, parts in blocks(text):
        if kind == "ul":
            out.append("<ul>" + "".join(f"<li>{inline(p)}</li>" for p in parts) + "</ul>")
        else:
            out.append(f"<p>{inline(parts[0])}</p>")
    return "\n".join(out)


def _option_html(o: dict[str, Any], _: i18n.Translator, from_game: bool) -> str:
    items = []
    for r in o["readings"]:
        marks = []
        if r["applies"] and from_game:
            marks.append(f'<span class="mark applies">{html.escape(_("rules.applies"))}</span>')
        if r["default"]:
            marks.append(f'<span class="mark default">{html.escape(_("rules.default"))}</span>')
        cls = ' class="applies"' if r["applies"] else ""
        items.append(f'<li{cls} data-value="{html.escape(r["value"])}">{inline(r["text"])} '
                     f'{" ".join(marks)}</li>')
    changed = (f' <span class="mark changed">{html.escape(_("rules.changed"))}</span>'
               if o["changed"] else "")
    return (f'<div id="opt-{o["name"]}" class="option" data-option="{o["name"]}"><h3>'
            f'{html.escape(o["label"])}{changed}</h3><ul>{"".join(items)}</ul></div>')


def _query(lang: str, extra: dict[str, Any] | None = None) -> str:
    from urllib.parse import urlencode

    return "?" + urlencode({"lang": lang, **(extra or {})})


def page_html(page: dict[str, Any]) -> str:
    """The rules page as a whole HTML document (no script: the CSP allows none inline)."""
    lang = page["lang"]
    _ = i18n.Translator(lang)
    esc = html.escape
    opts = {o["name"]: o for o in page["options"]}
    given = {o["name"]: value_key(o["value"]) for o in page["options"] if o["changed"]}
    here = {**given, **({"match": page["match"]} if page["match"] else {}),
            **({"points": page["points"]} if page["points"] else {})}
    langs = " ".join(
        f'<a href="{esc(_query(code, here))}" hreflang="{code}" lang="{code}"'
        f'{CURRENT if code == lang else ""}>{esc(label)}</a>'
        for code, label in i18n.LANGUAGES.items())
    tabs = " ".join(
        f'<a href="/rules/{name}{esc(_query(lang))}"'
        f'{CURRENT if name == page["game"] else ""}>'
        f'{esc(i18n.game_name(lang, name))}</a>' for name in PAGES)
    body = []
    if page["match"]:
        points = {"points": page["points"]} if page["points"] else None
        body.append(f'<p class="note"><a href="/rules/{page["match"]}'
                    f'{esc(_query(lang, points))}">'
                    f'{esc(_("rules.part_of_match", match=i18n.game_name(lang, page["match"])))}'
                    "</a></p>")
    if page["target"]:
        body.append(f'<p class="note">{inline(page["target"])}</p>')
    if page["options"]:
        changed = f' <span class="mark changed">{esc(_("rules.changed"))}</span>'
        summary = "".join(
            f'<li><a href="#opt-{o["name"]}">{esc(o["label"])}</a>'
            f'{changed if o["changed"] else ""}: '
            f'{inline(next(r["text"] for r in o["readings"] if r["applies"]))}</li>'
            for o in page["options"])
        body.append(f'<section id="in-this-game" class="options-summary"><h2>'
                    f'{esc(_("rules.this_game" if page["from_game"] else "rules.defaults"))}'
                    f'</h2><ul>{summary}</ul></section>')
    for sec in page["sections"]:
        parts = [f'<section id="{sec["id"]}"><h2>{esc(sec["heading"])}</h2>',
                 to_html(sec["text"])]
        if sec["id"] == "rotation":
            parts.append("<ol class=\"rotation\">" + "".join(
                f'<li><a href="/rules/{g}{esc(_query(lang))}">{esc(i18n.game_name(lang, g))}'
                "</a></li>" for g in ROTATIONS[page["game"]]) + "</ol>")
        for name in sec["options"]:
            parts.append(_option_html(opts[name], _, page["from_game"]))
        parts.append("</section>")
        body.append("".join(parts))
    rest = [o for o in page["options"] if not OPTION_SECTION.get(o["name"]) or
            OPTION_SECTION[o["name"]] not in PAGES[page["game"]]]
    for o in rest:
        body.append(_option_html(o, _, page["from_game"]))
    games = f'<nav class="games" aria-label="{esc(_("rules.games"))}">{tabs}</nav>\n'
    return _document(lang, page["title"], langs, games + "<main>\n<h1>" +
                     esc(page["title"]) + "</h1>\n" + "\n".join(body) + "\n</main>")


def _document(lang: str, title: str, langs: str, content: str) -> str:
    """A rules page: its head, the top bar (home link, languages) and ``content`` (HTML)."""
    _ = i18n.Translator(lang)
    esc = html.escape
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<link rel="manifest" href="/manifest.webmanifest">
<meta name="theme-color" content="#3b2414">
<link rel="icon" href="/static/icon-192.png">
<link rel="stylesheet" href="/static/rules.css">
</head>
<body class="rules">
<header>
<a class="home" href="/">{esc(_("app.title"))}</a>
<nav class="langs" aria-label="{esc(_("top.language"))}">{langs}</nav>
</header>
{content}
</body>
</html>
"""


def index_html(lang: str) -> str:
    """``GET /rules``: the list of the games' pages."""
    _ = i18n.Translator(lang)
    esc = html.escape
    items = "".join(f'<li><a href="/rules/{name}{esc(_query(lang))}">'
                    f'{esc(i18n.game_name(lang, name))}</a></li>' for name in PAGES)
    langs = " ".join(f'<a href="/rules{esc(_query(code))}" lang="{code}">{esc(label)}</a>'
                     for code, label in i18n.LANGUAGES.items())
    return _document(lang, _("rules.index"), langs,
                     f'<main>\n<h1>{esc(_("rules.index"))}</h1>\n'
                     f'<ul class="index">{items}</ul>\n</main>')


# --- the routes ---------------------------------------------------------------------------

#: ``GET /api/rules/{game}``'s answers and query: a match's length and rotation, and any
#: rule options (``?prime_rule=forbid``), read from the query as it comes
RULES_ANSWERS = with_parameters(
    declared(RulesPage, 404, 422),
    {"name": "points", "in": "query", "required": False, "description": "a match's length",
     "schema": {"type": "integer", "minimum": 1, "maximum": 99}},
    {"name": "match", "in": "query", "required": False,
     "description": "the match's rotation (tavli)", "schema": {"type": "string"}},
    {"name": "options", "in": "query", "required": False, "style": "form", "explode": True,
     "description": "rule options, each as its own parameter (docs/rules.md)",
     "schema": {"type": "object", "additionalProperties": {"type": "string"}}})


def _page_of(game: str, request: Request) -> dict[str, Any]:
    q = dict(request.query_params)
    points = q.get("points")
    if points is not None and not (points.isdigit() and 1 <= int(points) <= 99):
        raise RulesError(f"points must be a number from 1 to 99, not {points[:20]!r}")
    return rules_page(game, request_lang(request), q, match=q.get("match"),
                      points=int(points) if points is not None else None)


def mount_rules(app: FastAPI) -> None:
    """The rules pages: ``GET /rules``, ``GET /rules/{game}`` (HTML) and
    ``GET /api/rules/{game}`` (JSON); a bad game or option is a 404 or 422 with one line
    saying what is wrong."""
    headers = {"Cache-Control": "no-cache", "Vary": "Accept-Language, X-Tavli-Lang"}

    @app.get("/rules", include_in_schema=False)
    async def rules_index(request: Request) -> HTMLResponse:
        return HTMLResponse(index_html(request_lang(request)), headers=headers)

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_html(game: str, request: Request) -> HTMLResponse:
        try:
            page = _page_of(game, request)
        except RulesError as e:
            status = 422 if game.lower() in PAGES else 404
            return HTMLResponse(f'<!doctype html><meta charset="utf-8"><title>{status}</title>'
                                f"<p>{html.escape(str(e), quote=False)}</p>",
                                status_code=status)
        return HTMLResponse(page_html(page), headers=headers)

    @app.get("/api/rules/{game}", **RULES_ANSWERS)
    async def rules_json(game: str, request: Request) -> JSONResponse:
        try:
            page = _page_of(game, request)
        except RulesError as e:
            raise ApiError(422 if game.lower() in PAGES else 404, str(e),
                           "invalid" if game.lower() in PAGES else "not_found") from None
        return JSONResponse(page, headers=headers)


__all__ = ["mount_rules", "rules_page", "page_html", "problems", "PAGES", "RulesError"]
