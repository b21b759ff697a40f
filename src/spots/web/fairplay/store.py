"""Fair play's half of the store (mixed into ``TableStore``): the rated games the watch weighs, and marks.

The tables come from ``store/migrations/0016_assistance_watch.sql`` (``accounts.marked``) and the ratings' and the
coach's own (``rating_changes``, ``seats``, ``analyses``). The calls run on the writer thread or, for
``spots fairplay``, in the host's command.
"""

from __future__ import annotations

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


class WatchStore:
    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

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

    def marks(self, accounts: Iterable[str] | None = None) -> dict[str, str]:
        """The marked accounts among ``accounts`` (or all of them): account id -> the host's note."""
        wanted = None if accounts is None else list(accounts)
        if wanted == []:
            return {}
        where = "" if wanted is None else f" AND id IN ({', '.join('?' * len(wanted))})"
        rows = self._query(f"SELECT id, marked FROM accounts WHERE marked IS NOT NULL{where}", wanted or ())
        return {r[0]: r[1] for r in rows}
