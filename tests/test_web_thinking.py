"""Thinking never holds up a table (issue 21): the real server, bots and hints busy, a person's move still quick.

Four bot-only tables of the strongest bot play as fast as the server lets them
(``--bot-delay 0``) while another table keeps asking for hints, and a person
plays on a third table. Bot moves and hints run in the server's worker processes
(at a lower priority), so the person's move round trip (the move sent, the new
state back on the same socket, which the server sends once the move is stored)
is answered while they think: the test checks that the bots and the advisor really
were busy during the moves it timed, and that moves went all the way round while a
hint was being computed (a server that thought on its event loop could answer none).
How quick the round trip is, is a figure, printed here and measured by
benchmarks/web_load.py, not a bound a loaded machine could break.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import signal
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from spots.web.tables.workers import Stopped, start_worker, stop_searches, stoppable
from support.processes import PATIENT_S
from support.servers import Server, children, children_named

pytestmark = pytest.mark.timeout(300)

BOTS = [{"kind": "bot", "bot": "expectimax"}] * 4
PEOPLE = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bao"}]
TIMED_MOVES = 40


class Seat:
    """One person's socket: every message it receives is queued, so nothing is lost while we wait."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.view: dict[str, Any] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for text in self.ws:
            msg = json.loads(text)
            if msg["type"] == "state":
                self.view = msg["view"]
            await self.inbox.put(msg)

    async def until(self, kind: str, moves: int = 0, allowed: tuple[str, ...] = ()) -> dict[str, Any]:
        """The next message of this kind (a state: with ``moves`` moves or more); errors not ``allowed`` fail."""
        while True:
            msg = await asyncio.wait_for(self.inbox.get(), 30)
            if msg["type"] == "error":
                if msg["code"] in allowed:
                    return msg
                raise AssertionError(msg)
            if msg["type"] == kind and (kind != "state" or msg["view"]["moves"] >= moves):
                return msg


async def seats_of(base: str, table: dict[str, Any]) -> list[Seat]:
    seats = []
    for seat in table["seats"]:
        token = seat["link"].rsplit("/", 1)[1]
        seats.append(Seat(await connect(f"{base}/ws/{table['id']}?token={token}", max_size=2**22)))
    for s in seats:
        await s.until("state")
    return seats


async def move(seats: list[Seat], rng: random.Random) -> tuple[float, float]:
    """The player to move sends a random legal move; when it was sent and when its new state was back."""
    view = max((s.view for s in seats), key=lambda v: v["moves"])
    seat = seats[view["to_move"]]
    n = view["moves"]
    began = time.perf_counter()
    await seat.ws.send(json.dumps({"type": "move", "move": rng.choice(view["legal"])["move"], "at": n}))
    await seat.until("state", n + 1)
    return began, time.perf_counter()


async def ask_hints(seats: list[Seat], stop: asyncio.Event, hints: list[tuple[float, float]]) -> None:
    """Ask for a hint on every new position of this table, then move on: the advisor is always thinking."""
    rng = random.Random(3)
    while not stop.is_set():
        view = max((s.view for s in seats), key=lambda v: v["moves"])
        if view["over"]:
            return
        seat = seats[view["to_move"]]
        began = time.perf_counter()
        await seat.ws.send(json.dumps({"type": "hint"}))
        reply = await seat.until("hint", allowed=("hint-limit", "hint-timeout"))
        if reply["type"] == "error":  # the server's hint limit: wait as it says, as the page does
            await asyncio.sleep(reply.get("retry_after", 0))  # a hint that took too long (a loaded machine): again
            continue
        hints.append((began, time.perf_counter()))
        await move(seats, rng)


Span = tuple[float, float]  # (began, ended) on time.perf_counter()


async def scenario(server: Server) -> tuple[list[Span], list[Span], float, float, int]:
    base = server.url.replace("http", "ws", 1)
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        async def create(seats: list[dict[str, Any]]) -> dict[str, Any]:
            r = await http.post("/api/tables", json={"seats": seats, "tricks": "random", "target": 6})
            assert r.status_code == 201, r.text
            return dict(r.json())

        async def bot_moves() -> int:
            views = [(await http.get(f"/api/tables/{t['id']}")).json() for t in bot_tables]
            return sum(v["view"]["moves"] for v in views)

        bot_tables = [await create(BOTS) for _ in range(4)]
        person, advised = await seats_of(base, await create(PEOPLE)), await seats_of(base, await create(PEOPLE))
        stop = asyncio.Event()
        hints: list[tuple[float, float]] = []
        hinting = asyncio.create_task(ask_hints(advised, stop, hints))
        deadline = time.perf_counter() + 120  # the worker processes start (slowly on a busy machine)
        while (not hints or await bot_moves() == 0) and time.perf_counter() < deadline:
            await asyncio.sleep(0.5)
        before = await bot_moves()
        rng = random.Random(7)
        began = time.perf_counter()
        moves = []
        for _ in range(TIMED_MOVES):
            moves.append(await move(person, rng))
            await asyncio.sleep(0.05)  # a person's pace, and room for the bots' moves in between
        ended = time.perf_counter()
        after = await bot_moves()
        stop.set()
        await asyncio.wait_for(hinting, 60)
        for s in person + advised:
            await s.ws.close()
        return moves, hints, began, ended, after - before


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux")
def test_a_move_round_trips_quickly_while_bots_and_hints_think(tmp_path: Path) -> None:
    server = Server(tmp_path / "busy.db", "--private", "--bot-delay", "0", "--workers", "2").start()
    try:
        moves, hints, began, ended, bot_moves = asyncio.run(scenario(server))
    finally:
        server.stop()
    busy = [h for h in hints if h[0] < ended and h[1] > began]
    assert busy, "no hint was being computed while the moves were timed"
    assert bot_moves >= 1, "the bot tables did not play while the moves were timed"
    inside = [m for m in moves if any(h[0] < m[0] and m[1] < h[1] for h in hints)]
    rtts = [end - start for start, end in moves]
    print(f"median {statistics.median(rtts) * 1000:.1f} ms, max {max(rtts) * 1000:.1f} ms over {len(rtts)} moves; "
          f"{bot_moves} bot moves and {len(busy)} hints during them; {len(inside)} moves inside a hint's thinking")
    assert inside, "no move went round while a hint was being computed: thinking held the table up"


async def keep_busy(server: Server) -> None:
    """A bot table playing, a person's move and a hint answered: every pool of the server has started."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        bots = (await http.post("/api/tables", json={"seats": BOTS[:2], "tricks": "random"})).json()  # mid-search
        people = (await http.post("/api/tables", json={"seats": PEOPLE, "tricks": "random"})).json()
        seats = await seats_of(server.url.replace("http", "ws", 1), people)
        await move(seats, random.Random(5))
        view = max((s.view for s in seats), key=lambda v: v["moves"])
        await seats[view["to_move"]].ws.send(json.dumps({"type": "hint"}))
        await seats[view["to_move"]].until("hint", allowed=("hint-timeout",))  # asked: the hints' pool started
        deadline = time.perf_counter() + 120  # the worker processes start slowly on a busy machine
        while (await http.get(f"/api/tables/{bots['id']}")).json()["view"]["moves"] == 0:
            assert time.perf_counter() < deadline, "the bot table never moved"
            await asyncio.sleep(0.2)
        for s in seats:
            await s.ws.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux")
@pytest.mark.parametrize("how", ["SIGTERM", "Ctrl-C"])
def test_the_server_stops_cleanly_with_its_workers_started(tmp_path: Path, how: str) -> None:
    """``kill`` (SIGTERM) ends the server with status 143, Ctrl-C at its terminal (SIGINT to the server and its
    workers, as a terminal sends it to the whole foreground group) with 0. Either way its exit handlers run
    (nothing is left to the resource tracker, which would report the pools' semaphores as leaked) and nothing is
    printed but the stop: a search in flight is dropped, not sent back as a KeyboardInterrupt."""
    server = Server(tmp_path / "stop.db", "--private", "--bot-delay", "0", "--workers", "1").start()
    try:
        asyncio.run(keep_busy(server))
        assert server.proc is not None
        trackers = children_named(server.proc.pid, "resource_tracker")
        assert trackers, "the server started no worker pool"
        if how == "Ctrl-C":
            for pid in [server.proc.pid, *children(server.proc.pid)]:
                os.kill(pid, signal.SIGINT)
            server.proc.wait(PATIENT_S)
    finally:
        server.stop(patience=PATIENT_S)  # SIGTERM, unless it has ended already
    deadline = time.perf_counter() + 60
    while any(Path(f"/proc/{pid}").exists() for pid in trackers):  # it writes its warnings as it ends
        assert time.perf_counter() < deadline, "the resource tracker did not end with its server"
        time.sleep(0.05)
    assert server.proc.returncode == {"SIGTERM": 143, "Ctrl-C": 0}[how], server.log.read_text()
    assert "leaked" not in server.log.read_text() and "Traceback" not in server.log.read_text()


@stoppable
def search_until_stopped(started: str) -> None:
    """A search that never ends by itself (run in a worker); ``started`` is touched when it begins."""
    Path(started).touch()
    while True:
        sum(range(1000))


def test_a_stopping_server_drops_its_workers_searches_instead_of_waiting_for_them(tmp_path: Path) -> None:
    """A graceful stop (SIGTERM) shuts the pools with ``stop_searches``: the search under way ends with Stopped
    and one still queued is not begun, so the server's exit waits for neither (a whole game's report can take
    a minute). Without it, the first search would run past the wait below."""
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=start_worker,
                               initargs=(os.getpid(),))
    started = tmp_path / "started"
    running = pool.submit(search_until_stopped, str(started))
    queued = pool.submit(search_until_stopped, str(tmp_path / "second"))
    deadline = time.monotonic() + PATIENT_S
    while not started.exists():
        assert time.monotonic() < deadline, "the worker did not begin its search"
        time.sleep(0.05)
    workers = [child.pid for child in multiprocessing.active_children()]
    stop_searches(pool)
    with pytest.raises(Stopped, match="the server is stopping"):
        running.result(timeout=PATIENT_S)
    assert queued.cancelled() or isinstance(queued.exception(timeout=PATIENT_S), Stopped)
    assert workers and not (tmp_path / "second").exists()
    deadline = time.monotonic() + PATIENT_S  # the pool's thread ends its workers, as the server's exit waits for
    while any(Path(f"/proc/{pid}").exists() for pid in workers):
        assert time.monotonic() < deadline, "the worker did not end with its pool"
        time.sleep(0.05)
