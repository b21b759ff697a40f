"""axe-core (through ``axe-playwright-python``) on the lobby, a Double Spot table, its tutorial, the replay page and
the games' rules pages.

No serious or critical violation is allowed; a failure lists each rule, its help text and
the elements it found. The Spots table and the tutorial are checked with their own tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.e2e import ME_AND_A_BOT, PHONE, Server, drop_once, problems, settle, wait_until_over

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("a11y") / "a11y.db").start()
    yield srv
    srv.stop()


@pytest.mark.parametrize("viewport", [None, PHONE])
def test_the_lobby(server: Server, browser: Any, axe: Any, viewport: dict[str, int] | None) -> None:
    server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}], game="double-spot")  # a row
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#open-tables li.table-row")
    assert problems(axe, page) == []
    page.select_option("#game", "double-spot")  # the form as it is for Double Spot
    assert problems(axe, page) == []
    context.close()


@pytest.mark.parametrize("symbols", [False, True])
def test_a_double_spot_table(server: Server, browser: Any, axe: Any, symbols: bool) -> None:
    t = server.create(ME_AND_A_BOT, game="double-spot")
    context = browser.new_context()
    page = context.new_page()
    page.goto(t["seats"][0]["link"])
    page.wait_for_selector(".ds-column button.drop")
    if symbols:
        page.check("#ds-symbols")
    for turn in range(3):  # mid-game: discs in the frame, a card or two taken perhaps
        page.wait_for_selector(".ds-column button.drop")
        drop_once(page, turn)
    page.wait_for_selector(".ds-column button.drop")  # the bot's reply drawn, and its disc done falling
    settle(page)
    assert problems(axe, page) == []
    assert page.locator("h1").all_inner_texts() == [f"Table {t['id']} · you are Tester"]  # the page's one heading
    watcher = context.new_page()  # a spectator sees the table without controls
    watcher.goto(t["watch"])
    watcher.wait_for_selector(".frame")
    assert problems(axe, watcher) == []
    assert watcher.locator("h1").all_inner_texts() == [f"Watching table {t['id']}"]
    context.close()


def test_the_replay_page(server: Server, browser: Any, axe: Any) -> None:
    ds = server.create([{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}], game="double-spot",
                       target=2)
    spots = server.create([{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}], target=1)
    # a Spots board and end table are drawn by its spots.js, checked with the Spots table's own tests
    for t, where in ((ds, None), (spots, {"exclude": [["#board"], ["#end"]]})):
        wait_until_over(server, t["id"])
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{t['watch']}/replay")
        page.wait_for_function("() => document.body.dataset.at === '0'")
        assert problems(axe, page, where) == [], t["watch"]
        page.click("#last")
        page.wait_for_selector("#end:not([hidden])")
        assert problems(axe, page, where) == [], t["watch"]
        context.close()


def test_the_double_spot_tutorial(server: Server, browser: Any, axe: Any) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(server.url + "/?lang=en")
    page.click("#learn-double-spot")
    page.wait_for_selector("#callout[data-key=welcome]:not([hidden])")
    assert problems(axe, page) == []
    page.click("#callout-ok")  # the next tip: the first drop, over the frame
    page.wait_for_selector("#callout[data-key=drop]:not([hidden])")
    assert problems(axe, page) == []
    context.close()


@pytest.mark.parametrize("game", ["spots", "double-spot"])
def test_the_rules_pages(server: Server, browser: Any, axe: Any, game: str) -> None:
    """Each game's rules page, with the links to the other games' ones, on a phone."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{server.url}/rules/{game}")
    page.wait_for_selector(".rules-games a[aria-current=page]")
    assert problems(axe, page) == []
    context.close()
