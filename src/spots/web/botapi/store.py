"""The bot accounts' half of the store (mixed into ``TableStore``): which accounts are bots, who made them, and
the SHA-256 of each one's API token (the token itself is shown once, when made). The table comes from
``store/migrations/0019_bot_accounts.sql``.

A bot account is an ordinary account row with no password (nobody signs in as it) and one row here: so a seat,
a rating, an invitation or a chat line of a bot is handled as any player's, and "is it a bot?" is one lookup.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..accounts.store import ACCOUNT_COLUMNS, AccountRow, LooksLike


def ladder_pool(game: str) -> str:
    """The ratings pool of a game's bot ladder (``ladder.py``): apart from the game's own, which is people's."""
    return f"{game}/ladder"


@dataclass(frozen=True)
class BotRow:
    """A bot account: the account, who made it (None: the host), when."""

    account: AccountRow
    owner: str | None
    owner_name: str | None
    created: float


class BotStore:
    lock: threading.Lock

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]:
        raise NotImplementedError

    def name_looking_like(self, key: str) -> str | None:
        raise NotImplementedError

    def create_bot(self, account_id: str, name: str, name_key: str, owner: str | None, token_hash: str,
                   look_alike: str | None = None, now: float | None = None) -> BotRow:
        """A new bot account and its token in one transaction (raises ``Duplicate`` for a name taken, ``LooksLike``
        for a name that looks like one taken)."""
        if look_alike is not None:
            taken = self.name_looking_like(look_alike)
            if taken is not None:
                raise LooksLike(taken)
        now = time.time() if now is None else now
        self._write([
            ("INSERT INTO accounts (id, name, name_key, password, created, look_alike) VALUES (?,?,?,?,?,?)",
             (account_id, name, name_key, None, now, look_alike)),
            ("INSERT INTO bot_accounts (account, owner, token, created) VALUES (?,?,?,?)",
             (account_id, owner, token_hash, now))])
        found = self.bot(account_id)
        assert found is not None
        return found

    def bot(self, account_id: str) -> BotRow | None:
        """The bot account of an account id (None: a person's account, or no account)."""
        rows = self._bots("b.account = ?", (account_id,))
        return rows[0] if rows else None

    def bot_of_token(self, token_hash: str) -> BotRow | None:
        """The bot account whose API token has this SHA-256."""
        rows = self._bots("b.token = ?", (token_hash,))
        return rows[0] if rows else None

    def bots_of(self, owner: str) -> list[BotRow]:
        """The bot accounts a player made, oldest first."""
        return self._bots("b.owner = ?", (owner,))

    def bot_ids(self, account_ids: Sequence[str]) -> set[str]:
        """Which of these accounts are bots."""
        if not account_ids:
            return set()
        marks = ",".join("?" * len(account_ids))
        with self.lock:
            rows = self._read(f"SELECT account FROM bot_accounts WHERE account IN ({marks})", tuple(account_ids))
        return {r[0] for r in rows}

    def new_bot_token(self, account_id: str, token_hash: str) -> bool:
        """Replace a bot's token (the old one stops working at once); False when it is not a bot."""
        return self._write([("UPDATE bot_accounts SET token = ? WHERE account = ?", (token_hash, account_id))])[0] > 0

    def _bots(self, where: str, args: Sequence[Any]) -> list[BotRow]:
        columns = ", ".join(f"a.{c.strip()}" for c in ACCOUNT_COLUMNS.split(","))
        with self.lock:
            rows = self._read(f"SELECT {columns}, b.owner, o.name, b.created FROM bot_accounts b"
                              " JOIN accounts a ON a.id = b.account LEFT JOIN accounts o ON o.id = b.owner"
                              f" WHERE {where} ORDER BY b.created", args)
        width = len(ACCOUNT_COLUMNS.split(","))
        return [BotRow(AccountRow.of(r[:width]), r[width], r[width + 1], float(r[width + 2])) for r in rows]

    # -------------------------------------------------------------- the ladder

    def ladder_join(self, account_id: str, game: str, now: float) -> None:
        """Enter a bot in a game's ladder (again: nothing changes but when it was last seen)."""
        self._write([("DELETE FROM ladder_entries WHERE account = ? AND game = ?", (account_id, game)),
                     ("INSERT INTO ladder_entries (account, game, joined, seen) VALUES (?,?,?,?)",
                      (account_id, game, now, now))])

    def ladder_leave(self, account_id: str, game: str | None = None) -> None:
        """Take a bot out of a game's ladder (None: out of every ladder)."""
        if game is None:
            self._write([("DELETE FROM ladder_entries WHERE account = ?", (account_id,))])
        else:
            self._write([("DELETE FROM ladder_entries WHERE account = ? AND game = ?", (account_id, game))])

    def ladder_seen(self, account_id: str, now: float) -> list[str]:
        """The bot's program is connected now: its entries are marked seen; the games of its ladders."""
        self._write([("UPDATE ladder_entries SET seen = ? WHERE account = ?", (now, account_id))])
        with self.lock:
            return [r[0] for r in self._read("SELECT game FROM ladder_entries WHERE account = ? ORDER BY game",
                                             (account_id,))]

    def ladder_ready(self, game: str, since: float) -> list[tuple[str, str]]:
        """The bots of a game's ladder seen since ``since`` and playing no ladder game now: (account, name)."""
        with self.lock:
            rows = self._read(
                "SELECT e.account, a.name FROM ladder_entries e JOIN accounts a ON a.id = e.account"
                " WHERE e.game = ? AND e.seen >= ? AND a.disabled = 0 AND NOT EXISTS (SELECT 1 FROM ladder_games g"
                " JOIN tables t ON t.id = g.table_id JOIN seats s ON s.table_id = t.id"
                " WHERE t.status = 'playing' AND s.account = e.account) ORDER BY e.account", (game, since))
        return [(r[0], r[1]) for r in rows]

    def mark_ladder_game(self, table_id: str, game: str, now: float) -> None:
        self._write([("INSERT INTO ladder_games (table_id, game, created) VALUES (?,?,?)", (table_id, game, now))])

    def ladder_game(self, table_id: str) -> bool:
        """Whether a table is a ladder game (rated on the ladder, apart from people's ratings)."""
        with self.lock:
            return bool(self._read("SELECT 1 FROM ladder_games WHERE table_id = ?", (table_id,)))
