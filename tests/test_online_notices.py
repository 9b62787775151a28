"""The fan-out between processes without reading the log back (issue 33): a notice carries
the accepted action, a process that hears it applies it to its table without reading the
log; a gap (a missed notice) or an action too large for PostgreSQL's notice falls back to
the log, so nothing is lost; the server's act on PostgreSQL goes through an asyncio
connection (prepare, append, finish), on both backends where it applies."""

from __future__ import annotations

import asyncio
from contextlib import contextmanager

import pytest
from conftest import wait_until

from tavli.errors import StaleAction, StoreError
from tavli.online.service import OnlineGames
from tavli.store.base import NOTICE_MAX, Action, Notice, notice_payload, read_notice
from tavli.store.factory import open_store
from tavli.web.newgame import NewGame


def _seeded(games: OnlineGames):
    """A Portes game between two people, both seeds in: the next action is the opening
    throw (number 4)."""
    new = games.create(NewGame(variant="portes", opponent="human"), name="Ann")
    games.act(new.game_id, new.invite_token, 1, {"type": "join", "name": "Bob"})
    games.act(new.game_id, new.token, 2, {"type": "seed", "seed": "white-seed-1"})
    games.act(new.game_id, new.invite_token, 3, {"type": "seed", "seed": "black-seed-1"})
    return new


def _play(games: OnlineGames, new, n: int) -> list[Action]:
    """``n`` more actions of the side to act (rolls and each roll's first legal move)."""
    done = []
    for _ in range(n):
        v = games.view(new.game_id)
        token = new.token if v["turn"] == "white" or v["phase"] == "opening" \
            else new.invite_token
        if v["phase"] in ("opening", "roll"):
            action = {"type": "roll"}
        else:
            action = {"type": "move", "move": v["legal_moves"][0]["move"]}
        done.append(games.act(new.game_id, token, v["seq"] + 1, action))
    return done


class Counting:
    """Counts the log reads of a store (``actions``) and lets everything else through."""

    def __init__(self, store):
        self.store = store
        self.reads = 0

    def actions(self, game_id, after=0):
        self.reads += 1
        return self.store.actions(game_id, after=after)

    def __getattr__(self, name):
        return getattr(self.store, name)


def test_the_payload_carries_the_action_or_says_look_at_the_log():
    a = Action("g1", 7, "black", {"type": "move", "move": "13/7 8/7"},
               {"move": "13/7 8/7", "position": "abc"}, 12.5)
    n = read_notice(notice_payload(a))
    assert n == Notice("g1", 7) and n.action == a
    # 4,000 characters, 8,000 bytes in UTF-8: too large
    big = Action("g1", 8, "white", {"type": "join", "name": "Ω" * 4000}, {}, 1.0)
    text = notice_payload(big)
    assert text == "g1 8" and read_notice(text) == Notice("g1", 8)
    assert read_notice(text).action is None
    fits = Action("g1", 9, "white", {"type": "join", "name": "Ω" * 3900}, {}, 1.0)
    assert NOTICE_MAX - 200 < len(notice_payload(fits).encode()) <= NOTICE_MAX
    assert read_notice(notice_payload(fits)).action == fits


def test_listeners_hear_the_action_itself(online_db):
    with open_store(online_db) as a, open_store(online_db) as b:
        heard: list[Notice] = []
        b.listen(heard.append)
        games = OnlineGames(a)
        new = _seeded(games)
        done = _play(games, new, 3)
        assert wait_until(lambda: len(heard) >= 6)
        mine = [n for n in heard if n.game_id == new.game_id]
        assert [n.seq for n in mine] == [1, 2, 3, 4, 5, 6]
        assert [n.action for n in mine[3:]] == done  # side, action, result and time
        assert mine[0].action.action == {"type": "join", "name": "Bob"}


def test_an_action_too_large_for_a_notice_is_read_from_the_log(pg_cluster):
    url = pg_cluster.create_database("notices_big")
    with open_store(url) as a, open_store(url) as b:
        heard: list[Notice] = []
        b.listen(heard.append)
        games = OnlineGames(a)
        new = _seeded(games)
        t = games.table(new.game_id)
        big = Action(new.game_id, 4, None, {"type": "note", "text": "x" * 9000}, {}, 1.0)
        a.append(big, status=t.status(), record=None)  # as another process's would be
        assert wait_until(lambda: any(n.seq == 4 for n in heard))
        n = [n for n in heard if n.seq == 4][0]
        assert n.action is None  # "look at the log"
        assert b.actions(new.game_id, after=3)[0].action == big.action


@contextmanager
def two_processes(tmp_path):
    """Two services on one SQLite file, as two server processes: ``a`` plays a seeded game
    ``new``; ``b`` listens (``known``) and has read the game once, through a store that
    counts its reads (``b_store``). Yields ``(a, new, b, b_store, sa)``."""
    db = str(tmp_path / "o.sqlite3")
    with open_store(db) as sa, open_store(db) as sb:
        a = OnlineGames(sa)
        new = _seeded(a)
        b_store = Counting(sb)
        b = OnlineGames(b_store)  # type: ignore[arg-type]
        b.known = {}  # as when its hub listens
        assert b.view(new.game_id)["seq"] == 3  # loaded once from the store
        yield a, new, b, b_store, sa


def test_a_carried_action_is_applied_without_reading_the_log(tmp_path):
    with two_processes(tmp_path) as (a, new, b, b_store, sa):
        reads = b_store.reads
        done = _play(a, new, 6)
        for x in done:  # the notices, each with its action
            b.heard(x.game_id, x.seq, x)
            views = b.views_now(new.game_id)
            assert views is not None and views["others"]["seq"] == x.seq
        assert b_store.reads == reads  # the log was not read
        mine, theirs = b.views(new.game_id)["mover"], a.views(new.game_id)["mover"]
        del mine["absent"], theirs["absent"]  # how long a seat has been away: now
        assert mine == theirs
        assert b.tables.get(new.game_id).recent[-6:] == done
        # and b acts on from there (its table is the log's)
        more = _play(b, new, 2)
        assert [x.seq for x in more] == [10, 11]
        assert [x.seq for x in sa.actions(new.game_id)] == list(range(1, 12))


def test_a_gap_falls_back_to_the_log(tmp_path):
    with two_processes(tmp_path) as (a, new, b, b_store, _):
        reads = b_store.reads
        done = _play(a, new, 4)
        b.heard(new.game_id, done[0].seq, done[0])
        # the notice of done[1] is missed; done[2] and done[3] arrive
        b.heard(new.game_id, done[2].seq, done[2])
        b.heard(new.game_id, done[3].seq, done[3])
        assert b.views_now(new.game_id) is None  # a gap: memory is not enough
        v = b.views(new.game_id)  # the thread pool's way: reads the log
        assert v["others"]["seq"] == done[3].seq
        assert b_store.reads == reads + 1
        assert b.views(new.game_id)["mover"]["position"] == \
            a.views(new.game_id)["mover"]["position"]
        # an action too large for its notice: "GAME SEQ" only, then the log
        nxt = _play(a, new, 1)[0]
        b.heard(nxt.game_id, nxt.seq, None)
        assert b.views_now(new.game_id) is None
        assert b.views(new.game_id)["others"]["seq"] == nxt.seq
        assert b_store.reads == reads + 2


def test_a_carried_action_that_does_not_replay_is_refused(tmp_path):
    with two_processes(tmp_path) as (a, new, b, _, _):
        x = _play(a, new, 1)[0]
        forged = Action(x.game_id, x.seq, x.side, x.action, {**x.result, "dice": [9, 9]},
                        x.at)
        b.heard(x.game_id, x.seq, forged)
        with pytest.raises(StoreError, match="does not replay"):
            b.views_now(new.game_id)
        assert b.tables.get(new.game_id) is None  # dropped: rebuilt from the log
        assert b.views(new.game_id)["others"]["seq"] == x.seq


def test_prepare_append_finish_on_the_event_loop(online_db):
    async def run():
        with open_store(online_db) as store:
            games = OnlineGames(store)
            games.known = {}
            new = _seeded(games)
            games.view(new.game_id)  # the seats' presence read (as the hub's beat does)
            # the opening throw through the asyncio path
            p = games.prepare(new.game_id, new.token, 4, {"type": "roll"})
            assert p is not None and p.table.busy and p.action.seq == 4
            assert games.views_now(new.game_id) is None  # busy: nobody else looks
            await store.append_async(p.action, status=p.status, record=p.record)
            games.finish(p)
            assert not p.table.busy
            assert [a.seq for a in store.actions(new.game_id)] == [1, 2, 3, 4]
            assert games.views_now(new.game_id)["others"]["seq"] == 4
            # a stale number is refused before anything is applied
            with pytest.raises(StaleAction):
                games.prepare(new.game_id, new.token, 4, {"type": "roll"})
            # what needs the store is not prepared: a forged token, a join, a number
            # from the future
            assert games.prepare(new.game_id, "forged", 5, {"type": "roll"}) is None
            assert games.prepare(new.game_id, new.token, 5,
                                 {"type": "join", "name": "X"}) is None
            assert games.prepare(new.game_id, new.token, 9, {"type": "roll"}) is None
            # another process took the number meanwhile: refused, the table forgotten
            v = games.view(new.game_id)
            token = new.token if v["turn"] == "white" else new.invite_token
            move = {"type": "move", "move": v["legal_moves"][0]["move"]}
            p = games.prepare(new.game_id, token, 5, move)
            assert p is not None
            store.append(Action(new.game_id, 5, p.action.side, p.action.action,
                                p.action.result), status="playing", record=None)
            with pytest.raises(StaleAction):
                await store.append_async(p.action, status=p.status, record=p.record)
            games.abort(p)
            assert games.tables.get(new.game_id) is None
            assert games.view(new.game_id)["seq"] == 5  # rebuilt from the log
            await store.aclose()

    asyncio.run(run())


def test_appends_committed_in_groups_keep_their_own_outcome(pg_cluster):
    """Many appends at once from one event loop (PostgreSQL commits them in groups): each
    lands once, in order, with its notice; a stale one in the middle is refused alone."""
    from tavli.store.base import Seat, new_game_row, token_hash

    url = pg_cluster.create_database("groups")

    async def run():
        with open_store(url) as store, open_store(url) as other:
            heard: list[Notice] = []
            other.listen(heard.append)
            for i in range(20):
                store.create(new_game_row(f"g{i}", "game", "portes", {"game": {}},
                                          "c" * 64, "5" * 64),
                             [Seat(f"g{i}", "white", "human", "A",
                                   token_hash=token_hash(f"t{i}"), joined=1.0)])

            async def play(i):
                for seq in range(1, 6):
                    await store.append_async(
                        Action(f"g{i}", seq, "white", {"type": "roll"}, {"n": seq}),
                        status="playing", record=None, news=f"white 1\n{{\"n\": {seq}}}")

            async def stale():
                while store.game("g3").last_seq < 1:  # g3's first action is in
                    await asyncio.sleep(0.001)
                with pytest.raises(StaleAction):
                    await store.append_async(Action("g3", 1, "white", {"type": "x"}, {}),
                                             status="playing", record=None)

            await asyncio.gather(*(play(i) for i in range(20)), stale())
            for i in range(20):
                log = store.actions(f"g{i}")
                assert [(a.seq, a.result) for a in log] == [(s, {"n": s}) for s in
                                                           range(1, 6)]
            assert wait_until(lambda: len(heard) == 100)
            assert all(n.news == f"white 1\n{{\"n\": {n.seq}}}" and n.action is not None
                       for n in heard)
            mine = [n.seq for n in heard if n.game_id == "g7"]
            assert mine == [1, 2, 3, 4, 5]
            await store.aclose()

    asyncio.run(run())
