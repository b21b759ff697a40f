"""The puzzle page in Chromium (issue 47): from the lobby to the puzzle of the day drawn on the Spots table, solved;
the next puzzle missed, with every move's value, the rating and the streak kept in the browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spots.puzzles.build import shipped
from support.browser import DESKTOP, PHONE
from support.e2e import Server, problems

pytestmark = pytest.mark.timeout(240)
SHIPPED = {p.id: p for p in shipped("spots")}
DRAWN = "() => document.querySelector('#choices button') && document.body.dataset.answered === '0'"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(Path(tmp_path_factory.mktemp("puzzles")) / "p.db").start()
    yield srv
    srv.stop()


def test_solve_the_puzzle_of_the_day_then_miss_the_next(server: Server, browser: Any, axe: Any) -> None:
    page = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
    page.goto(server.url + "/?lang=en")
    page.click("#puzzles-link")
    page.wait_for_url("**/puzzles")
    page.wait_for_function(DRAWN)
    assert page.inner_text("#puzzle-title") == "Puzzle of the day"
    first = SHIPPED[page.get_attribute("body", "data-puzzle")]
    assert page.locator("#board .dogcard").count() > 0  # the position on the game's own table
    assert sorted(page.locator("#choices button").evaluate_all("(bs) => bs.map((b) => b.dataset.move)")) == \
        sorted(m for m, _ in first.values)
    assert page.inner_text("#puzzle-rating-words") == f"Puzzle rating: {first.rating}."
    assert problems(axe, page) == []
    page.click(f'#choices button[data-move="{first.best}"]')
    page.wait_for_function("() => document.body.dataset.answered === 'right'")
    assert page.inner_text("#verdict").startswith("Right: ") and "is the best move." in page.inner_text("#verdict")
    assert page.locator("#values li").count() == len(first.values)
    assert "to win" in page.inner_text("#values li.best") and "confirmed by play-outs" in page.inner_text("#confirmed")
    assert page.inner_text("#streak-words") == "Streak: 1."
    rating = page.evaluate("() => JSON.parse(localStorage.getItem('spots-puzzles-spots')).solver[0]")
    assert rating > 1500 and page.inner_text("#solver-words").startswith(f"Your puzzle rating: {round(rating)} (+")
    assert problems(axe, page) == []  # the answer shown: values, reasons, the next button

    page.click("#next-puzzle")
    page.wait_for_function(f"() => document.body.dataset.puzzle !== {first.id!r} && ({DRAWN})()")
    second = SHIPPED[page.get_attribute("body", "data-puzzle")]
    assert page.inner_text("#puzzle-title") == f"Puzzle {second.id}"
    miss = next(m for m, _ in second.values if m not in second.answers)
    page.click(f'#choices button[data-move="{miss}"]')
    page.wait_for_function("() => document.body.dataset.answered === 'wrong'")
    assert page.inner_text("#verdict").startswith("Not the best: ") and "of win chance." in page.inner_text("#verdict")
    assert page.inner_text("#streak-words") == "Streak: 0."
    assert page.locator("#choices button.right").count() == len(second.answers)  # the answers shown on the buttons
    after = page.evaluate("() => JSON.parse(localStorage.getItem('spots-puzzles-spots')).solver[0]")
    assert after < rating
    page.context.close()


def test_on_a_phone_the_choices_are_finger_sized_and_a_theme_picks_its_puzzles(server: Server, browser: Any) -> None:
    theme = next(t for p in SHIPPED.values() for t in p.themes if t != "place-or-bury")  # a rarer theme
    page = browser.new_context(viewport=PHONE, reduced_motion="reduce").new_page()
    page.goto(server.url + f"/puzzles?lang=vi&theme={theme}")
    page.wait_for_function(DRAWN)
    assert theme in SHIPPED[page.get_attribute("body", "data-puzzle")].themes
    assert page.inner_text("#choices-title") == "Các lựa chọn của bạn"
    sizes = page.locator("#choices button").evaluate_all(
        "(bs) => bs.map((b) => [b.getBoundingClientRect().width, b.getBoundingClientRect().height])")
    assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), sizes
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing wider than the phone
    page.context.close()
