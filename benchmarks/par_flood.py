"""Sign-in and an honest table's moves while two addresses flood the daily deals' pars (issue 42, finding 1).

Starts ``python -m spots.web.server`` with its public defaults on a free 127.0.0.1 port, a throw-away
database and an empty par cache. An account is made first. Then an honest pair of players (from
127.0.0.2) plays one table while two flooding clients (127.0.0.3 and 127.0.0.4) ask for 200 daily deals
of distinct dates, 100 each, at 10 a second (inside the per-client request rate), each asking the
server for a par. After the flood, the account signs in a few times (a password check is an argon2id
hash) and the honest table plays on. Prints the honest median and p95 move round trip before, during
and after, each sign-in's time, what the flood got back, and how long SIGTERM took to stop the server.

    python benchmarks/par_flood.py
    PYTHONPATH=/path/to/an/older/checkout/src python benchmarks/par_flood.py   # the same flood, older code
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from datetime import UTC, date, datetime, timedelta

import httpx
from web_abuse import HONEST, free_port, honest_play, start_server  # a sibling script: benchmarks/ is on sys.path

FLOODERS = ("127.0.0.3", "127.0.0.4")
NAME, PASSWORD = "Ada", "correct horse battery"


def flood_dates(n: int, seed: int) -> list[str]:
    """``n`` distinct dates: the open month first (each a par to work out), then any from 0001 to 9999."""
    today = datetime.now(UTC).date()
    days = {(today - timedelta(days=k)).isoformat() for k in range(31)}
    rng = random.Random(seed)
    while len(days) < n:
        days.add((date(1, 1, 1) + timedelta(days=rng.randrange(3652058))).isoformat())
    return sorted(days, key=lambda d: rng.random())


async def flood(base: str, address: str, days: list[str], per_second: float) -> Counter[str]:
    seen: Counter[str] = Counter()
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(transport=transport, timeout=5) as http:
        async def ask(day: str) -> None:
            try:
                seen[str((await http.get(f"{base}/api/solo/daily-{day}")).status_code)] += 1
            except httpx.HTTPError as exc:
                seen[type(exc).__name__] += 1

        asks = []
        for day in days:  # sent at a steady pace, not waiting for the answers (a browser's page of requests)
            asks.append(asyncio.create_task(ask(day)))
            await asyncio.sleep(1 / per_second)
        await asyncio.gather(*asks)
    return seen


async def during_the_flood(base: str, port: int, days: list[str], per_second: float
                           ) -> tuple[list[float], list[Counter[str]]]:
    half = len(days) // 2
    seconds = half / per_second
    honest = asyncio.create_task(honest_play(base, port, seconds))
    floods = [asyncio.create_task(flood(base, address, part, per_second))
              for address, part in zip(FLOODERS, (days[:half], days[half:]), strict=True)]
    rtts, _refused = await honest
    return rtts, list(await asyncio.gather(*floods))


def sign_in(base: str) -> float:
    """Seconds for one sign-in from the honest address, from sending the form to the answer (inf: none in 60 s)."""
    transport = httpx.HTTPTransport(local_address=HONEST)
    with httpx.Client(transport=transport, base_url=base, timeout=60, headers={"Origin": base}) as http:
        started = time.perf_counter()
        try:
            answer = http.post("/signin", data={"name": NAME, "password": PASSWORD}, follow_redirects=False)
        except httpx.TimeoutException:
            return math.inf  # no answer in 60 s
        took = time.perf_counter() - started
        if answer.status_code != 303:
            raise RuntimeError(f"the sign-in was answered {answer.status_code}: {answer.text[:200]}")
        return took


def sign_up(base: str) -> None:
    transport = httpx.HTTPTransport(local_address=HONEST)
    with httpx.Client(transport=transport, base_url=base, timeout=60, headers={"Origin": base}) as http:
        answer = http.post("/signup", data={"name": NAME, "password": PASSWORD}, follow_redirects=False)
        if answer.status_code != 303:
            raise RuntimeError(f"the sign-up was answered {answer.status_code}: {answer.text[:200]}")


def moves(label: str, rtts: list[float]) -> str:
    rtts = sorted(rtts)
    if not rtts:
        return f"{label:14} no move answered"
    p95 = rtts[int(len(rtts) * 0.95)]
    return (f"{label:14} honest moves: median {statistics.median(rtts) * 1000:7.1f} ms, p95 {p95 * 1000:7.1f} ms, "
            f"{len(rtts)} moves")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="distinct dates asked for, over both addresses")
    parser.add_argument("--rate", type=float, default=10.0, help="requests a second from each flooding address")
    parser.add_argument("--seconds", type=float, default=6.0, help="honest play before and after the flood")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args(argv)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SPOTS_PAR_CACHE"] = f"{tmp}/par"  # no par worked out before: every open date is new work
        server = start_server(port, f"{tmp}/flood.db", [])
        try:
            sign_up(base)
            print(moves("before", asyncio.run(honest_play(base, port, args.seconds))[0]), flush=True)
            days = flood_dates(args.requests, args.seed)
            rtts, answers = asyncio.run(during_the_flood(base, port, days, args.rate))
            print(moves("during", rtts), flush=True)
            for address, seen in zip(FLOODERS, answers, strict=True):
                print(f"{'':14} flood from {address}: {dict(sorted(seen.items()))}", flush=True)
            signins = [sign_in(base) for _ in range(5)]
            print(f"{'after':14} sign-ins: " + ", ".join(f"{s * 1000:.0f} ms" if s < math.inf else "none in 60 s"
                                                         for s in signins)
                  + f" (median {statistics.median(signins) * 1000:.0f} ms)", flush=True)
            print(moves("after", asyncio.run(honest_play(base, port, args.seconds))[0]), flush=True)
        finally:
            started = time.monotonic()
            server.terminate()
            try:
                server.wait(300)
                print(f"{'stop':14} SIGTERM to exit: {time.monotonic() - started:.1f} s", flush=True)
            except subprocess.TimeoutExpired:
                server.kill()
                print(f"{'stop':14} SIGTERM did not stop the server in 300 s (killed)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
