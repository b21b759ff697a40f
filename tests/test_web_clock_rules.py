"""The clock's rules on their own (``web/clocks.py``): what each pace adds, when a seat is out of time, who
chooses, the grace time, a player's return, the finishing order for ratings and a skipped seat's moves; and, through
the app in-process, that no message a player sends moves a clock it should not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spots.web.clocks.clock import DAY, PROFILES, Clock, Pace, parse_pace, skip_move


def test_a_real_time_clock_runs_only_for_the_player_to_move_and_adds_its_increment_per_move() -> None:
    clock = Clock.new(Pace("real-time", 60.0, 2.0, "move"), 2)
    clock.start(0, now=100.0)
    clock.moved(0, 0, now=110.0)  # seat 0 moved after 10 s and is still to move: +2 s
    assert clock.left == [52.0, 60.0] and clock.running == 0
    clock.moved(0, 1, now=115.0)  # then passed the turn after 5 s more: +2 s again
    assert clock.left_at(0, 200.0) == 49.0 and clock.left_at(1, 125.0) == 50.0  # seat 1's clock runs now


def test_per_turn_adds_once_a_turn_and_turn_based_fills_the_time_again_after_every_move() -> None:
    per_turn = Clock.new(Pace("real-time", 60.0, 5.0, "turn"), 2)
    per_turn.start(0, 0.0)
    per_turn.moved(0, 0, 10.0)
    per_turn.moved(0, 1, 20.0)
    assert per_turn.left[0] == 45.0  # 20 s used, 5 s added once, at the turn's end
    days = Clock.new(Pace("turn-based", 2 * DAY), 2)
    days.start(0, 0.0)
    days.moved(0, 1, DAY)
    assert days.left == [2 * DAY, 2 * DAY] and days.deadline() == 3 * DAY


def test_out_of_time_the_others_choose_within_the_grace_time_else_a_bot_plays_and_the_player_comes_back() -> None:
    clock = Clock.new(Pace("turn-based", 10.0), 3)
    clock.start(1, 0.0)
    assert clock.expire(9.9, choosers=[0, 1, 2]) == []  # not yet
    assert clock.expire(10.0, choosers=[0, 1, 2]) == [1]
    assert clock.stand_in(1) == "out" and clock.running is None and clock.ran_out == [1]
    assert clock.deadline() == 20.0  # the choice's grace time: one turn-based move
    assert clock.expire(20.0, choosers=[0, 2]) == [1] and clock.stand_in(1) == "bot"
    clock.back(1, 30.0)
    assert clock.stand_in(1) is None and clock.left[1] == 10.0


def test_coming_back_again_and_again_cannot_stall_a_table() -> None:
    """Issue 42's untested list (stopping one's own clock): every return gave the grace time again and every
    time-out a new window for the others to choose in, so a player who came back and ran out in turn held the
    table for ever. The grace comes once; out of time again, the stand-in chosen before plays at once."""
    clock = Clock.new(Pace("real-time", 30.0), 2)
    clock.start(1, 0.0)
    assert clock.expire(30.0, choosers=[0, 1]) == [1] and clock.stand_in(1) == "out"
    clock.choose(1, "skip", 31.0)
    clock.back(1, 40.0)  # the first return: the grace time (at most the bank)
    assert clock.stand_in(1) is None and clock.left[1] == 30.0
    clock.start(1, 50.0)
    assert clock.expire(80.0, choosers=[0, 1]) == [1]
    assert clock.stand_in(1) == "skip" and clock.deadline() is None  # no new choice to wait for
    clock.back(1, 90.0)  # back again: the time left, nothing more
    assert clock.stand_in(1) is None and clock.left[1] == 0.0
    clock.start(1, 95.0)
    assert clock.expire(95.0, choosers=[0, 1]) == [1] and clock.stand_in(1) == "skip"  # at once
    assert clock.ran_out == [1] and Clock.from_json(clock.to_json()) == clock  # kept with the table


def test_with_nobody_left_to_choose_a_bot_plays_at_once() -> None:
    clock = Clock.new(Pace("real-time", 5.0), 2)
    clock.start(0, 0.0)
    assert clock.expire(5.0, choosers=[0]) == [0] and clock.stand_in(0) == "bot"  # only itself to choose


def test_a_clock_is_stored_and_read_back_unchanged() -> None:
    clock = Clock.new(PROFILES["rapid"][1], 3)
    clock.start(2, 12.5)
    clock.expire(700.0, choosers=[0, 1])
    assert Clock.from_json(clock.to_json()) == clock


@pytest.mark.parametrize("legal, move", [(["continue", "stop"], "stop"), (["reroll", "place 1 ursula", "bury 1"],
                                          "bury 1"), (["drop 1 blue", "drop 2 blue"], "drop 1 blue")])
def test_a_skipped_seat_takes_the_shortest_way_through_its_turn(legal: list[str], move: str) -> None:
    assert skip_move(legal) == move


def test_the_named_paces_and_custom_ones_parse() -> None:
    assert parse_pace(None) is None and parse_pace("none") is None
    assert parse_pace("day") == PROFILES["day"][1]
    assert parse_pace({"pace": "real-time", "minutes": 5, "add_seconds": 3, "per": "turn"}) == Pace(
        "real-time", 300.0, 3.0, "turn")
    assert parse_pace({"pace": "turn-based", "hours": 12}) == Pace("turn-based", 12 * 3600.0)
    with pytest.raises(ValueError, match="'seconds' must be from 1 to 36000 seconds"):
        parse_pace({"pace": "real-time", "seconds": 0.5})


def test_no_message_stops_ones_own_clock_or_runs_out_anothers(tmp_path: Path) -> None:
    """Issue 42's untested list: whatever either player sends (a sync, "back", a choice for a seat that
    still has time or for themselves, an undo with nothing to take back, a chat line, a move in the other's name),
    the clock of the player to move runs on to the same deadline and the other's time stays as it was."""
    from support.web import client, new_table, opened, token, until

    with client(tmp_path / "c.db", rate=1e6) as c:
        t = new_table(c, clock={"pace": "real-time", "seconds": 60}, target=3)

        def clock() -> dict[str, Any]:
            return dict(c.get(f"/api/tables/{t['id']}").json()["clock"])

        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as first, \
                c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][1]['link'])}") as second:
            views = [opened(first)["state"]["view"], opened(second)["state"]["view"]]
            before = clock()
            mover = before["running"]
            assert mover in (0, 1) and before["deadline"] is not None
            for seat, ws in enumerate((first, second)):
                other = 1 - seat
                for msg in ({"type": "sync"}, {"type": "back"},
                            {"type": "absent", "for": other, "choice": "bot"},
                            {"type": "absent", "for": seat, "choice": "skip"}, {"type": "undo"},
                            {"type": "chat", "text": "hurry up"},
                            {"type": "move", "move": views[seat]["legal"][0]["move"] if views[seat]["legal"]
                             else "stop", "seat": other}):
                    ws.send_json(msg)
                ws.send_json({"type": "ping"})
                until(ws, lambda m: m["type"] == "pong")  # everything before it has been handled
            after = clock()
        assert after["running"] == mover and abs(after["deadline"] - before["deadline"]) < 0.01
        assert [s["away"] for s in after["seats"]] == [None, None]
        assert after["seats"][1 - mover]["left"] == before["seats"][1 - mover]["left"]
