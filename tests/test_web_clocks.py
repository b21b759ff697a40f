"""Clocks at real tables (issue 26): a real ``spots serve`` process, players on real WebSockets.

A 3-player turn-based table where one human goes silent: their clock runs out, the others choose "a bot
plays for them", the game ends, and the silent player's return gives the seat back; the same when nobody
is left to choose. A clock across a server restart keeps the time used, and two processes on PostgreSQL
agree on a clock and act on its expiry once. The clocks are tiny (seconds, through the API) and every wait
is for the event it needs.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.clocks import FAST, Player
from support.processes import PATIENT_REPORT_S, PATIENT_S
from support.servers import Server

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("clocks") / "clocks.db", *FAST).start()
    yield srv
    srv.stop()


NAMES = ["Ada", "Bo", "Cy"]
QUICK = {"tricks": "beginner", "target": 1}


def create(server: Server, clock: Any, humans: int = 3, **more: Any) -> dict[str, Any]:
    seats = [{"kind": "human", "name": NAMES[i]} for i in range(humans)]
    r = httpx.post(server.url + "/api/tables", json={"seats": seats, "clock": clock, **QUICK, **more})
    assert r.status_code == 201, r.text
    return dict(r.json())


def tokens(table: dict[str, Any]) -> list[str]:
    return [s["link"].rsplit("/", 1)[1] for s in table["seats"]]


def test_a_silent_player_runs_out_the_others_choose_a_bot_the_game_ends_and_the_player_comes_back(
        server: Server) -> None:
    table = create(server, {"pace": "turn-based", "seconds": 6}, target=4)  # long enough for Cy to come back
    ada, bo, cy = tokens(table)

    async def scenario() -> None:
        async with Player(server, table["id"], ada) as a, Player(server, table["id"], bo) as b:
            await a.until(lambda: a.away(2) == "out", "Cy's clock to run out")
            assert a.clock["seats"][2]["left"] == 0 and a.clock["seats"][2]["choose_by"] is not None
            for bad in ({"for": 2, "choice": "kick"}, {"for": 0, "choice": "bot"}, {"for": "Cy", "choice": "skip"}):
                await b.send({"type": "absent", **bad})  # refused with a reason; nothing changes
            await b.until(lambda: len(b.errors) == 3, "three refusals")
            assert [e["code"] for e in b.errors] == ["bad-choice"] * 3 and a.away(2) == "out"
            assert "bot (a bot plays for them) or skip" in b.errors[0]["message"]
            assert "Ada still has time" in b.errors[1]["message"]
            b.errors.clear()
            await b.send({"type": "absent", "for": 2, "choice": "bot"})
            await a.until(lambda: a.away(2) == "bot", "a bot to play for Cy")
            await a.until(lambda: a.view["over"] or (a.movers[-2:-1] == [2] and a.view["to_move"] != 2),
                          "the bot to play a turn for Cy")
            assert not a.view["over"]
            async with Player(server, table["id"], cy) as c:  # Cy is back: the seat is theirs again
                await c.until(lambda: c.away(2) is None, "Cy's seat to be given back")
                assert c.clock["seats"][2]["left"] > 0
                await c.until(lambda: c.view["over"], "the game to end")
                assert c.sent_at > 0  # Cy played their own turns again
            await a.until(lambda: a.view["over"], "the game to end")
            assert a.errors == b.errors == [], (a.errors, b.errors)
            assert a.view["absent"] == ["Cy ran out of time; a stand-in finished the game for them."]

    asyncio.run(scenario())
    final = httpx.get(f"{server.url}/api/tables/{table['id']}").json()
    assert final["status"] == "over" and final["ran_out"] == [2]
    # The record keeps who sat where and which of Cy's moves the bot played; the coach does not coach them as Cy's.
    record = httpx.get(f"{server.url}/api/tables/{table['id']}/record").json()
    assert record["seats"] == NAMES and record["bots"] == [None, None, None]
    assert record["stand_ins"] and {row[0] for row in record["stand_ins"]} == {2}
    report = ready_report(server, table["id"])
    assert report["players"][2]["stood_in"] > 0 and report["players"][0]["stood_in"] == 0


def ready_report(server: Server, table: str) -> dict[str, Any]:
    """Ask for the coach's report until it is ready (the game has just ended: it is being computed)."""
    deadline = time.monotonic() + PATIENT_REPORT_S
    while time.monotonic() < deadline:
        r = httpx.get(f"{server.url}/api/tables/{table}/analysis")
        if r.status_code == 200:
            return dict(r.json()["report"])
        assert r.status_code == 202, r.text
        time.sleep(0.2)
    raise AssertionError(f"no report for table {table} within {PATIENT_REPORT_S:.0f} s")


def test_with_nobody_left_to_choose_bots_play_every_silent_seat_and_the_game_ends(server: Server) -> None:
    # Target 4: at target 1 a bot playing the first seat out of time can win at once, before the last seat's
    # clock has run (11 of 2,000 games of greedy bots at 3 players end before the third player's first turn at
    # target 1 or 2, none of 2,000 at target 3 or more).
    table = create(server, {"pace": "turn-based", "seconds": 1.5}, target=4)

    async def scenario() -> None:
        async with Player(server, table["id"]) as watcher:  # watching from the start
            for token in tokens(table):  # each player sits down, then goes silent
                async with Player(server, table["id"], token, playing=False):
                    pass
            await watcher.until(lambda: watcher.view["over"], "the game to end")
        first, second, last = json.loads(httpx.get(f"{server.url}/api/tables/{table['id']}").text)["ran_out"]
        # The first two had someone to choose (nobody did: a bot after the grace time); the last had nobody.
        shown = [a for a in watcher.aways if a]
        assert any(a[first] == "out" for a in shown) and any(a[second] == "out" for a in shown)
        assert not any(a[last] == "out" for a in shown), shown

    asyncio.run(scenario())


def test_custom_clocks_are_checked_and_a_bad_one_changes_nothing(server: Server) -> None:
    before = httpx.get(server.url + "/api/tables").json()["counts"]
    for clock, words in [("lightning", "unknown clock 'lightning'"), ({"pace": "fast"}, "'pace' must be"),
                         ({"pace": "turn-based"}, "the time per move is missing"),
                         ({"pace": "turn-based", "days": 31}, "'days' must be from"),
                         ({"pace": "real-time", "minutes": 5, "per": "game"}, "'per' must be move or turn"),
                         ({"pace": "real-time", "minutes": True}, "'minutes' must be a number"),
                         ({"pace": "real-time", "minutes": 5, "days": 1}, "'days' is not a real-time setting")]:
        r = httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}],
                                                         "clock": clock})
        assert r.status_code == 400 and words in r.json()["message"], (clock, r.text)
    assert httpx.get(server.url + "/api/tables").json()["counts"] == before


def clock_of(server: Server, table: str) -> dict[str, Any]:
    return dict(httpx.get(f"{server.url}/api/tables/{table}").json()["clock"])


def test_a_clock_keeps_the_time_used_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "restart.db"
    srv = Server(db, "--private", "--log-level", "warning").start()
    try:
        table = create(srv, {"pace": "real-time", "minutes": 10}, humans=2)["id"]
        deadline = time.time() + PATIENT_S
        while (clock := clock_of(srv, table))["seats"][clock["running"]]["left"] > 598.5:  # 1.5 s used
            assert time.time() < deadline, clock
            time.sleep(0.1)
        runner, left = clock["running"], clock["seats"][clock["running"]]["left"]
        srv.stop()
        srv = Server(db, "--private", "--log-level", "warning").start()
        clock = clock_of(srv, table)
        assert clock["running"] == runner
        assert clock["seats"][runner]["left"] <= left  # the time used is kept (and the clock still runs)
        assert clock["seats"][1 - runner]["left"] == 600  # the other clock never ran
    finally:
        srv.stop()


def test_two_processes_on_postgresql_agree_on_a_clock_and_act_on_its_expiry_once(pg_url: str,
                                                                                  tmp_path: Path) -> None:
    servers = [Server(pg_url, *FAST, log=tmp_path / f"pg{i}.log").launch() for i in range(2)]
    try:
        for srv in servers:
            srv.ready()
        table = create(servers[0], {"pace": "turn-based", "seconds": 3}, humans=2, target=2)
        ada, _ = tokens(table)

        async def scenario() -> None:
            async with Player(servers[0], table["id"], ada) as a, Player(servers[1], table["id"]) as w:
                await w.until(lambda: w.away(1) == "out", "Bo's clock to run out, seen at the other process")
                await a.until(lambda: a.away(1) == "out", "Bo's clock to run out")
                assert a.clock["seats"][1]["choose_by"] == w.clock["seats"][1]["choose_by"]  # one stored clock
                await a.send({"type": "absent", "for": 1, "choice": "skip"})
                await w.until(lambda: w.away(1) == "skip", "the choice to reach the other process")
                await w.until(lambda: w.view["over"], "the game to end")

        asyncio.run(scenario())
        acted = sum(srv.log.read_text().count(f"table {table['id']}: seat [1] out of time") for srv in servers)
        assert acted == 1  # both processes timed the clock; one acted on it
    finally:
        for srv in servers:
            srv.stop()
