"""The Web Push half of the store (mixed into ``TableStore``): the browsers that asked to hear of a seat's turns.

Why in the database: a subscription outlives the page that made it (the browser is told of a turn with the
page closed), and with several server processes the one that stores the move is the one that sends the
notice (``service.py``). The table comes from ``store/migrations/0005_clocks.sql``.
"""

from __future__ import annotations

import threading
import time
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any


class PushStore:
    lock: threading.Lock

    @abstractmethod
    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...

    @abstractmethod
    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]: ...

    def add_push(self, table_id: str, seat: int, endpoint: str, subscription: str, keep: int = 5) -> None:
        """Keep a browser's push subscription for a seat (the same endpoint again replaces it), and only the
        ``keep`` newest of the seat's."""
        self._write([("INSERT INTO push_subscriptions VALUES (?,?,?,?,?) ON CONFLICT (table_id, seat, endpoint)"
                      " DO UPDATE SET subscription = excluded.subscription, created = excluded.created",
                      (table_id, seat, endpoint, subscription, time.time())),
                     ("DELETE FROM push_subscriptions WHERE table_id = ? AND seat = ? AND endpoint NOT IN"
                      " (SELECT endpoint FROM push_subscriptions WHERE table_id = ? AND seat = ?"
                      " ORDER BY created DESC LIMIT ?)", (table_id, seat, table_id, seat, keep))])

    def drop_push(self, table_id: str, seat: int, endpoint: str) -> None:
        self._write([("DELETE FROM push_subscriptions WHERE table_id = ? AND seat = ? AND endpoint = ?",
                      (table_id, seat, endpoint))])

    def pushes(self, table_id: str, seat: int) -> list[str]:
        """The push subscriptions (JSON) of a seat."""
        with self.lock:
            return [s for (s,) in self._read("SELECT subscription FROM push_subscriptions WHERE table_id = ?"
                                             " AND seat = ? ORDER BY created", (table_id, seat))]
