"""Double Spot tables in the web app: the same invite links, persistence and replays as Spots.

The real app runs in-process on a real SQLite file (helpers from ``test_web_api``).
Dice are the server's own (unpredictable), so the tests play whatever drop the
server offers and check what each side of the frame shows.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from spots.games.double_spot import Rules, State
from spots.games.double_spot.patterns import FLIP
from spots.web.store import Store
from support.double_spot_web import HUMANS, stored_table, to_a_claim
from support.processes import PATIENT_S
from support.web import Msg, client, db_moves, is_state, opened, play, token, until

pytestmark = pytest.mark.timeout(300)

FIXTURES = Path(__file__).parent / "fixtures" / "double_spot_lifts3"


def new_ds_table(c: Any, seats: list[Msg] | None = None, **body: Any) -> Msg:
    r = c.post("/api/tables", json={"game": "double-spot", "seats": seats or HUMANS, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def my_drop(view: Msg) -> str:
    """The first drop the page offers (the server's legal moves, from this seat's side)."""
    drops = [d["move"] for col in view["columns"] for d in col["drops"]]
    assert drops and drops == [b["move"] for b in view["legal"]]
    return drops[0]


@pytest.mark.parametrize(("body", "needle"), [
    ({"seats": [{"kind": "human"}]}, "2 seats for Double Spot"),
    ({"seats": [*HUMANS, {"kind": "human"}]}, "2 seats for Double Spot"),
    ({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "minimax"}]},
     "the bots are random, greedy, mcts, expectimax, search"),
    ({"seats": HUMANS, "options": {"lifts": 10}}, "lifts must be from 0 to 9, not 10"),
    ({"seats": HUMANS, "options": {"columns": 30}}, "columns must be from 3 to 12, not 30"),
    ({"seats": HUMANS, "options": {"claim": "loudest"}}, "claim must be one of mover, first"),
    ({"seats": HUMANS, "options": {"tricks": "all"}}, "unknown option 'tricks'"),
    ({"seats": HUMANS, "target": 0}, "target must be from 1 to 10, not 0"),
    ({"game": ["double-spot"], "seats": HUMANS}, "unknown game ['double-spot']"),
])
def test_bad_double_spot_tables_are_refused_clearly(tmp_path: Path, body: Msg, needle: str) -> None:
    with client(tmp_path / "t.db") as c:
        r = c.post("/api/tables", json={"game": "double-spot", **body})
        assert r.status_code == 400 and needle in r.json()["message"], r.text
        assert c.get("/api/tables").json()["tables"] == []
        r = c.post("/api/tables", json={"game": "go", "seats": HUMANS})
        assert r.status_code == 400 and "the games are spots, double-spot" in r.json()["message"]


def test_each_player_sees_their_own_side_and_moves_are_written_from_it(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = new_ds_table(c, target=3, options={"columns": 6, "rows": 4, "claim": "first", "lifts": 2})
        listed = c.get("/api/tables").json()["tables"][0]
        # both seats are invite-only: nothing to join from the lobby
        assert listed["game"] == "double-spot" and listed["target"] == 3 and listed["status"] == "playing"
        ann_link, bob_link = (token(s["link"]) for s in t["seats"])
        with c.websocket_connect(f"/ws/{t['id']}?token={ann_link}") as ann, \
                c.websocket_connect(f"/ws/{t['id']}?token={bob_link}") as bob, \
                c.websocket_connect(f"/ws/{t['id']}") as watcher:
            views = [opened(ws)["state"]["view"] for ws in (ann, bob, watcher)]
            assert [v["side"] for v in views] == [0, 1, 0]
            assert views[0]["rules"] == {"columns": 6, "rows": 4, "discs": 12, "target": 3, "claim": "first",
                                         "lifts": 2}
            assert views[0]["to_move"] == 0 and len(views[0]["columns"]) == 6
            assert views[1]["legal"] == [] and all(not col["drops"] for col in views[1]["columns"])
            assert views[2]["legal"] == []
            # the same card from both sides: mirrored, colours flipped
            ids = [c_["id"] for c_ in views[0]["cards"]]
            assert ids == [c_["id"] for c_ in reversed(views[1]["cards"])]  # the holders at the frame's ends
            assert [c_["holder"] for c_ in views[1]["cards"]] == [2, 1]
            letters = {"B": "G", "G": "B", "P": "Y", "Y": "P", ".": "."}
            for front, back in zip(views[0]["cards"], reversed(views[1]["cards"]), strict=True):
                assert back["rows"] == ["".join(letters[ch] for ch in row[::-1]) for row in front["rows"]]

            move = my_drop(views[0])  # Ann drops from her side: column n from her left
            reply, after = play(ann, move)
            assert reply["type"] == "ok" and after is not None
            n, colour = int(move.split()[1]), move.split()[2]
            assert after["view"]["columns"][n - 1]["discs"] == [colour]
            bob_view = until(bob, lambda m: is_state(m) and m["view"]["moves"] == reply["moves"])["view"]
            assert bob_view["columns"][6 - n]["discs"] == [FLIP[colour]]  # Bob sees it on his right, flipped
            watch_view = until(watcher, lambda m: is_state(m) and m["view"]["moves"] == reply["moves"])["view"]
            assert watch_view["columns"][n - 1]["discs"] == [colour]
            assert "Ann drops a disc into column" in " ".join(c.get(f"/api/tables/{t['id']}").json()["log"])

            if bob_view["to_move"] == 1:  # (unless Ann's disc already won a card and the game went on)
                move = my_drop(bob_view)  # Bob's move text is his own side's
                reply, after = play(bob, move)
                assert reply["type"] == "ok"
                m, colour = int(move.split()[1]), move.split()[2]
                ann_view = until(ann, lambda msg: is_state(msg) and msg["view"]["moves"] == reply["moves"])["view"]
                assert FLIP[colour] in ann_view["columns"][6 - m]["discs"]
                assert db_moves(tmp_path / "t.db", t["id"])[-2] == move  # recorded as written


def test_bad_moves_at_a_double_spot_table_change_nothing(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = new_ds_table(c)
        ann_link, bob_link = (token(s["link"]) for s in t["seats"])
        with c.websocket_connect(f"/ws/{t['id']}?token={ann_link}") as ann, \
                c.websocket_connect(f"/ws/{t['id']}?token={bob_link}") as bob:
            view = opened(ann)["state"]["view"]
            opened(bob)
            before = c.get(f"/api/tables/{t['id']}").json()
            reply, _ = play(bob, my_drop(view))
            assert reply["code"] == "not-your-turn"
            reply, _ = play(ann, "drop 9 blue")
            assert reply["code"] == "illegal-move" and reply["legal"] == [b["move"] for b in view["legal"]]
            assert "illegal drop" in reply["message"] and "Legal here: drop" in reply["message"]
            reply, _ = play(ann, "roll blue")
            assert reply["code"] == "illegal-move"
            reply, _ = play(ann, "claim 0")
            assert reply["code"] == "illegal-move"
            after = c.get(f"/api/tables/{t['id']}").json()
            assert after["view"] == before["view"] and after["moves"] == before["moves"]


def test_a_double_spot_hint_ranks_the_legal_drops(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = new_ds_table(c)
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ann:
            view = opened(ann)["state"]["view"]
            ann.send_json({"type": "hint"})
            hint = until(ann, lambda m: m["type"] == "hint")
            legal = {b["move"] for b in view["legal"]}
            assert hint["advice"] and {a["move"] for a in hint["advice"]} <= legal
            assert all(a["label"].startswith("Column ") and 0 <= a["score"] <= 1 for a in hint["advice"])


def test_the_first_claim_rule_is_a_race_the_server_settles(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    rules, moves = to_a_claim()
    table = stored_table(db, rules, moves, HUMANS)
    with client(db) as c:
        row = c.get(f"/api/tables/{table}").json()
        assert row["moves"] == len(moves) and row["view"]["claim"]  # a restart does not draw the claim itself
        assert "whoever claims it first takes it" in row["view"]["status"] and row["to_move"] is None
        seats = {s.seat: s.token for s in c.app.state.hub.rooms[table].row.seats}  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/{table}?token={seats[0]}") as ann, \
                c.websocket_connect(f"/ws/{table}?token={seats[1]}") as bob:
            ann_view, bob_view = opened(ann)["state"]["view"], opened(bob)["state"]["view"]
            assert ann_view["legal"] == [{"move": "claim 0", "label": "Claim the card", "group": "claim"}]
            assert bob_view["legal"][0]["move"] == "claim 1"
            reply, _ = play(bob, "claim 0")  # nobody claims for someone else
            assert reply["code"] == "illegal-move" and reply["legal"] == ["claim 1"]
            reply, _ = play(bob, "claim 1")
            assert reply["type"] == "ok" and reply["move"] == "claim 1"
            if not c.get(f"/api/tables/{table}").json()["view"]["claim"]:  # (the next card may be on the board too)
                reply, _ = play(ann, "claim 0")  # too late: the card is Bob's (stale: sent without `at` just after)
                assert reply["type"] == "error" and reply["code"] in ("illegal-move", "not-your-turn", "stale")
            won = c.get(f"/api/tables/{table}").json()["view"]["players"][1]["won"]
            assert won and db_moves(db, table)[len(moves)] == "claim 1"
        log = c.get(f"/api/tables/{table}").json()["log"]
        assert "Bob claims the card first." in log[len(moves)]


def test_a_bot_claims_after_a_human_reaction_time(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    rules, moves = to_a_claim(seed=1)
    table = stored_table(db, rules, moves, [HUMANS[0], {"kind": "bot", "bot": "greedy", "name": "Rex"}])
    with client(db, bot_delay=0.2) as c:
        start = time.time()
        while time.time() - start < 30:
            answer = c.get(f"/api/tables/{table}")  # ten looks a second: under the server's request limit
            assert answer.status_code == 200, answer.text
            if answer.json()["moves"] > len(moves):
                break
            time.sleep(0.1)
        assert time.time() - start >= 1.4  # 1.5 to 2.5 bot delays, at least 1.5 s: a person has time to claim
        assert db_moves(db, table)[len(moves)] == "claim 1"


def test_double_spot_tables_survive_a_restart_and_replay_from_either_side(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db, bot_delay=0.0) as c:
        t = new_ds_table(c, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}], target=2)
        deadline = time.time() + PATIENT_S
        while not c.get(f"/api/tables/{t['id']}").json()["view"]["over"] and time.time() < deadline:
            time.sleep(0.05)
        before = c.get(f"/api/tables/{t['id']}").json()
        assert before["view"]["over"] and before["status"] == "over"
    with client(db) as c:
        again = c.get(f"/api/tables/{t['id']}").json()
        assert again["view"] == before["view"] and again["log"] == before["log"]
        record = c.get(f"/api/tables/{t['id']}/record").json()
        assert record["format"] == "double-spot-record" and record["moves"] == db_moves(db, t["id"])
        from spots.games.double_spot import replay

        assert replay(record["moves"], Rules.from_dict(record["rules"])).returns() == again["view"]["returns"]
        total = again["moves"]
        front = c.get(f"/api/tables/{t['id']}/replay?at={total}").json()["view"]
        back = c.get(f"/api/tables/{t['id']}/replay?at={total}&side=1").json()["view"]
        assert front["side"] == 0 and back["side"] == 1 and front["legal"] == back["legal"] == []
        flipped = [[FLIP[d] for d in col["discs"]] for col in reversed(front["columns"])]
        assert [col["discs"] for col in back["columns"]] == flipped
        assert c.get(f"/api/tables/{t['id']}/replay?side=2").status_code == 400
        page = c.get(f"/t/{t['id']}/replay")
        assert page.status_code == 200 and "double_spot.js" in page.text


def test_a_database_from_before_double_spot_is_upgraded(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE tables (id TEXT PRIMARY KEY, host_token TEXT NOT NULL UNIQUE, created REAL NOT NULL,
            updated REAL NOT NULL, rules TEXT NOT NULL, status TEXT NOT NULL, winner INTEGER,
            moves INTEGER NOT NULL DEFAULT 0);
        INSERT INTO tables VALUES ('old1', 'host', 1.0, 1.0, '{"players": 2}', 'playing', NULL, 0);
        CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, kind TEXT NOT NULL,
            bot TEXT, name TEXT NOT NULL, token TEXT UNIQUE, claimed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (table_id, seat));
        INSERT INTO seats VALUES ('old1', 0, 'human', NULL, 'Ann', 'tok0', 0),
            ('old1', 1, 'human', NULL, 'Bob', 'tok1', 0);
    """)
    con.close()
    with client(db) as c:
        old = c.get("/api/tables/old1").json()
        assert old["game"] == "spots" and old["view"]["players"][0]["name"] == "Ann"
        t = new_ds_table(c)
        assert c.get(f"/api/tables/{t['id']}").json()["game"] == "double-spot"


def test_a_table_stored_while_lifts_was_3_by_default_keeps_its_lifts(tmp_path: Path) -> None:
    """A table the server stored under the old default (its rules row names ``"lifts": 3``, as that server
    wrote every option) resumes after the frame was lifted; a new table gets the rules' ending."""
    db = tmp_path / "t.db"
    saved = json.loads((FIXTURES / "state_after_a_lift.json").read_text())
    store = Store(db)
    try:
        old = store.create_table("double-spot", saved["rules"], [{**s, "bot": None} for s in HUMANS],
                                 [(m, -1) for m in saved["history"]]).id
    finally:
        store.close()
    with client(db) as c:
        row = c.get(f"/api/tables/{old}").json()
        assert row["status"] == "playing" and row["view"]["rules"]["lifts"] == 3 and not row["view"]["over"]
        assert db_moves(db, old)[len(saved["history"])].startswith("roll")  # the server rolled on for seat 0
        assert all(not col["discs"] for col in row["view"]["columns"])  # the lifted, empty frame
        fresh = new_ds_table(c)
        assert c.get(f"/api/tables/{fresh['id']}").json()["view"]["rules"]["lifts"] == 0
        lobby = c.get("/").text
        field = lobby[lobby.index('id="opt-double-spot-lifts"'):]
        field = field[:field.index("</select>")]
        assert '<option value="0" selected>0 (the rules: a full frame ends the game)</option>' in field
        assert "3 (recommended: 86 in 100 games reach the target instead of 27)" in field


def test_the_view_draws_each_won_card_from_the_viewers_side() -> None:
    """The mats and the end screen draw the cards won, so the view sends each one's pattern, as this side sees it."""
    from spots.games.double_spot import bots as ds_bots
    from spots.games.double_spot import web_view as double_spot_words

    state, rng, bot = State(Rules(target=2)), random.Random(4), ds_bots.make("greedy", seed=4)
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)  # draws and applies the roll or the card
        else:
            state.apply_action(bot.choose(state))
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
    front, back = (double_spot_words.view(state, seats, 0, None, seat) for seat in (0, 1))
    won = [card for cards in state.won for card in cards]
    assert won and sorted(front["patterns"]) == sorted(back["patterns"]) == sorted(won)
    assert front["summary"]["players"][0]["cards"] == front["players"][0]["won"] == state.won[0]
    letters = {"B": "G", "G": "B", "P": "Y", "Y": "P", ".": "."}
    for card in won:  # the other side sees the card turned round: mirrored, each colour its other face
        assert back["patterns"][card] == ["".join(letters[ch] for ch in row[::-1]) for row in front["patterns"][card]]
        assert sum(ch != "." for row in front["patterns"][card] for ch in row) == 3
