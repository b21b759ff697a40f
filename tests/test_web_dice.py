"""Dice anyone can check (issue 41): a served game's commitment, its players' salts, and ``spots verify``.

A table made online shows the fingerprint of a secret seed from the start; the seed is on no page, log line,
API answer or socket message until the game is over, then in the record, where ``spots verify`` recomputes
every chance event. A record with one die changed fails, naming the event; a seed that is not the committed one
fails; an old record says it has no commitment; the salts the players add are part of the dice.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from spots import cli
from spots.core.commitment import Commitment, Salt, digest, event_dice, verify
from spots.core.games import get
from support.web import Msg, app_on, decisions, new_table, opened, play, play_all, play_to_the_end, token, until

pytestmark = pytest.mark.timeout(300)
TWO = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def seed_of(db: Path, table_id: str) -> str:
    with sqlite3.connect(db) as con:
        (seed,) = con.execute("SELECT dice_seed FROM tables WHERE id = ?", (table_id,)).fetchone()
    return str(seed)


def run_verify(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = cli.main(["verify", str(path)])
    return status, capsys.readouterr().out


def changed_event(record: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The record cut after its last drawn chance event but one, that event drawn otherwise (a die changed)."""
    spec = get("spots")
    rules = spec.records.rules_from_dict(record["rules"])
    state, chance = spec.new_state(rules), []
    for index, move in enumerate(record["moves"]):
        if state.is_chance_node():
            chance.append((index, state.clone()))
        state.apply_action(move)
    index, before = chance[-2]
    for k in range(100):  # another outcome of the same event
        other = before.clone().sample_chance(random.Random(k))
        if other != record["moves"][index]:
            return {**record, "moves": [*record["moves"][:index], other]}, len(chance) - 1
    raise AssertionError("every draw gave the same outcome")


def test_a_served_game_verifies_and_its_seed_stays_secret_until_the_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "t.db"
    caplog.set_level(logging.DEBUG)
    seen: list[str] = []  # everything anyone was shown before the end
    with app_on(str(db), rate=1000.0, burst=1000.0) as c:
        t = new_table(c, TWO)
        seed = seed_of(db, t["id"])
        assert len(seed) == 64 and t["commitment"] == digest(seed) != seed
        links = [token(s["link"]) for s in t["seats"]]
        for path in (f"/play/{links[0]}", f"/t/{t['id']}", f"/api/tables/{t['id']}", f"/api/tables/{t['id']}/record",
                     f"/api/tables/{t['id']}/dice", "/api/tables", f"/t/{t['id']}/replay"):
            seen.append(c.get(path).text)
        assert t["commitment"] in seen[0]  # the fingerprint is on the seat's page from the first roll on
        assert c.get(f"/api/tables/{t['id']}/dice/check").status_code == 409  # not before the end
        with c.websocket_connect(f"/ws/{t['id']}?token={links[0]}") as ann, \
                c.websocket_connect(f"/ws/{t['id']}?token={links[1]}") as bob, \
                c.websocket_connect(f"/ws/{t['id']}") as spy:
            views = {seat: opened(ws)["state"]["view"] for seat, ws in enumerate((ann, bob))}
            opened(spy)
            ann.send_json({"type": "salt", "salt": "ann's own salt"})
            said = until(bob, lambda m: m["type"] == "dice")
            assert [s["salt"] for s in said["salts"]] == ["ann's own salt"] and "seed" not in said
            for bad, code in (("x" * 65, "bad-salt"), ("again", "salt-taken")):
                ann.send_json({"type": "salt", "salt": bad})
                assert until(ann, lambda m: m["type"] == "error")["code"] == code
            spy.send_json({"type": "salt", "salt": "a spectator's"})
            assert until(spy, lambda m: m["type"] == "error")["code"] == "spectator"
            bob.send_json({"type": "salt", "salt": "bob-2"})
            until(ann, lambda m: m["type"] == "dice" and len(m["salts"]) == 2)
            end = play_to_the_end({0: ann, 1: bob}, seed=5, views=views)
            assert end["over"]
            spy.send_json({"type": "sync"})
            while True:  # every message the spectator was sent, to the end
                msg = spy.receive_json()
                seen.append(json.dumps(msg))
                if msg["type"] == "state" and msg["view"]["over"]:
                    break
        assert not [text for text in seen if seed in text]
        assert not [r.getMessage() for r in caplog.records if seed in r.getMessage()]
        record = c.get(f"/api/tables/{t['id']}/record").json()
        assert record["dice"]["seed"] == seed and len(record["dice"]["salts"]) == 2
        check = c.get(f"/api/tables/{t['id']}/dice/check").json()
        assert check["ok"] and check["events"] > 2 and check["words"].startswith(f"all {check['events']} chance")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    status, out = run_verify(path, capsys)
    assert status == 0 and f"all {check['events']} chance events match" in out
    unsalted = {**record, "dice": {**record["dice"], "salts": []}}  # the salts are part of the dice
    path.write_text(json.dumps(unsalted))
    status, out = run_verify(path, capsys)
    assert status == 1 and "does not match" in out
    tampered, event = changed_event(record)
    path.write_text(json.dumps(tampered))
    status, out = run_verify(path, capsys)
    assert status == 1 and f"chance event {event} " in out and "does not match" in out, out
    other = {**record, "dice": {**record["dice"], "seed": hashlib.sha256(b"another seed").hexdigest()}}
    path.write_text(json.dumps(other))
    status, out = run_verify(path, capsys)
    assert status == 1 and "the seed does not match its commitment" in out
    old = {k: v for k, v in record.items() if k != "dice"}
    path.write_text(json.dumps(old))
    status, out = run_verify(path, capsys)
    assert status == 1 and "no commitment" in out


def test_the_dice_carry_on_from_the_committed_seed_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    with app_on(db, rate=1000.0, burst=1000.0) as c:
        t = new_table(c, TWO)
        links = [token(s["link"]) for s in t["seats"]]
        with c.websocket_connect(f"/ws/{t['id']}?token={links[1]}") as bob:
            opened(bob)
            bob.send_json({"type": "salt", "salt": "before the restart"})
            until(bob, lambda m: m["type"] == "dice")
    with app_on(db, rate=1000.0, burst=1000.0) as c:  # a new server on the same file: the seed is read back
        with c.websocket_connect(f"/ws/{t['id']}?token={links[0]}") as ann, \
                c.websocket_connect(f"/ws/{t['id']}?token={links[1]}") as bob:
            views = {seat: opened(ws)["state"]["view"] for seat, ws in enumerate((ann, bob))}
            play_to_the_end({0: ann, 1: bob}, seed=9, views=views)
        check = c.get(f"/api/tables/{t['id']}/dice/check").json()
        assert check["ok"], check


def test_tables_on_known_dice_have_no_commitment(tmp_path: Path) -> None:
    """A tutorial's seeded dice have nothing to commit to: no fingerprint, no salt, and the check says so."""
    with app_on(str(tmp_path / "t.db")) as c:
        r = c.post("/learn", data={"game": "spots"}, follow_redirects=False)
        assert r.status_code == 303, r.text
        page = c.get(r.headers["location"]).text
        assert 'id="dice"' not in page
        table_id = page.split('data-table="', 1)[1].split('"', 1)[0]
        assert c.get(f"/api/tables/{table_id}/dice").json() == {"commitment": None}
        assert c.get(f"/api/tables/{table_id}/dice/check").json()["error"] == "no-commitment"


def test_the_check_itself_names_what_it_found() -> None:
    """``verify`` without a server: the words for a record that has no seed yet, and a commitment kept."""
    spec = get("spots")
    rules = spec.make_rules(players=2, target=1, tricks="beginner")
    assert not verify(lambda: spec.new_state(rules), [], Commitment("ab" * 32)).ok
    assert "not revealed yet" in verify(lambda: spec.new_state(rules), [], Commitment("ab" * 32)).words
    seed = "s" * 8
    assert verify(lambda: spec.new_state(rules), [], Commitment(digest(seed), (), seed)).words.startswith("all 0")


def test_a_record_whose_dice_block_is_damaged_is_refused_clearly(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    spec = get("spots")
    record: Msg = spec.record(spec.new_state(spec.make_rules(players=2))).to_dict()
    for dice, said in (("nope", "'dice' must be an object"), ({"commitment": "ab", "salts": [{"seat": "x"}]},
                                                                "each salt must be")):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({**record, "dice": dice}))
        assert cli.main(["verify", str(path)]) != 0
        assert said in capsys.readouterr().err


@pytest.mark.parametrize("game", ["spots", "double-spot"])
def test_a_game_drawn_as_the_server_draws_verifies_claim_races_and_all(game: str) -> None:
    """The scheme over a whole game of each game, drawn as the server draws (each event from its key; Double
    Spot's claim races are the players' own moves), salts said along the way: it checks out, and a record
    whose salts are changed does not."""
    spec = get(game)
    rules = spec.make_rules(**({"players": 2, "target": 2} if game == "spots" else {"claim": "first"}))
    racers = spec.web.racers if spec.web is not None else (lambda state: ())
    seed, pick = "a" * 64, random.Random(3)
    dice = Commitment(digest(seed), (), seed)
    state, moves = spec.new_state(rules), []
    while not state.is_terminal():
        if len(moves) == 12:  # a salt said part way: the events from the next move on are keyed with it too
            dice = Commitment(dice.commitment, (Salt(1, "later", len(moves) + 1),), seed)
        if state.is_chance_node() and racers(state):
            move = f"claim {pick.choice(list(racers(state)))}"
            state.apply_action(move)
        elif state.is_chance_node():
            move = state.sample_chance(event_dice(seed, dice.salts, len(moves)))
        else:
            move = pick.choice(state.legal_actions())
            state.apply_action(move)
        moves.append(move)
    fresh = lambda: spec.new_state(rules)  # noqa: E731
    verdict = verify(fresh, moves, dice, racers)
    assert verdict.ok and verdict.events > 5, verdict
    assert game == "spots" or any(m.startswith("claim ") for m in moves)  # the races were run
    salted_otherwise = Commitment(dice.commitment, (Salt(1, "other", 13),), seed)
    assert not verify(fresh, moves, salted_otherwise, racers).ok


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "t.db")
    return str(request.getfixturevalue("pg_url"))


def test_moves_drawn_without_a_salt_stored_meanwhile_are_refused(database: str) -> None:
    """Another process may store a salt between this one's read of the salts and its write of the chance events
    it drew: the write is then refused (``Conflict``: the mover sends again), never stored with the wrong dice."""
    from spots.core.commitment import commit_to, salts_text
    from spots.web.store import Conflict, open_store

    store = open_store(database)
    try:
        row = store.create_table("spots", {"players": 2}, TWO, [("reveal wilbur", -1)], dice=commit_to())
        assert row.dice is not None and store.load_table(row.id).dice == row.dice  # the seed is kept, in full
        said = (Salt(0, "mine", 2),)
        assert not store.add_salt(row.id, "[]", salts_text(said), 0)  # the table has 1 move, not 0: not stored
        assert store.add_salt(row.id, "[]", salts_text(said), 1)
        assert not store.add_salt(row.id, "[]", salts_text(said), 1)  # a second writer of the same salts
        with pytest.raises(Conflict):
            store.append_moves(row.id, 1, [("reveal doog", -1)], "playing", None, salts="[]")  # drawn without it
        assert store.move_count(row.id) == 1
        store.append_moves(row.id, 1, [("reveal doog", -1)], "playing", None, salts=salts_text(said))
        assert store.move_count(row.id) == 2 and store.load_table(row.id).dice.salts == said
    finally:
        store.close()


def test_todays_daily_dice_need_the_hosts_secret_and_yesterdays_check_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's daily deal is keyed by its host's secret: today's fingerprint is published, its key is on no
    page and in no record until the day is over; yesterday's key is shown, and yesterday's games verify."""
    from datetime import timedelta

    from spots.games.spots import solo_store
    from spots.games.spots.daily import daily_deal, utc_today
    from spots.games.spots.par import play_deal

    monkeypatch.setenv("SPOTS_PAR_GAMES", "2")
    monkeypatch.setenv("SPOTS_PAR_CACHE", str(tmp_path / "par"))
    today = utc_today()
    yesterday = today - timedelta(days=1)

    def finish(c: Any, day: Any) -> Msg:
        """Play the server's deal of ``day`` to its end (a greedy bot's choices: they meet the deal's dice)."""
        deal = daily_deal(day, secret)
        made = c.post("/daily", data={"date": day.isoformat()}, follow_redirects=False)
        seat_token = made.headers["location"].split("/play/")[1].split("?")[0]
        table_id = c.app.state.hub.by_token[seat_token][0]
        with c.websocket_connect(f"/ws/{table_id}?token={seat_token}") as ws:
            # each refused unless the dice are the server's deal's
            view = play_all(ws, decisions(play_deal(deal, "greedy", 0).history()), opened(ws)["state"]["view"])
        assert view["over"]
        return dict(c.get(f"/api/tables/{table_id}/record").json())

    with app_on(str(tmp_path / "t.db"), rate=1e6) as c:
        secret = solo_store.host_secret(c.app.state.hub.store)
        served, practice = daily_deal(today, secret), daily_deal(today)
        assert served.key != practice.key != daily_deal(today, "another host's secret").key
        now = c.get(f"/api/solo/daily-{today}").json()
        assert now["commitment"] == digest(served.key) and "key" not in now
        page = c.get("/daily").text
        assert digest(served.key) in page and served.key not in page
        assert c.get(f"/api/solo/daily-{yesterday}").json()["key"] == daily_deal(yesterday, secret).key
        record = finish(c, today)
        assert record["dice"]["deal"] and "seed" not in record["dice"]  # today's key stays secret
        assert served.key not in json.dumps(record)
        old = finish(c, yesterday)
        assert old["dice"]["seed"] == daily_deal(yesterday, secret).key
        table_id = c.get("/api/tables?status=over").json()["tables"][0]["id"]
        assert c.get(f"/api/tables/{table_id}/dice/check").json()["ok"]
    path = tmp_path / "yesterday.json"
    path.write_text(json.dumps(old))
    status, out = run_verify(path, capsys)
    assert status == 0 and "chance events match" in out
    path.write_text(json.dumps(record))
    status, out = run_verify(path, capsys)
    assert status == 1 and "not revealed yet" in out


def test_the_race_tells_nothing_of_the_bots_game_beyond_the_players_own_turns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot played the same dice: its turns are sent only as far as the player has played (issue 42, finding
    4: the race view must not show the deal's future before the player has played it)."""
    from spots.games.spots import solo_store
    from spots.games.spots.daily import daily_deal, utc_today
    from spots.games.spots.par import cache_path, compute_par, play_deal

    monkeypatch.setenv("SPOTS_PAR_GAMES", "2")
    monkeypatch.setenv("SPOTS_PAR_CACHE", str(tmp_path / "par"))
    with app_on(str(tmp_path / "t.db"), rate=1e6) as c:
        deal = daily_deal(utc_today(), solo_store.host_secret(c.app.state.hub.store))
        par = compute_par(deal, games=2, bot="greedy")  # known at once: the race is there to be asked for
        cache_path(deal, 2, None).parent.mkdir(parents=True)
        cache_path(deal, 2, None).write_text(json.dumps(par.to_dict()))
        before = c.get(f"/api/solo/{deal.name}").json()
        assert before["par"] is not None and "bot" not in before  # nothing of the bot's game before playing
        made = c.post("/daily", follow_redirects=False)
        seat_token = made.headers["location"].split("/play/")[1].split("?")[0]
        table_id = c.app.state.hub.by_token[seat_token][0]
        game = play_deal(deal, "greedy", 0)
        with c.websocket_connect(f"/ws/{table_id}?token={seat_token}") as ws:
            view = opened(ws)["state"]["view"]
            for move in decisions(game.history()):
                reply, state = play(ws, move, view["moves"])
                assert state is not None, reply
                view = state["view"]
                race = c.get(f"/api/solo/{deal.name}?table={table_id}").json()
                assert len(race.get("bot", [])) == len(race["you"]) or view["over"]  # as far as the player
                if view["turn"] == 3:
                    break
        assert 0 < len(race["bot"]) < len(par.race)
