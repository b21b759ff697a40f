"""Undo at a web table (``web/takeback.py``) through the WebSocket protocol, on a real SQLite file.

A player takes back their own placement: the record loses it (the database too), every viewer (the
spectator as well) is sent the table as it was before it, and a restart finds the same. Undos the rule
forbids (another player's move, a roll, a spectator, an old position) are refused with why and what is
allowed, and change nothing. In Double Spot no drop is ever offered back.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from support.web import Msg, client, db_moves, is_state, new_table, opened, play, token, until

pytestmark = pytest.mark.timeout(300)


def undo(ws: Any, at: int | None = None, heard: list[Msg] | None = None) -> Msg:
    """Send an undo; the reply (``undone`` or an error). The states sent meanwhile go to ``heard``."""
    ws.send_json({"type": "undo", **({} if at is None else {"at": at})})
    while True:
        msg = ws.receive_json()
        if msg["type"] in ("undone", "error"):
            return msg
        if heard is not None and is_state(msg):
            heard.append(msg)


def state_of(ws: Any, moves: int) -> Msg:
    return until(ws, lambda m: is_state(m) and m["view"]["moves"] == moves)


def play_until_undo_is_offered(socks: list[Any], view: Msg, rng: random.Random) -> tuple[Msg, Msg]:
    """Random moves until the player to move may take one back; (the view before that move, the view after)."""
    for _ in range(300):
        seat = view["to_move"]
        legal = [m["move"] for m in view["legal"]]
        move = next((m for m in legal if m.startswith(("place", "bury"))), None) or rng.choice(legal)
        ok, state = play(socks[seat], move, view["moves"])
        assert ok["type"] == "ok", ok
        assert state is not None
        before, view = view, state["view"]
        if view["undo"] is not None:
            assert before["to_move"] == view["undo"]["seat"] == view["to_move"]
            return before, view
    raise AssertionError("no undo was ever offered")


def test_a_player_takes_back_a_placement_and_everyone_sees_the_board_go_back(tmp_path: Path) -> None:
    db = tmp_path / "u.db"
    with client(db) as c:
        t = new_table(c, target=3)
        tid = t["id"]
        tok = [token(s["link"]) for s in t["seats"]]
        with c.websocket_connect(f"/ws/{tid}?token={tok[0]}") as a, \
                c.websocket_connect(f"/ws/{tid}?token={tok[1]}") as b, c.websocket_connect(f"/ws/{tid}") as spy:
            view = opened(a)["state"]["view"]
            opened(b)
            opened(spy)
            assert view["undo"] is None  # nothing of anyone's yet: the deal and the first dice are chance
            before, after = play_until_undo_is_offered([a, b], view, random.Random(4))
            moves = after["moves"]
            mover = [a, b][after["to_move"]]
            other = [a, b][1 - after["to_move"]]
            for ws in (other, spy):
                state_of(ws, moves)
            kept = db_moves(db, tid)
            # refused, each with its reason and what is allowed, and nothing changes
            refused = undo(other, moves)
            assert refused["code"] == "undo-refused"
            assert "only the player to move may take back their own moves" in refused["message"]
            assert "since the last roll or reveal" in refused["message"]  # the game's rule, said with it
            assert undo(spy)["code"] == "spectator"
            assert undo(mover, moves - 1)["code"] == "stale"
            assert db_moves(db, tid) == kept
            # taken back: one move fewer everywhere, the position as it was before it
            heard: list[Msg] = []
            assert undo(mover, moves, heard) == {"type": "undone", "moves": moves - 1}
            mine = heard[-1] if heard else state_of(mover, moves - 1)  # sent before the reply or after it
            seen = [mine, state_of(other, moves - 1), state_of(spy, moves - 1)]
            for state in seen:
                assert state["log_start"] == 0 and len(state["log"]) == moves - 1
                back = state["view"]
                assert {k: v for k, v in back.items() if k != "undo"} == {k: v for k, v in before.items()
                                                                         if k != "undo"}
            assert db_moves(db, tid) == kept[:-1]
            assert c.get(f"/api/tables/{tid}/record").json()["moves"] == kept[:-1]
    with client(db) as c2:  # a restart finds the record as if the move was never played
        assert c2.get(f"/api/tables/{tid}/record").json()["moves"] == kept[:-1]


def test_right_after_a_roll_there_is_nothing_to_undo(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with client(db) as c:
        t = new_table(c)
        tid = t["id"]
        with c.websocket_connect(f"/ws/{tid}?token={token(t['seats'][0]['link'])}") as a, \
                c.websocket_connect(f"/ws/{tid}?token={token(t['seats'][1]['link'])}") as b:
            view = opened(a)["state"]["view"]
            opened(b)
            ws = [a, b][view["to_move"]]
            ok, state = play(ws, "trick walk", view["moves"])  # a trick, then its roll at once
            assert ok["type"] == "ok" and state is not None and state["view"]["undo"] is None
            refused = undo(ws, state["view"]["moves"])
            assert refused["code"] == "undo-refused"
            assert refused["message"].startswith("Nothing to undo: nothing of yours has been played since the last"
                                                 " roll or reveal.")
            assert len(db_moves(db, tid)) == state["view"]["moves"]


def test_double_spot_never_offers_a_drop_back(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    with client(db) as c:
        r = c.post("/api/tables", json={"game": "double-spot", "seats": [{"kind": "human", "name": "Ann"},
                                                                         {"kind": "human", "name": "Bob"}]})
        t = r.json()
        tid = t["id"]
        socks = [c.websocket_connect(f"/ws/{tid}?token={token(s['link'])}") for s in t["seats"]]
        with socks[0] as a, socks[1] as b:
            views = [opened(a)["state"]["view"], opened(b)["state"]["view"]]  # each sees their own side
            for _ in range(4):
                seat = views[0]["to_move"]
                ok, state = play([a, b][seat], views[seat]["legal"][0]["move"], views[seat]["moves"])
                assert ok["type"] == "ok" and state is not None
                views[seat] = state["view"]
                views[1 - seat] = state_of([a, b][1 - seat], ok["moves"])["view"]
                assert views[0]["undo"] is None and views[1]["undo"] is None
            refused = undo([a, b][1 - views[0]["to_move"]], views[0]["moves"])
            assert refused["code"] == "undo-refused" and "a drop cannot be taken back" in refused["message"]


def test_a_refusal_is_in_the_players_language(tmp_path: Path) -> None:
    with client(tmp_path / "l.db") as c:
        t = new_table(c)
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}",
                                 headers={"Accept-Language": "es"}) as a:
            opened(a)
            refused = undo(a)
            assert refused["code"] == "undo-refused" and "Nothing to undo" not in refused["message"]


def test_while_a_bot_is_to_move_a_person_is_told_it_is_not_their_move(tmp_path: Path) -> None:
    with client(tmp_path / "b.db") as c:  # the bot waits (a long bot delay): it is its move
        t = new_table(c, seats=[{"kind": "bot", "bot": "random"}, {"kind": "human", "name": "Ann"}])
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][1]['link'])}") as ann:
            view = opened(ann)["state"]["view"]
            for _ in range(100):  # when the deal gave Ann the first turn, she plays it to its end
                if view["to_move"] != 1:
                    break
                legal = [m["move"] for m in view["legal"]]
                ok, state = play(ann, next((m for m in legal if m == "stop"), legal[0]), view["moves"])
                assert ok["type"] == "ok" and state is not None
                view = state["view"]
            assert view["to_move"] == 0
            refused = undo(ann, view["moves"])
            assert refused["code"] == "undo-refused"
            assert "only the player to move may take back their own moves" in refused["message"]


def test_a_double_click_without_at_takes_back_one_move_only(tmp_path: Path) -> None:
    db = tmp_path / "twice.db"
    with client(db) as c:
        t = new_table(c, target=3)
        tid = t["id"]
        with c.websocket_connect(f"/ws/{tid}?token={token(t['seats'][0]['link'])}") as a, \
                c.websocket_connect(f"/ws/{tid}?token={token(t['seats'][1]['link'])}") as b:
            view = opened(a)["state"]["view"]
            opened(b)
            rng = random.Random(9)
            for _ in range(20):  # until two moves can be taken back
                _, view = play_until_undo_is_offered([a, b], view, rng)
                if view["undo"]["moves"] >= 2:
                    break
            else:
                pytest.fail("never two moves to take back")
            mover = [a, b][view["to_move"]]
            mover.send_json({"type": "undo", "at": view["moves"]})
            mover.send_json({"type": "undo"})  # the second click, sent before the first was answered
            replies = [until(mover, lambda m: m["type"] in ("undone", "error")) for _ in range(2)]
            assert replies[0] == {"type": "undone", "moves": view["moves"] - 1}
            assert replies[1]["code"] == "stale"
            assert len(db_moves(db, tid)) == view["moves"] - 1


def test_on_a_clocked_table_a_move_and_its_undo_give_back_no_time(tmp_path: Path) -> None:
    """Real-time with 60 seconds added per move: a placement adds them, its undo takes them away again (the
    mover's time runs on from where it stood before the move), so place-and-undo cannot buy time."""
    db = tmp_path / "clock.db"
    clock = {"pace": "real-time", "minutes": 10, "add_seconds": 60, "per": "move"}
    with client(db) as c:
        t = new_table(c, target=3, clock=clock)
        tid = t["id"]
        socks = [c.websocket_connect(f"/ws/{tid}?token={token(s['link'])}") for s in t["seats"]]
        with socks[0] as a, socks[1] as b:
            state = opened(a)["state"]
            opened(b)
            rng = random.Random(4)
            for _ in range(300):
                view, seat = state["view"], state["view"]["to_move"]
                left_before = state["clock"]["seats"][seat]["left"]
                legal = [m["move"] for m in view["legal"]]
                move = next((m for m in legal if m.startswith(("place", "bury"))), None) or rng.choice(legal)
                ok, state = play([a, b][seat], move, view["moves"])
                assert ok["type"] == "ok" and state is not None
                if state["view"]["undo"] is not None and move.startswith(("place", "bury")):
                    break
            else:
                pytest.fail("no placement could be taken back")
            mover = [a, b][seat]
            assert state["clock"]["seats"][seat]["left"] > left_before + 50  # the move added its minute
            heard: list[Msg] = []
            assert undo(mover, state["view"]["moves"], heard)["type"] == "undone"
            back = heard[-1] if heard else state_of(mover, state["view"]["moves"] - 1)
            assert back["clock"]["running"] == seat
            assert back["clock"]["seats"][seat]["left"] <= left_before  # the minute is gone again
    with client(db) as c2:  # and so the stored clock says
        assert c2.get(f"/api/tables/{tid}").json()["clock"]["seats"][seat]["left"] <= left_before
