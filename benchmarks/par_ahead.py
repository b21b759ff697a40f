"""Today's and tomorrow's daily par worked out ahead by the server, and what that costs (issue 43).

Starts ``python -m spots.web.server`` with its public defaults (20-game pars) on a free 127.0.0.1 port, a
throw-away database and an empty par cache, and nobody asks for anything. Prints after how many seconds
today's and tomorrow's par are in the cache (the first player of the day sees par at once), the Daily page's
par line then, and, as the cost, an honest table's move round trips while the pars are worked out and after,
and the CPU seconds the par workers used (children of the server, read from /proc before they end).

At midnight (UTC) nothing new has to be waited for: the new day's par is the one worked out the day before as
"tomorrow", and the server then queues the next day's (``solo_web._work_out_pars_ahead``).

    PYTHONPATH=src python benchmarks/par_ahead.py
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from web_abuse import free_port, honest_play, start_server  # a sibling script: benchmarks/ is on sys.path

TICK = os.sysconf("SC_CLK_TCK")


def worker_cpu(server_pid: int, seen: dict[int, float]) -> None:
    """Note the CPU seconds of each par worker now running under the server (the last reading counts)."""
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
            cmdline = (status.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == server_pid and b"par_worker" in cmdline:
            seen[int(status.parent.name)] = (int(fields[11]) + int(fields[12])) / TICK


async def watch(cache: Path, server_pid: int, limit: float) -> tuple[dict[str, float], dict[int, float]]:
    """Seconds from now until each of today's and tomorrow's par files is in the cache."""
    today = datetime.now(UTC).date()
    days = [today.isoformat(), (today + timedelta(days=1)).isoformat()]
    started = time.monotonic()
    ready: dict[str, float] = {}
    cpu: dict[int, float] = {}
    while len(ready) < len(days) and time.monotonic() - started < limit:
        worker_cpu(server_pid, cpu)
        for day in days:
            if day not in ready and list(cache.glob(f"daily-{day}-*.json")):
                ready[day] = time.monotonic() - started
        await asyncio.sleep(0.05)
    return ready, cpu


def median_ms(rtts: list[float]) -> str:
    return f"median {statistics.median(rtts) * 1000:.1f} ms over {len(rtts)} moves" if rtts else "no move answered"


async def measure(base: str, port: int, cache: Path, server_pid: int, limit: float) -> None:
    honest = asyncio.create_task(honest_play(base, port, 20.0))
    ready, cpu = await watch(cache, server_pid, limit)
    during = (await honest)[0]
    for day, seconds in ready.items():
        print(f"par of daily-{day} in the cache {seconds:.1f} s after the server answered", flush=True)
    print(f"par workers' CPU: {sum(cpu.values()):.1f} s over {len(cpu)} workers (at a lower priority)", flush=True)
    page = httpx.get(f"{base}/daily?lang=en", timeout=30).text
    line = re.search(r'id="daily-par">([^<]*)<', page)
    print(f"the Daily page then: {line.group(1) if line else '(no par line)'}", flush=True)
    after = (await honest_play(base, port, 10.0))[0]
    print(f"honest moves while the pars were worked out (first 20 s): {median_ms(during)}; after: {median_ms(after)}",
          flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=900.0, help="seconds to wait for both pars at most")
    args = parser.parse_args(argv)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SPOTS_PAR_CACHE"] = f"{tmp}/par"  # nothing worked out before
        os.environ.pop("SPOTS_PARS_AHEAD", None)
        os.environ.pop("SPOTS_PAR_GAMES", None)
        os.environ.pop("SPOTS_PAR_BOT", None)  # the public default: the strongest bot
        server = start_server(port, f"{tmp}/ahead.db", [])
        try:
            asyncio.run(measure(f"http://127.0.0.1:{port}", port, Path(tmp) / "par", server.pid, args.limit))
        finally:
            server.terminate()
            server.wait(60)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
