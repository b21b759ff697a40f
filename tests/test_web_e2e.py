"""End to end: the real server in a subprocess on 127.0.0.1, driven by headless Chromium and by kill -9.

The browser tests need Debian's ``chromium`` and Playwright's Python package; they
are skipped (with the reason) when either is missing.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import spots
from support.e2e import OVER_OR_A_DROP, Server, click_a_move, moves_of, shoot, wait_for_my_turn_or_end
from support.processes import PATIENT_S
from support.servers import children

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web") / "e2e.db").start()
    yield srv
    srv.stop()


def new_game_against_a_bot(page: Any, server: Server) -> None:
    """Create a table in the lobby form (me against the random bot, first to 1 dog): it opens my seat."""
    page.goto(server.url + "/")
    page.select_option("#opt-spots-players", "2")
    page.select_option("select[name=seat-1]", "bot:random")
    page.fill("input[name=name-0]", "Tester")
    page.select_option("#opt-spots-target", "1")
    page.click("#create")
    page.wait_for_url("**/play/**")  # alone with a bot: straight to my seat (no links to send)
    page.wait_for_selector("#log li")
    assert "Tester" in page.inner_text(".player.me")


def play_to_the_end(page: Any) -> tuple[int, bool]:
    """Click moves until the game ends, reloading the page once mid-game; returns (clicks, reloaded)."""
    clicks = 0
    reloaded = False
    while not wait_for_my_turn_or_end(page):
        click_a_move(page, clicks)
        clicks += 1
        if clicks == 2 and not reloaded and page.get_attribute("body", "data-over") != "1":
            seen = moves_of(page)
            log_lines = page.locator("#log li").count()
            page.reload()  # everything comes back, and play goes on from there
            page.wait_for_function(f"() => Number(document.body.dataset.moves) >= {seen}")
            assert page.locator("#log li").count() >= log_lines
            reloaded = True
        assert clicks < 400, "the game did not end"
    return clicks, reloaded


def test_play_a_whole_game_against_a_bot_by_clicking(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone-sized screen
    page = context.new_page()
    for _ in range(5):  # the bot may win before the page could be reloaded mid-game: then play again
        new_game_against_a_bot(page, server)
        clicks, reloaded = play_to_the_end(page)
        if reloaded:
            break
    assert reloaded and clicks >= 2
    end = page.inner_text("#end")
    assert re.search(r"wins with \d scored dogs?", end), end
    table_id = page.get_attribute("body", "data-table")
    row = server.table(table_id)
    assert row["status"] == "over" and row["view"]["over"]
    # the replay viewer steps through the whole game
    page.click("#open-replay")
    page.wait_for_url("**/replay")
    page.wait_for_function("() => document.body.dataset.at === '0'")
    total = int(page.inner_text("#total"))
    assert total == row["moves"]
    page.click("#next")
    page.wait_for_function("() => document.body.dataset.at === '1'")
    assert page.inner_text("#move-text").startswith("reveal ")
    page.click("#last")
    page.wait_for_function(f"() => document.body.dataset.at === '{total}'")
    assert "wins" in page.inner_text("#end")
    page.click("#prev")
    page.wait_for_function(f"() => document.body.dataset.at === '{total - 1}'")
    # finished games stay listed in the lobby, with their replay
    page.goto(server.url + "/")
    page.wait_for_selector(f"#finished-tables li[data-table='{table_id}'] a[href$='/replay']")
    context.close()


def test_a_second_seat_and_a_spectator_see_moves_live(server: Server, browser: Any) -> None:
    t = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], target=3)
    pages = []
    for link in [t["seats"][0]["link"], t["seats"][1]["link"], t["watch"]]:
        ctx = browser.new_context()  # separate contexts: separate people
        page = ctx.new_page()
        page.goto(link)
        page.wait_for_selector("#log li")
        pages.append(page)
    spectator = pages[2]
    assert spectator.locator("#controls button.move").count() == 0
    for _ in range(3):
        to_move = server.table(t["id"])["view"]["to_move"]
        mover, other = pages[to_move], pages[1 - to_move]
        assert other.locator("#controls button.move").count() == 0
        before = moves_of(other)
        log_before = other.locator("#log li").count()
        mover.locator("#controls button.move").first.click()
        for watcher in (other, spectator):
            watcher.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")
        assert other.locator("#log li").count() > log_before
        assert ["Ann", "Bob"][to_move] in other.locator("#log li").nth(log_before).inner_text()
        for page in pages:
            page.wait_for_function(
                "() => !document.querySelector('#controls p.your-turn')?.textContent.includes('sending')")
    for page in pages:
        page.context.close()


def test_kill_the_server_mid_game_and_start_it_again(tmp_path: Path) -> None:
    """kill -9 while bots are moving: every recorded move is back, and the bots carry on; the killed
    server's worker processes do not linger."""
    db = tmp_path / "crash.db"
    srv = Server(db, bot_delay=0.01).start()
    try:
        bots = srv.create([{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}], target=10)
        humans = srv.create([{"kind": "human"}, {"kind": "human"}], target=3)
        deadline = time.time() + PATIENT_S
        while srv.table(bots["id"])["moves"] < 40 and time.time() < deadline:
            time.sleep(0.05)
        seen_before = srv.table(humans["id"])
        assert srv.proc is not None
        workers = children(srv.proc.pid)
        assert workers  # the bots think in a worker process
        srv.kill()
    finally:
        srv.stop()
    deadline = time.time() + PATIENT_S
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()], "the killed server's workers exited"
    con = sqlite3.connect(db)
    rules = json.loads(con.execute("SELECT rules FROM tables WHERE id = ?", (bots["id"],)).fetchone()[0])
    recorded = [m for (m,) in con.execute("SELECT move FROM moves WHERE table_id = ? ORDER BY idx", (bots["id"],))]
    con.close()
    assert len(recorded) >= 40
    crashed_at = spots.replay(recorded, rules)  # the file holds a consistent game
    srv = Server(db, bot_delay=0.01).start()
    try:
        again = srv.table(humans["id"])
        assert again["view"] == seen_before["view"] and again["log"] == seen_before["log"]
        first = srv.table(bots["id"])
        assert first["moves"] >= len(recorded)
        assert httpx.get(f"{srv.url}/api/tables/{bots['id']}/record").json()["moves"][: len(recorded)] == recorded
        deadline = time.time() + PATIENT_S
        while srv.table(bots["id"])["moves"] < len(recorded) + 10 and time.time() < deadline:
            time.sleep(0.05)
        assert srv.table(bots["id"])["moves"] >= len(recorded) + 10 or crashed_at.is_terminal()
    finally:
        srv.stop()


def test_play_double_spot_to_the_end_against_a_bot(server: Server, browser: Any) -> None:
    """The lobby offers Double Spot; a whole game by clicking columns, a reload mid-game, then the replay."""
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone-sized screen
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("#game", "double-spot")
    assert page.locator("#opt-spots-players").is_hidden() and page.locator("#opt-double-spot-target").is_visible()
    page.select_option("select[name=seat-1]", "bot:greedy")
    page.fill("input[name=name-0]", "Tester")
    page.select_option("#opt-double-spot-target", "3")
    page.click("#create")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-game='double-spot'] #log li")
    assert "Tester" in page.inner_text(".player.me")
    clicked: list[str] = []
    reloaded = False
    while True:
        page.wait_for_function(OVER_OR_A_DROP)
        if page.get_attribute("body", "data-over") == "1":
            break
        before = moves_of(page)
        slots, drops = page.locator(".slot.clickable"), page.locator(".ds-column button.drop")
        # alternate: a whole column (when the die leaves one colour) or one of the coloured arrows;
        # once, the advisor's first suggestion
        if len(clicked) == 1:
            page.click("#hint-button")
            page.wait_for_selector("#hints table.advice button.move")
            target = page.locator("#hints button.move").first
        elif len(clicked) % 2 and slots.count():
            target = slots.nth(len(clicked) % slots.count())
        else:
            target = drops.nth(len(clicked) * 3 % drops.count())
        clicked.append(str(target.get_attribute("data-move")))
        target.click()
        page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")
        if len(clicked) == 3 and not reloaded:
            page.reload()  # the table comes back as it was
            page.wait_for_function(f"() => Number(document.body.dataset.moves) >= {before + 1}")
            reloaded = True
        assert len(clicked) < 60, "the game did not end"
    assert reloaded or len(clicked) < 3
    assert re.search(r"wins with \d cards?|a draw", page.inner_text("#end")), page.inner_text("#end")
    table_id = page.get_attribute("body", "data-table")
    row = server.table(str(table_id))
    assert row["game"] == "double-spot" and row["status"] == "over"
    record = httpx.get(f"{server.url}/api/tables/{table_id}/record").json()
    mine = iter(record["moves"])
    assert all(any(m == move for m in mine) for move in clicked), "every click is in the record, in order"
    page.click("#open-replay")
    page.wait_for_url("**/replay")
    page.wait_for_function("() => document.body.dataset.at === '0'")
    page.click("#last")
    page.wait_for_function(f"() => document.body.dataset.at === '{row['moves']}'")
    front = page.inner_text(".side")
    page.click("#flip")  # the other player's side of the frame
    page.wait_for_function(f"() => !document.querySelector('.side').textContent.includes({json.dumps(front)})")
    assert "greedy bot" in page.inner_text(".side")  # a bot seat nobody named, by its identifier
    context.close()


def test_the_double_spot_tutorial_teaches_a_whole_game(server: Server, browser: Any) -> None:
    """The lobby's Learn Double Spot button: a game against a bot with its callouts, each at its moment."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(server.url + "/?lang=en")
    page.click("#learn-double-spot")
    page.wait_for_url("**/play/**?learn=1")
    page.wait_for_selector("body[data-game='double-spot'] #callout:not([hidden])")
    seen: dict[str, str] = {}
    advice = False
    for _ in range(200):
        page.wait_for_function("() => document.body.dataset.over === '1' || !document.querySelector('#callout').hidden"
                               " || document.querySelector('.ds-column button.drop')")
        if page.locator("#callout").is_visible():
            key = str(page.get_attribute("#callout", "data-key"))
            seen[key] = page.inner_text("#callout")
            page.wait_for_selector("#callout:not([data-advice=asking])")  # the tip's advisor has answered
            advice = advice or page.inner_text("#callout-advice").startswith("Advisor: Column ")
            if key == "careful":
                shoot(page, "tutorial-double-spot.png")
            page.click("#callout-ok")
            continue
        if page.get_attribute("body", "data-over") == "1":
            break
        before = moves_of(page)
        page.locator(".ds-column button.drop").first.click()
        page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")
    if "end" not in seen:
        page.wait_for_selector("#callout[data-key=end]")
        seen["end"] = page.inner_text("#callout")
    assert {"welcome", "drop", "sides", "careful", "end"} <= set(seen), seen
    assert "Welcome to Double Spot!" in seen["welcome"] and "first to take 3 cards" in seen["welcome"], seen
    taken = sum(int(n) for n in page.locator(".card-count").all_inner_texts())
    assert ("card" in seen) == (taken > 0), (seen, taken)  # every taken card was pointed out
    assert advice, "the advisor's best drop was shown"
    page.context.close()

# Every policy violation on the page, collected from its first script on (an init script runs before the page's own).
WATCH_THE_POLICY = """document.addEventListener('securitypolicyviolation', (e) =>
  (window.__csp = window.__csp || []).push(
    `${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`));"""


def test_every_page_runs_its_scripts_under_the_content_security_policy(server: Server, browser: Any) -> None:
    """The policy lets no inline script run without its response's nonce, and no eval: every page's own
    scripts must still all run (the lobby, rules, tutorial, host, seat, watch and replay pages)."""
    spots_table = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    double_spot = server.create([{"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}], game="double-spot")
    context = browser.new_context()
    context.add_init_script(WATCH_THE_POLICY)
    page = context.new_page()
    pages = [("/", "#create"), ("/rules", "#rules-tiles figure"), ("/rules/double-spot", ".rules-games"),
             (spots_table["host"], ".play-link"), (spots_table["seats"][0]["link"], "#log li"),
             (spots_table["watch"], "#log li"), (double_spot["seats"][0]["link"], ".ds-column"),
             (f"/t/{spots_table['id']}/replay", "#total")]
    for url, ready in pages:
        page.goto(url if url.startswith("http") else server.url + url)
        page.wait_for_selector(ready)
        assert page.evaluate("() => window.__csp || []") == [], url
        assert page.evaluate("() => typeof window.SPOTS_WORDS") == "object", url  # the inline bootstrap ran
    page.goto(server.url + "/")
    page.click("#learn-button")  # the tutorial's callouts come from an inline script too
    page.wait_for_selector("#log li")
    assert page.evaluate("() => window.__csp || []") == []
    page.wait_for_selector("#callout:not([hidden])")
    context.close()
