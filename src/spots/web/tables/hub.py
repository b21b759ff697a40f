"""Every live table of the server: loading, creating within limits, seats, the lobby index and expiry.

Why it is bounded: only live tables are in memory. A finished table stays for
a while after its last viewer leaves, then is read back from the file only
when someone opens its replay; a table nobody has touched for
``expire_after`` seconds is retired (``abandoned``), unless it has a clock (its
clocks bring it to an end: ``timing.py``). A table that cannot be
rebuilt at start-up is set aside (``quarantined``) with the reason, and the
server carries on with the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import random
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from typing import Any

from ... import i18n
from ...core.commitment import Commitment, commit_to, digest
from ..clocks.clock import Pace
from ..clocks.timing import new_clock
from ..config import Limits
from ..fairplay.dice import chance_dice
from ..games import GameKind, hosted
from ..guard import Buckets, Refused, kept_for_newcomers, network_of
from ..ratings.service import Ratings
from ..store import TableRow, TableStore
from ..talk.service import Talk
from ..writer import Unavailable, Writer
from .cluster import Follower
from .labels import labels_in, seat_label
from .rematch import Rematch
from .rooms import DICE, Room, replay_with_log
from .workers import Workers

log = logging.getLogger("spots.web")
RECENT = 200  # finished games the lobby lists from memory; older pages come from the file
ARCHIVE = 32  # finished tables kept in memory after someone asked for one


def owner_of(client: str, network: str = "") -> str:
    """The owner key stored with a table: hashes of the address and of its network, so the file holds neither.

    ``"<address>.<network>"``; a table stored before networks were counted has the address hash only.
    """
    digest = hashlib.sha256(client.encode()).hexdigest()[:16]
    return f"{digest}.{hashlib.sha256(network.encode()).hexdigest()[:16]}" if network else digest


def address_key(owner: str) -> str:
    """The address part of an owner key."""
    return owner.partition(".")[0]


def network_key(owner: str) -> str:
    """The network part of an owner key (an address stored before networks were counted is its own network)."""
    return owner.rpartition(".")[2]


def committed_dice(kind: GameKind, rules: Any) -> tuple[Commitment, random.Random]:
    """A new online table's committed dice: a secret seed for every event (``fairplay/dice.py``), or, where the game
    deals its own dice under these rules (Spots' keyed dice), a secret deal key committed to whole."""
    dealing = kind.spec.dealing
    if dealing is None or kind.spec.table_dice(rules, DICE) is DICE:
        return commit_to(), DICE
    key = secrets.token_hex(8)
    return Commitment(digest(key), (), key, deal=True), dealing.deal(rules, key)[1]


class Hub:
    """The server's tables and the limits on them."""

    def __init__(self, store: TableStore, writer: Writer, workers: Workers, limits: Limits, bot_delay: float = 1.0
                 ) -> None:
        self.store, self.writer, self.workers, self.limits = store, writer, workers, limits
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self.by_token: dict[str, tuple[str, int]] = {}
        self.by_host: dict[str, str] = {}
        self.lobby: dict[str, OrderedDict[str, Room]] = {"open": OrderedDict(), "playing": OrderedDict()}
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self.finished_total = 0
        self.archive: OrderedDict[str, Room] = OrderedDict()
        self.quarantined: dict[str, str] = {}
        self.new_tables = Buckets(limits.tables_per_minute / 60, 10)
        self.version = 0  # bumped whenever a lobby row changes (the lobby's answers are reused until then)
        self.closing = False
        self.janitor: asyncio.Task[None] | None = None
        self.follower = Follower(self)  # other server processes sharing the database (PostgreSQL)
        self.on_finished: list[Callable[[Room], None]] = []  # told when a game ends here (the coach's report)
        self.on_moved: list[Callable[[Room], None]] = []  # told when a table's position changed here
        self.talk, self.rematch, self.ratings = Talk(self), Rematch(self), Ratings(self)  # talk.py, ...
        self.on_turn: list[Any] = []  # called with (room, seat) when a human's turn begins here (notices.py)

    # -------------------------------------------------------------- start and stop

    def load(self) -> None:
        """Rebuild every live table by replaying its moves; set aside the ones that cannot be rebuilt."""
        for row in self.store.load_tables():
            try:
                room = self.rebuild(row)
            except Exception as exc:  # a damaged table must not stop the server
                reason = f"{type(exc).__name__}: {exc}"
                log.error("table %s cannot be rebuilt and is quarantined (%s)", row.id, reason)
                self.store.set_status(row.id, "quarantined", reason)
                self.quarantined[row.id] = reason
                continue
            self._add(room)
        rows, self.finished_total = self.store.finished(0, RECENT)
        self.recent.extend(rows)

    def rebuild(self, row: TableRow) -> Room:
        """A table from its record (raises when the stored rules or a stored move are not valid)."""
        if row.game not in hosted():
            raise ValueError(f"unknown game {row.game!r}")
        if not isinstance(row.rules, dict):
            raise ValueError("the stored rules are not a JSON object")
        kind = hosted()[row.game]
        rules = kind.spec.records.rules_from_dict(row.rules)
        state, lines = replay_with_log(kind, rules, row.moves, labels_in(row.seats, i18n.DEFAULT))
        room = Room(self, row, state, lines)
        dealing, dice = kind.spec.dealing, row.dice
        if dice is not None and dice.deal and dice.seed is not None and dealing is not None:
            room.dice = dealing.deal(rules, dice.seed)[1]  # a daily deal's table: the deal's dice, by its kept key
        else:
            room.dice = self.dice_of(kind, row.id, state.rules, room.dice)
        return room

    def dice_of(self, kind: GameKind, table_id: str, rules: Any, dice: random.Random) -> random.Random:
        """A table's dice when read back: the game's own dice (``GameSpec.dealing``: Spots' keyed rules, a new secret
        deal, as its streams are not kept), or, for a table made for a named deal (``tables.deal``), that
        deal's dice (``WebView.deal_dice``); the rest as before."""
        own = kind.spec.table_dice(rules, dice)
        if own is dice or kind.web.deal_dice is None:  # the game has no dice of its own, or no named deals
            return own
        try:
            name = self.store.deal_of(table_id)
        except self.store.errors as exc:  # the database cannot say now: the table still plays, on dice of its own
            log.warning("the deal of table %s could not be read: %s", table_id, exc)
            name = None
        return own if name is None else kind.web.deal_dice(name)

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        self.by_host[room.row.host_token] = room.id
        for s in room.row.seats:
            if s.token:
                self.by_token[s.token] = (room.id, s.seat)
        self.lobby_changed(room)

    async def start(self) -> None:
        """After loading: finish any pending chance events, wake the bots and the janitor."""
        for room in list(self.rooms.values()):
            try:
                await room.settle()
            except Exception as exc:
                log.error("table %s could not resume: %s", room.id, exc)
            if room.timekeeper is not None:
                room.timekeeper.arm()  # a deadline passed while the server was down is acted on now
        self.janitor = asyncio.get_running_loop().create_task(self._sweep_forever())
        self.follower.start()

    async def stop(self) -> None:
        self.closing = True
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task and not r.bot_task.done()]
        for r in self.rooms.values():
            if r.timekeeper is not None:
                r.timekeeper.stop()
        if self.janitor is not None:
            tasks.append(self.janitor)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        await self.follower.stop()

    # -------------------------------------------------------------- tables

    def _check_room_for(self, client: str, bot_only: bool) -> str:
        """Refuse a new table over a limit (429 for this client or its network, 503 for the server); the owner key."""
        limits = self.limits
        owner = owner_of(client, network_of(client, limits.ipv4_prefix, limits.ipv6_prefix))
        network = network_key(owner)
        wait = self.new_tables.take(network)
        if wait:
            raise Refused(429, "too-many-tables", "you are creating tables too fast; try again shortly", wait)
        live = [r for r in self.rooms.values() if not r.state.is_terminal()]
        ours = [r for r in live if network_key(r.row.owner) == network]
        mine = [r for r in live if address_key(r.row.owner) == address_key(owner)]
        if len(mine) >= limits.tables_per_client:
            raise Refused(429, "too-many-tables", f"you already have {len(mine)} unfinished tables, the most one"
                          " player may have; finish or leave some first", 60)
        if len(ours) >= limits.tables_per_network:
            raise Refused(429, "too-many-tables", f"your network already has {len(ours)} unfinished tables, the most"
                          " the addresses of one network may have; finish or leave some first", 60)
        bots_mine, bots_ours = (sum(r.bot_only for r in rooms) for rooms in (mine, ours))
        if bot_only and (bots_mine >= limits.bot_tables_per_client or bots_ours >= limits.bot_tables_per_network):
            raise Refused(429, "too-many-bot-tables", f"you already have {max(bots_mine, bots_ours)} tables where"
                          " only bots play, the most one player (or network) may have; watch them finish first", 60)
        self._check_cap(len(self.rooms), limits.max_tables, not ours, "tables")
        if bot_only:
            self._check_cap(sum(r.bot_only for r in self.rooms.values()), limits.max_bot_tables, not bots_ours,
                            "tables where only bots play")
        return owner

    def _check_cap(self, used: int, cap: int, newcomer: bool, what: str) -> None:
        """Refuse with 503 at a server-wide cap; its last share is kept for networks that hold none yet."""
        kept = kept_for_newcomers(cap, self.limits.newcomer_share)
        hours = self.limits.expire_after / 3600
        if used >= cap:
            raise Refused(503, "server-full", f"the server is full: it has {used} {what}, as many as it can hold."
                          f" Tables free up as games end, and unplayed ones after {hours:g} hours; try again in a"
                          " few minutes", 60)
        if used >= cap - kept and not newcomer:
            raise Refused(503, "server-full", f"the server is nearly full: its last {kept} {what} are kept for"
                          " players who have none yet; finish or leave one of yours, then try again", 60)

    async def create(self, kind: GameKind, rules: Any, seats: list[dict[str, Any]], client: str = "",
                     dice: random.Random = DICE, pace: Pace | None = None, rated: bool = False,
                     hints: bool = True, commitment: Commitment | None = None, min_finished: int | None = None,
                     opening: Sequence[str] = (), bots_join: bool = False, house: bool = False) -> Room:
        """A new table within the limits: deal and roll the opening chance events, store it, start the bots.

        ``dice``: online tables use the OS's entropy; only the tutorial passes a seeded generator.
        ``pace``: the table's clock (None: no clock). ``hints``: the advisor answers (never at a rated table).
        ``commitment``: a named deal's committed key (its ``dice`` are the deal's; the daily deal's).
        ``min_finished``: a rated table's minimum share of finished rated games for its players (ratings.py).
        ``opening``: moves already made, chance events among them (a puzzle played out from its position).
        ``bots_join``: a bot account may take an open seat through the bot API.
        ``house``: a table the server makes itself (a tournament's round): only the server's caps apply.
        """
        if house:
            self._check_cap(len(self.rooms), self.limits.max_tables, True, "tables")
            owner = client
        else:
            owner = self._check_room_for(client, all(s["kind"] == "bot" for s in seats))
        # Online dice are committed to before the first chance event (fairplay/dice.py); a tutorial's seeded dice
        # and a challenge's are known dice, with nothing to commit to; a daily deal's key comes committed.
        committed: Commitment | None
        if dice is DICE:
            committed, dice = committed_dice(kind, rules)
        else:  # the game's own dice of these rules (Spots' keyed rules: a deal), from the generator given
            committed, dice = commitment, kind.spec.table_dice(rules, dice)
        state = kind.spec.new_state(rules)
        server_words = i18n.translator(i18n.DEFAULT)
        names = [seat_label(s["name"], s.get("bot"), i, None, server_words) for i, s in enumerate(seats)]
        moves: list[tuple[str, int]] = []
        lines: list[str] = []
        for text in opening:
            prior = state.clone()
            moves.append((text, -1 if state.is_chance_node() else state.current_player()))
            state.apply_action(text)
            lines.append(kind.spec.describe_move(prior, text, state, names, None))
        while kind.draws_chance(state):
            prior = state.clone()
            text = state.sample_chance(chance_dice(committed, dice, len(moves)))
            moves.append((text, -1))
            lines.append(kind.spec.describe_move(prior, text, state, names, None))
        clock = None
        if pace is not None:
            first = None if state.is_terminal() or state.is_chance_node() else state.current_player()
            clock = new_clock(pace, len(seats), first if first is not None and seats[first]["kind"] == "human"
                              else None, time.time()).to_json()
        try:
            row = await self.writer.run(self.store.create_table, kind.spec.name, rules.to_dict(), seats, moves, owner,
                                        clock, rated, hints and not rated, committed, min_finished, bots_join)
        except Unavailable as exc:
            raise Refused(503, "unavailable", f"the table could not be created: {exc.why}; try again later",
                          exc.retry) from None
        room = Room(self, row, state, lines)
        room.dice = dice
        self._add(room)
        room.schedule_bot()
        if room.timekeeper is not None:
            room.timekeeper.arm()
        return room

    async def table(self, table_id: str) -> Room | None:
        """A live table, or a finished one read back from the file (kept in a small cache).

        A live table not in memory was made by another server process sharing the database: it is loaded.
        """
        room = self.rooms.get(table_id) or self.archive.get(table_id)
        if room is not None or len(table_id) > 64:
            return room
        try:
            row = await self.writer.run(self.store.load_table, table_id)
        except Unavailable:
            return None
        if row is None or row.status not in ("over", "playing"):
            return None
        room = await asyncio.to_thread(self.rebuild, row)
        if row.status == "playing":
            if table_id in self.rooms:  # loaded meanwhile
                return self.rooms[table_id]
            self._add(room)
            await room.catch_up()  # moves stored while it was being rebuilt
            room.schedule_bot()
            if room.timekeeper is not None:
                await room.timekeeper.heard()
                room.timekeeper.arm()
            return room
        self.archive[table_id] = room
        while len(self.archive) > ARCHIVE:
            self.archive.popitem(last=False)
        return room

    def turn_changed(self, room: Room, before: Any) -> None:
        """After a move stored here: tell the notices whose turn began (once per turn; never for a bot)."""
        if not self.on_turn or room.state.is_terminal():
            return
        seat = room.state.current_player()
        if room.state.is_chance_node() or room.row.seats[seat].kind != "human" or seat in room.bots:
            return
        if not before.is_terminal() and not before.is_chance_node() and before.current_player() == seat:
            return  # the same player's turn goes on
        for listener in self.on_turn:
            listener(room, seat)

    def finished_game(self, room: Room, summary: dict[str, Any]) -> None:
        self.recent.appendleft(summary)
        self.finished_total += 1
        self.version += 1
        for listener in self.on_finished:
            listener(room)

    def rematched(self, table_id: str, next_table: str) -> None:
        """A finished table's lobby row points at its rematch (rematch.py)."""
        for row in self.recent:
            if row.get("id") == table_id and row.get("next") != next_table:
                row["next"] = next_table
                self.version += 1

    # -------------------------------------------------------------- seats

    async def seat_of(self, token: str) -> tuple[Room, int] | None:
        """The table and seat of an invite link, nothing changed (raises Unavailable). A link works for as long as
        its table is stored: one not in memory is a table another process made a moment ago, or a finished one
        that left memory (it opens on its end screen, from the archive)."""
        found = self.by_token.get(token)
        if found is not None:
            return self.rooms[found[0]], found[1]
        if not 16 <= len(token) <= 64:  # no link is shorter or longer: not worth a read
            return None
        table_id = await self.writer.run(self.store.table_of_link, token)
        room = None if table_id is None else await self.table(table_id)
        if room is None:
            return None
        found = self.by_token.get(token)  # a live table, just loaded
        if found is not None:
            return self.rooms[found[0]], found[1]
        seat = next((s.seat for s in room.row.seats if s.token == token), None)
        return None if seat is None else (room, seat)

    async def claim(self, token: str) -> tuple[Room, int] | None:
        """The table and seat of an invite link, marking the seat taken (raises Unavailable)."""
        found = await self.seat_of(token)
        if found is None:
            return None
        room = found[0]
        seat = room.row.seats[found[1]]
        if not seat.claimed:
            await self.writer.run(self.store.claim_seat, room.id, seat.seat, False)
            seat.claimed = True
            room.changed()
        return room, found[1]

    async def join_open(self, room: Room, seat_no: int, name: str | None) -> str | None:
        """Take an open seat from the lobby: a fresh token for the new player (raises Unavailable)."""
        seat = room.row.seats[seat_no]
        if seat.kind != "human" or not seat.open or seat.claimed:
            return None
        token = await self.writer.run(self.store.claim_seat, room.id, seat_no, True, name)
        if token is None or seat.claimed:
            return None
        if seat.token:
            self.by_token.pop(seat.token, None)
        seat.token, seat.claimed = token, True
        renamed = name is not None and name != "" and name != seat.name
        if name and renamed:
            seat.name = name
        self.by_token[token] = (room.id, seat_no)
        if renamed:
            room.renamed()
        room.changed(full=bool(name))
        return token

    # -------------------------------------------------------------- the lobby

    def lobby_changed(self, room: Room) -> None:
        """Keep the lobby index current: newest change last, each table under its status (O(1))."""
        self.version += 1
        for rooms in self.lobby.values():
            rooms.pop(room.id, None)
        status = room.status()
        if status in self.lobby and room.id in self.rooms:
            self.lobby[status][room.id] = room

    def page(self, status: str, offset: int, limit: int) -> tuple[list[dict[str, Any]] | None, int]:
        """One page of the lobby, newest first, and how many tables have that status."""
        if status == "over":  # the newest from memory; older pages: None, read them from the file
            if offset + limit <= len(self.recent) or len(self.recent) >= self.finished_total:
                return list(itertools.islice(self.recent, offset, offset + limit)), self.finished_total
            return None, self.finished_total
        rooms = self.lobby[status]
        return [r.summary() for r in itertools.islice(reversed(rooms.values()), offset, offset + limit)], len(rooms)

    # -------------------------------------------------------------- expiry

    async def _sweep_forever(self) -> None:
        while not self.closing:
            await asyncio.sleep(min(30.0, max(0.2, self.limits.expire_after / 4, self.limits.linger_after_end / 4)))
            try:
                await self.sweep()
            except Exception:
                log.exception("the table sweep failed")

    async def sweep(self, now: float | None = None) -> None:
        """Retire unfinished tables whose player to move stays away, and unload finished ones nobody looks at.

        An unclocked table waits for its player to move while their page is open (a clock is what moves a player
        who is there but does not play); once it is closed, ``expire_after`` from their last move or visit the
        table is retired, and at a rated table they count as last. Nobody else's page keeps it: a spectator's tab
        (or the winner's) once let a losing player dodge the result by never coming back."""
        now = time.time() if now is None else now
        for room in list(self.rooms.values()):
            if room.state.is_terminal():
                if not room.conns and now - room.touched > self.limits.linger_after_end:
                    self._unload(room)
                continue
            if room.timekeeper is not None:
                continue  # its clocks bring it to an end
            mover = room.kind.spec.summarize(room.state).seat
            if mover is None or mover in room.bots:  # a bot (or a resigned seat's stand-in) plays by itself
                waited_on = bool(room.conns)
            else:
                waited_on = any(c.seat == mover for c in room.conns)
            idle = now - room.awaited_since
            if waited_on or idle <= self.limits.expire_after:
                continue
            try:
                await self.writer.run(self.store.set_status, room.id, "abandoned")
            except Unavailable:
                continue  # next sweep
            log.info("table %s retired after %.0f s without its player to move", room.id, idle)
            self.ratings.finished(room, leaver=mover)  # who stopped is last
            self._unload(room)

    def _unload(self, room: Room) -> None:
        if room.timekeeper is not None:
            room.timekeeper.stop()
        self.rooms.pop(room.id, None)
        self.by_host.pop(room.row.host_token, None)
        for s in room.row.seats:
            if s.token:
                self.by_token.pop(s.token, None)
        for rooms in self.lobby.values():
            rooms.pop(room.id, None)
        if room.bot_task is not None:
            room.bot_task.cancel()
