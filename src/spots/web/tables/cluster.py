"""Several server processes on one database: keep this process's tables in step with the others.

Why: with PostgreSQL any process may serve any table, so each holds a copy of
every live table and must hear what the others do. The store reports their
changes (``TableStore.listen``: NOTIFY on PostgreSQL); here they become a
table loaded, moves replayed (``Room.catch_up``), seats updated or a table
retired, and the viewers connected here are told at once. Bots: a table's bot
seats are played by the one process holding its lease (an advisory lock); a
poll every ``POLL`` seconds lets another process take over when the holder
dies, and gives leases of finished or unloaded tables back.

Alone on its database (SQLite) a process has nothing to follow and always
plays its bots; then none of this runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING

from ..fairplay import resign
from ..writer import Unavailable

if TYPE_CHECKING:
    from .hub import Hub
    from .rooms import Room

log = logging.getLogger("spots.web")
POLL = 0.5  # seconds between looks for bot tables nobody plays (a dead process's)


class Follower:
    """Hears the other processes' changes and shares out the bot tables."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.poller: asyncio.Task[None] | None = None

    @property
    def shared(self) -> bool:
        return self.hub.store.shared

    def start(self) -> None:
        if not self.shared:
            return
        self.loop = asyncio.get_running_loop()
        self.hub.store.listen(self._heard)
        self.poller = self.loop.create_task(self._poll_forever())

    async def stop(self) -> None:
        tasks = [*self.tasks, *([self.poller] if self.poller else [])]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t

    # -------------------------------------------------------------- changes made elsewhere

    def _heard(self, change: str | None) -> None:
        """(The store's listening thread.) Hand the change to the event loop."""
        if self.loop is not None and not self.hub.closing:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (shutting down)
                self.loop.call_soon_threadsafe(self._spawn, change)

    def _spawn(self, change: str | None) -> None:
        if self.hub.closing:
            return
        task = asyncio.get_running_loop().create_task(self._apply(change))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _apply(self, change: str | None) -> None:
        """One change: ``m <table> <moves> [the new moves as JSON]``, ``u <table> <moves>`` (moves taken back),
        ``n <table>`` (new), ``s <table>`` (seats), ``x <table>`` (status), ``a <table>`` (its clock:
        ``timing.py``)."""
        try:
            if change is None:
                await self.resync()
                return
            if change[:2] in ("c ", "k ", "r ", "g "):  # table talk, mutes, rematches, ratings (talk.py)
                await self.hub.talk.heard(change)
                return
            kind, table_id, *rest = change.split(" ", 3)
            room = self.hub.rooms.get(table_id)
            if kind in ("m", "n") and room is None:
                await self.hub.table(table_id)  # loads a live table this process has not seen yet
            elif kind == "m" and room is not None and int(rest[0]) > len(room.log):
                moves = json.loads(rest[1]) if len(rest) > 1 else None
                await room.catch_up(int(rest[0]), moves)
            elif kind == "u" and room is not None:  # moves taken back (an undo): read the record again
                await room.reload_moves()
                if room.timekeeper is not None:
                    await room.timekeeper.heard()  # and the clock stored with it
            elif kind == "s" and room is not None:
                await self.reseat(room)
            elif kind == "a" and room is not None and room.timekeeper is not None:
                await room.timekeeper.heard()  # a clock changed: an expiry, a choice, a player back
            elif kind == "x" and room is not None:
                found = await self.hub.writer.run(self.hub.store.status_of, table_id)
                if found is None or found[0] not in ("playing", "over"):
                    self.hub._unload(room)
        except Unavailable as exc:
            log.warning("could not follow another server's change %r: %s", change, exc.why)
        except Exception:
            log.exception("could not follow another server's change %r", change)

    async def resync(self) -> None:
        """After a gap in hearing: catch every table up, and load the live tables made meanwhile."""
        self.hub.talk.resync()
        for room in list(self.hub.rooms.values()):
            await room.reload_moves()  # the whole record: moves may have been taken back meanwhile, too
            if room.timekeeper is not None:
                await room.timekeeper.heard()  # a clock changed meanwhile (an expiry, a choice)
        rows = await self.hub.writer.run(self.hub.store.load_tables)
        for row in rows:
            if row.id not in self.hub.rooms:
                await self.hub.table(row.id)

    async def reseat(self, room: Room) -> None:
        """A seat was taken or renamed at another process: take the seats as stored."""
        row = await self.hub.writer.run(self.hub.store.load_table, room.id)
        if row is None:
            return
        renamed = False
        for mine, stored in zip(room.row.seats, row.seats, strict=True):
            if mine.token != stored.token:
                if mine.token:
                    self.hub.by_token.pop(mine.token, None)
                if stored.token:
                    self.hub.by_token[stored.token] = (room.id, mine.seat)
            renamed = renamed or mine.name != stored.name
            mine.token, mine.claimed, mine.open, mine.name = stored.token, stored.claimed, stored.open, stored.name
            mine.account = stored.account
        if row.resigned != room.row.resigned:  # a seat resigned there: its stand-in plays here too
            room.row.resigned = row.resigned
            resign.seat_stand_ins(room)
            room.schedule_bot()
        if renamed:
            room.renamed()
        room.changed(full=renamed)

    # -------------------------------------------------------------- bots

    async def lease(self, room: Room) -> bool:
        """Whether this process plays the room's bots now; on taking the lease, catch the table up first."""
        if not self.shared:
            return True
        store = self.hub.store
        if store.holds(room.id):
            return True
        try:
            if not await self.hub.writer.run(store.bot_lease, room.id):
                return False
        except Unavailable:
            return False
        await room.catch_up()  # the last holder may have moved just before it went
        return True

    async def _poll_forever(self) -> None:
        while not self.hub.closing:
            await asyncio.sleep(POLL)
            try:
                await self.poll()
            except Exception:
                log.exception("the bot lease poll failed")

    async def poll(self) -> None:
        """Wake the bots of tables nobody plays; give back the leases of tables that need no bot any more."""
        store = self.hub.store
        for room in list(self.hub.rooms.values()):
            if not room.bots or room.state.is_terminal():
                continue
            if room.bot_task is None or room.bot_task.done():
                room.schedule_bot()
        for table_id in store.leases():
            held = self.hub.rooms.get(table_id)
            if held is None or held.state.is_terminal():
                await self.hub.writer.run(store.bot_release, table_id)
