"""``tavli hint GAME POSITION`` at a match score: the cube decision of the side to move
without dice, the moves ranked by match winning chances with them (docs/cli.md). Builds
the :class:`~tavli.play.cube.info.CubeInfo` and :class:`~tavli.play.cube.scoring.ScoreWeights` from
the options, or from the match state an XGID or a ``PositionID:MatchID`` carries."""

from __future__ import annotations

import re

from tavli.errors import CliError, OptionError
from tavli.play.cube.info import CubeInfo, Owner
from tavli.play.cube.scoring import ScoreWeights

OWNERS = {"centre": Owner.CENTRED, "center": Owner.CENTRED, "centred": Owner.CENTRED,
          "me": Owner.ME, "opp": Owner.OPPONENT, "opponent": Owner.OPPONENT}


def parse_score(text: str, length: int) -> tuple[int, int]:
    """``A-B`` (points won by me and by the opponent in a ``length``-point match)."""
    m = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", text)
    if not m:
        raise CliError(f"a score is written A-B (points won), e.g. 2-4, not {text!r}")
    a, b = int(m.group(1)), int(m.group(2))
    if a >= length or b >= length:
        raise CliError(f"score {a}-{b} is not before a game of a {length}-point match")
    return a, b


def cube_info_from_options(rules, match: int | None, score: str | None, cube: int | None,
                           owner: str | None, crawford: bool) -> CubeInfo:
    """The cube state the options describe (money play without ``match``); a bad
    combination is one :class:`CliError` line."""
    if not rules.cube:
        raise CliError(f"{rules.game_name} is played without the doubling cube: no cube "
                       "decision (give --dice for a move hint)")
    value = 1 if cube is None else cube
    key = "centre" if owner is None else owner.strip().lower()
    if key not in OWNERS:
        raise CliError(f"--owner must be me, opp or centre, not {owner!r}")
    own = OWNERS[key]
    if value == 1 and own != Owner.CENTRED:
        raise CliError("a cube of 1 is in the centre: give --cube 2 or more with --owner")
    if value > 1 and own == Owner.CENTRED:
        raise CliError(f"a cube of {value} has been turned: say who owns it (--owner me|opp)")
    try:
        if match is None:
            if score is not None or crawford:
                raise CliError("--score and --crawford need --match N")
            return CubeInfo(cube=value, owner=own, jacoby=bool(rules.jacoby),
                            beavers=bool(rules.beavers))
        if match < 1:
            raise CliError(f"--match must be 1 or more points, got {match}")
        a, b = parse_score(score or "0-0", match)
        away = (match - a, match - b)
        one = 1 in away and max(away) > 1
        if crawford and not one:
            raise CliError("--crawford: the Crawford game is played when a side is 1-away")
        return CubeInfo(cube=value, owner=own, length=match, away=away, crawford=crawford,
                        post_crawford=one and not crawford)
    except OptionError as e:
        raise CliError(str(e)) from None


def cube_hint(pos, rules, ci: CubeInfo, ply: int, as_json: bool,
              rollout: int | None = None) -> list[str]:
    """The cube decision's lines (or one JSON line); with ``rollout`` N, from the
    cubeless probabilities of an N-trial rollout of the position (Janowski's model at the
    root, as at any ply), with the rollout's figures."""
    import json

    from tavli.ai.context import EvalContext
    from tavli.ai.cubeplay import cube_decision, decide_from

    r = None
    if rollout is None:
        d = cube_decision(pos, ci, EvalContext(plies=ply), rules=rules)
    else:
        import sys

        from tavli.ai.context import RolloutContext
        from tavli.ai.rollout import describe
        from tavli.ai.rollout import rollout as roll_out

        r = roll_out(pos, RolloutContext(games=rollout), rules=rules, progress=sys.stderr)
        from dataclasses import replace

        d = replace(decide_from(r.outputs, pos, ci, ply=0), source="rollout")
    if as_json:
        doc = d.to_dict()
        if r is not None:
            doc["rollout"] = r.to_dict()
        return [json.dumps(doc)]
    from tavli import i18n

    if i18n.current() != i18n.DEFAULT:
        from tavli.cli.text import _, cube_lines, rollout_how

        line = None if r is None else _(
            "cli.cube.rollout", trials=r.trials, how=rollout_how(r),
            equity=f"{r.equity:+.4f}", se=f"{r.equity_se:.4f}")
        return cube_lines(d, ci, line)
    head = "Money play" if ci.is_money else (
        f"{ci.length}-point match, {ci.away[0]}-away/{ci.away[1]}-away"
        + (" (Crawford)" if ci.crawford else " (post-Crawford)" if ci.post_crawford else ""))
    cube = ("cube centred" if ci.owner == Owner.CENTRED else
            f"cube {ci.cube} owned by {'me' if ci.owner == Owner.ME else 'the opponent'}")
    lines = [f"{head}, {cube}"]
    if r is not None:
        lines.append(f"from a rollout of {r.trials} trials ({describe(r)}): cubeless equity "
                     f"{r.equity:+.4f} ± {r.equity_se:.4f}")
    return lines + d.lines()


def id_match_state(text: str):
    """The :class:`~tavli.play.formats.matchid.MatchState` an XGID or a gnubg
    ``PositionID:MatchID`` carries (cube, score, match length), or None for another
    kind of position text."""
    t = text.strip()
    if t.upper().startswith("XGID=") or (t.count(":") == 9 and not t.startswith("{")):
        from tavli.play.formats.xgid import parse_xgid

        return parse_xgid(t)[1]
    if len(t) == 27 and t[14] == ":":
        from tavli.play.formats.matchid import parse_match_id

        return parse_match_id(t[15:])
    return None


def cube_info_from_id(state, rules, side: int) -> CubeInfo:
    """The cube and score of an ID's match state (:func:`id_match_state`) for ``side``."""
    from tavli.play.cube.scoring import cube_info_from_state

    owner = (Owner.CENTRED if state.cube_owner is None
             else Owner.ME if state.cube_owner == side else Owner.OPPONENT)
    try:
        if not state.length:
            return CubeInfo(cube=state.cube_value, owner=owner,
                            jacoby=bool(rules.jacoby or state.jacoby),
                            beavers=bool(rules.beavers))
        return cube_info_from_state({"target": state.length, "score": list(state.score),
                                     "crawford": state.crawford, "cube": state.cube_value,
                                     "owner": state.cube_owner, "cube_used": True}, side)
    except OptionError as e:
        raise CliError(f"the position's match state: {e}") from None


def score_from_options(rules, match: int | None, score: str | None, cube: int | None,
                       owner: str | None, crawford: bool) -> ScoreWeights:
    """How the outcomes count for a move hint (money play without ``match``): a
    backgammon match at a score and cube, or (Portes, Plakoto, Fevga) a Tavli match
    (Portes, Plakoto, Fevga in turn, this game being played); a bad combination is one
    :class:`CliError` line."""
    if rules.cube:
        return ScoreWeights.from_cube(cube_info_from_options(rules, match, score, cube, owner,
                                                             crawford))
    if cube is not None or owner is not None or crawford:
        raise CliError(f"{rules.game_name} is played without the doubling cube: --cube, "
                       "--owner and --crawford do not apply")
    if match is None:
        if score is not None:
            raise CliError("--score needs --match N")
        return ScoreWeights.money()
    if not 1 <= match <= 99:
        raise CliError(f"--match must be 1..99 points, got {match}")
    a, b = parse_score(score or "0-0", match)
    try:
        return ScoreWeights.from_tavli(match, (a, b), rules.game_name)
    except OptionError as e:
        raise CliError(str(e)) from None
