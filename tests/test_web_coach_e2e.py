"""End to end, 'How did it go?': finish a game in Chromium, read the report, jump to a mistake in the replay.

The real server in a subprocess (the report computed in its worker process, as in production), driven by
headless Chromium; skipped like the other browser tests when Chromium or Playwright is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.e2e import play_plainly
from support.processes import PATIENT_REPORT_MS
from support.servers import Server

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("coach") / "coach.db"
    srv = Server(db, "--host", "127.0.0.1", "--bot-delay", "0.05", "--log-level", "warning", "--private",
                 "--workers", "1").start()
    yield srv
    srv.stop()


def finish_a_game(page: Any, server: Server) -> str:
    """Me against the random bot to 1 dog, playing plainly (place or score when offered, else stop, else the first
    move: quick, and rarely the best); the table's id."""
    r = httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "human", "name": "Tester"},
                                                              {"kind": "bot", "bot": "random"}],
                                                    "tricks": "beginner", "target": 1})
    assert r.status_code == 201, r.text
    page.goto(r.json()["seats"][0]["link"])
    play_plainly(page)
    return str(r.json()["id"])


def test_the_report_on_the_end_screen_and_a_mistake_in_the_replay(server: Server, browser: Any) -> None:
    page = browser.new_page()
    for _ in range(5):  # a game can end before Tester made a mistake (the bot scores first): then another
        table = finish_a_game(page, server)
        page.wait_for_function("() => document.body.dataset.coach === 'ready'", timeout=PATIENT_REPORT_MS)
        if page.locator("#coach .coach-mistake").count():
            break
    coach = page.locator("#coach")
    assert "How did it go?" in coach.inner_text()
    assert coach.locator(".coach-summary tbody tr").count() == 2
    assert coach.locator("svg.coach-svg polyline").count() == 2, "a line of chances for each player"
    mistakes = coach.locator(".coach-mistake")
    assert 1 <= mistakes.count() <= 3
    first = mistakes.first.inner_text()
    assert "Played: " in first and "Better: " in first and "points lost" in first
    step = int(mistakes.first.get_attribute("data-step") or -1)
    # from the end screen to the replay at that position
    mistakes.first.locator("a.coach-see").click()
    page.wait_for_url(f"**/t/{table}/replay?at={step}")
    page.wait_for_function(f"() => document.body.dataset.at === '{step}' && document.body.dataset.coach === 'ready'",
                           timeout=PATIENT_REPORT_MS)
    assert page.input_value("#slider") == str(step)
    assert page.locator("#coach-chart svg.coach-svg").is_visible(), "the chart rides over the slider"
    # in the replay: back to the start, then a mistake's button (and its dot on the chart) moves the slider to it
    page.click("#first")
    page.wait_for_function("() => document.body.dataset.at === '0'")
    page.locator("#coach .coach-mistake").last.locator("button.coach-see").click()
    last = int(page.locator("#coach .coach-mistake").last.get_attribute("data-step") or -1)
    page.wait_for_function(f"() => document.body.dataset.at === '{last}'")
    assert page.input_value("#slider") == str(last)
    assert "current" in (page.locator("#coach .coach-mistake").last.get_attribute("class") or "")
    page.click("#first")
    page.wait_for_function("() => document.body.dataset.at === '0'")
    page.locator(f"#coach-chart circle[data-coach-step='{step}']").first.dispatch_event("click")
    page.wait_for_function(f"() => document.body.dataset.at === '{step}'")
    assert page.input_value("#slider") == str(step)
    page.close()


def test_the_report_waits_for_the_end_of_the_game(server: Server) -> None:
    r = httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "human", "name": "A"},
                                                              {"kind": "human", "name": "B"}]})
    answer = httpx.get(f"{server.url}/api/tables/{r.json()['id']}/analysis")
    assert answer.status_code == 409 and "not finished" in answer.json()["message"]
    assert Path(server.log).exists()
