"""Online games through the service on both backends: every action checked by the engine
and committed before it is answered, seat tokens, sequence numbers, a restart and a
second process replaying the log, and the fair dice verifying after the game."""

from __future__ import annotations

import json
import random

import pytest

from tavli.errors import AccessDenied, GameOver, IllegalMove, StaleAction, WrongState
from tavli.online.fairdice import new_client_seed, verify_record
from tavli.online.service import OnlineGames
from tavli.play.record import load_record
from tavli.store.factory import open_store
from tavli.web.errors import ApiError
from tavli.web.newgame import NewGame


def _friends(games, variant="portes", **kw):
    new = games.create(NewGame(variant=variant, opponent="human", **kw), name="Ann")
    tokens = {new.side: new.token, new.invite_side: new.invite_token}
    seq = games.act(new.game_id, new.invite_token, 1, {"type": "join", "name": "Bob"}).seq
    for side in ("white", "black"):
        seq = games.act(new.game_id, tokens[side], seq + 1,
                        {"type": "seed", "seed": new_client_seed()}).seq
    return new.game_id, tokens


def _play_out(games, game_id, tokens, rng, limit=10_000, stop=None):
    """Random legal actions until the game (or match) ends (or ``stop(view)``)."""
    for _ in range(limit):
        v = games.view(game_id)
        if v["status"] == "over" or (stop and stop(v)):
            return v
        t = games.table(game_id)
        g = t.game
        side = v["turn"]
        if g.is_over:
            action = {"type": "next"}
        elif v["phase"] in ("opening", "roll"):
            action = {"type": "roll"}
        else:
            action = {"type": "move", "move": str(rng.choice(g.legal_moves()))}
        games.act(game_id, tokens[side], v["seq"] + 1, action)
    raise AssertionError("the game did not end")


def test_a_whole_game_between_two_seats_then_the_dice_verify(online_db):
    with open_store(online_db) as store:
        games = OnlineGames(store)
        game_id, tokens = _friends(games)
        v = games.view(game_id)
        assert v["status"] == "playing"
        assert games.record(game_id)["fair_dice"]["server_seed"] is None
        assert [s["name"] for s in v["seats"]] == ["Ann", "Bob"]
        v = _play_out(games, game_id, tokens, random.Random(1))
        assert v["outcome"]["winner"] in ("white", "black")
        rec = games.record(game_id)
        assert rec["fair_dice"]["server_seed"] is not None  # revealed at the end
        rolls, problems = verify_record(rec)
        assert problems == [] and rolls > 10
        assert store.game(game_id).status == "over"
        assert store.game(game_id).record == rec  # committed with the last action
        log = store.actions(game_id)
        assert [a.seq for a in log] == list(range(1, len(log) + 1))


def test_refusals_change_nothing(online_db):
    with open_store(online_db) as store:
        games = OnlineGames(store)
        game_id, tokens = _friends(games)
        v = games.view(game_id)
        seq = v["seq"]
        games.act(game_id, tokens["white"], seq + 1, {"type": "roll"})
        seq += 1
        v = games.view(game_id)
        actor = v["turn"]
        other = "black" if actor == "white" else "white"
        before = (store.game(game_id).record, len(store.actions(game_id)))
        refusals = [
            (AccessDenied, None, seq + 1, {"type": "move", "move": "1/2"}),  # spectator
            (AccessDenied, "forged", seq + 1, {"type": "roll"}),
            (AccessDenied, tokens[actor] + "x", seq + 1, {"type": "roll"}),
            (WrongState, tokens[other], seq + 1, {"type": "move", "move": "13/7"}),
            (StaleAction, tokens[actor], seq, {"type": "roll"}),          # replayed
            (StaleAction, tokens[actor], seq + 2, {"type": "roll"}),      # from the future
            (StaleAction, tokens[actor], "3", {"type": "roll"}),
            (IllegalMove, tokens[actor], seq + 1, {"type": "move", "move": "24/off"}),
            (WrongState, tokens[actor], seq + 1, {"type": "roll"}),       # dice are out
            (WrongState, tokens[actor], seq + 1, {"type": "seed", "seed": "a" * 20}),
            (ApiError, tokens[actor], seq + 1, {"type": "fly"}),
            (ApiError, tokens[actor], seq + 1, {"type": "move"}),
            (ApiError, tokens[actor], seq + 1, {"type": "roll", "move": "13/7"}),
            (ApiError, tokens[actor], seq + 1, ["roll"]),
            (ApiError, tokens[actor], seq + 1, {"type": "move", "move": "x" * 1000}),
            (WrongState, tokens[other], seq + 1, {"type": "join", "name": "Eve"}),
        ]
        for error, token, n, action in refusals:
            with pytest.raises(error):
                games.act(game_id, token, n, action)
            assert (store.game(game_id).record, len(store.actions(game_id))) == before
            assert games.view(game_id)["seq"] == seq
        # and the game goes on as if nothing had been tried
        g = games.table(game_id).game
        move = str(g.legal_moves()[0])
        done = games.act(game_id, tokens[actor], seq + 1, {"type": "move", "move": move})
        assert done.result["move"] == move and done.side == actor


def test_an_action_is_committed_before_it_is_answered_and_a_restart_replays(online_db):
    with open_store(online_db) as store:
        games = OnlineGames(store)
        game_id, tokens = _friends(games, variant="tavli", points=2)
        v = _play_out(games, game_id, tokens, random.Random(2), stop=lambda v: v["seq"] >= 30)
        state = {k: v[k] for k in ("seq", "position", "phase", "turn", "dice", "score")}
    # a new process: nothing in memory, everything from the store
    with open_store(online_db) as store:
        again = OnlineGames(store)
        v2 = again.view(game_id)
        assert {k: v2[k] for k in state} == state
        v2 = _play_out(again, game_id, tokens, random.Random(3))
        assert max(v2["score"]) >= 2
        rolls, problems = verify_record(again.record(game_id))
        assert problems == [] and rolls > 20
        assert load_record(again.record(game_id)).is_over


def test_two_processes_on_one_database_play_one_game(online_db):
    """Two services (as two server processes) on one database: each player's actions go
    through his own, and each sees the other's."""
    with open_store(online_db) as s1, open_store(online_db) as s2:
        one, two = OnlineGames(s1), OnlineGames(s2)
        game_id, tokens = _friends(one)
        rng = random.Random(4)
        server = {"white": one, "black": two}
        for _ in range(10_000):  # random play: the length depends on the (random) fair dice
            v = server["white"].view(game_id)
            if v["status"] == "over":
                break
            side = v["turn"]
            g = server[side].table(game_id).game
            action = ({"type": "roll"} if v["phase"] in ("opening", "roll") else
                      {"type": "move", "move": str(rng.choice(g.legal_moves()))})
            games = server["white" if v["phase"] == "opening" else side]
            games.act(game_id, tokens[side], v["seq"] + 1, action)
        assert one.view(game_id)["status"] == "over" == two.view(game_id)["status"]
        assert one.record(game_id) == two.record(game_id)
        # a stale process is refused, then catches up
        seq = one.view(game_id)["seq"]
        with pytest.raises(GameOver):
            two.act(game_id, tokens["white"], seq + 1, {"type": "roll"})


def test_against_the_ai_its_seed_is_fixed_at_creation(online_db):
    with open_store(online_db) as store:
        games = OnlineGames(store)
        new = games.create(NewGame(variant="fevga", opponent="ai", ai_side="black",
                                   level="beginner"), name="Ann")
        assert new.invite_token is None
        v = games.view(new.game_id)
        assert v["status"] == "playing"
        assert [(s["side"], s["player"], s["seeded"]) for s in v["seats"]] == \
            [("white", "human", False), ("black", "ai", True)]
        games.act(new.game_id, new.token, 1, {"type": "seed", "seed": new_client_seed()})
        games.act(new.game_id, new.token, 2, {"type": "roll"})
        v = games.view(new.game_id)
        if v["turn"] == "black" and v["phase"] == "move":
            g = games.table(new.game_id).game
            games.act_for_ai(new.game_id, 3, {"type": "move", "move": str(g.legal_moves()[0])})
        games.act(new.game_id, new.token, games.view(new.game_id)["seq"] + 1,
                  {"type": "resign"})
        rec = games.record(new.game_id)
        assert rec["games"][0]["result"]["winner"] == "black"
        assert verify_record(rec)[1] == []


def test_creation_refuses_a_seed_and_bad_settings(online_db):
    with open_store(online_db) as store:
        games = OnlineGames(store)
        with pytest.raises(ApiError, match="provably fair"):
            games.create(NewGame(variant="portes", seed=3), name="Ann")
        with pytest.raises(ApiError, match="name"):
            games.create(NewGame(variant="portes"), name="")
        with pytest.raises(ApiError):
            games.create(NewGame(variant="portes", opponent="ai", ai_side="white"),
                         name="Ann")
        # no opponent named: refused, not a game against the AI (issue 31)
        with pytest.raises(ApiError, match="name the opponent"):
            games.create(NewGame(variant="portes"), name="Ann")
        assert store.games() == []


def test_a_move_given_as_steps_as_json_has_them(online_db):
    """A move as steps (JSON arrays, as a WebSocket message brings them) is the same move
    as its notation; a step that is not a pair is refused and changes nothing."""
    with open_store(online_db) as store:
        games = OnlineGames(store)
        game_id, tokens = _friends(games)
        v = games.act(game_id, tokens["white"], 4, {"type": "roll"})
        v = games.view(game_id)
        side = v["turn"]
        if v["phase"] == "roll":  # the opening throw's winner rolls again (no reroll rule)
            games.act(game_id, tokens[side], v["seq"] + 1, {"type": "roll"})
            v = games.view(game_id)
        legal = v["legal_moves"][0]
        with pytest.raises(ApiError):
            games.act(game_id, tokens[side], v["seq"] + 1,
                      {"type": "move", "steps": [s for s in legal["steps"]]})  # triples
        assert games.view(game_id)["seq"] == v["seq"]
        pairs = json.loads(json.dumps([[f, t] for f, t, _ in legal["steps"]]))
        done = games.act(game_id, tokens[side], v["seq"] + 1, {"type": "move", "steps": pairs})
        assert done.result["move"] == legal["move"]


def test_only_the_seat_to_move_is_sent_its_moves_and_turn_tree(online_db):
    from tavli.web.steps import turn_tree

    with open_store(online_db) as store:
        games = OnlineGames(store)
        game_id, tokens = _friends(games)
        games.act(game_id, tokens["white"], 4, {"type": "roll"})
        v = games.view(game_id)
        if v["phase"] == "roll":  # the opening throw's winner rolls again
            games.act(game_id, tokens[v["turn"]], v["seq"] + 1, {"type": "roll"})
            v = games.view(game_id)
        mover, other = v["turn"], "black" if v["turn"] == "white" else "white"
        mine = games.view_for(game_id, mover)
        assert {**mine, "absent": None} == {**v, "absent": None}  # absent: seconds away
        assert mine["legal_moves"] and len(mine["board"]["turn_tree"]["nodes"]) > 1
        g = games.table(game_id).game
        bare = turn_tree(g.position, g.dice, g.legal_moves(), steps=False)
        for who in (other, None):  # the other seat and a spectator: the dice, no moves
            theirs = games.view_for(game_id, who)
            assert theirs["legal_moves"] == [] and theirs["board"]["turn_tree"] == bare
            same = ("legal_moves", "board", "absent")
            assert {k: x for k, x in theirs.items() if k not in same} \
                == {k: x for k, x in mine.items() if k not in same}
            assert len(json.dumps(theirs)) < len(json.dumps(mine))


def test_the_state_carries_the_rule_options_and_the_match_length(online_db):
    """As tavli play's state: ``rules`` (the game's options) and ``target`` (the Rules
    button opens the rules page with them)."""
    with open_store(online_db) as store:
        games = OnlineGames(store)
        opts = {"prime_rule": "forbid", "starting_quarter_rule": "off"}
        new = games.create(NewGame(variant="fevga", opponent="human", rules=opts), name="Ann")
        v = games.view(new.game_id)
        assert v["rules"]["game"] == "fevga" and v["target"] is None
        assert {k: v["rules"][k] for k in opts} == opts
        assert v["rules"]["must_play_higher"] is True  # the defaults too
        new = games.create(NewGame(variant="tavli", points=3, opponent="human"), name="Bob")
        v = games.view(new.game_id)
        assert (v["kind"], v["variant"], v["target"], v["rules"]["game"]) == \
            ("match", "tavli", 3, "portes")
