"""Bot moves and hints computed away from the event loop, in worker processes by default.

Why processes: a bot or advisor search is pure Python; in a thread it holds the
interpreter lock and slows every other table's moves. In a separate process
(``workers`` > 0, at a lower scheduling priority) it only takes CPU the server
does not need, and at most ``workers`` searches run at once. ``workers=0`` keeps them in threads of
this process (tests, a small private server). Tables where only bots play go
one at a time through their own gate, so they never crowd out a table where a
person is waiting for a bot.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from .. import i18n
from .games import hosted

NICE = 10  # searches run at a lower priority than the server, so moves stay quick while bots think


def start_worker(server: int) -> None:
    """A worker's set-up: a lower priority, and a watch on its server (see ``exit_with``)."""
    os.nice(NICE)
    threading.Thread(target=exit_with, args=(server,), name="spots-exit-with-server", daemon=True).start()


def exit_with(server: int, every: float = 1.0) -> None:
    """End this worker once its server process is gone, even killed (kill -9 runs no clean-up): an orphaned
    worker would otherwise wait for work forever."""
    while os.getppid() == server:
        time.sleep(every)
    os._exit(0)


def think(game: str, bot: str, seed: int, state: Any) -> str:
    """One bot move (runs in a worker): a fresh bot of that kind, seeded by the server's dice."""
    return str(hosted()[game].make_bot(bot, seed).choose(state))


def advise(game: str, state: Any, names: list[str], lang: str) -> list[dict[str, Any]]:
    """A hint's ranked moves in one language (runs in a worker)."""
    return hosted()[game].advice(state, names, i18n.translator(lang))


class Workers:
    """A small pool for searches, created when first needed and closed with the app."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: Executor | None = None
        self._bot_only = asyncio.Semaphore(1)

    @property
    def pool(self) -> Executor:
        if self._pool is None:
            if self.workers > 0:
                self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=start_worker, initargs=(os.getpid(),))
            else:
                self._pool = ThreadPoolExecutor(2, thread_name_prefix="spots-think")
        return self._pool

    async def bot_move(self, game: str, bot: str, seed: int, state: Any, bot_only: bool) -> str:
        """A bot's move; tables without people wait their turn behind one another."""
        loop = asyncio.get_running_loop()
        if not bot_only:
            return await loop.run_in_executor(self.pool, think, game, bot, seed, state)
        async with self._bot_only:
            return await loop.run_in_executor(self.pool, think, game, bot, seed, state)

    async def hint(self, game: str, state: Any, names: list[str], lang: str) -> list[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, advise, game, state, names, lang)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
