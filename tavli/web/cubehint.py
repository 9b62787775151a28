"""The browser app's cube hint (``GET /api/games/{id}/cube-hint``, docs/web.md).

A cube decision is due in a backgammon game when the side on roll may double (before
its roll) or when a double waits for its answer (take, pass or beaver). The server says
so in the state (``cube_hint``); the page shows its Cube hint button only then.

The server reads what the decision needs under the game's lock (:func:`cube_job`: the
position, the cube and, in a match, the score, from the doubler's view); a worker
process (:mod:`tavli.web.workers`) computes it with :func:`tavli.cube_decision` at the
hint's ply (:func:`cube_hint`) and answers gnubg's figures: the proper action, the
equities of No double / Double, take / Double, pass and the cubeless probabilities.

>>> from tavli.play.game import Game
>>> g = Game("backgammon", seed=2, first=0)
>>> due(g)
'double'
>>> g.double()
>>> due(g), due(Game("portes", seed=2, first=0))
('take', None)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tavli.engine.layout import SIDE_NAMES
from tavli.web.errors import ApiError

if TYPE_CHECKING:
    from tavli.play.game import Game
    from tavli.web.sessions import Session


def due(game: Game) -> str | None:
    """The cube decision due now in ``game``: ``"double"`` (the side on roll may double
    before its roll), ``"take"`` (a double waits for its answer), or None."""
    if not game.rules.cube or game.is_over:
        return None
    if game.phase == "double":
        return "take"
    if game.phase == "roll" and game.can_double():
        return "double"
    return None


def cube_job(s: Session, ply: int, engine: str) -> dict[str, Any]:
    """What a worker needs for the cube decision due in ``s`` (under ``s.lock``): 409
    when none is due, or when no network values backgammon (``engine`` is not neural)."""
    from tavli.play.cube.info import CubeInfo

    g = s.game
    role = due(g)
    if role is None:
        if not g.rules.cube:
            raise ApiError(409, f"{g.rules.game_name} is played without the doubling cube: "
                                "no cube decision", "no_cube", key="err.no_cube")
        raise ApiError(409, "no cube decision is due now: a cube hint is given before the "
                            "roll when the side on roll may double, or when a double is "
                            "offered", "not_due", key="err.not_due")
    if engine != "neural":
        raise ApiError(409, f"no trained network for {g.rules.game_name} is installed: the "
                            "cube hint needs one", "unavailable", key="err.no_network")
    doubler = g.position.turn
    ci = CubeInfo.from_game(g, s.match, side=doubler)
    return {"rules": g.rules.to_dict(), "position": g.position.id(), "ply": ply,
            "role": role, "side": SIDE_NAMES[g.turn], "doubler": SIDE_NAMES[doubler],
            "cube": {"cube": ci.cube, "owner": int(ci.owner), "length": ci.length,
                     "away": list(ci.away), "crawford": ci.crawford,
                     "post_crawford": ci.post_crawford, "jacoby": ci.jacoby,
                     "beavers": ci.beavers, "cube_used": ci.cube_used}}


def _situation(ci: Any) -> str:
    from tavli.play.cube.info import Owner

    if ci.is_money:
        head = "Money play" + (", Jacoby" if ci.jacoby else "")
    else:
        head = (f"{ci.length}-point match, {ci.away[0]}-away/{ci.away[1]}-away"
                + (" (Crawford)" if ci.crawford else " (post-Crawford)"
                   if ci.post_crawford else ""))
    cube = ("cube centred" if ci.owner == Owner.CENTRED else
            f"cube {ci.cube} owned by the {'doubler' if ci.owner == Owner.ME else 'taker'}")
    return f"{head}, {cube}"


def _situation_msg(ci: Any) -> dict[str, Any]:
    """:func:`_situation` as a catalogue message (the page writes it in its language)."""
    from tavli.i18n import msg
    from tavli.play.cube.info import Owner

    if ci.is_money:
        head = msg("cube.sit.money_jacoby" if ci.jacoby else "cube.sit.money")
    else:
        tail = ".crawford" if ci.crawford else ".post" if ci.post_crawford else ""
        head = msg("cube.sit.match" + tail, length=ci.length, me=ci.away[0], opp=ci.away[1])
    cube = (msg("cube.sit.centred") if ci.owner == Owner.CENTRED else
            msg("cube.sit.owned_doubler" if ci.owner == Owner.ME else "cube.sit.owned_taker",
                value=ci.cube))
    return msg("cube.sit", head=head, cube=cube)


def _advice_key(d: Any, role: str) -> str:
    """:func:`_advice`'s catalogue key."""
    if role == "take":
        return "cube.adv.pass" if not d.take else "cube.adv.beaver" if d.beaver \
            else "cube.adv.take"
    if not d.available:
        return "cube.adv.unavailable"
    if d.double:
        return "cube.adv.double_take" if d.take else "cube.adv.double_pass"
    return "cube.adv.no_double" if d.take else "cube.adv.too_good"


def _advice(d: Any, role: str) -> str:
    """What the side to decide should do, in a few words."""
    if role == "take":
        if not d.take:
            return "Pass."
        return "Beaver." if d.beaver else "Take."
    if not d.available:
        return "Roll: the cube cannot be turned usefully."
    if d.double:
        return "Double." + (" (The opponent should take.)" if d.take else
                            " (The opponent should pass.)")
    return "Roll: no double." + (" (Too good to double: play for the gammon.)"
                                 if not d.take else "")


def cube_hint(job: dict[str, Any]) -> dict[str, Any]:
    """The cube decision of ``job`` (:func:`cube_job`), in a worker: the proper action,
    the three cubeful equities (and MWCs in a match) from the doubler's view, the
    cubeless probabilities (also as one line, ``cubeless_text``), gnubg's text (``lines``)
    and what to do (``advice``)."""
    from tavli.ai.context import EvalContext
    from tavli.ai.cubeplay import cube_decision
    from tavli.engine.board import Position
    from tavli.engine.rules import Rules
    from tavli.play.cube.cubeful import action_msg
    from tavli.play.cube.info import CubeInfo, Owner
    from tavli.web.workers import _lock

    c = job["cube"]
    ci = CubeInfo(cube=c["cube"], owner=Owner(c["owner"]), length=c["length"],
                  away=tuple(c["away"]), crawford=c["crawford"],
                  post_crawford=c["post_crawford"], jacoby=c["jacoby"], beavers=c["beavers"],
                  cube_used=c["cube_used"])
    with _lock:
        rules = Rules.from_dict(job["rules"])
        d = cube_decision(Position.from_id(job["position"]), ci,
                          EvalContext(plies=job["ply"]), rules=rules)
    role = job["role"]
    word = "redouble" if ci.owner == Owner.ME else "double"
    names = (f"No {word}", f"{word.capitalize()}, take", f"{word.capitalize()}, pass")
    values = (d.nd, d.dt, d.dp)
    chosen = (0 if not (d.available and d.double) else 1 if d.take else 2) \
        if role == "double" else (1 if d.take else 2)
    best = values[chosen]
    keys = [f"cube.row.{k}" + (".re" if ci.owner == Owner.ME else "")
            for k in ("no_double", "double_take", "double_pass")]
    rows = [{"name": names[k], "name_key": keys[k], "equity": round(values[k], 4),
             "diff": None if k == chosen else round(values[k] - best, 4),
             "mwc": None if d.mwc is None else round(d.mwc[k], 4), "best": k == chosen}
            for k in range(3)]
    p = d.probs
    return {
        "role": role, "side": job["side"], "doubler": job["doubler"], "ply": d.ply,
        "situation": _situation(ci), "action": d.action, "advice": _advice(d, role),
        # the same texts as catalogue messages, for the page to write in its language
        "situation_msg": _situation_msg(ci), "action_msg": action_msg(d.action),
        "advice_key": _advice_key(d, role),
        "note_key": "cube.note.free_drop" if d.note else None,
        "double": d.double, "take": d.take, "beaver": d.beaver, "available": d.available,
        "rows": rows, "equities": d.to_dict()["equities"],
        "mwc": d.to_dict().get("mwc"), "cubeless": round(d.cubeless, 4),
        "probabilities": {"win": round(p[0], 4), "win_gammon": round(p[1], 4),
                          "win_backgammon": round(p[2], 4), "lose": round(1 - p[0], 4),
                          "lose_gammon": round(p[3], 4), "lose_backgammon": round(p[4], 4)},
        "cubeless_text": (f"win {p[0]:.1%} (gammon {p[1]:.1%}, bg {p[2]:.1%}) · lose "
                          f"{1 - p[0]:.1%} (gammon {p[3]:.1%}, bg {p[4]:.1%}) · equity "
                          f"{d.cubeless:+.3f}"),
        "x": d.x, "note": d.note, "lines": d.lines(),
    }


__all__ = ["due", "cube_job", "cube_hint"]
