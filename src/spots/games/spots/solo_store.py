"""Spots' own rows in the server's database: which deal a solo table plays, its result, the board of the day.

Why in the database: a board of the day must hold games the server played, by accounts it can name, and
must survive a restart. The table is made by the game's migrations (``web/migrations/``); these functions
reach it through the store's ``read`` and ``write``, the calls the shell offers a game (both databases,
``?`` placeholders). They are synchronous: the web pages run them on the store's writer (``hub.writer.run``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...web.toolkit import TableStore


@dataclass(frozen=True)
class BoardRow:
    name: str  # the account's name
    turns: int
    busts: int


def add_solo_game(store: TableStore, table_id: str, deal: str) -> None:
    """A solo table made for a deal: the table's deal (its dice when read back) and its row for the board."""
    store.write([("UPDATE tables SET deal = ? WHERE id = ?", (deal, table_id)),
                 ("INSERT INTO solo_games (table_id, deal) VALUES (?, ?)", (table_id, deal))])


def unscored_solo_games(store: TableStore, deal: str) -> list[str]:
    """The finished solo tables of a deal whose result is not yet stored."""
    rows = store.read("SELECT g.table_id FROM solo_games g JOIN tables t ON t.id = g.table_id"
                      " WHERE g.deal = ? AND g.turns IS NULL AND t.status = 'over'", (deal,))
    return [r[0] for r in rows]


def set_solo_result(store: TableStore, table_id: str, turns: int, busts: int) -> None:
    store.write([("UPDATE solo_games SET turns = ?, busts = ? WHERE table_id = ?", (turns, busts, table_id))])


def solo_board(store: TableStore, deal: str, limit: int = 20) -> list[BoardRow]:
    """Each account's best result on a deal (fewest turns, then busts), best first; guests are not on it."""
    rows = store.read("SELECT a.id, a.name, g.turns, g.busts FROM solo_games g"
                      " JOIN tables t ON t.id = g.table_id JOIN seats s ON s.table_id = g.table_id"
                      " AND s.seat = 0 JOIN accounts a ON a.id = s.account"
                      " WHERE g.deal = ? AND g.turns IS NOT NULL AND t.winner = 0 AND a.disabled = 0"
                      " ORDER BY g.turns, g.busts, t.updated", (deal,))
    best: dict[str, BoardRow] = {}
    for account, name, turns, busts in rows:
        best.setdefault(account, BoardRow(name, int(turns), int(busts)))
    return list(best.values())[:limit]


def host_secret(store: TableStore) -> str:
    """The secret that keys the server's daily deals, made the first time any process asks (the one that stores
    it first wins; every process then reads the same one)."""
    found = store.read("SELECT secret FROM solo_secret WHERE id = 1")
    if not found:
        store.write([("INSERT INTO solo_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                      (secrets.token_hex(32),))])
        found = store.read("SELECT secret FROM solo_secret WHERE id = 1")
    return str(found[0][0])
