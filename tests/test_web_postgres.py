"""Several ``spots serve`` processes on one real PostgreSQL database (issue 20).

Two processes on two ports share every table: a player on one and a spectator on the other see every
move; the same seat's move sent to both at once is accepted exactly once; killing (kill -9) the process
that plays a bot table lets the other carry on with no move lost or repeated; restarting everything
restores every table; a resignation through one process ends the game on the other (issue 41).
(psycopg is imported where it is used: without it the ``postgres`` fixture skips these tests, or fails
them in CI.)
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from spots.web.games import hosted
from spots.web.tables.rooms import replay_with_log
from support.processes import PATIENT_S
from support.servers import Server

pytestmark = pytest.mark.timeout(300)
TWO_HUMANS = {"seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}], "tricks": "beginner",
              "target": 6}


class Viewer:
    """One WebSocket on a table: keeps the log and view it is sent, and the replies to what it sends."""

    def __init__(self, server: Server, table: str, token: str = "") -> None:
        self.url = f"ws://127.0.0.1:{server.port}/ws/{table}" + (f"?token={token}" if token else "")
        self.log: list[str] = []
        self.view: dict[str, Any] = {}
        self.replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.changed = asyncio.Event()
        self.heard: dict[int, float] = {}  # moves -> when a state with that many arrived
        self.gaps = 0  # states whose log did not continue the one already held
        self.other: list[dict[str, Any]] = []  # every message that was not a state, for a readable failure

    async def __aenter__(self) -> Viewer:
        self.ws: ClientConnection = await connect(self.url, max_size=2**22, open_timeout=PATIENT_S)
        self.task = asyncio.create_task(self._read())
        await self.until(0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.task.cancel()
        await self.ws.close()

    async def _read(self) -> None:
        async for text in self.ws:
            msg = json.loads(text)
            if msg["type"] == "state":
                start = msg["log_start"]
                self.gaps += start > len(self.log)
                self.log[start:] = msg["log"]
                self.view = msg["view"]
                self.heard.setdefault(len(self.log), time.perf_counter())
            elif msg["type"] != "hello":
                self.replies.put_nowait(msg)
                self.other.append(msg)
            else:
                self.other.append(msg)
            self.changed.set()

    async def until(self, moves: int, timeout: float = PATIENT_S, exact: bool = False) -> None:
        """Wait until this viewer has been sent a state of at least ``moves`` moves (``exact``: of exactly that
        many, as after an undo, which makes a log shorter), else say what it was sent."""
        def waiting() -> bool:
            return not self.view or (len(self.log) != moves if exact else len(self.log) < moves)

        async def wait() -> None:
            while waiting():
                self.changed.clear()
                await self.changed.wait()
        try:
            await asyncio.wait_for(wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"{self.url}: no state of {moves} moves in {timeout:.0f} s; it has {len(self.log)}"
                                 f" moves (its view says {self.view.get('moves')}), was sent {self.other[-6:]}, and"
                                 f" its socket is {self.ws.state.name}") from None

    async def send(self, move: str, at: int) -> dict[str, Any]:
        await self.ws.send(json.dumps({"type": "move", "move": move, "at": at}))
        return await asyncio.wait_for(self.replies.get(), PATIENT_S)


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


@pytest.fixture(scope="module")
def pair(postgres: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[Server]]]:
    """Two server processes on two ports, one database (for the whole module: starting them is slow)."""
    url, logs = postgres.database(), tmp_path_factory.mktemp("servers")
    servers = [Server(url, "--bot-delay", "0.02", "--private", "--message-rate", "1000", "--message-burst", "1000",
                      log=logs / f"server{i}.log") for i in range(2)]
    try:
        yield url, servers
    finally:
        for s in servers:
            s.stop()


def start_all(servers: list[Server]) -> None:
    """Start the servers that are not running, all at once."""
    dead = [s.launch() for s in servers if not s.alive()]
    for s in dead:
        s.ready()


@pytest.fixture
def two(pair: tuple[str, list[Server]]) -> list[Server]:
    start_all(pair[1])  # (again, after a test killed one)
    return pair[1]


@pytest.fixture
def pg_url(pair: tuple[str, list[Server]]) -> str:
    return pair[0]


def table_log(server: Server, table: str) -> list[str]:
    return list(httpx.get(f"{server.url}/api/tables/{table}", timeout=PATIENT_S).json()["log"])


def stored_moves(url: str, table: str) -> list[tuple[int, str]]:
    import psycopg

    with psycopg.connect(url) as conn:
        return [(int(i), str(m)) for i, m in conn.execute(
            "SELECT idx, move FROM moves WHERE table_id = %s ORDER BY idx", (table,))]


def test_a_player_on_one_process_and_a_spectator_on_the_other_see_every_move(two: list[Server], pg_url: str) -> None:
    a, b = two
    t = httpx.post(a.url + "/api/tables", json=TWO_HUMANS, timeout=PATIENT_S).json()
    rng = random.Random(20)
    waits: list[float] = []

    async def play() -> tuple[list[str], list[str], int]:
        async with Viewer(a, t["id"], token(t["seats"][0]["link"])) as ada, \
                Viewer(b, t["id"], token(t["seats"][1]["link"])) as bo, Viewer(b, t["id"]) as watcher:
            players = [ada, bo]
            for _ in range(40):
                view = max(players, key=lambda p: len(p.log)).view
                if view["over"]:
                    break
                me = players[view["to_move"]]
                await me.until(view["moves"])
                reply = await me.send(rng.choice(me.view["legal"])["move"], view["moves"])
                assert reply["type"] == "ok", reply
                sent = time.perf_counter()
                await watcher.until(reply["moves"])
                await ada.until(reply["moves"])
                if me is ada:  # a move made on the other process
                    waits.append(watcher.heard[reply["moves"]] - sent)
            return watcher.log, ada.log, watcher.gaps

    seen, player_log, gaps = asyncio.run(play())
    assert len(waits) >= 10
    assert seen == player_log == table_log(a, t["id"]) == table_log(b, t["id"]) and gaps == 0
    assert len(seen) == len(stored_moves(pg_url, t["id"]))
    waits.sort()  # how soon is a figure for benchmarks/web_load.py; here every move must be heard at all
    print(f"spectator on the other process heard a move after {waits[len(waits) // 2] * 1000:.1f} ms (median),"
          f" {waits[-1] * 1000:.1f} ms (max)")


def test_the_same_seats_move_sent_to_both_processes_at_once_is_accepted_once(two: list[Server], pg_url: str) -> None:
    a, b = two
    t = httpx.post(a.url + "/api/tables", json=TWO_HUMANS, timeout=PATIENT_S).json()
    rng = random.Random(7)

    async def race() -> list[list[str]]:
        ada = token(t["seats"][0]["link"])
        outcomes: list[list[str]] = []
        async with Viewer(a, t["id"], ada) as on_a, Viewer(b, t["id"], ada) as on_b, \
                Viewer(a, t["id"], token(t["seats"][1]["link"])) as bo:
            for _ in range(60):
                if len(outcomes) >= 8 or bo.view["over"]:
                    break
                view = bo.view
                n = view["moves"]
                await on_a.until(n)
                await on_b.until(n)
                if view["to_move"] == 1:
                    assert (await bo.send(rng.choice(view["legal"])["move"], n))["type"] == "ok"
                else:  # both processes get seat 1's move for the same position at the same moment
                    moves = [rng.choice(on_a.view["legal"])["move"], rng.choice(on_b.view["legal"])["move"]]
                    replies = await asyncio.gather(on_a.send(moves[0], n), on_b.send(moves[1], n))
                    outcomes.append(sorted(r["type"] if r["type"] == "ok" else r["code"] for r in replies))
                    won = next(r for r in replies if r["type"] == "ok")
                    assert won["index"] == n
                    n = won["moves"]
                await bo.until(n)
        return outcomes

    outcomes = asyncio.run(race())
    assert len(outcomes) >= 5 and all(o == ["ok", "stale"] for o in outcomes), outcomes
    stored = stored_moves(pg_url, t["id"])
    assert [i for i, _ in stored] == list(range(len(stored)))
    assert table_log(a, t["id"]) == table_log(b, t["id"]) and len(table_log(a, t["id"])) == len(stored)


def test_a_person_on_one_process_plays_a_bot_run_by_the_other(two: list[Server], pg_url: str) -> None:
    t = httpx.post(two[0].url + "/api/tables", json={"seats": [{"kind": "human", "name": "Ada"},
                                                               {"kind": "bot", "bot": "greedy"}], "target": 6}).json()
    rng = random.Random(3)

    async def ada_moves(ada: Viewer) -> None:
        reply = await ada.send(rng.choice(ada.view["legal"])["move"], ada.view["moves"])
        assert reply["type"] == "ok", reply
        await ada.until(reply["moves"])

    async def play() -> int:
        # When the dice give Ada the first turn, no process plays the bot until its turn comes:
        # she plays that turn on the first process, and the bot's lock is taken when she ends it.
        async with Viewer(two[0], t["id"], token(t["seats"][0]["link"])) as ada:
            while ada.view["to_move"] == 0 and not ada.view["over"]:
                await ada_moves(ada)
        holder = await held_bot_lock(pg_url, t["id"], two)
        person = two[1] if holder is two[0] else two[0]  # the person sits at the process that does not play the bot
        bot_turns = 0
        async with Viewer(person, t["id"], token(t["seats"][0]["link"])) as ada:
            while bot_turns < 3 and not ada.view["over"]:
                if ada.view["to_move"] == 0:
                    await ada_moves(ada)
                else:  # the other process's bot plays; this process hears each of its moves
                    turn = ada.view["turn"]
                    while ada.view["to_move"] != 0 and not ada.view["over"]:
                        await ada.until(len(ada.log) + 1)
                    bot_turns += ada.view["turn"] > turn
        return bot_turns

    assert asyncio.run(play()) >= 3
    assert table_log(two[0], t["id"]) == table_log(two[1], t["id"])


async def held_bot_lock(url: str, table: str, servers: list[Server]) -> Server:
    """The process that takes the table's bot lock, once a bot is to move (else say none did)."""
    deadline = time.time() + PATIENT_S
    while (holder := bot_player(url, table, servers)) is None and time.time() < deadline:
        await asyncio.sleep(0.1)
    assert holder is not None, "no process plays the bot"
    return holder


def bot_player(url: str, table: str, servers: list[Server]) -> Server | None:
    """The server process holding the table's bot lock (its connection is named after its pid)."""
    import psycopg

    from spots.web.store.postgres import LOCKS, lock_key

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = %s AND l.objid = %s",
            (LOCKS, lock_key(table) & 0xFFFFFFFF)).fetchone()
    pid = int(row[0].rsplit(" ", 1)[1]) if row else None
    return next((s for s in servers if s.proc is not None and s.proc.pid == pid), None)


def test_kill_9_of_the_process_playing_a_bot_table_lets_the_other_carry_on(two: list[Server], pg_url: str) -> None:
    t = httpx.post(two[0].url + "/api/tables", json={"seats": [{"kind": "bot", "bot": "random"}] * 2,
                                                     "tricks": "beginner", "target": 6}, timeout=PATIENT_S).json()
    holder = asyncio.run(held_bot_lock(pg_url, t["id"], two))
    other = two[1] if holder is two[0] else two[0]

    async def watch() -> tuple[int, int, list[str], int]:
        async with Viewer(other, t["id"]) as watcher:
            await watcher.until(20)
            holder.kill()  # kill -9: no goodbye, its connections just drop
            before = len(watcher.log)
            await watcher.until(before + 30)
            return before, len(watcher.log), list(watcher.log), watcher.gaps

    before, after, seen, gaps = asyncio.run(watch())
    assert after >= before + 30 and gaps == 0
    assert bot_player(pg_url, t["id"], two) is other
    stored = stored_moves(pg_url, t["id"])
    assert [i for i, _ in stored] == list(range(len(stored)))  # none lost, none twice
    kind = hosted()["spots"]
    rules = kind.spec.records.rules_from_dict({"players": 2, "tricks": "beginner", "target": 6})
    _, lines = replay_with_log(kind, rules, [m for _, m in stored], ["Random", "Random 2"])
    assert table_log(other, t["id"])[:len(seen)] == seen and len(lines) >= len(seen)


def test_restarting_every_process_restores_every_table(two: list[Server], pg_url: str) -> None:
    a, b = two
    made = [httpx.post(s.url + "/api/tables", json=body, timeout=PATIENT_S).json() for s, body in [
        (a, TWO_HUMANS), (b, TWO_HUMANS),
        (a, {"seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}], "target": 6})]]

    async def moves() -> None:
        t = made[0]
        async with Viewer(b, t["id"], token(t["seats"][0]["link"])) as ada, \
                Viewer(a, t["id"], token(t["seats"][1]["link"])) as bo:
            for _ in range(6):
                view = max((ada, bo), key=lambda p: len(p.log)).view
                me = (ada, bo)[view["to_move"]]
                await me.until(view["moves"])
                assert (await me.send(me.view["legal"][0]["move"], view["moves"]))["type"] == "ok"

    asyncio.run(moves())
    logs = {t["id"]: table_log(a, t["id"]) for t in made}
    deadline = time.time() + PATIENT_S  # the other process hears the last move through PostgreSQL
    while logs != {t["id"]: table_log(b, t["id"]) for t in made} and time.time() < deadline:
        time.sleep(0.05)
        logs = {t["id"]: table_log(a, t["id"]) for t in made}
    assert logs == {t["id"]: table_log(b, t["id"]) for t in made}
    for s in two:
        s.kill()
    start_all(two)
    for s in two:
        assert {t["id"]: table_log(s, t["id"]) for t in made} == logs
        lobby = httpx.get(s.url + "/api/tables", timeout=PATIENT_S).json()
        assert {r["id"] for r in lobby["tables"]} >= set(logs)


def test_a_link_to_a_table_another_process_made_a_moment_ago_works(postgres: Any) -> None:
    """The seat link reaches a process before the news of the table does: it finds the table in the database."""
    from fastapi.testclient import TestClient

    from spots.web.app import create_app

    url = postgres.database()
    with TestClient(create_app(url, bot_delay=30)) as maker:
        deaf = TestClient(create_app(url, bot_delay=30))  # loaded before the table existed; never started listening
        t = maker.post("/api/tables", json=TWO_HUMANS).json()
        assert t["id"] not in deaf.app.state.hub.rooms  # type: ignore[attr-defined]
        page = deaf.get(f"/play/{token(t['seats'][1]['link'])}")
        assert page.status_code == 200 and "Bo" in page.text
        assert deaf.get("/play/no-such-link").status_code == 404
        seen = deaf.get(f"/api/tables/{t['id']}").json()
        assert seen["log"] == maker.get(f"/api/tables/{t['id']}").json()["log"]
        deaf.app.state.hub.store.close()  # type: ignore[attr-defined]


def agreed_log(servers: list[Server], table: str) -> list[str]:
    """The table's log once every process tells the same (each hears the others' changes a moment later)."""
    deadline = time.time() + PATIENT_S
    while True:
        logs = [table_log(s, table) for s in servers]
        if all(log == logs[0] for log in logs):
            return logs[0]
        if time.time() > deadline:
            raise AssertionError(f"the processes disagree about table {table}: {logs}")
        time.sleep(0.05)


def test_an_undo_on_one_process_is_seen_on_the_other_and_beats_a_stale_move(two: list[Server], pg_url: str) -> None:
    """Undo (web/takeback.py) across processes: the other process's spectator sees the board go back; an undo
    and the same seat's move for the same position, sent to the two processes at once, are not both kept."""
    a, b = two
    t = httpx.post(a.url + "/api/tables", json=TWO_HUMANS, timeout=PATIENT_S).json()
    rng = random.Random(11)

    async def undo(viewer: Viewer, at: int) -> dict[str, Any]:
        await viewer.ws.send(json.dumps({"type": "undo", "at": at}))
        return await asyncio.wait_for(viewer.replies.get(), PATIENT_S)

    async def play() -> list[str]:
        outcomes = []
        tokens = [token(s["link"]) for s in t["seats"]]
        async with Viewer(a, t["id"], tokens[0]) as ada_a, Viewer(b, t["id"], tokens[0]) as ada_b, \
                Viewer(a, t["id"], tokens[1]) as bo, Viewer(b, t["id"]) as watcher:
            for _ in range(400):
                if len(outcomes) >= 3 or watcher.view["over"]:
                    break
                n = len(agreed_log([a, b], t["id"]))  # both processes hold n moves: every socket is sent them
                for viewer in (watcher, bo, ada_a, ada_b):  # (a socket of one process may still lag the other's)
                    await viewer.until(n, exact=True)
                view = bo.view
                mover = [ada_a, bo][view["to_move"]]
                offer = view["undo"]
                if offer is None or offer["seat"] != 0:
                    legal = [m["move"] for m in view["legal"]]
                    move = next((m for m in legal if m.startswith(("place", "bury"))), rng.choice(legal))
                    assert (await mover.send(move, n))["type"] == "ok"
                    continue
                if not outcomes:  # first: a plain undo, heard on the other process
                    assert await undo(ada_a, n) == {"type": "undone", "moves": n - 1}
                    await watcher.until(n - 1, exact=True)
                    assert watcher.log == bo.log[: n - 1] or watcher.log == table_log(a, t["id"])
                    outcomes.append("undone")
                    continue
                legal = [m["move"] for m in view["legal"]]
                replies = await asyncio.gather(undo(ada_a, n), ada_b.send(rng.choice(legal), n))
                kinds = sorted(r["type"] if r["type"] in ("ok", "undone") else r["code"] for r in replies)
                assert kinds in (["stale", "undone"], ["ok", "stale"], ["ok", "undo-refused"]), replies
                outcomes.append(kinds[1] if kinds[0] == "stale" else kinds[0])
        return outcomes

    outcomes = asyncio.run(play())
    print("undo raced with a move:", outcomes[1:])
    assert outcomes[0] == "undone" and len(outcomes) >= 3, outcomes
    stored = stored_moves(pg_url, t["id"])
    assert [i for i, _ in stored] == list(range(len(stored))), "a move was stored beyond the end of the record"
    assert agreed_log([a, b], t["id"]) == table_log(a, t["id"]) and len(table_log(a, t["id"])) == len(stored)


def test_a_resignation_on_one_process_ends_the_game_on_the_other(two: list[Server], pg_url: str) -> None:
    """Resign (issue 41) across processes: Bo resigns through one process while the table's page on the other is
    open; the other process hears it, stand-ins play the game out, and both processes and the store agree on the
    record. The same seat resigning again, on either process, is refused."""
    a, b = two
    t = httpx.post(a.url + "/api/tables", json=TWO_HUMANS, timeout=PATIENT_S).json()
    rng = random.Random(41)

    async def resign(viewer: Viewer) -> dict[str, Any]:
        await viewer.ws.send(json.dumps({"type": "resign"}))
        return await asyncio.wait_for(viewer.replies.get(), PATIENT_S)

    async def play() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        tokens = [token(s["link"]) for s in t["seats"]]
        async with Viewer(a, t["id"], tokens[0]) as ada, Viewer(b, t["id"], tokens[1]) as bo, \
                Viewer(a, t["id"]) as watcher:
            players = [ada, bo]
            for _ in range(6):  # a few moves first, each heard on both processes
                view = max(players, key=lambda p: len(p.log)).view
                me = players[view["to_move"]]
                await me.until(view["moves"])
                assert (await me.send(rng.choice(me.view["legal"])["move"], view["moves"]))["type"] == "ok"
                await watcher.until(view["moves"] + 1)
            await bo.until(len(watcher.log))
            await bo.ws.send(json.dumps({"type": "resign"}))

            async def ended() -> None:
                while not watcher.view.get("over"):
                    watcher.changed.clear()
                    await watcher.changed.wait()
            await asyncio.wait_for(ended(), PATIENT_S)
            again = await resign(bo)
            async with Viewer(a, t["id"], tokens[1]) as bo_on_a:
                return watcher.view, again, await resign(bo_on_a)

    view, again, again_on_a = asyncio.run(play())
    assert view["over"] and view["resigned_seats"] == [1], view
    assert again["code"] in ("game-over", "resigned") and again_on_a["code"] in ("game-over", "resigned")
    stored = stored_moves(pg_url, t["id"])
    assert [i for i, _ in stored] == list(range(len(stored))) and len(agreed_log([a, b], t["id"])) == len(stored)


def test_accounts_hold_across_two_processes(two: list[Server]) -> None:
    """Issue 42's untested list, the account findings on PostgreSQL with two processes: a stranger's wrong
    passwords on one process lock the password on both, but not the owner's own browser, which signs in on the
    other; "sign out everywhere" on one ends a socket open on the other (its next act is refused, it is closed)
    and forgets the browser on both; a name that mixes scripts is refused on either."""
    from spots.web.accounts.service import COOKIE, DEVICE_COOKIE
    from support.sockets import farewell, guest_plays_until_seat_0_is_to_move, new_table, seat_socket

    a, b = two
    name = f"Pat{secrets.token_hex(3)}"  # the module's servers share one database: a name of this test's own

    def on(server: Server, **cookies: str) -> httpx.Client:
        return httpx.Client(base_url=server.url, timeout=PATIENT_S, headers={"Origin": server.url}, cookies=cookies)

    def sign_in(client: httpx.Client, password: str = "correct horse") -> httpx.Response:
        return client.post("/signin", data={"name": name, "password": password}, follow_redirects=False)

    with on(a) as browser:
        r = browser.post("/signup", data={"name": name, "password": "correct horse"}, follow_redirects=False)
        assert r.status_code == 303, r.text
        device = str(r.cookies[DEVICE_COOKIE])
    with on(b) as other:
        r = other.post("/signup", data={"name": name.replace("a", "а", 1), "password": "correct horse"})  # Cyrillic а
        assert r.status_code == 400 and "mixes letters of several" in r.text
    with on(a) as stranger:
        assert [sign_in(stranger, "wrong guess").status_code for _ in range(10)][-1] == 429
    with on(b) as elsewhere:
        assert sign_in(elsewhere).status_code == 429  # locked on the other process too
    with on(b, **{DEVICE_COOKIE: device}) as owners:
        r = sign_in(owners)  # the owner's browser, on the other process
        assert r.status_code == 303, r.text
        session = str(r.cookies[COOKIE])
    table, seat, guest = new_table(a, session)
    asyncio.run(guest_plays_until_seat_0_is_to_move(b, table, guest))

    async def signed_out_on_a_while_open_on_b() -> None:
        ws, view = await seat_socket(b, table, seat, session)
        assert view["to_move"] == 0 and view["legal"]
        with on(a, **{COOKIE: session}) as on_a:
            assert on_a.post("/signout/everywhere", follow_redirects=False).status_code == 303
        await ws.send(json.dumps({"type": "move", "move": view["legal"][0]["move"], "at": view["moves"]}))
        seen, code = await farewell(ws)
        assert code == 4401 and [m.get("code") for m in seen if m["type"] != "state"] == ["signed-out"], seen

    asyncio.run(signed_out_on_a_while_open_on_b())
    with on(a, **{DEVICE_COOKIE: device}) as forgotten:
        assert sign_in(forgotten).status_code == 429  # the browsers were forgotten with the sessions
