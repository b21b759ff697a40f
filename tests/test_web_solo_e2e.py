"""In Chromium, the daily deal (issue 29): from the lobby to the Daily page, the first solo game's guide, a whole
game clicked through the page, then the score against par and the bot's race board, and the board of the day.

The game clicked is the race's own (the par's bot, seed 0, on the deal's keyed dice), worked out here: if the
server's dice were not the deal's keyed dice, a move would not be offered and the test would stop there; and since
the same choices meet the same dice, the race board must show the bot's turns equal to the player's.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from spots.core.commitment import digest
from spots.games.spots.daily import daily_deal, utc_today
from spots.games.spots.par import play_deal
from support.browser import DESKTOP
from support.e2e import moves_of
from support.processes import PATIENT_S
from support.servers import Server
from support.web import decisions

pytestmark = pytest.mark.timeout(240)
PAR_BOT = "greedy"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("solo")
    # today's and tomorrow's par from the start, set by the greedy bot: the strongest bot's would take minutes of a
    # loaded machine's time at the low priority pars run at, and what is tested here is the same for every bot
    srv = Server(where / "s.db", env={"SPOTS_PAR_GAMES": "2", "SPOTS_PAR_CACHE": str(where / "par"),
                                      "SPOTS_PARS_AHEAD": "2", "SPOTS_PAR_BOT": PAR_BOT}).start()
    yield srv
    srv.stop()


# the turn now, and a filled row for each turn the player has finished (the panel asks for them when a turn ends)
RACE_SHOWS_THE_TURN_NOW = """() => {
  const now = document.querySelector('#race-table tbody tr.now td');
  const finished = document.querySelectorAll('#race-table tbody tr[data-turn] td.you:not(:empty)').length;
  return now && Number(now.textContent) === window.SpotsTable.view().turn && finished === Number(now.textContent) - 1;
}"""


def test_the_days_par_and_the_next_are_worked_out_before_anyone_plays(server: Server) -> None:
    import httpx

    cache = Path(server.db).parent / "par"
    days = [utc_today(), utc_today() + timedelta(days=1)]
    deadline = time.monotonic() + PATIENT_S
    while not all(list(cache.glob(f"daily-{d}-*.json")) for d in days) and time.monotonic() < deadline:
        time.sleep(0.1)  # nobody has asked for either: the server works them out from its start
    assert all(list(cache.glob(f"daily-{d}-*.json")) for d in days), list(cache.glob("*"))
    page = httpx.get(server.url + "/daily?lang=en").text
    assert "Par: " in page and "being worked out" not in page  # the day's first visitor sees par at once


def test_the_daily_deal_played_to_its_end_shows_the_score_against_par_and_the_race(
        server: Server, browser: Any) -> None:
    page = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
    page.goto(server.url + "/?lang=en")
    page.click("#daily-link")
    page.wait_for_url("**/daily")
    assert page.inner_text("h1") == f"Daily deal of {utc_today().isoformat()}"
    with sqlite3.connect(server.db) as con:  # the server's deal is keyed by its host's secret (made by now)
        (secret,) = con.execute("SELECT secret FROM solo_secret").fetchone()
    deal = daily_deal(utc_today(), secret)
    assert page.inner_text("#daily-commitment") == digest(deal.key) and deal.key != daily_deal(utc_today()).key
    race = play_deal(deal, PAR_BOT, 0)
    page.click("#play-daily")
    page.wait_for_url(f"**/play/**?solo={deal.name}")
    held = {"par": False}  # from mid-game the par is held back, as on a server still working it out

    def hide_par(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        if held["par"]:
            body.update(par=None, pending=True, progress={"played": 1, "games": 2})
            body.pop("medal", None)
        route.fulfill(response=answer, json=body)

    page.route("**/api/solo/**", hide_par)
    guide = []
    for _ in range(3):  # the first solo game's guide, one tip at a time
        page.wait_for_selector("#solo-guide p")
        guide.append(page.inner_text("#solo-guide p"))
        page.click("#solo-guide-ok")
    assert guide[0].startswith("Solo: score 6 dogs") and "same dice" in guide[2]
    assert page.locator("#solo-guide").count() == 0
    for i, move in enumerate(decisions(race.history())):
        button = f'#controls button.move[data-move="{move}"]:not([disabled])'
        page.wait_for_selector(button)
        before = moves_of(page)
        page.click(button)
        page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")
        if i == 20:  # mid-game: the bot's board is shown for the turns the player has finished, no further
            page.wait_for_selector("#race-par[data-state=ready]")
            page.wait_for_function(RACE_SHOWS_THE_TURN_NOW)
            now = int(page.inner_text("#race-table tbody tr.now td"))
            shown = page.locator("#race-table tbody tr[data-turn]").count()
            assert shown == now - 1
            held["par"] = True
    page.wait_for_selector("#race[data-over='1'] #race-result")  # the end, par not known yet: the result is kept
    assert page.inner_text("#race-result").startswith(f"Your result: {race.turn} turns")
    assert "par" not in page.inner_text("#race-result")
    assert page.inner_text("#race-par") == "Par is being worked out: the bot has played 1 of 2 games on these dice…"
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('spots-solo-best'))")
    assert kept[deal.name]["turns"] == race.turn
    held["par"] = False  # par comes: the result is compared with it
    page.wait_for_selector("#race-par[data-state=ready]")
    page.wait_for_function("() => document.getElementById('race-result').textContent.includes('par')")
    result = page.inner_text("#race-result")
    busted = f"{race.busts[0]} {'bust' if race.busts[0] == 1 else 'busts'}"  # each count in its plural
    assert result.startswith(f"Your result: {race.turn} turns, {busted}.")
    assert "par" in result and f"The bot finished in {race.turn} turns." in result
    assert f"the {PAR_BOT} bot's mean of 2 games on these dice (95% interval" in page.inner_text("#race-par")
    rows = page.locator("#race-table tbody tr[data-turn]")
    assert rows.count() == race.turn
    for t in range(race.turn):  # the same choices met the same dice: the race is level turn by turn
        row = rows.nth(t)
        assert row.locator("td.you").inner_text() == row.locator("td.bot").inner_text() != ""
        dogs, busts = (int(n) for n in re.findall(r"\d+", row.locator("td.you").inner_text()))
        assert row.locator("td.you").inner_text() == (f"{dogs} {'dog' if dogs == 1 else 'dogs'},"
                                                      f" {busts} {'bust' if busts == 1 else 'busts'}")  # "1 dog"
    assert rows.nth(race.turn - 1).locator("td.you").inner_text().startswith("6 dogs")
    page.goto(server.url + "/daily?lang=en")  # the board of the day, kept in this browser
    assert page.inner_text("#daily-best") == f"Your best today: {race.turn} turns, {busted}."
    assert page.inner_text("#daily-streak") == "Streak: 1 day in a row."
    page.context.close()


def test_a_bad_date_or_challenge_is_refused_saying_what_is_allowed(server: Server) -> None:
    import httpx

    bad = httpx.post(server.url + "/daily", data={"date": "2026-02-30"})
    assert bad.status_code == 400 and "YYYY-MM-DD" in bad.json()["message"]
    old = httpx.post(server.url + "/daily", data={"date": "2001-01-01"})
    assert old.status_code == 400 and "the 30 days before it" in old.json()["message"]
    nope = httpx.post(server.url + "/challenge", data={"challenge": "nope"})
    assert nope.status_code == 400 and "agility-six" in nope.json()["message"]
    unknown = httpx.get(server.url + "/api/solo/nope")
    assert unknown.status_code == 404 and "a daily deal is daily-YYYY-MM-DD" in unknown.json()["message"]
    for lang, title in (("es", "Partida del día"), ("vi", "Ván hằng ngày"), ("zh-Hant", "每日一局")):
        page = httpx.get(server.url + f"/daily?lang={lang}")
        assert page.status_code == 200 and title in page.text, lang
    made = httpx.post(server.url + "/challenge", data={"challenge": "first-pair"})
    assert made.status_code == 303 and made.headers["location"].endswith("?solo=first-pair")


def test_the_daily_page_and_a_solo_table_have_no_serious_accessibility_problem(
        server: Server, browser: Any, axe: Any) -> None:
    from support.e2e import problems

    page = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
    page.goto(server.url + "/daily?lang=en")
    assert problems(axe, page) == []
    page.click("#play-daily")
    page.wait_for_selector("#race-table")
    page.wait_for_selector("#controls button.move")
    assert problems(axe, page) == []  # the race panel beside the table, the guide's first tip over it
    page.context.close()
