"""The ppo bot where people meet bots: a terminal game; the web lobby offers it not."""

from __future__ import annotations

from pathlib import Path

import pytest

from spots.cli import main as cli_main

pytestmark = pytest.mark.timeout(300)


def test_ppo_plays_a_terminal_game(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", open("/dev/null"))  # noqa: SIM115 - bots only, nothing is read
    code = cli_main(["play", "--seat", "ppo", "--seat", "random", "--seed", "3", "--fast", "--plain",
                     "--autosave", "", "--target", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "Seat 1 (ppo" in out and "Game over" in out


def test_ppo_is_not_offered_at_web_tables_and_says_where_it_plays(tmp_path: Path):
    """The lobby offers bots by measured strength; ppo (level with greedy on the set it learned, weaker on any
    other, and needing the rl extra) plays in the terminal, the arena and Python, not at web tables."""
    from fastapi.testclient import TestClient

    from spots.web import create_app

    with TestClient(create_app(tmp_path / "s.db", bot_delay=0.0, rate=10.0)) as c:
        lobby = c.get("/").text
        assert '"greedy"' in lobby and '"ppo"' not in lobby  # the lobby's bot menus (window.SPOTS_BOTS)
        seats = [{"kind": "bot", "bot": "ppo"}, {"kind": "bot", "bot": "random"}]
        r = c.post("/api/tables", json={"seats": seats, "tricks": "beginner", "target": 1})
        assert r.status_code == 400 and "'ppo' is not offered at tables" in r.json()["message"], r.text
        assert c.get("/api/tables").json()["tables"] == []
