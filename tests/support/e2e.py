"""The real server (``spots serve`` in a child process) in Chromium: pages, moves read off the page, waits
for a turn or the end, screenshots for the docs, and axe-core's accessibility problems."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import httpx

from support.servers import Server as ServerProcess

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def shoot(page: Any, name: str, full: bool = False) -> None:
    """A picture for the docs, only when asked with ``SPOTS_SCREENSHOTS=1`` (a test run leaves the tree clean)."""
    if os.environ.get("SPOTS_SCREENSHOTS") == "1":
        settle(page)
        page.screenshot(path=str(SHOTS / name), full_page=full)


class Server(ServerProcess):
    """The browser tests' server: bots in a worker process as in production, a given bot delay, and
    ``--private`` (the tests create many tables from one address; the limits have their own tests).
    Its output goes to a file beside the database, never to a pipe nobody reads (a full pipe would
    freeze the server)."""

    def __init__(self, db: Path, bot_delay: float = 0.05) -> None:
        super().__init__(db, "--host", "127.0.0.1", "--bot-delay", str(bot_delay), "--log-level", "warning",
                         "--private", "--workers", "1")
        self.bot_delay = bot_delay

    def create(self, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
        if body.get("game") == "double-spot":
            r = httpx.post(self.url + "/api/tables", json={"seats": seats, **body})
        else:
            r = httpx.post(self.url + "/api/tables", json={"seats": seats, "tricks": "beginner", "target": 1, **body})
        assert r.status_code == 201, r.text
        return dict(r.json())

    def table(self, table_id: str) -> dict[str, Any]:
        return dict(httpx.get(f"{self.url}/api/tables/{table_id}").json())


OVER_OR_A_DROP = "() => document.body.dataset.over === '1' || document.querySelector('.ds-column button.drop')"


def moves_of(page: Any) -> int:
    return int(page.get_attribute("body", "data-moves") or -1)


def wait_for_my_turn_or_end(page: Any) -> bool:
    """True when the game is over, False when this page has moves to click."""
    page.wait_for_function(
        "() => document.body.dataset.over === '1' || document.querySelector('#controls button.move:not([disabled])')")
    return page.get_attribute("body", "data-over") == "1"


def settle(page: Any) -> None:
    """Wait until nothing on the page is moving (every animation finished): what a picture or axe should read."""
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")


def click_a_move(page: Any, turn: int) -> None:
    """Click something the page offers: a tile, a dog's space, or a button, then wait for the table to move."""
    before = moves_of(page)
    tiles = page.locator(".tile.clickable")
    spaces = page.locator(".space.clickable")
    buttons = page.locator("#controls button.move")
    if turn % 3 == 1 and tiles.count():
        tiles.first.click()
    elif turn % 3 == 2 and spaces.count():
        spaces.first.click()
    else:
        labels = buttons.all_inner_texts()
        # play sensibly enough to finish: place before burying, stop rather than roll on forever
        pick = next((i for i, t in enumerate(labels) if t.startswith(("Place", "Score", "Keep"))), None)
        if pick is None:
            pick = next((i for i, t in enumerate(labels) if t == "Stop"), 0)
        buttons.nth(pick).click()
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")


def play_plainly(page: Any) -> None:
    """Play the page's seat until the game is over: place or score when offered, else stop, else the first move
    (chosen by the moves' notation, so in any language; quick, and rarely the best)."""
    for _ in range(400):
        if wait_for_my_turn_or_end(page):
            return
        moves = moves_of(page)
        offered = [m or "" for m in page.locator("#controls button.move").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.move)")]
        pick = next((i for i, m in enumerate(offered) if m.startswith(("place", "score", "keep"))), None)
        if pick is None:
            pick = next((i for i, m in enumerate(offered) if m == "stop"), 0)
        page.locator("#controls button.move").nth(pick).click()
        page.wait_for_function(f"() => Number(document.body.dataset.moves) > {moves}")
    raise AssertionError("the game did not end")


ME_AND_A_BOT = [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy"}]


PHONE = {"width": 390, "height": 844}


def wait_until_over(server: Server, table_id: str, seconds: float = 60) -> dict[str, Any]:
    deadline = time.time() + seconds
    while time.time() < deadline:
        row = server.table(table_id)
        if row["status"] == "over":
            return row
        time.sleep(0.2)
    raise AssertionError(f"table {table_id} did not finish")


def drop_once(page: Any, turn: int) -> None:
    """Click one of the coloured drop buttons the page offers and wait for the table to move on."""
    before = moves_of(page)
    drops = page.locator(".ds-column button.drop")
    drops.nth(turn * 5 % drops.count()).click()
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")


BAD = ("serious", "critical")


def problems(axe: Any, page: Any, context: Any = None) -> list[str]:
    """The serious and critical violations on the page as it is now, one line each."""
    found = axe.run(page, context=context).response["violations"]
    return [f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:5]}"
            for v in found if v["impact"] in BAD]
