"""Table talk, rematch and ratings in a real browser (Chromium) on a real server process (issue 25).

Chat between two players while a spectator's chat stays hidden from them; a rematch accepted from two
browser contexts; a rated game against a bot played to the end by clicking, its rating change on the
profile and the leaderboard. Moves that only set the scene (finishing a game between two people) are sent
over the seats' own WebSockets, as a second tab of the same player would.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from support.browser import DESKTOP, PHONE
from support.e2e import click_a_move, wait_for_my_turn_or_end
from support.processes import PATIENT_S
from support.servers import Server

pytestmark = pytest.mark.timeout(300)
TWO = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("talk") / "talk.db", "--host", "127.0.0.1", "--bot-delay", "0.05",
                 "--log-level", "warning", "--private", "--leaderboard-min-games", "1",
                 "--message-rate", "1000", "--message-burst", "1000").start()  # the scene-setting moves come fast
    yield srv
    srv.stop()


def create(server: Server, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    r = httpx.post(server.url + "/api/tables", json={"seats": seats, "tricks": "beginner", "target": 1, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def finish_over_sockets(server: Server, table: dict[str, Any], seed: int = 3) -> None:
    """Play random legal moves from each human seat's own socket until the game is over."""
    pick = random.Random(seed)
    links = {s["seat"]: s["link"].rsplit("/", 1)[1] for s in table["seats"] if s["link"]}
    with ExitStack() as stack:
        socks = {seat: stack.enter_context(connect(f"ws://127.0.0.1:{server.port}/ws/{table['id']}?token={tok}",
                                                   open_timeout=PATIENT_S)) for seat, tok in links.items()}
        views: dict[int, dict[str, Any]] = {}

        def newest(seat: int, after: int) -> dict[str, Any]:
            while True:
                msg = json.loads(socks[seat].recv(timeout=PATIENT_S))
                assert msg["type"] != "error", msg
                if msg["type"] == "state" and msg["view"]["moves"] > after:
                    return dict(msg["view"])

        for seat in socks:
            views[seat] = newest(seat, -1)
        while True:
            view = max(views.values(), key=lambda v: v["moves"])
            if view["over"]:
                return
            mover = view["to_move"]
            if mover not in socks or views[mover]["moves"] != view["moves"]:
                seat = mover if mover in socks else next(iter(socks))
                views[seat] = newest(seat, views[seat]["moves"])
                continue
            socks[mover].send(json.dumps({"type": "move", "move": pick.choice(view["legal"])["move"],
                                          "at": view["moves"]}))
            views[mover] = newest(mover, view["moves"])


def at(server: Server, link: str) -> str:
    """A link the server handed out, absolute (it is when the server knows its public address)."""
    return link if link.startswith("http") else server.url + link


def talk_texts(page: Any) -> list[str]:
    return list(page.locator("#talk-lines .talk-text").all_inner_texts())


def say(page: Any, text: str) -> None:
    page.fill("#talk-text", text)
    page.click("#talk-send")


# each chat line's name and text start on one row (a player's line once drew in three grid columns, 300 px apart)
ONE_ROW = """() => [...document.querySelectorAll('#talk-lines li.talk-line')].every((li) => {
  const who = li.querySelector('.talk-who').getBoundingClientRect();
  const text = li.querySelector('.talk-text').getBoundingClientRect();
  return Math.abs(who.top - text.top) < 4 && text.left - who.right < 20;
})"""


def test_players_chat_while_the_spectators_chat_stays_hidden(server: Server, browser: Any) -> None:
    table = create(server, TWO)
    ann = browser.new_context(viewport=PHONE).new_page()  # one player on a phone
    bob, spy = (browser.new_context(viewport=DESKTOP).new_page() for _ in range(2))
    ann.goto(at(server, table["seats"][0]["link"]))
    bob.goto(at(server, table["seats"][1]["link"]))
    spy.goto(server.url + f"/t/{table['id']}")
    for page in (ann, bob, spy):
        page.wait_for_selector("#log li")
    assert spy.locator("#talk-watchers-row").is_hidden()  # a spectator has no players' chat to hide
    trap = "<img src=x onerror=\"document.body.dataset.pwned=1\">hello"
    say(ann, trap)
    bob.wait_for_function("() => document.querySelectorAll('#talk-lines .talk-text').length === 1")
    assert talk_texts(bob) == [trap]  # shown as text, never run as HTML
    assert bob.locator("#talk-lines img").count() == 0 and bob.get_attribute("body", "data-pwned") is None
    say(spy, "Bob is bluffing")
    spy.wait_for_function("() => [...document.querySelectorAll('#talk-lines .talk-text')]"
                          ".some((e) => e.textContent === 'Bob is bluffing')")
    bob.click("#talk-phrases button[data-phrase='good-luck']")
    for page in (ann, bob):  # the players' next line arrives; the spectator's never did
        page.wait_for_function("() => [...document.querySelectorAll('#talk-lines .talk-text')]"
                               ".some((e) => e.textContent === 'Good luck!')")
        assert "Bob is bluffing" not in talk_texts(page)
        assert page.evaluate(ONE_ROW), page.inner_html("#talk-lines")
    bob.check("#talk-watchers")  # Bob turns the spectators' chat on
    bob.wait_for_function("() => [...document.querySelectorAll('#talk-lines .talk-text')]"
                          ".some((e) => e.textContent === 'Bob is bluffing')")
    assert "Bob is bluffing" not in talk_texts(ann)
    for page in (ann, bob, spy):
        page.context.close()


def test_after_a_restart_a_rematch_accepted_from_two_browsers_seats_both_at_the_new_table(server: Server,
                                                                                          browser: Any) -> None:
    table = create(server, TWO)
    finish_over_sockets(server, table)  # the game is played; each player then opens their seat's link
    server.stop()
    server.start()  # after a restart, nothing of the table in memory: the links open its end screen from the store
    ann, bob = (browser.new_context().new_page() for _ in range(2))
    ann.goto(at(server, table["seats"][0]["link"]))
    bob.goto(at(server, table["seats"][1]["link"]))
    for page in (ann, bob):
        page.wait_for_function("() => document.body.dataset.over === '1'")
    ann.click("#rematch-button")
    bob.wait_for_function("() => document.getElementById('rematch-status').textContent === 'Waiting for you'")
    ann.wait_for_function("() => document.getElementById('rematch-status').textContent === 'Waiting for: Bob'")
    bob.click("#rematch-button")
    for page in (ann, bob):  # both are taken to their own seat at the new table
        # document.body is null for a moment while the new table's page loads
        page.wait_for_function(f"() => document.body?.dataset.table && document.body.dataset.table !== "
                               f"'{table['id']}'")
        page.wait_for_selector("#log li")
    assert ann.get_attribute("body", "data-table") == bob.get_attribute("body", "data-table")
    assert ann.get_attribute("body", "data-seat") == "1" and bob.get_attribute("body", "data-seat") == "0"
    assert "you are Ann" in ann.inner_text("#who") and "you are Bob" in bob.inner_text("#who")
    over = httpx.get(server.url + "/api/tables?status=over").json()["tables"]
    assert next(r for r in over if r["id"] == table["id"])["next"] == ann.get_attribute("body", "data-table")
    for page in (ann, bob):
        page.context.close()


def test_a_rated_game_against_a_bot_changes_the_rating_on_the_profile_and_leaderboard(server: Server,
                                                                                        browser: Any) -> None:
    page = browser.new_context().new_page()
    page.goto(server.url + "/signup")
    page.fill("#account-name", "rated_ann")
    page.fill("#account-password", "a long enough password")
    page.click("#account-submit")
    page.wait_for_selector("#me-link")
    page.goto(server.url + "/")
    page.select_option("#opt-spots-players", "2")
    page.select_option("select[name=seat-1]", "bot:random")
    page.select_option("#opt-spots-target", "1")
    page.check("#rated")
    page.click("#create")
    page.wait_for_url("**/play/**")
    assert "the result changes the players' ratings" in page.inner_text("#rated-note")
    clicks = 0
    while not wait_for_my_turn_or_end(page):
        click_a_move(page, clicks)
        clicks += 1
        assert clicks < 400, "the game did not end"
    page.wait_for_selector("#rating-list li[data-player='rated_ann']")
    news = page.inner_text("#rating-list li[data-player='rated_ann']")
    before, after = news.split(": ", 1)[1].split(" → ")
    assert before == "25.0 ± 16.7" and after != before
    table_page = page.url
    page.reload()  # a page (re)connecting after the table was rated is sent its ratings too
    page.wait_for_selector("#rating-list li[data-player='rated_ann']")
    assert page.inner_text("#rating-list li[data-player='rated_ann']") == news
    assert page.url == table_page
    page.goto(server.url + "/players/rated_ann")
    assert after in page.inner_text("#ratings") and page.locator("#ratings svg.rating-chart polyline").count() == 1
    page.goto(server.url + "/leaderboard/spots")
    row = page.locator("#leaderboard tr[data-player='rated_ann'] .rating")
    assert row.inner_text() == after
    assert page.locator("#leaderboard tr.bot[data-player='random']").count() == 1  # the bot, at its ladder rating
    page.context.close()
