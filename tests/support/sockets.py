"""A seat's socket against a real server: a session, a new table, a guest playing to a turn, a farewell."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from spots.web.accounts.service import COOKIE
from support.processes import PATIENT_S
from support.servers import Server


def signed_in(server: Server, name: str, new: bool = False) -> str:
    """A fresh session of ``name`` (signing up first when ``new``): its cookie's token."""
    with httpx.Client(base_url=server.url, timeout=PATIENT_S, headers={"Origin": server.url}) as client:
        r = client.post("/signup" if new else "/signin", data={"name": name, "password": "correct horse"},
                        follow_redirects=False)
        assert r.status_code == 303, r.text
        return str(r.cookies[COOKIE])


def new_table(server: Server, session: str) -> tuple[str, str, str]:
    """A table of two human seats, the first the account's: its id and the two seats' tokens."""
    with httpx.Client(base_url=server.url, timeout=PATIENT_S, headers={"Origin": server.url},
                      cookies={COOKIE: session}) as client:
        r = client.post("/api/tables", json={"seats": [{"kind": "human", "name": "me"},
                                                       {"kind": "human", "name": "Guest"}],
                                             "tricks": "beginner", "target": 3})
        assert r.status_code in (200, 201), r.text
        table = r.json()
        first, second = (s["link"].rsplit("/", 1)[1] for s in table["seats"])
        return table["id"], first, second


async def guest_plays_until_seat_0_is_to_move(server: Server, table: str, token: str) -> None:
    """The guest's moves (the first legal each time) while the guest is to move: then it is the account's turn."""
    async with connect(f"ws://127.0.0.1:{server.port}/ws/{table}?token={token}", max_size=2**22) as ws:
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), PATIENT_S))
            if msg["type"] == "state":
                view = msg["view"]
                if view["to_move"] == 0:
                    return
                await ws.send(json.dumps({"type": "move", "move": view["legal"][0]["move"], "at": view["moves"]}))


async def seat_socket(server: Server, table: str, token: str, session: str) -> tuple[ClientConnection, dict[str, Any]]:
    """The seat's socket, opened signed in, and the first state it is sent."""
    ws = await connect(f"ws://127.0.0.1:{server.port}/ws/{table}?token={token}", max_size=2**22,
                       additional_headers={"Cookie": f"{COOKIE}={session}"})
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), PATIENT_S))
        if msg["type"] == "state":
            return ws, msg["view"]


async def farewell(ws: ClientConnection) -> tuple[list[dict[str, Any]], int | None]:
    """Everything the socket is sent until the server closes it, and the close code."""
    seen = []
    try:
        while True:
            seen.append(json.loads(await asyncio.wait_for(ws.recv(), PATIENT_S)))
    except ConnectionClosed as closed:
        return seen, closed.rcvd.code if closed.rcvd else None
