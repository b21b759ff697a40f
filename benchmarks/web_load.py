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

``--talk``: every player is a signed-in account (a session cookie on its sockets), every table is
rated, every socket asks for table talk and each player says something every ``--chat-pace``
seconds. ``--compare`` measures today's load and the ``--talk`` load side by side in one run, on a
fresh server each, alternating (plain, talk, plain, talk, ...: ``--rounds`` pairs) so that a change
in the machine's load hits both alike, and reports each one's pooled move round trip and what the
accounts add to the server's memory per player:

    python benchmarks/web_load.py --tables 150 --compare --duration 20

The servers start with ``SPOTS_PARS_AHEAD=0`` (unless it is set): the steady state, without the daily pars a
server works out at start (at 300 tables they halved the moves taken and quadrupled the round trip for the first
minutes: 4,484 and 4,024 moves, 364 and 363 ms, against 8,056 and 7,462 moves, 79 and 109 ms without).

``--against REV`` (a commit, or the folder of another checkout): the same load on this tree's server and on that
commit's (its files written to a temporary folder, its ``src`` first on the path, this environment's packages),
alternating the same way, with the ratios of the round trip and of the server's CPU per accepted move, to show that
a change made nothing slower, or how far a fixed baseline is:

    python benchmarks/web_load.py --tables 300 --against f263baa --rounds 3

``--profile FILE``: py-spy samples the (first) server during each run's play; FILE keeps the raw samples of the last
run and the top of the profile is printed (``benchmarks/profile_top.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
import profile_top  # benchmarks/profile_top.py and against.py, beside this script
from against import tree_at

# one client opens every table and socket here: the server runs with its private (generous) limits
SERVER_OPTIONS = ["--private"]


@dataclass
class Totals:
    rtts: list[float] = field(default_factory=list)
    states: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    said: int = 0  # chat lines sent
    heard: int = 0  # chat lines delivered


@dataclass
class Talk:
    """The ``--talk`` load: players' session cookies (two per table) and how often each player speaks."""

    cookies: list[list[str]]
    chat_pace: float


def listen_and_count(msg: dict, totals: Totals) -> None:
    if msg["type"] == "chat":
        totals.heard += 1


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


async def spectator(url: str, stop: asyncio.Event, totals: Totals, talk: bool = False) -> None:
    async with connect(url, max_size=2**22) as ws:
        if talk:
            await ws.send(json.dumps({"type": "talk"}))
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            # counted by their opening, not parsed: the load client must not be what limits the server
            if text.startswith('{"type": "state"'):
                totals.states += 1
            elif text.startswith('{"type": "chat"'):
                totals.heard += 1


async def chatter(ws: object, pace: float, stop: asyncio.Event, totals: Totals, rng: random.Random) -> None:
    """One player's table talk: a line every ``pace`` seconds (under the server's chat rate limit)."""
    while not stop.is_set():
        await asyncio.sleep(pace * rng.uniform(0.8, 1.2))
        await ws.send(json.dumps({"type": "chat", "text": f"line {totals.said} from the load"}))  # type: ignore
        totals.said += 1


async def table_players(bases: list[str], table: dict, pace: float, stop: asyncio.Event, totals: Totals, seed: int,
                        talk: Talk | None = None) -> None:
    """Both seats of one table: whoever is to move sends a random legal move, one every ``pace`` seconds."""
    rng = random.Random(seed)
    socks = []
    for i, seat in enumerate(table["seats"]):
        token = seat["link"].rsplit("/", 1)[1]
        base = bases[(seed + i) % len(bases)]
        headers = {"Cookie": talk.cookies[seed][i]} if talk else None
        socks.append(await connect(f"{base}/ws/{table['id']}?token={token}", max_size=2**22,
                                   additional_headers=headers).__aenter__())
        if talk:
            await socks[-1].send(json.dumps({"type": "talk"}))
    views: list[dict] = [{}, {}]
    chat = [asyncio.create_task(chatter(ws, talk.chat_pace, stop, totals, rng)) for ws in socks] if talk else []

    async def read(i: int, until_moves: int | None = None) -> None:
        while True:
            msg = json.loads(await socks[i].recv())
            listen_and_count(msg, totals)
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
        for task in [*readers.values(), *chat]:
            task.cancel()
    finally:
        for ws in socks:
            await ws.close()


async def _drain(ws: object, views: list[dict], i: int, totals: Totals) -> None:
    """Keep one seat's view current while it is not waiting for its own move."""
    while True:
        msg = json.loads(await ws.recv())  # type: ignore[attr-defined]
        listen_and_count(msg, totals)
        if msg["type"] == "state":
            views[i] = msg["view"]
        elif msg["type"] == "error":
            totals.errors[msg["code"]] = totals.errors.get(msg["code"], 0) + 1


async def sign_up(client: httpx.AsyncClient, url: str, name: str) -> str:
    """A new account's session cookie (``Cookie`` header text)."""
    r = await client.post(f"{url}/signup", data={"name": name, "password": "load test password"})
    if r.status_code != 303:
        raise RuntimeError(f"sign-up of {name} refused: {r.status_code} {r.text[:200]}")
    client.cookies.clear()  # each request says whose it is (its Cookie header)
    return "; ".join(f"{k}={v}" for k, v in r.cookies.items())


async def signed_in_tables(args: argparse.Namespace, ports: list[int]) -> tuple[list[dict], Talk]:
    """``--tables`` rated tables between two accounts each, the second seat kept by its account."""
    tables, cookies = [], []
    url = f"http://127.0.0.1:{ports[0]}"
    async with httpx.AsyncClient(timeout=60) as client:
        for i in range(args.tables):
            pair = [await sign_up(client, url, f"load{i}a"), await sign_up(client, url, f"load{i}b")]
            r = await client.post(f"http://127.0.0.1:{ports[i % len(ports)]}/api/tables", headers={
                "Cookie": pair[0]}, json={"seats": [{"kind": "human"}, {"kind": "human"}], "tricks": "beginner",
                                          "target": 6, "rated": True})
            if r.status_code != 201:
                raise RuntimeError(f"rated table refused: {r.status_code} {r.text[:200]}")
            table = r.json()
            seat = table["seats"][1]["link"]
            path = seat[seat.index("/play/"):]
            taken = await client.post(f"{url}{path}/take", headers={"Cookie": pair[1]})
            if taken.status_code != 303:
                raise RuntimeError(f"seat not kept: {taken.status_code} {taken.text[:200]}")
            tables.append(table)
            cookies.append(pair)
    return tables, Talk(cookies, args.chat_pace)


async def run(args: argparse.Namespace, ports: list[int], talking: bool = False,
              playing: Callable[[], None] = lambda: None) -> Totals:
    bases = [f"ws://127.0.0.1:{port}" for port in ports]
    totals = Totals()
    talk: Talk | None = None
    if talking:
        tables, talk = await signed_in_tables(args, ports)
    else:
        async with httpx.AsyncClient(timeout=30) as client:
            tables = []
            for i in range(args.tables):
                r = await client.post(f"http://127.0.0.1:{ports[i % len(ports)]}/api/tables", json={
                    "seats": [{"kind": "human"}, {"kind": "human"}], "tricks": "beginner", "target": 6})
                r.raise_for_status()
                tables.append(r.json())
    playing()  # the set-up is done (accounts made): the measured part starts
    stop = asyncio.Event()
    tasks = [asyncio.create_task(spectator(f"{bases[(i + 2 + k) % len(bases)]}/ws/{t['id']}", stop, totals,
                                           talking)) for i, t in enumerate(tables) for k in range(args.viewers)]
    tasks += [asyncio.create_task(table_players(bases, t, args.pace, stop, totals, i, talk))
              for i, t in enumerate(tables)]
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


@dataclass
class Measured:
    totals: Totals
    wall: float
    cpu: float
    rss: float


def measure(args: argparse.Namespace, talking: bool, tree: str | None = None) -> Measured:
    """One load run on fresh server processes and a fresh database (``tree``: another checkout's server)."""
    ports = [free_port() for _ in range(args.processes)]
    # The steady state: no daily pars worked out ahead at start (a one-off at start and once a day, which on this
    # 2-core machine halved the moves a server took in its first minutes; benchmarks/par_ahead.py measures it).
    env = {**os.environ, "SPOTS_PARS_AHEAD": os.environ.get("SPOTS_PARS_AHEAD", "0")}
    if tree is not None:
        env["PYTHONPATH"] = str(Path(tree) / "src")
    with tempfile.TemporaryDirectory() as tmp, database(args.db, tmp) as db:
        servers = [subprocess.Popen(
            [sys.executable, "-m", "spots.web.server", "--host", "127.0.0.1", "--port", str(port), "--db", db,
             "--log-level", "warning", *SERVER_OPTIONS], stdout=subprocess.DEVNULL, env=env) for port in ports]
        try:
            wait_ready(ports)
            mark: dict[str, float] = {}

            spy: list[subprocess.Popen[bytes]] = []

            def playing() -> None:
                mark["cpu"] = sum(proc_stats(s.pid)[0] for s in servers)
                mark["at"] = time.perf_counter()
                if args.profile:
                    spy.append(profile_top.start(servers[0].pid, args.duration, args.profile))

            totals = asyncio.run(run(args, ports, talking, playing))
            wall = time.perf_counter() - mark["at"]
            stats = [proc_stats(s.pid) for s in servers]
            for sampler in spy:
                sampler.wait(30)
                print(profile_top.top(args.profile), flush=True)
        finally:
            for s in servers:
                s.terminate()
            for s in servers:
                s.wait(10)
    return Measured(totals, wall, sum(c for c, _ in stats) - mark["cpu"], sum(r for _, r in stats))


def report(args: argparse.Namespace, label: str, runs: list[Measured]) -> tuple[float | None, float]:
    """Print one kind of load's figures (several runs pooled); its median round trip in ms (None without a move)
    and the server's CPU ms per accepted move."""
    rtts = sorted(x for m in runs for x in m.totals.rtts)
    duration = args.duration * len(runs)
    states = sum(m.totals.states for m in runs)
    errors: dict[str, int] = {}
    for m in runs:
        for k, v in m.totals.errors.items():
            errors[k] = errors.get(k, 0) + v
    print(f"{label} ({len(runs)} run(s)):")
    median = statistics.median(rtts) * 1000 if rtts else None
    if rtts:
        print(f"  moves accepted {len(rtts)} ({len(rtts) / duration:.0f}/s); round trip median {median:.1f} ms,"
              f" p95 {rtts[int(len(rtts) * 0.95)] * 1000:.1f} ms, max {rtts[-1] * 1000:.1f} ms;"
              f" per run medians {', '.join(f'{statistics.median(m.totals.rtts) * 1000:.1f}' for m in runs)} ms")
    said, heard = sum(m.totals.said for m in runs), sum(m.totals.heard for m in runs)
    print(f"  states delivered to spectators {states} ({states / duration:.0f}/s); chat lines said {said},"
          f" delivered {heard}; games finished {sum(m.totals.finished for m in runs)}; errors {errors or 'none'}")
    cpu, wall = sum(m.cpu for m in runs), sum(m.wall for m in runs)
    per_move = 1000 * cpu / max(1, len(rtts))
    print(f"  server: {cpu:.1f} CPU s over {wall:.1f} s wall ({cpu / wall:.0%} of one core),"
          f" {per_move:.2f} ms per accepted move; RSS at the end {statistics.mean(m.rss for m in runs):.0f} MB")
    return median, per_move


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=3, help="spectators per table (besides its 2 players)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between a table's moves")
    parser.add_argument("--db", default="sqlite", help="sqlite (default), or a postgresql:// URL of a server where"
                        " the benchmark may create (and then drop) a database")
    parser.add_argument("--processes", type=int, default=1, help="server processes (PostgreSQL only; at most 8)")
    parser.add_argument("--talk", action="store_true", help="signed-in players at rated tables, chat flowing")
    parser.add_argument("--chat-pace", type=float, default=6.0, help="seconds between one player's chat lines"
                        " (the server allows 12 a minute after a burst of 5)")
    parser.add_argument("--compare", action="store_true", help="today's load and --talk, side by side in one run")
    parser.add_argument("--against", metavar="REV", help="a commit (or another checkout's folder): its server and"
                        " this one's, alternating (--rounds pairs)")
    parser.add_argument("--profile", metavar="FILE", type=Path, help="sample the server with py-spy during play;"
                        " print the top of the profile, keep the raw samples in FILE")
    parser.add_argument("--rounds", type=int, default=2, help="with --compare: pairs of runs (plain, talk) to pool")
    args = parser.parse_args(argv)
    args.tables = max(1, min(args.tables, 500))
    args.viewers = max(0, min(args.viewers, 20))
    args.duration = max(1.0, min(args.duration, 120.0))
    args.processes = max(1, min(args.processes, 8))
    args.rounds = max(1, min(args.rounds, 5))
    if args.db == "sqlite" and args.processes > 1:
        parser.error("several processes need PostgreSQL (--db postgresql://...)")
    conns = args.tables * (2 + args.viewers)
    backend = "SQLite" if args.db == "sqlite" else f"PostgreSQL, {args.processes} server process(es)"
    print(f"{backend}: tables {args.tables}, viewers/table {args.viewers} (+2 players): {conns} WebSockets, "
          f"{args.duration:g} s of play at one move per {args.pace:g} s per table")
    if args.against:
        return against(args)
    kinds = [False, True] * args.rounds if args.compare else [args.talk]
    runs: dict[bool, list[Measured]] = {False: [], True: []}
    for talking in kinds:
        runs[talking].append(measure(args, talking))
    medians = {}
    for talking in (False, True):
        if runs[talking]:
            label = (f"signed-in players, rated tables, a chat line per player every {args.chat_pace:g} s"
                     if talking else "guests, no chat (today's load)")
            medians[talking] = report(args, label, runs[talking])[0]
    if args.compare and medians[False] and medians[True]:
        players = 2 * args.tables
        extra = statistics.mean(m.rss for m in runs[True]) - statistics.mean(m.rss for m in runs[False])
        print(f"round trip with talk / without: {medians[True] / medians[False]:.2f}"
              f" ({medians[True]:.1f} ms / {medians[False]:.1f} ms, pooled medians); memory the accounts and talk"
              f" add: {extra:+.0f} MB over {players} players ({extra * 1024 / players:+.0f} KB a player)")
    me = resource.getrusage(resource.RUSAGE_SELF)
    print(f"load client: {me.ru_utime + me.ru_stime:.1f} CPU s")
    return 0


def against(args: argparse.Namespace) -> int:
    """This tree's server and another commit's, alternating (``--rounds`` pairs), each one's pooled figures."""
    with tempfile.TemporaryDirectory(prefix="spots-against-") as tmp:
        other = args.against if Path(args.against).is_dir() else str(tree_at(args.against, Path(tmp)))
        runs: dict[str, list[Measured]] = {"this tree": [], args.against: []}
        for _ in range(args.rounds):
            runs["this tree"].append(measure(args, args.talk))
            runs[args.against].append(measure(args, args.talk, other))
    mine, mine_cpu = report(args, "this tree", runs["this tree"])
    theirs, their_cpu = report(args, args.against, runs[args.against])
    if mine and theirs:
        print(f"round trip, this tree / {args.against}: {mine / theirs:.2f} ({mine:.1f} ms / {theirs:.1f} ms,"
              f" pooled medians); server CPU per accepted move: {mine_cpu / their_cpu:.2f}"
              f" ({mine_cpu:.2f} ms / {their_cpu:.2f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
