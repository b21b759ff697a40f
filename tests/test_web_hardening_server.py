"""Hardening (issue 31), probed from outside against the real server process, as an attacker would.

Forwarded headers (finding 1), other sites' pages (2, 4), server-wide caps filled from a few
addresses (3), closed WebSockets holding their address's connection slot (7), and the disk
filling up under a running server. Where a finding is about many addresses, the server is told
to trust 127.0.0.1 as its proxy and each request names its client in ``X-Forwarded-For``, as a
proxy would. Bounded in time; every wait is for an event, with a generous bound.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, InvalidStatus

from support.servers import Server

pytestmark = pytest.mark.timeout(300)

TWO = [{"kind": "human"}, {"kind": "human"}]
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
EVIL = "http://evil.example"


def new_table(server: Server, seats: list[dict[str, Any]] = TWO, **headers: str) -> httpx.Response:
    return httpx.post(server.url + "/api/tables", json={"seats": seats}, headers=headers, timeout=10)


def tables_on(server: Server) -> int:
    counts = httpx.get(server.url + "/api/tables", timeout=10).json()["counts"]
    return int(sum(counts.values()))


# ---------------------------------------------------------------- 1. forwarded headers


def test_1_forwarded_for_is_believed_only_from_a_named_proxy(tmp_path: Path) -> None:
    cases: list[tuple[tuple[str, ...], bool]] = [((), False), (("--trusted-proxy", "10.0.0.1"), False),
                                                 (("--trusted-proxy", "10.9.9.9, 127.0.0.1"), True)]
    for options, believed in cases:
        server = Server(tmp_path / f"s{len(options)}{believed}.db", *options).start()
        try:
            codes = [new_table(server, **{"X-Forwarded-For": f"198.51.100.{i}"}).status_code for i in range(15)]
            if believed:  # each request from another client behind the proxy: each its own limits
                assert codes == [201] * 15, options
                same = [new_table(server, **{"X-Forwarded-For": "198.51.100.1"}).status_code for _ in range(15)]
                assert same.count(429) >= 1  # and one real client still meets its own limit
            else:  # the header is ignored: one client, a burst of 10, then 429
                assert codes[:10] == [201] * 10 and codes[10:].count(429) >= 4, (options, codes)
        finally:
            server.stop()


def test_1_a_trusted_proxy_must_be_an_address_or_network(tmp_path: Path) -> None:
    for value in ("nonsense", "*"):
        run = subprocess.run([sys.executable, "-m", "spots.web.server", "--db", str(tmp_path / "s.db"), "--port",
                              str(Server.free_port()), "--trusted-proxy", value],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and "--trusted-proxy" in run.stderr and "Traceback" not in run.stderr, run.stderr
        assert "network" in run.stderr.splitlines()[-1]


# ---------------------------------------------------------------- 2, 4. other sites' pages


def test_2_state_changes_from_another_sites_page_are_refused(tmp_path: Path) -> None:
    server = Server(tmp_path / "s.db")
    server.options = ("--public-url", server.url)
    server.start()
    try:
        forged = httpx.post(server.url + "/api/tables", content=json.dumps({"seats": TWO}),
                            headers={"Content-Type": "text/plain", "Origin": EVIL})
        assert forged.status_code == 403 and forged.json()["error"] == "cross-origin", forged.text
        assert "evil.example" in forged.json()["message"] and server.url in forged.json()["message"]
        form = httpx.post(server.url + "/learn", data={"game": "spots"}, headers={"Origin": EVIL})
        assert form.status_code == 403
        for headers in ({"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                        {"Referer": EVIL + "/page"}):
            assert new_table(server, **headers).status_code == 403, headers
        assert tables_on(server) == 0  # none of them made a table
        assert new_table(server, Origin=server.url).status_code == 201  # the lobby's own request
        own = httpx.post(server.url + "/learn", data={"game": "spots"}, headers={"Origin": server.url})
        assert own.status_code == 303 and "/play/" in own.headers["location"]
        assert new_table(server).status_code == 201  # curl, the CLI: no Origin, no browser header
        assert new_table(server, **{"Sec-Fetch-Site": "same-origin"}).status_code == 201
        assert new_table(server, Referer=server.url + "/").status_code == 201
        assert tables_on(server) == 5
    finally:
        server.stop()


def test_2_without_a_public_url_the_request_host_is_the_allowed_origin(tmp_path: Path) -> None:
    server = Server(tmp_path / "s.db").start()
    try:
        assert new_table(server, Origin=server.url).status_code == 201  # Host: 127.0.0.1:PORT
        assert new_table(server, Origin=f"http://localhost:{server.port}").status_code == 403
        assert new_table(server, Origin=server.url, Host=f"localhost:{server.port}").status_code == 403
        assert new_table(server, Origin=f"http://localhost:{server.port}",
                         Host=f"localhost:{server.port}").status_code == 201
    finally:
        server.stop()
    public = Server(tmp_path / "p.db", "--public-url", "https://spots.example.org/").start()
    try:  # behind a proxy: only the public address's pages
        assert new_table(public, Origin="https://spots.example.org").status_code == 201
        assert new_table(public, Origin=public.url).status_code == 403
        assert new_table(public, Origin="http://spots.example.org").status_code == 403
    finally:
        public.stop()


def test_4_a_websocket_from_another_sites_page_is_refused(tmp_path: Path) -> None:
    server = Server(tmp_path / "s.db").start()
    table = new_table(server).json()

    async def probe(origin: str | None) -> str:
        url = f"ws://127.0.0.1:{server.port}/ws/{table['id']}"
        headers = {"Origin": origin} if origin else {}
        try:
            async with connect(url, additional_headers=headers) as ws:
                return str(json.loads(await asyncio.wait_for(ws.recv(), 10))["type"])
        except InvalidStatus as exc:
            assert exc.response.status_code == 403
            body = json.loads(exc.response.body or b"{}")
            assert body["error"] == "cross-origin" and "WebSocket" in body["message"], body
            return "refused"

    try:
        assert asyncio.run(probe(EVIL)) == "refused"
        assert asyncio.run(probe("null")) == "refused"
        assert asyncio.run(probe(server.url)) == "hello"  # the table page's own socket
        assert asyncio.run(probe(None)) == "hello"  # a program (the CLI, a bot) names no page
    finally:
        server.stop()


# ---------------------------------------------------------------- 3. server-wide caps


def proxied(db: Path, *options: str) -> Server:
    """A server that believes 127.0.0.1's X-Forwarded-For, so each request can come from another address."""
    return Server(db, "--trusted-proxy", "127.0.0.1", "--bot-delay", "60", "--connections-per-client", "1000",
                  *options).start()


def test_3_a_few_addresses_cannot_fill_the_table_caps(tmp_path: Path) -> None:
    server = proxied(tmp_path / "s.db", "--max-tables", "20", "--tables-per-client", "5")
    try:
        def make(address: str, seats: list[dict[str, Any]] = TWO) -> httpx.Response:
            return new_table(server, seats, **{"X-Forwarded-For": address})

        holders = ["203.0.113.1", "203.0.113.2", "203.0.113.3"]
        assert [make(a).status_code for a in holders for _ in range(5)] == [201] * 15
        nearly = make("203.0.113.1")  # a holder at its own limit: 429 for it
        assert nearly.status_code == 429
        assert make("203.0.113.4").status_code == 201  # a newcomer takes one of the last 5 ...
        kept = make("203.0.113.4")  # ... and, now holding one, no second: the rest wait for newcomers
        assert kept.status_code == 503 and kept.json()["error"] == "server-full", kept.text
        assert "last 5 tables are kept for players who have none yet" in kept.json()["message"]
        assert [make(f"198.51.100.{i}").status_code for i in range(4)] == [201] * 4  # 20: full
        full = make("198.51.100.99")
        assert full.status_code == 503 and int(full.headers["retry-after"]) > 0
        message = full.json()["message"]
        assert "the server is full: it has 20 tables" in message and "try again in a few minutes" in message
        assert "after 24 hours" in message
        assert tables_on(server) == 20
    finally:
        server.stop()


def test_3_bot_only_tables_need_more_than_four_addresses(tmp_path: Path) -> None:
    server = proxied(tmp_path / "s.db")  # the defaults: 8 on the server, 2 per client, 2 kept for newcomers
    try:
        codes = [new_table(server, BOTS, **{"X-Forwarded-For": f"203.0.113.{a}"}).status_code
                 for a in range(1, 5) for _ in range(2)]
        assert codes == [201] * 7 + [503], codes  # the 4th address's second waits for a newcomer
        assert new_table(server, BOTS, **{"X-Forwarded-For": "198.51.100.7"}).status_code == 201
        assert new_table(server, BOTS, **{"X-Forwarded-For": "198.51.100.8"}).status_code == 503
    finally:
        server.stop()


def test_3_addresses_are_counted_per_network(tmp_path: Path) -> None:
    server = proxied(tmp_path / "s.db", "--tables-per-network", "6", "--ipv4-prefix", "24")
    try:
        one_home = [f"2001:db8:1:2::{i:x}" for i in range(1, 20)]  # one /64: one home, a million addresses
        codes = [new_table(server, **{"X-Forwarded-For": a}).status_code for a in one_home[:8]]
        assert codes == [201] * 6 + [429] * 2, codes
        refused = new_table(server, **{"X-Forwarded-For": one_home[10]})
        assert "your network already has 6 unfinished tables" in refused.json()["message"]
        assert new_table(server, **{"X-Forwarded-For": "2001:db8:1:3::1"}).status_code == 201  # the next /64
        block = [new_table(server, **{"X-Forwarded-For": f"192.0.2.{i}"}).status_code for i in range(1, 9)]
        assert block == [201] * 6 + [429] * 2, block  # one /24, as the host asked
        assert new_table(server, **{"X-Forwarded-For": "192.0.3.1"}).status_code == 201
    finally:
        server.stop()


async def open_socket(server: Server, table: str, address: str) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await connect(f"ws://127.0.0.1:{server.port}/ws/{table}", additional_headers={"X-Forwarded-For": address})
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 10))


def test_3_a_few_addresses_cannot_hold_all_the_sockets(tmp_path: Path) -> None:
    server = proxied(tmp_path / "s.db", "--max-sockets", "40", "--sockets-per-client", "8", "--sockets-per-network",
                     "12")
    table = new_table(server).json()["id"]

    async def attack() -> None:
        held: list[ClientConnection] = []
        try:
            for address in ("203.0.113.1", "203.0.113.2", "203.0.113.3"):
                for _ in range(8):
                    ws, hello = await open_socket(server, table, address)
                    held.append(ws)
                    assert hello["type"] == "hello", hello
            for _ in range(6):  # 30: the last 10 are kept for newcomers
                ws, hello = await open_socket(server, table, "203.0.113.4")
                held.append(ws)
                assert hello["type"] == "hello"
            ws, refused = await open_socket(server, table, "203.0.113.4")
            held.append(ws)
            assert refused["code"] == "server-full" and "last 10 connections are kept" in refused["message"]
            for i in range(10):
                ws, hello = await open_socket(server, table, f"198.51.100.{i}")
                held.append(ws)
                assert hello["type"] == "hello", (i, hello)
            ws, full = await open_socket(server, table, "198.51.100.99")
            held.append(ws)
            assert full["code"] == "server-full" and "as many connections as it can take" in full["message"]
        finally:
            for ws in held:
                await ws.close()

    async def one_network() -> None:
        held: list[ClientConnection] = []
        try:
            for i in range(12):
                ws, hello = await open_socket(server, table, f"2001:db8:5:6::{i // 6 + 1}")
                held.append(ws)
                assert hello["type"] == "hello"
            ws, refused = await open_socket(server, table, "2001:db8:5:6::99")
            held.append(ws)
            assert refused["code"] == "too-many-sockets" and "your network" in refused["message"], refused
        finally:
            for ws in held:
                await ws.close()

    try:
        asyncio.run(attack())
        asyncio.run(one_network())
    finally:
        server.stop()


# ---------------------------------------------------------------- 7. closed sockets give their slot back


def test_7_a_closed_websocket_gives_its_connection_slot_back_at_once(tmp_path: Path) -> None:
    server = Server(tmp_path / "s.db", "--header-timeout", "30", "--connections-per-client", "16").start()
    table = new_table(server).json()["id"]

    async def open_and_close() -> float:
        """Open and close 3 x 16 sockets one after another; the longest wait for a slot, in seconds."""
        longest = 0.0
        for _ in range(48):
            started = time.monotonic()
            while True:  # a slot is back once the server has seen the close: wait for that, up to 10 s
                try:
                    async with connect(f"ws://127.0.0.1:{server.port}/ws/{table}") as ws:
                        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "hello"
                    break
                except (OSError, EOFError, InvalidHandshake, TimeoutError) as exc:
                    assert time.monotonic() - started < 10, f"still refused after 10 s: {exc!r}"
                    await asyncio.sleep(0.05)
            longest = max(longest, time.monotonic() - started)
        return longest

    try:
        assert asyncio.run(open_and_close()) < 10  # the header timer (30 s) no longer holds the slot
        assert httpx.get(server.url + "/api/tables", timeout=5).status_code == 200
    finally:
        server.stop()


# ---------------------------------------------------------------- the disk fills up


def test_a_full_disk_refuses_moves_clearly_loses_nothing_and_recovers(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    server = Server(db, "--log-level", "warning").start()
    solo = new_table(server, [{"kind": "human", "name": "Solo"}]).json()
    token = solo["seats"][0]["link"].rsplit("/", 1)[1]
    wal = Path(f"{db}-wal")
    acked: dict[int, str] = {}

    def disk_space(limit: int) -> None:
        """Files of the server process may not grow past ``limit`` bytes (root is bound too): a full disk.

        Only the soft limit moves, so lifting it again needs no privilege.
        """
        assert server.proc is not None
        resource.prlimit(server.proc.pid, resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

    async def play() -> tuple[list[dict[str, Any]], int]:
        async with connect(f"ws://127.0.0.1:{server.port}/ws/{solo['id']}?token={token}", max_size=2**22) as ws:
            seat = Seat(ws)
            await seat.until_state(0)
            for _ in range(3):
                await seat.play(acked)
            assert server.log.stat().st_size < wal.stat().st_size  # the log's next lines still fit
            disk_space(wal.stat().st_size)  # the write-ahead log cannot grow: the next move has no room
            try:
                refused = [await seat.send_move() for _ in range(2)]
            finally:
                disk_space(resource.RLIM_INFINITY)
            for _ in range(2):  # space is back: play goes on from where it was
                await seat.play(acked)
            return refused, int(seat.view["moves"])

    try:
        refused, moves = asyncio.run(play())
        for reply in refused:
            assert reply["type"] == "error" and reply["code"] == "server-error", reply
            assert "could not be saved" in reply["message"] and "nothing changed" in reply["message"], reply
            assert "disk" in reply["message"] and reply["retry_after"] > 0, reply
    finally:
        server.stop()
    assert "database call append_moves failed: disk I/O error; the server could not write to its disk, which may be" \
        " full" in server.log.read_text()  # the host is told too
    con = sqlite3.connect(db)
    stored = dict(con.execute("SELECT idx, move FROM moves WHERE table_id = ?", (solo["id"],)).fetchall())
    con.close()
    assert len(acked) == 5 and all(stored[index] == text for index, text in acked.items())
    assert len(stored) == moves  # the refused moves left nothing half-stored


class Seat:
    """One player's socket: the latest position it was shown, and its own moves."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws, self.view = ws, dict[str, Any]()

    async def read(self) -> dict[str, Any]:
        msg = dict(json.loads(await asyncio.wait_for(self.ws.recv(), 20)))
        if msg["type"] == "state":
            self.view = msg["view"]
        return msg

    async def until_state(self, moves: int) -> None:
        while not self.view or self.view["moves"] < moves:
            await self.read()

    async def send_move(self) -> dict[str, Any]:
        """Send the first legal move for the position shown; the answer (an ok or an error)."""
        await self.ws.send(json.dumps({"type": "move", "move": self.view["legal"][0]["move"],
                                       "at": self.view["moves"]}))
        while (msg := await self.read())["type"] not in ("ok", "error"):
            pass
        return msg

    async def play(self, acked: dict[int, str]) -> None:
        """Play a move, remember it once acknowledged, and wait to be shown the position after it."""
        reply = await self.send_move()
        assert reply["type"] == "ok", reply
        acked[reply["index"]] = reply["move"]
        await self.until_state(reply["moves"])
