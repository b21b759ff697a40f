"""Load on the web server: many tables, players and spectators, moves flowing (loopback only).

Starts ``python -m spots.web.server`` on a free 127.0.0.1 port with a throw-away database
(SQLite; or, with ``--db postgresql://user:password@host/any``, a new PostgreSQL database made
on that server and dropped afterwards, served by ``--processes`` server processes), creates
``--tables`` two-player tables, connects both seats and ``--viewers`` spectators
to each over WebSockets (with several processes: a table's two seats on different processes,
its spectators spread over them, so every move crosses from one process to another), and
lets every seat play random legal moves, one move per table every ``--pace`` seconds, for
``--duration`` seconds. Prints the moves accepted,
the move round trip (send -> the new state back on the sender's socket, which the
server sends only after the move is in the database), the states delivered to viewers,
errors, and the server's CPU time and memory. Bounded in count and time: at most 500
tables, 20 viewers a table, 120 seconds.

    python benchmarks/web_load.py --tables 100 --viewers 3 --duration 20
    python benchmarks/web_load.py --tables 100 --db postgresql://spots:secret@127.0.0.1/postgres --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

# one client opens every table and socket here: the server runs with its private (generous) limits
SERVER_OPTIONS = ["--private"]


@dataclass
class Totals:
    rtts: list[float] = field(default_factory=list)
    states: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    finished: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_stats(pid: int) -> tuple[float, float]:
    """The server's CPU seconds (user+system) and resident memory in MB, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = 100.0
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
               if line.startswith("VmRSS")) / 1024
    return cpu, rss


async def spectator(url: str, stop: asyncio.Event, totals: Totals) -> None:
    async with connect(url, max_size=2**22) as ws:
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except TimeoutError:
                continue
            if msg["type"] == "state":
                totals.states += 1


async def table_players(bases: list[str], table: dict, pace: float, stop: asyncio.Event, totals: Totals, seed: int
                        ) -> None:
    """Both seats of one table: whoever is to move sends a random legal move, one every ``pace`` seconds."""
    rng = random.Random(seed)
    socks = []
    for i, seat in enumerate(table["seats"]):
        token = seat["link"].rsplit("/", 1)[1]
        base = bases[(seed + i) % len(bases)]
        socks.append(await connect(f"{base}/ws/{table['id']}?token={token}", max_size=2**22).__aenter__())
    views: list[dict] = [{}, {}]

    async def read(i: int, until_moves: int | None = None) -> None:
        while True:
            msg = json.loads(await socks[i].recv())
            if msg["type"] == "state":
                views[i] = msg["view"]
                if until_moves is None or views[i]["moves"] >= until_moves:
                    return
            elif msg["type"] == "error":
                totals.errors[msg["code"]] = totals.errors.get(msg["code"], 0) + 1
                if until_moves is not None:
                    return

    try:
        for i in range(2):
            await read(i)
        readers = {i: asyncio.create_task(_drain(socks[i], views, i, totals)) for i in range(2)}
        while not stop.is_set():
            await asyncio.sleep(pace * rng.uniform(0.8, 1.2))
            view = views[0] if views[0].get("moves", 0) >= views[1].get("moves", 0) else views[1]
            if view.get("over"):
                totals.finished += 1
                break
            seat = view.get("to_move")
            if seat is None or not view["legal"]:
                continue
            move = rng.choice(view["legal"])["move"]
            n = view["moves"]
            waiter = readers[seat]
            readers[seat].cancel()
            await asyncio.gather(waiter, return_exceptions=True)
            start = time.perf_counter()
            await socks[seat].send(json.dumps({"type": "move", "move": move, "at": n}))
            try:
                await asyncio.wait_for(read(seat, n + 1), 10)
                totals.rtts.append(time.perf_counter() - start)
            except TimeoutError:
                totals.errors["timeout"] = totals.errors.get("timeout", 0) + 1
            readers[seat] = asyncio.create_task(_drain(socks[seat], views, seat, totals))
        for task in readers.values():
            task.cancel()
    finally:
        for ws in socks:
            await ws.close()


async def _drain(ws: object, views: list[dict], i: int, totals: Totals) -> None:
    """Keep one seat's view current while it is not waiting for its own move."""
    while True:
        msg = json.loads(await ws.recv())  # type: ignore[attr-defined]
        if msg["type"] == "state":
            views[i] = msg["view"]


async def run(args: argparse.Namespace, ports: list[int]) -> Totals:
    bases = [f"ws://127.0.0.1:{port}" for port in ports]
    totals = Totals()
    async with httpx.AsyncClient(timeout=30) as client:
        tables = []
        for i in range(args.tables):
            r = await client.post(f"http://127.0.0.1:{ports[i % len(ports)]}/api/tables", json={
                "seats": [{"kind": "human"}, {"kind": "human"}], "tricks": "beginner", "target": 6})
            r.raise_for_status()
            tables.append(r.json())
    stop = asyncio.Event()
    tasks = [asyncio.create_task(spectator(f"{bases[(i + 2 + k) % len(bases)]}/ws/{t['id']}", stop, totals))
             for i, t in enumerate(tables) for k in range(args.viewers)]
    tasks += [asyncio.create_task(table_players(bases, t, args.pace, stop, totals, i)) for i, t in enumerate(tables)]
    await asyncio.sleep(args.duration)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
    return totals


@contextmanager
def database(db: str, tmp: str) -> Iterator[str]:
    """The ``--db`` the servers get: a file in ``tmp``, or a new PostgreSQL database dropped afterwards."""
    if db == "sqlite":
        yield f"{tmp}/load.db"
        return
    import psycopg

    name = f"spots_load_{random.SystemRandom().randrange(16**8):08x}"
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield db.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


def wait_ready(ports: list[int]) -> None:
    for port in ports:
        for _ in range(300):
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=3, help="spectators per table (besides its 2 players)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between a table's moves")
    parser.add_argument("--db", default="sqlite", help="sqlite (default), or a postgresql:// URL of a server where"
                        " the benchmark may create (and then drop) a database")
    parser.add_argument("--processes", type=int, default=1, help="server processes (PostgreSQL only; at most 8)")
    args = parser.parse_args(argv)
    args.tables = max(1, min(args.tables, 500))
    args.viewers = max(0, min(args.viewers, 20))
    args.duration = max(1.0, min(args.duration, 120.0))
    args.processes = max(1, min(args.processes, 8))
    if args.db == "sqlite" and args.processes > 1:
        parser.error("several processes need PostgreSQL (--db postgresql://...)")
    ports = [free_port() for _ in range(args.processes)]
    with tempfile.TemporaryDirectory() as tmp, database(args.db, tmp) as db:
        servers = [subprocess.Popen(
            [sys.executable, "-m", "spots.web.server", "--host", "127.0.0.1", "--port", str(port), "--db", db,
             "--log-level", "warning", *SERVER_OPTIONS], stdout=subprocess.DEVNULL) for port in ports]
        try:
            wait_ready(ports)
            cpu0 = sum(proc_stats(s.pid)[0] for s in servers)
            started = time.perf_counter()
            totals = asyncio.run(run(args, ports))
            wall = time.perf_counter() - started
            stats = [proc_stats(s.pid) for s in servers]
            cpu1, rss = sum(c for c, _ in stats), sum(r for _, r in stats)
        finally:
            for s in servers:
                s.terminate()
            for s in servers:
                s.wait(10)
    r = sorted(totals.rtts)
    conns = args.tables * (2 + args.viewers)
    backend = "SQLite" if args.db == "sqlite" else f"PostgreSQL, {args.processes} server process(es)"
    print(f"{backend}: tables {args.tables}, viewers/table {args.viewers} (+2 players): {conns} WebSockets, "
          f"{args.duration:g} s of play at one move per {args.pace:g} s per table")
    if r:
        print(f"moves accepted {len(r)} ({len(r) / args.duration:.0f}/s); "
              f"round trip median {statistics.median(r) * 1000:.1f} ms, "
              f"p95 {r[int(len(r) * 0.95)] * 1000:.1f} ms, max {r[-1] * 1000:.1f} ms")
    print(f"states delivered to spectators {totals.states} ({totals.states / args.duration:.0f}/s); "
          f"games finished {totals.finished}; errors {totals.errors or 'none'}")
    me = resource.getrusage(resource.RUSAGE_SELF)
    client_cpu = me.ru_utime + me.ru_stime
    print(f"server: {cpu1 - cpu0:.1f} CPU s over {wall:.1f} s wall ({(cpu1 - cpu0) / wall:.0%} of one core), "
          f"RSS {rss:.0f} MB; load client: {client_cpu:.1f} CPU s ({client_cpu / wall:.0%} of one core)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
