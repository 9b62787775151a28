"""The terminal's words in the player's language: ``tavli play --tui --lang el``, else the
language of the environment (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``el_GR.UTF-8`` is
Greek), else English (:func:`tavli.i18n.negotiate`). The session runs inside
:func:`tavli.i18n.using`, and every text is a catalogue message (``tui.*``) looked up in
the language of the moment.

>>> from tavli import i18n
>>> terminal_lang(None, {"LANG": "de_DE.UTF-8"}), terminal_lang("it", {"LANG": "el_GR"})
('de', 'it')
>>> terminal_lang(None, {"LANG": "C.UTF-8"}), terminal_lang(None, {})
('en', 'en')
>>> with i18n.using("el"):
...     _("tui.bye"), side(1), points(2), answer("ναι"), answer("Οχι"), answer("maybe")
('Γεια.', 'μαύρα', '2 πόντοι', True, False, None)

Also here for Dama's terminal game (:mod:`tavli.tui.dama`): an engine error in the player's
language (:func:`error_text`).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Mapping
from typing import Any

from tavli import i18n
from tavli.errors import GameOver, IllegalMove, InvalidPosition, ParseError, TavliError, WrongState

#: the catalogue's words for the kinds of engine error (the engine's text is English)
ERROR_KEYS: tuple[tuple[type[TavliError], str], ...] = (
    (IllegalMove, "tui.err.illegal"), (GameOver, "tui.err.over"),
    (WrongState, "tui.err.state"), (ParseError, "tui.err.unreadable"),
    (InvalidPosition, "tui.err.unreadable"))


def terminal_lang(chosen: str | None, env: Mapping[str, str] | None = None) -> str:
    """The terminal's language: ``chosen`` (``--lang``) if it is one of ours, else the
    environment's first locale variable that is set (``el_GR.UTF-8``), else English."""
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return i18n.negotiate(value.split(".")[0].split("@")[0], chosen)
    return i18n.negotiate(None, chosen)


def _(key: str, **params: Any) -> str:
    """The message ``key`` in the language of the session (:func:`tavli.i18n.current`)."""
    return i18n.gettext(i18n.current(), key, **params)


def side(s: int) -> str:
    """The name of side ``s`` (0 white, 1 black) in the session's language."""
    return _("side.white" if s == 0 else "side.black")


def points(n: int, won: bool = False) -> str:
    """``n`` points in words (``1 point``, ``3 πόντοι``); ``won``: as the object of a
    verb (Greek ``κερδίζουν 3 πόντους``)."""
    return i18n.ngettext(i18n.current(), "tui.points_won" if won else "n.points", n)


def _plain(word: str) -> str:
    """``word`` lower-case without accents (``Όχι`` reads as ``οχι``)."""
    return "".join(c for c in unicodedata.normalize("NFD", word.strip().lower())
                   if not unicodedata.combining(c))


def answer(line: str) -> bool | None:
    """A yes-or-no answer typed: True for yes, False for no, None for anything else. The
    English words (``yes``, ``y``, ``no``, ``n``) are read in every language, and so are
    the session's (``ναι``/``όχι``, ``sì``/``no``, ``ja``/``nein``) and their first
    letters, with or without accents."""
    typed = _plain(line)
    for value, key, english in ((True, "tui.yes", "yes"), (False, "tui.no", "no")):
        word = _plain(_(key))
        if typed and typed in (english, english[0], word, word[0]):
            return value
    return None


def error_text(e: TavliError, typed: str = "") -> str:
    """An engine error for the player: in English the engine's own words; in another
    language the catalogue's words for its kind, with what the player typed (``typed``).

    >>> with i18n.using("de"):
    ...     error_text(IllegalMove("24/18 is blocked"), "24/18")
    '24/18: kein gültiger Zug (moves zeigt die Liste)'
    """
    if i18n.current() == i18n.DEFAULT:
        return str(e)
    typed = typed.strip()[:40]
    for kind, key in ERROR_KEYS:
        if isinstance(e, kind):
            return _(key, typed=typed)
    return _("tui.err.other", typed=typed)


__all__ = ["terminal_lang", "_", "side", "points", "answer", "error_text"]
