"""The web app's store, the same tests on both backends: a SQLite file and a real PostgreSQL database.

What a server relies on: tables, seats and moves come back as written; a second move at the same
index is refused and changes nothing (how two processes cannot both win a race); databases of older
versions are upgraded and keep their tables; a newer one, an unreachable server or a wrong password
is one clear line.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from spots.web.store import SCHEMA_VERSION, Conflict, Store, StoreError, TableStore, open_store
from spots.web.store.migrate import migrate_sqlite
from support.processes import CHILD_ENV

SEATS: list[dict[str, Any]] = [{"kind": "human", "name": "Ada", "claimed": True},
                               {"kind": "human", "name": "Bo", "open": True},
                               {"kind": "bot", "bot": "greedy", "name": "Rex"}]
RULES = {"players": 3, "target": 6}


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store lives: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "spots.db")
    return str(request.getfixturevalue("pg_url"))


def opened(db: str) -> TableStore:
    return open_store(db)


def test_tables_seats_and_moves_come_back_as_written(db: str) -> None:
    store = opened(db)
    try:
        row = store.create_table("spots", RULES, SEATS, [("reveal wilbur", -1)], owner="abc")
        store.append_moves(row.id, 1, [("reveal doog", -1), ("reveal missy", -1)], "playing", None)
        assert store.move_count(row.id) == 3
        assert store.moves_since(row.id, 1) == ["reveal doog", "reveal missy"]
        [loaded] = store.load_tables()
        assert (loaded.id, loaded.game, loaded.rules, loaded.owner, loaded.status) == (row.id, "spots", RULES, "abc",
                                                                                       "playing")
        assert loaded.moves == ["reveal wilbur", "reveal doog", "reveal missy"]
        assert [(s.name, s.kind, s.bot, s.claimed, s.open) for s in loaded.seats] == [
            ("Ada", "human", None, True, False), ("Bo", "human", None, False, True), ("Rex", "bot", "greedy", False,
                                                                                       False)]
        assert store.table_of_link(row.seats[1].token or "") == row.id
        assert store.table_of_link(row.host_token) == row.id and store.table_of_link("nope") is None
        # taking the open seat from the lobby gives it a new link and a name, once
        token = store.claim_seat(row.id, 1, True, "Bea")
        assert token and token != row.seats[1].token
        assert store.claim_seat(row.id, 1, True, "Cy") is None
        assert store.claim_seat(row.id, 2, False) is None  # a bot seat is nobody's to claim
        again = store.load_table(row.id)
        assert again is not None and again.seats[1].name == "Bea" and again.seats[1].token == token
        summary = {"id": row.id, "winner": "Ada"}
        store.append_moves(row.id, 3, [("stop", 0)], "over", 0, summary)
        assert store.load_tables() == [] and store.status_of(row.id) == ("over", None)
        assert store.finished(0, 10) == ([summary], 1)
        store.set_status(row.id, "quarantined", "a bad move")
        assert store.status_of(row.id) == ("quarantined", "a bad move")
    finally:
        store.close()


def test_a_second_move_at_the_same_index_is_refused_and_changes_nothing(db: str) -> None:
    store = opened(db)
    try:
        row = store.create_table("spots", RULES, SEATS, [("reveal wilbur", -1)])
        store.append_moves(row.id, 1, [("reveal doog", -1)], "playing", None)
        with pytest.raises(Conflict):
            store.append_moves(row.id, 1, [("reveal missy", -1), ("reveal ursula", -1)], "over", 1, {"x": 1})
        loaded = store.load_table(row.id)
        assert loaded is not None and loaded.moves == ["reveal wilbur", "reveal doog"]
        assert (loaded.status, loaded.winner) == ("playing", None) and store.finished(0, 5) == ([], 0)
    finally:
        store.close()


def test_two_stores_appending_at_one_index_at_once_store_one(db: str) -> None:
    """Two processes' stores (SQLite: a second connection to the file) race for the same move number."""
    first = opened(db)
    second = opened(db) if db.startswith("postgresql://") else Store(db, lock=False)
    try:
        row = first.create_table("spots", RULES, SEATS, [("reveal wilbur", -1)])
        start = threading.Barrier(2)
        results: list[str] = []

        def append(store: TableStore, move: str) -> None:
            start.wait()
            for _ in range(100):  # SQLite: a busy file is retried, as the app's writer thread does
                try:
                    store.append_moves(row.id, 1, [(move, -1)], "playing", None)
                    results.append(move)
                except Conflict:
                    results.append("conflict")
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc):
                        raise
                    time.sleep(0.02)
                    continue
                return

        threads = [threading.Thread(target=append, args=(st, m)) for st, m in
                   [(first, "reveal doog"), (second, "reveal missy")]]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(results)[0] == "conflict" and sorted(results)[1] in ("reveal doog", "reveal missy"), results
        assert first.moves_since(row.id, 0) == second.moves_since(row.id, 0) == ["reveal wilbur", sorted(results)[1]]
    finally:
        second.close()
        first.close()


def old_database(db: str) -> None:
    """A database as the first release made it (no game, summary, owner or open seats), with one table."""
    rows = ["INSERT INTO tables (id, host_token, created, updated, rules, status, moves)"
            " VALUES ('old1', 'host1', 1.0, 2.0, '{\"players\": 2}', 'playing', 1)",
            "INSERT INTO seats (table_id, seat, kind, bot, name, token, claimed)"
            " VALUES ('old1', 0, 'human', NULL, 'Ada', 'tok1', 1)",
            "INSERT INTO moves (table_id, idx, move, seat, at) VALUES ('old1', 0, 'reveal wilbur', -1, 1.0)"]
    if db.startswith("postgresql://"):
        import psycopg

        from spots.web.store.postgres import migrate

        with psycopg.connect(db, autocommit=True) as conn:
            assert migrate(conn, db, upto=1) == 1
            for sql in rows:
                conn.execute(sql.encode())
    else:
        con = sqlite3.connect(db, isolation_level=None)
        assert migrate_sqlite(con, StoreError, upto=1) == 1
        for sql in rows:
            con.execute(sql)
        con.commit()
        con.close()


def test_an_older_database_is_upgraded_and_keeps_its_tables(db: str) -> None:
    old_database(db)
    store = opened(db)
    try:
        assert store.schema_version() == SCHEMA_VERSION
        [row] = store.load_tables()
        assert (row.id, row.game, row.rules, row.owner, row.moves) == ("old1", "spots", {"players": 2}, "",
                                                                       ["reveal wilbur"])
        assert [(s.name, s.token, s.claimed, s.open) for s in row.seats] == [("Ada", "tok1", True, False)]
        store.append_moves("old1", 1, [("reveal doog", -1)], "playing", None)  # and it takes new moves
    finally:
        store.close()
    store = opened(db)  # opening it again changes nothing
    try:
        assert store.moves_since("old1", 0) == ["reveal wilbur", "reveal doog"]
    finally:
        store.close()


def test_a_database_of_a_newer_schema_is_refused_in_one_line(db: str) -> None:
    opened(db).close()
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("INSERT INTO schema_migrations VALUES (99, '0099_future.sql', 0)")
    else:
        con = sqlite3.connect(db)
        con.execute("PRAGMA user_version = 99")
        con.close()
    with pytest.raises(StoreError) as err:
        opened(db)
    text = str(err.value)
    assert "\n" not in text and "newer" in text and "99" in text, text


def test_bad_postgresql_settings_are_one_line_at_start_up(postgres: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from spots.web.server import main
    from support.servers import free_port

    cases = {
        postgres.url(password="wrong-password"): "user name or password is wrong",
        postgres.url().replace(f":{postgres.port}/", f":{free_port()}/"): "cannot reach the database server",
        postgres.url("no_such_db"): "no such database",
    }
    for url, why in cases.items():
        with pytest.raises(StoreError) as err:
            open_store(url)
        assert "\n" not in str(err.value) and why in str(err.value), err.value
        assert main(["--db", url, "--port", str(free_port())]) == 2
        lines = capsys.readouterr().err.strip().splitlines()
        assert len(lines) == 1 and why in lines[0] and "wrong-password" not in lines[0] and "***" in lines[0], lines
    # and the real program: exit code 2, that line, no traceback
    run = subprocess.run([sys.executable, "-m", "spots.web.server", "--db", postgres.url(password="wrong-password"),
                          "--port", str(free_port())], capture_output=True, text=True, timeout=60, env=CHILD_ENV)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "Traceback" not in run.stderr and "user name or password is wrong" in run.stderr


def test_moves_taken_back_leave_the_record_as_if_never_played(db: str) -> None:
    """An undo (``take_back``) deletes the moves from an index on; a move meant for the longer record, or an
    undo of a record that has changed, is refused (``Conflict``) and changes nothing."""
    store = opened(db)
    try:
        row = store.create_table("spots", RULES, SEATS, [("reveal wilbur", -1)])
        store.append_moves(row.id, 1, [("trick walk", 0), ("roll 2 5", -1), ("place 5 wilbur", 0)], "playing", None)
        store.take_back(row.id, 4, 3)
        assert store.moves_since(row.id, 0) == ["reveal wilbur", "trick walk", "roll 2 5"]
        assert store.move_count(row.id) == 3
        with pytest.raises(Conflict):  # a process that has not heard of the undo stores beyond the end
            store.append_moves(row.id, 4, [("bury 2", 0)], "playing", None)
        with pytest.raises(Conflict):  # an undo for the record as it was
            store.take_back(row.id, 4, 3)
        assert store.moves_since(row.id, 0) == ["reveal wilbur", "trick walk", "roll 2 5"]
        store.append_moves(row.id, 3, [("bury 5", 0)], "playing", None)  # the record goes on from its end
        [loaded] = store.load_tables()
        assert loaded.moves == ["reveal wilbur", "trick walk", "roll 2 5", "bury 5"]
    finally:
        store.close()
