"""``spots bot connect``: one of the project's bots plays on a server through its bot API (docs/bot-api.md).

The server sends a game's rules once and then the moves in notation; the client rebuilds each position with the
engine (the same rules the server checks), asks its bot, and answers with the move and the number of moves it
saw (``at``), so a move meant for an older position is refused rather than misplayed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .core import games
from .core.bots import Bot


@dataclass
class Seat:
    """One game the bot plays: the game's spec, its position as the moves so far, and the bot."""

    spec: Any
    state: Any
    bot: Bot
    answered: int = -1  # the position (its number of moves) last answered: a state sent again is not


def stream_url(server: str) -> str:
    """The bot API's address on a server given as ``http(s)://host:port``."""
    base = server.rstrip("/")
    if base.startswith(("http://", "https://")):
        base = "ws" + base[4:]
    return base + "/api/bot"


THINK_SHARE = 0.4  # of a ladder's time a decision: the network and a loaded machine take some of the rest


class Client:
    """Reads the server's messages and answers them; ``games``: stop after this many games ended (None: never)."""

    def __init__(self, bot: str, accept: bool = True, games_wanted: int | None = None,
                 say: Callable[[str], None] = print, ladders: tuple[str, ...] = (), think_ms: float | None = None
                 ) -> None:
        self.bot, self.accept, self.wanted, self.say, self.ladders = bot, accept, games_wanted, say, ladders
        self.think_ms = think_ms  # a search bot's time a decision (None: its node budget alone)
        self.seats: dict[str, Seat] = {}
        self.finished = 0

    def answer(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """The replies to one server message (none for most)."""
        kind = msg.get("type")
        if kind == "hello":  # enter the ladders asked for (the server pairs the bot while it is connected)
            return [{"type": "ladder", "game": game, "join": True} for game in self.ladders]
        if kind == "ladder" and self.think_ms is None:  # think for at most 40% of the ladder's time a decision
            self.think_ms = THINK_SHARE * float(msg["seconds"]) * 1000
        if kind == "challenge":
            self.say(f"challenge from {msg.get('from')} at table {msg['table']}")
            return [{"type": "accept" if self.accept else "decline", "table": msg["table"], "seat": msg["seat"]}]
        if kind == "game":
            spec = games.get(msg["game"])
            rules = spec.records.rules_from_dict(msg["rules"])
            self.seats[msg["table"]] = Seat(spec, spec.new_state(rules), self._make(spec))
            self.say(f"game {msg['table']}: {msg['game']}, seat {msg['seat'] + 1} of {' / '.join(msg['players'])}")
        elif kind == "state":
            return self._play(msg)
        elif kind == "error":
            self.say(f"error {msg.get('code')}: {msg.get('message')}")
            seat = self.seats.get(msg.get("table", ""))
            if msg.get("code") == "stood-in" and seat is not None:  # its time ran out: take the seat back, and
                seat.answered = -1  # answer the position again (the refused move was not played)
                return [{"type": "back", "table": msg["table"]}]
        return []

    def _make(self, spec: Any) -> Bot:
        """The bot, with a time a decision where it takes one (the search bots); the others are quick anyway."""
        if self.think_ms is not None:
            try:
                return spec.make_bot(self.bot, seed=0, time_ms=self.think_ms)
            except ValueError:
                pass  # a bot without a clock (random, greedy)
        return spec.make_bot(self.bot, seed=0)

    def _play(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        seat = self.seats.get(msg["table"])
        if seat is None:
            return []
        if msg["history_start"] == 0:  # the whole record: the first state, or after a move was taken back
            seat.state, seat.answered = seat.spec.new_state(seat.state.rules), -1
        for move in msg["history"]:
            seat.state.apply_action(move)
        if msg["over"]:
            self.finished += 1
            self.seats.pop(msg["table"])
            self.say(f"game {msg['table']} over: {msg['returns']}")
            return []
        if not msg["legal"] or msg["moves"] <= seat.answered:
            return []
        seat.answered = msg["moves"]
        move = seat.bot.choose(seat.state)
        return [{"type": "move", "table": msg["table"], "move": move, "at": msg["moves"]}]

    @property
    def done(self) -> bool:
        return self.wanted is not None and self.finished >= self.wanted


def warm_up(bot: str, game: str) -> None:
    """One decision before connecting: a bot's first (its model loaded, its tables built) can take longer than a
    ladder's budget allows."""
    spec = games.get(game)
    state, player, rng = spec.new_state(), spec.make_bot(bot, seed=0), random.Random(0)
    while state.is_chance_node():
        state.sample_chance(rng)
    if not state.is_terminal():
        player.choose(state)


def connect(server: str, token: str, client: Client) -> int:
    """Play until the wanted games are over or the server closes the connection; the games finished."""
    for game in client.ladders or ("spots",):
        warm_up(client.bot, game)
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect as open_socket

    with open_socket(stream_url(server), additional_headers={"Authorization": f"Bearer {token}"},
                     max_size=2**22) as ws:
        try:
            while not client.done:
                for reply in client.answer(json.loads(ws.recv())):
                    ws.send(json.dumps(reply))
        except ConnectionClosed as closed:
            client.say(f"the server closed the connection ({closed.rcvd.code if closed.rcvd else 'no code'})")
    return client.finished


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spots bot connect", description="Play a bot account on a server.")
    parser.add_argument("--bot", default="greedy", help="which of the project's bots plays (spots games lists them)")
    parser.add_argument("--server", required=True, help="the server, such as https://spots.example.org")
    parser.add_argument("--token", default=os.environ.get("SPOTS_BOT_TOKEN"),
                        help="the bot account's API token (default: $SPOTS_BOT_TOKEN, kept out of the process list)")
    parser.add_argument("--games", type=int, default=None, help="stop after this many games (default: never)")
    parser.add_argument("--decline", action="store_true", help="decline challenges (play only games already on)")
    parser.add_argument("--ladder", action="append", default=[], metavar="GAME",
                        help="enter the bot ladder of this game (spots, double-spot); may be given twice")
    parser.add_argument("--think", type=float, default=None, metavar="MS",
                        help="a search bot's time a decision (default: 40%% of the ladder's, else its node budget)")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give the bot account's API token: --token, or $SPOTS_BOT_TOKEN")
    client = Client(args.bot, not args.decline, args.games, ladders=tuple(args.ladder), think_ms=args.think)
    finished = connect(args.server, args.token, client)
    print(f"{finished} game(s) finished", file=sys.stderr)
    return 0
