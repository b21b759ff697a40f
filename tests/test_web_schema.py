"""One schema for both databases: the numbered migrations make the same tables in SQLite and PostgreSQL, and a
SQLite file of every earlier schema version, made by that version's own code, upgrades keeping every table,
seat and move (fixtures: ``fixtures/web_versions/make_fixtures.py``)."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from spots.web.games import hosted
from spots.web.store import SCHEMA_VERSION, Store, open_store
from spots.web.store.migrate import LEGACY, read_folder, statements_of
from spots.web.tables.rooms import replay_with_log

pytestmark = pytest.mark.timeout(300)

FIXTURES = Path(__file__).parent / "fixtures"
OLD_FILES = sorted([FIXTURES / "web_v2" / "version2.db", *(FIXTURES / "web_versions").glob("version*.db")],
                   key=lambda p: int(re.sub(r"\D", "", p.name)))
KEPT = {"tables": "id, game, host_token, created, updated, rules, status, winner, moves",
        "seats": "table_id, seat, kind, bot, name, token, claimed",
        "moves": "table_id, idx, move, seat, at"}
ORDER = {"tables": "id", "seats": "table_id, seat", "moves": "table_id, idx"}

Schema = dict[str, dict[str, Any]]  # table -> {"columns": {name: (type, not null, default)}, "key": [...], ...}


def sqlite_schema(path: Path, affinity: bool = False) -> Schema:
    """Every table of a SQLite file: its columns (declared type, NOT NULL, default), primary key, unique
    columns and indexes. ``affinity``: types as SQLite's affinity (``REAL`` and ``DOUBLE PRECISION`` alike)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        found: Schema = {}
        for table in tables:
            info = con.execute(f"PRAGMA table_info({table})").fetchall()
            key = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]]
            columns = {r[1]: (kind_of(r[2], affinity), bool(r[3]) or r[1] in key, default_of(r[4])) for r in info}
            unique, indexes = set(), {}
            for _, name, is_unique, origin, _partial in con.execute(f"PRAGMA index_list({table})").fetchall():
                cols = tuple(r[2] for r in con.execute(f"PRAGMA index_info({name})"))
                if origin == "u":
                    unique.add(cols)
                elif origin == "c":
                    indexes[name] = (cols, bool(is_unique))
            found[table] = {"columns": columns, "key": key, "unique": unique, "indexes": indexes}
        return found
    finally:
        con.close()


def postgres_schema(url: str) -> Schema:
    import psycopg

    with psycopg.connect(url) as conn:
        found: Schema = {}
        tables = [r[0] for r in conn.execute("SELECT table_name FROM information_schema.tables WHERE"
                                             " table_schema = 'public' ORDER BY table_name")]
        for table in tables:
            columns = {name: (kind_of(kind, False), nullable == "NO", default_of(default))
                       for name, kind, nullable, default in conn.execute(
                           "SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns"
                           " WHERE table_schema = 'public' AND table_name = %s", (table,))}
            constraints: dict[str, list[str]] = {"p": [], "u": []}
            unique = set()
            for kind, cols in conn.execute(
                    "SELECT c.contype, array_agg(a.attname ORDER BY k.ord) FROM pg_constraint c"
                    " CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)"
                    " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum"
                    " WHERE c.conrelid = %s::regclass AND c.contype IN ('p', 'u') GROUP BY c.conname, c.contype",
                    (table,)):
                if kind == "p":
                    constraints["p"] = list(cols)
                else:
                    unique.add(tuple(cols))
            indexes = {}
            for name, definition in conn.execute("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname ="
                                                 " 'public' AND tablename = %s", (table,)):
                if not conn.execute("SELECT 1 FROM pg_constraint WHERE conname = %s", (name,)).fetchone():
                    cols = tuple(c.strip() for c in definition[definition.rindex("(") + 1:-1].split(","))
                    indexes[name] = (cols, "UNIQUE INDEX" in definition)
            found[table] = {"columns": columns, "key": constraints["p"], "unique": unique, "indexes": indexes}
        return found


def kind_of(declared: str, affinity: bool) -> str:
    kind = declared.lower()
    if affinity and kind in ("real", "double precision"):
        return "real"
    return kind


def default_of(value: str | None) -> str | None:
    """A column default as both databases write it: ``'spots'::text`` and ``'spots'`` alike."""
    return None if value is None else re.sub(r"::[a-z ]+$", "", str(value))


def test_the_migrations_make_one_schema_in_sqlite_and_postgresql(tmp_path: Path, pg_url: str) -> None:
    Store(tmp_path / "fresh.db").close()
    open_store(pg_url).close()
    lite, pg = sqlite_schema(tmp_path / "fresh.db"), postgres_schema(pg_url)
    assert set(lite) == set(pg) - {"schema_migrations"}  # PostgreSQL counts its migrations in a table
    assert {"tables", "seats", "moves", "accounts", "chat", "solo_games", "game_migrations"} <= set(lite)
    for table in lite:
        assert lite[table]["columns"] == pg[table]["columns"], table  # column by column: type, NOT NULL, default
        assert (lite[table]["key"], lite[table]["unique"]) == (pg[table]["key"], pg[table]["unique"]), table
        assert lite[table]["indexes"] == pg[table]["indexes"], table


def test_every_statement_of_the_migrations_is_one_both_databases_run() -> None:
    from spots.web.store.migrate import SHELL
    files = read_folder(SHELL)
    assert [m.version for m in files] == list(range(1, SCHEMA_VERSION + 1))  # no gap: 4 is there, as a note
    assert all(m.statements or m.version in (4, 8) for m in files)  # 4 and 8 only say where their tables went
    assert statements_of("-- a note\nCREATE TABLE a (b TEXT); -- why\nCREATE INDEX c\n ON a (b);") == (
        "CREATE TABLE a (b TEXT)", "CREATE INDEX c\n ON a (b)")
    with pytest.raises(ValueError, match="unfinished"):
        statements_of("CREATE TABLE a (b TEXT)")


def rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {t: con.execute(f"SELECT {cols} FROM {t} ORDER BY {ORDER[t]}").fetchall() for t, cols in KEPT.items()}
    finally:
        con.close()


def test_there_is_a_fixture_for_every_released_schema_version() -> None:
    versions = [int(re.sub(r"\D", "", p.name)) for p in OLD_FILES]
    assert versions == [2, 3, 4, 5, 6, 7, 9, *range(10, 21)]  # 8 was never a release's last version
    assert LEGACY in versions and max(versions) == SCHEMA_VERSION - 1  # each migration added after 14 brings one


@pytest.mark.parametrize("old", OLD_FILES, ids=lambda p: p.stem)
def test_a_database_of_every_earlier_version_upgrades_keeping_every_table_seat_and_move(old: Path,
                                                                                       tmp_path: Path) -> None:
    path = tmp_path / "spots.db"
    shutil.copy(old, path)
    before = rows(path)
    assert [len(before[t]) for t in KEPT] == [3, 6, 364]
    store = Store(path)
    try:
        assert store.schema_version() == SCHEMA_VERSION
        for row in [*store.load_tables(), store.load_table(before["tables"][0][0])]:
            assert row is not None
            kind = hosted()[row.game]
            names = [s.name for s in row.seats]
            state, lines = replay_with_log(kind, kind.spec.records.rules_from_dict(row.rules), row.moves, names)
            assert len(lines) == len(row.moves) and state.is_terminal() == (row.status == "over")
        store.add_chat(row.id, {"moves": 3, "channel": "players", "seat": 0, "author": "seat:0", "name": "Ada",
                                "phrase": None, "text": "still here"})  # the newer tables work on old rows
    finally:
        store.close()
    assert rows(path) == before
    Store(tmp_path / "fresh.db").close()
    assert sqlite_schema(path, affinity=True) == sqlite_schema(tmp_path / "fresh.db", affinity=True)
    Store(path).close()  # opening it again changes nothing
    assert rows(path) == before


def test_a_game_brings_its_own_tables_and_an_old_solo_table_keeps_its_deal(tmp_path: Path) -> None:
    path = tmp_path / "spots.db"
    shutil.copy(FIXTURES / "web_versions" / "version13.db", path)
    table_id = rows(path)["tables"][1][0]
    con = sqlite3.connect(path)
    con.execute("INSERT INTO solo_games (table_id, deal) VALUES (?, 'daily-2026-12-01')", (table_id,))
    con.commit()
    con.close()
    store = Store(path)
    try:
        assert store.deal_of(table_id) == "daily-2026-12-01"  # copied to the table's own deal column
        assert store.read("SELECT game, version, name FROM game_migrations ORDER BY version") == [
            ("spots", 1, "0001_solo_games.sql"), ("spots", 2, "0002_daily_secret.sql")]
    finally:
        store.close()
