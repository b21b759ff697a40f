"""``spots bot connect``'s client (``spots.botclient``) without a server: it rebuilds each position from the moves
it is sent, answers each position once, takes its seat back after its time ran out, and enters the ladders asked."""

from __future__ import annotations

import random
from typing import Any

from spots.botclient import Client, stream_url
from spots.core import games

SPOTS = games.get("spots")


def opening() -> tuple[Any, list[str]]:
    """A two-player Spots game dealt and rolled up to its first decision: the rules and the moves so far."""
    rules = SPOTS.make_rules(players=2, tricks="beginner", target=1)
    state, rng = SPOTS.new_state(rules), random.Random(3)
    while state.is_chance_node():
        state.sample_chance(rng)
    return rules, state.history()


def test_the_client_plays_each_position_once_and_takes_its_seat_back() -> None:
    rules, moves = opening()
    lines: list[str] = []
    client = Client("greedy", say=lines.append, ladders=("spots",))
    assert client.answer({"type": "hello", "bot": "GreedyBot"}) == [{"type": "ladder", "game": "spots",
                                                                     "join": True}]
    assert client.answer({"type": "challenge", "table": "t1", "seat": 1, "from": "Ana"}) == [
        {"type": "accept", "table": "t1", "seat": 1}]
    client.answer({"type": "game", "table": "t1", "seat": 1, "game": "spots", "rules": rules.to_dict(),
                   "players": ["Ana", "GreedyBot"]})
    state = {"type": "state", "table": "t1", "seat": 1, "moves": len(moves), "history_start": 0, "history": moves,
             "to_move": 1, "legal": ["trick howl"], "over": False, "returns": None}
    (move,) = client.answer(state)
    replay = SPOTS.new_state(rules)
    for m in moves:
        replay.apply_action(m)
    assert move == {"type": "move", "table": "t1", "move": SPOTS.make_bot("greedy").choose(replay), "at": len(moves)}
    again = {**state, "history_start": len(moves), "history": []}
    assert client.answer(again) == []  # the same position sent again (a clock, a seat): answered once
    assert client.answer({"type": "error", "code": "stood-in", "table": "t1", "message": "time"}) == [
        {"type": "back", "table": "t1"}]
    assert client.answer(again)[0]["type"] == "move"  # back in its seat: it answers the position again
    client.answer({**again, "over": True, "returns": [1.0, 0.0], "legal": []})
    assert client.finished == 1 and any("over" in line for line in lines)


def test_the_stream_address_follows_the_servers() -> None:
    assert stream_url("https://spots.example.org/") == "wss://spots.example.org/api/bot"
    assert stream_url("http://127.0.0.1:8000") == "ws://127.0.0.1:8000/api/bot"


def test_on_the_ladder_a_search_bot_thinks_within_the_budget() -> None:
    client = Client("expectimax-learned", say=lambda line: None, ladders=("spots",))
    client.answer({"type": "ladder", "game": "spots", "joined": True, "ladders": ["spots"], "seconds": 2.0})
    assert client.think_ms == 800.0  # 40% of the ladder's two seconds: the network and the machine take some
    rules = opening()[0]
    client.answer({"type": "game", "table": "t2", "seat": 0, "game": "spots", "rules": rules.to_dict(),
                   "players": ["LearnedBot", "Ana"]})
    assert getattr(client.seats["t2"].bot, "time_ms", None) == 800.0
    quick = Client("greedy", say=lambda line: None, think_ms=800.0)  # a bot without a clock is made as it is
    quick.answer({"type": "game", "table": "t3", "seat": 0, "game": "spots", "rules": rules.to_dict(),
                  "players": ["GreedyBot", "Ana"]})
    assert type(quick.seats["t3"].bot).__name__ == "GreedyBot"
