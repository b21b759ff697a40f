"""The bot API's one connection, ``/api/bot``: a bot's program hears its challenges, its games and every position
there, and answers with moves in the game's notation (the protocol, with examples: docs/bot-api.md).

Why one WebSocket and not a socket per table: a program that plays many games at once keeps one connection, as
lichess's bots keep one event stream. Underneath, the bot sits at each of its tables as a viewer of its seat (a
``Conn``, exactly as a person's page): the same moves checked by the same rules, the same clocks, the same errors.
What it is sent is made for programs: the moves so far in notation (a program rebuilds the position with the
engine), the legal moves when it is to move, and the clocks.

Who may connect: an account that is a bot (``BotStore``), by its API token in ``Authorization: Bearer``; one
connection per bot; at most ``Limits.bot_games`` live games at once and ``bot_message_rate`` messages a second (a
quick bot answers every position at once). New invitations and games are read from the store every ``POLL_S``
(another server process may have made them), and so is the token: a token replaced, or an account disabled,
closes the connection at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from ..accounts.service import hash_secret
from ..context import Context
from ..fairplay import resign
from ..games import hosted
from ..guard import Bucket, client_of
from ..guard import socket_error as error
from ..invitations.service import NotAccepted, accept, decline
from ..ratings.service import ShortOfMinimum, shown
from ..tables.rooms import STATE, Conn, MoveError, Room
from ..writer import Unavailable
from .store import BotRow, ladder_pool

POLL_S = 1.0
OUTBOX = 256  # messages queued for a program that does not read them: past this it is dropped
LANG = "en"  # messages and errors for programs are in English
TYPES = "ping, accept, decline, join, move, resign, back, ladder"


@dataclass
class Game:
    """One table the bot sits at: its seat's viewer, and how much of the record the program has been sent."""

    room: Room
    seat: int
    conn: Conn
    sent: int = 0
    task: asyncio.Task[None] | None = None


@dataclass
class Link:
    """One bot's open connection."""

    ws: WebSocket
    bot: BotRow
    token_hash: str
    bucket: Bucket
    games: dict[str, Game] = field(default_factory=dict)
    told: set[tuple[str, int]] = field(default_factory=set)  # invitations already sent as challenges
    ladders: list[str] = field(default_factory=list)  # the games whose ladder it entered
    outbox: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    closing: str | None = None  # why the server is closing it (sent before the close)

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.outbox.put_nowait(json.dumps(message))
        except asyncio.QueueFull:
            self.close("dropped")

    def close(self, why: str) -> None:
        """Close after what is queued (a program that stopped reading is closed at once)."""
        self.closing = self.closing or why
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait("")  # wakes the writer


class BotStreams:
    """The ``/api/bot`` endpoint: the open bot connections of this process."""

    def __init__(self, ctx: Context) -> None:
        self.ctx, self.hub = ctx, ctx.hub
        self.open: dict[str, Link] = {}

    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        header = ws.headers.get("authorization", "")
        token = header[7:].strip() if header[:7].lower() == "bearer " else ""
        token_hash = hash_secret(token)
        try:
            bot = await self.hub.writer.run(self.hub.store.bot_of_token, token_hash) if token else None
        except Unavailable as exc:
            await self._refuse(ws, error("server-busy", f"{exc.why}; try again shortly", retry_after=exc.retry), 1013)
            return
        if bot is None:
            await self._refuse(ws, error("not-a-bot", "this connection is for bot accounts: send 'Authorization:"
                                         " Bearer <token>' with the API token of a bot account (docs/bot-api.md)"),
                               4401)
            return
        if bot.account.disabled:
            await self._refuse(ws, error("disabled", f"the bot account {bot.account.name} is disabled"), 4403)
            return
        if bot.account.id in self.open:
            await self._refuse(ws, error("already-connected", f"{bot.account.name} is connected already; one"
                                         " connection per bot (close the other first)"), 4409)
            return
        limits = self.ctx.limits
        link = Link(ws, bot, token_hash, Bucket(limits.bot_message_rate, 2 * limits.bot_message_rate))
        self.open[bot.account.id] = link
        try:
            await self._serve(link, client_of(ws))
        finally:
            self.open.pop(bot.account.id, None)
            for game in list(link.games.values()):
                self._unfollow(link, game)

    def seated(self, room: Room) -> None:
        """A table was made with seats of bots connected here (a ladder game): they sit at once, not at the next
        look, as their clocks already run."""
        for seat in room.row.seats:
            link = self.open.get(seat.account or "")
            if link is not None and room.id not in link.games:
                self._follow(link, room, seat.seat, client_of(link.ws))

    @staticmethod
    async def _refuse(ws: WebSocket, message: dict[str, Any], code: int) -> None:
        await ws.send_json(message)
        await ws.close(code=code)

    async def _serve(self, link: Link, client: str) -> None:
        loop = asyncio.get_running_loop()
        writer = loop.create_task(self._writer(link))
        watcher = loop.create_task(self._watch(link, client))
        link.send({"type": "hello", "bot": link.bot.account.name, "max_games": self.ctx.limits.bot_games,
                   "types": TYPES})
        try:
            while link.closing is None:
                message = await link.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                reply = await self._handle(link, message.get("text"))
                if reply is not None:
                    link.send(reply)
        except WebSocketDisconnect:
            pass
        finally:
            watcher.cancel()
            link.close("gone")
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(writer, 1.0)
            writer.cancel()

    async def _writer(self, link: Link) -> None:
        """Send what the program is owed, in order; close the connection once the server has said why it closes."""
        timeout = self.ctx.limits.send_timeout
        with contextlib.suppress(Exception):
            while True:
                text = await link.outbox.get()
                if text:
                    await asyncio.wait_for(link.ws.send_text(text), timeout)
                if link.closing is not None and link.outbox.empty():
                    break
        with contextlib.suppress(Exception):
            await asyncio.wait_for(link.ws.close(code=4401 if link.closing == "signed-out" else 1000), 1.0)

    # -------------------------------------------------------------- what the bot is told

    async def _watch(self, link: Link, client: str) -> None:
        """Every ``POLL_S``: the token still this bot's and the account enabled; new challenges; new games."""
        while link.closing is None:
            with contextlib.suppress(Unavailable):  # the store cannot answer now: look again next time
                await self._look(link, client)
            await asyncio.sleep(POLL_S)

    async def _look(self, link: Link, client: str) -> None:
        store, me = self.hub.store, link.bot.account
        still = await self.hub.writer.run(store.bot_of_token, link.token_hash)
        if still is None or still.account.disabled:
            link.send(error("signed-out", "this bot's token was replaced or its account disabled; connection"
                            " closed"))
            link.close("signed-out")
            return
        if link.ladders:  # it is here: it may be paired (ladder.py)
            link.ladders = await self.hub.writer.run(store.ladder_seen, me.id, time.time())
        for invitation in await self.hub.writer.run(store.invitations_of, me.id):
            key = (invitation.table_id, invitation.seat)
            if key not in link.told:
                link.told.add(key)
                link.send(await self._challenge(invitation.table_id, invitation.seat, invitation.inviter_name))
        for seat in await self.hub.writer.run(store.tables_of, me.id, ("playing",)):
            if seat.table_id not in link.games and len(link.games) < self.ctx.limits.bot_games:
                room = await self.hub.table(seat.table_id)
                if room is not None and not room.state.is_terminal():
                    self._follow(link, room, seat.seat, client)

    async def _challenge(self, table_id: str, seat: int, inviter: str | None) -> dict[str, Any]:
        room = await self.hub.table(table_id)
        message: dict[str, Any] = {"type": "challenge", "table": table_id, "seat": seat, "from": inviter}
        if room is not None:
            message.update(game=room.kind.spec.name, rules=room.row.rules, rated=room.row.rated,
                           players=room.names_in(LANG), clock=None if room.timekeeper is None
                           else room.timekeeper.clock.pace.profile)
        return message

    def _follow(self, link: Link, room: Room, seat: int, client: str) -> None:
        """Sit at a table as its seat's viewer: the program is told the game, then every position."""
        conn = Conn(seat, LANG, client, self.ctx.limits.queue)
        game = Game(room, seat, conn)
        link.games[room.id] = game
        link.send({"type": "game", "table": room.id, "seat": seat, "game": room.kind.spec.name,
                   "rules": room.row.rules, "rated": room.row.rated, "players": room.names_in(LANG)})
        room.join(conn)
        game.task = asyncio.get_running_loop().create_task(self._relay(link, game))

    def _unfollow(self, link: Link, game: Game) -> None:
        link.games.pop(game.room.id, None)
        game.room.leave(game.conn)
        game.conn.close()
        if game.task is not None and game.task is not asyncio.current_task():
            game.task.cancel()

    async def _relay(self, link: Link, game: Game) -> None:
        """Turn the table's "you are owed a state" into the program's state message; leave the table when it ends
        (other messages of the table, such as its chat, are for people's pages)."""
        conn = game.conn
        while not conn.closed and link.closing is None:
            await conn.wake.wait()
            conn.wake.clear()
            owed = STATE in conn.outbox
            conn.outbox.clear()
            if owed:
                conn.state_due = False
                link.send(state_message(game))
            if game.room.state.is_terminal() or conn.dropped:
                self._unfollow(link, game)
                return

    # -------------------------------------------------------------- what the bot says

    async def _handle(self, link: Link, text: str | None) -> dict[str, Any] | None:
        limits = self.ctx.limits
        if link.bucket.take():
            return error("rate-limited", f"too many messages: at most {limits.bot_message_rate:g} a second; this one"
                         " was ignored")
        if text is None or len(text) > 4096:
            return error("bad-message", "send text frames of at most 4096 bytes, each one JSON object")
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            return error("bad-json", "the message is not valid JSON")
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "ping":
            return {"type": "pong"}
        if kind in ("accept", "decline"):
            return await self._answer(link, msg, kind == "accept")
        if kind == "ladder":
            return await self._ladder(link, msg)
        if kind == "join":
            return await self._join(link, msg.get("table"))
        if kind in ("move", "resign", "back"):
            game = link.games.get(msg.get("table")) if isinstance(msg.get("table"), str) else None
            if game is None:
                return error("unknown-table", f"you play no live game at table {msg.get('table')!r}; your games:"
                             f" {', '.join(link.games) or 'none'}", table=msg.get("table"))
            return await self._act(game, msg)
        return error("bad-message", f"unknown message type {kind!r}; the types are {TYPES}")

    async def _answer(self, link: Link, msg: dict[str, Any], yes: bool) -> dict[str, Any]:
        table, seat = msg.get("table"), msg.get("seat")
        if not isinstance(table, str) or not isinstance(seat, int) or isinstance(seat, bool):
            return error("bad-message", "an answer names the challenge's 'table' (text) and 'seat' (a number)")
        most = self.ctx.limits.bot_games
        if yes and len(link.games) >= most:
            return error("too-many-games", f"a bot plays at most {most} games at once; finish one first",
                         table=table)
        try:
            if not yes:
                await decline(self.ctx, link.bot.account, table, seat, lambda s: s)
                return {"type": "declined", "table": table, "seat": seat}
            await accept(self.ctx, link.bot.account, table, seat, lambda s: s)
        except NotAccepted as exc:
            return error(exc.code, exc.message, table=table)
        except Unavailable as exc:
            return error("server-busy", f"{exc.why}; try again shortly", retry_after=exc.retry, table=table)
        room = await self.hub.table(table)
        if room is not None and table not in link.games:
            self._follow(link, room, seat, client_of(link.ws))
        return {"type": "accepted", "table": table, "seat": seat}

    async def _join(self, link: Link, table: Any) -> dict[str, Any]:
        """Take an open seat of a table whose creator lets bots join (the lobby lists it with ``bots_join``)."""
        room = await self.hub.table(table) if isinstance(table, str) else None
        if room is None or room.state.is_terminal():
            return error("unknown-table", f"there is no unfinished table {table!r}", table=table)
        if not room.row.bots_join:
            return error("bots-not-allowed", f"the creator of table {room.id} did not let bots take its seats",
                         table=room.id)
        me = link.bot.account
        if any(s.account == me.id for s in room.row.seats):
            return error("already-seated", f"{me.name} sits at table {room.id} already", table=room.id)
        if len(link.games) >= self.ctx.limits.bot_games:
            return error("too-many-games", f"a bot plays at most {self.ctx.limits.bot_games} games at once; finish"
                         " one first", table=room.id)
        seat = next((s.seat for s in room.row.seats if s.kind == "human" and s.open and not s.claimed), None)
        try:
            await self.hub.ratings.check_minimum(me.id, room.row.min_finished)  # before the seat is taken
            if seat is None or await self.hub.join_open(room, seat, me.name) is None:
                return error("no-open-seat", f"table {room.id} has no open seat now", table=room.id)
            assert self.ctx.accounts is not None
            await self.ctx.accounts.bind(room, seat, me)
        except ShortOfMinimum as exc:
            return error("short-of-minimum", exc.words(lambda s: s), table=room.id)
        except Unavailable as exc:
            return error("server-busy", f"{exc.why}; try again shortly", retry_after=exc.retry, table=room.id)
        self._follow(link, room, seat, client_of(link.ws))
        return {"type": "joined", "table": room.id, "seat": seat}

    async def _ladder(self, link: Link, msg: dict[str, Any]) -> dict[str, Any]:
        """Enter the ladder of a game (``"join": true``) or leave it; while its program is connected, the bot is
        paired with the ladder's other bots (ladder.py)."""
        game, join = msg.get("game"), msg.get("join", True)
        if game not in hosted() or not isinstance(join, bool):
            return error("bad-message", f"a ladder message names a 'game' ({', '.join(hosted())}) and 'join':"
                         " true or false")
        store, me = self.hub.store, link.bot.account.id
        try:
            if join:
                await self.hub.writer.run(store.ladder_join, me, game, time.time())
            else:
                await self.hub.writer.run(store.ladder_leave, me, game)
            link.ladders = await self.hub.writer.run(store.ladder_seen, me, time.time())
        except Unavailable as exc:
            return error("server-busy", f"{exc.why}; try again shortly", retry_after=exc.retry)
        return {"type": "ladder", "game": game, "joined": join, "ladders": link.ladders,
                "seconds": self.ctx.limits.ladder_seconds}

    async def _act(self, game: Game, msg: dict[str, Any]) -> dict[str, Any] | None:
        room, seat = game.room, game.seat
        keeper = room.timekeeper
        if msg["type"] == "resign":
            return await resign.resign(room, seat, LANG)
        if msg["type"] == "back" or (keeper is not None and keeper.stood_in(seat)):
            if keeper is None:
                return error("no-clock", "this table has no clock", table=room.id)
            if msg["type"] == "back":
                await keeper.back(seat)
                return None
            return error("stood-in", "your time ran out and someone plays for you; send 'back' to take your seat"
                         " back first", table=room.id)
        at = msg.get("at")
        if not isinstance(at, int) or isinstance(at, bool):
            return error("bad-message", "a move says 'at': the number of moves of the position it is for (the"
                         " state's 'moves')", table=room.id)
        try:
            index, canonical = await room.submit(msg.get("move"), seat, at, LANG)
        except MoveError as exc:
            extra: dict[str, Any] = {"legal": exc.legal} if exc.legal is not None else {}
            if exc.retry is not None:
                extra["retry_after"] = exc.retry
            return error(exc.code, exc.message, table=room.id, move=msg.get("move"), **extra)
        return {"type": "ok", "table": room.id, "move": canonical, "index": index}


def state_message(game: Game) -> dict[str, Any]:
    """A position for a program: the moves it has not been sent (all of them the first time, or after an undo),
    whose move it is, the legal moves when it is the bot's, the clocks, and the result once over."""
    room, state = game.room, game.room.state
    history = state.history()
    start = game.sent if game.sent <= len(history) else 0
    game.sent = len(history)
    over = state.is_terminal()
    mover = None if over or state.is_chance_node() else state.current_player()
    message: dict[str, Any] = {
        "type": "state", "table": room.id, "seat": game.seat, "moves": len(room.log), "history_start": start,
        "history": history[start:], "to_move": mover, "legal": state.legal_actions() if mover == game.seat else [],
        "over": over, "returns": list(state.returns()) if over else None}
    if room.timekeeper is not None:
        message["clock"] = room.timekeeper.view(game.seat, LANG)
    return message


def routes(ctx: Context, streams: BotStreams) -> APIRouter:
    """The bot API's connection, and the ladder's ratings (``/api/ladder/<game>``, apart from people's)."""
    router = APIRouter()
    router.add_api_websocket_route("/api/bot", streams.socket)
    hub = ctx.hub

    @router.get("/api/ladder/{game}")
    async def ladder(game: str) -> JSONResponse:
        if game not in hosted():
            return JSONResponse({"error": "unknown-game", "message": f"there is no game {game!r}; the games are"
                                 f" {', '.join(hosted())}"}, 404)
        rows = await hub.writer.run(hub.store.leaderboard, ladder_pool(game), 1, 200)
        return JSONResponse({"game": game, "seconds": ctx.limits.ladder_seconds, "shown": "mu ± 2 sigma",
                             "bots": [{"rank": i + 1, "bot": r.name, "rating": shown(r.mu, r.sigma),
                                       "mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "games": r.games}
                                      for i, r in enumerate(rows)]})

    return router
