"""The message catalogues' build step, with the standard library only: read a gettext
``.po`` file and write the ``.mo`` file that :mod:`gettext` loads (GNU format, little
endian, no hash table). ``python -m tavli.i18n_compile`` compiles every catalogue of
``tavli/locale``; the ``.mo`` files are committed, so a fresh clone runs without it, and
``tests/test_i18n.py`` fails when one is out of date. (GNU ``msgfmt`` or Babel's
``pybabel compile`` write equivalent files; neither is needed.)

>>> cat = parse_po('msgid ""\\nmsgstr "Content-Type: text/plain; charset=UTF-8\\\\n"\\n'
...                '\\nmsgid "a.key"\\nmsgstr "Ναι"\\n')
>>> cat["a.key"]
'Ναι'
"""

from __future__ import annotations

import ast
import struct
import sys
from pathlib import Path

LOCALE = Path(__file__).with_name("locale")

#: a catalogue: msgid -> msgstr; a plural entry is keyed by "singular\\0plural" and its
#: forms are joined with "\\0", as in a .mo file
Catalogue = dict[str, str]


class PoError(ValueError):
    """A .po file that does not parse."""


def _unquote(text: str, where: str) -> str:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise PoError(f"{where}: bad string {text[:40]!r}") from None
    if not isinstance(value, str):
        raise PoError(f"{where}: bad string {text[:40]!r}")
    return value


def parse_po(text: str, name: str = "<po>") -> Catalogue:
    """The entries of a .po file (fuzzy ones left out, as msgfmt does)."""
    out: Catalogue = {}
    entry: dict[str, str] = {}
    field = ""
    fuzzy = False

    def flush() -> None:
        nonlocal entry, fuzzy
        if "msgid" in entry and not fuzzy:
            key = entry["msgid"]
            if "msgid_plural" in entry:
                key += "\0" + entry["msgid_plural"]
                forms = [entry[k] for k in sorted(entry) if k.startswith("msgstr[")]
                out[key] = "\0".join(forms)
            else:
                out[key] = entry.get("msgstr", "")
        entry, fuzzy = {}, False

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{n}"
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in entry:
                    flush()
                fuzzy = True
            continue
        if line.startswith('"'):
            if not field:
                raise PoError(f"{where}: a string outside an entry")
            entry[field] += _unquote(line, where)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgid" and "msgid" in entry:
            flush()
        if not (keyword in ("msgid", "msgid_plural", "msgstr", "msgctxt")
                or keyword.startswith("msgstr[")):
            raise PoError(f"{where}: unknown keyword {keyword[:20]!r}")
        field = keyword
        entry[field] = _unquote(rest, where)
    flush()
    return out


def mo_bytes(cat: Catalogue) -> bytes:
    """The GNU .mo file of ``cat`` (entries sorted by msgid, as the format wants)."""
    keys = sorted(cat)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(cat[k].encode() + b"\0" for k in keys)
    n = len(keys)
    start = 7 * 4 + 16 * n          # header, then the two tables of (length, offset)
    offsets_id, offsets_str = [], []
    pos = start
    for k in keys:
        b = k.encode()
        offsets_id += [len(b), pos]
        pos += len(b) + 1
    for k in keys:
        b = cat[k].encode()
        offsets_str += [len(b), pos]
        pos += len(b) + 1
    header = struct.pack("<7I", 0x950412DE, 0, n, 28, 28 + 8 * n, 0, 0)
    return (header + struct.pack(f"<{2 * n}I", *offsets_id)
            + struct.pack(f"<{2 * n}I", *offsets_str) + ids + strs)


def po_files(locale: Path = LOCALE) -> list[Path]:
    """The catalogues: ``locale/<lang>.po``."""
    return sorted(locale.glob("*.po"))


def compile_all(locale: Path = LOCALE) -> list[Path]:
    """Write ``<lang>.mo`` beside each ``<lang>.po``; the paths written."""
    written = []
    for po in po_files(locale):
        mo = po.with_suffix(".mo")
        mo.write_bytes(mo_bytes(parse_po(po.read_text(encoding="utf-8"), po.name)))
        written.append(mo)
    return written


def main() -> int:
    for path in compile_all():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
