"""Issue 42, finding 1: a flood of daily-deal par requests must not starve the server (a real server process).

Each new daily deal's par is 20 games of a bot. The flood asked for 200 dates, any from 0001 to 9999; each started
its own par in the server's shared thread pool, and sign-in (password hashing shares that pool) stopped answering.
Now only the open deals have a par worked out, one at a time in a thread of their own with a bounded queue, and a
stop does not wait for them. Every wait is for an event, with a generous bound.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from support.servers import Server

pytestmark = pytest.mark.timeout(300)


def test_a_flood_of_par_requests_leaves_sign_in_answering_and_the_stop_quick(tmp_path: Path) -> None:
    server = Server(tmp_path / "s.db", "--requests-per-second", "1000", env={"SPOTS_PAR_CACHE": str(tmp_path / "par")})
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30, headers={"Origin": server.url}) as client:
            # dates that are not open: refused at once, saying which are, and no par is started for them
            for day in ("9999-12-31", "0001-01-01", "2031-06-15", "2020-02-29"):
                refused = client.get(f"/api/solo/daily-{day}")
                assert refused.status_code == 400, refused.text
                assert refused.json()["error"] == "bad-date"
                assert "the daily deals open are today's" in refused.json()["message"] and day in refused.json()[
                    "message"]
            # every open date at once: each answered at once, its par still to come
            today = datetime.now(UTC).date()
            open_days = [today - timedelta(days=k) for k in range(31)]
            answers = [client.get(f"/api/solo/daily-{day.isoformat()}") for day in open_days]
            assert all(a.status_code == 200 for a in answers), [a.text for a in answers if a.status_code != 200]
            assert sum(a.json()["pending"] for a in answers) >= 30
            # while those pars wait and are worked out, a sign-up and a sign-in are answered
            signed_up = client.post("/signup", data={"name": "Ada", "password": "correct horse"},
                                    follow_redirects=False)
            assert signed_up.status_code == 303, signed_up.text
            client.cookies.clear()
            signed_in = client.post("/signin", data={"name": "Ada", "password": "correct horse"},
                                    follow_redirects=False)
            assert signed_in.status_code == 303, signed_in.text
            assert client.get("/api/tables").status_code == 200
        # a stop while pars are worked out ends the process itself (SIGTERM, not the kill after the patience)
        assert server.proc is not None
        server.proc.terminate()
        assert server.proc.wait(20) is not None
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()


def test_an_open_date_is_one_of_the_last_month() -> None:
    from spots.games.spots.daily import utc_today
    from spots.games.spots.solo_web import PAST_DAYS, closed_day

    today = utc_today()
    assert closed_day(today) == "" and closed_day(today - timedelta(days=PAST_DAYS)) == ""
    assert "not " + str(today + timedelta(days=1)) in closed_day(today + timedelta(days=1))
    assert closed_day(date(1, 1, 1)).startswith("the daily deals open are today's")
