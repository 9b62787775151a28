"""Game and match files other programs read and write, one module per format:

- :mod:`tavli.play.formats.matchid`: gnubg's Match ID (beside its Position ID);
- :mod:`tavli.play.formats.xgid`: eXtreme Gammon's XGID;
- :mod:`tavli.play.formats.mat`: gnubg/Jellyfish ``.mat`` match files;
- :mod:`tavli.play.formats.sgf`: gnubg's ``.sgf`` match files;
- :mod:`tavli.play.formats.pdn`: PDN files of Dama games.

:func:`read` and :func:`write` choose the format by the file's extension (``.json`` is the
tavli record of :mod:`tavli.play.record`, which holds every game) or by ``fmt``. Imports
replay every move through the engine: a damaged or illegal file raises one-line
:class:`~tavli.errors.RecordError` and nothing is imported. A game a format cannot hold
(a Dama game as ``.mat``, a Portes game as ``.pdn``) is refused the same way.

>>> from tavli.play.dama.game import DamaGame
>>> dumps(DamaGame("russian"), "sgf")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tavli.errors.RecordError: .sgf files hold backgammon games only (...), not Dama: save it as PDN ...
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from tavli.errors import RecordError

if TYPE_CHECKING:
    from tavli.play.record import Recorded

FORMATS = ("json", "mat", "sgf", "pdn")


def format_of(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The format named by ``fmt``, else by the file's extension."""
    f = (fmt or Path(path).suffix.lstrip(".")).lower()
    if f not in FORMATS:
        what = f"format {fmt!r}" if fmt else f"the extension of {os.fspath(path)!r}"
        raise RecordError(f"{what} names no known format: use one of "
                          f"{', '.join(FORMATS)} (--format)")
    return f


def loads(text: str, fmt: str) -> Recorded:
    """Read a game or match from text in ``fmt`` (json, mat, sgf or pdn; a PDN text of
    several games gives the list of them). A text larger than
    :data:`tavli.play.text.MAX_TEXT` is refused before it is parsed."""
    from tavli.play.text import check_text_size

    check_text_size(len(text), "the text")
    if fmt == "json":
        from tavli.play.record import load_record

        return load_record(text)
    f = format_of("", fmt)
    if f == "pdn":  # its module loads Dama's board (and Numba): only for a PDN file
        from tavli.play.formats import pdn

        return pdn.loads(text)
    from tavli.play.formats import mat, sgf

    return {"mat": mat.loads, "sgf": sgf.loads}[f](text)


def dumps(obj: Recorded, fmt: str) -> str:
    """The text of a game or match in ``fmt`` (json, mat, sgf or pdn)."""
    if fmt == "json":
        import json

        from tavli.play.record import record_of

        return json.dumps(record_of(obj), indent=1) + "\n"
    f = format_of("", fmt)
    if f == "pdn":
        from tavli.play.formats import pdn

        return pdn.dumps(obj)
    from tavli.play.formats import mat, sgf

    return {"mat": mat.dumps, "sgf": sgf.dumps}[f](obj)


def read(path: str | os.PathLike[str], fmt: str | None = None) -> Recorded:
    """Read a game or match file (format by extension unless ``fmt`` is given)."""
    from tavli.play.text import read_text_file

    f = format_of(path, fmt)
    text = read_text_file(path)
    return loads(text, f)


def write(obj: Recorded, path: str | os.PathLike[str], fmt: str | None = None) -> None:
    """Write a game or match file (format by extension unless ``fmt`` is given); the
    old file stays intact until the new one is complete."""
    f = format_of(path, fmt)
    if f == "json":
        from tavli.play.record import save

        save(obj, path)
        return
    text = dumps(obj, f)
    p = Path(os.path.realpath(path))
    tmp = p.with_name(f".tmp-{p.name}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, p)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise RecordError(f"cannot write {path}: {e.strerror or e}") from None


def convert(src: str | os.PathLike[str], dst: str | os.PathLike[str],
            src_format: str | None = None, dst_format: str | None = None) -> Recorded:
    """Read ``src`` and write it to ``dst``; returns the game or match."""
    obj = read(src, src_format)
    write(obj, dst, dst_format)
    return obj
