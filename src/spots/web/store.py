"""The web app's durable memory: tables, seats and every accepted move, in one SQLite file.

Why SQLite from the standard library: nothing to install or start, and one
transaction per accepted move is what "nothing ever lost" needs. A table's
position is never stored; it is rebuilt by replaying its moves, so the moves
are the single source of truth and a restart cannot disagree with the log.

The database runs in WAL mode; a commit survives the process being killed at
any moment (``synchronous=NORMAL`` is enough for that; ``durable=True`` makes
every commit also survive a power cut, at the price of an fsync per move).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL DEFAULT 'spots', -- 'spots' or 'double-spot'
    host_token TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    rules TEXT NOT NULL,
    status TEXT NOT NULL,            -- 'playing' or 'over'
    winner INTEGER,
    moves INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,              -- 'human' or 'bot'
    bot TEXT,
    name TEXT NOT NULL,
    token TEXT UNIQUE,               -- humans only: the invite link's secret
    claimed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    move TEXT NOT NULL,
    seat INTEGER NOT NULL,           -- -1 for chance events
    at REAL NOT NULL,
    PRIMARY KEY (table_id, idx)
);
"""


@dataclass
class SeatRow:
    seat: int
    kind: str
    bot: str | None
    name: str
    token: str | None
    claimed: bool


@dataclass
class TableRow:
    id: str
    host_token: str
    created: float
    updated: float
    rules: dict[str, Any]
    status: str
    winner: int | None
    game: str = "spots"
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)


def new_token() -> str:
    """An unguessable secret for a link (128 bits from the OS)."""
    return secrets.token_urlsafe(16)


class Store:
    """All database access. Calls are short and synchronous; a lock makes them thread-safe."""

    def __init__(self, path: str | Path, durable: bool = False) -> None:
        self.path = str(path)
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.lock = threading.Lock()
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        self._upgrade()

    def _upgrade(self) -> None:
        """Bring a database made by an older version up to this schema (it only ever gains columns)."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        if "game" not in columns:  # before Double Spot, every table was Spots
            self.db.execute("ALTER TABLE tables ADD COLUMN game TEXT NOT NULL DEFAULT 'spots'")

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def create_table(
        self, game: str, rules: dict[str, Any], seats: list[dict[str, Any]], moves: list[tuple[str, int]]
    ) -> TableRow:
        """Insert a table, its seats and its opening chance moves in one transaction."""
        now = time.time()
        row = TableRow(secrets.token_hex(4), new_token(), now, now, rules, "playing", None, game)
        for i, s in enumerate(seats):
            human = s["kind"] == "human"
            row.seats.append(SeatRow(i, s["kind"], s.get("bot"), s["name"], new_token() if human else None, False))
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO tables (id, game, host_token, created, updated, rules, status, moves)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (row.id, game, row.host_token, now, now, json.dumps(rules), row.status, len(moves)),
            )
            self.db.executemany(
                "INSERT INTO seats (table_id, seat, kind, bot, name, token, claimed) VALUES (?,?,?,?,?,?,0)",
                [(row.id, s.seat, s.kind, s.bot, s.name, s.token) for s in row.seats],
            )
            self._insert_moves(row.id, 0, moves, now)
        row.moves = [m for m, _ in moves]
        return row

    def _insert_moves(self, table_id: str, start: int, moves: list[tuple[str, int]], now: float) -> None:
        self.db.executemany(
            "INSERT INTO moves (table_id, idx, move, seat, at) VALUES (?,?,?,?,?)",
            [(table_id, start + i, m, seat, now) for i, (m, seat) in enumerate(moves)],
        )

    def append_moves(
        self, table_id: str, start: int, moves: list[tuple[str, int]], status: str, winner: int | None
    ) -> None:
        """Append accepted moves (a decision and the chance events it caused) atomically.

        The primary key (table, index) refuses a second writer at the same index.
        """
        now = time.time()
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._insert_moves(table_id, start, moves, now)
            self.db.execute(
                "UPDATE tables SET moves = ?, status = ?, winner = ?, updated = ? WHERE id = ?",
                (start + len(moves), status, winner, now, table_id),
            )

    def claim_seat(self, table_id: str, seat: int, rotate: bool, name: str | None = None) -> str | None:
        """Mark a human seat as taken; ``rotate`` gives it a fresh token (joining from the lobby).

        Returns the seat's token, or None when the seat cannot be claimed this way.
        """
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            found = self.db.execute(
                "SELECT token, claimed FROM seats WHERE table_id = ? AND seat = ? AND kind = 'human'", (table_id, seat)
            ).fetchone()
            if found is None or (rotate and found[1]):
                return None
            token = new_token() if rotate else found[0]
            sets, args = "claimed = 1, token = ?", [token]
            if name:
                sets += ", name = ?"
                args.append(name)
            self.db.execute(f"UPDATE seats SET {sets} WHERE table_id = ? AND seat = ?", (*args, table_id, seat))
            return str(token)

    def load_tables(self) -> list[TableRow]:
        """Every table with its seats and moves, oldest first (for start-up)."""
        with self.lock:
            tables = {
                r[0]: TableRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], r[7])
                for r in self.db.execute(
                    "SELECT id, host_token, created, updated, rules, status, winner, game FROM tables ORDER BY created"
                )
            }
            for r in self.db.execute("SELECT table_id, seat, kind, bot, name, token, claimed FROM seats ORDER BY seat"):
                tables[r[0]].seats.append(SeatRow(r[1], r[2], r[3], r[4], r[5], bool(r[6])))
            for table_id, move in self.db.execute("SELECT table_id, move FROM moves ORDER BY table_id, idx"):
                tables[table_id].moves.append(move)
        return list(tables.values())

    def move_count(self, table_id: str) -> int:
        with self.lock:
            (count,) = self.db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()
        return int(count)
