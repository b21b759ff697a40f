"""Rematch: "Play again" at the end of a game, the same seats and options at a new table, seats rotated.

Why every human must accept: the new table seats them again, so nobody is put
at a table they did not ask for; bots always accept. The yeses are stored (a
player may say yes on one server process and the other on another), and the one
yes that completes the set is the only one that creates the new table (the row
is locked while it is read and changed). Then every viewer of the old table is
sent where to go: each player their own seat link at the new table (a seat's
link is its secret, so nobody else gets it), spectators the new table's watch
link, the creator (who showed the host secret) also the new host link. The
old table's record, replay and lobby row point to the new one.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from ... import i18n
from ..guard import Refused
from ..guard import socket_error as _error
from ..ratings.service import account_of
from ..writer import Unavailable
from .rooms import DICE

if TYPE_CHECKING:
    from .hub import Hub
    from .rooms import Conn, Room

log = logging.getLogger("spots.web")


def rotated(count: int) -> list[int]:
    """Who sits where at the rematch: new seat ``j`` is taken by old seat ``rotated(n)[j]`` (everyone moves up one,
    so the one who played second now plays first)."""
    return [(j + 1) % count for j in range(count)]


def humans(room: Room) -> list[int]:
    return [s.seat for s in room.row.seats if s.kind == "human"]


class Rematch:
    """The rematches of this process's tables."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def joined(self, room: Room, conn: Conn) -> None:
        """A viewer of a finished table hears where its rematch stands."""
        if not room.state.is_terminal():
            return
        accepted, following = await self.hub.writer.run(self.hub.store.rematch_of, room.id)
        if accepted or following:
            await self._tell(room, conn, accepted, following)

    async def _tell(self, room: Room, conn: Conn, accepted: list[int], following: str | None) -> None:
        """One viewer hears where the rematch stands."""
        new = await self.hub.table(following) if following else None
        conn.send(json.dumps(self.message(room, conn, accepted, new)))

    async def accept(self, room: Room, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        _ = i18n.translator(conn.lang).gettext
        if conn.seat is None:
            return _error("spectator", _("only the players can ask for a rematch"))
        if not room.state.is_terminal():
            return _error("not-over", _("a rematch is offered when the game is over"))
        try:
            accepted, following = await self.hub.writer.run(self.hub.store.rematch_of, room.id)
        except Unavailable as exc:
            return _error("server-error", _("the rematch could not be saved; try again"), retry_after=exc.retry)
        if conn.seat in accepted or following:  # said already: nothing changes, so nobody is told again
            await self._tell(room, conn, accepted, following)
            return None
        try:
            complete = (await self.hub.writer.run(self.hub.store.accept_rematch, room.id, conn.seat,
                                                  humans(room)))[1]  # (never rebind _: the words below need it)
        except Unavailable as exc:
            return _error("server-error", _("the rematch could not be saved; try again"), retry_after=exc.retry)
        if complete:
            try:
                accounts = [a for s in room.row.seats if (a := account_of(s))]
                if await self.hub.writer.run(self.hub.store.blocks_among, accounts):  # fairplay/reports.py
                    raise Refused(409, "blocked", _("these players cannot all sit at one table again"))
                await self.create(room, conn)
            except (Refused, Unavailable) as exc:
                await self.hub.writer.run(self.hub.store.withdraw_rematch, room.id, conn.seat)
                await self.heard(room)
                why = exc.message if isinstance(exc, Refused) else exc.why
                return _error("rematch-refused", _("the new table could not be made: {why}").format(why=why))
        await self.heard(room)
        return None

    async def create(self, room: Room, conn: Conn) -> Room:
        """The new table: the same game, options, clock, rated flag and hint setting, seats rotated, every human seat by
        invitation."""
        kind, row = room.kind, room.row
        options = dict(row.rules)
        for option in kind.spec.options:
            if option.drawn and option.name in options:
                options[option.name] = DICE.randrange(2**31)  # a new seed where the server drew one
        seats = []
        for old in rotated(len(row.seats)):
            s = row.seats[old]
            seats.append({"kind": s.kind, "bot": s.bot, "name": s.name, "open": False, "claimed": False,
                          **({"account": account} if (account := account_of(s)) else {})})
        pace = room.timekeeper.clock.pace if room.timekeeper is not None else None  # the same clock, afresh
        new = await self.hub.create(kind, kind.spec.records.rules_from_dict(options), seats, conn.client, pace=pace,
                                    rated=row.rated, hints=row.hints, min_finished=row.min_finished)
        await self.hub.writer.run(self.hub.store.link_rematch, room.id, new.id)
        log.info("table %s: rematch at table %s", room.id, new.id)
        return new

    async def heard(self, room: Room) -> None:
        """The rematch changed (here or at another process): tell this process's viewers of the old table."""
        accepted, following = await self.hub.writer.run(self.hub.store.rematch_of, room.id)
        new = await self.hub.table(following) if following else None
        if new is not None:
            self.hub.rematched(room.id, new.id)
        for conn in list(room.conns):
            if self.hub.talk.listens(conn):
                conn.send(json.dumps(self.message(room, conn, accepted, new)))

    def message(self, room: Room, conn: Conn, accepted: list[int], new: Room | None) -> dict[str, Any]:
        peer = self.hub.talk.peers.get(conn)
        if peer is not None and peer.blocked:  # a blocked player's offer does not reach the blocker
            accepted = [s for s in accepted if room.row.seats[s].account not in peer.blocked]
        waiting = [s for s in humans(room) if s not in accepted]
        names = room.names_in(conn.lang)
        msg: dict[str, Any] = {"type": "rematch", "accepted": accepted, "waiting": [names[s] for s in waiting],
                               "waiting_seats": waiting, "next": new.id if new else None}
        if new is None:
            return msg
        if conn.seat is not None:
            token = new.row.seats[rotated(len(room.row.seats)).index(conn.seat)].token
            msg["link"] = f"/play/{token}"
        else:
            msg["link"] = f"/t/{new.id}"
        peer = self.hub.talk.peers.get(conn)
        if peer is not None and peer.host:
            msg["host"] = f"/host/{new.row.host_token}"
        return msg
