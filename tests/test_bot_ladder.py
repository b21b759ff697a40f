"""The bot ladder and the bot API on real server processes: outside programs (the example client and ``spots bot
connect``) are paired by the ladder at its fixed budget and rated apart from people; on PostgreSQL a bot connected
to one process plays a person's challenge made on another, and two processes never seat a bot twice at once."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.sync.client import connect

from spots.botclient import Client
from spots.botclient import connect as play_as_bot
from spots.web.accounts.service import COOKIE
from support.clocks import pick
from support.processes import PATIENT_S
from support.servers import Server, processes
from support.sockets import signed_in
from support.web import users_cli

pytestmark = pytest.mark.timeout(300)
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "bot_client.py"
FAST = ("--bot-delay", "0.02", "--private", "--ladder-seconds", "5")


def new_bot(db: str, name: str) -> str:
    """A bot account made by the host: its API token."""
    code, out = users_cli(db, "add-bot", name)
    assert code == 0, out
    return out.strip().splitlines()[-1]


def ladder(server: Server) -> dict[str, Any]:
    return dict(httpx.get(f"{server.url}/api/ladder/spots", timeout=PATIENT_S).json())


def wait_for(what: str, ready: Any, seconds: float = 4 * PATIENT_S) -> Any:
    """Poll ``ready()`` until it gives something true (a server's state read over HTTP)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        found = ready()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"waited {seconds:.0f} s for {what}")


def test_two_outside_programs_are_paired_by_the_ladder_and_rated_apart(tmp_path: Path) -> None:
    db = tmp_path / "ladder.db"
    server = Server(db, *FAST).start()
    programs: list[subprocess.Popen[bytes]] = []
    try:
        env = {**os.environ, "SPOTS_BOT_TOKEN": new_bot(str(db), "ExampleBot")}
        log = (tmp_path / "programs.log").open("ab")
        programs.append(subprocess.Popen([sys.executable, str(EXAMPLE), "--server", server.url, "--bot", "greedy",
                                          "--ladder"], env=env, stdout=log, stderr=log))
        env = {**os.environ, "SPOTS_BOT_TOKEN": new_bot(str(db), "CliBot")}
        programs.append(subprocess.Popen([sys.executable, "-m", "spots.cli", "bot", "connect", "--bot", "random",
                                          "--server", server.url, "--ladder", "spots"], env=env, stdout=log,
                                         stderr=log))
        rows = wait_for("two rated ladder games", lambda: [r for r in ladder(server)["bots"] if r["games"] >= 2]
                        if len(ladder(server)["bots"]) == 2 else [])
        assert {r["bot"] for r in ladder(server)["bots"]} == {"ExampleBot", "CliBot"} and rows
        assert ladder(server)["seconds"] == 5
        people = httpx.get(f"{server.url}/api/leaderboard/spots?min_games=1", timeout=PATIENT_S).json()["players"]
        assert not [p for p in people if p["player"] in ("ExampleBot", "CliBot")]  # apart from people's
        games = httpx.get(f"{server.url}/api/tables?status=over", timeout=PATIENT_S).json()["tables"]
        assert games and all(g["clock"] == "ladder" for g in games), games[:1]
    finally:
        for program in programs:
            program.terminate()
            program.wait(30)
        server.stop()
    assert "connected as ExampleBot" in (tmp_path / "programs.log").read_text()


@pytest.fixture(scope="module")
def two(postgres: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    url, logs = postgres.database(), tmp_path_factory.mktemp("bot-servers")
    with processes(url, logs, 2, *FAST) as servers:
        yield servers


def person_plays(server: Server, session: str, table: str, link: str) -> dict[str, Any]:
    """A signed-in person plays their seat (the first) over its socket until the game is over: the last view."""
    token = link.rsplit("/", 1)[1]
    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}?token={token}", open_timeout=PATIENT_S,
                 additional_headers={"Cookie": f"{COOKIE}={session}"}, max_size=2**22) as ws:
        while True:
            msg = json.loads(ws.recv(timeout=PATIENT_S))
            if msg["type"] != "state":
                continue
            view = msg["view"]
            if view["over"]:
                return dict(view)
            if view["to_move"] == 0:
                ws.send(json.dumps({"type": "move", "move": pick(view["legal"]), "at": view["moves"]}))


def test_a_bot_on_one_process_plays_a_challenge_made_on_another(two: list[Server]) -> None:
    a, b = two
    token = new_bot(str(a.db), "PgBot")
    client = Client("greedy", games_wanted=1, say=lambda line: None)
    bot = threading.Thread(target=lambda: play_as_bot(a.url, token, client), daemon=True)
    bot.start()
    session = signed_in(b, "Vera", new=True)
    with httpx.Client(base_url=b.url, timeout=PATIENT_S, headers={"Origin": b.url},
                      cookies={COOKIE: session}) as http:
        r = http.post("/api/tables", json={"seats": [{"kind": "human", "name": "me"},
                                                     {"kind": "human", "invite": "PgBot"}],
                                           "tricks": "beginner", "target": 1})
        assert r.status_code == 201, r.text
        table = r.json()
    view = person_plays(b, session, table["id"], table["seats"][0]["link"])
    bot.join(PATIENT_S)
    assert view["over"] and client.finished == 1
    assert [p["name"] for p in view["players"]][1] == "PgBot"


def test_two_processes_never_seat_a_ladder_bot_twice(two: list[Server]) -> None:
    a, b = two
    clients = [Client("greedy", games_wanted=3, say=lambda line: None, ladders=("spots",)) for _ in range(4)]
    threads = []
    for i, client in enumerate(clients):  # two bots on each process
        server = (a, b)[i % 2]
        token = new_bot(str(a.db), f"Twin{i}Bot")
        threads.append(threading.Thread(target=lambda s=server, t=token, c=client: play_as_bot(s.url, t, c),
                                        daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(4 * PATIENT_S)
    assert all(c.finished >= 3 for c in clients), [c.finished for c in clients]
    # The stored rows, which both processes share: a process that heard of a table's end from the other stamps
    # its own lobby row when it heard, a moment after the other process stored the end and seated the bot anew.
    with psycopg.connect(str(a.db)) as conn:
        over = [json.loads(row[0]) for row in conn.execute("SELECT summary FROM tables WHERE status = 'over'")]
    played: dict[str, list[tuple[float, float]]] = {}
    for table in over:
        for player in table["players"]:
            played.setdefault(player["name"], []).append((table["created"], table["updated"]))
    assert sum(len(spans) for spans in played.values()) >= 12  # four bots, three games each at least
    for name, spans in played.items():  # one bot's ladder games one after another, never two at once
        spans.sort()
        assert all(end <= nxt for (_, end), (nxt, _) in itertools.pairwise(spans)), (name, spans)
