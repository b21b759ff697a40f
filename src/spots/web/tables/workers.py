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
import contextlib
import functools
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from ... import i18n
from ..games import hosted

NICE = 10  # searches run at a lower priority than the server, so moves stay quick while bots think
_searching = False  # in a worker: whether a search is under way (what SIGTERM stops)
_stopping = False  # in a worker: SIGTERM came, so a search still queued is not begun


class Stopped(Exception):
    """A worker's search was dropped because its server is stopping: nobody waits for that answer any more."""


def start_worker(server: int) -> None:
    """A worker's set-up: a lower priority, a watch on its server (see ``exit_with``), and SIGTERM to drop a
    search in flight (see ``stop_searches``). Ctrl-C at a terminal reaches the workers too (SIGINT goes to the
    whole foreground process group): it drops the search as well, rather than sending a KeyboardInterrupt back
    to the server as the search's answer, which printed a page of tracebacks at every Ctrl-C."""
    os.nice(NICE)
    signal.signal(signal.SIGTERM, drop_search)
    signal.signal(signal.SIGINT, drop_search)
    threading.Thread(target=exit_with, args=(server,), name="spots-exit-with-server", daemon=True).start()


def drop_search(signum: int, frame: Any) -> None:
    """SIGTERM (or SIGINT) in a worker: end the search under way with ``Stopped`` (its answer goes back to the
    pool as that error), and any search still queued at its start; an idle worker ends when the pool shuts down."""
    global _stopping
    _stopping = True
    if _searching:
        raise Stopped("the server is stopping")


def stoppable(search: Callable[..., Any]) -> Callable[..., Any]:
    """A worker's search that SIGTERM may stop (``drop_search``)."""

    @functools.wraps(search)
    def run(*args: Any, **kwargs: Any) -> Any:
        global _searching
        if _stopping:
            raise Stopped("the server is stopping")
        _searching = True
        try:
            return search(*args, **kwargs)
        finally:
            _searching = False

    return run


def stop_searches(pool: Executor) -> None:
    """Shut a pool down without waiting for its searches in flight: a bot's move or a report the stopping server
    would throw away (the game is stored; the bot thinks again, the report is made again, after a restart).
    Without this, a server's graceful stop waited for every search in flight, a whole game's report among them."""
    pool.shutdown(wait=False, cancel_futures=True)
    if isinstance(pool, ProcessPoolExecutor):
        for worker in multiprocessing.active_children():  # the server's only such children are its workers
            if worker.pid is not None:  # (never 0: that would signal the server's whole process group)
                with contextlib.suppress(OSError):
                    os.kill(worker.pid, signal.SIGTERM)
        # Let the pool's manager thread finish (its workers end at once now) before the interpreter exits: in
        # Python 3.11 it closes its wake-up pipe while the interpreter's exit hook may be writing to it, which
        # printed "Exception ignored ... OSError: [Errno 9] Bad file descriptor" at a server's stop.
        manager = getattr(pool, "_executor_manager_thread", None)
        if isinstance(manager, threading.Thread):
            manager.join(timeout=5.0)


def exit_with(server: int, every: float = 1.0) -> None:
    """End this worker once its server process is gone, even killed (kill -9 runs no clean-up): an orphaned
    worker would otherwise wait for work forever."""
    while os.getppid() == server:
        time.sleep(every)
    os._exit(0)


@stoppable
def think(game: str, bot: str, seed: int, state: Any) -> str:
    """One bot move (runs in a worker): a fresh bot of that kind, seeded by the server's dice."""
    return str(hosted()[game].make_bot(bot, seed).choose(state))


@stoppable
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
            stop_searches(self._pool)
            self._pool = None
