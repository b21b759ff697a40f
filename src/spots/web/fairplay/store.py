"""Fair play's half of the store (mixed into ``TableStore``): the rated games the watch weighs, marks, and
resignations.

The columns come from ``store/migrations/0016_fair_play_more.sql`` (``accounts.marked``, ``tables.resigned``) and the
ratings' and the coach's own tables (``rating_changes``, ``seats``, ``analyses``). The calls run on the writer thread
or, for ``spots fairplay``, in the host's command.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple


class RatedGame(NamedTuple):
    """One account's rated game: who, which game and table, when, the account's seat and the coach's report (the
    JSON document; None until it is computed)."""

    account: str
    name: str
    game: str
    table: str
    at: float
    seat: int | None
    report: str | None


class Report(NamedTuple):
    """A report to the host (``spots users reports``)."""

    id: str
    reporter: str | None  # the reporter's name (None: the account was deleted since)
    name: str
    account: str | None
    table: str | None
    line: str | None
    why: str
    at: float
    status: str


class FairPlayStore:
    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]:
        raise NotImplementedError

    def resign(self, table_id: str, before: str | None, after: str) -> bool:
        """Store a resignation (``resigned`` as JSON text) if the table still plays and nobody else changed who
        resigned meanwhile (a compare-and-set: several processes); other processes hear of it as a seats change."""
        return self._write([("UPDATE tables SET resigned = ? WHERE id = ? AND status = 'playing' AND"
                             " coalesce(resigned, '') = ?", (after, table_id, before or ""))],
                           seats_of=[table_id])[0] == 1

    def rated_games(self, account: str | None = None) -> list[RatedGame]:
        """Every rated game that counted for an account (or for one account), oldest first, with the newest
        ready report of its table."""
        rows = self._query(
            "SELECT a.id, a.name, rc.game, rc.table_id, rc.at, s.seat,"
            " (SELECT an.report FROM analyses an WHERE an.table_id = rc.table_id AND an.status = 'ready'"
            "  ORDER BY an.claimed DESC LIMIT 1)"
            " FROM rating_changes rc JOIN accounts a ON rc.player = 'user:' || a.id"
            " LEFT JOIN seats s ON s.table_id = rc.table_id AND s.account = a.id"
            + (" WHERE a.id = ?" if account else "") + " ORDER BY rc.at, rc.table_id", (account,) if account else ())
        return [RatedGame(r[0], r[1], r[2], r[3], float(r[4]), None if r[5] is None else int(r[5]), r[6])
                for r in rows]

    def add_report(self, reporter: str, account: str | None, name: str, table: str | None, line: str | None,
                   why: str) -> str:
        """Store a report; its id."""
        report = secrets.token_hex(4)
        self._write([("INSERT INTO reports (id, reporter, account, name, table_id, line, why, at) VALUES"
                      " (?,?,?,?,?,?,?,?)", (report, reporter, account, name, table, line, why, time.time()))])
        return report

    def reports(self, every: bool = False) -> list[Report]:
        """The open reports (or all of them), oldest first, with the reporter's name."""
        rows = self._query("SELECT r.id, a.name, r.name, r.account, r.table_id, r.line, r.why, r.at, r.status FROM"
                           " reports r LEFT JOIN accounts a ON a.id = r.reporter"
                           + ("" if every else " WHERE r.status = 'open'") + " ORDER BY r.at, r.id")
        return [Report(r[0], r[1], r[2], r[3], r[4], r[5], r[6], float(r[7]), r[8]) for r in rows]

    def read_report(self, report: str) -> bool:
        """Mark a report read (the host dealt with it); False if there is no such open report."""
        return self._write([("UPDATE reports SET status = 'read' WHERE id = ? AND status = 'open'", (report,))])[0] == 1

    def set_block(self, blocker: str, blocked: str, on: bool) -> None:
        """Block (or unblock) an account for another."""
        if on:
            self._write([("INSERT INTO blocks (blocker, blocked, at) VALUES (?,?,?) ON CONFLICT (blocker, blocked)"
                          " DO NOTHING", (blocker, blocked, time.time()))])
        else:
            self._write([("DELETE FROM blocks WHERE blocker = ? AND blocked = ?", (blocker, blocked))])

    def blocked_by(self, blocker: str) -> dict[str, str]:
        """The accounts an account blocks: id -> name."""
        rows = self._query("SELECT b.blocked, a.name FROM blocks b JOIN accounts a ON a.id = b.blocked WHERE"
                           " b.blocker = ? ORDER BY a.name", (blocker,))
        return {r[0]: r[1] for r in rows}

    def blocks_among(self, accounts: Sequence[str]) -> bool:
        """Whether any of these accounts blocks another of them."""
        if len(accounts) < 2:
            return False
        marks = ", ".join("?" * len(accounts))
        return bool(self._query(f"SELECT 1 FROM blocks WHERE blocker IN ({marks}) AND blocked IN ({marks}) LIMIT 1",
                                (*accounts, *accounts)))

    def marks(self, accounts: Iterable[str] | None = None) -> dict[str, str]:
        """The marked accounts among ``accounts`` (or all of them): account id -> the host's note."""
        wanted = None if accounts is None else list(accounts)
        if wanted == []:
            return {}
        where = "" if wanted is None else f" AND id IN ({', '.join('?' * len(wanted))})"
        rows = self._query(f"SELECT id, marked FROM accounts WHERE marked IS NOT NULL{where}", wanted or ())
        return {r[0]: r[1] for r in rows}
