"""Hardening (issue 31), in-process: parameters that counted with ``isdigit`` (finding 5), one name check
for every way in (6), and how origins and networks are compared (2, 3).

The app is the real one on a real SQLite file (Starlette's test client). What depends on how the
server is started (forwarded headers, Origin, caps, sockets, a full disk) is in
``test_web_hardening_server.py``, against the real server process.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.datastructures import Headers

from spots.web import create_app
from spots.web.guard import Origins, network_of, origin_of

pytestmark = pytest.mark.timeout(300)

TWO = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
NOT_ASCII_COUNTS = ["²", "³", "٣", "１", "-1", "1e3", " 3", "3 ", "", "9" * 40]


def test_5_every_counting_parameter_takes_ascii_digits_only(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "s.db", bot_delay=30.0), raise_server_exceptions=False) as c:
        table = c.post("/api/tables", json={"seats": TWO}).json()["id"]
        urls = [*(f"/api/tables?{name}=" for name in ("offset", "limit")),
                *(f"/api/tables/{table}/replay?{name}=" for name in ("at", "side"))]
        for url in urls:
            for value in NOT_ASCII_COUNTS:
                r = c.get(url + value)
                assert r.status_code == 400, (url, value, r.status_code, r.text)
                assert "must be" in r.json()["message"], r.text
        assert c.get("/api/tables?offset=0&limit=3").json()["limit"] == 3
        assert c.get(f"/api/tables/{table}/replay?at=0&side=1").json()["at"] == 0
        assert c.get(f"/api/tables/{table}/replay").status_code == 200  # no 'at': the end
        for value in ("²", "-1", "1e3"):  # a declared body length is a count too
            r = c.post("/api/tables", content=b"{}", headers={"Content-Length": value.encode("latin-1")})
            assert r.status_code in (400, 413), (value, r.status_code)
        for path in ("/api/tables/²", "/api/tables/" + "x" * 200 + "/replay", "/t/²", "/play/²", "/host/²"):
            assert c.get(path).status_code == 404, path  # a path names a table or a link, else: not found


@pytest.mark.parametrize("name", ["\x00\x1b[31mEVIL\x07", "tab\there", "del\x7f", "\x85next line"])
def test_6_a_name_with_control_characters_is_refused_every_way_in(tmp_path: Path, name: str) -> None:
    with TestClient(create_app(tmp_path / "s.db", bot_delay=30.0)) as c:
        learn = c.post("/learn", data={"game": "spots", "name": name}, follow_redirects=False)
        api = c.post("/api/tables", json={"seats": [{"kind": "human", "name": name}, TWO[1]]})
        for r in (learn, api):
            assert r.status_code == 400 and r.json()["error"] == "bad-text", r.text
            assert r.json()["message"] == "a name holds control characters"
        assert c.get("/api/tables").json()["tables"] == []  # neither made a table
        assert "EVIL" not in c.get("/").text


def test_6_the_tutorial_takes_names_as_the_lobby_does(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "s.db", bot_delay=30.0)) as c:
        r = c.post("/learn", data={"game": "spots", "name": "  Zoë   the\u00a0  learner, who has a long name "})
        assert r.status_code == 200
        names = [s["name"] for t in c.get("/api/tables").json()["tables"] for s in t["players"]]
        assert "Zoë the learner, who has" in names, names  # spaces collapsed, 24 characters at most


def test_2_origins_compare_scheme_host_and_port() -> None:
    assert origin_of("HTTPS://Spots.Example.org:443/lobby?x=1") == "https://spots.example.org"
    assert origin_of("http://[::1]:8000/") == "http://[::1]:8000"
    assert origin_of("null") == origin_of("file:///etc/passwd") == origin_of("http://x:99999") == ""
    public = Origins("https://spots.example.org/")
    assert public.allowed("https://spots.example.org", Headers({"host": "127.0.0.1:8000"}))
    assert not public.allowed("https://spots.example.org.evil.example", Headers({"host": "spots.example.org"}))
    same = Origins()
    assert same.allowed("http://[::1]:8000", Headers({"host": "[::1]:8000"}))
    assert same.allowed("http://spots.example.org", Headers({"host": "spots.example.org:80"}))
    assert not same.allowed("http://spots.example.org:8080", Headers({"host": "spots.example.org"}))
    assert not same.allowed("http://evil.example", Headers({}))


def test_3_addresses_are_grouped_into_networks() -> None:
    assert network_of("2001:db8:1:2:aaaa::1") == network_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert network_of("2001:db8:1:3::1") != network_of("2001:db8:1:2::1")
    assert network_of("192.0.2.7") == "192.0.2.7/32" and network_of("192.0.2.7", ipv4_prefix=24) == "192.0.2.0/24"
    assert network_of("::ffff:192.0.2.7", ipv4_prefix=24) == "192.0.2.0/24"  # IPv4 seen through IPv6
    assert network_of("testclient") == "testclient"


def test_a_database_turned_read_only_is_named_in_the_refusal(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "s.db", bot_delay=30.0)) as c:
        store = c.app.state.hub.store  # type: ignore[attr-defined]

        def read_only(*args: Any, **kwargs: Any) -> None:  # what SQLite raises when the file turned read-only
            raise sqlite3.OperationalError("attempt to write a readonly database")

        store.create_table = read_only
        r = c.post("/api/tables", json={"seats": TWO})
        assert r.status_code == 503 and int(r.headers["retry-after"]) > 0
        assert r.json()["message"] == ("the table could not be created: the server's database has become"
                                       " read-only; try again later")
        assert c.get("/api/tables").json()["tables"] == []
