"""The web app's memory in PostgreSQL, shared by several ``spots serve`` processes (``--db postgresql://...``).

Why PostgreSQL: a community server outgrows one process; PostgreSQL lets any
number of processes, on any machines, serve the same tables with one truth:

- moves are appended under the primary key (table, move number), so two
  processes that accept a move for the same position cannot both store it
  (the loser gets ``Conflict``, reloads and refuses its move as stale);
- every change is announced with ``NOTIFY`` in the transaction that makes it,
  so the other processes hear it as soon as it is committed (``listen``);
- a session-level advisory lock per table says which process plays its bots;
  PostgreSQL drops it when that process's connection goes, so another takes over.

The schema is built by the numbered SQL files that SQLite runs too (``migrate.py``), applied in
order (under a lock, so processes starting together do not race) and recorded
in ``schema_migrations`` (a game's own in ``game_migrations``). Three connections per process: one for the writer
thread, one that listens, one that holds the bot locks.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors

from ...core.commitment import Commitment
from ..accounts.store import Duplicate
from ..invitations.store import INSERT_INVITATION, invitation_rows
from ..talk.store import Run
from . import migrate as schema
from .base import (
    SCHEMA_VERSION,
    Conflict,
    SeatRow,
    StoreError,
    TableRow,
    TableStore,
    dice_columns,
    new_token,
    redact,
)

T = TypeVar("T")

log = logging.getLogger("spots.web")
CHANNEL = "spots"  # the NOTIFY channel every process listens on
LOCKS = 0x5B075  # the advisory-lock namespace (the first key of pg_try_advisory_lock(int, int))
CONNECT_TIMEOUT = 5  # seconds: an unreachable server is a start-up error, not a hang


def explain(url: str, exc: BaseException) -> str:
    """One line for a database that cannot be used: its address (no password), then what is wrong."""
    text = " ".join(str(exc).split())
    low = text.lower()
    if "password authentication failed" in low or "no password supplied" in low:
        why = f"the user name or password is wrong ({text})"
    elif "does not exist" in low and "database" in low:
        why = f"there is no such database; create it first ({text})"
    elif "connection refused" in low or "timeout expired" in low or "could not translate host" in low \
            or "no such file" in low or "name or service not known" in low:
        why = f"cannot reach the database server; check the host and port and that it runs ({text})"
    else:
        why = text
    return f"database {redact(url)}: {why}"


def lock_key(table_id: str) -> int:
    """A table's advisory-lock key: 32 bits of a hash of its id (a collision only shares a bot player)."""
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:4], "big", signed=True)


def migrate(conn: psycopg.Connection[Any], url: str, upto: int | None = None) -> int:
    """Apply the migrations this database lacks (the shell's up to ``upto``, then, without ``upto``, each game's);
    its shell version after. Refuses a newer one."""
    files = schema.shell()
    latest = files[-1].version
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCKS,))  # one process migrates at a time
        conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                     " name TEXT NOT NULL, applied DOUBLE PRECISION NOT NULL)")
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
        have = int(row[0]) if row else 0
        if have > latest:
            raise StoreError(f"database {redact(url)}: it was made by a newer Spots (schema version {have}; this"
                             f" one knows up to {latest}); upgrade Spots or use another database")
        for migration in files:
            if have < migration.version <= (latest if upto is None else upto):
                run_all(conn, migration)
                conn.execute("INSERT INTO schema_migrations VALUES (%s, %s, %s)",
                             (migration.version, migration.name, time.time()))
                have = migration.version
        if upto is None:
            conn.execute(schema.GAME_MIGRATIONS)
            for game, game_files in schema.games().items():
                row = conn.execute("SELECT coalesce(max(version), 0) FROM game_migrations WHERE game = %s",
                                   (game,)).fetchone()
                for migration in game_files:
                    if migration.version > (int(row[0]) if row else 0):
                        run_all(conn, migration)
                        conn.execute("INSERT INTO game_migrations VALUES (%s, %s, %s, %s)",
                                     (game, migration.version, migration.name, time.time()))
    return have


def run_all(conn: psycopg.Connection[Any], migration: schema.Migration) -> None:
    for statement in migration.statements:
        conn.execute(statement.encode())


class PgStore(TableStore):
    """The tables in one PostgreSQL database; the calls are thread-safe (one lock per connection)."""

    shared = True
    errors = (psycopg.Error,)

    def __init__(self, url: str) -> None:
        self.url, self.name = url, redact(url)
        self.origin = secrets.token_hex(4)  # this process's mark on its own notifications
        self.lock, self.chat_lock = threading.Lock(), threading.Lock()
        self.lease_lock = threading.Lock()
        self.held: set[str] = set()
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        try:
            self.db = self._connect()
            version = migrate(self.db, url)
            if version != SCHEMA_VERSION:
                raise StoreError(f"database {self.name}: schema version {version}, expected {SCHEMA_VERSION}")
            self.locks_db = self._connect()
            self.chat_db = self._connect()  # table talk's own (talkstore.py: _chat_write)
        except psycopg.Error as exc:
            raise StoreError(explain(url, exc)) from None

    def _connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT,
                               application_name=f"spots serve {os.getpid()}")

    def _live(self) -> psycopg.Connection[Any]:
        """The writer's connection, opened again after it broke (the server restarted, the network dropped)."""
        if self.db.closed or self.db.broken:
            self.db = self._connect()
        return self.db

    def _notify(self, conn: psycopg.Connection[Any], kind: str, table_id: str, extra: str = "") -> None:
        """Tell the other processes, when this transaction commits (and only if it does)."""
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{self.origin} {kind} {table_id} {extra}".rstrip()))

    def schema_version(self) -> int:
        with self.lock:
            row = self._live().execute("SELECT max(version) FROM schema_migrations").fetchone()
        return int(row[0]) if row else 0

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.join(3)
        with self.lock:
            self.db.close()
        with self.chat_lock:
            self.chat_db.close()
        with self.lease_lock:
            self.locks_db.close()
            self.held.clear()

    # -------------------------------------------------------------- writes

    def create_table(self, game: str, rules: dict[str, Any], seats: list[dict[str, Any]],
                     moves: list[tuple[str, int]], owner: str = "", clock: str | None = None, rated: bool = False,
                     hints: bool = True, dice: Commitment | None = None, min_finished: int | None = None,
                     bots_join: bool = False) -> TableRow:
        now = time.time()
        row = TableRow(secrets.token_hex(4), new_token(), now, now, rules, "playing", None, game, owner=owner,
                       clock=clock, rated=rated, hints=hints, dice=dice, min_finished=min_finished, bots_join=bots_join)
        for i, s in enumerate(seats):
            human = s["kind"] == "human"
            row.seats.append(SeatRow(i, s["kind"], s.get("bot"), s["name"], new_token() if human else None,
                                     bool(s.get("claimed")), bool(s.get("open")), s.get("account")))
        with self.lock:
            conn = self._live()
            with conn.transaction(), conn.cursor() as cur:
                cur.execute(
                    "INSERT INTO tables (id, game, host_token, created, updated, rules, status, moves, owner, clock,"
                    " rated, hints, dice_commitment, dice_seed, dice_salts, dice_deal, dice_reveal, min_finished,"
                    " bots_join) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                    (row.id, game, row.host_token, now, now, json.dumps(rules), row.status, len(moves), owner,
                     clock, int(rated), int(hints), *dice_columns(dice), min_finished, int(bots_join)))
                cur.executemany(
                    "INSERT INTO seats (table_id, seat, kind, bot, name, token, claimed, open, account)"
                    " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                    [(row.id, s.seat, s.kind, s.bot, s.name, s.token, int(s.claimed), int(s.open), s.account)
                     for s in row.seats])
                if moves:
                    cur.execute(*self._moves_insert(row.id, 0, moves, now))
                invitations = invitation_rows(row.id, seats, now)
                if invitations:
                    cur.executemany(INSERT_INVITATION.replace("?", "%s"), invitations)
                self._notify(conn, "n", row.id)
        row.moves = [m for m, _ in moves]
        return row

    @staticmethod
    def _moves_insert(table_id: str, start: int, moves: list[tuple[str, int]], now: float
                      ) -> tuple[str, list[Any]]:
        """One INSERT for all the moves and its arguments (not executemany: one round trip)."""
        values = ",".join(["(%s,%s,%s,%s,%s)"] * len(moves))
        args = [v for i, (m, seat) in enumerate(moves) for v in (table_id, start + i, m, seat, now)]
        return f"INSERT INTO moves (table_id, idx, move, seat, at) VALUES {values}", args

    def append_moves(self, table_id: str, start: int, moves: list[tuple[str, int]], status: str,
                     winner: int | None, summary: dict[str, Any] | None = None, clock: str | None = None,
                     salts: str | None = None) -> None:
        """One statement (so one round trip, one implicit transaction): update, insert, notify.

        The update matches only a table holding ``start`` moves, and the moves are inserted only when it
        did: after another process took moves back (an undo), a process that has not heard yet must not
        store a move beyond the end of the record. ``clock``: the table's clock, stored with the moves.
        ``salts``: the committed dice's salts the chance events were drawn with (one said since: no match).
        """
        now = time.time()
        args: list[Any] = [start + len(moves), status, winner, now, None if summary is None else json.dumps(summary),
                           clock, table_id, start, salts, salts]
        insert = ""
        if moves:
            values = ",".join(["(%s,%s,%s,%s,%s)"] * len(moves))
            insert = (" added AS (INSERT INTO moves (table_id, idx, move, seat, at) SELECT v.* FROM (VALUES"
                      f" {values}) AS v, changed),")
            args += [v for i, (m, seat) in enumerate(moves) for v in (table_id, start + i, m, seat, now)]
        said = json.dumps([m for m, _ in moves])  # the others need not read them back (NOTIFY holds < 8000 bytes)
        args += [CHANNEL, f"{self.origin} m {table_id} {start + len(moves)}" + (f" {said}" if len(said) < 4000 else "")]
        with self.lock:
            conn = self._live()
            try:
                row = conn.execute(
                    "WITH changed AS (UPDATE tables SET moves = %s, status = %s, winner = %s, updated = %s,"
                    " summary = %s, clock = coalesce(%s, clock) WHERE id = %s AND moves = %s AND (%s::text IS NULL OR"
                    " coalesce(dice_salts, '[]') = %s) RETURNING id),"
                    f"{insert} noted AS (SELECT pg_notify(%s, %s) FROM changed) SELECT count(*) FROM noted",
                    args).fetchone()
            except pg_errors.UniqueViolation:
                raise Conflict(f"table {table_id}: a move is already stored at index {start}") from None
        if not row or not row[0]:
            raise Conflict(f"table {table_id}: it does not hold {start} moves (another process changed it)")

    def take_back(self, table_id: str, count: int, keep: int, clock: str | None = None) -> None:
        """Remove the moves from ``keep`` on and tell the other processes (``u <table> <moves>``)."""
        with self.lock:
            conn = self._live()
            with conn.transaction():
                found = conn.execute("SELECT moves FROM tables WHERE id = %s FOR UPDATE", (table_id,)).fetchone()
                if found is None or found[0] != count:
                    raise Conflict(f"table {table_id}: it holds {found and found[0]} moves, not {count}")
                conn.execute("DELETE FROM moves WHERE table_id = %s AND idx >= %s", (table_id, keep))
                conn.execute("UPDATE tables SET moves = %s, updated = %s, clock = coalesce(%s, clock) WHERE id = %s",
                             (keep, time.time(), clock, table_id))
                self._notify(conn, "u", table_id, str(keep))

    def claim_seat(self, table_id: str, seat: int, rotate: bool, name: str | None = None) -> str | None:
        with self.lock:
            conn = self._live()
            with conn.transaction():
                found = conn.execute("SELECT token, claimed, open FROM seats WHERE table_id = %s AND seat = %s"
                                     " AND kind = 'human' FOR UPDATE", (table_id, seat)).fetchone()
                if found is None or (rotate and (found[1] or not found[2])):
                    return None
                token = new_token() if rotate else found[0]
                conn.execute("UPDATE seats SET claimed = 1, token = %s, name = coalesce(%s, name)"
                             " WHERE table_id = %s AND seat = %s", (token, name or None, table_id, seat))
                self._notify(conn, "s", table_id)
                return str(token)

    def set_status(self, table_id: str, status: str, problem: str | None = None) -> None:
        with self.lock:
            conn = self._live()
            with conn.transaction():
                conn.execute("UPDATE tables SET status = %s, problem = coalesce(%s, problem) WHERE id = %s",
                             (status, problem, table_id))
                self._notify(conn, "x", table_id)

    def swap_clock(self, table_id: str, old: str, new: str) -> bool:
        """Compare-and-set; the others hear ``a <table>`` (a clock or a stand-in changed) when it is stored."""
        with self.lock:
            conn = self._live()
            with conn.transaction():
                done = conn.execute("UPDATE tables SET clock = %s WHERE id = %s AND clock = %s",
                                    (new, table_id, old)).rowcount == 1
                if done:
                    self._notify(conn, "a", table_id)
                return done

    # -------------------------------------------------------------- reads

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return self._live().execute(sql.replace("?", "%s"), tuple(args)).fetchall()

    def _among(self, ids: list[str]) -> tuple[str, Sequence[Any]]:
        return "table_id = ANY(?)", (ids,)

    for_update = " FOR UPDATE"

    def _transact(self, work: Callable[[Run], T], note: tuple[str, str, str] | None = None) -> T:
        """One transaction; ``note`` is sent to the other processes when (and only if) it commits."""
        def run(sql: str, args: Sequence[Any]) -> list[Any]:
            cursor = conn.execute(sql.replace("?", "%s"), tuple(args))
            return cursor.fetchall() if cursor.description else []

        with self.lock:
            conn = self._live()
            with conn.transaction():
                done = work(run)
                if note is not None:
                    self._notify(conn, *note)
                return done

    def _chat_live(self) -> psycopg.Connection[Any]:
        if self.chat_db.closed or self.chat_db.broken:
            self.chat_db = self._connect()
        return self.chat_db

    def _chat_write(self, sql: str, args: Sequence[Any], notes: Sequence[tuple[str, str, str]]) -> None:
        with self.chat_lock:
            conn = self._chat_live()
            with conn.transaction():
                conn.execute(sql.replace("?", "%s"), tuple(args))
                for note in notes:
                    self._notify(conn, *note)

    def _chat_query(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self.chat_lock:
            return self._chat_live().execute(sql.replace("?", "%s"), tuple(args)).fetchall()

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]:
        with self.lock:
            conn = self._live()
            try:
                with conn.transaction(), conn.cursor() as cur:
                    counts = []
                    for sql, args in statements:
                        cur.execute(sql.replace("?", "%s"), tuple(args))
                        counts.append(cur.rowcount)
                    for table_id in seats_of:
                        self._notify(conn, "s", table_id)
                    return counts
            except pg_errors.UniqueViolation as exc:
                raise Duplicate(str(exc).splitlines()[0]) from None

    # -------------------------------------------------------------- several processes

    def listen(self, callback: Callable[[str | None], None]) -> None:
        """Call ``callback`` (on a thread of its own) with each other process's change, None after a gap."""
        self._listener = threading.Thread(target=self._listen, args=(callback,), name="spots-listen", daemon=True)
        self._listener.start()

    def _listen(self, callback: Callable[[str | None], None]) -> None:
        while not self._stop.is_set():
            try:
                with self._connect() as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    callback(None)  # (re)connected: changes made meanwhile were not heard
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            origin, _, change = note.payload.partition(" ")
                            if origin != self.origin:
                                callback(change)
            except psycopg.Error as exc:
                if not self._stop.is_set():
                    log.warning("listening for other servers' moves failed (%s); trying again", exc)
                    self._stop.wait(1.0)

    def bot_lease(self, table_id: str) -> bool:
        """Take the table's bot lock if no process holds it (held until released or this process ends)."""
        with self.lease_lock:
            if table_id in self.held:
                return True
            if self.locks_db.closed or self.locks_db.broken:
                self.held.clear()  # the locks went with the old connection
                self.locks_db = self._connect()
            row = self.locks_db.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCKS, lock_key(table_id))).fetchone()
            if row and row[0]:
                self.held.add(table_id)
                return True
            return False

    def holds(self, table_id: str) -> bool:
        return table_id in self.held

    def leases(self) -> list[str]:
        with self.lease_lock:
            return list(self.held)

    def bot_release(self, table_id: str) -> None:
        with self.lease_lock:
            if table_id in self.held and not (self.locks_db.closed or self.locks_db.broken):
                self.locks_db.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCKS, lock_key(table_id)))
            self.held.discard(table_id)
