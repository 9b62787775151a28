"""Dama (draughts) as a kind of game of the browser app's one API (docs/web.md, "Dama"):
how a Dama game is made, stored, shown and played (:class:`DamaGames`); the routes are
those of every game, ``/api/games``.

The server decides what is legal (:class:`tavli.play.dama.game.DamaGame`); the page only
offers moves from the state's ``legal_moves``. Each game is a row of the table
``dama_games`` in the app's SQLite file (the rule set, the players and the list of plies
played: :meth:`tavli.store.local.LocalStore.save_dama`), written after every action, so a
game survives a restart of the server.

>>> from tavli.web.api import TavliApi
>>> api = TavliApi(":memory:")
>>> st = api.create(NewGame(variant="russian", opponent="human"))
>>> st["turn"], len(st["legal_moves"]), st["fen"]
('white', 7, 'W:W21-32:B1-12')
>>> api.move(st["id"], MoveBody(move="22-18"))["turn"]
'black'
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tavli.engine.dama.board import BLACK, WHITE, DamaMove, parse_square, square_coords
from tavli.engine.dama.rules import DamaRules
from tavli.engine.games import lookup, menu_name
from tavli.engine.games.dama import DamaVariant
from tavli.errors import IllegalMove, ParseError, RuleError, TavliError
from tavli.i18n import msg
from tavli.play.dama.game import DamaGame, reason_msg
from tavli.store.local import LocalStore
from tavli.web import listing, workers
from tavli.web.errors import ApiError, either, engine_error
from tavli.web.kind import Do, GameKind, HuffBody, MoveBody
from tavli.web.newgame import NewGame
from tavli.web.sessions import players

#: Dama's name in the lists and a game's state (``game``)
NAME = "dama"
SIDES = ("white", "black")
# the backgammon dialog's levels, read as Dama levels
LEVEL_ALIASES = {"beginner": "1", "casual": "2", "intermediate": "3", "advanced": "4",
                 "expert": "default", "worldclass": "full"}
#: the Dama levels by the dialog's level names (for the page: "AI (expert)")
LEVEL_NAMES = {v: k for k, v in LEVEL_ALIASES.items()}


@dataclass(eq=False)
class DamaSession:
    """One Dama game in memory, with its own lock."""

    id: str
    game: DamaGame
    meta: dict[str, Any]            # "players"; "rematch_of" for a rematch
    created: float
    last: dict[str, Any] | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    version: int = 0  # counts the saved actions: the AI's answer is for one version
    thinking: threading.Lock = field(default_factory=threading.Lock)  # an AI move pending
    kind: Any = field(default=None, repr=False)

    imported = False   # Dama games are not imported
    what = "game"

    @property
    def finished(self) -> bool:
        return self.game.is_over()


def plies(g: DamaGame) -> list[str]:
    """The plies played, as stored: ``22x13x6`` (every landing square) or ``*22``."""
    return [f"*{p.huffed}" if p.move is None else p.move.notation(g.rules, full=True)
            for p in g.record]


def replay(rules: str, huffing: bool, played: list[str]) -> DamaGame:
    """The game of the stored plies (:func:`plies`) under ``rules``."""
    g = DamaGame(rules, huffing=huffing)
    for ply in played:
        if ply.startswith("*"):
            g.huff(int(ply[1:]))
        else:
            g.play(ply)
    return g


def move_json(m: DamaMove, rules: DamaRules) -> dict[str, Any]:
    """A move as the state shows it: in its rule set's players' notation (Russian: c3-d4,
    c3:e5; else 22-18), its path from the start square, what it captures."""
    return {"notation": rules.move_text(m), "full": rules.move_text(m, full=True),
            "start": m.start,
            "end": m.end, "path": [m.start, *(m.path or (m.end,))],
            "captures": list(m.captures), "king": m.king, "promotes": m.promotes,
            "captured_names": [rules.square_text(c) for c in m.captures]}


def rule_set(variant: str) -> DamaVariant | None:
    """The Dama rule set a request's ``variant`` names (``dama``, ``russian``, ``italian``
    or another of their names in the registry), or None."""
    v = lookup(variant)
    return v if isinstance(v, DamaVariant) else None


def rules_of(variant: str, options: dict[str, Any] | None) -> DamaRules:
    """The rules of the rule set ``variant`` names with the request's rule ``options``
    (``{"huffing": false}``), as a dice game's; 422 for an option it lacks or a bad
    value."""
    try:
        return DamaRules.for_game(rule_set(variant) or variant, options or {})
    except TavliError as e:
        raise engine_error(e) from None


def dama_level(level: str) -> str:
    """The Dama level of a request's ``level`` (the dialog's names read as Dama levels);
    422 for one that is not a level (it is used at every AI move: refused now)."""
    from tavli.ai.dama import parse_level

    level = level.strip().lower()
    level = LEVEL_ALIASES.get(level, level)
    try:
        parse_level(level)
    except RuleError as e:
        raise ApiError(422, f"level: {e}", "invalid", key="err.level") from None
    return level


def refuse_dice_fields(req: NewGame) -> None:
    """422 for a new game's fields that Dama has no use for (no dice, no match, no set-up
    position)."""
    given = [name for name in ("points", "first", "seed", "position")
             if getattr(req, name) is not None]
    if req.points == 1:
        given.remove("points")   # a single game: what every Dama game is
    if given:
        raise ApiError(422, f"{', '.join(given)}: Dama takes no points, first, seed or "
                            "position", "invalid", key="err.fields",
                       params={"fields": ", ".join(given)})


class DamaGames(GameKind):
    """Dama games over the app's store (its SQLite file, table ``dama_games``)."""

    listed = listing.DAMA
    display = "a Dama game"
    decide = staticmethod(workers.dama_move)

    def __init__(self, store: LocalStore, budget: float = workers.DAMA_BUDGET) -> None:
        self.store = store
        self.budget = budget   # seconds an AI move may think, whatever its level

    # making and storing ----------------------------------------------------------------
    def makes(self, variant: str) -> bool:
        return rule_set(variant) is not None

    def new_session(self, req: NewGame) -> DamaSession:
        refuse_dice_fields(req)
        level = dama_level(req.level)
        try:
            g = DamaGame(rules_of(req.variant, req.rules))
        except TavliError as e:
            raise engine_error(e) from None
        who = players(req.opponent, req.ai_side, level)
        return DamaSession(secrets.token_hex(6), g, {"players": who}, time.time())

    def rematch_request(self, s: DamaSession) -> NewGame:
        r = s.game.rules
        who = s.meta["players"]
        ai = [side for side in SIDES if who[side]["type"] == "ai"]
        return NewGame(variant=menu_name(r.variant), rules=r.options(),
                       opponent="ai" if ai else "human",
                       level=who[ai[0]].get("level", "default") if ai else "default",
                       ai_side=ai[0] if ai else "black")

    def load(self, game_id: str) -> DamaSession | None:
        row = self.store.dama(game_id)
        if row is None:
            return None
        g = replay(row["rules"], bool(row["huffing"]), row["plies"])
        return DamaSession(game_id, g, row["meta"], row["created"])

    def stored(self, game_id: str) -> bool:
        return self.store.dama(game_id) is not None

    def save(self, s: DamaSession) -> None:
        g = s.game
        self.store.save_dama(s.id, rules=g.rules.name, huffing=g.rules.huffing,
                             status="over" if g.is_over() else "playing", created=s.created,
                             plies=plies(g), meta=s.meta)

    def remove(self, game_id: str) -> bool:
        return self.store.delete_dama(game_id)

    def state(self, s: DamaSession) -> dict[str, Any]:
        g = s.game
        p = g.position
        r = g.rules
        squares = []
        for sq in range(1, 33):
            ch = p.piece_at(sq)
            rank, file = square_coords(sq, r)
            squares.append({"square": sq, "name": r.square_text(sq), "rank": rank, "file": file,
                            "piece": None if not ch else ("king" if ch.isupper() else "man"),
                            "colour": None if not ch else ("white" if ch in "wW" else "black")})
        turn = SIDES[g.turn]
        over = g.is_over()
        winner = g.winner()
        who = s.meta["players"]
        return {
            "id": s.id, "game": NAME, "rules": r.name, "huffing": r.huffing,
            "rules_text": r.option_text, "italian_board": r.italian_board,
            # the page's words by key: the rule set, the AI levels, why it ended
            "rules_key": r.title_key,
            "notation": r.notation,
            "levels": {side: LEVEL_NAMES[str(p_.get("level"))] for side, p_ in who.items()
                       if p_["type"] == "ai" and str(p_.get("level")) in LEVEL_NAMES},
            "compulsory": r.compulsory, "players": who, "fen": p.fen(),
            "turn": turn, "to_act": None if over else who[turn]["type"],
            "board": squares, "counts": {SIDES[c]: {"men": p.count(c)[0], "kings": p.count(c)[1]}
                                         for c in (WHITE, BLACK)},
            "legal_moves": [move_json(m, r) for m in g.legal_moves()],
            "huff": [] if over else g.huff_candidates, "over": over, "result": g.result,
            "winner": None if winner is None else SIDES[winner],
            "reason": g.end_reason(), "reason_msg": reason_msg(g), "plies": len(g.record),
            "history": [{"side": SIDES[x.colour],
                         "text": (f"*{r.square_text(x.huffed)}" if x.move is None
                                  else r.move_text(x.move))} for x in g.record],
            "last": s.last,
        }

    # who acts --------------------------------------------------------------------------
    def over(self, s: DamaSession) -> ApiError | None:
        g = s.game
        if not g.is_over():
            return None
        return ApiError(409, f"the game is over ({g.result}, {g.end_reason()})", "game_over",
                        key="err.game_over")

    def actor(self, s: DamaSession) -> str:
        return SIDES[s.game.turn]

    # the AI ----------------------------------------------------------------------------
    def ai_job(self, s: DamaSession, side: str) -> dict[str, Any]:
        """The plies played, the level, at most :attr:`budget` seconds
        (:func:`tavli.web.workers.dama_move`)."""
        g = s.game
        return {"rules": g.rules.name, "huffing": g.rules.huffing, "plies": plies(g),
                "level": s.meta["players"][side].get("level", "default"),
                "budget": self.budget}

    def ai_apply(self, s: DamaSession, side: str, decision: dict[str, Any]) -> None:
        g = s.game
        huffed = decision["huff"]
        if huffed is not None:
            g.huff(huffed)
        played = g.play(decision["move"])
        s.last = last_move(side, played, g.rules, huffed, by="ai")

    # actions ---------------------------------------------------------------------------
    def move(self, body: MoveBody) -> Do:
        either('move (text such as "22-18") or path (the squares visited)', move=body.move,
               path=body.path, steps=body.steps)
        if body.steps is not None:
            raise ApiError(422, "steps: a Dama move is its text (move) or the squares it "
                                "visits (path)", "invalid", key="err.fields",
                           params={"fields": "steps"})

        def do(s: DamaSession, side: str) -> None:
            g = s.game
            mv: DamaMove | str
            if body.path is not None:
                found = [m for m in g.legal_moves()
                         if [m.start, *(m.path or (m.end,))] == body.path]
                if not found:
                    raise IllegalMove(f"no legal move visits {body.path}")
                mv = found[0]
            else:
                mv = body.move.strip()
                if not mv or mv.startswith("*"):
                    raise ParseError("a move such as 22-18 (huff with POST .../huff)")
            s.last = last_move(side, g.play(mv), g.rules)

        return do

    def huff(self, body: HuffBody) -> Do:
        def do(s: DamaSession, side: str) -> None:
            g = s.game
            sq = parse_square(body.square, g.rules) if isinstance(body.square, str) \
                else body.square
            if sq not in g.huff_candidates:
                raise IllegalMove(f"square {sq} cannot be huffed now "
                                  f"(candidates: {g.huff_candidates or 'none'})")
            g.huff(sq)
            s.last = {"kind": "huff", "side": side, "by": "human", "huffed": sq,
                      "huff_msg": huff_msg(side, sq, g.rules, "human")}

        return do

    def undo(self, s: DamaSession) -> None:
        """Take back the last human move, with the AI's replies after it."""
        g = s.game
        who = s.meta["players"]
        if g.is_over():
            raise ApiError(409, f"the game is over ({g.result}, {g.end_reason()}): it "
                                "cannot be taken back", "game_over", key="err.game_over")
        if not any(who[SIDES[p.colour]]["type"] == "human" for p in g.record):
            raise ApiError(409, "nothing to undo", "wrong_state", key="err.nothing_to_undo")
        while g.record and who[SIDES[g.record[-1].colour]]["type"] == "ai":
            g.undo()
        # the human's ply (and a huff made just before it, by the same side)
        colour = g.record[-1].colour
        g.undo()
        while g.record and g.record[-1].colour == colour and g.record[-1].move is None:
            g.undo()
        s.last = {"kind": "undo"}


def last_move(side: str, mv: DamaMove, rules: DamaRules, huffed: int | None = None,
              by: str = "human") -> dict[str, Any]:
    """The state's ``last`` after a move (``huffed``: the square huffed just before, with
    ``huff_msg`` saying so)."""
    return {"kind": "move", "side": side, "by": by, "huffed": huffed,
            "huff_msg": None if huffed is None else huff_msg(side, huffed, rules, by),
            **move_json(mv, rules)}


def huff_msg(side: str, square: int, rules: DamaRules, by: str) -> dict[str, Any]:
    """What a huff did and why, as a catalogue message: ``side`` removed the piece on
    ``square``, the one that could have captured and did not (the page has no other
    trace of it than the board and the move list's ``*19``).

    >>> huff_msg("black", 13, DamaRules.for_name("box"), "ai")["key"]
    'dama.huffed.ai'
    """
    return msg("dama.huffed.ai" if by == "ai" else "dama.huffed",
               side=msg(f"side.cap.{side}"), square=rules.square_text(square))


__all__ = ["DamaGames", "DamaSession", "NAME", "rule_set", "rules_of", "plies", "replay"]
