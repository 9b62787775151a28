"""Cube analysis and luck in game analysis (tavli analyse, the browser review): hand-made
records whose cube decisions are classified, the luck of forced dice, match results in
MWC, the review's JSON, and records without a cube. All at 0-ply (race positions, where
the race network answers) so that they run in seconds."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tavli import Position
from tavli.ai.analysis import analyse, format_analysis, ply_note, result_of, review_ply
from tavli.ai.analyzer import Analyzer
from tavli.ai.context import EvalContext
from tavli.ai.luck import LUCK_RATINGS, RollValues, luck_rating
from tavli.cli import main
from tavli.engine.dice import ScriptedDice
from tavli.engine.rules import Rules
from tavli.play.game import Game
from tavli.play.match import Match
from tavli.play.players import GreedyPlayer, play_game
from tavli.play.record import game_record, load_record, match_record

WHITE = {10: 3, 9: 3, 8: 3, 7: 3, 6: 3}  # 120 pips
#: black 138 pips with 3 off: white on roll is "Double, pass" (0-ply)
DP = Position.from_points("backgammon", WHITE, {13: 3, 12: 3, 11: 3, 10: 3}, turn=0)
#: black 123 pips: "Double, take"
DT = Position.from_points("backgammon", WHITE, {10: 3, 9: 3, 8: 3, 7: 6}, turn=0)


def _first(g: Game) -> None:
    g.roll()
    g.play(g.legal_moves()[0])


def missed_double_record() -> dict:
    """White does not double a "Double, pass" (missed double), then doubles (correct);
    black takes (wrong take)."""
    g = Game("backgammon", position=DP, dice=ScriptedDice([2, 1, 2, 1, 3, 1, 4, 2]))
    _first(g)       # white rolls without doubling
    _first(g)       # black
    g.double()
    g.take()
    _first(g)
    _first(g)
    return game_record(g)


def cube_rows(result: dict) -> list[tuple[str, str, str]]:
    return [(c["side"], c["action"], c["verdict"]) for c in result["cube"]]


def test_missed_double_wrong_take_and_correct_double_are_classified():
    rec = json.loads(json.dumps(missed_double_record()))  # a record as a file holds it
    res = analyse(load_record(rec), ply=0)
    assert cube_rows(res) == [("white", "no double", "missed double"),
                              ("white", "double", "correct"),
                              ("black", "take", "wrong take")]
    missed, double, take = res["cube"]
    assert missed["proper"] == double["proper"] == take["proper"] == "Double, pass"
    e = missed["equities"]
    assert missed["loss"] == pytest.approx(min(e["double_take"], e["double_pass"])
                                           - e["no_double"], abs=1e-3) and missed["loss"] > 0
    e = take["equities"]
    assert take["loss"] == pytest.approx(e["double_take"] - e["double_pass"], abs=1e-3)
    assert take["loss"] > 0.16 and take["mark"] == "very bad"
    assert double["loss"] == 0 and double["mark"] == ""
    assert [c["turn"] for c in res["cube"]] == [1, 3, 3]
    white, black = res["players"]["white"], res["players"]["black"]
    assert white["cube_errors"]["missed double"] == 1 and white["cube_decisions"] == 2
    assert black["cube_errors"] == {"missed double": 0, "wrong double": 0, "wrong take": 1,
                                    "wrong pass": 0}
    # the cube errors count in the overall error rate
    n = black["unforced_moves"] + black["cube_decisions"]
    assert black["error_rate"] == pytest.approx(
        1000 * (black["equity_lost"] + black["cube_equity_lost"]) / n, abs=0.1)
    # the turns after the take know the cube
    assert res["turns"][2]["cube_state"] == {"value": 2, "owner": "black", "used": True}
    text = format_analysis(res)
    assert "white did not double (proper: Double, pass) — missed double" in text
    assert "black took (proper: Double, pass) — wrong take" in text and "[very bad]" in text


def test_a_pass_of_a_take_is_a_wrong_pass_and_a_take_is_right():
    for answer, verdict in (("drop", "wrong pass"), ("take", "correct")):
        g = Game("backgammon", position=DT, dice=ScriptedDice([]))
        g.double()
        getattr(g, answer)()
        res = analyse(g, ply=0)
        assert [c["verdict"] for c in res["cube"]] == ["correct", verdict]
        assert res["cube"][0]["proper"] == "Double, take"
    # the pass ended the game: the decisions come after its last turn (there is none)
    assert res["players"]["white"]["cube_decisions"] == 1


def test_luck_of_forced_lucky_dice_is_positive_and_adjusts_the_result():
    race = Position.from_points("backgammon", {6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5}, turn=0)
    g = Game("backgammon", position=race, dice=ScriptedDice([6, 6, 2, 1] * 3))
    for _ in range(6):
        _first(g)
    res = analyse(g, ply=0)
    white, black = res["players"]["white"], res["players"]["black"]
    lucks = {side: [t["luck"] for t in res["turns"] if t["side"] == side]
             for side in ("white", "black")}
    assert lucks["white"][0] > 0.6 and res["turns"][0]["luck_mark"] == "very lucky"
    assert min(lucks["white"]) >= 0 > max(lucks["black"])  # then white is all but home
    assert white["luck"] > 0.5 and black["luck"] < -0.1
    assert white["luck_rating"] == "Go to Las Vegas" and black["luck_rate"] < -30
    assert white["luck_unit"] == "points"
    # the game is not over: no result, and the luck-adjusted results mirror each other
    assert white["result"] == black["result"] == 0
    assert white["luck_adjusted"] == pytest.approx(-black["luck_adjusted"], abs=1e-3)
    assert white["luck_adjusted"] < 0


def test_luck_values_average_to_the_one_ply_value_and_stay_bounded():
    """Without a cube the 36 rolls' mean of the best 0-ply values is the 1-ply value the
    search computes; in a played game every roll's luck stays within the value's range."""
    rules = Rules.for_game("backgammon")
    an = Analyzer(rules)
    pos = Position.start("backgammon")
    mean = RollValues.of(an, pos, None).mean()[0]
    one_ply = an.position_outputs(pos, EvalContext(plies=1))
    assert mean == pytest.approx(float(an.equity(one_ply)), abs=1e-4)
    g = Game("backgammon", seed=7)
    play_game(g, (GreedyPlayer(), GreedyPlayer()))
    res = analyse(g, ply=0)
    lucks = np.array([t["luck"] for t in res["turns"]])
    assert np.all(np.abs(lucks) < 3.0) and np.abs(lucks).mean() < 0.5
    w, b = res["players"]["white"], res["players"]["black"]
    assert w["result"] == -b["result"] != 0
    assert w["luck_adjusted"] == pytest.approx(-b["luck_adjusted"], abs=1e-3)
    assert w["luck_adjusted"] == pytest.approx(
        w["result"] - (w["luck_value"] - b["luck_value"]), abs=1e-3)
    # the opening roll is measured against the 30 opening throws
    assert res["turns"][0]["turn"] == 1 and abs(res["turns"][0]["luck"]) < 1


def short_match() -> Match:
    """A 3-point match: black doubles before his first roll, white takes, black rolls 6-6
    and white resigns a gammon (4 points: the match)."""
    m = Match(3, "backgammon", dice=ScriptedDice([3, 1, 6, 6]))
    g = m.game
    g.roll()
    g.play("8/5 6/5")
    g.double()
    g.take()
    g.roll()
    g.play(g.legal_moves()[0])
    g.resign(0, "gammon")
    return m


def test_a_match_is_analysed_in_match_winning_chances():
    m = load_record(json.loads(json.dumps(match_record(short_match()))))
    assert m.is_over and m.winner == 1
    res = analyse(m, ply=0)
    white, black = res["players"]["white"], res["players"]["black"]
    assert white["luck_unit"] == black["luck_unit"] == "mwc"
    assert black["result"] == pytest.approx(0.5, abs=1e-3) == -white["result"]
    assert [(c["side"], c["action"]) for c in res["cube"]] == [("black", "double"),
                                                               ("white", "take")]
    for c in res["cube"]:
        assert set(c["mwc"]) == {"no_double", "double_take", "double_pass"}
        assert 0 <= c["loss_mwc"] <= 1 and c["loss"] >= 0
    assert all(abs(t["luck_value"]) < 0.5 for t in res["turns"])  # MWC swings
    assert result_of(m) == {"unit": "mwc", "white": -0.5, "black": 0.5}


def test_records_without_a_cube_have_no_cube_decisions():
    g = Game("portes", seed=2)
    play_game(g, (GreedyPlayer(), GreedyPlayer()))
    res = analyse(g, ply=0)
    assert res["cube"] == [] and res["turns"]
    assert all("cube_state" not in t for t in res["turns"])
    for p in res["players"].values():
        assert p["cube_decisions"] == 0 and p["cube_error_rate"] == 0
        assert p["luck_unit"] == "points"
        assert p["luck_rating"] in {name for _, name in LUCK_RATINGS}
    assert result_of(g)["unit"] == "points"


def test_review_ply_is_one_deeper_than_the_ai():
    assert review_ply({"black's AI": "expert"}, 1) == 2
    assert review_ply({"black's AI": "advanced"}, 1) == 1
    assert review_ply({"white's AI": "worldclass"}, 0) == 2
    assert review_ply({}, 1) == 1
    assert ply_note(2, {"the AI": "worldclass"}).startswith("as deep as")
    assert luck_rating(0.0) == "None"


def test_cli_analyse_with_the_ai_level(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(missed_double_record()))
    assert main(["analyse", str(path), "--ai", "advanced"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("analysis at 1-ply: one ply deeper than the AI (advanced, 0-ply)")
    assert "wrong take" in out and "luck-adjusted" in out
    assert main(["analyse", str(path), "--ply", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [c["verdict"] for c in doc["cube"]] == ["missed double", "correct", "wrong take"]
    assert "ply_note" not in doc
    assert main(["analyse", str(path), "--ai", "superb"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--ai: unknown level 'superb'" in err


def test_the_review_lists_cube_decisions_with_the_moves(client):
    rec = missed_double_record()
    gid = client.post("/api/records", json=rec).json()["id"]
    for _ in range(600):
        r = client.get(f"/api/games/{gid}/review", params={"ply": 0})
        if r.status_code == 200:
            break
    assert r.status_code == 200, r.text
    rv = r.json()
    assert len(rv["turns"]) == len(rv["curve"]) == 4
    assert [(c["side"], c["verdict"]) for c in rv["cube"]] == [
        ("white", "missed double"), ("white", "correct"), ("black", "wrong take")]
    for i, c in enumerate(rv["cube"]):
        assert c["kind"] == "cube" and c["index"] == i and "cube_state" in c
        assert Position.from_json(c["board"]).id() == c["position"]
    # one list: the marked moves and every cube decision, largest loss first
    kinds = {m["kind"] for m in rv["mistakes"]}
    assert kinds == {"move", "cube"}
    assert len([m for m in rv["mistakes"] if m["kind"] == "cube"]) == 3
    losses = [m["loss"] for m in rv["mistakes"]]
    assert losses == sorted(losses, reverse=True)
    assert rv["mistakes"][0]["verdict"] == "wrong take"
    assert all(m["text"] for m in rv["mistakes"])
    assert rv["players"] == analyse(load_record(rec), 0)["players"]
    assert rv["summary"][2].startswith("Black: ") and "1 wrong take" in rv["summary"][2]
    assert rv["summary"][1].startswith("White's luck: ") and rv["summary"][-1] == \
        "Analysis at 0-ply"
    # the same lines as messages for the page's language: the same words in English
    from tavli.i18n import text
    assert [text("en", m) for m in rv["summary_msgs"]] == rv["summary"]
    assert [text("en", m["text_msg"]) for m in rv["mistakes"]] == \
        [m["text"] for m in rv["mistakes"]]
    el = [text("el", m["text_msg"]) for m in rv["mistakes"] if m["kind"] == "cube"]
    assert any("λάθος αποδοχή" in line for line in el), el
    assert "1 λάθος αποδοχή" in text("el", rv["summary_msgs"][2])
    # a Fevga record: no cube decisions
    g = Game("fevga", seed=3)
    play_game(g, (GreedyPlayer(), GreedyPlayer()))
    gid = client.post("/api/records", json=game_record(g)).json()["id"]
    for _ in range(600):
        r = client.get(f"/api/games/{gid}/review", params={"ply": 0})
        if r.status_code == 200:
            break
    assert r.json()["cube"] == [] and all(m["kind"] == "move" for m in r.json()["mistakes"])


def test_the_review_page_shows_cube_decisions_and_luck(browser, server):
    """The page draws what the review sends: the cube decisions in the list with the
    moves (tagged "cube"), per player the error and luck line; a cube decision shows its
    position before the roll (no dice) with the cube as it stood."""
    import urllib.request

    from conftest import ARTIFACTS

    req = urllib.request.Request(f"{server}/api/records", method="POST",
                                 data=json.dumps(missed_double_record()).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        gid = json.loads(r.read())["id"]
    for (w, h), name in (((1366, 768), "desk"), ((360, 740), "phone")):
        ctx = browser.new_context(viewport={"width": w, "height": h})
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(f"{server}/#/game/{gid}")  # an imported record opens its review
        page.wait_for_selector("#review:not([hidden])", timeout=300000)
        cube = page.locator("#mistakes li.cube")
        assert cube.count() == 3
        assert "wrong take" in page.locator("#mistakes li").first.inner_text()
        summary = page.locator("#review-summary div").all_inner_texts()
        assert summary[0].startswith("White: ") and "luck-adjusted" in summary[1]
        assert "wrong take" in summary[2] and summary[-1] == "Analysis at 1-ply"
        page.locator("#mistakes li.cube", has_text="did not double").click()
        banner = page.locator("#review-banner").inner_text()
        assert banner.startswith("Before turn 1: white did not double (proper: Double, pass)")
        assert "No double" in banner
        assert page.locator("#board .cube").count() == 1
        page.locator("#review").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"review-cube-{name}.png"), full_page=True)
        assert errors == [], errors
        ctx.close()
    # in Greek: the review's lines, marks and cube decisions by key
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="el-GR")
    page = ctx.new_page()
    page.goto(f"{server}/#/game/{gid}")
    page.wait_for_selector("#review:not([hidden])", timeout=300000)
    assert "λάθος αποδοχή" in page.locator("#mistakes li").first.inner_text()
    summary = page.locator("#review-summary div").all_inner_texts()
    assert summary[0].startswith("Λευκά: ") and summary[-1] == "Ανάλυση σε βάθος 1"
    page.locator("#mistakes li.cube").first.click()
    assert "Όχι διπλό" in page.locator("#review-banner").inner_text()
    page.locator("#review").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "review-cube-phone-el.png"), full_page=True)
    ctx.close()


@pytest.mark.parametrize("loss, verdict, mark", [
    (0.001, "correct", ""), (0.039, "correct", ""), (0.041, "wrong double", "doubtful"),
    (0.081, "wrong double", "bad"), (0.161, "wrong double", "very bad")])
def test_a_wrong_double_is_an_error_from_gnubgs_limits_on(loss, verdict, mark):
    """A double that loses 0.001 is no "wrong double" (gnubg: doubtful from 0.04, bad from
    0.08, very bad from 0.16), but its loss still counts in the error rate."""
    from types import SimpleNamespace

    from tavli.ai.cubeanalysis import judge
    from tavli.ai.marks import mark as mark_of

    d = SimpleNamespace(nd=0.5, dt=0.5 - loss, dp=1.0, mwc=None)
    got, lost, _, counted = judge(d, "double", "double")
    assert (got, mark_of(lost), counted) == (verdict, mark, True)
    assert lost == pytest.approx(loss)
    took = judge(SimpleNamespace(nd=0.5, dt=1.0 + loss, dp=1.0, mwc=None), "take", "take")
    assert took[0] == ("correct" if verdict == "correct" else "wrong take")


def test_the_counts_of_cube_errors_take_their_plural_forms():
    """The review's summary counts cube errors through the catalogues' plural forms
    (issue 31: "over 1 decisions", "2 wrong take")."""
    from tavli.i18n import msg, text
    from tavli.web.reviews import cube_error_key

    assert text("en", msg(cube_error_key("wrong pass"), n=2)) == "2 wrong passes"
    assert text("en", msg(cube_error_key("wrong pass"), n=1)) == "1 wrong pass"
    assert text("el", msg(cube_error_key("wrong take"), n=2)) == "2 λάθος αποδοχές"
    assert text("it", msg(cube_error_key("missed double"), n=3)) == "3 raddoppi mancati"
    line = msg("rv.sum_cube", moves="M", errors=[], rate="1.0", n=1)
    assert text("de", line).endswith("(1.0 mp bei 1 Entscheidung)")
