"""The bot ladder through the bot API: four of the project's bots as outside programs at one budget, their ratings.

    python benchmarks/bot_api_ladder.py --minutes 20 --seconds 2

Starts ``spots serve`` on a new SQLite file, makes a bot account for each bot (``spots users add-bot``), runs
``spots bot connect --ladder spots`` for each in a process of its own (as anyone's program would connect), and
after ``--minutes`` prints the ladder (``GET /api/ladder/spots``): each bot's rating (mu ± 2 sigma), games, and
how many games were played and how many decisions ran out of time. The server's clock gives every bot the same
``--seconds`` per decision.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

BOTS = {"RandomBot": "random", "GreedyBot": "greedy", "ExpectimaxBot": "expectimax",
        "LearnedBot": "expectimax-learned"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spots(*args: str) -> list[str]:
    return [sys.executable, "-m", "spots.cli", *args]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=2.0, help="the ladder's budget per decision")
    parser.add_argument("--json", default=None, help="also write the ladder and counts here")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ladder-"))
    db, port = folder / "ladder.db", free_port()
    url = f"http://127.0.0.1:{port}"
    log = (folder / "server.log").open("ab")
    server = subprocess.Popen(spots("serve", "--db", str(db), "--port", str(port), "--private", "--log-level",
                                    "warning", "--ladder-seconds", str(args.seconds)), stdout=log, stderr=log)
    clients = []
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                httpx.get(url + "/api/tables", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        for account, bot in BOTS.items():
            made = subprocess.run(spots("users", "--db", str(db), "add-bot", account), capture_output=True,
                                  text=True, check=True)
            token = made.stdout.strip().splitlines()[-1]
            out = (folder / f"{account}.log").open("ab")
            clients.append(subprocess.Popen(spots("bot", "connect", "--bot", bot, "--server", url, "--ladder",
                                                  "spots"), env={**os.environ, "SPOTS_BOT_TOKEN": token},
                                            stdout=out, stderr=out))
        started = time.time()
        time.sleep(args.minutes * 60)
        ladder = httpx.get(url + "/api/ladder/spots", timeout=30).json()
        finished = httpx.get(url + "/api/tables", params={"status": "over", "limit": 1}, timeout=30).json()
    finally:
        for proc in [*clients, server]:
            proc.terminate()
        for proc in [*clients, server]:
            proc.wait(30)
    print(f"bot ladder, Spots (2 players, default rules), {args.seconds:g} s a decision, "
          f"{(time.time() - started) / 60:.1f} minutes: {finished['counts']['over']} games finished")
    print(f"{'rank':>4}  {'bot':14} {'program':20} {'rating':>14} {'games':>6}")
    for row in ladder["bots"]:
        print(f"{row['rank']:>4}  {row['bot']:14} {BOTS.get(row['bot'], '?'):20} {row['rating']:>14} {row['games']:>6}")
    if args.json:
        Path(args.json).write_text(json.dumps({"ladder": ladder, "finished": finished["counts"]["over"],
                                               "seconds": args.seconds, "minutes": args.minutes}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
