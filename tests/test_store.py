"""The storage layer (``tavli/store/``): databases made by the code before it — the browser
app's file, as its former store module and its Dama API made it (no schema bookkeeping),
the online server's SQLite and PostgreSQL databases — open with every row kept; the browser app's
store on both backends; the statements in both dialects; and the package's imports
(nothing of tavli but ``tavli.errors``, no cycle)."""

from __future__ import annotations

import ast
import json
import sqlite3
import time
from pathlib import Path

import pytest

from tavli.store import migrations
from tavli.store.base import Action, Notice, Seat, new_game_row, token_hash
from tavli.store.factory import open_local, open_store
from tavli.store.sql import LISTS, POSTGRESQL, SQLITE

STORE = Path(__file__).parent.parent / "tavli" / "store"

# --- the browser app's file before tavli.store: today's exact schema and statements ---------

OLD_LOCAL_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,            -- 'game' or 'match'
    variant  TEXT NOT NULL,            -- portes, plakoto, fevga, backgammon or tavli
    status   TEXT NOT NULL,            -- playing, over or imported
    title    TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    record   TEXT NOT NULL,            -- the engine's JSON record
    meta     TEXT NOT NULL             -- the app's JSON metadata
);
CREATE INDEX IF NOT EXISTS games_updated ON games (updated);
"""
OLD_DAMA_SCHEMA = """
CREATE TABLE IF NOT EXISTS dama_games (
    id       TEXT PRIMARY KEY,
    rules    TEXT NOT NULL,            -- box, russian or italian
    huffing  INTEGER NOT NULL,         -- 1: box rules with huffing
    status   TEXT NOT NULL,            -- playing or over
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    plies    TEXT NOT NULL,            -- JSON list: "22x13x6" (full landing squares) or "*22"
    meta     TEXT NOT NULL             -- JSON: players
);
"""
OLD_SAVE = ("INSERT INTO games (id, kind, variant, status, title, created, updated, "
            "record, meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET kind=excluded.kind, "
            "variant=excluded.variant, status=excluded.status, title=excluded.title, "
            "updated=excluded.updated, record=excluded.record, meta=excluded.meta")
OLD_SAVE_DAMA = ("INSERT INTO dama_games (id, rules, huffing, status, created, updated, plies, "
                 "meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                 "status=excluded.status, updated=excluded.updated, plies=excluded.plies, "
                 "meta=excluded.meta")
DAMA_META = {"players": {"white": {"type": "human"}, "black": {"type": "human"}}}
RECORD = {"format": "tavli-record", "game": "portes", "moves": ["31: 8/5 6/5"]}


def _old_local_file(path: Path, dama: bool) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(OLD_LOCAL_SCHEMA)
    if dama:
        db.executescript(OLD_DAMA_SCHEMA)
    for i, (variant, status) in enumerate((("portes", "playing"), ("tavli", "over"))):
        db.execute(OLD_SAVE, (f"g{i}", "match" if variant == "tavli" else "game", variant,
                              status, f"{variant} {i}", 10.0 + i, 20.0 + i,
                              json.dumps(RECORD, separators=(",", ":")),
                              json.dumps({"players": {"white": {"type": "human"}}, "i": i})))
    if dama:
        db.execute(OLD_SAVE_DAMA, ("d1", "box", 1, "playing", 5.0, 30.0,
                                   json.dumps(["22-18"]), json.dumps(DAMA_META)))
    db.close()


@pytest.mark.parametrize("dama", [True, False], ids=["with-dama", "before-dama"])
def test_a_file_of_the_app_before_the_store_keeps_every_row(tmp_path, dama):
    path = tmp_path / "games.sqlite3"
    _old_local_file(path, dama)
    with open_local(path) as store:
        assert store.version() == migrations.LOCAL.latest
        g0, g1 = store.get("g0"), store.get("g1")
        assert (g0["kind"], g0["variant"], g0["status"], g0["title"], g0["created"],
                g0["updated"]) == ("game", "portes", "playing", "portes 0", 10.0, 20.0)
        assert g0["record"] == RECORD and g0["meta"]["i"] == 0
        assert (g1["kind"], g1["status"], g1["meta"]["i"]) == ("match", "over", 1)
        assert [r["id"] for r in store.list()] == ["g1", "g0"]
        if dama:
            d1 = store.dama("d1")
            assert (d1["rules"], d1["huffing"], d1["plies"], d1["meta"], d1["created"]) == \
                ("box", 1, ["22-18"], DAMA_META, 5.0)
        else:
            assert store.dama("d1") is None
        rows, total = store.page(("tavli", "dama"))
        assert total == 3 if dama else 2
        assert [r["id"] for r in rows] == (["d1", "g1", "g0"] if dama else ["g1", "g0"])
        # and it goes on: a new row, an old one saved again
        store.save("g0", kind="game", variant="portes", status="over", title="portes 0",
                   record=RECORD, meta={"i": 0, "again": True})
        store.save_dama("d2", rules="italian", huffing=False, status="playing",
                        created=40.0, plies=[], meta={})
    with open_local(path) as store:  # again: nothing to do, nothing lost
        assert store.version() == migrations.LOCAL.latest
        assert store.get("g0")["created"] == 10.0 and store.get("g0")["meta"]["again"]
        assert store.dama("d2")["rules"] == "italian" and store.get("g1") is not None
    db = sqlite3.connect(path)
    assert db.execute("SELECT version, name FROM local_schema ORDER BY version").fetchall() \
        == [(m.version, m.name) for m in migrations.LOCAL_MIGRATIONS]
    db.close()


def test_the_app_opens_a_file_of_the_app_before_the_store(tmp_path):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from tavli.web.app import create_app

    path = tmp_path / "games.sqlite3"
    _old_local_file(path, dama=True)
    c = TestClient(create_app(path, allowed_hosts=["testserver"]))
    listed = c.get("/api/games").json()
    assert [g["id"] for g in listed["games"]] == ["d1", "g1", "g0"]
    assert listed["games"][0]["title"] == "Dama (Box rules, huffing)"
    dama = c.get("/api/games/d1").json()
    assert (dama["id"], dama["turn"]) == ("d1", "black")


# --- an online database before tavli.store: today's exact schema and statements -------------

OLD_DIALECTS = {
    "sqlite": {"real": "REAL", "serial": "INTEGER PRIMARY KEY AUTOINCREMENT"},
    "postgresql": {"real": "DOUBLE PRECISION", "serial": "BIGSERIAL PRIMARY KEY"},
}
OLD_SCHEMA_TABLE = ("CREATE TABLE IF NOT EXISTS online_schema (version INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied {real} NOT NULL)")
OLD_MIGRATIONS = [
    (1, "online games, seats, the log of accepted actions", [
        """CREATE TABLE online_games (
            id          TEXT PRIMARY KEY,
            kind        TEXT NOT NULL CHECK (kind IN ('game', 'match')),
            variant     TEXT NOT NULL,
            settings    TEXT NOT NULL,      -- JSON: what the game or match is set up with
            status      TEXT NOT NULL,      -- open, playing, over, abandoned
            commitment  TEXT NOT NULL,      -- SHA-256 of server_seed, published at once
            server_seed TEXT NOT NULL,      -- secret until the end (then in the record)
            last_seq    INTEGER NOT NULL DEFAULT 0,
            record      TEXT,               -- JSON: the record as of last_seq
            created     {real} NOT NULL,
            updated     {real} NOT NULL
        )""",
        """CREATE TABLE online_seats (
            game_id    TEXT NOT NULL REFERENCES online_games (id) ON DELETE CASCADE,
            side       TEXT NOT NULL CHECK (side IN ('white', 'black')),
            player     TEXT NOT NULL CHECK (player IN ('human', 'ai')),
            name       TEXT,
            level      TEXT,
            token_hash TEXT UNIQUE,         -- SHA-256 of the seat token; none for the AI
            joined     {real},
            PRIMARY KEY (game_id, side)
        )""",
        """CREATE TABLE online_actions (
            id       {serial},
            game_id  TEXT NOT NULL REFERENCES online_games (id) ON DELETE CASCADE,
            seq      INTEGER NOT NULL CHECK (seq >= 1),
            side     TEXT,
            action   TEXT NOT NULL,         -- JSON: what was asked
            result   TEXT NOT NULL,         -- JSON: what it did (dice, the move played)
            at       {real} NOT NULL,
            UNIQUE (game_id, seq)
        )""",
    ]),
    (2, "presence (a seat's last sign of life) and the lobby's index", [
        "ALTER TABLE online_seats ADD COLUMN seen {real}",
        "CREATE INDEX online_games_lobby ON online_games (status, updated)",
    ]),
    (3, "a rematch keeps the seat tokens: a token is unique per game; when a seat left", [
        """CREATE TABLE online_seats_v3 (
            game_id    TEXT NOT NULL REFERENCES online_games (id) ON DELETE CASCADE,
            side       TEXT NOT NULL CHECK (side IN ('white', 'black')),
            player     TEXT NOT NULL CHECK (player IN ('human', 'ai')),
            name       TEXT,
            level      TEXT,
            token_hash TEXT,                -- SHA-256 of the seat token; none for the AI
            joined     {real},
            seen       {real},              -- last sign of life of a connection
            left_at    {real},              -- when its last connection closed
            PRIMARY KEY (game_id, side),
            UNIQUE (game_id, token_hash)
        )""",
        "INSERT INTO online_seats_v3 (game_id, side, player, name, level, token_hash, joined, "
        "seen) SELECT game_id, side, player, name, level, token_hash, joined, seen "
        "FROM online_seats",
        "DROP TABLE online_seats",
        "ALTER TABLE online_seats_v3 RENAME TO online_seats",
    ]),
]


def _old_online_database(db: str, version: int) -> None:
    """The database the code before tavli.store made and filled, at schema ``version``."""
    if db.startswith("postgresql"):
        import psycopg

        conn, p, words = psycopg.connect(db, autocommit=True), "%s", OLD_DIALECTS["postgresql"]
    else:
        conn, p, words = sqlite3.connect(db, isolation_level=None), "?", OLD_DIALECTS["sqlite"]
    conn.execute(OLD_SCHEMA_TABLE.format(**words))
    for v, name, statements in OLD_MIGRATIONS[:version]:
        for s in statements:
            conn.execute(s.format(**words))
        conn.execute(f"INSERT INTO online_schema (version, name, applied) VALUES ({p}, {p}, {p})",
                     (v, name, 1.0))
    games = [("g1", "game", "portes", '{"listed":true}', "playing", "c" * 64, "5" * 64, 2,
              None, 1.0, 3.0),
             ("g2", "match", "tavli", "{}", "over", "d" * 64, "6" * 64, 0,
              '{"result":"white"}', 2.0, 4.0)]
    marks = ", ".join([p] * 11)
    for g in games:
        conn.execute("INSERT INTO online_games (id, kind, variant, settings, status, commitment, "
                     f"server_seed, last_seq, record, created, updated) VALUES ({marks})", g)
    for s in (("g1", "white", "human", "Ann", None, token_hash("g1-w"), 1.5),
              ("g1", "black", "ai", None, "expert", None, None)):
        conn.execute("INSERT INTO online_seats (game_id, side, player, name, level, token_hash, "
                     f"joined) VALUES ({', '.join([p] * 7)})", s)
    for seq, dice in ((1, [3, 1]), (2, [6, 5])):
        conn.execute("INSERT INTO online_actions (game_id, seq, side, action, result, at) "
                     f"VALUES ({', '.join([p] * 6)})",
                     ("g1", seq, "white", '{"type":"roll"}', json.dumps({"dice": dice}),
                      2.0 + seq))
    conn.close()


@pytest.mark.parametrize("version", [1, 3])
def test_an_online_database_before_the_store_keeps_every_row(online_db, version):
    _old_online_database(online_db, version)
    with open_store(online_db) as store:
        assert store.version() == migrations.LATEST
        g1, g2 = store.game("g1"), store.game("g2")
        assert (g1.kind, g1.variant, g1.settings, g1.status, g1.last_seq, g1.record,
                g1.created, g1.updated) == ("game", "portes", {"listed": True}, "playing", 2,
                                            None, 1.0, 3.0)
        assert (g2.kind, g2.status, g2.record) == ("match", "over", {"result": "white"})
        assert [g.id for g in store.games()] == ["g2", "g1"]
        assert [a.result for a in store.actions("g1")] == [{"dice": [3, 1]}, {"dice": [6, 5]}]
        seats = store.seats("g1")
        assert [(s.side, s.player, s.name, s.level, s.joined) for s in seats] == \
            [("white", "human", "Ann", None, 1.5), ("black", "ai", None, "expert", None)]
        assert store.seat_by_token("g1", "g1-w").side == "white"
        heard: list[Notice] = []
        store.listen(heard.append)
        store.append(Action("g1", 3, "white", {"type": "roll"}, {"dice": [2, 2]}),
                     status="playing", record=None)
        store.update_seat("g1", "white", seen=9.0, left=10.0)
        assert (store.seats("g1")[0].seen, store.seats("g1")[0].left) == (9.0, 10.0)
        store.create(new_game_row("g3", "game", "fevga", {}, "e" * 64, "7" * 64),
                     [Seat("g3", "white", "human", token_hash=token_hash("g1-w"))])
        for _ in range(100):
            if heard:
                break
            time.sleep(0.05)
        assert heard == [Notice("g1", 3)]
    with open_store(online_db) as store:
        assert store.game("g1").last_seq == 3 and len(store.actions("g1")) == 3


# --- the browser app's store on both backends ---------------------------------------------------

def test_the_app_store_on_both_backends(online_db):
    with open_local(online_db) as store:
        assert store.version() == migrations.LOCAL.latest
        for i, v in enumerate(("portes", "fevga", "portes")):
            store.save(f"g{i}", kind="game", variant=v, status="playing",
                       title=f"{v.title()} 100% {i}", record={"n": i}, meta={"i": i})
        store.save("g0", kind="game", variant="portes", status="over", title="Portes 100% 0",
                   record={"n": 9}, meta={"i": 0})
        assert store.get("g0")["record"] == {"n": 9} and store.get("nope") is None
        store.save_dama("d1", rules="box", huffing=True, status="playing", created=1.0,
                        plies=["22-18"], meta={})
        assert store.dama("d1")["plies"] == ["22-18"]
        rows, total = store.page(("tavli",), variant="portes")
        assert (total, [r["id"] for r in rows]) == (2, ["g0", "g2"])
        rows, total = store.page(("tavli", "dama"), text="HUFF")  # the case of ASCII ignored
        assert (total, [r["title"] for r in rows]) == (1, ["Dama (Box rules, huffing)"])
        rows, total = store.page(("tavli", "dama"), text="100%", limit=1, offset=1)
        assert total == 3 and len(rows) == 1
        assert store.page(("tavli", "dama"), text="100_")[1] == 0  # no wildcards
        assert store.page(("tavli", "dama"), status="over")[1] == 1
        assert store.delete("g1") and not store.delete("g1")
        assert store.delete_dama("d1") and store.dama("d1") is None
        assert [r["id"] for r in store.list()] == ["g0", "g2"]


# --- the statements and the package's imports ---------------------------------------------------

def test_every_statement_renders_in_both_dialects():
    from tavli.store import sql

    statements = [v for k, v in vars(sql).items() if k.isupper() and isinstance(v, str)
                  and "{table}" not in v and "{changes}" not in v and "{games}" not in v
                  and "{accounts}" not in v]
    statements += [x.select for x in LISTS.values()]
    assert len(statements) > 20
    for s in statements:
        lite, pg = SQLITE.sql(s), POSTGRESQL.sql(s)
        assert "{" not in lite and "{" not in pg and "?" not in pg
        assert lite.count("?") == pg.count("%s")


def _imports(path: Path) -> list[str]:
    """The modules ``path`` imports, anywhere in it (in functions too), absolute."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                out.append(node.module or "")
            else:
                base = "tavli" if node.level == 2 else "tavli.store"
                mod = f"{base}.{node.module}" if node.module else base
                out += [mod] if node.module else [f"{mod}.{a.name}" for a in node.names]
    return out


def test_the_store_imports_nothing_of_tavli_but_errors_and_has_no_cycle():
    graph = {}
    for path in sorted(STORE.glob("*.py")):
        name = "tavli.store" if path.stem == "__init__" else f"tavli.store.{path.stem}"
        mods = _imports(path)
        assert all(m == "tavli.errors" or m.startswith("tavli.store") or
                   not m.startswith("tavli") for m in mods), (name, mods)
        graph[name] = {m for m in mods if m.startswith("tavli.store.")}
    seen: dict[str, int] = {}

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, f"import cycle: {' -> '.join((*path, node))}"
        if seen.get(node):
            return
        for nxt in graph.get(node, ()):
            visit(nxt, (*path, node))
        seen[node] = 1

    for node in graph:
        visit(node, ())
    assert graph["tavli.store"] == set()  # the package imports none of its modules
