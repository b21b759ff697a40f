"""The invitations half of the store (mixed into ``TableStore``): human seats kept for a named account.

Why in the database: the invitee's My games reads them per page load, so an invitation made on one
server process shows on every other sharing a PostgreSQL database, and it survives a restart.
"""

from __future__ import annotations

import threading
import time
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class InvitationRow:
    table_id: str
    seat: int
    account: str  # the invited account
    inviter: str  # the creator's account
    inviter_name: str  # the creator's name now (empty if the account is gone)
    game: str
    created: float


COLUMNS = ("SELECT i.table_id, i.seat, i.account, i.inviter, COALESCE(a.name, ''), t.game, i.created"
           " FROM invitations i JOIN tables t ON t.id = i.table_id LEFT JOIN accounts a ON a.id = i.inviter")


def _row(r: Sequence[Any]) -> InvitationRow:
    return InvitationRow(r[0], int(r[1]), r[2], r[3], r[4], r[5], float(r[6]))


class InviteStore:
    lock: threading.Lock

    @abstractmethod
    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...

    @abstractmethod
    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]: ...

    def add_invitations(self, table_id: str, invited: dict[int, str], inviter: str, now: float | None = None) -> None:
        """Keep the seats ``invited`` (seat: account) of a new table for those accounts, in one transaction."""
        now = time.time() if now is None else now
        self._write([("INSERT INTO invitations (table_id, seat, account, inviter, created) VALUES (?,?,?,?,?)",
                      (table_id, seat, account, inviter, now)) for seat, account in sorted(invited.items())])

    def invitation(self, table_id: str, seat: int) -> InvitationRow | None:
        with self.lock:
            rows = self._read(f"{COLUMNS} WHERE i.table_id = ? AND i.seat = ?", (table_id, seat))
        return _row(rows[0]) if rows else None

    def invitations_of(self, account_id: str, limit: int = 100) -> list[InvitationRow]:
        """The invitations waiting for an account: unfinished tables whose invited seat nobody took, newest first."""
        with self.lock:
            rows = self._read(f"{COLUMNS} JOIN seats s ON s.table_id = i.table_id AND s.seat = i.seat"
                              " WHERE i.account = ? AND s.claimed = 0 AND s.account IS NULL"
                              " AND t.status <> 'over' ORDER BY i.created DESC LIMIT ?", (account_id, limit))
        return [_row(r) for r in rows]

    def drop_invitation(self, table_id: str, seat: int, account_id: str) -> bool:
        """Remove an account's invitation (accepted or declined); False if it was not there (or not theirs)."""
        return self._write([("DELETE FROM invitations WHERE table_id = ? AND seat = ? AND account = ?",
                             (table_id, seat, account_id))])[0] == 1
