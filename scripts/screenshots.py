"""Take the README's screenshots of the web app: the lobby, a table mid-game, the end screen.

Starts ``spots serve`` on a free 127.0.0.1 port with a throw-away database, sets up a few
tables, plays the human seat with the greedy bot over the WebSocket protocol, and
photographs the pages with headless Chromium. Writes docs/screenshots/*.png. (The Double Spot
table's pictures come from its browser test: ``SPOTS_SCREENSHOTS=1 pytest tests/test_web_double_spot_table.py``.)

    python scripts/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright
from websockets.sync.client import connect

import spots
from spots import bots

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def create(url: str, seats: list[dict[str, Any]], target: int, tricks: str = "beginner", game: str = "spots"
           ) -> dict[str, Any]:
    body = {"game": game, "seats": seats, "target": target, **({"tricks": tricks} if game == "spots" else {})}
    r = httpx.post(url + "/api/tables", json=body)
    r.raise_for_status()
    return dict(r.json())


class Driver:
    """Plays one human seat of a Spots table over the WebSocket with the greedy bot's choices (real play)."""

    def __init__(self, ws: Any, url: str, table: dict[str, Any], seat: int) -> None:
        self.ws = ws
        self.url, self.id, self.seat = url, table["id"], seat
        self.bot = bots.make("greedy", seed=7)
        self.view: dict[str, Any] = {}
        self.read_until(lambda v: True)

    def read_until(self, pred: Any, timeout: float = 60) -> dict[str, Any]:
        deadline = time.time() + timeout
        while time.time() < deadline:
            msg = json.loads(self.ws.recv(timeout=timeout))
            if msg["type"] == "state":
                self.view = msg["view"]
                if pred(self.view):
                    return self.view
        raise TimeoutError("the table did not reach the wanted point")

    def my_turn(self) -> dict[str, Any]:
        def ready(v: dict[str, Any]) -> bool:
            return bool(v["over"] or v["to_move"] == self.seat)

        return self.view if ready(self.view) else self.read_until(ready)

    def move(self) -> None:
        record = httpx.get(f"{self.url}/api/tables/{self.id}/record").json()
        state = spots.replay(record["moves"], record["rules"])
        n = self.view["moves"]
        self.ws.send(json.dumps({"type": "move", "move": self.bot.choose(state), "at": n}))
        self.read_until(lambda v: v["moves"] > n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "docs" / "screenshots"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "spots.web.server", "--port", str(port), "--db",
                                 f"{tmp}/shots.db", "--bot-delay", "0.05", "--log-level", "warning"])
        try:
            for _ in range(100):
                try:
                    httpx.get(url + "/api/tables", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            # some history for the lobby: a finished bot game, a running one, an open table
            create(url, [{"kind": "bot", "bot": "greedy", "name": "Rex"}, {"kind": "bot", "bot": "random",
                                                                            "name": "Daisy"}], 1)
            create(url, [{"kind": "human", "name": "Mia"}, {"kind": "human"}, {"kind": "bot", "bot": "mcts"}], 6,
                   "dog-park")
            game = create(url, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy", "name": "Rex"}],
                          3)
            create(url, [{"kind": "bot", "bot": "mcts", "name": "Kit"},
                         {"kind": "bot", "bot": "greedy", "name": "Rex"}], 1, game="double-spot")
            httpx.get(game["seats"][0]["link"])  # Ann takes her seat
            token = game["seats"][0]["link"].rsplit("/", 1)[1]
            ws = connect(url.replace("http", "ws") + f"/ws/{game['id']}?token={token}").__enter__()
            driver = Driver(ws, url, game, 0)
            # play until a photogenic moment: Ann resolving a roll of 2+ dice after a few turns
            while True:
                view = driver.my_turn()
                if view["over"]:
                    break
                placing = any(b["group"] == "place" for b in view["legal"])
                if view["turn"] >= 7 and placing and len(view["hand"]["dice"]) >= 2:
                    break
                driver.move()
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                desk = browser.new_context(viewport={"width": 1280, "height": 860}, device_scale_factor=1)
                page = desk.new_page()
                page.goto(url + "/")
                page.wait_for_selector("#finished-tables li.table-row")
                page.screenshot(path=str(out / "lobby.png"), full_page=True)
                page.goto(game["seats"][0]["link"])
                page.wait_for_selector("#controls button.move")
                page.screenshot(path=str(out / "table.png"), full_page=False)
                phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                            is_mobile=True, has_touch=True)
                mobile = phone.new_page()
                mobile.goto(game["seats"][0]["link"])
                mobile.wait_for_selector("#controls button.move")
                mobile.screenshot(path=str(out / "table-phone.png"), full_page=False)
                while not driver.my_turn()["over"]:
                    driver.move()
                page.wait_for_selector("#end:not([hidden]) .headline")
                page.screenshot(path=str(out / "end.png"), full_page=False)
                browser.close()
            ws.__exit__(None, None, None)
        finally:
            proc.terminate()
            proc.wait(10)
    for name in ("lobby", "table", "table-phone", "end"):
        print(out / f"{name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
