"""Table talk: chat among a table's players, and among its spectators, over the table's WebSocket.

Why two channels: the players talk to each other and everyone may read them; the
spectators talk among themselves, and a player sees that only after turning it on
(it may spoil a plan, or just be noise). Every line is stored with the table (so a
replay shows it) before anyone hears it, and announced to the other server
processes like a move (``c`` notifications). A line is refused, and nothing stored,
when it is empty, too long, sent too fast (a token bucket per sender and table) or
its sender was muted by the table's creator (who proves it with the host link's
secret). Quick phrases are stored by key and shown in each reader's language.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ... import i18n
from ...i18n import N_
from ..guard import Buckets, Refused, check_text, without_format
from ..guard import socket_error as _error
from ..writer import Unavailable
from .chatlog import ChatLog

if TYPE_CHECKING:
    from ..tables.hub import Hub
    from ..tables.rooms import Conn, Room

PHRASES = {  # key -> English (translated where shown)
    "hello": N_("Hello!"), "good-luck": N_("Good luck!"), "well-played": N_("Well played!"), "oops": N_("Oops!"),
    "thanks": N_("Thanks!"), "good-game": N_("Good game!"), "thinking": N_("Let me think…"),
}
CHANNELS = ("players", "watchers")
CHAT_BURST = 5  # lines one sender may send at once before the per-minute rate applies
KEPT = 500  # chat tables kept in memory (the live ones and the recently read; the rest are read again)
TYPES = ("talk", "chat", "watchers", "host", "mute", "rematch")


@dataclass(eq=False)
class Peer:
    """What table talk knows of one connection: who it speaks as, and what it may see and do."""

    author: str  # 'seat:N' for a player, 'watcher:<hash>' for a spectator: the key a mute names
    name: str
    host: bool = False  # showed the table's host secret: may mute
    listening: bool = False  # asked for table talk (any talk message): only then is it sent any
    watchers_on: bool = False  # a player who turned the spectators' chat on
    account: str | None = None  # the signed-in viewer's account ...
    blocked: frozenset[str] = frozenset()  # ... and the accounts it blocks: their players' lines never reach it


@dataclass
class TableTalk:
    lines: list[dict[str, Any]] = field(default_factory=list)
    mutes: set[str] = field(default_factory=set)


def spectator_key(client: str, table_id: str) -> str:
    """A spectator's author key: a hash of its address and the table (the same person, not the address)."""
    return "watcher:" + hashlib.sha256(f"{table_id} {client}".encode()).hexdigest()[:8]


class Talk:
    """The chat of every table this process serves (and the entry for rematch messages)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.tables: dict[str, TableTalk] = {}
        self.peers: dict[Conn, Peer] = {}
        limits = hub.limits
        self.buckets = Buckets(limits.chat_per_minute / 60, CHAT_BURST)
        self.log = ChatLog(hub.store)  # the lines' own writer (chatlog.py): moves never wait behind talk

    def close(self) -> None:
        self.log.close()

    # -------------------------------------------------------------- viewers

    async def of(self, table_id: str) -> TableTalk:
        """A table's chat and mutes, read from the store the first time."""
        talk = self.tables.get(table_id)
        if talk is None:
            lines, mutes = await self.log.read(table_id)
            talk = self.tables.setdefault(table_id, TableTalk(lines, mutes))
            while len(self.tables) > KEPT:
                oldest = next(iter(self.tables))
                if oldest == table_id:
                    break
                del self.tables[oldest]
        return talk

    async def joined(self, room: Room, conn: Conn) -> None:
        """A new viewer: its speaker key. It hears table talk once it asks (``talk``), so a client that never
        does (a bot, a script) gets exactly the messages it got before there was talk."""
        if conn.seat is not None:
            # the seat's own name; none for a seat nobody named, which each reader's page labels in its words
            peer = Peer(f"seat:{conn.seat}", room.row.seats[conn.seat].name)
        else:
            author = spectator_key(conn.client, room.id)
            peer = Peer(author, author.split(":")[1][:4])
        if conn.account is not None:
            peer.account = conn.account
            with contextlib.suppress(Unavailable):  # (else read again when the viewer blocks or unblocks someone)
                peer.blocked = frozenset(await self.hub.writer.run(self.hub.store.blocked_by, conn.account))
        self.peers[conn] = peer

    def listens(self, conn: Conn) -> bool:
        peer = self.peers.get(conn)
        return peer is not None and peer.listening

    def left(self, conn: Conn) -> None:
        self.peers.pop(conn, None)

    def send_history(self, room: Room, conn: Conn) -> None:
        peer = self.peers.get(conn)
        talk = self.tables.get(room.id)
        if peer is None or talk is None:
            return
        lines = [self.shown(line, conn.lang) for line in talk.lines if self.sees(room, conn, peer, line)]
        conn.send(json.dumps({"type": "chat-history", "lines": lines, "author": peer.author,
                              "watchers": peer.watchers_on, "host": peer.host, "muted": sorted(talk.mutes)}))

    @staticmethod
    def sees(room: Room, conn: Conn, peer: Peer, line: dict[str, Any]) -> bool:
        """Everyone reads the players; the spectators' lines reach spectators and players who turned them on. A
        player's lines never reach a viewer whose account blocks the seat's account (fairplay/reports.py)."""
        seat = line.get("seat")
        if peer.blocked and isinstance(seat, int) and 0 <= seat < len(room.row.seats) \
                and room.row.seats[seat].account in peer.blocked:
            return False
        return line["channel"] == "players" or conn.seat is None or peer.watchers_on

    @staticmethod
    def shown(line: dict[str, Any], lang: str) -> dict[str, Any]:
        """A line as one reader gets it: a quick phrase in the reader's language."""
        if line.get("phrase") in PHRASES:
            return {**line, "text": i18n.translator(lang).gettext(PHRASES[line["phrase"]])}
        return line

    def tell(self, room: Room, line: dict[str, Any]) -> None:
        """Send a new line to every viewer here that may see it."""
        for conn in list(room.conns):
            peer = self.peers.get(conn)
            if peer is not None and peer.listening and self.sees(room, conn, peer, line):
                conn.send(json.dumps({"type": "chat", "line": self.shown(line, conn.lang)}))

    # -------------------------------------------------------------- messages

    async def handle(self, room: Room, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        """One table-talk message (``chat``, ``watchers``, ``host``, ``mute``) or a ``rematch``."""
        peer = self.peers.get(conn)
        _ = i18n.translator(conn.lang).gettext
        if peer is None:
            return _error("server-busy", _("the table talk is not ready yet; try again in a moment"))
        kind = msg["type"]
        if not peer.listening or kind == "talk":  # the talk so far (and the rematch, if any), then each new line
            peer.listening = True
            try:
                await self.of(room.id)
            except Unavailable as exc:
                return _error("server-error", _("the table talk could not be read; try again"), retry_after=exc.retry)
            self.send_history(room, conn)
            await self.hub.rematch.joined(room, conn)
            await self.hub.ratings.joined(room, conn)
            if kind == "talk":
                return None
        if kind == "rematch":
            return await self.hub.rematch.accept(room, conn, msg)
        if kind == "watchers":
            if not isinstance(msg.get("on"), bool):
                return _error("bad-message", _("'on' must be true or false"))
            peer.watchers_on = msg["on"]
            self.send_history(room, conn)
            return None
        if kind == "host":
            given = msg.get("token")
            if not isinstance(given, str) or not secrets.compare_digest(given, room.row.host_token):
                return _error("bad-host", _("this is not the host link's secret of this table"))
            peer.host = True
            self.send_history(room, conn)
            return None
        if kind == "mute":
            return await self._mute(room, peer, msg, _)
        return await self._chat(room, conn, peer, msg, _)

    async def _chat(self, room: Room, conn: Conn, peer: Peer, msg: dict[str, Any], _: Any) -> dict[str, Any] | None:
        talk = await self.of(room.id)
        phrase = msg.get("phrase")
        limit = self.hub.limits.chat_length
        if phrase is not None:
            if phrase not in PHRASES:
                return _error("bad-phrase", _("unknown quick phrase {phrase}; the phrases are {phrases}").format(
                    phrase=repr(phrase), phrases=", ".join(PHRASES)))
            text = PHRASES[phrase]
        else:
            raw = msg.get("text")
            if not isinstance(raw, str):
                return _error("bad-message", _("a chat message has a 'text' (or a quick 'phrase')"))
            try:
                text = without_format(check_text(raw.replace("\n", " ").replace("\t", " "), "chat"))
                text = re.sub(r"\s+", " ", text).strip()
            except Refused:
                return _error("bad-text", _("the message holds characters that cannot be shown"))
            if not text:
                return _error("empty-chat", _("the message is empty"))
            if len(text) > limit:
                return _error("chat-too-long", _("chat messages are limited to {limit} characters; this one had"
                                                 " {n}").format(limit=limit, n=len(text)))
        if peer.author in talk.mutes:
            return _error("muted", _("the table's creator has muted you; your messages are not shown"))
        wait = self.buckets.take(f"{room.id} {peer.author}")
        if wait:
            n = max(1, round(wait))
            return _error("chat-rate", _("you are sending messages too fast: wait {n} s; this one was not"
                                         " sent").format(n=n), retry_after=n)
        line = {"moves": len(room.log), "channel": "players" if conn.seat is not None else "watchers",
                "seat": conn.seat, "author": peer.author, "name": peer.name,
                "phrase": phrase, "text": text}
        try:
            stored = await self.log.add(room.id, line)
        except Unavailable as exc:
            return _error("server-error", _("the message could not be saved; try again"), retry_after=exc.retry)
        talk.lines.append(stored)
        self.tell(room, stored)
        return None

    async def _mute(self, room: Room, peer: Peer, msg: dict[str, Any], _: Any) -> dict[str, Any] | None:
        if not peer.host:
            return _error("not-host", _("only the table's creator (with the host link) can mute someone"))
        author, on = msg.get("author"), msg.get("on", True)
        talk = await self.of(room.id)
        speakers = {line["author"] for line in talk.lines} | {f"seat:{s.seat}" for s in room.row.seats}
        if not isinstance(author, str) or author not in speakers or not isinstance(on, bool):
            return _error("bad-message", _("'author' must name someone at this table and 'on' be true or false"))
        try:
            await self.hub.writer.run(self.hub.store.set_mute, room.id, author, on)
        except Unavailable as exc:
            return _error("server-error", _("the change could not be saved; try again"), retry_after=exc.retry)
        (talk.mutes.add if on else talk.mutes.discard)(author)
        self.tell_mutes(room)
        return None

    async def blocks_changed(self, account: str) -> None:
        """An account blocked or unblocked someone: its open pages here read the table talk again without (or
        with) the other's lines."""
        blocked = frozenset(await self.hub.writer.run(self.hub.store.blocked_by, account))
        for conn, peer in list(self.peers.items()):
            if peer.account != account:
                continue
            peer.blocked = blocked
            rooms = [*self.hub.rooms.values(), *self.hub.archive.values()]
            room = next((r for r in rooms if conn in r.conns), None)
            if room is not None and peer.listening:
                self.send_history(room, conn)

    def tell_mutes(self, room: Room) -> None:
        talk = self.tables.get(room.id)
        if talk is None:
            return
        for conn in list(room.conns):
            if self.listens(conn):
                conn.send(json.dumps({"type": "muted", "muted": sorted(talk.mutes)}))

    # -------------------------------------------------------------- other server processes

    async def heard(self, change: str) -> None:
        """Another process's chat line (``c``), mutes (``k``), rematch (``r``) or ratings (``g``)."""
        kind, _, rest = change.partition(" ")
        table_id, _, extra = rest.partition(" ")
        room = self.hub.rooms.get(table_id) or self.hub.archive.get(table_id)
        if kind == "g":
            await self.hub.ratings.heard(table_id, room)
            return
        if room is None:
            self.tables.pop(table_id, None)  # read again when someone opens it
            return
        if kind == "r":
            await self.hub.rematch.heard(room)
            return
        held = self.tables.get(table_id)
        if held is None and not room.conns:
            return  # nobody here has read it: it is read whole when someone does
        talk = await self.of(table_id)  # (read again after a gap: then it holds the new line already)
        if kind == "c":
            line = json.loads(extra)
            new = all(line["id"] != old["id"] for old in talk.lines)
            if new:
                talk.lines.append(line)
            if new or held is None:
                self.tell(room, line)
        elif kind == "k":
            talk.mutes = await self.log.mutes(table_id)
            self.tell_mutes(room)

    def resync(self) -> None:
        """After a gap in hearing the others: forget what may be stale (it is read again on need)."""
        self.tables.clear()

    def replay_lines(self, lines: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
        """A finished table's chat for its replay: both channels, phrases in the reader's language."""
        return [{k: v for k, v in self.shown(line, lang).items() if k != "author"} for line in lines]
