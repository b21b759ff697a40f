"""The ppo bot where people meet bots: the terminal game and the web lobby."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from conftest import PATIENT_S
from spots.cli import main as cli_main

pytestmark = [pytest.mark.timeout(300), pytest.mark.filterwarnings("ignore::DeprecationWarning")]


def test_ppo_plays_a_terminal_game(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", open("/dev/null"))  # noqa: SIM115 - bots only, nothing is read
    code = cli_main(["play", "--seat", "ppo", "--seat", "random", "--seed", "3", "--fast", "--plain",
                     "--autosave", "", "--target", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "Seat 1 (ppo" in out and "Game over" in out


def test_ppo_is_offered_in_the_web_lobby_and_plays_a_table(tmp_path: Path):
    from fastapi.testclient import TestClient

    from spots.web import create_app

    with TestClient(create_app(tmp_path / "s.db", bot_delay=0.0, rate=10.0)) as c:
        assert "ppo" in c.get("/").text
        seats = [{"kind": "bot", "bot": "ppo"}, {"kind": "bot", "bot": "random"}]
        r = c.post("/api/tables", json={"seats": seats, "tricks": "beginner", "target": 1})
        assert r.status_code == 201, r.text
        deadline = time.time() + PATIENT_S
        row = c.get(f"/api/tables/{r.json()['id']}").json()
        while row["status"] != "over" and time.time() < deadline:
            time.sleep(0.1)
            row = c.get(f"/api/tables/{r.json()['id']}").json()
        assert row["status"] == "over" and row["players"][0]["bot"] == "ppo"
        assert row["moves"] > 0
