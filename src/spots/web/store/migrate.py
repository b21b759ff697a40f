"""The schema, written once: numbered SQL files that run on both databases.

The shell's files are ``store/migrations/NNNN_*.sql``; a game may bring its own (its ``WebView.migrations``
folder: Spots' daily deals), numbered from 1 on their own and run after the shell's. The files use the SQL
that SQLite and PostgreSQL share (``TEXT``, ``INTEGER``, ``DOUBLE PRECISION``, ``CREATE INDEX``, ``ALTER
TABLE ... ADD COLUMN``). The shell's version is SQLite's ``user_version`` and the highest row of PostgreSQL's
``schema_migrations``; a game's is its highest row of ``game_migrations`` on both.

SQLite files made before the migrations ran on SQLite (schema versions 0, the first release's, to ``LEGACY``)
were built by an inline schema whose numbers once differed from the files'; they are adopted by running every migration
again, each statement skipped when the file already has what it makes (a table, an index, a column).
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SHELL = Path(__file__).with_name("migrations")
LEGACY = 13  # the last schema version an inline SQLite schema wrote

CREATE = re.compile(r"CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.I)
INDEX = re.compile(r"CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.I)
ADD_COLUMN = re.compile(r"ALTER\s+TABLE\s+(\w+)\s+ADD\s+COLUMN\s+(\w+)", re.I)
GAME_MIGRATIONS = ("CREATE TABLE IF NOT EXISTS game_migrations (game TEXT NOT NULL, version INTEGER NOT NULL,"
                   " name TEXT NOT NULL, applied DOUBLE PRECISION NOT NULL, PRIMARY KEY (game, version))")


@dataclass(frozen=True)
class Migration:
    """One numbered file: its version, its file name and its statements (comments left out)."""

    version: int
    name: str
    statements: tuple[str, ...]


def statements_of(sql: str) -> tuple[str, ...]:
    """A file's statements, one each, without comments (none of ours puts ``--`` or ``;`` inside a string)."""
    found, current = [], ""
    for line in sql.splitlines():
        code = line.split("--", 1)[0].rstrip()
        if not code:
            continue
        current = f"{current}\n{code}" if current else code
        if sqlite3.complete_statement(current):
            found.append(current.strip().rstrip(";").strip())
            current = ""
    if current.strip():
        raise ValueError(f"an unfinished statement (no closing ';'): {current.strip()[:80]}")
    return tuple(found)


def read_folder(folder: Path) -> list[Migration]:
    """The numbered files of a folder, in order (raises ``ValueError`` on a repeated number)."""
    found = [Migration(int(f.name[:4]), f.name, statements_of(f.read_text(encoding="utf-8")))
             for f in sorted(folder.glob("[0-9][0-9][0-9][0-9]_*.sql"))]
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise ValueError(f"{folder}: two migrations share a number: {versions}")
    return found


def shell() -> list[Migration]:
    return read_folder(SHELL)


def games() -> dict[str, list[Migration]]:
    """Each hosted game's own migrations (its ``WebView.migrations`` folder), by game name."""
    from ..games import hosted  # the registry: imported only when a store opens
    return {name: read_folder(kind.web.migrations) for name, kind in sorted(hosted().items())
            if kind.web.migrations is not None}


SCHEMA_VERSION = shell()[-1].version


# ---------------------------------------------------------------------------------------------------- SQLite
def already_there(db: sqlite3.Connection, statement: str) -> bool:
    """Whether a legacy SQLite file already has what ``statement`` makes (then adopting it skips it)."""
    if m := CREATE.match(statement):
        kind, name = "table", m.group(1)
    elif m := INDEX.match(statement):
        kind, name = "index", m.group(1)
    elif m := ADD_COLUMN.match(statement):
        return m.group(2) in {row[1] for row in db.execute(f"PRAGMA table_info({m.group(1)})")}
    else:
        return False
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?", (kind, name)).fetchone() is not None


def run_sqlite(db: sqlite3.Connection, migration: Migration, adopt: bool, done: str,
               args: Sequence[Any] = ()) -> None:
    """One migration in one transaction, with ``done`` (the statement that records it) inside it."""
    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in migration.statements:
            if not (adopt and already_there(db, statement)):
                db.execute(statement)
        db.execute(done, tuple(args))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def migrate_sqlite(db: sqlite3.Connection, refuse: Callable[[int], Exception], upto: int | None = None) -> int:
    """Bring a SQLite file up to the newest schema (the shell's up to ``upto``, then, without ``upto``, each
    game's); its shell version after. ``refuse(version)`` is the error for a file made by a newer Spots."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION:
        raise refuse(version)
    adopt = version <= LEGACY  # the inline era (version 0: the first release set none); a new file loses nothing
    for migration in shell():
        if (adopt or migration.version > version) and (upto is None or migration.version <= upto):
            run_sqlite(db, migration, adopt, f"PRAGMA user_version = {migration.version}")
    if upto is not None:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    db.execute(GAME_MIGRATIONS)
    for game, files in games().items():
        (have,) = db.execute("SELECT coalesce(max(version), 0) FROM game_migrations WHERE game = ?",
                             (game,)).fetchone()
        for migration in files:
            if migration.version > have:
                run_sqlite(db, migration, False, "INSERT INTO game_migrations VALUES (?, ?, ?, ?)",
                           (game, migration.version, migration.name, time.time()))
    return SCHEMA_VERSION
