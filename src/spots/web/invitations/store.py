"""The invitations half of the store (mixed into ``TableStore``): human seats kept for a named account.

Why in the database: the invitee's My games reads them per page load, so an invitation made on one
server process shows on every other sharing a PostgreSQL database, and it survives a restart.
"""

from __future__ import annotations

import threading
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

STATUSES = ("invited", "accepted", "declined")  # an invitation's answer: none yet, yes, no


@dataclass(frozen=True)
class InvitationRow:
    table_id: str
    seat: int
    account: str  # the invited account
    inviter: str  # the creator's account
    inviter_name: str  # the creator's name now (empty if the account is gone)
    game: str
    created: float
    status: str = "invited"  # one of STATUSES
    invitee_name: str = ""  # the invited account's name now (empty if the account is gone)


COLUMNS = ("SELECT i.table_id, i.seat, i.account, i.inviter, COALESCE(a.name, ''), t.game, i.created, i.status,"
           " COALESCE(b.name, '') FROM invitations i JOIN tables t ON t.id = i.table_id"
           " LEFT JOIN accounts a ON a.id = i.inviter LEFT JOIN accounts b ON b.id = i.account")
INSERT_INVITATION = "INSERT INTO invitations (table_id, seat, account, inviter, created) VALUES (?,?,?,?,?)"


def _row(r: Sequence[Any]) -> InvitationRow:
    return InvitationRow(r[0], int(r[1]), r[2], r[3], r[4], r[5], float(r[6]), r[7], r[8])


def invitation_rows(table_id: str, seats: Sequence[dict[str, Any]], now: float) -> list[tuple[Any, ...]]:
    """The ``INSERT`` arguments of a new table's invitations: its seats that carry ``invited`` (the account kept
    for) and ``inviter`` (the creator's account), so that the store writes them with the table, in one
    transaction."""
    return [(table_id, i, s["invited"], s["inviter"], now) for i, s in enumerate(seats) if s.get("invited")]


class InviteStore:
    lock: threading.Lock

    @abstractmethod
    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...

    @abstractmethod
    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]: ...

    def invitation(self, table_id: str, seat: int) -> InvitationRow | None:
        """A seat's invitation, answered or not."""
        with self.lock:
            rows = self._read(f"{COLUMNS} WHERE i.table_id = ? AND i.seat = ?", (table_id, seat))
        return _row(rows[0]) if rows else None

    def invitations_at(self, table_id: str) -> dict[int, InvitationRow]:
        """A table's invitations by seat, answered or not (its host page shows each one's answer)."""
        with self.lock:
            rows = self._read(f"{COLUMNS} WHERE i.table_id = ? ORDER BY i.seat", (table_id,))
        return {int(r[1]): _row(r) for r in rows}

    def invitations_of(self, account_id: str, limit: int = 100) -> list[InvitationRow]:
        """The invitations waiting for an account: unfinished tables whose invited seat nobody took, newest first."""
        with self.lock:
            rows = self._read(f"{COLUMNS} JOIN seats s ON s.table_id = i.table_id AND s.seat = i.seat"
                              " WHERE i.account = ? AND i.status = 'invited' AND s.claimed = 0 AND s.account IS NULL"
                              " AND t.status <> 'over' AND NOT EXISTS (SELECT 1 FROM blocks b WHERE"
                              " b.blocker = i.account AND b.blocked = i.inviter)"  # none from a player one blocked
                              " ORDER BY i.created DESC LIMIT ?", (account_id, limit))
        return [_row(r) for r in rows]

    def answer_invitation(self, table_id: str, seat: int, account_id: str, status: str) -> bool:
        """Record an account's answer (``accepted`` or ``declined``); False if it was not waiting for theirs."""
        return self._write([("UPDATE invitations SET status = ? WHERE table_id = ? AND seat = ? AND account = ?"
                             " AND status = 'invited'", (status, table_id, seat, account_id))])[0] == 1

    def drop_invitation(self, table_id: str, seat: int, account_id: str) -> bool:
        """Remove an account's invitation (too late: the table is over or someone else took the seat); False if
        it was not there (or not theirs)."""
        return self._write([("DELETE FROM invitations WHERE table_id = ? AND seat = ? AND account = ?",
                             (table_id, seat, account_id))])[0] == 1
