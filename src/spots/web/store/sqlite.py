"""The store in one SQLite file, for one server process (``spots serve --db FILE``).

Why SQLite from the standard library: nothing to install or start, and one transaction per accepted move
is what "nothing ever lost" needs. The database runs in WAL mode; a commit survives the process being
killed at any moment (``synchronous=NORMAL`` is enough for that; ``durable=True`` makes every commit also
survive a power cut, at the price of an fsync per move).

Only live tables (status ``playing``) are loaded at start-up; finished (``over``), expired
(``abandoned``) and damaged (``quarantined``) tables stay in the file and are read one at a time when
someone asks for them.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO, TypeVar

from ...core.commitment import Commitment
from ..accounts.store import Duplicate
from ..invitations.store import INSERT_INVITATION, invitation_rows
from ..talk.store import Run
from .base import Conflict, SeatRow, StoreError, TableRow, TableStore, dice_columns, new_token
from .migrate import SCHEMA_VERSION, migrate_sqlite

T = TypeVar("T")


def explain(path: str, exc: BaseException) -> str:
    """One line for a database that cannot be opened: the file, then what is wrong in plain words."""
    text = str(exc)
    if "readonly" in text or "read-only" in text or isinstance(exc, PermissionError):
        why = "it is read-only (the server must be able to write it and its folder)"
    elif "not a database" in text or "malformed" in text or "disk image" in text:
        why = f"it is damaged or not a SQLite database ({text})"
    elif "unable to open" in text:
        why = f"it cannot be opened ({text}); check that its folder exists and is writable"
    else:
        why = text
    return f"database {path}: {why}"


class Store(TableStore):
    """All database access to one SQLite file; a lock makes the calls thread-safe."""

    errors = (sqlite3.Error,)

    def __init__(self, path: str | Path, durable: bool = False, lock: bool = True) -> None:
        self.path = self.name = str(path)
        self._lockfile: TextIO | None = self._take_lock() if lock else None
        try:
            self._check_file()
            self.db = self._connect(durable)
            self.lock, self.chat_lock = threading.Lock(), threading.Lock()
            self.db.execute("PRAGMA journal_mode=WAL")
            (verdict,) = self.db.execute("PRAGMA quick_check(1)").fetchone()
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed: {verdict}")
            migrate_sqlite(self.db, self._newer)
            self.chat_db = self._connect(durable)  # table talk's own (talkstore.py: _chat_write)
        except (sqlite3.Error, OSError) as exc:
            self._release_lock()
            raise StoreError(explain(self.path, exc)) from None

    def _connect(self, durable: bool) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=0.25)
        db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _check_file(self) -> None:
        """Refuse what SQLite would quietly accept: an empty file, or a file we may not write."""
        if not os.path.exists(self.path):
            return
        if os.path.getsize(self.path) == 0:
            raise StoreError(f"database {self.path}: the file is empty (0 bytes), not a Spots database;"
                             " delete it to start a new one")
        if not os.access(self.path, os.W_OK):
            raise StoreError(f"database {self.path}: it is read-only (the server must be able to write it)")

    def _take_lock(self) -> TextIO:
        """One server per database file: hold an exclusive lock on ``<file>.lock`` while serving."""
        name = self.path + ".lock"
        try:
            handle = open(name, "a+")  # noqa: SIM115 - held open for the server's lifetime
        except OSError as exc:
            raise StoreError(f"database {self.path}: cannot create the lock file {name} ({exc.strerror})") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StoreError(f"database {self.path}: another server is already using it (lock file {name});"
                             " stop it first or use another --db") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        return handle

    def _release_lock(self) -> None:
        if self._lockfile is not None:
            self._lockfile.close()  # closing the file drops the lock
            self._lockfile = None

    def _newer(self, version: int) -> StoreError:
        return StoreError(f"database {self.path}: it was made by a newer Spots (schema version {version}; this"
                          f" one knows up to {SCHEMA_VERSION}); upgrade Spots or use another --db")

    def schema_version(self) -> int:
        with self.lock:
            (version,) = self.db.execute("PRAGMA user_version").fetchone()
        return int(version)

    def close(self) -> None:
        with self.lock:
            self.db.close()
        with self.chat_lock:
            self.chat_db.close()
        self._release_lock()

    def create_table(self, game: str, rules: dict[str, Any], seats: list[dict[str, Any]],
                     moves: list[tuple[str, int]], owner: str = "", clock: str | None = None,
                     rated: bool = False, hints: bool = True, dice: Commitment | None = None,
                     min_finished: int | None = None, bots_join: bool = False) -> TableRow:
        """Insert a table, its seats, its clock, its opening chance moves and its invitations in one transaction.

        A seat with ``claimed`` set (the creator's own) is taken from the start; one with ``invited`` (and
        ``inviter``) is kept for that account (invite_store.py).
        """
        now = time.time()
        row = TableRow(secrets.token_hex(4), new_token(), now, now, rules, "playing", None, game, owner=owner,
                       clock=clock, rated=rated, hints=hints, dice=dice, min_finished=min_finished, bots_join=bots_join)
        for i, s in enumerate(seats):
            human = s["kind"] == "human"
            row.seats.append(SeatRow(i, s["kind"], s.get("bot"), s["name"], new_token() if human else None,
                                     bool(s.get("claimed")), bool(s.get("open")), s.get("account")))
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO tables (id, game, host_token, created, updated, rules, status, moves, owner, clock, rated,"
                " hints, dice_commitment, dice_seed, dice_salts, dice_deal, dice_reveal, min_finished, bots_join)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (row.id, game, row.host_token, now, now, json.dumps(rules), row.status, len(moves), owner, clock,
                 int(rated), int(hints), *dice_columns(dice), min_finished, int(bots_join)),
            )
            self.db.executemany(
                "INSERT INTO seats (table_id, seat, kind, bot, name, token, claimed, open, account)"
                " VALUES (?,?,?,?,?,?,?,?,?)",
                [(row.id, s.seat, s.kind, s.bot, s.name, s.token, int(s.claimed), int(s.open), s.account)
                 for s in row.seats],
            )
            self._insert_moves(row.id, 0, moves, now)
            self.db.executemany(INSERT_INVITATION, invitation_rows(row.id, seats, now))
        row.moves = [m for m, _ in moves]
        return row

    def _insert_moves(self, table_id: str, start: int, moves: list[tuple[str, int]], now: float) -> None:
        self.db.executemany(
            "INSERT INTO moves (table_id, idx, move, seat, at) VALUES (?,?,?,?,?)",
            [(table_id, start + i, m, seat, now) for i, (m, seat) in enumerate(moves)],
        )

    def append_moves(self, table_id: str, start: int, moves: list[tuple[str, int]], status: str,
                     winner: int | None, summary: dict[str, Any] | None = None, clock: str | None = None,
                     salts: str | None = None) -> None:
        """Append accepted moves (a decision and the chance events it caused) and the clock atomically.

        The primary key (table, index) refuses a second writer at the same index, and a record that does
        not end at ``start`` (``Conflict`` either way, changing nothing). ``summary``: the lobby row, stored
        when the game ends. ``salts``: the committed dice's salts the chance events were drawn with (a salt
        stored since is a ``Conflict`` too).
        """
        now = time.time()
        try:
            with self.lock, self.db:
                self.db.execute("BEGIN IMMEDIATE")
                self._insert_moves(table_id, start, moves, now)
                changed = self.db.execute(
                    "UPDATE tables SET moves = ?, status = ?, winner = ?, updated = ?, summary = ?,"
                    " clock = coalesce(?, clock) WHERE id = ? AND moves = ? AND (? IS NULL OR"
                    " coalesce(dice_salts, '[]') = ?)",
                    (start + len(moves), status, winner, now, None if summary is None else json.dumps(summary),
                     clock, table_id, start, salts, salts),
                )
                if changed.rowcount != 1:  # the record does not end at ``start`` (moves were taken back), or a salt
                    raise Conflict(f"table {table_id}: it does not hold {start} moves, or it has a new salt")
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" not in str(exc):
                raise
            raise Conflict(f"table {table_id}: a move is already stored at index {start}") from None

    def take_back(self, table_id: str, count: int, keep: int, clock: str | None = None) -> None:
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            found = self.db.execute("SELECT moves FROM tables WHERE id = ?", (table_id,)).fetchone()
            if found is None or found[0] != count:
                raise Conflict(f"table {table_id}: it holds {found and found[0]} moves, not {count}")
            self.db.execute("DELETE FROM moves WHERE table_id = ? AND idx >= ?", (table_id, keep))
            self.db.execute("UPDATE tables SET moves = ?, updated = ?, clock = coalesce(?, clock) WHERE id = ?",
                            (keep, time.time(), clock, table_id))

    def claim_seat(self, table_id: str, seat: int, rotate: bool, name: str | None = None) -> str | None:
        """Mark a human seat as taken; ``rotate`` gives it a fresh token (joining an open seat from the lobby).

        Returns the seat's token, or None when the seat cannot be claimed this way.
        """
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            found = self.db.execute(
                "SELECT token, claimed, open FROM seats WHERE table_id = ? AND seat = ? AND kind = 'human'",
                (table_id, seat)).fetchone()
            if found is None or (rotate and (found[1] or not found[2])):
                return None
            token = new_token() if rotate else found[0]
            sets, args = "claimed = 1, token = ?", [token]
            if name:
                sets += ", name = ?"
                args.append(name)
            self.db.execute(f"UPDATE seats SET {sets} WHERE table_id = ? AND seat = ?", (*args, table_id, seat))
            return str(token)

    def set_status(self, table_id: str, status: str, problem: str | None = None) -> None:
        """Retire a table (``abandoned``) or set one aside (``quarantined``, with the reason)."""
        with self.lock, self.db:
            self.db.execute("UPDATE tables SET status = ?, problem = coalesce(?, problem) WHERE id = ?",
                            (status, problem, table_id))

    def swap_clock(self, table_id: str, old: str, new: str) -> bool:
        with self.lock, self.db:
            return self.db.execute("UPDATE tables SET clock = ? WHERE id = ? AND clock = ?",
                                   (new, table_id, old)).rowcount == 1

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return self.db.execute(sql, tuple(args)).fetchall()

    def _transact(self, work: Callable[[Run], T], note: tuple[str, str, str] | None = None) -> T:
        """One ``BEGIN IMMEDIATE`` transaction (alone on its file, nobody is told)."""
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            return work(lambda sql, args: self.db.execute(sql, tuple(args)).fetchall())

    def _chat_write(self, sql: str, args: Sequence[Any], notes: Sequence[tuple[str, str, str]]) -> None:
        """One statement, committed as it runs: SQLite holds its write lock only inside that call, never
        while this thread waits for Python's, so a move's transaction is seldom kept waiting."""
        with self.chat_lock:
            self.chat_db.execute(sql, tuple(args))

    def _chat_query(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self.chat_lock:
            return self.chat_db.execute(sql, tuple(args)).fetchall()

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]:
        try:
            with self.lock, self.db:
                self.db.execute("BEGIN IMMEDIATE")
                return [self.db.execute(sql, tuple(args)).rowcount for sql, args in statements]
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" not in str(exc):
                raise
            raise Duplicate(str(exc)) from None

    def _among(self, ids: list[str]) -> tuple[str, Sequence[Any]]:
        return f"table_id IN ({','.join('?' * len(ids))})", ids
