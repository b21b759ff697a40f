"""Undo and sound at the table in Chromium, against the real server process.

Undo: the button is there exactly when the game's rule lets that page's player take a move back
(after a placement it appears; after a roll it is gone; the other player never sees it), and when it
is pressed the other player and a spectator see the board go back. Sound: off by default (nothing is
played: counted through ``SpotsSound.played``), its toggle remembered across a reload, and then the
table's moments are heard.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from support.e2e import Server, moves_of

pytestmark = pytest.mark.timeout(300)
UNDO_SHOWN = "() => !document.getElementById('undo-button').hidden"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("undo") / "undo.db", bot_delay=0.05).start()
    yield srv
    srv.stop()


def open_pages(browser: Any, links: list[str]) -> list[Any]:
    pages = []
    for link in links:
        page = browser.new_context(reduced_motion="reduce").new_page()  # separate contexts: separate people
        page.js_errors = []
        page.on("pageerror", lambda e, errors=page.js_errors: errors.append(str(e)))
        page.goto(link)
        page.wait_for_selector("#log li")
        pages.append(page)
    return pages


def all_at(pages: list[Any], moves: int) -> None:
    for page in pages:
        page.wait_for_function(f"() => Number(document.body.dataset.moves) === {moves}")


def undo_shown(page: Any) -> bool:
    return bool(page.evaluate(UNDO_SHOWN))


def test_the_undo_button_appears_exactly_when_allowed_and_everyone_sees_the_board_go_back(server: Server,
                                                                                         browser: Any) -> None:
    t = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], target=3)
    players = open_pages(browser, [t["seats"][0]["link"], t["seats"][1]["link"]])
    spectator = open_pages(browser, [t["watch"]])[0]
    pages = [*players, spectator]
    rng = random.Random(2)
    seen = {"after a placement": False, "after a roll": False}
    for _ in range(200):
        view = server.table(t["id"])["view"]
        all_at(pages, view["moves"])
        offer = view["undo"]
        for seat, page in enumerate(players):  # shown exactly for the player the rule allows, never the other
            assert undo_shown(page) == (offer is not None and offer["seat"] == seat), (seat, offer)
        assert not undo_shown(spectator)
        mover = players[view["to_move"]]
        if offer is not None and all(seen.values()):
            break
        legal = [m["move"] for m in view["legal"]]
        move = next((m for m in legal if m.startswith(("place", "bury"))), None)
        if move is None:
            move = next((m for m in legal if m.startswith("trick") and m != "trick beg"), rng.choice(legal))
        mover.locator(f'#controls button[data-move="{move}"]').click()
        mover.wait_for_function(f"() => Number(document.body.dataset.moves) > {view['moves']}")
        after = server.table(t["id"])["view"]
        if move.startswith(("place", "bury")) and after["undo"] is not None:
            seen["after a placement"] = True
        if move.startswith("trick") and after["undo"] is None and after["to_move"] == view["to_move"]:
            seen["after a roll"] = True  # a trick rolled at once: nothing of it can be taken back
    else:
        pytest.fail(f"no undo offered after a roll and a placement: {seen}")
    assert all(seen.values()), seen
    moves = view["moves"]
    log_lines = spectator.locator("#log li").count()
    mover.click("#undo-button")
    all_at(pages, moves - 1)  # the other player and the spectator see the board go back
    assert spectator.locator("#log li").count() == log_lines - 1
    back = server.table(t["id"])["view"]
    assert back["moves"] == moves - 1
    for seat, page in enumerate(players):
        assert undo_shown(page) == (back["undo"] is not None and back["undo"]["seat"] == seat)
    waiting = players[1 - back["to_move"]]  # an undo from the player not to move (a page behind, say): refused
    waiting.evaluate(f"() => SpotsTable.send({{type: 'undo', at: {back['moves']}}})")
    waiting.wait_for_selector("#undo-note:not([hidden])")
    assert waiting.inner_text("#undo-note").startswith("Nothing to undo: ")
    assert waiting.locator("#toast").is_hidden()  # a line beside the buttons, not a toast over the board
    for page in pages:
        assert page.js_errors == []
        page.context.close()


def played(page: Any) -> list[str]:
    return list(json.loads(page.evaluate("() => JSON.stringify(SpotsSound.played)")))


def test_sound_is_off_by_default_and_its_toggle_is_remembered(server: Server, browser: Any) -> None:
    t = server.create([{"kind": "human", "name": "Tess"}, {"kind": "bot", "bot": "random"}], target=3)  # 4 moves
    page = open_pages(browser, [t["seats"][0]["link"]])[0]
    toggle = page.locator("#sound-button")
    assert toggle.get_attribute("aria-pressed") == "false" and toggle.inner_text() == "Sound"
    for _ in range(3):  # moves are played and heard, but no sound is made
        page.wait_for_selector("#controls button.move:not([disabled])")
        before = moves_of(page)
        page.locator("#controls button.move").first.click()
        page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")
    assert played(page) == [] and page.evaluate("() => localStorage.getItem('spots-sound')") is None
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#log li")
    assert page.locator("#sound-button").get_attribute("aria-pressed") == "true"  # remembered
    page.wait_for_selector("#controls button.move:not([disabled])")
    before = moves_of(page)
    page.locator("#controls button.move").first.click()  # a trick at the start of a turn: its roll is heard
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")
    page.wait_for_function("() => SpotsSound.played.length > 0")
    assert set(played(page)) <= {"roll", "place", "bust", "score", "turn"}
    hidden = page.evaluate("""() => { Object.defineProperty(document, "hidden", { value: true, configurable: true });
                                      return SpotsSound.play("roll"); }""")
    assert hidden is False  # a hidden page plays nothing
    assert page.js_errors == []
    page.context.close()
