"""A tournament in Chromium: a player signs up for an event on its page, is sent to their table when the round
starts, plays the game by clicking, and a spectator's page shows the standings change without a reload."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from spots.web.accounts.service import COOKIE
from support.e2e import Server, play_plainly
from support.processes import PATIENT_S
from support.sockets import signed_in

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("tournament") / "club.db").start()
    yield s
    s.stop()


def test_a_player_signs_up_plays_the_round_and_a_spectator_sees_the_standings_change(server: Server,
                                                                                     browser: Any) -> None:
    organiser = signed_in(server, "Org", new=True)
    with httpx.Client(base_url=server.url, timeout=PATIENT_S, cookies={COOKIE: organiser},
                      headers={"Origin": server.url}) as org:
        r = org.post("/tournaments", json={"name": "Tuesday club", "game": "spots", "format": "swiss", "rounds": 1,
                                           "pace": "day", "starts_in": 60,
                                           "options": {"target": 1, "tricks": "beginner"}})
        tournament = r.json()["id"]
        org.post(f"/tournaments/{tournament}/bots", json={"bot": "greedy"})

        pia = browser.new_context().new_page()
        pia.goto(server.url + "/signup")
        pia.fill("#account-name", "Pia")
        pia.fill("#account-password", "correct horse battery")
        pia.click("#account-submit")
        pia.wait_for_url("**/me")
        pia.goto(server.url + "/tournaments")
        pia.click("text=Tuesday club")
        pia.click("#join")  # the form posts and comes back to the event's page
        pia.wait_for_selector("#withdraw")
        assert "Pia" in pia.inner_text("#standings")

        spectator = browser.new_context().new_page()
        spectator.goto(f"{server.url}/tournaments/{tournament}")
        assert spectator.get_attribute("body", "data-status") == "open"
        assert org.post(f"/tournaments/{tournament}/start", json={}).status_code == 200

    pia.wait_for_selector("#my-table")  # the round started: the page offers the player's own table
    pia.click("#my-table")
    pia.wait_for_url("**/play/**")
    play_plainly(pia)
    spectator.wait_for_function("() => document.body.dataset.status === 'over'")
    rows = spectator.locator("#standings tbody tr").all_inner_texts()
    assert len(rows) == 2 and any("Pia" in row for row in rows) and any("greedy-bot 1" in row for row in rows)
    assert "places:" in spectator.inner_text("#live")
    for page in (pia, spectator):
        page.context.close()
