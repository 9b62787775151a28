"""What the page shows, worked out on the server (the page has no rules).

* :func:`state`: the state of a game or match as the API answers it, with
  :func:`message` (what is going on, in words) and :func:`title`;
* :func:`numbering`: whose numbering the board's labels and the messages use;
* :func:`last_moves`: the last turn of each side, with the points its checkers left and
  reached and its text in the viewer's numbering;
* :func:`opening_text`: the opening throw as it happened, consistent with the dice drawn;
* :func:`event_text`: one line of the move list.

Rolls are written higher die first (:func:`tavli.engine.dice.dice_text`).

>>> from tavli.play.game import Game
>>> g = Game("portes", seed=3)
>>> _ = g.roll()
>>> opening_text(g)
'Opening throw: white 2, black 5 — black starts and rolls 5-2.'
>>> _ = g.play("13/8 13/11")
>>> last_moves(g, 0)["black"]["shown"], last_moves(g, 0)["black"]["to"]
('12/17 12/14', [11, 8])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tavli import i18n
from tavli.engine.dice import dice_text
from tavli.engine.games import ROTATIONS, find_variant
from tavli.engine.layout import SIDE_NAMES
from tavli.errors import TavliError
from tavli.i18n import Translator
from tavli.play.game import Game
from tavli.play.history import opening_throws
from tavli.web.steps import board_fields, last_frames, move_frames

if TYPE_CHECKING:
    from tavli.engine.board import Move
    from tavli.web.sessions import Session


def numbering(players: Mapping[str, Mapping[str, Any]], turn: int) -> int:
    """The side whose numbering the page uses: the one person against the AI, else (two
    players on one device, or an imported record) the side to act."""
    humans = [i for i, s in enumerate(SIDE_NAMES) if players[s].get("type") == "human"]
    return humans[0] if len(humans) == 1 else turn


def _ends(steps: list[tuple[int, int, bool]]) -> tuple[list[int], list[int]]:
    """The points checkers left and came to rest on (not those a checker passed)."""
    froms = [f for f, _t, _h in steps]
    tos = [t for _f, t, _h in steps]
    for p in list(froms):
        if p in tos:
            froms.remove(p)
            tos.remove(p)
    return sorted(set(froms), reverse=True), sorted(set(tos), reverse=True)


def last_moves(game: Game, viewer: int | None,
               frames: bool = True) -> dict[str, dict[str, Any] | None]:
    """The last turn of each side in ``game`` (None before its first): ``turn`` (its
    number in the game), ``dice``, ``dice_text``, ``move`` (mover's numbering, as
    recorded), ``shown`` (the same move in ``viewer``'s numbering; None: the mover's),
    ``steps``, ``from`` and ``to`` (mover's numbering; 25 the bar, 0 off; ``[]`` for a
    pass), ``pass`` and, with ``frames``, ``frames`` (the boards step by step,
    :func:`tavli.web.steps.move_frames`)."""
    out: dict[str, dict[str, Any] | None] = {s: None for s in SIDE_NAMES}
    turns = game.turns  # made anew at each reading: read once
    for number in range(len(turns), 0, -1):
        before, dice, move = turns[number - 1]
        side = SIDE_NAMES[before.turn]
        if out[side] is not None:
            continue
        steps = [] if move is None else [(f, t, bool(h)) for f, t, h in move.steps]
        froms, tos = _ends(steps)
        out[side] = {"side": side, "turn": number, "dice": list(dice),
                     "dice_text": dice_text(dice),
                     "move": "" if move is None else str(move),
                     "shown": "" if move is None else (
                         str(move) if viewer is None else move.seen_by(viewer)),
                     "steps": [list(s) for s in steps], "from": froms, "to": tos,
                     "pass": move is None}
        if frames:
            out[side]["frames"] = move_frames(before, dice, steps)
        if all(out.values()):
            break
    return out


def opening_text(game: Game) -> str | None:
    """What the opening throw of ``game`` did (None when it had none or it is not thrown):
    the dice of each side (ties thrown again), who starts and the dice he plays — a new
    roll under ``opening_reroll`` (Tavli), else the two opening dice (backgammon)."""
    throws = opening_throws(game.history)
    if not throws:
        return None
    _ = Translator(i18n.current())
    parts = [_("srv.throw", white=w, black=b) for w, b in throws]
    ties = "".join(_("srv.tie", throw=p) for p in parts[:-1])
    w, b = throws[-1]
    starter = "white" if w > b else "black"
    dice = game.turns[0][1] if game.turns else game.dice
    if dice is None:
        return _(f"srv.opening.{starter}", throws=ties + parts[-1])
    shown = dice_text(dice)
    if game.rules.opening_reroll:
        return _(f"srv.opening.rolls.{starter}", throws=ties + parts[-1], dice=shown)
    return _(f"srv.opening.with.{starter}", throws=ties + parts[-1], dice=shown)


def event_text(ev: Mapping[str, Any], lang: str | None = None) -> str:
    """One event of the record (:mod:`tavli.play.record`) as a line of the move list, in
    ``lang`` (default the request's language).

    >>> event_text({"side": "black", "dice": [2, 5], "move": "13/8"})
    'black 5-2: 13/8'
    >>> event_text({"side": "white", "double": 2}, "de")
    'Weiß verdoppelt auf 2'
    >>> event_text({"side": "black", "resign": "gammon"}, "el")
    'μαύρα: παραίτηση με μαρς'
    """
    _ = Translator(lang or i18n.current())
    if "opening" in ev:
        w, b = ev["opening"]
        return _("srv.ev.opening", white=w, black=b)
    side = ev.get("side", "")
    who = _(f"side.{side}") if side in SIDE_NAMES else side
    if "dice" in ev:
        return _("srv.ev.move", side=who, dice=dice_text(ev["dice"]),
                 move=ev.get("move") or _("srv.ev.no_move"))
    if "double" in ev:
        return _("srv.ev.double", side=who, value=ev["double"])
    for word in ("take", "drop", "beaver"):
        if ev.get(word):
            return _(f"srv.ev.{word}", side=who)
    # giving up: resigning (single, gammon, backgammon), a forfeit (time, abandoned), or
    # accepting a draw
    if ev.get("resign") in ("single", "gammon", "backgammon"):
        return _(f"srv.ev.resign.{ev['resign']}", side=who)
    if ev.get("forfeit") in ("time", "abandoned"):
        return _(f"srv.ev.forfeit.{ev['forfeit']}", side=who)
    if ev.get("draw") == "agreed":
        return _("srv.ev.draw", side=who)
    return f"{who} {' '.join(k for k in ev if k != 'side')}".strip()


def title(kind: str, points: int, players: Mapping[str, Mapping[str, Any]],
          imported: bool, lang: str = i18n.DEFAULT, *, practice: bool = False,
          continued: bool = False, unfinished: bool = False) -> str:
    """The title of a game or match in the list: what is played and by whom, in ``lang``
    (English: the title stored with the game; ``practice`` and ``continued`` add what the
    stored title says after it; ``unfinished``: an imported file that ends before its
    game or match does — a file cut short reads so too, so the title says it).

    >>> title("tavli", 5, {"white": {"type": "human"}, "black": {"type": "human"}}, False)
    'Tavli match to 5: two players'
    >>> title("bg", 1, {"white": {"type": "human"}, "black": {"type": "ai",
    ...                                                    "level": "expert"}}, False)
    'Backgammon: you (white) vs AI expert'
    >>> title("fevga", 3, {"white": {"type": "ai", "level": "expert"},
    ...                    "black": {"type": "human"}}, False, "el")
    'Φεύγα, αγώνας στους 3: εσύ (μαύρα) με τον υπολογιστή (έμπειρος)'
    """
    _ = Translator(lang)
    if kind in ROTATIONS:
        name = i18n.game_name(lang, kind)
    else:
        v = find_variant(kind)
        name = i18n.game_name(lang, v.name) if f"game.{v.name}" in i18n.catalogue(lang)[
            "messages"] else v.display
    what = _("srv.title.match", name=name, n=points) if kind in ROTATIONS or points > 1 \
        else name
    ai = [s for s in SIDE_NAMES if players[s]["type"] == "ai"]
    if imported:
        out = _("srv.title.imported_unfinished" if unfinished else "srv.title.imported",
                what=what)
    elif not ai:
        out = _("srv.title.two", what=what)
    else:
        level = players[ai[0]].get("level", "")
        if lang != i18n.DEFAULT and f"level.{level}" in i18n.catalogue(lang)["messages"]:
            level = _(f"level.{level}")
        side = _(f"side.{'black' if ai[0] == 'white' else 'white'}")
        out = _("srv.title.vs_ai", what=what, side=side, level=level).rstrip()
    if continued:
        out = _("srv.title.continued", title=out)
    return _("srv.title.practice", title=out) if practice else out


def display_title(meta: Mapping[str, Any], lang: str | None = None) -> str:
    """The title of a game as the page shows it in ``lang`` (default the request's): the
    stored title in English, else made again from what the game plays (the stored
    title is English: it is what the Games dialog's text filter searches)."""
    lang = lang or i18n.current()
    stored = str(meta.get("title", ""))
    if lang == i18n.DEFAULT or "variant" not in meta or "players" not in meta:
        return stored
    try:
        return title(meta["variant"], int(meta.get("points") or 1), meta["players"],
                     bool(meta.get("imported")), lang, practice=bool(meta.get("practice")),
                     continued=bool(meta.get("continued_from")),
                     unfinished=bool(meta.get("unfinished")))
    except (KeyError, TypeError, ValueError, TavliError):
        return stored


def steps_json(move: Move) -> list[list[Any]]:
    """A move's single steps ``[from, to, hit or pin]``."""
    return [[f, t, bool(h)] for f, t, h in move.steps]


def last_shown(last: dict[str, Any] | None) -> dict[str, Any] | None:
    """The stored last action with its roll written for people (higher die first) and, for
    a move, its boards step by step (``frames``, :func:`tavli.web.steps.last_frames`)."""
    if last and last.get("dice"):
        frames = last_frames(last)
        return {**last, "dice_text": dice_text(last["dice"]),
                **({"frames": frames} if frames is not None else {})}
    return last


def state(s: Session, engine_name: Callable[[int], str]) -> dict[str, Any]:
    """The state of ``s`` as the API answers it (docs/web.md); ``engine_name(game)`` says
    which engine plays a game for the AI."""
    g = s.game
    m = s.match
    pos = g.position
    players: dict[str, Any] = s.meta["players"]
    legal = g.legal_moves() if g.phase == "move" else []
    actor = SIDE_NAMES[g.turn]
    over = g.is_over
    score = s.score()
    if m is not None:
        winner = None if not m.is_over else SIDE_NAMES[m.winner or 0]
    else:
        winner = (SIDE_NAMES[g.outcome.winner] if g.outcome is not None
                  and g.outcome.winner is not None else None)
    throws = opening_throws(g.history)
    ai_to_act = (not over and not s.imported and g.phase != "opening"
                 and players[actor]["type"] == "ai")
    viewer = numbering(players, g.turn)
    players = {side: {**p, "engine": engine_name(g.rules.game)}
               if p["type"] == "ai" else dict(p) for side, p in players.items()}
    return {
        "id": s.id,
        "title": display_title(s.meta),
        "kind": "match" if m is not None else "game",
        "variant": s.meta["variant"],
        "imported": s.imported,
        "practice": bool(s.meta.get("practice")),
        "game": g.rules.game_name,
        "rules": g.rules.to_dict(),
        "game_number": len(m.games) if m is not None else 1,
        "target": m.target if m is not None else None,
        "games": [{"game": x.rules.game_name,
                   "result": x.outcome.to_dict() if x.outcome else None} for x in s.games],
        "score": {"white": score[0], "black": score[1]},
        "finished": s.finished,
        "winner": winner,
        "phase": g.phase,
        "turn": actor,
        "mover": SIDE_NAMES[pos.turn],
        "dice": list(g.dice) if g.dice else None,
        "dice_text": dice_text(g.dice) if g.dice else None,
        "opening": throws[-1] if throws else None,
        "opening_text": opening_text(g),
        "numbering": SIDE_NAMES[viewer],
        "position": pos.to_json(),
        "position_id": pos.id(),
        "legal_moves": [{"move": str(mv), "steps": steps_json(mv)} for mv in legal],
        **board_fields(g, person=not ai_to_act and not s.imported),
        "pips": {"white": pos.pip_count(0), "black": pos.pip_count(1)},
        "cube": {"used": g.rules.cube, "value": g.cube_value,
                 "owner": None if g.cube_owner is None else SIDE_NAMES[g.cube_owner],
                 "can_double": g.can_double(), "crawford": g.crawford,
                 # the side doubled may beaver (money play with beavers on)
                 "can_beaver": g.phase == "double" and bool(g.rules.beavers)
                 and not g.match_play},
        "outcome": g.outcome.to_dict() if g.outcome else None,
        # what the person to act may concede (POST .../resign), as online
        "resign_values": g.resign_values()
        if g.phase not in ("over", "opening") and not s.imported else [],
        "players": players,
        "ai_to_act": ai_to_act,
        "last": last_shown(s.last),
        "last_moves": last_moves(g, viewer),
        "history": list(g.events),
        "history_text": [event_text(ev) for ev in g.events],
        "message": message(s),
    }


def message(s: Session) -> str:
    """What is going on, in words (the page's status line)."""
    g = s.game
    m = s.match
    _ = Translator(i18n.current())
    who = SIDE_NAMES[g.turn]
    parts = []
    last = s.last
    if last and last.get("kind") == "pass":
        parts.append(_(f"st.pass.{last['side']}", dice=dice_text(last["dice"])))
    if g.phase == "over" and g.outcome is not None:
        o = g.outcome
        if o.winner is None:
            parts.append(_("srv.draw"))
        else:
            parts.append(_.n(f"srv.win.{SIDE_NAMES[o.winner]}", o.points,
                             kind=_(f"kind.{o.kind}")))
        if m is not None:
            sc = m.score
            if m.is_over:
                parts.append(_(f"srv.match_won.{SIDE_NAMES[m.winner or 0]}", won=max(sc),
                               lost=min(sc)))
            else:
                parts.append(_("srv.next_game", white=sc[0], black=sc[1]))
    elif g.phase == "opening":
        parts.append(_("srv.opening_phase"))
    elif g.phase == "roll":
        parts.append(_(f"st.roll_double.{who}" if g.can_double() else f"st.roll.{who}"))
    elif g.phase == "double":
        parts.append(_(f"srv.doubles.{SIDE_NAMES[1 - g.turn]}", value=g.cube_value * 2))
    elif g.phase == "move" and g.dice:
        if last and last.get("kind") == "opening":
            parts.append(opening_text(g) or "")
        parts.append(_(f"srv.move.{who}", dice=dice_text(g.dice)))
    return " ".join(parts)
