"""Imported text, whatever its format: the size limit and the lines.

Every import (JSON records, ``.mat``, ``.sgf``, PDN) reads its file through
:func:`read_text_file` and checks a text handed to it with :func:`check_text_size`, so a
file larger than :data:`MAX_TEXT` is refused before it is read or parsed; the parsers
then hold no more than a few copies of the text (:func:`nonblank_lines` hands its lines
out one at a time).
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tavli.errors import RecordError, TavliError

#: characters (bytes of a file) an import reads at most: gnubg's .sgf of a long analysed
#: match is a few MB, a record of the import limits (tavli.play.record) under 2 MB
MAX_TEXT = 8 * 1024 * 1024
_BLANK = re.compile(r"[ \t\r\f\v\n]*")


def check_text_size(size: int, what: str = "the file") -> None:
    """Refuse a text (or file of ``size`` bytes) larger than :data:`MAX_TEXT`."""
    if size > MAX_TEXT:
        raise RecordError(f"{what} is too large to import: {size:,} bytes (at most "
                          f"{MAX_TEXT:,}, {MAX_TEXT // 2**20} MB)")


def read_text_file(path: str | os.PathLike[str]) -> str:
    """A file's text (UTF-8, else Latin-1 without NULs), its size checked first."""
    try:
        with open(path, "rb") as f:
            check_text_size(os.fstat(f.fileno()).st_size, os.fspath(path))
            raw = f.read(MAX_TEXT + 1)
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror or e}") from None
    check_text_size(len(raw), os.fspath(path))  # a file that grew, a pipe
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    if "\x00" in text:
        raise RecordError(f"{path} is not a text file")
    return text


#: characters of a player's name read from a file
MAX_NAME = 40
#: the Unicode categories of what is not shown as text: control and format characters
#: (the bidirectional overrides among them), line and paragraph separators, and lone
#: surrogates (no UTF-8 encodes them: an answer holding one could not be sent)
UNPRINTABLE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def printable(text: str) -> bool:
    """Whether every character of ``text`` shows as text (none is :data:`UNPRINTABLE`): a
    name or a message others read.

    >>> printable("Ann Ζαχαρίου"), printable("A\x10"), printable("A\u009a"), printable("\u202eA")
    (True, False, False, False)
    """
    return not any(unicodedata.category(ch) in UNPRINTABLE for ch in text)


def utf8_encodable(data: Any) -> bool:
    """Whether every string of the JSON value ``data`` (its objects' keys too) is text that
    UTF-8 encodes: a lone surrogate (JSON's ``"\\ud800"``) is not, and an answer echoing
    one could not be sent.

    >>> utf8_encodable({"names": ["Ann", "Zoe"]}), utf8_encodable({chr(0xD800): 1})
    (True, False)
    """
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def player_name(value: object, where: str) -> str:
    """A player's name from a file: text, its unprintable characters (:data:`UNPRINTABLE`)
    and runs of spaces made one space, trimmed, cut to :data:`MAX_NAME` characters (a
    long name is no reason to refuse a match); not text, or nothing left: one
    :class:`RecordError` line."""
    if not isinstance(value, str):
        raise RecordError(f"{where}: a player's name must be text")
    shown = "".join(" " if unicodedata.category(ch) in UNPRINTABLE else ch
                    for ch in value[:4 * MAX_NAME])
    name = " ".join(shown.split())[:MAX_NAME].strip()
    if not name:
        raise RecordError(f"{where}: a player's name is empty")
    return name


def nonblank_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line number from 1, line)`` for each line of ``text`` that is not blank, one at
    a time: runs of blank lines are skipped at C speed and never held as a list."""
    lineno, pos = 1, 0
    while True:
        skip = _BLANK.match(text, pos).end()  # type: ignore[union-attr]
        if skip >= len(text):
            return
        line_start = text.rfind("\n", pos, skip) + 1 or pos
        lineno += text.count("\n", pos, line_start)
        end = text.find("\n", skip)
        if end < 0:
            end = len(text)
        yield lineno, text[line_start:end]
        lineno += 1
        pos = end + 1


@contextmanager
def as_record_errors(fmt: str) -> Iterator[None]:
    """Turn what reading a ``.fmt`` file may raise into one RecordError line: an engine
    error met while replaying it, or a file damaged in a way not foreseen."""
    try:
        yield
    except RecordError:
        raise
    except TavliError as e:
        raise RecordError(str(e)) from None
    except (ValueError, IndexError, KeyError) as e:
        raise RecordError(f"the .{fmt} file is damaged ({type(e).__name__}: {e})") from None
