"""Accounts in the store, on both backends: a database of today's schema (version 2) upgrades to accounts and keeps
every table, seat and move; accounts, sessions, passkeys and seats bound to accounts come back as written.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from spots.web.accounts.look_alike import look_alike_key
from spots.web.accounts.store import DELETED, Duplicate, LooksLike
from spots.web.games import hosted
from spots.web.store import SCHEMA_VERSION, TableStore, open_store
from spots.web.tables.rooms import replay_with_log

FIXTURE = Path(__file__).parent / "fixtures" / "web_v2" / "version2.db"  # written by schema version 2's code
KEPT = {"tables": "id, game, host_token, created, updated, rules, status, winner, moves, summary, problem, owner",
        "seats": "table_id, seat, kind, bot, name, token, claimed, open",
        "moves": "table_id, idx, move, seat, at"}
ORDER = {"tables": "id", "seats": "table_id, seat", "moves": "table_id, idx"}


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "spots.db")
    return str(request.getfixturevalue("pg_url"))


def fixture_rows() -> dict[str, list[tuple[Any, ...]]]:
    with sqlite3.connect(f"file:{FIXTURE}?mode=ro&immutable=1", uri=True) as con:
        assert con.execute("PRAGMA user_version").fetchone() == (2,)
        return {t: con.execute(f"SELECT {cols} FROM {t} ORDER BY {ORDER[t]}").fetchall() for t, cols in KEPT.items()}


def version2_database(db: str) -> None:
    """Today's database: the fixture file (SQLite), or the migrations up to 2 holding the same rows (PostgreSQL)."""
    if not db.startswith("postgresql://"):
        shutil.copy(FIXTURE, db)
        return
    import psycopg

    from spots.web.store.postgres import migrate

    with psycopg.connect(db, autocommit=True) as conn:
        assert migrate(conn, db, upto=2) == 2
        for table, rows in fixture_rows().items():
            marks = ",".join(["%s"] * len(KEPT[table].split(",")))
            with conn.cursor() as cur:
                cur.executemany(f"INSERT INTO {table} ({KEPT[table]}) VALUES ({marks})", rows)


def rows_in(store: TableStore) -> dict[str, list[tuple[Any, ...]]]:
    with store.lock:
        return {t: [tuple(r) for r in store._read(f"SELECT {cols} FROM {t} ORDER BY {ORDER[t]}")]
                for t, cols in KEPT.items()}


def test_a_version_2_database_upgrades_to_accounts_and_keeps_every_table_seat_and_move(db: str) -> None:
    before = fixture_rows()
    assert [len(before[t]) for t in KEPT] == [3, 6, 364]
    version2_database(db)
    store = open_store(db)
    try:
        assert store.schema_version() == SCHEMA_VERSION >= 3  # 3: the accounts; later migrations may follow
        assert rows_in(store) == before
        live = store.load_tables()
        assert len(live) == 2 and all(s.account is None for row in live for s in row.seats)
        for row in [*live, store.load_table(before["tables"][0][0])]:  # every game replays as it was played
            assert row is not None
            kind = hosted()[row.game]
            names = [s.name for s in row.seats]
            state, lines = replay_with_log(kind, kind.spec.records.rules_from_dict(row.rules), row.moves, names)
            assert len(lines) == len(row.moves) and state.is_terminal() == (row.status == "over")
        # the new tables work on the old rows: an account takes an old seat
        account = store.create_account("acc1", "Ada", "ada", None)
        table_id = live[0].id
        assert store.bind_seat(table_id, 0, account.id, "Ada")
        assert store.seat_account(table_id, 0) == "acc1"
        # and table talk (version 7): an old table takes chat and is not rated
        store.add_chat(table_id, {"moves": 3, "channel": "players", "seat": 0, "author": "seat:0", "name": "Ada",
                                  "phrase": None, "text": "still here"})
        assert [line["text"] for line in store.chat_of(table_id)] == ["still here"]
        assert not live[0].rated and store.rematch_of(table_id) == ([], None)
    finally:
        store.close()
    store = open_store(db)  # opening it again changes nothing
    try:
        assert store.schema_version() == SCHEMA_VERSION and len(rows_in(store)["moves"]) == 364
        assert store.seat_account(table_id, 0) == "acc1"
    finally:
        store.close()


SEATS: list[dict[str, Any]] = [{"kind": "human", "name": "Ada", "claimed": True, "account": "a1"},
                               {"kind": "human", "name": "Bo"},
                               {"kind": "bot", "bot": "greedy", "name": "Rex"}]


def test_a_look_alike_of_a_name_taken_is_refused_also_beside_names_made_before_keys(db: str) -> None:
    """Accounts made before look-alike keys were kept have none (NULL): theirs is worked out when a name is checked."""
    store = open_store(db)
    try:
        store.create_account("a1", "Alice", "alice", None)  # as a server before schema 12 made it: no key
        store.create_account("b1", "Bo", "bo", None, look_alike_key("Bo"))
        with pytest.raises(LooksLike, match=r"^Alice$"):
            store.create_account("a2", "Alıce", "alıce", None, look_alike_key("Alıce"))
        with store.lock:  # worked out once, and kept: the next check finds it by the index
            assert store._read("SELECT look_alike FROM accounts WHERE id = 'a1'", ()) == [("alice",)]
        with pytest.raises(LooksLike, match=r"^Bo$"):
            store.create_account("b2", "B0", "b0", None, look_alike_key("B0"))
        assert store.account("a2") is None and store.account("b2") is None
        assert store.create_account("c1", "Alicia", "alicia", None, look_alike_key("Alicia")).name == "Alicia"
    finally:
        store.close()


def test_accounts_sessions_passkeys_and_seats_come_back_as_written(db: str) -> None:
    store = open_store(db)
    try:
        ada = store.create_account("a1", "Ada", "ada", "$argon2id$hash")
        assert (ada.name, ada.password, ada.disabled, ada.notify, ada.email) == ("Ada", "$argon2id$hash", False,
                                                                                  False, None)
        with pytest.raises(Duplicate):
            store.create_account("a2", "ADA", "ada", None)
        assert store.account("a2") is None and store.account_named("ada") == ada
        bo = store.create_account("b1", "Bo", "bo", None)
        assert store.set_account("a1", email="ada@example.org", notify=True)
        assert store.account("a1").email == "ada@example.org" and store.account("a1").notify  # type: ignore[union-attr]
        with pytest.raises(ValueError, match="not account fields: name"):
            store.set_account("a1", name="Eve")
        # sessions: found by their token's hash, only while fresh and the account is enabled
        store.new_session("h1", "a1", now=100.0)
        store.new_session("h2", "a1", now=100.0)
        store.new_session("h3", "b1", now=100.0)
        assert store.session_account("h1", seen_after=50.0).name == "Ada"  # type: ignore[union-attr]
        assert store.session_account("h1", seen_after=150.0) is None  # idle too long
        store.session_seen("h1", 200.0)
        assert store.session_account("h1", seen_after=150.0) is not None
        store.set_account("a1", disabled=True)
        assert store.session_account("h1", seen_after=0) is None
        store.set_account("a1", disabled=False)
        store.end_session("h1")
        assert store.session_account("h1", 0) is None and store.session_account("h2", 0) is not None
        assert store.end_sessions("a1") == 1 and store.session_account("h2", 0) is None
        assert store.session_account("h3", 0).name == "Bo"  # type: ignore[union-attr]
        # wrong passwords are counted; old ones are forgotten
        assert [store.sign_in_failed("a1", forget_before=0, now=10.0 + i) for i in range(3)] == [1, 2, 3]
        assert store.sign_in_failed("a1", forget_before=100.0, now=200.0) == 1
        # passkeys and their one-time challenges
        store.add_passkey("cred1", "a1", "pk", 0)
        with pytest.raises(Duplicate):
            store.add_passkey("cred1", "b1", "pk2", 0)
        store.passkey_used("cred1", 5)
        assert store.passkey("cred1").sign_count == 5 and [p.id for p in store.passkeys_of("a1")] == ["cred1"]  # type: ignore[union-attr]
        store.add_challenge("c1", "a1", expires=10**10)
        store.add_challenge("c2", None, expires=1.0)
        assert store.take_challenge("c1") == ("a1",) and store.take_challenge("c1") is None  # used once
        assert store.take_challenge("c2") is None  # expired
        # seats: the creator's bound at creation; another's seat cannot be taken
        row = store.create_table("spots", {"players": 3}, SEATS, [("reveal wilbur", -1)])
        assert [s.account for s in row.seats] == ["a1", None, None]
        assert not store.bind_seat(row.id, 0, "b1", "Bo") and not store.bind_seat(row.id, 2, "b1", "Bo")
        assert store.bind_seat(row.id, 1, "b1", "Bo!")
        loaded = store.load_table(row.id)
        assert loaded is not None and [(s.name, s.account, s.claimed) for s in loaded.seats[:2]] == [
            ("Ada", "a1", True), ("Bo!", "b1", True)]
        assert [t.table_id for t in store.tables_of("a1")] == [row.id] and store.record_of("a1") == {}
        store.append_moves(row.id, 1, [("stop", 0)], "over", 1, {"id": row.id})
        assert store.record_of("b1") == {"spots": (1, 1)} and store.record_of("a1") == {"spots": (1, 0)}
        assert store.tables_of("a1", ("playing",)) == []
        # deleting an account takes its personal data; its seats stay, anonymous
        assert [(a.name, sessions, keys) for a, sessions, keys in store.accounts()] == [("Ada", 0, 1), ("Bo", 1, 0)]
        assert store.delete_account("a1") == 1
        assert store.account("a1") is None and store.passkey("cred1") is None
        loaded = store.load_table(row.id)
        assert loaded is not None and (loaded.seats[0].name, loaded.seats[0].account) == (DELETED, None)
        assert loaded.moves == ["reveal wilbur", "stop"] and store.record_of("b1") == {"spots": (1, 1)}
        assert bo.name == "Bo"
    finally:
        store.close()
