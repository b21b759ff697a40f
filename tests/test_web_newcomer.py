"""What a newcomer meets first: bots labelled by strength with no internal baseline, one frame range, an icon, and
a hint refusal that reads right.

Through the real app on a real SQLite file (FastAPI's TestClient); what needs a browser (the panel after a refused
hint, the sizes of targets on a phone, the tutorial) is in ``tests/test_web_newcomer_e2e.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spots.cli import main
from spots.core import games
from spots.web.config import Limits
from support.web import opened, play, token, until

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from spots.web import create_app

    with TestClient(create_app(tmp_path / "t.db", bot_delay=30.0)) as c:
        yield c


def page_json(html: str, name: str) -> Any:
    found = re.search(rf"window\.{name} = (.*?);", html)
    assert found, name
    return json.loads(found.group(1))


def test_the_lobby_offers_each_bot_with_its_strength_and_no_baseline(web: Any) -> None:
    html = web.get("/").text
    bots, labels = page_json(html, "SPOTS_BOTS"), page_json(html, "SPOTS_BOT_LABELS")
    assert bots["spots"] == ["random", "greedy", "mcts", "expectimax", "expectimax-learned"]
    assert "expectimax-v1" not in html and "ppo" not in bots["spots"]
    assert labels["spots"]["expectimax-learned"] == "Bot: expectimax-learned (strongest)"
    assert labels["spots"]["random"] == "Bot: random (easiest)"
    assert bots["double-spot"] == ["random", "greedy", "mcts", "expectimax", "search"]
    es = page_json(web.get("/", headers={"Accept-Language": "es"}).text, "SPOTS_BOT_LABELS")
    assert es["spots"]["greedy"] == "Bot: greedy (fácil)"


def test_a_table_refuses_a_baseline_bot_by_name_and_changes_nothing(web: Any) -> None:
    before = web.get("/api/tables").json()["tables"]
    r = web.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": "expectimax-v1"}]})
    assert r.status_code == 400
    assert "'expectimax-v1' is not offered at tables" in r.json()["message"]
    assert "the bots are random, greedy, mcts, expectimax, expectimax-learned" in r.json()["message"]
    assert web.get("/api/tables").json()["tables"] == before
    assert [b["name"] for b in web.get("/api/games").json()[0]["lobby_bots"]] == ["random", "greedy", "mcts",
                                                                                  "expectimax", "expectimax-learned"]


def frame_box(html: str, name: str) -> tuple[int, int]:
    found = re.search(rf'name="{name}"[^>]*min="(\d+)"[^>]*max="(\d+)"', html)
    assert found, name
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize("name", ["columns", "rows"])
def test_the_lobby_and_the_terminal_take_the_same_frame_sizes(web: Any, capsys: pytest.CaptureFixture[str],
                                                              name: str) -> None:
    """One schema, one range: the lobby's number box, its check and the command line all use the option's."""
    option = games.get("double-spot").option(name)
    assert frame_box(web.get("/").text, name) == (option.low, option.high)
    humans = [{"kind": "human"}, {"kind": "human"}]
    for value in (option.low, option.high):
        ok = web.post("/api/tables", json={"game": "double-spot", "seats": humans, "options": {name: value}})
        assert ok.status_code == 201, ok.text
    for value in (option.low - 1, option.high + 1):
        refused = web.post("/api/tables", json={"game": "double-spot", "seats": humans, "options": {name: value}})
        said = f"{name} must be from {option.low} to {option.high}, not {value}"
        assert refused.status_code == 400 and said in refused.json()["message"]
        assert main(["selfplay", "--game", "double-spot", f"--{name}", str(value)]) == 2
        assert said in capsys.readouterr().err


def test_every_page_has_an_icon_and_favicon_ico_is_no_404(web: Any) -> None:
    icon = web.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.content.lstrip().startswith(b"<svg") and icon.content == web.get("/static/favicon.svg").content
    for path in ("/", "/rules"):
        assert '<link rel="icon" href="/static/favicon.svg"' in web.get(path).text, path


def test_the_default_hint_limit_covers_a_hint_every_turn() -> None:
    """Asked at every turn of a normal game (15-20 a minute against a bot), no hint is refused (12 refused 1 in 4)."""
    assert Limits().hints_per_minute >= 20


def test_a_refused_hint_says_when_to_ask_again_in_good_english(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from spots.web import create_app

    with TestClient(create_app(tmp_path / "h.db", bot_delay=30.0, hints_per_minute=60)) as c:
        t = c.post("/api/tables", json={"seats": [{"kind": "human", "name": "Solo"}], "target": 3}).json()
        refused = None
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            view = opened(ws)["state"]["view"]
            for _ in range(60):  # a new position each time, until the bucket (a burst of 3) is dry
                ws.send_json({"type": "hint"})
                reply = until(ws, lambda m: m["type"] in ("hint", "error"))
                if reply["type"] == "error" or view["over"]:
                    refused = reply
                    break
                view = play(ws, view["legal"][-1]["move"], view["moves"])[1]["view"]  # type: ignore[index]
    assert refused is not None and refused["code"] == "hint-limit"
    assert refused["retry_after"] == 1
    assert refused["message"] == "hints take a lot of thinking: try again in 1 second"
