"""How long after a game ends its report is ready on the web: the server analyses it while it is played.

    PYTHONPATH=src python benchmarks/coach_web_ready.py --players 4 --games 2 --pace 0.3

The real app (in-process, its coach in a worker process as ``spots serve`` has it, at the workers' lower
priority) on a SQLite file in a temporary folder: one person (always the first legal move, sent over the
socket ``--pace`` seconds after it is their turn) against greedy bots (moving after ``--pace`` seconds: the
server's bot delay is 1), to the default target; from the move that ends the game to the report's first
"ready" answer (asked every 0.1 s). Printed per game: its moves, that wait, and how long analysing the whole
record from the start takes in this process (at normal priority). With ``--pace 0`` the game is played far
faster than the analysis can follow: the worker is behind when it ends.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from spots.analysis import analyse
from spots.core import games
from spots.web import create_app


def play_one(c: TestClient, players: int, pace: float) -> tuple[str, float]:
    """One game to its end; the table and the moment it ended."""
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "greedy"}] * (players - 1)
    t = c.post("/api/tables", json={"seats": seats, "players": players}).json()
    link = t["seats"][0]["link"].rsplit("/", 1)[1]
    with c.websocket_connect(f"/ws/{t['id']}?token={link}") as ws:
        view: dict[str, Any] = {}
        while not view.get("over"):
            msg = ws.receive_json()
            if msg["type"] != "state":
                continue
            view = msg["view"]
            if view["to_move"] == 0 and not view["over"]:
                time.sleep(pace)
                ws.send_json({"type": "move", "move": view["legal"][0]["move"], "at": view["moves"]})
        return str(t["id"]), time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--pace", type=float, default=0.3, help="seconds per move, the bots' and the person's")
    args = parser.parse_args()
    waits = []
    with tempfile.TemporaryDirectory() as folder, TestClient(create_app(
            Path(folder) / "ready.db", bot_delay=args.pace, rate=1e6, requests_per_second=1e4, workers=1)) as c:
        for _ in range(args.games):
            table, ended = play_one(c, args.players, args.pace)
            while c.get(f"/api/tables/{table}/analysis").status_code != 200:
                time.sleep(0.1)
            waits.append(time.perf_counter() - ended)
            record = c.get(f"/api/tables/{table}/record").json()
            spec = games.get("spots")
            started = time.perf_counter()
            analyse(spec.record(spec.load(record, "record")))
            print(f"{len(record['moves'])} moves: ready {waits[-1]:.1f} s after the end; the whole record from the "
                  f"start: {time.perf_counter() - started:.1f} s", flush=True)
    print(f"median wait {statistics.median(waits):.1f} s, longest {max(waits):.1f} s over {args.games} games")


if __name__ == "__main__":
    main()
