"""The web app under attack (issue 14), against the real server process on 127.0.0.1.

Slowloris and connection floods (finding 8), non-reading spectators (4), the
start-up checks, the lock and the logs (11), and kill -9 at random moments
under the writer thread: no acknowledged move is ever lost. Bounded in time.
"""

from __future__ import annotations

import asyncio
import json
import random
import select
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from support.processes import PATIENT_S
from support.servers import Server

pytestmark = pytest.mark.timeout(300)
free_port = Server.free_port


def test_8_slowloris_connections_are_cut_and_bounded(tmp_path: Path) -> None:
    server = Server(tmp_path / "s.db", "--header-timeout", "5", "--connections-per-client", "30").start()
    socks: list[socket.socket] = []
    try:
        for _ in range(60):  # half-open requests: a request line, then nothing
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
        order = closing_order(socks)
        assert set(order[:30]) == set(range(30, 60))  # over 30 from one address: refused at once
        assert sorted(order) == list(range(60))  # and the first 30 cut after the header timeout
        assert httpx.get(server.url + "/api/tables", timeout=PATIENT_S).status_code == 200  # honest clients served
    finally:
        for s in socks:
            s.close()
        server.stop()


def closing_order(socks: list[socket.socket]) -> list[int]:
    """The sockets' indices in the order the server closed them (waits up to PATIENT_S for all of them)."""
    order: list[int] = []
    deadline = time.time() + PATIENT_S
    while len(order) < len(socks) and time.time() < deadline:
        open_ones = [s for i, s in enumerate(socks) if i not in order]
        readable, _, _ = select.select(open_ones, [], [], 0.5)
        order += [socks.index(s) for s in readable if _closed(s, 0.05)]
    return order


def _closed(s: socket.socket, wait: float) -> bool:
    s.settimeout(wait)
    try:
        return s.recv(1024) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_4_spectators_that_never_read_do_not_grow_the_server(tmp_path: Path) -> None:
    server = Server(tmp_path / "s.db", "--bot-delay", "0", "--private", "--send-timeout", "2").start()
    try:
        table = httpx.post(server.url + "/api/tables", json={
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}], "target": 20}).json()
        before = server.rss_mb()

        async def attack() -> tuple[int, int]:
            idle = [await connect(f"ws://127.0.0.1:{server.port}/ws/{table['id']}", max_queue=1, max_size=2**22)
                    for _ in range(200)]
            async with connect(f"ws://127.0.0.1:{server.port}/ws/{table['id']}", max_size=2**22) as honest:
                states = 0
                deadline = time.time() + 6
                while time.time() < deadline:
                    msg = json.loads(await asyncio.wait_for(honest.recv(), 5))
                    states += msg["type"] == "state"
            for ws in idle:  # dropped, as such a client would (a polite close waits on each full buffer)
                ws.transport.abort()
            return states, len(idle)

        states, _ = asyncio.run(attack())
        grown = server.rss_mb() - before
        assert states > 5  # the honest spectator kept getting the table
        assert grown < 150, f"the server grew by {grown:.0f} MB"
    finally:
        server.stop()


def test_11_start_up_errors_are_one_line_naming_the_file(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 200)
    (tmp_path / "empty.db").write_bytes(b"")
    for db in (junk, tmp_path / "empty.db"):
        run = subprocess.run([sys.executable, "-m", "spots.web.server", "--db", str(db), "--port", str(free_port())],
                             capture_output=True, text=True, timeout=60)
        lines = run.stderr.strip().splitlines()
        assert run.returncode == 2 and len(lines) == 1 and str(db) in lines[0], run.stderr
        assert "Traceback" not in run.stderr


def test_11_one_server_per_file_and_no_tokens_in_the_log(tmp_path: Path) -> None:
    server = Server(tmp_path / "s.db", "--log-level", "info").start()
    try:
        second = subprocess.run([sys.executable, "-m", "spots.web.server", "--db", str(tmp_path / "s.db"), "--port",
                                 str(free_port())], capture_output=True, text=True, timeout=60)
        assert second.returncode == 2 and "another server is already using it" in second.stderr
        t = httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        secrets = [t["host"].rsplit("/", 1)[1], *(s["link"].rsplit("/", 1)[1] for s in t["seats"])]
        assert all(link.startswith(server.url) for link in [t["host"], t["watch"]])
        httpx.get(t["host"])
        httpx.get(t["seats"][0]["link"])

        async def open_seat() -> None:
            async with connect(f"ws://127.0.0.1:{server.port}/ws/{t['id']}?token={secrets[2]}") as ws:
                await ws.recv()

        asyncio.run(open_seat())
        deadline = time.time() + PATIENT_S  # the log line of the socket's handshake, which names the token
        while "WebSocket /ws/" not in server.log.read_text() and time.time() < deadline:
            time.sleep(0.05)
    finally:
        server.stop()
    log = server.log.read_text()
    assert "WebSocket /ws/" in log
    assert "/play/" in log and "/host/" in log
    assert not any(secret in log for secret in secrets), log


def test_kill_9_at_random_moments_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    rng = random.Random(14)
    server = Server(db, "--bot-delay", "0.01", "--private").start()
    acked: dict[tuple[str, int], str] = {}
    solo = httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "human", "name": "Solo"}],
                                                         "target": 20}).json()
    httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "bot", "bot": "random"}] * 2, "target": 20})
    link = solo["seats"][0]["link"].rsplit("/", 1)[1]
    try:
        for _ in range(4):
            asyncio.run(play_until_killed(server, solo["id"], link, rng.uniform(0.3, 2.0), acked))
            server.start()
    finally:
        server.stop()
    con = sqlite3.connect(db)
    stored = {(t, i): m for t, i, m in con.execute("SELECT table_id, idx, move FROM moves")}
    con.close()
    assert acked and all(stored.get(key) == move for key, move in acked.items())


async def play_until_killed(server: Server, table: str, link: str, after: float, acked: dict[Any, str]) -> None:
    """Play moves (each with 'at') until the server is killed ``after`` seconds in; remember each acknowledged."""
    async def play() -> None:
        async with connect(f"ws://127.0.0.1:{server.port}/ws/{table}?token={link}", max_size=2**22) as ws:
            view: dict[str, Any] = {}
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "state":
                    view = msg["view"]
                    if view["over"]:
                        return
                    await ws.send(json.dumps({"type": "move", "move": view["legal"][0]["move"], "at": view["moves"]}))
                elif msg["type"] == "ok":
                    acked[(table, msg["index"])] = msg["move"]

    task = asyncio.create_task(play())
    await asyncio.sleep(after)
    server.kill()
    await asyncio.gather(task, return_exceptions=True)
