"""What clocks cost (issue 26): clocked and unclocked tables side by side, and how soon an expiry is acted on.

Starts ``python -m spots.web.server`` on a free 127.0.0.1 port with a throw-away SQLite database,
creates ``--tables`` clocked tables (real-time, 10 minutes a player) and as many without a clock, all
two-player, both seats connected, and lets them play random legal moves (one move per table every
``--pace`` seconds, the two kinds interleaved so they share the same load) for ``--duration`` seconds.
Meanwhile ``--expiring`` more tables have a turn-based clock of a few seconds (staggered) that nobody
answers: a spectator on each records when the server acted on the expiry. Prints the move round trip
(send -> the new state back on the sender's socket) of each kind, median and 90th percentile, their
ratio, and the delay from each expired clock's deadline to the server's action (median and maximum).

    python benchmarks/clock_load.py --tables 150 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
from web_load import SERVER_OPTIONS, Totals, free_port, proc_stats, table_players, wait_ready
from websockets.asyncio.client import connect

CLOCK = {"pace": "real-time", "minutes": 10, "add_seconds": 2}


async def create(client: httpx.AsyncClient, base: str, clock: Any) -> dict[str, Any]:
    r = await client.post(f"{base}/api/tables", json={
        "seats": [{"kind": "human"}, {"kind": "human"}], "tricks": "beginner", "target": 6, "clock": clock})
    r.raise_for_status()
    return dict(r.json())


async def expiry_delay(base: str, table: str) -> float | None:
    """Seconds from the running clock's deadline to the server's action on it, as a spectator is told them."""
    async with connect(f"{base}/ws/{table}") as ws:
        deadline = None
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg["type"] != "state":
                continue
            clock = msg["clock"]
            if deadline is None and clock["running"] is not None:
                deadline = clock["deadline"]
            acted = [s["away_since"] for s in clock["seats"] if s["away"]]
            if acted and deadline is not None:
                return float(acted[0]) - float(deadline)


def quantile(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


async def run(args: argparse.Namespace, port: int) -> tuple[Totals, Totals, list[float]]:
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    clocked, plain = Totals(), Totals()
    async with httpx.AsyncClient(timeout=30) as client:
        pairs = [(await create(client, base, CLOCK), await create(client, base, None)) for _ in range(args.tables)]
        expiring = [await create(client, base, {"pace": "turn-based", "seconds": 3 + (i % 10) * 0.5})
                    for i in range(args.expiring)]
    stop = asyncio.Event()
    tasks = []
    for i, (with_clock, without) in enumerate(pairs):
        tasks.append(asyncio.create_task(table_players([ws_base], with_clock, args.pace, stop, clocked, 2 * i)))
        tasks.append(asyncio.create_task(table_players([ws_base], without, args.pace, stop, plain, 2 * i + 1)))
    delays = asyncio.gather(*(expiry_delay(ws_base, t["id"]) for t in expiring))
    await asyncio.sleep(args.duration)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
    return clocked, plain, [d for d in await asyncio.wait_for(delays, 60) if d is not None]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=150, help="clocked tables (and as many without a clock)")
    parser.add_argument("--expiring", type=int, default=30, help="tables whose clock runs out during the run")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a table's moves")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 500 or not 0 <= args.expiring <= 200 or not 1 <= args.duration <= 120:
        parser.error("--tables 1..500, --expiring 0..200, --duration 1..120")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-m", "spots.web.server", "--port", str(port), "--db",
                                   f"{tmp}/clocks.db", "--workers", "0", "--log-level", "warning", *SERVER_OPTIONS],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_ready([port])
            cpu0, _ = proc_stats(server.pid)
            started = time.perf_counter()
            clocked, plain, delays = asyncio.run(run(args, port))
            cpu1, rss = proc_stats(server.pid)
            wall = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait(10)
    print(f"{args.tables} clocked + {args.tables} unclocked tables, one move per table every {args.pace:g} s,"
          f" {args.duration:g} s; server CPU {cpu1 - cpu0:.1f} s of {wall:.1f} s, {rss:.0f} MB")
    for name, totals in (("clocked", clocked), ("unclocked", plain)):
        ms = [r * 1000 for r in totals.rtts]
        print(f"  {name:>9}: {len(ms)} moves, round trip median {statistics.median(ms):.2f} ms,"
              f" p90 {quantile(ms, 0.9):.2f} ms; errors {totals.errors or 'none'}")
    ratio = statistics.median(clocked.rtts) / statistics.median(plain.rtts)
    print(f"  clocked / unclocked median round trip: {ratio:.3f} ({(ratio - 1) * 100:+.1f}%)")
    if delays:
        ms = [d * 1000 for d in delays]
        print(f"  expired clocks: {len(ms)}, deadline -> action median {statistics.median(ms):.1f} ms,"
              f" max {max(ms):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
