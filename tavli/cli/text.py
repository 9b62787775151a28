"""The ``tavli`` command's words in the player's language (``tavli --lang el``, else the
environment variable ``TAVLI_LANG``, else English: the CLI does not follow ``LANG``).

A command runs inside :func:`tavli.i18n.using`; its texts are catalogue messages
(``cli.*`` and the app's own keys) in the language of the moment, whose English is the
CLI's text as it always was. Numbers, moves and IDs are written the same in every
language.

>>> cli_lang(None, {"LANG": "el_GR.UTF-8"}), cli_lang(None, {"TAVLI_LANG": "de"})
('en', 'de')
>>> cli_lang("it", {"TAVLI_LANG": "de"}), cli_lang(None, {"TAVLI_LANG": "el_GR.UTF-8"})
('it', 'el')
>>> from tavli.errors import IllegalMove
>>> error_line(IllegalMove("24/18 is blocked"), "de")
'tavli: Fehler: Ungültiger Zug (24/18 is blocked)'
>>> error_line(IllegalMove("24/18 is blocked"), "en")
'tavli: error: 24/18 is blocked'
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from typing import Any

from tavli import i18n
from tavli.errors import CliError, TavliError, kind_key, one_line

#: the environment variable that sets the CLI's language (``--lang`` wins over it)
ENV = "TAVLI_LANG"


def cli_lang(chosen: str | None, env: Mapping[str, str] | None = None) -> str:
    """The CLI's language: ``chosen`` (``--lang``), else ``$TAVLI_LANG``, else English.
    A ``TAVLI_LANG`` that is none of ours is a :class:`~tavli.errors.CliError`."""
    if chosen:
        return i18n.supported(chosen) or i18n.DEFAULT
    value = (os.environ if env is None else env).get(ENV, "").strip()
    if not value:
        return i18n.DEFAULT
    lang = i18n.supported(value.split(".")[0].split("@")[0])
    if lang is None:
        raise CliError(f"{ENV}={value[:40]!r}: the language is one of "
                       + ", ".join(i18n.LANGUAGES))
    return lang


def explicit_lang(chosen: str | None, env: Mapping[str, str] | None = None) -> str | None:
    """The language asked for by ``--lang`` or ``$TAVLI_LANG``, None when neither is
    given (then the terminal UI follows ``LANG``)."""
    env = os.environ if env is None else env
    if not chosen and not env.get(ENV, "").strip():
        return None
    return cli_lang(chosen, env)


def _(key: str, **params: Any) -> str:
    """The message ``key`` in the command's language (:func:`tavli.i18n.current`)."""
    return i18n.gettext(i18n.current(), key, **params)


def lang() -> str:
    """The command's language."""
    return i18n.current()


def error_line(e: TavliError, language: str) -> str:
    """The one line ``tavli: error: ...`` for ``e``: in English the error's own text; in
    another language the catalogue's words for its kind with the English text in
    parentheses (an error the catalogue has a message for, :func:`error_msg`, is written
    in the language only)."""
    english = one_line(e)
    if language == i18n.DEFAULT:
        return f"tavli: error: {english}"
    head = f"tavli: {i18n.gettext(language, 'cli.error')}: "
    m = getattr(e, "text_msg", None)
    if m is not None:
        return head + one_line(i18n.text(language, m))
    key = kind_key(e)  # the kind's words, the English detail in parentheses
    if key is not None:
        return head + one_line(f"{i18n.gettext(language, key)} ({english})")
    return head + english


def error_msg(e: TavliError, m: dict[str, Any]) -> TavliError:
    """``e`` carrying the catalogue message ``m`` (:func:`tavli.i18n.msg`) that says the
    same in every language (:func:`error_line`)."""
    e.text_msg = m  # type: ignore[attr-defined]
    return e


def outcome_msg(winner: int | None, points: int, kind: str) -> dict[str, Any]:
    """A game's result as a message: ``white wins 2 points (gammon)``."""
    if winner is None:
        return i18n.msg("cli.draw")
    return i18n.msg("cli.wins" if points != 1 else "cli.wins_one",
                    side=i18n.msg("side.white" if winner == 0 else "side.black"),
                    points=points, kind=i18n.msg(f"kind.{kind}"))


def game_word(name: str) -> str:
    """The game's name as the command writes it: ``portes`` in English (as always), the
    players' name in another language (Πόρτες)."""
    language = lang()
    return name if language == i18n.DEFAULT else i18n.game_name(language, name)


def side_word(s: int) -> str:
    """Side ``s`` (0 white, 1 black) in words."""
    return _("side.white" if s == 0 else "side.black")


def no_move(dice: str) -> str:
    """The line for a roll without a legal move."""
    return _("cli.no_move", dice=dice)


def board(pos: Any) -> str:
    """``str(pos)`` (:func:`tavli.engine.render.ascii_board`) with its words in the language."""
    text = str(pos)
    if lang() == i18n.DEFAULT:
        return text
    lines = text.split("\n")
    lines[0] = _("cli.board.head", game=game_word(pos.game_name), side=side_word(pos.turn),
                 mark="XO"[pos.turn])
    lines[-1] = _("cli.board.foot", bar=f"X{pos.bar(0)} O{pos.bar(1)}",
                  off=f"X{pos.off(0)} O{pos.off(1)}",
                  pips=f"X{pos.pip_count(0)} O{pos.pip_count(1)}", id=pos.id())
    return "\n".join(lines)


#: the English names of the position classes and valuers (tavli.ai.evaluator), by key
CLASS_KEYS = {"contact": "contact", "race": "race", "bear-off": "bearoff"}
VALUER_KEYS = {"contact net": "contact", "race net": "race",
               "bear-off database (one-sided)": "bo1", "bear-off database (two-sided)": "bo2"}


def class_line(cls: str, valuer: str) -> str:
    """The hint's last line: the position's class and what valued it."""
    if lang() != i18n.DEFAULT:
        cls = _(f"cli.cls.{CLASS_KEYS[cls]}") if cls in CLASS_KEYS else cls
        valuer = _(f"cli.val.{VALUER_KEYS[valuer]}") if valuer in VALUER_KEYS else valuer
    return _("cli.hint.class", cls=cls, valuer=valuer)


_CONTEXT = re.compile(r"(\d+)-point match, (\d+)-away/(\d+)-away"
                      r"(?: \((Crawford|post-Crawford)\))?$")
_TAVLI = re.compile(r"(\d+)-point Tavli match, (\d+)-(\d+), (\w+) \(next (\w+)\)$")


def context_text(context: str) -> str:
    """A score in words (:attr:`tavli.play.cube.scoring.ScoreWeights.context`) in the
    language: ``5-point match, 3-away/2-away (Crawford)``, ``5-point Tavli match, 2-1,
    portes (next plakoto)``.

    >>> from tavli import i18n
    >>> with i18n.using("el"):
    ...     context_text("5-point Tavli match, 2-1, portes (next plakoto)")
    'αγώνας Τάβλι στους 5 πόντους, 2-1, Πόρτες (μετά Πλακωτό)'
    """
    if lang() == i18n.DEFAULT:
        return context
    if context == "money play":
        return _("cube.sit.money")
    t = _TAVLI.match(context)
    if t is not None:
        return _("cli.ctx.tavli", target=t.group(1), me=t.group(2), opp=t.group(3),
                 game=game_word(t.group(4)), next=game_word(t.group(5)))
    m = _CONTEXT.match(context)
    if m is None:
        return context
    tail = {"Crawford": ".crawford", "post-Crawford": ".post"}.get(m.group(4) or "", "")
    return _("cube.sit.match" + tail, length=m.group(1), me=m.group(2), opp=m.group(3))


def score_line(sw: Any) -> str:
    """The line a hint at a match score starts with (English as it always was)."""
    return _("cli.hint.score", context=context_text(sw.context),
             wg=f"{sw.win_gammon:.2f}", lg=f"{sw.lose_gammon:.2f}")


def columns(count_bg: bool) -> list[tuple[str, int]]:
    """The probability columns (label, index into win, w g, w bg, l g, l bg)."""
    cols = [(_("cli.col.win"), 0), (_("cli.col.wg"), 1), (_("cli.col.wbg"), 2),
            (_("cli.col.lg"), 3), (_("cli.col.lbg"), 4)]
    return cols if count_bg else [c for c in cols if c[1] not in (2, 4)]


def cube_lines(d: Any, ci: Any, rollout_line: str | None = None) -> list[str]:
    """A cube decision (:class:`tavli.play.cube.cubeful.CubeDecision`) in the language, as
    :meth:`~tavli.play.cube.cubeful.CubeDecision.lines` writes it in English."""
    from tavli.play.cube.cubeful import action_msg
    from tavli.play.cube.info import Owner

    language = lang()
    if ci.is_money:
        head = i18n.msg("cube.sit.money_jacoby" if ci.jacoby else "cube.sit.money")
    else:
        tail = ".crawford" if ci.crawford else ".post" if ci.post_crawford else ""
        head = i18n.msg("cube.sit.match" + tail, length=ci.length, me=ci.away[0],
                        opp=ci.away[1])
    cube = (i18n.msg("cube.sit.centred") if ci.owner == Owner.CENTRED else
            i18n.msg("cli.cube.owned_me" if ci.owner == Owner.ME else "cli.cube.owned_opp",
                     value=ci.cube))
    out = [i18n.text(language, i18n.msg("cube.sit", head=head, cube=cube))]
    if rollout_line:
        out.append(rollout_line)
    re_ = ".re" if d.cube.owner == Owner.ME else ""
    p = d.probs
    source = _("cli.rollout") if d.source == "rollout" else (
        d.source or _("cube.ply", ply=d.ply))
    out.append(_("cli.cube.cubeless", equity=f"{d.cubeless:+.3f}", source=source,
                 x=f"{d.x:.2f}"))
    out.append(_("cli.cube.probs", win=f"{p[0]:.3f}", wg=f"{p[1]:.3f}", wbg=f"{p[2]:.3f}",
                 lose=f"{1 - p[0]:.3f}", lg=f"{p[3]:.3f}", lbg=f"{p[4]:.3f}"))
    out.append(_("cli.cube.cubeful"))
    best = d.best
    rows = [("cube.row.no_double", d.nd, 0), ("cube.row.double_take", d.dt, 1),
            ("cube.row.double_pass", d.dp, 2)]
    for i, (key, e, k) in enumerate(rows, 1):
        diff = "" if abs(e - best) < 5e-7 else f" ({e - best:+.3f})"
        mwc = f"  MWC {100 * d.mwc[k]:.2f}%" if d.mwc is not None else ""
        out.append(f"{i}. {_(key + re_):<16}{e:+.3f}{mwc}{diff}")
    out.append(_("cube.proper", action=i18n.text(language, action_msg(d.action)))
               + d._action_margin())
    if d.note:
        out.append(_("cube.note.free_drop") if "free drop" in d.note else d.note)
    return out


def rollout_how(r: Any) -> str:
    """A rollout's settings in words (:func:`tavli.ai.rollout.describe`)."""
    from tavli.ai.rollout import describe

    if lang() == i18n.DEFAULT:
        return describe(r)
    s = r.settings
    cut = (_("cli.ro.truncated", n=s["truncate"]) if s.get("truncate")
           else _("cli.ro.played_out"))
    vr = _("cli.ro.luck") if s.get("luck", True) else _("cli.ro.no_luck")
    return _("cli.ro.how", ply=s.get("ply", 0), cut=cut, vr=vr, seed=s.get("seed"))


def analysis_text(result: dict[str, Any],
                  below: Callable[[dict[str, Any]], list[str]] | None = None) -> str:
    """``tavli analyse``'s text in the language: the review's lines
    (:mod:`tavli.web.reviews`: every turn and cube decision, then the totals); ``below``
    as :func:`tavli.ai.analysis.format_analysis` (lines under a turn)."""
    from tavli.ai.analysis import format_analysis

    language = lang()
    if language == i18n.DEFAULT:
        return format_analysis(result, below)
    from tavli.engine.dice import dice_text
    from tavli.web.reviews import cube_msg, summary_msgs, turn_msg

    multi = len({t["game"] for t in result["turns"]}) > 1
    rows = [(t["game"], t["turn"], 1, t) for t in result["turns"]]
    rows += [(c["game"], c["turn"], 0, c) for c in result.get("cube", [])]
    rows.sort(key=lambda r: r[:3])
    lines = []
    for _g, _t, _k, t in rows:
        if t.get("kind") == "cube":
            line = i18n.text(language, cube_msg(t, multi))
        else:
            line = i18n.text(language, turn_msg({**t, "dice_text": dice_text(t["dice"])},
                                                multi))
        if t.get("mark") and t.get("kind") != "cube":
            line += f" [{_('mark.' + t['mark'].replace(' ', '_'))}]"
        lines.append(line)
        if below is not None and t.get("kind") != "cube":
            lines.extend(below(t))
    lines.extend(i18n.text(language, m)
                 for m in summary_msgs(result, result.get("ply_note_msg")))
    return "\n".join(lines)


__all__ = ["ENV", "cli_lang", "explicit_lang", "error_line", "error_msg",
           "outcome_msg", "game_word", "side_word", "no_move", "board", "class_line",
           "context_text", "score_line", "columns", "cube_lines", "rollout_how",
           "analysis_text"]
