"""The players' languages: English (the default), Greek, Italian and German.

Every text a player sees is a message of the gettext catalogues in ``tavli/locale``
(``<lang>.po``, compiled to ``<lang>.mo`` by :mod:`tavli.i18n_compile`), looked up by a
key (``"btn.roll"``), with ``{name}`` placeholders filled by :meth:`str.format`. The
server translates with :func:`gettext`/:func:`ngettext`; the page gets the whole
catalogue of a language as JSON (:func:`catalogue`, ``GET /api/i18n``) and looks its
strings up by the same keys. The language is the one the page asks for (``?lang=`` or
the ``X-Tavli-Lang`` header, from the player's choice kept in ``localStorage``), else the
best of the browser's ``Accept-Language``, else English (:func:`negotiate`).

>>> negotiate("de-CH,de;q=0.9,en;q=0.5")
'de'
>>> negotiate("fr-FR, it;q=0.4, el;q=0.8")
'el'
>>> negotiate("fr", chosen="it"), negotiate(None), negotiate("*")
('it', 'en', 'en')
>>> gettext("el", "game.plakoto"), gettext("it", "btn.roll"), gettext("de", "btn.roll")
('Πλακωτό', 'Tira i dadi', 'Würfeln')
>>> ngettext("el", "n.points", 3)
'3 πόντοι'
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

LOCALE = Path(__file__).with_name("locale")

#: the languages, each with its name in itself (for the language menu)
LANGUAGES: dict[str, str] = {"en": "English", "el": "Ελληνικά", "it": "Italiano",
                             "de": "Deutsch"}
DEFAULT = "en"
#: the header the page sends with the player's choice
HEADER = "x-tavli-lang"


def supported(lang: str | None) -> str | None:
    """``lang`` as one of :data:`LANGUAGES` (``"el-GR"`` is ``"el"``), or None."""
    if not lang:
        return None
    base = lang.strip().lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else None


def negotiate(accept_language: str | None, chosen: str | None = None) -> str:
    """The language to answer in: ``chosen`` if it is one of ours, else the first of
    ``accept_language`` (by its q values) that is, else :data:`DEFAULT`."""
    lang = supported(chosen)
    if lang:
        return lang
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "")[:500].split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            name, _, value = p.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = supported(tag)
        if lang and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else DEFAULT


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (an unknown one is the default's)."""
    lang = supported(lang) or DEFAULT
    with open(LOCALE / f"{lang}.mo", "rb") as f:
        return _gettext.GNUTranslations(f)


def gettext(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang``, its ``{placeholders}`` filled from ``params``
    (a key no catalogue has is returned as it is)."""
    text = translations(lang).gettext(key)
    return text.format(**params) if params else text


def ngettext(lang: str, key: str, n: int, /, **params: Any) -> str:
    """The message ``key`` in the form for ``n`` (the plural entry's msgid is ``key``,
    its msgid_plural ``key + ".pl"``), ``{n}`` and the other placeholders filled."""
    return translations(lang).ngettext(key, key + ".pl", n).format(**{"n": n, **params})


class Translator:
    """``_()`` and ``ngettext()`` bound to one language (for code that writes many texts).

    >>> _ = Translator("el")
    >>> _("game.portes"), _.n("n.points", 1)
    ('Πόρτες', '1 πόντος')
    """

    def __init__(self, lang: str) -> None:
        self.lang = supported(lang) or DEFAULT

    def __call__(self, key: str, **params: Any) -> str:
        return gettext(self.lang, key, **params)

    def n(self, key: str, n: int, /, **params: Any) -> str:
        return ngettext(self.lang, key, n, **params)


#: the language of what is being answered (set per request by :mod:`tavli.web.lang`)
_current: ContextVar[str] = ContextVar("tavli_lang", default=DEFAULT)


def current() -> str:
    """The language texts are written in now (:func:`using`; English outside it)."""
    return _current.get()


@contextmanager
def using(lang: str) -> Iterator[str]:
    """Write texts in ``lang`` inside the block (:func:`current`).

    >>> with using("de"):
    ...     Translator(current())("btn.roll")
    'Würfeln'
    >>> current()
    'en'
    """
    lang = supported(lang) or DEFAULT
    token = _current.set(lang)
    try:
        yield lang
    finally:
        _current.reset(token)


def game_name(lang: str, name: str) -> str:
    """The name players use for the game or match kind ``name`` in ``lang``
    (``"fevga"`` in Greek is Φεύγα)."""
    key = f"game.{name}"
    text = gettext(lang, key)
    return name.capitalize() if text == key else text


def msg(key: str, **params: Any) -> dict[str, Any]:
    """A message for the page or the terminal to write in its language: ``{"key", "params"}``
    (a param may itself be such a message, or a list of them, written first; see
    :func:`text`).

    >>> msg("side.white")
    {'key': 'side.white', 'params': {}}
    """
    return {"key": key, "params": params}


def text(lang: str, m: Any) -> str:
    """The message ``m`` (:func:`msg`; a plain string stays as it is) written in ``lang``,
    its params that are messages written first.

    >>> text("de", msg("cube.act.none", why=msg("cube.why.crawford")))
    'Nicht verdoppeln (Crawford-Spiel)'
    >>> text("en", msg("n.points", n=1)), text("en", msg("n.points", n=3))
    ('1 point', '3 points')
    >>> text("en", "as it is")
    'as it is'
    """
    if isinstance(m, list):      # a list of messages: written one after the other
        return ", ".join(text(lang, x) for x in m)
    if not isinstance(m, dict):
        return str(m)
    params = {k: text(lang, v) if isinstance(v, dict | list) else v
              for k, v in (m.get("params") or {}).items()}
    if is_plural(lang, m["key"]) and isinstance(params.get("n"), int):
        return ngettext(lang, m["key"], params.pop("n"), **params)
    return gettext(lang, m["key"], **params)


def is_plural(lang: str, key: str) -> bool:
    """Whether the message ``key`` has plural forms (a message of :func:`msg` with such a
    key takes its form from its ``n``: "1 decision", "2 decisions")."""
    return isinstance(catalogue(lang)["messages"].get(key), list)


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The catalogue of ``lang`` for the page: ``{"lang", "languages", "messages"}``, each
    message a string, or for a plural entry the list of its forms (all four languages:
    the first form for 1, the second for any other number)."""
    lang = supported(lang) or DEFAULT
    messages: dict[str, Any] = {}
    for msgid, msgstr in translations(lang)._catalog.items():  # type: ignore[attr-defined]
        if isinstance(msgid, tuple):        # (singular, form index) of a plural entry
            forms = messages.setdefault(msgid[0], [])
            forms.extend([""] * (msgid[1] + 1 - len(forms)))
            forms[msgid[1]] = msgstr
        elif msgid:                           # "" is the header
            messages[msgid] = msgstr
    return {"lang": lang, "languages": LANGUAGES, "messages": messages}


__all__ = ["LANGUAGES", "DEFAULT", "HEADER", "supported", "negotiate", "translations",
           "gettext", "ngettext", "is_plural", "Translator", "current", "using", "game_name",
           "catalogue", "msg", "text"]
