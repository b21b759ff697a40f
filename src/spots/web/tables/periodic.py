"""A piece of the app's lifespan that acts every few seconds until the server closes (the bot ladder's pairing, the
tournament director): ``start`` when the app starts, ``stop`` when it ends, ``step`` each time.

Why one loop: each such task must go on when the store cannot answer for a moment (``Unavailable``: next time) and
log anything else without stopping, and must end with the app; written once, that cannot differ between them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from ..writer import Unavailable

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("spots.web")


class Periodic:
    every = 1.0  # seconds between steps
    what = "a periodic task"  # in the log when a step fails

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._forever())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task

    async def step(self) -> Any:
        raise NotImplementedError

    async def _forever(self) -> None:
        while not self.hub.closing:
            await asyncio.sleep(self.every)
            try:
                await self.step()
            except Unavailable:
                continue  # the store cannot answer now: next time
            except Exception:
                log.exception("%s could not act", self.what)
