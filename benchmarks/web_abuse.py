"""An honest table's move round trip while one client attacks the server (issue 14), loopback only.

Starts ``python -m spots.web.server`` with its public defaults on a free 127.0.0.1 port and a
throw-away database. An honest pair of players (from 127.0.0.2) plays one table at a brisk
pace, each move sent with ``at``; the round trip is from sending a move to the new state on
the sender's socket. First with nobody attacking, then while an attacker process (from
127.0.0.3, so per-client limits tell the two apart) runs each attack of the issue for
``--duration`` seconds. Prints, per attack, the honest median and p95 round trip, the honest
moves accepted and refused, what the attacker got back (HTTP status or error codes) and the
server's memory.

    python benchmarks/web_abuse.py --duration 6
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

HONEST, ATTACKER = "127.0.0.2", "127.0.0.3"
ATTACKS = ["snipe", "bot-tables", "table-flood", "idle-sockets", "big-body", "hints", "slowloris", "nested-json",
           "duplicate-moves", "db-lock"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS")) / 1024


# ---------------------------------------------------------------- the honest table


async def honest_play(base: str, port: int, seconds: float, pace: float = 0.2) -> tuple[list[float], Counter[str]]:
    """Two players take turns at one table; returns the round trips and the refusals."""
    async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=HONEST)) as http:
        r = await http.post(f"{base}/api/tables", json={
            "seats": [{"kind": "human"}, {"kind": "human"}], "tricks": "beginner", "target": 20})
        table = r.json()
    tokens = [s["link"].rsplit("/", 1)[1] for s in table["seats"]]
    rtts: list[float] = []
    refused: Counter[str] = Counter()
    socks = [await connect(f"ws://127.0.0.1:{port}/ws/{table['id']}?token={t}", local_addr=(HONEST, 0),
                           max_size=2**22) for t in tokens]
    views: list[dict[str, Any]] = [{}, {}]
    try:
        for i in (0, 1):
            while not views[i]:
                msg = json.loads(await socks[i].recv())
                views[i] = msg["view"] if msg["type"] == "state" else {}
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            view = max(views, key=lambda v: v["moves"])
            seat = None if view["over"] else view.get("to_move")
            if seat is None:
                break
            ws, n = socks[seat], view["moves"]
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "move": view["legal"][0]["move"], "at": n}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] == "state" and msg["view"]["moves"] > n:
                    rtts.append(time.perf_counter() - sent)
                    views[seat] = msg["view"]
                    break
                if msg["type"] == "error":
                    refused[msg["code"]] += 1
                    await asyncio.sleep(0.5)
                    await ws.send(json.dumps({"type": "sync"}))
            await asyncio.sleep(pace)
    finally:
        for ws in socks:
            await ws.close()
    return rtts, refused


# ---------------------------------------------------------------- the attacks (run in their own process)


async def attack(name: str, base: str, port: int, seconds: float, db: str) -> Counter[str]:
    """Run one attack for ``seconds``; count what the server answered."""
    seen: Counter[str] = Counter()
    deadline = time.monotonic() + seconds
    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER)
    async with httpx.AsyncClient(transport=transport, timeout=10) as http:
        while time.monotonic() < deadline:
            try:
                await ATTACK_STEPS[name](http, base, port, seen, deadline, db)
            except (TimeoutError, httpx.HTTPError, OSError) as exc:
                seen[type(exc).__name__] += 1
                await asyncio.sleep(0.05)
    return seen


async def snipe(http: httpx.AsyncClient, base: str, port: int, seen: Counter[str], *rest: Any) -> None:
    for row in (await http.get(f"{base}/api/tables")).json().get("tables", []):
        for p in row["players"]:
            r = await http.post(f"{base}/api/tables/{row['id']}/join", json={"seat": p["seat"]})
            seen[str(r.status_code)] += 1
    await asyncio.sleep(0.5)


async def bot_tables(http: httpx.AsyncClient, base: str, port: int, seen: Counter[str], *rest: Any) -> None:
    r = await http.post(f"{base}/api/tables", json={"seats": [{"kind": "bot", "bot": "mcts"}] * 4})
    seen[str(r.status_code)] += 1


async def table_flood(http: httpx.AsyncClient, base: str, port: int, seen: Counter[str], *rest: Any) -> None:
    r = await http.post(f"{base}/api/tables", json={"seats": [{"kind": "human"}] * 4})
    seen[str(r.status_code)] += 1
    seen["lobby " + str((await http.get(f"{base}/api/tables")).status_code)] += 1


async def idle_sockets(http: httpx.AsyncClient, base: str, port: int, seen: Counter[str], deadline: float,
                       *rest: Any) -> None:
    rows = (await http.get(f"{base}/api/tables")).json().get("tables", [])
    table = rows[0]["id"] if rows else "none"
    socks = []
    for _ in range(300):  # spectators that never read (the server takes 32 from one address)
        try:
            ws = await asyncio.wait_for(connect(f"ws://127.0.0.1:{port}/ws/{table}", local_addr=(ATTACKER, 0),
                                                max_queue=1), 5)
            socks.append(ws)
        except Exception as exc:
            seen[type(exc).__name__] += 1
        if time.monotonic() > deadline - 1:
            break
    await asyncio.sleep(0.5)
    seen["sockets opened"] += len(socks)
    seen["closed by the server"] += sum(ws.close_code is not None for ws in socks)
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    for ws in socks:
        await ws.close()


async def big_body(http: httpx.AsyncClient, base: str, port: int, seen: Counter[str], *rest: Any) -> None:
    async def chunks() -> Any:
        for _ in range(16384):  # 1 GB, 64 KB at a time, without a Content-Length
            yield b" " * 65536

    r = await http.post(f"{base}/api/tables", content=chunks())
    seen[str(r.status_code)] += 1


async def hints(http: httpx.AsyncClient, base: str, port: int, seen: Counter[str], deadline: float, *rest: Any
                ) -> None:
    t = (await http.post(f"{base}/api/tables", json={"seats": [{"kind": "human"}], "target": 20})).json()
    if "seats" not in t:
        seen[t.get("error", "?")] += 1
        await asyncio.sleep(1)
        return
    token = t["seats"][0]["link"].rsplit("/", 1)[1]
    async with connect(f"ws://127.0.0.1:{port}/ws/{t['id']}?token={token}", local_addr=(ATTACKER, 0),
                       max_size=2**22) as ws:
        view: dict[str, Any] = {}
        while time.monotonic() < deadline:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] == "state":
                view = msg["view"]
            else:
                seen[msg.get("code", msg["type"])] += 1
            if msg["type"] in ("hint", "error") and view and not view["over"]:  # move on: a new position
                await ws.send(json.dumps({"type": "move", "move": view["legal"][0]["move"], "at": view["moves"]}))
            await ws.send(json.dumps({"type": "hint"}))
            await asyncio.sleep(0.1)


async def slowloris(http: httpx.AsyncClient, base: str, port: int, seen: Counter[str], deadline: float,
                    *rest: Any) -> None:
    held = []
    for _ in range(3000):
        if time.monotonic() > deadline - 1:
            break
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            held.append(writer)
        except OSError:
            seen["refused"] += 1
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    seen["cut by the server"] += sum(w.transport.is_closing() or w.is_closing() for w in held)
    seen["opened"] += len(held)
    for w in held:
        w.close()


async def nested_json(http: httpx.AsyncClient, base: str, port: int, seen: Counter[str], *rest: Any) -> None:
    r = await http.post(f"{base}/api/tables", content=b"[" * 8000 + b"]" * 8000)
    seen[str(r.status_code)] += 1


async def duplicate_moves(http: httpx.AsyncClient, base: str, port: int, seen: Counter[str], deadline: float,
                          *rest: Any) -> None:
    t = (await http.post(f"{base}/api/tables", json={"seats": [{"kind": "human"}], "target": 20})).json()
    if "seats" not in t:
        seen[t.get("error", "?")] += 1
        await asyncio.sleep(1)
        return
    url = f"ws://127.0.0.1:{port}/ws/{t['id']}?token={t['seats'][0]['link'].rsplit('/', 1)[1]}"
    socks = [await connect(url, local_addr=(ATTACKER, 0), max_size=2**22) for _ in range(3)]
    view = json.loads(await socks[0].recv())
    while view["type"] != "state":
        view = json.loads(await socks[0].recv())
    while time.monotonic() < deadline and not view["view"]["over"]:
        move = view["view"]["legal"][0]["move"]
        for ws in socks:
            await ws.send(json.dumps({"type": "move", "move": move}))
        await asyncio.sleep(0.35)
        r = (await http.get(f"{base}/api/tables/{t['id']}")).json()
        view = {"view": r["view"]}
        seen["moves recorded"] = r["moves"]
    for ws in socks:
        await ws.close()


async def db_lock(http: httpx.AsyncClient, base: str, port: int, seen: Counter[str], deadline: float, db: str
                  ) -> None:
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("BEGIN IMMEDIATE")  # another process holds the write lock for most of the attack
    await asyncio.sleep(max(0.0, deadline - time.monotonic() - 1.0))
    con.execute("ROLLBACK")
    con.close()
    seen["lock held"] += 1
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))


ATTACK_STEPS = {"snipe": snipe, "bot-tables": bot_tables, "table-flood": table_flood, "idle-sockets": idle_sockets,
                "big-body": big_body, "hints": hints, "slowloris": slowloris, "nested-json": nested_json,
                "duplicate-moves": duplicate_moves, "db-lock": db_lock}


# ---------------------------------------------------------------- the run


def start_server(port: int, db: str, options: list[str]) -> subprocess.Popen[bytes]:
    server = subprocess.Popen([sys.executable, "-m", "spots.web.server", "--port", str(port), "--db", db,
                               "--log-level", "error", *options], stdout=subprocess.DEVNULL)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
            return server
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def run_one(name: str | None, port: int, db: str, seconds: float, server_pid: int) -> str:
    base = f"http://127.0.0.1:{port}"
    attacker = None
    if name is not None:
        attacker = subprocess.Popen([sys.executable, __file__, "--as-attacker", name, "--port", str(port), "--db", db,
                                     "--duration", str(seconds)], stdout=subprocess.PIPE, text=True)
        time.sleep(min(1.0, seconds / 4))  # let the attack get going
    rtts, refused = asyncio.run(honest_play(base, port, seconds))
    try:
        answers = attacker.communicate(timeout=seconds + 60)[0].strip() if attacker else ""
    except subprocess.TimeoutExpired:
        attacker.kill()  # type: ignore[union-attr]
        answers = "(no answer in time)"
    rtts.sort()
    median = statistics.median(rtts) * 1000 if rtts else float("nan")
    p95 = rtts[int(len(rtts) * 0.95)] * 1000 if rtts else float("nan")
    return (f"{name or 'no attack':16} honest median {median:6.1f} ms, p95 {p95:7.1f} ms, moves {len(rtts):3d}, "
            f"refused {dict(refused) or 'none'}; server RSS {rss_mb(server_pid):.0f} MB; attacker got {answers}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=6.0, help="seconds per attack")
    parser.add_argument("--attacks", default=",".join(ATTACKS), help="comma-separated, from: " + ", ".join(ATTACKS))
    parser.add_argument("--as-attacker", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.duration = max(2.0, min(args.duration, 30.0))
    if args.as_attacker:
        seen = asyncio.run(attack(args.as_attacker, f"http://127.0.0.1:{args.port}", args.port, args.duration,
                                  args.db))
        print(dict(seen))
        return 0
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/abuse.db"
        server = start_server(port, db, [])
        try:
            print(run_one(None, port, db, args.duration, server.pid), flush=True)
            for name in args.attacks.split(","):
                print(run_one(name, port, db, args.duration, server.pid), flush=True)
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
