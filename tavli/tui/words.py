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
...     _("tui.bye"), side(1)
('Γεια.', 'μαύρα')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from .. import i18n


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


__all__ = ["terminal_lang", "_", "side"]
