"""PDN (Portable Draughts Notation) games for Dama: read and write.

Tags written, per rule set (the ``GameType`` values of the PDN standard: 25 Russian,
22 Italian; the long form gives start colour, board size, notation and inversion):

=========  ===========================  =============================================
rule set   ``GameType``                 moves and ``FEN``
=========  ===========================  =============================================
russian    ``25,W,8,8,A0,0``            algebraic, as Russian PDN files have them
                                        (``c3-d4``, ``c3xe5``)
italian    ``22,W,8,8,N2,1``            numeric, FID numbering (``22-18``, ``22x13``)
box        ``25,W,8,8,N2,0`` plus       numeric, Russian board numbered from the top
           ``[Rules "box"]`` and        left (``22-18``); GameType 25 because the box
           ``[Huffing "yes"|"no"]``     game is Russian draughts with two changes
=========  ===========================  =============================================

A huff (box rules) is written as the comment ``{huff 22}`` in front of the move of the
player who huffs; the reader replays it. Captures use ``x`` (``:`` is read too); a
capture is written with its start and end squares, and with every landing square when
that alone would name two different moves.

The reader takes the rule set from ``Rules`` if present, else from ``GameType`` (22:
italian, 25 or none: russian); squares in numeric notation are converted from the
numbering that the ``GameType`` notation field names (``N0``..``N3``: the corner where
square 1 lies), algebraic squares are read as they are.

>>> from tavli.play.dama.game import DamaGame
>>> g = DamaGame("russian")
>>> for m in ("22-18", "11-15", "18x11", "8x15"):
...     _ = g.play(m)
>>> text = write_pdn(g, {"Event": "demo"})
>>> print(text)  # doctest: +ELLIPSIS
[Event "demo"]
...
[GameType "25,W,8,8,A0,0"]
[FEN "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"]
<BLANKLINE>
1. c3-d4 f6-e5 2. d4xf6 g7xe5 *
>>> [str(m) for m in read_pdn(text).moves] == [str(m) for m in g.moves]
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tavli.engine.dama.board import Position, shown, square_at
from tavli.engine.dama.rules import DamaRules
from tavli.engine.games import games as registered_games
from tavli.errors import OptionError, ParseError, RecordError, TavliError
from tavli.play.dama.game import DamaGame
from tavli.play.text import nonblank_lines

SEVEN = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
#: the tags :func:`write_pdn` makes from the game itself (a caller's are left out)
DERIVED_TAGS = ("GameType", "Rules", "Huffing", "FEN")


def _algebraic(rules: DamaRules, notation: str | None) -> bool:
    if notation is None:
        return rules.notation == "algebraic"
    if notation not in ("algebraic", "numeric"):
        raise OptionError(f"notation must be 'algebraic' or 'numeric', not {notation!r}")
    return notation == "algebraic"


def write_pdn(game: DamaGame, tags: dict[str, str] | None = None,
              notation: str | None = None) -> str:
    """The game as PDN text (tags, then the moves and the result). ``tags`` add to or
    replace the seven standard ones (not :data:`DERIVED_TAGS`, which follow the game);
    ``notation``: ``"algebraic"`` or ``"numeric"``; default algebraic for ``russian``,
    numeric otherwise."""
    rules = game.rules
    alg = _algebraic(rules, notation)
    t: dict[str, str] = {k: "?" for k in SEVEN}
    t["Result"] = game.result
    t.update({k: v for k, v in (tags or {}).items() if k not in DERIVED_TAGS})
    t["Result"] = game.result if "Result" not in (tags or {}) else t["Result"]
    t["GameType"] = rules.pdn_gametype(alg)
    if rules.has_huffing:
        t["Rules"] = rules.name
        t["Huffing"] = "yes" if rules.huffing else "no"
    t["FEN"] = game.start.fen(algebraic=alg)
    lines = [f'[{k} "{v}"]' for k, v in t.items()]
    tokens: list[str] = []
    pos = game.start
    number = 1
    first = True
    for ply in game.record:
        if ply.move is None:
            tokens.append(f"{{huff {_name(ply.huffed, rules, alg)}}}")
            b = ~(1 << (ply.huffed - 1))
            pos = Position(pos.wm & b, pos.wk & b, pos.bm & b, pos.bk & b, pos.turn,
                           pos.rules, 0)
            continue
        base = pos.null_huff() if pos.huff else pos
        legal = [m for m in base.legal_moves() if m.huff is None]
        mv = ply.move
        short = mv.notation(rules, alg)
        same = [m for m in legal if m.notation(rules, alg) == short and m.key() != mv.key()]
        text = mv.notation(rules, alg, full=bool(same))
        if pos.turn == 0:
            tokens.append(f"{number}.")
        elif first:
            tokens.append(f"{number}...")
        tokens.append(text)
        if pos.turn == 1:
            number += 1
        first = False
        pos = base.play(mv)
    tokens.append(t["Result"])
    body = _wrap(tokens)
    return "\n".join(lines) + "\n\n" + body + "\n"


def _name(sq: int, rules: DamaRules, alg: bool) -> str:
    from tavli.engine.dama.board import square_name

    return square_name(sq, rules, alg)


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines, cur = [], ""
    for tok in tokens:
        if cur and len(cur) + 1 + len(tok) > width:
            lines.append(cur)
            cur = tok
        else:
            cur = f"{cur} {tok}" if cur else tok
    if cur:
        lines.append(cur)
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------
# reading

# the value as "unrolled" runs of plain characters between escapes: an alternation
# repeated per character made a 15 MB tag value cost gigabytes in Python's re
_TAG = re.compile(r'^\s*\[(\w+)\s+"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]\s*$')
_RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")


def split_games(text: str) -> list[str]:
    """Split a PDN file into the texts of its games."""
    games, cur, in_moves = [], [], False
    for _, line in nonblank_lines(text):
        if _TAG.match(line) and in_moves:
            games.append("\n".join(cur))
            cur, in_moves = [], False
        if line.strip() and not _TAG.match(line):
            in_moves = True
        cur.append(line)
    if any(x.strip() for x in cur):
        games.append("\n".join(cur))
    return games


def _rules_from_tags(tags: dict[str, str]) -> DamaRules:
    name = tags.get("Rules", "").strip().lower()
    if name:
        huff = tags.get("Huffing", "yes").strip().lower() not in ("no", "0", "false", "off")
        try:
            return DamaRules.for_name(name, huff)
        except TavliError as e:
            raise RecordError(f"Rules tag: {e}") from None
    gt = tags.get("GameType", "25").split(",")[0].strip() or "25"
    rule_sets = registered_games()["dama"]
    for variant in rule_sets:
        if str(variant.pdn_game_type) == gt:
            return DamaRules.for_game(variant)
    known = ", ".join(f"{v.pdn_game_type} {v.display}" for v in rule_sets if v.pdn_game_type)
    raise RecordError(f"GameType {gt[:20]} is not a Dama rule set ({known})")


def _numbering(tags: dict[str, str], rules: DamaRules):
    """A function mapping the file's square numbers (texts of ASCII digits) to ours
    (None: ours). A number that is no square of the file's numbering raises
    :class:`~tavli.errors.ParseError`; a notation field that is ``N`` and a character
    other than 0..3 raises :class:`~tavli.errors.RecordError`."""
    parts = tags.get("GameType", "").split(",")
    if len(parts) < 5:
        return None
    code = parts[4].strip().upper()
    if not code.startswith("N") or len(code) < 2 or code[1] == "2":
        return None
    if len(code) != 2 or code[1] not in "0123":
        raise RecordError(f"GameType {shown(tags['GameType'])}: numeric notation "
                          f"{shown(parts[4].strip())} must be N0, N1, N2 or N3 (the corner "
                          f"of square 1)")
    corner = int(code[1])
    table: dict[int, int] = {}
    k = 1
    ranks = range(8) if corner in (0, 1) else range(7, -1, -1)
    for rank in ranks:
        files = range(8) if corner in (0, 2) else range(7, -1, -1)
        for file in files:
            s = square_at(rank, file, rules)
            if s is not None:
                table[k] = s
                k += 1

    def conv(digits: str) -> int:
        n = int(digits) if _digits(digits) and len(digits) <= 6 else 0
        if n not in table:
            raise ParseError(f"square {shown(digits)} is not 1..32 (numbering {code})")
        return table[n]

    return conv


def _renumber(text: str, conv) -> str:
    if conv is None or not re.fullmatch(r"[0-9x:\-]+", text):
        return text
    return re.sub(r"[0-9]+", lambda m: str(conv(m.group())), text)


def read_pdn(text: str) -> DamaGame:
    """The first game of a PDN text, replayed (see :func:`read_pdn_games`)."""
    games = read_pdn_games(text)
    if not games:
        raise RecordError("no game in the PDN text")
    return games[0]


def read_pdn_games(text: str) -> list[DamaGame]:
    """Every game of a PDN text, each replayed into a :class:`DamaGame` (tags kept in
    ``game.tags``). Comments (except ``{huff N}``), variations, NAGs and move numbers
    are skipped; an illegal move raises :class:`~tavli.errors.RecordError`."""
    return replay_pdn_games(parse_pdn_games(text))


@dataclass
class PdnGame:
    """One game of a PDN text as read, not replayed yet: its tags and its plies, each a
    move's text or ``*N`` (a huff of square N, as the file numbers it)."""

    tags: dict[str, str]
    plies: list[str]


def parse_pdn_games(text: str) -> list[PdnGame]:
    """The games of a PDN text, tags and plies read but nothing replayed (a caller can
    count the plies first: :mod:`tavli.play.formats.pdn`)."""
    out = []
    for gtext in split_games(text):
        tags: dict[str, str] = {}
        body = []
        for line in gtext.splitlines():
            m = _TAG.match(line)
            if m:
                tags[m.group(1)] = m.group(2)
            else:
                body.append(line)
        if not tags and not "".join(body).strip():
            continue
        out.append(PdnGame(tags, _plies(" ".join(body))))
    return out


def _plies(moves: str) -> list[str]:
    """The plies of a game's move text, up to its result."""
    moves = re.sub(r"\{\s*huff\s+([a-h][1-8]|[0-9]+)\s*\}", r" *\1 ", moves, flags=re.I)
    moves = re.sub(r"\{[^}]*\}", " ", moves)
    moves = _without_variations(moves)
    moves = re.sub(r"\$[0-9]+", " ", moves)
    plies = []
    for tok in moves.split():
        tok = tok.rstrip("!?")
        if tok in _RESULTS:
            break
        tok = re.sub(r"^[0-9]+\.(\.\.)?", "", tok)
        if tok and not tok.startswith(";") and tok != "*":
            plies.append(tok)
    return plies


def _without_variations(moves: str) -> str:
    """The move text without its variations (``(...)``, nested too), in one pass; a
    variation left open raises :class:`~tavli.errors.RecordError`."""
    out, depth = [], 0
    for part in re.split(r"([()])", moves):
        if part == "(":
            depth += 1
        elif part == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(part)
        else:
            continue
        out.append(" ")
    if depth:
        raise RecordError("a variation '(' is not closed")
    return "".join(out)


def replay_pdn_games(games: list[PdnGame]) -> list[DamaGame]:
    """The games read by :func:`parse_pdn_games`, every ply replayed; an error names the
    game when there are several."""
    out = []
    for i, pg in enumerate(games, 1):
        try:
            out.append(replay_pdn_game(pg))
        except RecordError as e:
            if len(games) == 1:
                raise
            raise RecordError(f"game {i}: {e}") from e
    return out


def replay_pdn_game(pg: PdnGame) -> DamaGame:
    """One game read by :func:`parse_pdn_games`, replayed into a :class:`DamaGame`."""
    tags = pg.tags
    rules = _rules_from_tags(tags)
    conv = _numbering(tags, rules)
    start = None
    if tags.get("FEN"):
        try:
            start = Position.from_fen(_renumber_fen(tags["FEN"], conv), rules)
        except TavliError as e:
            raise RecordError(f"bad FEN tag {shown(tags['FEN'], 60)}: {e}") from e
    game = DamaGame(rules, start=start)
    game.tags = tags  # type: ignore[attr-defined]
    pending_huff = None
    for tok in pg.plies:
        if tok.startswith("*"):
            pending_huff = tok[1:]
            continue
        what = tok
        try:
            if pending_huff is not None:
                what = f"huff {pending_huff} before {tok}"
                game.huff(_square(pending_huff, rules, conv))
                pending_huff = None
                what = tok
            game.play(_renumber(tok, conv))
        except TavliError as e:
            raise RecordError(f"move {len(game.moves) + 1} ({_clip(what, 40)}): {e}") from e
    return game


def _square(text: str, rules: DamaRules, conv) -> int:
    from tavli.engine.dama.board import parse_square

    if conv is not None and _digits(text):
        return conv(text)
    return parse_square(text, rules)


def _clip(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _renumber_fen(fen: str, conv) -> str:
    """The FEN with the file's square numbers turned into ours (a range of the file's
    numbering becomes the list of its squares)."""
    if conv is None:
        return fen
    head, *fields = fen.strip().strip('"').rstrip(".").split(":")
    out = [head]
    for f in (f.strip() for f in fields):
        if not f:
            continue
        items = []
        for item in f[1:].split(","):
            item = item.strip()
            king = item[:1].upper() == "K"
            body = item[1:] if king else item
            a, dash, b = body.partition("-")
            if dash and _digits(a) and _digits(b):
                for end in (a, b):  # both ends must be squares of the file's numbering
                    conv(end)
                if int(a) > int(b):
                    raise ParseError(f"FEN range {shown(item)} runs backwards")
                items.extend(("K" if king else "") + str(conv(str(n)))
                             for n in range(int(a), int(b) + 1))
            elif _digits(body):
                items.append(("K" if king else "") + str(conv(body)))
            else:
                items.append(item)
        out.append(f[0] + ",".join(items))
    return ":".join(out)
