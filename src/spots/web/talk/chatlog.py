"""Table talk's way to the database: a writer thread and a database connection of its own, lines batched.

Why apart from the moves: measured with 150 tables and every player talking
(``benchmarks/web_load.py --compare``), a move waited behind the chat lines
queued before it on the one writer thread (a fifth of the moves, most when
many arrive at once), and its round trip grew with the talk. Here the lines
go through their own ``Writer`` and the store's chat connection
(``TalkStore._chat_write``: SQLite's second connection to the file in WAL mode,
PostgreSQL's own connection), and every line said while one write is under
way is stored by the next one, in one statement: a busy table talk costs a
write per moment, not per line. A line is still stored before anyone hears it,
and its sender still learns when it could not be.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from ..writer import Unavailable, Writer

if TYPE_CHECKING:
    from ..store import TableStore

log = logging.getLogger("spots.web")


class ChatLog:
    """Stores chat lines and reads a table's talk, on table talk's own writer thread."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self.writer = Writer(errors=store.errors, name="spots-chat")
        self.pending: list[tuple[str, dict[str, Any], asyncio.Future[dict[str, Any]]]] = []
        self.flusher: asyncio.Task[None] | None = None

    async def add(self, table_id: str, line: dict[str, Any]) -> dict[str, Any]:
        """Store one line (with the others said meanwhile); the line as stored. Raises ``Unavailable``."""
        loop = asyncio.get_running_loop()
        stored: asyncio.Future[dict[str, Any]] = loop.create_future()
        self.pending.append((table_id, line, stored))
        if self.flusher is None or self.flusher.done():
            self.flusher = loop.create_task(self._flush())
        return await stored

    async def _flush(self) -> None:
        """Write what is pending, one batch at a time, until nothing is."""
        while self.pending:  # (one statement a batch: all its lines are stored, or none and their senders told)
            size = self.store.CHAT_BATCH
            batch, self.pending = self.pending[:size], self.pending[size:]
            try:
                lines = await self.writer.run(self.store.add_chats, [(table_id, line) for table_id, line, _ in batch])
            except Unavailable as exc:
                for *_, stored in batch:
                    if not stored.done():
                        stored.set_exception(Unavailable(exc.why, exc.retry))
                continue
            except Exception:  # a defect: every sender hears of it, none waits forever
                log.exception("chat lines could not be stored")
                for *_, stored in batch:
                    if not stored.done():
                        stored.set_exception(Unavailable("the database could not be written", 5))
                continue
            for (*_, stored), line in zip(batch, lines, strict=True):
                if not stored.done():  # (its sender may have left meanwhile)
                    stored.set_result(line)

    async def read(self, table_id: str) -> tuple[list[dict[str, Any]], set[str]]:
        """A table's chat lines and mutes, as stored."""
        return await self.writer.run(self._read, table_id)

    def _read(self, table_id: str) -> tuple[list[dict[str, Any]], set[str]]:
        return self.store.chat_of(table_id), self.store.mutes_of(table_id)

    async def mutes(self, table_id: str) -> set[str]:
        return await self.writer.run(self.store.mutes_of, table_id)

    def close(self) -> None:
        self.writer.close()
