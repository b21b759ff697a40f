"""The clubs' half of the store (mixed into ``TableStore``), from ``store/migrations/0020_tournaments.sql``."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

ROLES = ("admin", "member", "pending")


@dataclass(frozen=True)
class ClubRow:
    id: str
    name: str
    about: str
    invite: str
    season: float
    created: float


@dataclass(frozen=True)
class MemberRow:
    account: str
    name: str
    role: str
    joined: float


def _club(r: Sequence[Any]) -> ClubRow:
    return ClubRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), float(r[5]))


class ClubStore:
    lock: threading.Lock

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]:
        raise NotImplementedError

    def create_club(self, club: ClubRow, name_key: str, founder: str) -> None:
        """A new club with its founder as its first admin (raises ``Duplicate`` for a name taken)."""
        self._write([
            ("INSERT INTO clubs (id, name, name_key, about, invite, season, created) VALUES (?,?,?,?,?,?,?)",
             (club.id, club.name, name_key, club.about, club.invite, club.season, club.created)),
            ("INSERT INTO club_members (club, account, role, joined) VALUES (?,?,?,?)",
             (club.id, founder, "admin", club.created))])

    def club(self, club_id: str) -> ClubRow | None:
        with self.lock:
            rows = self._read("SELECT id, name, about, invite, season, created FROM clubs WHERE id = ?", (club_id,))
        return _club(rows[0]) if rows else None

    def clubs(self, limit: int = 200) -> list[tuple[ClubRow, int]]:
        """Every club with its number of members, the biggest first."""
        with self.lock:
            rows = self._read("SELECT c.id, c.name, c.about, c.invite, c.season, c.created, COUNT(m.account)"
                              " FROM clubs c LEFT JOIN club_members m ON m.club = c.id AND m.role <> 'pending'"
                              " GROUP BY c.id, c.name, c.about, c.invite, c.season, c.created"
                              " ORDER BY COUNT(m.account) DESC, c.name LIMIT ?", (limit,))
        return [(_club(r), int(r[6])) for r in rows]

    def members(self, club_id: str) -> list[MemberRow]:
        """A club's members, admins first, then by when they joined."""
        with self.lock:
            rows = self._read("SELECT m.account, a.name, m.role, m.joined FROM club_members m"
                              " JOIN accounts a ON a.id = m.account WHERE m.club = ? ORDER BY"
                              " CASE m.role WHEN 'admin' THEN 0 WHEN 'member' THEN 1 ELSE 2 END, m.joined",
                              (club_id,))
        return [MemberRow(r[0], r[1], r[2], float(r[3])) for r in rows]

    def role(self, club_id: str, account: str) -> str | None:
        with self.lock:
            rows = self._read("SELECT role FROM club_members WHERE club = ? AND account = ?", (club_id, account))
        return rows[0][0] if rows else None

    def ask_to_join(self, club_id: str, account: str, role: str, now: float) -> bool:
        """Add an account as ``role`` (pending: asked; member: by the invite link); an existing member keeps its role,
        except that a pending one who opens the invite link becomes a member."""
        counts = self._write([
            ("UPDATE club_members SET role = ? WHERE club = ? AND account = ? AND role = 'pending' AND ? = 'member'",
             (role, club_id, account, role)),
            ("INSERT INTO club_members (club, account, role, joined) SELECT ?, ?, ?, ? WHERE NOT EXISTS"
             " (SELECT 1 FROM club_members WHERE club = ? AND account = ?)",
             (club_id, account, role, now, club_id, account))])
        return sum(counts) > 0

    def set_role(self, club_id: str, account: str, role: str, was: Sequence[str]) -> bool:
        """Change a member's role if it is one of ``was``; False when it is not."""
        marks = ",".join("?" * len(was))
        return self._write([(f"UPDATE club_members SET role = ? WHERE club = ? AND account = ? AND role IN ({marks})",
                             (role, club_id, account, *was))])[0] > 0

    def leave_club(self, club_id: str, account: str) -> bool:
        """Take a member out (or turn down a request). The last admin cannot leave: a club always has one."""
        return self._write([("DELETE FROM club_members WHERE club = ? AND account = ? AND (role <> 'admin' OR"
                             " (SELECT COUNT(*) FROM club_members WHERE club = ? AND role = 'admin') > 1)",
                             (club_id, account, club_id))])[0] > 0

    def update_club(self, club_id: str, invite: str | None = None, season: float | None = None) -> None:
        if invite is not None:
            self._write([("UPDATE clubs SET invite = ? WHERE id = ?", (invite, club_id))])
        if season is not None:
            self._write([("UPDATE clubs SET season = ? WHERE id = ?", (season, club_id))])

    def clubs_run_by(self, account: str) -> int:
        """How many clubs an account is an admin of."""
        with self.lock:
            return int(self._read("SELECT COUNT(*) FROM club_members WHERE account = ? AND role = 'admin'",
                                  (account,))[0][0])

    def clubs_of(self, account: str) -> list[str]:
        """The clubs an account is a member or an admin of."""
        with self.lock:
            return [r[0] for r in self._read("SELECT club FROM club_members WHERE account = ? AND role <> 'pending'",
                                             (account,))]
