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

import httpx
import pytest

from spots.web.accounts.service import COOKIE
from spots.web.accounts.users import main as users
from support.processes import PATIENT_S
from support.servers import Server
from support.sockets import farewell, guest_plays_until_seat_0_is_to_move, new_table, seat_socket, signed_in

pytestmark = pytest.mark.timeout(300)


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
