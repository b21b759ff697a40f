"""The solo half of the store (mixed into ``TableStore``): which deal a solo table plays, its result, the board.

Why in the database: a board of the day must hold games the server played, by accounts it can name, and
must survive a restart; the deal of a table also lets a keyed table read back roll on from its own streams.
"""

from __future__ import annotations

import threading
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SOLO_SCHEMA = """
CREATE TABLE IF NOT EXISTS solo_games (  -- version 8 (migrations/0008_solo.sql): a solo table's deal and its result
    table_id TEXT PRIMARY KEY,
    deal TEXT NOT NULL,                  -- daily-YYYY-MM-DD or a challenge's name
    turns INTEGER,                       -- once the game is over and scored
    busts INTEGER
);
CREATE INDEX IF NOT EXISTS solo_games_by_deal ON solo_games (deal);
"""  # as the SQLite store makes it (PostgreSQL: the migration)


@dataclass(frozen=True)
class BoardRow:
    name: str  # the account's name
    turns: int
    busts: int


class SoloStore:
    lock: threading.Lock

    @abstractmethod
    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...

    @abstractmethod
    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]: ...

    def add_solo_game(self, table_id: str, deal: str) -> None:
        self._write([("INSERT INTO solo_games (table_id, deal) VALUES (?, ?)", (table_id, deal))])

    def solo_deal(self, table_id: str) -> str | None:
        with self.lock:
            rows = self._read("SELECT deal FROM solo_games WHERE table_id = ?", (table_id,))
        return rows[0][0] if rows else None

    def unscored_solo_games(self, deal: str) -> list[str]:
        """The finished solo tables of a deal whose result is not yet stored."""
        with self.lock:
            rows = self._read("SELECT g.table_id FROM solo_games g JOIN tables t ON t.id = g.table_id"
                              " WHERE g.deal = ? AND g.turns IS NULL AND t.status = 'over'", (deal,))
        return [r[0] for r in rows]

    def set_solo_result(self, table_id: str, turns: int, busts: int) -> None:
        self._write([("UPDATE solo_games SET turns = ?, busts = ? WHERE table_id = ?", (turns, busts, table_id))])

    def solo_board(self, deal: str, limit: int = 20) -> list[BoardRow]:
        """Each account's best result on a deal (fewest turns, then busts), best first; guests are not on it."""
        with self.lock:
            rows = self._read("SELECT a.id, a.name, g.turns, g.busts FROM solo_games g"
                              " JOIN tables t ON t.id = g.table_id JOIN seats s ON s.table_id = g.table_id"
                              " AND s.seat = 0 JOIN accounts a ON a.id = s.account"
                              " WHERE g.deal = ? AND g.turns IS NOT NULL AND t.winner = 0 AND a.disabled = 0"
                              " ORDER BY g.turns, g.busts, t.updated", (deal,))
        best: dict[str, BoardRow] = {}
        for account, name, turns, busts in rows:
            best.setdefault(account, BoardRow(name, int(turns), int(busts)))
        return list(best.values())[:limit]
