"""The store of online games on both backends (SQLite and a real PostgreSQL): games,
seats and hashed tokens, the numbered log (a number used once), schema migrations from
an empty database and from the previous version, listeners across connections, and the
one-line errors of bad ``--db`` values."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import threading
import time

import pytest
from conftest import wait_until

from tavli.errors import StaleAction, StoreError
from tavli.store import migrations
from tavli.store import sql as S
from tavli.store.accounts import AccountStore
from tavli.store.base import Action, Notice, Seat, new_game_row, new_token, token_hash
from tavli.store.dburl import parse_db_url
from tavli.store.factory import open_store
from tavli.store.online import OnlineStore


def _game(store, game_id="g1"):
    store.create(new_game_row(game_id, "game", "portes", {"game": {"variant": "portes"}},
                              "c" * 64, "5" * 64),
                 [Seat(game_id, "white", "human", "Ann", token_hash=token_hash(f"{game_id}-w"),
                       joined=1.0),
                  Seat(game_id, "black", "human", token_hash=token_hash(f"{game_id}-b"))])


def _act(game_id, seq, side="white", **result):
    return Action(game_id, seq, side, {"type": "roll"}, result)




def test_games_seats_and_the_numbered_log(online_db):
    with open_store(online_db) as store:
        assert store.version() == migrations.LATEST
        _game(store)
        row = store.game("g1")
        assert (row.kind, row.variant, row.status, row.last_seq, row.settings) == \
            ("game", "portes", "open", 0, {"game": {"variant": "portes"}})
        assert store.game("nope") is None
        seats = store.seats("g1")
        assert [(s.side, s.player, s.name) for s in seats] == \
            [("white", "human", "Ann"), ("black", "human", None)]
        assert store.seat_by_token("g1", "g1-b").side == "black"
        assert store.seat_by_token("g1", "g1-x") is None
        assert store.seat_by_token("g2", "g1-w") is None  # another game's token
        for seq in (1, 2, 3):
            store.append(_act("g1", seq, dice=[seq, 1]), status="playing",
                         record={"n": seq})
        assert [a.seq for a in store.actions("g1")] == [1, 2, 3]
        assert [a.result for a in store.actions("g1", after=2)] == [{"dice": [3, 1]}]
        row = store.game("g1")
        assert (row.last_seq, row.status, row.record) == (3, "playing", {"n": 3})
        store.update_seat("g1", "black", name="Bob", joined=2.0, seen=3.0)
        assert store.seats("g1")[1].name == "Bob" and store.seats("g1")[1].seen == 3.0
        assert [g.id for g in store.games(status="playing")] == ["g1"]
        assert store.games(status="over") == []


def test_the_store_keeps_only_the_hash_of_a_token(online_db):
    token = new_token()
    assert len(token) >= 32  # 192 bits, URL-safe
    with open_store(online_db) as store:
        store.create(new_game_row("g1", "game", "portes", {}, "c" * 64, "5" * 64),
                     [Seat("g1", "white", "human", token_hash=token_hash(token))])
        assert store.seats("g1")[0].token_hash == token_hash(token) != token
    if online_db.startswith("postgresql"):
        import psycopg

        with psycopg.connect(online_db) as conn:
            dump = str(conn.execute("SELECT * FROM online_seats").fetchall())
    else:
        dump = str(sqlite3.connect(online_db).execute("SELECT * FROM online_seats").fetchall())
    assert token not in dump and token_hash(token) in dump


def test_a_token_is_unique_per_game_and_may_serve_a_rematch(online_db):
    h = token_hash(new_token())
    with open_store(online_db) as store:
        store.create(new_game_row("g1", "game", "portes", {}, "c" * 64, "5" * 64),
                     [Seat("g1", "white", "human", token_hash=h)])
        store.create(new_game_row("g2", "game", "portes", {}, "c" * 64, "6" * 64),
                     [Seat("g2", "black", "human", token_hash=h)])  # the rematch's seat
        assert store.seats("g2")[0].token_hash == h
        with pytest.raises(StoreError, match="cannot be stored"):
            store.create(new_game_row("g3", "game", "portes", {}, "c" * 64, "7" * 64),
                         [Seat("g3", "white", "human", token_hash=h),
                          Seat("g3", "black", "human", token_hash=h)])
        assert store.game("g3") is None


def test_a_replayed_or_duplicated_action_is_refused_and_changes_nothing(online_db):
    with open_store(online_db) as store:
        _game(store)
        store.append(_act("g1", 1, dice=[3, 1]), status="playing", record={"n": 1})
        for seq in (1, 0, 3):  # replayed, nonsense, a gap
            with pytest.raises(StaleAction, match="not the next"):
                store.append(_act("g1", seq, dice=[6, 6]), status="over", record={"n": 9})
        assert [a.result for a in store.actions("g1")] == [{"dice": [3, 1]}]
        assert (store.game("g1").status, store.game("g1").record) == ("playing", {"n": 1})
        with pytest.raises(StoreError, match="no online game"):
            store.append(_act("zz", 1), status="playing", record=None)


def test_two_connections_racing_for_one_number_one_wins(online_db):
    with open_store(online_db) as a, open_store(online_db) as b:
        _game(a)
        wins, losses = [], []

        def go(store, who):
            for seq in range(1, 21):
                try:
                    store.append(_act("g1", seq, side=who), status="playing", record=None)
                    wins.append((seq, who))
                except StaleAction:
                    losses.append((seq, who))

        threads = [threading.Thread(target=go, args=(s, w)) for s, w in ((a, "white"),
                                                                        (b, "black"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        log = a.actions("g1")
        assert [x.seq for x in log] == list(range(1, 21))  # each number once, no gap
        assert sorted(s for s, _ in wins) == list(range(1, 21))
        assert {(x.seq, x.side) for x in log} == set(wins)


def test_listeners_hear_the_actions_of_another_connection(online_db):
    with open_store(online_db) as a, open_store(online_db) as b:
        heard_a: list[Notice] = []
        heard_b: list[Notice] = []
        sub_a = a.listen(heard_a.append)
        b.listen(heard_b.append)
        _game(a)
        _game(a, "g2")
        a.append(_act("g1", 1), status="playing", record=None)
        b.append(_act("g2", 1), status="playing", record=None)
        b.append(_act("g1", 2), status="playing", record=None)
        want = [Notice("g1", 1), Notice("g2", 1), Notice("g1", 2)]
        assert wait_until(lambda: len(heard_a) == 3 and len(heard_b) == 3)
        assert heard_a == want and heard_b == want
        sub_a.close()
        b.append(_act("g1", 3), status="playing", record=None)
        assert wait_until(lambda: len(heard_b) == 4)
        time.sleep(0.3)
        assert len(heard_a) == 3  # closed: hears no more


def test_migrations_from_an_empty_database(online_db):
    with open_store(online_db, schema=0) as store:
        assert store.version() == 0
    with open_store(online_db) as store:
        assert store.version() == migrations.LATEST
        _game(store)
    with open_store(online_db) as store:  # again: nothing to do, nothing lost
        assert store.version() == migrations.LATEST and store.game("g1") is not None


def test_migration_from_the_previous_version_keeps_the_data(online_db):
    previous = migrations.LATEST - 1
    with open_store(online_db, schema=previous) as store:
        assert store.version() == previous
        _game_v3(store)
        store.append(_act("g1", 1, dice=[5, 2]), status="playing", record={"n": 1})
    with open_store(online_db) as store:
        assert store.version() == migrations.LATEST
        assert [a.result for a in store.actions("g1")] == [{"dice": [5, 2]}]
        assert store.seat_by_token("g1", "g1-w").name == "Ann"
        store.update_seat("g1", "white", seen=42.0, left=43.0)  # the new columns work
        assert (store.seats("g1")[0].seen, store.seats("g1")[0].left) == (42.0, 43.0)
        store.append(_act("g1", 2), status="playing", record=None)
        assert store.game("g1").last_seq == 2
        # version 4's: accounts, a seat's account, ratings
        people = AccountStore(store.backend)
        ann = people.create("Ann", "hash")
        assert people.claim_guest_seat(ann.id, "g1", "g1-w")
        assert store.seats("g1")[0].account_id == ann.id
        assert people.results_of(ann.id) == []  # not over


# the seats' insert of schema version 3 (before accounts)
SEAT_V3 = ("INSERT INTO online_seats (game_id, side, player, name, level, token_hash, joined) "
           "VALUES (?, ?, ?, ?, ?, ?, ?)")


def _game_v3(store, game_id="g1"):
    """``_game`` as the code of schema version 3 stored it."""
    row = new_game_row(game_id, "game", "portes", {"game": {"variant": "portes"}},
                       "c" * 64, "5" * 64)
    with store.backend.transaction() as tx:
        tx.run(S.INSERT_GAME, (row.id, row.kind, row.variant, json.dumps(row.settings),
                               row.status, row.commitment, row.server_seed, 0, row.created,
                               row.updated, None))
        tx.run(SEAT_V3, (game_id, "white", "human", "Ann", None, token_hash(f"{game_id}-w"),
                         1.0))
        tx.run(SEAT_V3, (game_id, "black", "human", None, None, token_hash(f"{game_id}-b"),
                         None))


def test_a_database_newer_than_this_tavli_is_refused(online_db, monkeypatch):
    with open_store(online_db):
        pass
    extra = migrations.Migration(migrations.LATEST + 1, "from the future",
                                 ("CREATE TABLE online_future (x INTEGER)",))
    monkeypatch.setattr(OnlineStore, "schema", dataclasses.replace(
        migrations.ONLINE, migrations=(*migrations.MIGRATIONS, extra)))
    with open_store(online_db):
        pass
    monkeypatch.undo()
    with pytest.raises(StoreError, match=rf"schema version {migrations.LATEST + 1}; this "
                                         rf"tavli knows up to {migrations.LATEST}"):
        open_store(online_db)


# --- bad --db values: one line each ---------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ("mysql://db/x", "unknown database 'mysql://"),
    ("postgresql://host:notaport/db", "malformed PostgreSQL URL"),
    ("postgresql://host/db/extra", "malformed PostgreSQL URL"),
    ("postgresql://host/db#frag", "no #fragment"),
    ("postgres:/host/db", "starts with postgres://"),
    ("sqlite:", "names no file"),
])
def test_malformed_db_urls_are_one_line_errors(text, message):
    with pytest.raises(StoreError, match=message) as e:
        open_store(text)
    assert "\n" not in str(e.value)


def test_an_unknown_connection_parameter_is_one_line():
    with pytest.raises(StoreError, match="malformed PostgreSQL URL") as e:
        open_store("postgresql://localhost/db?nonsense_option=1")
    assert "\n" not in str(e.value)


def test_an_unreachable_database_is_one_line_and_hides_the_password(tmp_path):
    t = time.time()
    with pytest.raises(StoreError, match="cannot use the PostgreSQL database") as e:
        open_store(f"postgresql://tavli:s3cret@/x?host={tmp_path}&port=1&connect_timeout=2")
    assert "\n" not in str(e.value) and "s3cret" not in str(e.value)
    assert "***" in str(e.value) and time.time() - t < 10


def test_a_missing_server_database_is_one_line(pg_cluster):
    with pytest.raises(StoreError, match='database "nope" does not exist') as e:
        open_store(pg_cluster.url("nope"))
    assert "\n" not in str(e.value)


def test_a_file_that_is_not_a_database_is_one_line(tmp_path):
    bad = tmp_path / "x.sqlite3"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open the SQLite database") as e:
        open_store(str(bad))
    assert "\n" not in str(e.value)


def test_db_url_forms():
    assert parse_db_url("sqlite:///var/t.db").target == "/var/t.db"
    assert parse_db_url("sqlite:t.db").target == "t.db"
    assert parse_db_url(":memory:").backend == "sqlite"
    pg = parse_db_url("postgres://u:pw@h:5433/d?sslmode=disable")
    assert (pg.backend, pg.shown) == ("postgresql", "postgres://u:***@h:5433/d?sslmode=disable")
