"""Issue 42, finding 5: a socket opened signed in acts no longer than its session (a real server process).

Before, a socket kept playing after "Sign out everywhere" and after the host disabled the account: the session was
looked up only at the handshake. Now ending a session hangs up its sockets in the process at once (an error saying
so, then close 4401), and before each act a socket's session is looked up again, which is how a session ended on
another process or an account disabled by ``spots users disable`` is seen. Every wait is for an event, bounded.
"""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from conftest import PATIENT_S
from servers import Server
from spots.web.accounts.service import COOKIE
from spots.web.accounts.users import main as users

pytestmark = pytest.mark.timeout(300)


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


def moves_of(server: Server, table: str) -> int:
    return int(httpx.get(f"{server.url}/api/tables/{table}", timeout=PATIENT_S).json()["moves"])


def test_signing_out_everywhere_or_being_disabled_ends_the_accounts_open_sockets(tmp_path: Path) -> None:
    server = Server(tmp_path / "s.db", "--requests-per-second", "1000").start()
    try:
        first = signed_in(server, "Ada", new=True)
        table, seat, guest = new_table(server, first)
        asyncio.run(guest_plays_until_seat_0_is_to_move(server, table, guest))
        dealt: list[int] = []  # the moves on the table (the deal's chance events) before any of Ada's

        async def sign_out_everywhere() -> None:
            ws, view = await seat_socket(server, table, seat, first)
            assert view["legal"] and view["to_move"] == 0, view
            dealt.append(view["moves"])
            # "Sign out everywhere" from another device: the open socket is told and closed at once
            other = signed_in(server, "Ada")
            with httpx.Client(base_url=server.url, timeout=PATIENT_S, headers={"Origin": server.url},
                              cookies={COOKIE: other}) as client:
                assert client.post("/signout/everywhere", follow_redirects=False).status_code == 303
            seen, code = await farewell(ws)
            assert code == 4401 and seen[-1]["code"] == "signed-out", (code, seen)
            assert "signed out" in seen[-1]["message"]

        async def disabled_by_the_host() -> None:
            session = signed_in(server, "Ada")
            ws, view = await seat_socket(server, table, seat, session)
            # the host disables the account from another process: the next move is refused, and the socket closed
            assert users(["--db", str(tmp_path / "s.db"), "disable", "Ada"], out=io.StringIO()) == 0
            await ws.send(json.dumps({"type": "move", "move": view["legal"][0]["move"], "at": view["moves"]}))
            seen, code = await farewell(ws)
            assert code == 4401 and [m.get("code") for m in seen if m["type"] != "state"] == ["signed-out"], seen
            assert not any(m["type"] == "ok" for m in seen)

        asyncio.run(sign_out_everywhere())
        asyncio.run(disabled_by_the_host())
        assert moves_of(server, table) == dealt[0]  # neither socket's move was taken
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()
