"""A browser's screen sizes (desktop and phone) and a tap that waits for the page to answer."""

from __future__ import annotations

from typing import Any

PHONE = {"width": 390, "height": 844}


DESKTOP = {"width": 1280, "height": 900}


ON_SCREEN = """(sel) => {
  const e = document.querySelector(sel);
  if (!e) return false;
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.width >= 44 && r.height >= 44;
}"""


def assert_on_screen(page: Any, selector: str) -> None:
    """The first element matching ``selector`` is wholly on screen and big enough for a finger.

    Read in one go inside the page (position and window height from the same layout), and waited for (up to
    the browser's patience): the page scrolls the lit place into view, and a late layout change may move it."""
    try:
        page.wait_for_function(ON_SCREEN, arg=selector)
    except Exception as e:  # Playwright's TimeoutError: say where everything was
        shown = page.evaluate("""(sel) => ({
            boxes: [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().toJSON()),
            innerHeight, scrollY})""", selector)
        raise AssertionError(f"{selector} is not on screen and finger-sized: {shown}") from e


def tap_once(page: Any, phone: bool = False) -> str:
    """One action by tapping the table's objects (never the move panel); returns which kind."""
    actions = page.locator(".felt .tray-actions button")
    score = page.locator(".felt .tray-actions button[data-move=score]")
    if score.count():
        score.click()
        return "score"
    tiles = page.locator(".felt .tile.clickable")
    if tiles.count():
        tiles.first.click()
        return "trick"
    dice = page.locator(".felt button.tray-die.src")
    if dice.count():
        dice.first.click()
        if page.locator(".felt .lit").count() == 0:
            return "tap"  # a die with one move (Fetch keeps its number): the tap played it
        dog, yard = ".felt .dogcard.lit", ".felt .yard-patch.lit"
        placing = page.locator(dog).count() > 0  # asked before the tap: once the move is sent, nothing is lit
        target = page.locator(dog if placing else yard).first
        if phone:
            assert_on_screen(page, dog if placing else yard)
            die_box = page.locator(".felt button.tray-die.selected").first.bounding_box()
            assert die_box["width"] >= 44 and die_box["height"] >= 44, die_box
        target.click()
        return "place" if placing else "bury"
    held = page.locator(".felt .src:not(button)")  # a die on a dog or in the yard (Trot, Dogpile)
    if held.count() and not actions.count():
        held.first.click()
        lit = page.locator(".felt .lit[data-play]")
        if lit.count():
            lit.first.click()
        return "held"
    labels = actions.all_inner_texts()
    assert labels, "the table offers nothing to tap: " + page.inner_text("#controls")
    stop = next((i for i, t in enumerate(labels) if t == "Stop"), 0)
    actions.nth(stop).click()
    return "action"
