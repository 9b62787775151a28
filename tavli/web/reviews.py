"""Reviews as background jobs: a long review runs in parts in the worker processes while
its progress can be asked for (docs/web.md, ``GET /api/games/{id}/review``).

A job reviews one record at one ply. It sends the record's turns to the workers a few at
a time, one part after the other, so that a long review never holds more than one worker
(AI moves and hints of other games find a free one) and reports ``done`` of ``total``
turns as it goes. Requests for the same review share its job; finished jobs are kept
(the last few), so asking again answers at once; a failed one is tried again when asked.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import threading
from collections import OrderedDict
from typing import Any

from fastapi.responses import JSONResponse, Response

from tavli.engine.dice import dice_text
from tavli.errors import ApiError
from tavli.i18n import msg, ngettext
from tavli.web import workers
from tavli.web.answers import Review, ReviewProgress
from tavli.web.openapi import declared
from tavli.web.workers import EnginePool, PoolError

# turns per part, by ply: about a second of work each
PART = {0: 48, 1: 12, 2: 3}
PARTS = 25  # at least this many parts when the record is long enough (for the progress)


class ReviewJob:
    """One review in the making (or made): its progress, then its result or error."""

    def __init__(self, key: tuple, total: int) -> None:
        self.key = key
        self.total = total
        self.done = 0
        self.result: dict[str, Any] | None = None
        self.body: bytes | None = None  # the result as JSON, made once
        self.error: tuple[int, str, str] | None = None  # (status, message, code)
        self.finished = threading.Event()

    def progress(self) -> dict[str, Any]:
        return {"status": "running", "done": self.done, "total": self.total,
                "progress": round(self.done / self.total, 3) if self.total else 0.0}


#: the review routes' answers (both apps): the review, or its progress; 404 no such game,
#: 409 no network for it (online: not over yet), 422 a bad ply, 500 the engine failed (a
#: bug), 503 too many reviews in the making or the engine gone
ANSWERS = declared(Review, 404, 409, 422, 500, 503,
                   also={202: (ReviewProgress, "the review is being made: ask again "
                                               "(Retry-After)")})


async def answer(job: ReviewJob, wait: float = 1.0) -> Response:
    """The answer to a review request: the review when ``job`` has made it within
    ``wait`` seconds (200), else its progress (202, ask again); its error if it failed."""
    for _ in range(int(wait / 0.05)):
        if job.finished.is_set():
            break
        await asyncio.sleep(0.05)
    if not job.finished.is_set():
        return JSONResponse(job.progress(), status_code=202, headers={"Retry-After": "1"})
    if job.error is not None:
        raise ApiError(*job.error)
    return Response(job.body, media_type="application/json")


def parts(total: int, ply: int) -> list[tuple[int, int]]:
    """``(start, stop)`` of each part of a review of ``total`` turns.

    >>> parts(10, 2)
    [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 9), (9, 10)]
    >>> parts(500, 0)[:2], len(parts(500, 0))
    ([(0, 20), (20, 40)], 25)
    """
    size = max(1, min(PART[ply], math.ceil(total / PARTS)))
    return [(a, min(total, a + size)) for a in range(0, total, size)]


class Reviews:
    """The review jobs of one app, over its :class:`~tavli.web.workers.EnginePool`."""

    def __init__(self, pool: EnginePool, keep: int = 16, most: int | None = None) -> None:
        """``keep``: finished reviews kept; ``most``: reviews in the making at once (None:
        no bound; a server open to anyone sets one: a new review beyond it is refused,
        503, instead of queueing a thread)."""
        self.pool = pool
        self.keep = max(1, keep)
        self.most = most
        self._jobs: OrderedDict[tuple, ReviewJob] = OrderedDict()
        self._lock = threading.Lock()
        # parts of reviews in the workers at once: one worker stays free for AI moves
        self._slots = threading.BoundedSemaphore(max(1, pool.workers - 1))

    def start(self, key: tuple, record: dict[str, Any], digest: str, ply: int, total: int,
              head: dict[str, Any]) -> ReviewJob:
        """The job of ``key``, started if there is none (or the last one failed)."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and not (job.finished.is_set() and job.error is not None):
                self._jobs.move_to_end(key)
                return job
            making = sum(not j.finished.is_set() for j in self._jobs.values())
            if self.most is not None and making >= self.most:
                raise ApiError(503, f"{making} reviews are being made: try again in a "
                                    "minute", "busy", key="err.busy_reviews")
            job = self._jobs[key] = ReviewJob(key, total)
            done = [k for k, j in self._jobs.items() if j.finished.is_set()]
            for k in done[:max(0, len(self._jobs) - self.keep)]:
                del self._jobs[k]
        threading.Thread(target=self._run, args=(job, record, digest, ply, head),
                         name="tavli-review", daemon=True).start()
        return job

    def __len__(self) -> int:
        return len(self._jobs)

    def _run(self, job: ReviewJob, record: dict[str, Any], digest: str, ply: int,
             head: dict[str, Any]) -> None:
        got: list[Any] = []
        try:
            for a, b in parts(job.total, ply) or [(0, 0)]:  # no turn: its cube decisions
                with self._slots:
                    got += self.pool.call(workers.review_part, record, digest, ply, a, b,
                                          timeout=workers.PART_DEADLINE)
                job.done = b  # turns done (the cube decisions come with their turns)
            job.result = finish(head, ply, got)
            job.body = json.dumps(job.result).encode()
        except PoolError as e:
            job.error = (503, f"the review could not be made: {e}", "unavailable")
        except Exception as e:  # noqa: BLE001 - answered to every waiting request
            job.error = (500, f"the review failed: {type(e).__name__}: {e}", "engine")
        finally:
            job.finished.set()


def start_review(reviews: Reviews, key: str, obj: Any, record: dict[str, Any], title: str,
                 levels: dict[str, str], ply: int | None, default_ply: int) -> ReviewJob:
    """The review of the game or match ``obj`` (its ``record``; ``key``: its id in the
    app) at ``ply`` (None: one ply deeper than its AI players, ``levels``, played, at
    least ``default_ply``), started or shared (:meth:`Reviews.start`). The browser app's
    games and the online server's finished ones ask the same way. 422 for a bad ply, 409
    when a game has no trained network."""
    from tavli.ai.analysis import ply_note, ply_note_msg, result_of, review_ply
    from tavli.ai.shipped import has_shipped_net

    if ply is not None and ply not in (0, 1, 2):
        raise ApiError(422, "ply must be 0, 1 or 2", "invalid", key="err.ply")
    games = list(obj.games) if hasattr(obj, "games") else [obj]
    if ply is None:  # one ply deeper than the AI played (docs/web.md)
        ply = review_ply(levels, default_ply)
    head = {"id": key, "ply": ply, "title": title,
            "ply_note": ply_note(ply, levels), "ply_note_msg": ply_note_msg(ply, levels),
            "result": result_of(obj),
            "games": [{"number": i + 1, "game": g.rules.game_name,
                       "result": g.outcome.to_dict() if g.outcome else None}
                      for i, g in enumerate(games)]}
    for g in games:
        if not has_shipped_net(g.rules.game):
            raise ApiError(409, f"no trained network for {g.rules.game_name} is installed: "
                                "the review needs one", "unavailable", key="err.no_network")
    digest = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
    total = sum(len(g.turns) for g in games)
    return reviews.start((key, digest, ply), record, digest, ply, total, head)


def finish(head: dict[str, Any], ply: int, got: list[Any]) -> dict[str, Any]:
    """The review's answer from its analysed entries (``(entry, board)`` pairs: turns and
    cube decisions, :func:`tavli.ai.analysis.analyse_turns`): the turns (the curve's
    points), the cube decisions, the page's list (``mistakes``: the marked moves and every
    listed cube decision, largest loss first, each with its ``text``) and per player the
    totals and a ``summary`` line."""
    from tavli.ai.analysis import summarise
    from tavli.ai.cubeanalysis import CubeAnalysis

    result = summarise([e for e, _ in got], ply, head.get("result"),
                       head.get("ply_note", ""))
    turns, cube = result["turns"], result["cube"]
    boards = {"move": [], "cube": []}
    for e, board in got:
        boards["cube" if isinstance(e, CubeAnalysis) else "move"].append(board)
    multi = len(head.get("games", ())) > 1
    for i, (t, board) in enumerate(zip(turns, boards["move"], strict=True)):
        t["board"] = board
        t["dice_text"] = dice_text(t["dice"])
        t["index"] = i
        where = (f"game {t['game']}, " if multi else "") + f"turn {t['turn']}"
        t["text"] = (f"{where}, {t['side']} {t['dice_text']}: played {t['played'] or '(no move)'}"
                     + (f", best {t['best']} (−{t['loss']:.3f})" if t["loss"] > 0 else ""))
        t["text_msg"] = turn_msg(t, multi)
    for i, (c, board) in enumerate(zip(cube, boards["cube"], strict=True)):
        c["board"] = board
        c["index"] = i
        where = (f"game {c['game']}, " if multi else "") + f"before turn {c['turn']}"
        c["text"] = f"{where}: {c['text']}"
        c["text_msg"] = cube_msg(c, multi)
    marked = [t for t in turns if t["mark"]] + cube
    mistakes = sorted(marked, key=lambda t: (-t["loss"], t["kind"] == "cube"))
    return {**head,
            "curve": [{"index": i, "game": t["game"], "turn": t["turn"], "side": t["side"],
                       "white_win": t["white_win"]} for i, t in enumerate(turns)],
            "turns": turns, "cube": cube, "mistakes": mistakes, "players": result["players"],
            "summary": summary_lines(result),
            "summary_msgs": summary_msgs(result, head.get("ply_note_msg"))}


def _side(side: str) -> dict[str, Any]:
    return msg(f"side.{side}")


def turn_msg(t: dict[str, Any], multi: bool) -> dict[str, Any]:
    """The mistake line of the turn ``t`` (its ``text``) as a catalogue message."""
    where = (msg("rv.where_game", game=t["game"], turn=t["turn"]) if multi
             else msg("rv.where", turn=t["turn"]))
    played = t["played"] or msg("rv.no_move")
    if t["loss"] > 0:
        return msg("rv.turn_best", where=where, side=_side(t["side"]), dice=t["dice_text"],
                   played=played, best=t["best"], loss=f"{t['loss']:.3f}")
    return msg("rv.turn", where=where, side=_side(t["side"]), dice=t["dice_text"],
               played=played)


def cube_msg(c: dict[str, Any], multi: bool) -> dict[str, Any]:
    """The line of the cube decision ``c`` (its ``text``) as a catalogue message."""
    from tavli.play.cube.cubeful import action_msg

    where = (msg("rv.before_game", game=c["game"], turn=c["turn"]) if multi
             else msg("rv.before", turn=c["turn"]))
    re = ".re" if c["owner"] == "me" else ""
    action = c["action"].replace(" ", "_")
    did = msg(f"rv.did.{action}" + (re if action in ("no_double", "double") else ""),
              side=_side(c["side"]), value=2 * c["cube"])
    if c["verdict"] == "correct":
        line = msg("rv.cube", did=did, proper=action_msg(c["proper"]))
    else:
        verdict = msg("verdict." + c["verdict"].replace(" ", "_"))
        params = {"did": did, "proper": action_msg(c["proper"]), "verdict": verdict,
                  "loss": f"{c['loss']:.3f}"}
        if c.get("loss_mwc") is not None:
            line = msg("rv.cube_wrong_mwc", **params, mwc=f"{100 * c['loss_mwc']:.2f}")
        else:
            line = msg("rv.cube_wrong", **params)
    return msg("rv.entry", where=where, text=line)


def cube_error_key(verdict: str) -> str:
    """The plural entry of a count of cube errors of one kind ("1 wrong take", "2 wrong
    takes")."""
    return "rv.n_err." + verdict.replace(" ", "_")


def summary_msgs(result: dict[str, Any], note: dict[str, Any] | None = None
                 ) -> list[dict[str, Any]]:
    """:func:`summary_lines` as catalogue messages, for the page to write in its language."""
    out = []
    for side, p in result["players"].items():
        unit = p.get("luck_unit", "points")

        def val(x: float, unit: str = unit) -> dict[str, Any]:
            return (msg("rv.mwc", value=f"{100 * x:+.1f}") if unit == "mwc"
                    else msg("rv.points", value=f"{x:+.2f}"))

        m = p["mistakes"]
        moves = msg("rv.sum", side=msg(f"side.cap.{side}"),
                    rating=msg("rating." + RATING_KEYS.get(p["rating"], "awful")),
                    rate=f"{p['error_rate']:.1f}", very_bad=m["very bad"], bad=m["bad"],
                    doubtful=m["doubtful"])
        if p["cube_decisions"]:
            errs = [msg(cube_error_key(k), n=n) for k, n in p["cube_errors"].items() if n]
            moves = msg("rv.sum_cube", moves=moves,
                        errors=errs if errs else msg("rv.no_error"),
                        rate=f"{p['cube_error_rate']:.1f}", n=p["cube_decisions"])
        out.append(moves)
        luck = msg("rv.luck", side=msg(f"side.cap.{side}"), rate=f"{p['luck_rate']:+.1f}",
                   rating=msg("luck." + LUCK_KEYS.get(p["luck_rating"], "none")))
        if "result" in p:
            luck = msg("rv.luck_result", luck=luck, result=val(p["result"]),
                       adjusted=val(p["luck_adjusted"]))
        out.append(luck)
    out.append(msg("rv.ply_note", ply=result["ply"], note=note) if note
               else msg("rv.ply", ply=result["ply"]))
    return out


#: gnubg's ratings and luck ratings (tavli.ai.analysis, tavli.ai.luck) by catalogue key
RATING_KEYS = {"Supernatural": "supernatural", "World class": "worldclass",
               "Expert": "expert", "Advanced": "advanced", "Intermediate": "intermediate",
               "Casual player": "casual", "Beginner": "beginner", "Awful!": "awful"}
LUCK_KEYS = {"Go to Las Vegas": "vegas", "Good dice, man!": "good", "None": "none",
             "Bad dice, man!": "bad", "Go to bed": "bed"}


def summary_lines(result: dict[str, Any]) -> list[str]:
    """Two lines per player for the review page (errors and rating; luck and result),
    then the ply of the review and why."""
    out = []
    for side, p in result["players"].items():
        unit = p.get("luck_unit", "points")

        def val(x: float, unit: str = unit) -> str:
            return f"{100 * x:+.1f}% MWC" if unit == "mwc" else f"{x:+.2f} points"

        m = p["mistakes"]
        line = (f"{side.capitalize()}: {p['rating']}, {p['error_rate']:.1f} mp per decision; "
                f"moves: {m['very bad']} very bad, {m['bad']} bad, {m['doubtful']} doubtful")
        if p["cube_decisions"]:
            errs = ", ".join(ngettext("en", cube_error_key(k), n)
                             for k, n in p["cube_errors"].items() if n)
            n = p["cube_decisions"]
            line += (f"; cube: {errs or 'no error'} ({p['cube_error_rate']:.1f} mp over "
                     f"{n} decision{'' if n == 1 else 's'})")
        out.append(line)
        luck = f"{side.capitalize()}'s luck: {p['luck_rate']:+.1f} m per roll ({p['luck_rating']})"
        if "result" in p:
            luck += f"; result {val(p['result'])}, luck-adjusted {val(p['luck_adjusted'])}"
        out.append(luck)
    note = result.get("ply_note")
    out.append(f"Analysis at {result['ply']}-ply" + (f": {note}" if note else ""))
    return out


__all__ = ["Reviews", "ReviewJob", "parts", "finish", "summary_lines", "summary_msgs",
           "turn_msg", "cube_msg"]
