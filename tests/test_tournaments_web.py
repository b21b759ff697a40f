"""Tournaments on the web app, on both stores: events run from sign-up to final standings with nobody acting but
the players and the clocks (accounts whose players stay away are stood in for by the clocks' rule); bad requests
are refused with what is allowed and change nothing."""

from __future__ import annotations

import csv
import io
import itertools
import json
import time
import zipfile
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.tournaments import until_event
from support.web import app_on, as_, sign_up

pytestmark = pytest.mark.timeout(300)
# Short games on a second's clock; luck measured only where a test asks (the coach's analysis of each game is seconds)
QUICK = {"pace": {"pace": "turn-based", "seconds": 1}, "options": {"target": 1, "tricks": "beginner"}, "luck": False}


def event(c: TestClient, session: str, **settings: Any) -> str:
    as_(c, session)
    r = c.post("/tournaments", json={"name": "Club night", "game": "spots", **QUICK, **settings})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def view(c: TestClient, tournament: str) -> dict[str, Any]:
    r = c.get(f"/api/tournaments/{tournament}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def until(c: TestClient, tournament: str, ready: Any) -> dict[str, Any]:
    return until_event(lambda t: view(c, t), tournament, ready)


def enter(c: TestClient, tournament: str, sessions: list[str], bots: list[str], organiser: str) -> None:
    for session in sessions:
        as_(c, session)
        assert c.post(f"/tournaments/{tournament}/join", json={}).status_code == 200
    as_(c, organiser)
    for bot in bots:
        r = c.post(f"/tournaments/{tournament}/bots", json={"bot": bot})
        assert r.status_code == 200, r.text


def pairs(games: list[dict[str, Any]]) -> Counter[frozenset[str]]:
    return Counter(frozenset(p) for g in games for p in itertools.combinations(g["players"], 2))


def test_a_sixteen_player_turn_based_swiss_runs_itself_to_the_final_standings(db: str) -> None:
    with app_on(db, bot_delay=0.0) as c:
        people = [sign_up(c, name) for name in ("Ann", "Bob", "Cy", "Dee")]
        tournament = event(c, people[0], format="swiss", rounds=4, starts_in=60)
        enter(c, tournament, people, ["greedy", "random"] * 6, people[0])
        assert view(c, tournament)["status"] == "open"
        as_(c, people[0])
        assert c.post(f"/tournaments/{tournament}/start", json={}).status_code == 200
        over = until(c, tournament, lambda v: v["status"] == "over")
    assert over["round"] == 4 and [r["round"] for r in over["rounds"]] == [1, 2, 3, 4]
    games = [g for r in over["rounds"] for g in r["games"]]
    assert all(len(r["games"]) == 8 and all(g["places"] and g["table"] for g in r["games"]) for r in over["rounds"])
    assert max(pairs(games).values()) == 1  # nobody met anyone twice
    lines = over["standings"]
    assert len(lines) == 16 and [s["rank"] for s in lines] == list(range(1, 17))
    assert sum(s["points"] for s in lines) == pytest.approx(32)  # a point a game at two seats
    assert all(s["games"] == 4 for s in lines)
    points = [s["points"] for s in lines]
    assert points == sorted(points, reverse=True)


def test_a_swiss_round_with_a_set_time_waits_for_it(tmp_path: Any) -> None:
    with app_on(str(tmp_path / "timed.db"), bot_delay=0.0) as c:
        ann = sign_up(c, "Ann")
        tournament = event(c, ann, rounds=2, round_every=60)  # round 2 an hour after the start
        enter(c, tournament, [], ["greedy", "random", "greedy", "random"], ann)
        as_(c, ann)
        c.post(f"/tournaments/{tournament}/start", json={})
        first = until(c, tournament, lambda v: v["finished"] == 2)  # round 1 is over ...
        store, director = c.app.state.hub.store, c.app.state.director  # type: ignore[attr-defined]
        for _ in range(2):  # ... and the director passes over the event (here, twice more) without opening round 2
            c.portal.call(director.direct)  # type: ignore[union-attr]
        assert view(c, tournament)["round"] == 1 and first["status"] == "playing"
        store.write([("UPDATE tournaments SET starts = ? WHERE id = ?", (time.time() - 3600, tournament))])
        over = until(c, tournament, lambda v: v["status"] == "over")  # the hour has passed: round 2, then the end
    assert over["round"] == 2 and all(g["places"] for r in over["rounds"] for g in r["games"])


def test_bots_fill_a_short_table_so_nobody_has_a_bye(tmp_path: Any) -> None:
    with app_on(str(tmp_path / "fill.db"), bot_delay=0.0) as c:
        ann = sign_up(c, "Ann")
        tournament = event(c, ann, rounds=2, bots_fill=True)
        enter(c, tournament, [], ["greedy", "random", "random"], ann)
        as_(c, ann)
        c.post(f"/tournaments/{tournament}/start", json={})
        over = until(c, tournament, lambda v: v["status"] == "over")
    for r in over["rounds"]:
        assert len(r["games"]) == 2 and not any(g["bye"] for g in r["games"])
        alone = next(g for g in r["games"] if "greedy-bot" in g["players"])  # the filling bot's name, no number
        assert len(alone["players"]) == 2 and len(alone["places"]) == 2 and alone["table"]
    assert all(s["games"] == 2 and s["byes"] == 0 for s in over["standings"])
    assert sum(s["points"] for s in over["standings"]) <= 4  # the filling bot's wins are nobody's points
    with app_on(str(tmp_path / "arena-fill.db"), bot_delay=30.0) as c:  # bots that wait: every table stays open
        tournament = event(c, ann := sign_up(c, "Ann"), format="arena", minutes=5, bots_fill=True)
        enter(c, tournament, [], ["greedy", "random", "random"], ann)
        as_(c, ann)
        c.post(f"/tournaments/{tournament}/start", json={})
        seated = until(c, tournament, lambda v: sum(len(g["players"]) for r in v["rounds"] for g in r["games"]) == 4)
    assert sorted(len(g["players"]) for r in seated["rounds"] for g in r["games"]) == [2, 2]  # nobody waits alone


def test_a_round_robin_opens_every_table_at_once_and_everyone_meets_everyone(tmp_path: Any) -> None:
    with app_on(str(tmp_path / "rr.db"), bot_delay=0.0) as c:
        ann = sign_up(c, "Ann")
        tournament = event(c, ann, format="round-robin")
        enter(c, tournament, [ann], ["greedy", "random", "greedy", "random"], ann)
        as_(c, ann)
        c.post(f"/tournaments/{tournament}/start", json={})
        started = until(c, tournament, lambda v: v["status"] == "playing" and all(
            g["table"] or g["bye"] for r in v["rounds"] for g in r["games"]))
        assert len(started["rounds"]) == 5  # five players: five rounds, a bye in each, all opened at the start
        over = until(c, tournament, lambda v: v["status"] == "over")
    played = [g for r in over["rounds"] for g in r["games"] if not g["bye"]]
    assert len(played) == 10 and set(pairs(played).values()) == {1}
    assert Counter(g["players"][0] for r in over["rounds"] for g in r["games"] if g["bye"]).most_common(1)[0][1] == 1


def test_an_arena_takes_players_late_and_lets_them_leave_early(tmp_path: Any) -> None:
    with app_on(str(tmp_path / "arena.db"), bot_delay=0.0) as c:
        ann, bob = sign_up(c, "Ann"), sign_up(c, "Bob")
        tournament = event(c, ann, format="arena", minutes=5)
        enter(c, tournament, [], ["greedy", "random", "greedy"], ann)
        as_(c, ann)
        c.post(f"/tournaments/{tournament}/start", json={})
        until(c, tournament, lambda v: v["finished"] >= 3)  # the bots play on
        as_(c, bob)
        assert c.post(f"/tournaments/{tournament}/join", json={}).status_code == 200  # late
        joined = until(c, tournament, lambda v: any("Bob" in g["players"] for r in v["rounds"] for g in r["games"]))
        as_(c, ann)
        leaving = next(e["entrant"] for e in joined["entrants"] if e["name"] == "random-bot 2")
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        store.withdraw(tournament, leaving)  # a bot leaves early (an account withdraws from its page: tested below)
        before = view(c, tournament)
        games_before = sum(1 for r in before["rounds"] for g in r["games"] if "random-bot 2" in g["players"])
        store.write([("UPDATE tournaments SET starts = ? WHERE id = ?", (time.time() - 5 * 60, tournament))])
        over = until(c, tournament, lambda v: v["status"] == "over")
    games_after = sum(1 for r in over["rounds"] for g in r["games"] if "random-bot 2" in g["players"])
    assert games_after <= games_before + 1  # at most the game it was already seated at when it left
    lines = {s["name"]: s for s in over["standings"]}
    assert lines["Bob"]["games"] >= 1 and lines["random-bot 2"]["withdrawn"]
    assert [s["rank"] for s in over["standings"]] == list(range(1, 5))


def test_bad_requests_are_refused_with_what_is_allowed_and_change_nothing(tmp_path: Any) -> None:
    with app_on(str(tmp_path / "bad.db"), bot_delay=0.0) as c:
        ann, bob = sign_up(c, "Ann"), sign_up(c, "Bob")
        as_(c, None)
        assert c.post("/tournaments", json={"name": "x"}).status_code == 401
        as_(c, ann)
        for body, words in [({"format": "knockout"}, "the formats are swiss, round-robin, arena"),
                            ({"seats": 5}, "seats must be from 2 to 4"),
                            ({"format": "round-robin", "seats": 3}, "a round-robin is played at two seats"),
                            ({"rounds": 40}, "rounds must be from 1 to 15"),
                            ({"pace": "none"}, "played on a clock"),
                            ({"format": "arena", "duplicate": True}, "duplicate dice are for Swiss and round-robin"),
                            ({"options": {"target": 99}}, "target"),
                            ({"name": ""}, "an event's name is 1 to 60 characters")]:
            r = c.post("/tournaments", json={"name": "Club night", **QUICK, **body})
            assert r.status_code == 400 and words in r.json()["message"], (body, r.text)
        assert c.get("/api/tournaments/nothing").status_code == 404
        for body, luck in [({}, True), ({"format": "arena"}, False), ({"luck": "0"}, False)]:  # luck: the default
            r = c.post("/tournaments", json={"name": "Defaults", "game": "spots", **body})
            assert view(c, r.json()["id"])["settings"]["luck"] is luck, body
        tournament = event(c, ann)
        assert c.post(f"/tournaments/{tournament}/bots", json={"bot": "deep-blue"}).json()["message"].startswith(
            "unknown bot 'deep-blue'; the bots of this game are random, greedy")
        as_(c, bob)
        assert c.post(f"/tournaments/{tournament}/start", json={}).status_code == 403
        assert c.post(f"/tournaments/{tournament}/bots", json={"bot": "greedy"}).status_code == 403
        assert c.post(f"/tournaments/{tournament}/withdraw", json={}).status_code == 409  # not signed up
        assert view(c, tournament)["entrants"] == [] and view(c, tournament)["status"] == "open"
        assert c.post(f"/tournaments/{tournament}/join", json={}).status_code == 200
        assert c.post(f"/tournaments/{tournament}/withdraw", json={}).status_code == 200  # before the start: off
        assert view(c, tournament)["entrants"] == []
        demanding = event(c, ann, min_games=2, rated=True)
        as_(c, bob)
        r = c.post(f"/tournaments/{demanding}/join", json={})
        assert r.status_code == 409 and "asks for 2 rated games of spots to sign up; you have 0" in r.json()["message"]
        as_(c, ann)
        c.post(f"/tournaments/{tournament}/start", json={})
        until(c, tournament, lambda v: v["status"] == "cancelled")  # nobody signed up
        as_(c, bob)
        assert c.post(f"/tournaments/{tournament}/join", json={}).status_code == 409


def test_a_duplicate_round_sets_each_result_against_the_same_dice_and_luck_breaks_ties(tmp_path: Any) -> None:
    with app_on(str(tmp_path / "duplicate.db"), bot_delay=0.0) as c:
        ann = sign_up(c, "Ann")
        tournament = event(c, ann, rounds=1, duplicate=True, luck=True)
        enter(c, tournament, [], ["greedy", "random"] * 4, ann)
        as_(c, ann)
        c.post(f"/tournaments/{tournament}/start", json={})
        over = until(c, tournament, lambda v: v["status"] == "over")
        page = c.get(f"/tournaments/{tournament}").text
        rows = list(csv.DictReader(io.StringIO(c.get(f"/tournaments/{tournament}/standings.csv").text)))
        records = [c.get(f"/api/tables/{g['table']}/record").json() for g in over["rounds"][0]["games"]]
        archive = zipfile.ZipFile(io.BytesIO(c.get(f"/tournaments/{tournament}/archive.zip").content))
    kept = json.loads(archive.read("event.json"))["games"]
    assert [(g["scores"], [round(x, 3) for x in g["luck"]]) for g in kept] == [
        (g["scores"], g["luck"]) for g in over["rounds"][0]["games"]]  # the archive keeps each game's scores and luck
    dealt = [list(itertools.takewhile(lambda m: m.startswith("reveal"), r["moves"])) for r in records]
    assert len({json.dumps(d) for d in dealt}) == 1 and dealt[0]  # every table of the round: the same deal
    games = over["rounds"][0]["games"]
    assert len(games) == 4 and all(g["scores"] and len(g["luck"]) == 2 for g in games)  # measured before the end
    for seat in (0, 1):  # a seat's dice were every table's: each player ranked among the four who had them
        scores = [g["scores"][seat] for g in games]
        for g in games:
            assert g["same_dice"][seat] == [1 + sum(s > g["scores"][seat] for s in scores), 4]
    luck = {p: g["luck"][i] for g in games for i, p in enumerate(g["players"])}
    lines = over["standings"]
    for better, worse in itertools.pairwise(lines):  # on equal points, who needed less luck ranks first
        assert better["points"] > worse["points"] or better["luck"] <= worse["luck"]
    assert all(line["luck"] == pytest.approx(luck[line["name"]], abs=1e-3) for line in lines)
    assert any(abs(x) > 0 for x in luck.values())  # the coach measured the dice
    assert all(0 <= line["same_dice"] <= 1 for line in lines)
    assert "Same dice" in page and "Luck first: on equal points" in page and "with the same dice: " in page
    assert [row["luck"] for row in rows] == [str(line["luck"]) for line in lines] and "same_dice" in rows[0]


def test_the_events_luck_takes_at_most_two_of_the_coachs_places_at_once(tmp_path: Any) -> None:
    with app_on(str(tmp_path / "measuring.db"), bot_delay=0.0) as c:
        ann = sign_up(c, "Ann")
        tournament = event(c, ann, rounds=1)
        enter(c, tournament, [], ["greedy", "random"] * 4, ann)
        as_(c, ann)
        c.post(f"/tournaments/{tournament}/start", json={})
        until(c, tournament, lambda v: v["status"] == "over")
        store, coach = c.app.state.hub.store, c.app.state.director.coach  # type: ignore[attr-defined]
        running: list[int] = []  # how many reports the coach is computing after each of the director's asks
        ask = coach.answer

        async def watched(room: Any) -> dict[str, Any]:
            found = await ask(room)
            running.append(len(coach.running))
            return dict(found)

        coach.answer = watched
        settings = {**store.tournament(tournament).settings, "luck": True}  # four games over, none measured: at once
        store.write([("UPDATE tournaments SET settings = ?, status = 'playing' WHERE id = ?",
                      (json.dumps(settings), tournament))])
        over = until(c, tournament, lambda v: v["status"] == "over")
    assert 1 <= max(running) <= 2  # the rest of the coach's places stay free for the players' own reports
    assert all(len(g["luck"]) == 2 for g in over["rounds"][0]["games"])


def test_the_standings_download_as_csv_and_the_event_as_one_archive(tmp_path: Any) -> None:
    with app_on(str(tmp_path / "csv.db"), bot_delay=0.0) as c:
        ann = sign_up(c, "Ann")
        tournament = event(c, ann, rounds=1)
        enter(c, tournament, [], ["greedy", "random", "greedy"], ann)
        as_(c, ann)
        c.post(f"/tournaments/{tournament}/start", json={})
        until(c, tournament, lambda v: v["status"] == "over")
        r = c.get(f"/tournaments/{tournament}/standings.csv")
        archive = zipfile.ZipFile(io.BytesIO(c.get(f"/tournaments/{tournament}/archive.zip").content))
        table = next(g["table"] for g in view(c, tournament)["rounds"][0]["games"] if g["table"])
        record = c.get(f"/api/tables/{table}/record").json()
    names = archive.namelist()
    assert names[:2] == ["event.json", "standings.csv"] and names[2:] == [f"round-01/spots-{table}.json"]
    assert json.loads(archive.read(names[2])) == record  # the game's own record, as its table serves it
    assert archive.read("standings.csv").decode() == r.text
    assert len(json.loads(archive.read("event.json"))["games"]) == 2  # the game and the bye
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert r.headers["content-type"].startswith("text/csv") and len(rows) == 3
    assert [row["rank"] for row in rows] == ["1", "2", "3"] and sum(float(row["points"]) for row in rows) == 2
