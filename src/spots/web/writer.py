"""Database calls off the event loop: one writer thread, with retries while the file is busy.

Why: SQLite waits for its write lock (another process, a backup tool) and a
full disk fails slowly; done on the event loop, either froze every table. Here
every store call runs on one dedicated thread (so calls never queue behind bot
or hint work), a busy database is retried for ``patience`` seconds, and what
still fails becomes ``Unavailable``, which the app turns into a clear
"try again" error (HTTP 503 with Retry-After, or a WebSocket error).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

log = logging.getLogger("spots.web")
T = TypeVar("T")


class Unavailable(Exception):
    """The database could not take a write just now; ``why`` is for people, ``retry`` in seconds."""

    def __init__(self, why: str, retry: int) -> None:
        super().__init__(why)
        self.why, self.retry = why, retry


def is_busy(exc: BaseException) -> bool:
    """A lock held elsewhere: worth retrying (a full disk or a damaged file is not)."""
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def describe(exc: BaseException) -> str:
    """What went wrong, for the player: a full disk (SQLite says "full", or "disk I/O error" when a write
    runs past the space a file may take), a database turned read-only, a busy one, or something else."""
    text = str(exc).lower()
    if "full" in text or "no space" in text:
        return "the server's disk is full"
    if "disk i/o" in text:
        return "the server could not write to its disk, which may be full"
    if "readonly" in text or "read-only" in text:
        return "the server's database has become read-only"
    if is_busy(exc):
        return "the database is busy"
    return "the database could not be written"


class Writer:
    """Runs store calls on one thread; retries busy errors for up to ``patience`` seconds.

    ``errors``: the database driver's exceptions (the store's ``errors``; SQLite's by default). ``name``:
    the thread's (table talk has a writer of its own, ``chatlog.py``).
    """

    def __init__(self, patience: float = 2.0, errors: tuple[type[BaseException], ...] = (sqlite3.Error,),
                 name: str = "spots-db") -> None:
        self.patience = patience
        self.errors = errors
        self.failing_until = 0.0  # after a call gave up, the next ones try once (no queue of waiting calls)
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)

    def _retrying(self, call: Callable[..., T], args: tuple[Any, ...]) -> T:
        now = time.monotonic()
        deadline = now + (0.0 if now < self.failing_until else self.patience)
        pause = 0.02
        while True:
            try:
                return call(*args)
            except self.errors as exc:
                if not is_busy(exc) or time.monotonic() + pause > deadline:
                    self.failing_until = time.monotonic() + 1.0
                    raise
                time.sleep(pause)
                pause = min(pause * 2, 0.25)

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on the writer thread; a database failure becomes ``Unavailable``."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool, self._retrying, call, args)
        except self.errors as exc:
            log.error("database call %s failed: %s; %s", getattr(call, "__name__", call), exc, describe(exc))
            raise Unavailable(describe(exc), 5 if is_busy(exc) else 30) from None

    def close(self) -> None:
        self.pool.shutdown(wait=True)
