"""The clocks and the your-turn notices in a real browser (issue 26): headless Chromium on a real server.

The tab's title and icon say when it is your turn (and stop saying it when it is not); every player's clock is
shown and the running one counts down; the site is installable (a manifest, a service worker); the lobby's turn
queue lists the table and its "Next game" opens it. A hidden tab shows a notice each time the turn comes to it; a
visible one does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.servers import Server

pytestmark = pytest.mark.timeout(300)


def seconds(shown: str) -> int:
    minutes, _, secs = shown.partition(":")
    return int(minutes) * 60 + int(secs)


# The tab's visibility is the page's to read (document.hidden), and a system notice leaves no trace a page can see:
# the script below lets the test say whether the tab is hidden and keeps a list of the notices the page shows (each
# still made by the browser's own Notification).
HIDDEN_TAB = """
window.__hidden = true;
Object.defineProperty(Document.prototype, "hidden", { get: () => window.__hidden, configurable: true });
window.__notices = [];
const Shown = window.Notification;
window.Notification = class extends Shown {
  constructor(title, options) { super(title, options); window.__notices.push({ title, tag: options.tag }); }
};
"""


def play_until(page: Any, done: str) -> None:
    """Play this seat's moves (Stop as soon as the rules allow) until ``done``, a script expression, holds.

    The check and the click are one script, so the page cannot move on between them: a bot that plays its whole turn
    in a twentieth of a second cannot make the test play a move of the next turn it meant to leave alone."""
    step = f"""() => {{
      if ({done}) return "done";
      const moves = [...document.querySelectorAll("#controls button.move")];
      if (document.body.dataset.myTurn !== "1" || !moves.length) return "wait";
      (moves.find((b) => b.innerText.trim() === "Stop") || moves[0]).click();
      return document.body.dataset.moves;
    }}"""
    for _ in range(400):
        outcome = page.evaluate(step)
        if outcome == "done":
            return
        if outcome == "wait":
            page.wait_for_function(f"() => ({done}) || (document.body.dataset.myTurn === '1'"
                                   " && document.querySelector('#controls button.move'))")
        else:
            page.wait_for_function(f"() => ({done}) || document.body.dataset.moves !== {outcome!r}")
    raise AssertionError(f"{done} did not come in 400 moves")


def play_my_turn_out(page: Any) -> None:
    """Play this seat's turn to its end (stop as soon as the rules allow): then it is the bot's."""
    for _ in range(200):
        if page.get_attribute("body", "data-my-turn") == "0":
            return
        moves = page.get_attribute("body", "data-moves")
        labels = page.locator("#controls button.move").all_inner_texts()
        page.locator("#controls button.move").nth(labels.index("Stop") if "Stop" in labels else 0).click()
        page.wait_for_function(f"() => document.body.dataset.moves !== {moves!r}")
    raise AssertionError("my turn did not end in 200 moves")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("clocks-e2e") / "e2e.db", "--bot-delay", "0.05", "--private",
                 "--log-level", "warning").start()
    yield srv
    srv.stop()


def test_the_title_says_your_turn_the_clocks_run_and_the_queue_opens_the_waiting_table(server: Server,
                                                                                       browser: Any) -> None:
    r = httpx.post(server.url + "/api/tables", json={
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}], "tricks": "beginner",
        "target": 3, "clock": "rapid"})
    assert r.status_code == 201, r.text
    table = r.json()
    link = next(s["link"] for s in table["seats"] if s["mine"])
    context = browser.new_context()
    page = context.new_page()
    page.goto(link)  # (absolute: the server has a public address)
    page.wait_for_function("() => document.body.dataset.myTurn === '1'")
    assert page.title().startswith("● Your turn")
    assert page.get_attribute("link[rel=icon]", "href") == "/static/favicon-turn.svg"
    assert page.locator("#clocks .clock").count() == 2
    running = page.locator("#clocks .clock.running .clock-time")
    first = running.inner_text()
    shown = "document.querySelector('#clocks .clock.running .clock-time').textContent"
    page.wait_for_function(f"() => {shown} !== {first!r}")
    assert seconds(running.inner_text()) < seconds(first)  # 9:59 after 10:00: it counts down

    # installable: the manifest is linked and the service worker (which shows pushed notices) is running
    assert page.evaluate("async () => (await navigator.serviceWorker.ready).scope") == server.url + "/"
    manifest = httpx.get(server.url + page.get_attribute("link[rel=manifest]", "href")).json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"

    lobby = context.new_page()  # the same browser: it holds the seat's link
    lobby.goto(server.url + "/")
    lobby.wait_for_selector(f"#turn-queue li[data-table='{table['id']}']")
    assert lobby.get_attribute("#next-game", "href") == link
    pace = lobby.locator(f"#running-tables li[data-table='{table['id']}'] .pace")
    assert pace.inner_text() == "⏱ Real-time: 10 minutes + 5 seconds a move"  # the lobby says each table's pace

    page.bring_to_front()
    play_my_turn_out(page)
    mine, title = page.evaluate("() => [document.body.dataset.myTurn, document.title]")  # one moment, both read
    assert title.startswith("●") == (mine == "1"), (mine, title)  # the bot may have given the turn back already
    context.close()


def test_a_hidden_tab_shows_a_notice_when_the_turn_comes_and_a_visible_one_does_not(server: Server,
                                                                                   browser: Any) -> None:
    r = httpx.post(server.url + "/api/tables", json={
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}], "tricks": "beginner",
        "target": 3})
    assert r.status_code == 201, r.text
    table = r.json()
    link = next(s["link"] for s in table["seats"] if s["mine"])
    context = browser.new_context(permissions=["notifications"])  # as after "Notify me" was allowed
    context.add_init_script(HIDDEN_TAB)
    page = context.new_page()
    page.goto(link)
    page.wait_for_function("() => document.body.dataset.myTurn === '1'")  # the dice may give the bot the first turn
    notices = page.evaluate("() => window.__notices")
    assert notices == [{"title": f"Your turn at table {table['id']}", "tag": f"spots-{table['id']}"}]

    play_until(page, "window.__notices.length >= 2")  # the bot's turn, then mine again: a second notice
    page.wait_for_function("() => document.body.dataset.myTurn === '1'")
    assert page.evaluate("() => window.__notices") == notices * 2

    page.evaluate("() => { window.__hidden = false; }")  # the player comes back to the tab: no more notices
    play_my_turn_out(page)
    page.wait_for_function("() => document.body.dataset.myTurn === '1' || document.body.dataset.over === '1'")
    assert page.evaluate("() => window.__notices.length") == 2
    context.close()


def test_the_end_screen_says_who_ran_out_of_time(server: Server, browser: Any) -> None:
    """A player whose clock runs out sees the game end (a stand-in plays on for them: nobody else is there to
    choose), and the end screen says why: "Ada ran out of time", not only who won (issue 43)."""
    r = httpx.post(server.url + "/api/tables", json={
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}], "tricks": "beginner",
        "target": 2, "clock": {"pace": "turn-based", "seconds": 3}})  # the bot cannot win before her turn
    assert r.status_code == 201, r.text
    link = next(s["link"] for s in r.json()["seats"] if s["mine"])
    context = browser.new_context()
    page = context.new_page()
    page.goto(link)  # and Ada never moves
    page.wait_for_function("() => document.body.dataset.over === '1'")
    page.wait_for_selector("#end p.absent")
    assert page.inner_text("#end p.absent") == "Ada ran out of time; a stand-in finished the game for them."
    context.close()
