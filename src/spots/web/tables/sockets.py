"""The WebSocket protocol: one socket per viewer, bounded per client, per table and per server.

Why the shape: a reader task handles the client's messages one at a time; a
writer task sends what the viewer is owed (its outbox, and the current state
built when it is sent), giving up on a viewer that does not take a message
within ``send_timeout`` or lets its outbox fill. The protocol is described in
``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ... import i18n
from ..accounts.service import account_of, session_token
from ..context import Context, request_lang
from ..fairplay import resign
from ..fairplay.advisor import advisor_refusal
from ..fairplay.dice import add_salt
from ..guard import client_of, kept_for_newcomers, network_of
from ..guard import socket_error as _error
from ..invitations.service import guest_refusal
from ..talk.service import TYPES as TALK_TYPES
from ..writer import Unavailable
from .rooms import STATE, Conn, MoveError, Room, Unsaid

MAX_MESSAGE = 4096  # bytes: far above any move, far below anything abusive
MESSAGE_TYPES = "move, undo, hint, sync, ping, absent, back, salt, resign, chat, watchers, host, mute, rematch"
HINT_TIMEOUT = 20.0


class Sockets:
    """How many sockets are open: per client, per network (its address block) and in all."""

    def __init__(self) -> None:
        self.per_client: Counter[str] = Counter()
        self.per_network: Counter[str] = Counter()
        self.total = 0

    def refusal(self, ctx: Context, client: str, network: str, room: Room, lang: str) -> dict[str, Any] | None:
        """The error for a socket over a limit, or None when it may open.

        The last ``newcomer_share`` of the server's sockets is kept for networks that have none open yet.
        """
        _ = i18n.translator(lang).gettext
        limits = ctx.limits
        if self.per_client[client] >= limits.sockets_per_client:
            return _error("too-many-sockets", _("you have too many connections open ({n}); close some tabs").format(
                n=self.per_client[client]))
        if self.per_network[network] >= limits.sockets_per_network:
            return _error("too-many-sockets", _(
                "your network has too many connections open ({n}); close some tabs").format(
                n=self.per_network[network]))
        if len(room.conns) >= limits.viewers_per_table:
            return _error("table-full", _("this table has as many viewers as it can take; try again later"))
        if self.total >= limits.max_sockets:
            return _error("server-full", _("the server has as many connections as it can take; try again later"))
        kept = kept_for_newcomers(limits.max_sockets, limits.newcomer_share)
        if self.total >= limits.max_sockets - kept and self.per_network[network]:
            return _error("server-full", _("the server is nearly full: its last {n} connections are kept for"
                                           " visitors who have none open; close another tab first").format(n=kept))
        return None

    def opened(self, client: str, network: str) -> None:
        self.per_client[client] += 1
        self.per_network[network] += 1
        self.total += 1

    def closed(self, client: str, network: str) -> None:
        for counter, key in ((self.per_client, client), (self.per_network, network)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
        self.total -= 1


class SocketServer:
    """The ``/ws/<table>`` endpoint on ``ctx``'s tables."""

    def __init__(self, ctx: Context) -> None:
        self.ctx, self.hub = ctx, ctx.hub
        self.sockets = Sockets()

    async def refuse(self, ws: WebSocket, message: dict[str, Any], code: int) -> None:
        await ws.send_json(message)
        await ws.close(code=code)

    async def socket(self, ws: WebSocket, table_id: str, token: str = "") -> None:
        await ws.accept()
        lang = request_lang(ws)
        _ = i18n.translator(lang).gettext
        room = await self.hub.table(table_id)
        if room is None:
            await self.refuse(ws, _error("unknown-table", f"there is no table {table_id!r}"), 4404)
            return
        client = client_of(ws)
        network = network_of(client, self.ctx.limits.ipv4_prefix, self.ctx.limits.ipv6_prefix)
        refusal = self.sockets.refusal(self.ctx, client, network, room, lang)
        if refusal is not None:
            await self.refuse(ws, refusal, 4429)
            return
        seat: int | None = None
        if token:
            try:
                found = await self.hub.seat_of(token)
                kept = None if found is None else await guest_refusal(self.ctx, account_of(ws), *found, _)
                if kept is not None:  # an invited seat of a rated table: not for a guest
                    await self.refuse(ws, _error("sign-in-to-play", kept), 4403)
                    return
                found = await self.hub.claim(token)
            except Unavailable as exc:
                await self.refuse(ws, _error("server-busy", _(
                    "the server could not record your seat just now; try again in a few seconds"),
                    retry_after=exc.retry), 1013)
                return
            if found is None or found[0] is not room:
                await self.refuse(ws, _error("bad-token", "this seat link is not valid for this table"), 4403)
                return
            seat = found[1]
            bound = self.ctx.accounts.seat_refusal(account_of(ws), room, seat, _) if self.ctx.accounts else None
            if bound is not None:  # a seat of an account: its link alone is not enough
                await self.refuse(ws, _error("not-your-seat", bound), 4403)
                return
        conn = Conn(seat, lang, client, self.ctx.limits.queue)
        watched = self._watch(ws, conn)
        self.sockets.opened(client, network)
        try:
            await self.serve(ws, room, conn)
        finally:
            self.sockets.closed(client, network)
            if watched is not None and self.ctx.accounts:
                self.ctx.accounts.unwatch(watched)

    def _watch(self, ws: WebSocket, conn: Conn) -> object | None:
        """A socket opened signed in acts only while its session lasts: hung up when it ends in this process,
        and re-checked before each act (an end on another process, or the account disabled)."""
        me, token = account_of(ws), session_token(ws)
        if me is None or not token or self.ctx.accounts is None:
            return None
        conn.session, conn.account = token, me.id
        return self.ctx.accounts.watch(token, me.id, lambda: conn.hang_up(self._signed_out(conn)))

    @staticmethod
    def _signed_out(conn: Conn) -> str:
        _ = i18n.translator(conn.lang).gettext
        return json.dumps(_error("signed-out", _("You were signed out, so this connection is closed; sign in again"
                                                 " to go on.")))

    async def _still_signed_in(self, conn: Conn) -> bool:
        if conn.session is None or conn.account is None or self.ctx.accounts is None:
            return True
        try:
            return await self.ctx.accounts.still_signed_in(conn.session, conn.account)
        except Unavailable:
            return True  # the store cannot answer now: the act itself will meet the same store

    async def serve(self, ws: WebSocket, room: Room, conn: Conn) -> None:
        """Read one viewer's messages until it leaves (or is dropped); its writer runs beside."""
        writer = asyncio.get_running_loop().create_task(self._writer(ws, room, conn))
        conn.send(json.dumps({"type": "hello", "table": room.id, "seat": conn.seat,
                              "role": "player" if conn.seat is not None else "spectator",
                              "name": None if conn.seat is None else room.names_in(conn.lang)[conn.seat]}))
        try:  # joined inside: a socket closed while its talk is being set up (a store read) still leaves the room
            room.join(conn)
            await self.hub.talk.joined(room, conn)
            while not conn.dropped:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    size = len(message.get("bytes") or b"")
                else:
                    size = len(text.encode("utf-8", "surrogatepass")) if len(text) * 4 > MAX_MESSAGE else len(text)
                reply = await self._handle(room, conn, text, size)
                if reply is not None:
                    await conn.make_room(self.ctx.limits.send_timeout)
                    conn.send(json.dumps(reply))
        except WebSocketDisconnect:
            pass
        finally:
            room.leave(conn)
            self.hub.talk.left(conn)
            conn.close()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(writer, 1.0)
            writer.cancel()

    async def _writer(self, ws: WebSocket, room: Room, conn: Conn) -> None:
        """Send what one viewer is owed; drop it (close 1008) when it stops taking messages."""
        timeout = self.ctx.limits.send_timeout
        try:
            while not conn.closed:
                await conn.wake.wait()
                conn.wake.clear()
                while conn.outbox and not conn.dropped:
                    text = conn.outbox.popleft()
                    if text is STATE:
                        conn.state_due = False
                        text = room.state_message(conn)
                    async with asyncio.timeout(timeout):  # (no task per message, as wait_for would make)
                        await ws.send_text(text)
                conn.drained.set()
                if conn.dropped or conn.hung_up:
                    break
        except Exception:
            conn.dropped = True
        if conn.dropped or conn.hung_up:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=1008 if conn.dropped else 4401), 1.0)

    async def _handle(self, room: Room, conn: Conn, text: str | None, size: int) -> dict[str, Any] | None:
        """One client message: a reply for the sender (an error, a hint), or None."""
        _ = i18n.translator(conn.lang).gettext
        arrived = time.monotonic()
        rate = self.ctx.limits.message_rate
        if not conn.allow(rate, self.ctx.limits.message_burst):
            return _error("rate-limited", _("too many messages: at most {rate} a second; this one was ignored").format(
                rate=f"{rate:g}"))
        if size > MAX_MESSAGE:
            return _error("too-large", _("messages are limited to {limit} bytes; this one had {size}").format(
                limit=MAX_MESSAGE, size=size))
        if text is None:
            return _error("bad-message", _("send text frames holding JSON objects"))
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            return _error("bad-json", _("the message is not valid JSON"))
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return _error("bad-message",
                          _("a message is a JSON object with a 'type': 'move', 'undo', 'hint', 'sync' or 'ping'"))
        kind = msg["type"]
        if kind == "ping":
            return {"type": "pong"}
        if kind == "sync":
            conn.state_changed(full=True)
            return None
        if conn.hung_up:
            return None
        if not await self._still_signed_in(conn):
            conn.hang_up(self._signed_out(conn))
            return None
        if kind in TALK_TYPES:
            return await self.hub.talk.handle(room, conn, msg)
        if kind not in ("move", "undo", "hint", "absent", "back", "salt", "resign"):
            return _error("bad-message", _("unknown message type {kind}; the types are {types}").format(
                kind=repr(kind), types=MESSAGE_TYPES))  # the protocol's words, never translated
        if conn.seat is None:
            return _error("spectator", _("spectators cannot act; open a seat's invite link to play"))
        claimed = msg.get("seat", conn.seat)
        if claimed != conn.seat:
            return _error("wrong-seat", _("this connection plays seat {seat}; it cannot act for seat {claimed}").format(
                seat=conn.seat, claimed=repr(claimed)))
        if conn.seat in room.row.resigned_seats():  # a resignation is final: a stand-in plays the seat
            return _error("resigned", _(resign.RESIGNED))
        if kind == "resign":
            return await resign.resign(room, conn.seat, conn.lang)
        if kind == "hint":
            return await self._hint(room, conn)
        if kind == "salt":
            return await add_salt(room, conn, msg.get("salt"))
        if kind in ("absent", "back") or (room.timekeeper is not None and room.timekeeper.stood_in(conn.seat)):
            return await self._absence(room, conn, msg)
        at = msg.get("at", Unsaid(arrived, conn.first_seen))
        if not isinstance(at, (int, Unsaid)) or isinstance(at, bool):
            return _error("bad-message", _("'at' must be the number of moves you have seen"))
        if kind == "undo":
            return await self._undo(room, conn, at)
        try:
            index, canonical = await room.submit(msg.get("move"), conn.seat, at, conn.lang)
        except MoveError as exc:
            extra: dict[str, Any] = {"legal": exc.legal} if exc.legal is not None else {}
            if exc.retry is not None:
                extra["retry_after"] = exc.retry
            move = msg.get("move") if isinstance(msg.get("move"), str) else None
            return _error(exc.code, exc.message, move=move, **extra)
        return {"type": "ok", "move": canonical, "index": index, "moves": len(room.log)}

    async def _undo(self, room: Room, conn: Conn, at: int | Unsaid) -> dict[str, Any]:
        """Take back the sender's last move when the game's rule allows it (``web/takeback.py``)."""
        assert conn.seat is not None
        try:
            moves = await room.undo(conn.seat, at, conn.lang)
        except MoveError as exc:
            extra: dict[str, Any] = {} if exc.retry is None else {"retry_after": exc.retry}
            return _error(exc.code, exc.message, **extra)
        return {"type": "undone", "moves": moves}

    async def _absence(self, room: Room, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        """A seat out of time: the others' choice (``absent``), its player's return (``back``), or a move of
        theirs while a stand-in plays (refused: they say ``back`` first)."""
        _ = i18n.translator(conn.lang).gettext
        keeper = room.timekeeper
        seat = conn.seat
        assert seat is not None
        if keeper is None:
            return _error("no-clock", _("this table has no clock"))
        if msg["type"] == "back":
            await keeper.back(seat)
            return None
        if msg["type"] in ("move", "undo"):
            return _error("stood-in", _("your time ran out and someone plays for you; take your seat back first"))
        refused = await keeper.choose(seat, msg.get("for"), msg.get("choice"), conn.lang)
        return None if refused is None else _error("bad-choice", refused)

    async def _hint(self, room: Room, conn: Conn) -> dict[str, Any]:
        """The advisor's ranking: one computation per position and language, within the hint limits."""
        tr = i18n.translator(conn.lang)
        _ = tr.gettext
        state = room.state
        refusal = advisor_refusal(room.row)
        if refusal is not None and not state.is_terminal():  # every seat alike, the asker's turn or not
            return _error(refusal.code, _(refusal.message))
        if state.is_terminal() or conn.seat not in (state.current_player(), *room.kind.web.racers(state)):
            return _error("not-your-turn", _("hints are given on your own turn"))
        key = (room.id, len(room.log), i18n.resolve(conn.lang))
        advice = self.ctx.hint_cache.get(key)
        if advice is None:
            wait = self.ctx.hints.take(conn.client) or self.ctx.hints_server.take("server")
            if wait:
                n = max(1, round(wait))
                return _error("hint-limit", tr.ngettext("hints take a lot of thinking: try again in {n} second",
                                                        "hints take a lot of thinking: try again in {n} seconds",
                                                        n).format(n=n), retry_after=n)
            try:
                names = room.names_in(conn.lang)
                advice = await asyncio.wait_for(
                    self.hub.workers.hint(room.kind.spec.name, state.clone(), names, conn.lang), HINT_TIMEOUT)
            except TimeoutError:
                return _error("hint-timeout", _("the advisor took too long"))
            if len(self.ctx.hint_cache) > 1024:
                self.ctx.hint_cache.clear()
            self.ctx.hint_cache[key] = advice
        return {"type": "hint", "moves": len(room.log), "advice": advice}


def routes(ctx: Context) -> APIRouter:
    """The ``/ws/<table>`` route on ``ctx``'s tables."""
    router = APIRouter()
    router.add_api_websocket_route("/ws/{table_id}", SocketServer(ctx).socket)
    return router
