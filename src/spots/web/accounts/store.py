"""Accounts, sessions and passkeys in the tables' own database, written once for SQLite and PostgreSQL.

Why in the same store: a seat names the account that took it, so a table and its
players are one transaction and one backup; and with several server processes on
PostgreSQL a session made on one is honoured by every other, because each request
looks its session up here (nothing about a session lives in one process's memory).

``AccountStore`` is mixed into ``store.TableStore``: the SQL below uses ``?``
placeholders and the store's ``_read``/``_write`` (each store translates them).
Nothing secret is stored as itself: a password as its argon2id hash, a session
token, a reset code and a WebAuthn challenge as their SHA-256 (see ``accounts.py``).

This is the API other parts use to find who is behind a seat or a session:
``session_account``, ``seat_account`` (and ``SeatRow.account`` on a loaded table),
``account``/``account_named``; ``tables_of`` and ``record_of`` for My games and profiles.
"""

from __future__ import annotations

import threading
import time
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...i18n import N_
from .look_alike import look_alike_key

DELETED = N_("deleted player")  # the name a deleted account's seats keep (shown translated: Room.names_in)
ACCOUNT_COLUMNS = ("id, name, name_key, password, email, notify, created, disabled, failures, failed_at, reset,"
                   " reset_until, email_confirmed, unsubscribe")
SETTABLE = {"marked", "password", "email", "notify", "disabled", "reset", "reset_until", "failures", "failed_at",
            "email_confirmed", "email_token", "email_token_until", "unsubscribe"}
# What an account's ``notify`` says (a number, so the column kept since migration 3 holds the third choice): no
# e-mail, one e-mail each time a turn of theirs begins, or one a day listing the tables waiting for them.
NOTIFY_NEVER, NOTIFY_EACH_TURN, NOTIFY_DIGEST = 0, 1, 2


class Duplicate(Exception):
    """A row with that key exists already (an account name taken, a passkey registered twice)."""


class LooksLike(Exception):
    """A new name looks like one taken (the same look-alike key, ``look_alike.py``): that name is the message."""


@dataclass
class AccountRow:
    id: str
    name: str
    name_key: str
    password: str | None  # the argon2id hash, never the password
    email: str | None
    notify: int  # NOTIFY_NEVER, NOTIFY_EACH_TURN or NOTIFY_DIGEST
    created: float
    disabled: bool
    failures: int
    failed_at: float
    reset: str | None
    reset_until: float | None
    email_confirmed: bool = False  # the address's owner opened the confirmation link (version 13)
    unsubscribe: str | None = None  # the token of the one-click "stop these e-mails" link in every e-mail

    @classmethod
    def of(cls, r: Sequence[Any]) -> AccountRow:
        return cls(r[0], r[1], r[2], r[3], r[4], int(r[5]), r[6], bool(r[7]), int(r[8]), float(r[9]), r[10], r[11],
                   bool(r[12]), r[13])


@dataclass
class DeviceRow:
    """A browser that signed in to an account before: its wrong passwords count here, not on the account."""

    hash: str  # SHA-256 of its device cookie's token
    account: str
    failures: int
    failed_at: float


@dataclass
class PasskeyRow:
    id: str  # the credential id, base64url
    account: str
    public_key: str  # base64url
    sign_count: int
    created: float


@dataclass
class SeatOfAccount:
    """One table an account sits at (My games, a profile's recent tables)."""

    table_id: str
    game: str
    seat: int
    status: str
    winner: int | None
    updated: float
    token: str | None  # the seat link's secret: only ever shown to the account itself
    to_move: bool = False  # filled in by the app from the live table


class AccountStore:
    """The account half of the store (mixed into ``TableStore``)."""

    lock: threading.Lock

    @abstractmethod
    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...

    @abstractmethod
    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]:
        """Run ``statements`` in one transaction; the rows each changed. ``seats_of``: tables whose seats
        changed (other server processes are told). A duplicate key raises ``Duplicate``, changing nothing."""

    def _one(self, sql: str, args: Sequence[Any]) -> Any:
        with self.lock:
            found = self._read(sql, args)
        return found[0] if found else None

    # -------------------------------------------------------------- accounts

    def create_account(self, account_id: str, name: str, name_key: str, password: str | None,
                       look_alike: str | None = None, now: float | None = None) -> AccountRow:
        """A new account (raises ``Duplicate`` when the name, whatever its capitals, is taken, and ``LooksLike``
        when ``look_alike``, the name's look-alike key, is a name's taken)."""
        if look_alike is not None:
            taken = self.name_looking_like(look_alike)
            if taken is not None:
                raise LooksLike(taken)
        now = time.time() if now is None else now
        self._write([("INSERT INTO accounts (id, name, name_key, password, created, look_alike) VALUES"
                      " (?,?,?,?,?,?)", (account_id, name, name_key, password, now, look_alike))])
        found = self.account(account_id)
        assert found is not None
        return found

    def name_looking_like(self, key: str) -> str | None:
        """A name taken whose look-alike key is ``key``. The names made before keys were kept (NULL) get theirs
        here, once: they are written back, so the next check finds them by the index."""
        with self.lock:
            rows = self._read("SELECT id, name, look_alike FROM accounts WHERE look_alike = ? OR look_alike IS NULL"
                              " ORDER BY created", (key,))
        missing = [(look_alike_key(name), account_id) for account_id, name, kept in rows if kept is None]
        if missing:
            self._write([("UPDATE accounts SET look_alike = ? WHERE id = ?", pair) for pair in missing])
        worked_out = {account_id: found for found, account_id in missing}
        return next((name for account_id, name, kept in rows if (kept or worked_out[account_id]) == key), None)

    def account(self, account_id: str) -> AccountRow | None:
        row = self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?", (account_id,))
        return None if row is None else AccountRow.of(row)

    def account_named(self, name_key: str) -> AccountRow | None:
        """The account of a (case-folded) name."""
        row = self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?", (name_key,))
        return None if row is None else AccountRow.of(row)

    def accounts(self) -> list[tuple[AccountRow, int, int]]:
        """Every account with its open sessions and passkeys, by name (the host's ``spots users list``)."""
        with self.lock:
            rows = self._read(f"SELECT {ACCOUNT_COLUMNS}, (SELECT COUNT(*) FROM sessions s WHERE s.account = a.id),"
                              " (SELECT COUNT(*) FROM passkeys p WHERE p.account = a.id) FROM accounts a"
                              " ORDER BY name_key")
        return [(AccountRow.of(r), int(r[14]), int(r[15])) for r in rows]

    def set_account(self, account_id: str, **values: Any) -> bool:
        """Change some of an account's fields (password hash, e-mail, notify, disabled, reset code)."""
        unknown = set(values) - SETTABLE
        if unknown:
            raise ValueError(f"not account fields: {', '.join(sorted(unknown))}")
        sets = ", ".join(f"{k} = ?" for k in values)
        args = [int(v) if isinstance(v, bool) else v for v in values.values()]
        return self._write([(f"UPDATE accounts SET {sets} WHERE id = ?", (*args, account_id))])[0] == 1

    def email_to_confirm(self, token_hash: str, now: float) -> AccountRow | None:
        """The account whose address a confirmation link's token (hashed) confirms, while the link works."""
        row = self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE email_token = ? AND email_token_until >= ?"
                        " AND email IS NOT NULL", (token_hash, now))
        return None if row is None else AccountRow.of(row)

    def confirm_email(self, token_hash: str, now: float, unsubscribe: str) -> AccountRow | None:
        """Confirm the address the token is for (once: the token is spent), giving it an unsubscribe token if it has
        none; the account as it is now, or None for a wrong or expired token."""
        found = self.email_to_confirm(token_hash, now)
        if found is None:
            return None
        self._write([("UPDATE accounts SET email_confirmed = 1, email_token = NULL, email_token_until = NULL,"
                      " unsubscribe = COALESCE(unsubscribe, ?) WHERE id = ? AND email_token = ?",
                      (unsubscribe, found.id, token_hash))])
        return self.account(found.id)

    def account_unsubscribing(self, token: str) -> AccountRow | None:
        """The account an unsubscribe link's token belongs to."""
        row = self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE unsubscribe = ?", (token,))
        return None if row is None else AccountRow.of(row)

    def count_email(self, account_id: str, day: int, cap: int) -> bool:
        """Count an e-mail to the account on ``day`` (days since 1970, UTC), unless it had ``cap`` that day
        already: whether it may be sent. One statement, so every process counts on the same row."""
        return self._write([("UPDATE accounts SET emails = CASE WHEN email_day = ? THEN emails + 1 ELSE 1 END,"
                             " email_day = ? WHERE id = ? AND (email_day <> ? OR emails < ?)",
                             (day, day, account_id, day, cap))])[0] == 1

    def sign_in_failed(self, account_id: str, forget_before: float, now: float | None = None) -> int:
        """Count a wrong password; failures older than ``forget_before`` are forgotten first. The count now."""
        return self._count_failure("accounts", "id", account_id, forget_before, now)

    def _count_failure(self, table: str, key: str, value: str, forget_before: float, now: float | None) -> int:
        """A wrong password counted on an account or a device (``table`` and ``key`` are this module's names)."""
        now = time.time() if now is None else now
        self._write([(f"UPDATE {table} SET failures = CASE WHEN failed_at < ? THEN 1 ELSE failures + 1 END,"
                      f" failed_at = ? WHERE {key} = ?", (forget_before, now, value))])
        row = self._one(f"SELECT failures FROM {table} WHERE {key} = ?", (value,))
        return 0 if row is None else int(row[0])

    def delete_account(self, account_id: str) -> int:
        """Delete an account with its personal data (sessions, passkeys, e-mail, invitations, a bot's token); its
        seats stay.

        The games it played keep their moves and results under the name ``DELETED``. Returns how many seats.
        """
        with self.lock:
            tables = [r[0] for r in self._read("SELECT DISTINCT table_id FROM seats WHERE account = ?", (account_id,))]
        counts = self._write([
            ("UPDATE seats SET account = NULL, name = ? WHERE account = ?", (DELETED, account_id)),
            ("DELETE FROM sessions WHERE account = ?", (account_id,)),
            ("DELETE FROM devices WHERE account = ?", (account_id,)),
            ("DELETE FROM passkeys WHERE account = ?", (account_id,)),
            ("DELETE FROM challenges WHERE account = ?", (account_id,)),
            ("DELETE FROM invitations WHERE account = ? OR inviter = ?", (account_id, account_id)),  # invite_store
            ("DELETE FROM rating_changes WHERE player = ?", (f"user:{account_id}",)),  # ratings.py
            ("DELETE FROM ratings WHERE player = ?", (f"user:{account_id}",)),
            ("DELETE FROM blocks WHERE blocker = ? OR blocked = ?", (account_id, account_id)),  # fairplay/store.py
            ("UPDATE reports SET reporter = NULL WHERE reporter = ?", (account_id,)),
            ("UPDATE reports SET account = NULL WHERE account = ?", (account_id,)),
            ("DELETE FROM bot_accounts WHERE account = ?", (account_id,)),  # a bot's token (botapi/store.py)
            ("UPDATE bot_accounts SET owner = NULL WHERE owner = ?", (account_id,)),  # their bots: the host's now
            ("DELETE FROM ladder_entries WHERE account = ?", (account_id,)),
            ("DELETE FROM accounts WHERE id = ?", (account_id,)),
        ], seats_of=tables)
        return counts[0]

    # -------------------------------------------------------------- sessions

    def new_session(self, token_hash: str, account_id: str, now: float | None = None) -> None:
        now = time.time() if now is None else now
        self._write([("INSERT INTO sessions (hash, account, created, seen) VALUES (?,?,?,?)",
                      (token_hash, account_id, now, now))])

    def session_account(self, token_hash: str, seen_after: float) -> AccountRow | None:
        """The account behind a session (by its token's hash), if the session was used since ``seen_after``
        and the account is not disabled."""
        cols = ", ".join(f"a.{c.strip()}" for c in ACCOUNT_COLUMNS.split(","))
        row = self._one(f"SELECT {cols} FROM sessions s JOIN accounts a ON a.id = s.account"
                        " WHERE s.hash = ? AND s.seen >= ? AND a.disabled = 0", (token_hash, seen_after))
        return None if row is None else AccountRow.of(row)

    def session_seen(self, token_hash: str, now: float) -> None:
        """Mark a session used now (the app does it at most once an hour per session, not per request)."""
        self._write([("UPDATE sessions SET seen = ? WHERE hash = ?", (now, token_hash))])

    def end_session(self, token_hash: str) -> None:
        self._write([("DELETE FROM sessions WHERE hash = ?", (token_hash,))])

    def end_sessions(self, account_id: str) -> int:
        """End every session of an account ("sign out everywhere", a new password, disabling) and forget the
        browsers it signed in on (each is trusted again at its next sign-in); how many sessions there were."""
        return self._write([("DELETE FROM sessions WHERE account = ?", (account_id,)),
                            ("DELETE FROM devices WHERE account = ?", (account_id,))])[0]

    # -------------------------------------------------------------- devices that signed in before

    def new_device(self, token_hash: str, account_id: str, keep: int, now: float | None = None) -> None:
        """A browser that signed in to the account (its device cookie's hash); the ``keep`` newest are kept."""
        now = time.time() if now is None else now
        self._write([("INSERT INTO devices (hash, account, created) VALUES (?,?,?)", (token_hash, account_id, now)),
                     ("DELETE FROM devices WHERE account = ? AND hash NOT IN (SELECT hash FROM devices"
                      " WHERE account = ? ORDER BY created DESC, hash LIMIT ?)", (account_id, account_id, keep))])

    def device(self, token_hash: str) -> DeviceRow | None:
        row = self._one("SELECT hash, account, failures, failed_at FROM devices WHERE hash = ?", (token_hash,))
        return None if row is None else DeviceRow(row[0], row[1], int(row[2]), float(row[3]))

    def device_failed(self, token_hash: str, forget_before: float, now: float | None = None) -> int:
        """Count a wrong password from a browser that signed in before, as ``sign_in_failed`` counts an account's."""
        return self._count_failure("devices", "hash", token_hash, forget_before, now)

    def device_signed_in(self, token_hash: str) -> None:
        self._write([("UPDATE devices SET failures = 0 WHERE hash = ?", (token_hash,))])

    # -------------------------------------------------------------- passkeys

    def add_passkey(self, credential_id: str, account_id: str, public_key: str, sign_count: int,
                    now: float | None = None) -> None:
        now = time.time() if now is None else now
        self._write([("INSERT INTO passkeys (id, account, public_key, sign_count, created) VALUES (?,?,?,?,?)",
                      (credential_id, account_id, public_key, sign_count, now))])

    def passkey(self, credential_id: str) -> PasskeyRow | None:
        row = self._one("SELECT id, account, public_key, sign_count, created FROM passkeys WHERE id = ?",
                        (credential_id,))
        return None if row is None else PasskeyRow(row[0], row[1], row[2], int(row[3]), row[4])

    def remove_passkey(self, account_id: str, credential_id: str) -> bool:
        """Remove one of the account's own passkeys (False: it has no such passkey)."""
        changed = self._write([("DELETE FROM passkeys WHERE id = ? AND account = ?", (credential_id, account_id))])
        return bool(changed[0])

    def passkeys_of(self, account_id: str) -> list[PasskeyRow]:
        with self.lock:
            rows = self._read("SELECT id, account, public_key, sign_count, created FROM passkeys WHERE account = ?"
                              " ORDER BY created", (account_id,))
        return [PasskeyRow(r[0], r[1], r[2], int(r[3]), r[4]) for r in rows]

    def passkey_used(self, credential_id: str, sign_count: int) -> None:
        self._write([("UPDATE passkeys SET sign_count = ? WHERE id = ?", (sign_count, credential_id))])

    def add_challenge(self, challenge_hash: str, account_id: str | None, expires: float) -> None:
        """Remember a WebAuthn challenge handed out (any process may receive the answer); old ones go."""
        self._write([("DELETE FROM challenges WHERE expires < ?", (time.time(),)),
                     ("INSERT INTO challenges (hash, account, expires) VALUES (?,?,?)",
                      (challenge_hash, account_id, expires))])

    def take_challenge(self, challenge_hash: str, now: float | None = None) -> tuple[str | None] | None:
        """Use a challenge up: ``(account or None,)`` when it was handed out, unexpired and not used before."""
        now = time.time() if now is None else now
        row = self._one("SELECT account, expires FROM challenges WHERE hash = ?", (challenge_hash,))
        if row is None or self._write([("DELETE FROM challenges WHERE hash = ?", (challenge_hash,))])[0] != 1:
            return None  # unknown, or another request took it first
        return (row[0],) if row[1] >= now else None

    # -------------------------------------------------------------- seats

    def bind_seat(self, table_id: str, seat: int, account_id: str, name: str) -> bool:
        """Give a human seat to an account (taking it, under the account's name); False if another holds it."""
        return self._write([("UPDATE seats SET account = ?, name = ?, claimed = 1 WHERE table_id = ? AND seat = ?"
                             " AND kind = 'human' AND (account IS NULL OR account = ?)",
                             (account_id, name, table_id, seat, account_id))], seats_of=[table_id])[0] == 1

    def seat_account(self, table_id: str, seat: int) -> str | None:
        """The account holding a seat (None: a guest's seat, a bot's, or no such seat)."""
        row = self._one("SELECT account FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
        return None if row is None else row[0]

    def tables_of(self, account_id: str, statuses: Sequence[str] = ("playing", "over"), limit: int = 50
                  ) -> list[SeatOfAccount]:
        """The tables an account sits at with the given statuses, most recently changed first."""
        marks = ",".join("?" * len(statuses))
        with self.lock:
            rows = self._read("SELECT t.id, t.game, s.seat, t.status, t.winner, t.updated, s.token FROM seats s"
                              f" JOIN tables t ON t.id = s.table_id WHERE s.account = ? AND t.status IN ({marks})"
                              " ORDER BY t.updated DESC LIMIT ?", (account_id, *statuses, limit))
        return [SeatOfAccount(r[0], r[1], int(r[2]), r[3], r[4], float(r[5]), r[6]) for r in rows]

    def record_of(self, account_id: str) -> dict[str, tuple[int, int]]:
        """Finished games and wins per game of an account: ``{game: (played, won)}``."""
        with self.lock:
            rows = self._read("SELECT t.game, COUNT(*), SUM(CASE WHEN t.winner = s.seat THEN 1 ELSE 0 END)"
                              " FROM seats s JOIN tables t ON t.id = s.table_id"
                              " WHERE s.account = ? AND t.status = 'over' GROUP BY t.game ORDER BY t.game",
                              (account_id,))
        return {r[0]: (int(r[1]), int(r[2] or 0)) for r in rows}
