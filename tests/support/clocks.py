"""A real server with fast clocks, and a player at a seat's socket who answers when told."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from support.processes import PATIENT_S
from support.servers import Server

# quick bots, and players that move as fast as the table lets them (the message limits have their own tests)
FAST = ("--bot-delay", "0.02", "--private", "--message-rate", "1000", "--message-burst", "1000", "--log-level", "info")


def pick(legal: list[dict[str, Any]]) -> str:
    """A move that brings the game to an end: score or place before anything else, stop rather than roll on."""
    moves = [m["move"] for m in legal]
    for prefix in ("score", "place", "stop", "bury", "choose", "trick"):
        found = [m for m in moves if m.startswith(prefix)]
        if found:
            return found[0]
    return moves[0]


class Player:
    """One WebSocket at a table: the latest view and clock; it plays its own seat's turns while ``playing``."""

    def __init__(self, server: Server, table: str, token: str = "", playing: bool = True, cookie: str = "") -> None:
        self.headers = {"Cookie": cookie} if cookie else {}
        self.url = f"ws://127.0.0.1:{server.port}/ws/{table}" + (f"?token={token}" if token else "")
        self.seat: int | None = None
        self.view: dict[str, Any] = {}
        self.clock: dict[str, Any] = {}
        self.playing = playing
        self.sent_at = -1
        self.aways: list[list[str | None]] = []  # every distinct set of stand-ins this viewer was shown
        self.movers: list[int] = []  # the seat to move in each state, in order
        self.errors: list[dict[str, Any]] = []  # the refusals this connection was sent
        self.changed = asyncio.Event()

    async def __aenter__(self) -> Player:
        self.ws: ClientConnection = await connect(self.url, open_timeout=PATIENT_S, additional_headers=self.headers)
        self.task = asyncio.create_task(self._read())
        await self.until(lambda: bool(self.view))
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.task.cancel()
        await self.ws.close()

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):  # the server went away: the test says what it missed
            await self._read_all()

    async def _read_all(self) -> None:
        async for text in self.ws:
            msg = json.loads(text)
            if msg["type"] == "hello":
                self.seat = msg["seat"]
            elif msg["type"] == "state":
                self.view, self.clock = msg["view"], msg.get("clock", {})
                away = [s["away"] for s in self.clock.get("seats", [])]
                if not self.aways or self.aways[-1] != away:
                    self.aways.append(away)
                self.movers.append(self.view["to_move"])
                await self._maybe_move()
            elif msg["type"] == "error":
                self.errors.append(msg)
            self.changed.set()

    async def _maybe_move(self) -> None:
        view = self.view
        mine = self.seat is not None and view["to_move"] == self.seat and not view["over"]
        if self.playing and mine and view["legal"] and self.away(self.seat) is None and self.sent_at < view["moves"]:
            self.sent_at = view["moves"]
            await self.ws.send(json.dumps({"type": "move", "move": pick(view["legal"]), "at": view["moves"]}))

    def away(self, seat: int) -> str | None:
        seats = self.clock.get("seats") or []
        return seats[seat]["away"] if seats else None

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    async def until(self, condition: Callable[[], bool], what: str = "") -> None:
        async def wait() -> None:
            while not condition():
                self.changed.clear()
                await self.changed.wait()
        try:
            await asyncio.wait_for(wait(), PATIENT_S)
        except TimeoutError:
            raise AssertionError(f"waited {PATIENT_S:.0f} s for {what or condition}; view {self.view.get('status')},"
                                 f" clock {self.clock}") from None
