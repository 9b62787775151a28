"""``tavli hint GAME POSITION`` without dice: the cube decision of the side to move
(docs/cli.md). Builds the :class:`~tavli.cube.info.CubeInfo` from the options."""

from __future__ import annotations

from ..errors import CliError, OptionError
from .cli import parse_score
from .info import CubeInfo, Owner

OWNERS = {"centre": Owner.CENTRED, "center": Owner.CENTRED, "centred": Owner.CENTRED,
          "me": Owner.ME, "opp": Owner.OPPONENT, "opponent": Owner.OPPONENT}


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

    from ..ai.cubeplay import cube_decision, decide_from

    r = None
    if rollout is None:
        d = cube_decision(pos, ci, ply=ply, rules=rules)
    else:
        import sys

        from ..ai.rollout import describe
        from ..ai.rollout import rollout as roll_out

        r = roll_out(pos, games=rollout, rules=rules, progress=sys.stderr)
        from dataclasses import replace

        d = replace(decide_from(r.outputs, pos, ci, ply=0), source="rollout")
    if as_json:
        doc = d.to_dict()
        if r is not None:
            doc["rollout"] = r.to_dict()
        return [json.dumps(doc)]
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
