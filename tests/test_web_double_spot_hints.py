"""In Chromium: the Double Spot advisor shows, for each drop, what it takes now, the opponent's chance to finish a
card on their roll, the mover's chance on the next roll, and the bot's rank (equal drops share one), translated.

The real server runs in a subprocess (``Server`` from ``test_web_e2e``); skipped, with the reason, when Chromium
or Playwright is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from spots import i18n
from support.e2e import Server, moves_of

pytestmark = pytest.mark.timeout(300)

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
ROWS = """() => [...document.querySelectorAll('#hints table.advice tbody tr')].map((tr) => ({
  rank: tr.querySelector('.rank').textContent.trim(), move: tr.querySelector('button.move').dataset.move,
  takes: tr.querySelector('.takes').textContent.trim(), risk: tr.querySelector('.risk').textContent.trim(),
  next: tr.querySelector('.next').textContent.trim()}))"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("dshints") / "e2e.db").start()
    yield srv
    srv.stop()


def drop(page: Any, move: str) -> None:
    before = moves_of(page)
    page.locator(f".ds-column button.drop[data-move='{move}']").click()
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")


def ask(page: Any) -> list[dict[str, str]]:
    page.wait_for_selector("#hint-button:not([hidden])")
    page.click("#hint-button")
    page.wait_for_selector("#hints table.advice tbody tr")
    rows: list[dict[str, str]] = page.evaluate(ROWS)
    return rows


def check_ranks(rows: list[dict[str, str]]) -> None:
    """Ranks never fall, a rank shared by several drops is marked '=' on each, and a lone one is not."""
    ranks = [int(r["rank"].rstrip("=")) for r in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    for r, n in zip(rows, ranks, strict=True):
        assert r["rank"].endswith("=") == (ranks.count(n) > 1), rows


def test_the_double_spot_advisor_shows_each_drops_chances_and_rank(server: Server, browser: Any) -> None:
    t = server.create(HUMANS, game="double-spot")
    ann_ctx, bob_ctx = browser.new_context(locale="en-US"), browser.new_context(locale="es-ES")
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda e: errors.append(str(e)))
    ann.goto(t["seats"][0]["link"])
    bob.goto(t["seats"][1]["link"])
    ann.wait_for_selector(".ds-column button.drop")
    rows = ask(ann)
    head = ann.locator("#hints table.advice thead").inner_text()
    assert "Takes now" in head and "Opponent's roll" in head and "Your next roll" in head
    assert "drops of equal value share a rank" in ann.locator("#hints .advice-note").inner_text()
    legal = {b.get_attribute("data-move") for b in ann.locator(".ds-column button.drop").all()}
    assert {r["move"] for r in rows} <= legal and len(rows) == min(12, len(legal))
    # on an empty frame no drop takes or hands over anything, so all are equal
    assert all(r["takes"] == "–" and r["risk"] == "0.0%" for r in rows)
    assert {r["rank"] for r in rows} == {"1="}
    # Ann drops where it helps neither side, then Bob (in Spanish) asks about a frame with a disc on it
    ann.locator("#hints button.move").first.click()  # a hint's drop is playable from the panel
    bob.wait_for_selector(".ds-column button.drop")
    es = i18n.translator("es").gettext
    rows = ask(bob)
    head = bob.locator("#hints table.advice thead").inner_text()
    for word in ("Takes now", "Opponent's roll", "Your next roll"):
        assert es(word) != word and es(word) in head
    check_ranks(rows)
    pct = re.compile(r"^(–|\d+,\d\s?%)$")  # Spanish percentages: 33,3 %
    assert all(pct.match(r["risk"]) and pct.match(r["next"]) for r in rows), rows
    for r in rows:  # drops of one rank are drops of one value: the same chances
        same = [o for o in rows if o["rank"] == r["rank"]]
        assert {(o["risk"], o["next"], o["takes"]) for o in same} == {(r["risk"], r["next"], r["takes"])}
    assert not errors, errors
    ann_ctx.close()
    bob_ctx.close()


def test_a_drop_that_takes_a_card_names_it_and_ranks_alone_at_the_top(server: Server, browser: Any) -> None:
    """Play drops until the roll lets the mover finish a card; the advisor then names the card on the top row."""
    t = server.create(HUMANS, game="double-spot", target=7)
    contexts = [browser.new_context(locale="en-US") for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    for page, seat in zip(pages, t["seats"], strict=True):
        page.goto(seat["link"])
    for turn in range(40):
        page = pages[turn % 2]
        page.wait_for_selector(".ds-column button.drop")
        rows = ask(page)
        check_ranks(rows)
        taking = [r for r in rows if r["takes"] != "–"]
        if taking:
            assert rows[0]["takes"] != "–" and re.fullmatch(r"p\d\d( p\d\d)?", rows[0]["takes"]), rows
            assert rows[0]["risk"] == "–" and rows[0]["next"] == "–"  # new cards come: no chances to give
            break
        # hand over on purpose: the worst-ranked drop, so a finish comes soon
        page.locator("#hints button.move").last.click()
        page.wait_for_function("() => document.body.dataset.moves && !document.querySelector('#hints:not([hidden])')")
    else:
        pytest.fail("no drop took a card in 40 turns of handing over")
    for c in contexts:
        c.close()
