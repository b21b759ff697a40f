"""Fair play in a real browser (Chromium) on a real server process (issue 41).

A rated table made in the lobby shows no Hint button on the player's own turn and says why, and its socket
refuses ``hint``; an unrated table whose creator chose "hints off" holds for both seats; an unrated table
with hints on shows the button (the same page, so the test can fail).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.e2e import Server, click_a_move, wait_for_my_turn_or_end
from support.web import users_cli

pytestmark = pytest.mark.timeout(300)
TWO = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("fairplay") / "fairplay.db").start()
    yield srv
    srv.stop()


def socket_hint(page: Any) -> dict[str, Any]:
    """Ask for a hint over a socket of the page's own seat, opened from the page (a second tab of the player:
    the same cookies); the answer."""
    return dict(page.evaluate("""() => new Promise((resolve, reject) => {
      const b = document.body.dataset;
      const ws = new WebSocket(`ws://${location.host}/ws/${b.table}?token=${b.token}`);
      ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        if (msg.type === "hello") ws.send(JSON.stringify({ type: "hint" }));
        if (msg.type === "hint" || msg.type === "error") { ws.close(); resolve(msg); }
      };
      ws.onclose = (e) => reject(new Error(`closed ${e.code}`));
    })"""))


def sign_up(page: Any, server: Server, name: str) -> None:
    page.goto(server.url + "/signup")
    page.fill("#account-name", name)
    page.fill("#account-password", "a long enough password")
    page.click("#account-submit")
    page.wait_for_selector("#me-link")


def test_a_rated_table_shows_no_hint_button_and_its_socket_refuses_hint(server: Server, browser: Any) -> None:
    page = browser.new_context().new_page()
    sign_up(page, server, "fair_ann")
    page.goto(server.url + "/")
    page.select_option("#opt-spots-players", "2")
    page.select_option("select[name=seat-1]", "bot:greedy")
    page.select_option("#opt-spots-target", "1")
    page.check("#rated")
    page.click("#create")
    page.wait_for_url("**/play/**")
    assert "No hints: rated." in page.inner_text("#hints-note")
    assert not wait_for_my_turn_or_end(page)  # the player's own turn, moves to click ...
    assert page.locator("#hint-button").is_hidden()  # ... and no Hint among them
    table_id = page.get_attribute("body", "data-table")
    refused = socket_hint(page)
    assert refused["code"] == "no-hints-rated" and "rated table" in refused["message"], refused
    page.goto(server.url + "/")
    row = page.locator(f"li.table-row[data-game][data-table='{table_id}']")
    row.wait_for()
    assert "no hints: rated" in row.inner_text()
    page.context.close()


def test_hints_off_hold_for_every_seat_and_hints_on_show_the_button(server: Server, browser: Any) -> None:
    off = server.create(TWO, hints=False)
    on = server.create(TWO)
    pages = {}
    for name, table in (("off", off), ("on", on)):
        for seat in table["seats"]:
            page = browser.new_context().new_page()
            page.goto(server.url + seat["link"] if seat["link"].startswith("/") else seat["link"])
            page.wait_for_selector("#log li")
            pages[name, seat["seat"]] = page
    for seat in (0, 1):
        page = pages["off", seat]
        assert "Hints off" in page.inner_text("#hints-note")
        refused = socket_hint(page)
        assert refused["code"] == "hints-off", refused
    for name, table in (("off", off), ("on", on)):  # the seat whose turn it is: Hint only where hints are on
        mover = pages[name, [p["name"] for p in TWO].index(server.table(table["id"])["to_move"])]
        assert not wait_for_my_turn_or_end(mover)
        if name == "on":
            mover.wait_for_selector("#hint-button", state="visible")
            mover.click("#hint-button")
            mover.wait_for_selector("#hints table.advice tbody tr")
        else:
            assert mover.locator("#hint-button").is_hidden()
    assert pages["on", 0].locator("#hints-note").count() == 0
    for page in pages.values():
        page.context.close()


def test_a_finished_table_and_its_replay_check_the_dice(server: Server, browser: Any) -> None:
    table = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    page = browser.new_context().new_page()
    page.goto(server.url + table["seats"][0]["link"] if table["seats"][0]["link"].startswith("/")
              else table["seats"][0]["link"])
    page.click("#dice summary")
    assert page.inner_text("#dice-commitment") == table["commitment"]  # the fingerprint, from the first roll on
    page.wait_for_selector("#dice-mine", state="visible")
    page.fill("#dice-salt", "Ann's own salt")
    page.click("#dice-add")
    page.wait_for_function("() => document.getElementById('dice-salts').textContent.includes(\"Ann's own salt\")")
    assert page.locator("#dice-seed").is_hidden() and page.locator("#dice-check").is_hidden()
    clicks = 0
    while not wait_for_my_turn_or_end(page):
        click_a_move(page, clicks)
        clicks += 1
        assert clicks < 400, "the game did not end"
    page.wait_for_selector("#dice-check", state="visible")  # the seed is out: anyone may check
    page.click("#dice-check")
    page.wait_for_selector("#dice-verdict[data-ok='1']")
    assert "chance events match the fingerprint shown before the first roll" in page.inner_text("#dice-verdict")
    page.goto(server.url + f"/t/{table['id']}/replay")
    page.click("#dice summary")
    page.wait_for_selector("#dice-check", state="visible")
    page.click("#dice-check")
    page.wait_for_selector("#dice-verdict[data-ok='1']")
    record = httpx.get(f"{server.url}/api/tables/{table['id']}/record").json()
    assert page.inner_text("#dice-seed code") == record["dice"]["seed"]  # the seed the record gives to check
    page.context.close()


def test_resigning_a_rated_game_asks_first_then_ends_it_and_rates_the_resigner_last(server: Server, browser: Any
                                                                                     ) -> None:
    page = browser.new_context().new_page()
    sign_up(page, server, "resign_ann")
    page.goto(server.url + "/")
    page.select_option("#opt-spots-players", "2")
    page.select_option("select[name=seat-1]", "bot:greedy")
    page.check("#rated")
    page.select_option("#min-finished", "90")  # a new account meets any minimum
    page.click("#create")
    page.wait_for_url("**/play/**")
    table_id = page.get_attribute("body", "data-table")
    row = next(t for t in httpx.get(server.url + "/api/tables").json()["tables"] if t["id"] == table_id)
    assert row["min_finished"] == 90
    page.locator("#resign-button").wait_for()
    page.click("#resign-button")
    assert page.locator("#resign-confirm").is_visible()
    page.click("#resign-no")  # asked first: keeping on changes nothing
    assert page.locator("#resign-confirm").is_hidden() and page.locator("#resign-button").is_visible()
    assert page.get_attribute("body", "data-over") == "0"
    page.click("#resign-button")
    page.click("#resign-yes")
    page.wait_for_selector("body[data-over='1']", timeout=60000)  # stand-ins play it out at once
    assert "resign_ann resigned: rated last, whatever the board says." in page.inner_text("#end")
    assert page.locator("#resign-button").is_hidden()
    deadline = 60.0
    ratings: list[Any] = []
    while deadline > 0 and not ratings:  # the rating is stored just after the end
        ratings = httpx.get(server.url + "/api/players/resign_ann/ratings").json()["ratings"]
        page.wait_for_timeout(100)
        deadline -= 0.1
    assert ratings[0]["history"][0]["place"] == 2  # last of two, whatever the board said
    page.goto(server.url + "/players/resign_ann")
    assert page.get_attribute("#reliability", "data-share") == "100"  # resigning counts as finishing
    page.context.close()


def test_a_chat_line_is_reported_from_the_table_and_a_player_blocked_from_their_profile(server: Server, browser: Any
                                                                                          ) -> None:
    ann, bob = browser.new_context().new_page(), browser.new_context().new_page()
    sign_up(ann, server, "talk_ann")
    sign_up(bob, server, "talk_bob")
    table = server.create(TWO)
    for page, seat in ((ann, 0), (bob, 1)):
        link = table["seats"][seat]["link"]
        page.goto(server.url + link if link.startswith("/") else link)
        page.click("#take-seat")  # each keeps the seat as their account's
        page.wait_for_selector("#log li")
    bob.fill("#talk-text", "<i>you</i> play badly")
    bob.click("#talk-send")
    ann.wait_for_selector("#talk-lines li.talk-line button.talk-report")
    assert bob.locator("#talk-lines button.talk-report").count() == 0  # not one's own line
    ann.click("#talk-lines button.talk-report")
    ann.fill("#report-why", "rude at the table")
    ann.click("#report-send")
    ann.wait_for_selector("#toast:not([hidden])")
    assert "the host reads it" in ann.inner_text("#toast")
    code, out = users_cli(str(server.db), "reports")
    assert code == 0 and "talk_ann reported talk_bob at table" in out and "said: '<i>you</i> play badly'" in out
    ann.goto(server.url + "/players/talk_bob")
    ann.click("#block-player")
    ann.wait_for_selector("#block-player.unblock")  # the profile now offers Unblock
    ann.goto(server.url + "/me")
    assert ann.inner_text("#blocked").startswith("talk_bob")
    ann.click("#blocked button.unblock")
    ann.wait_for_function("() => !document.querySelector('#blocked li')")
    for page in (ann, bob):
        page.context.close()
