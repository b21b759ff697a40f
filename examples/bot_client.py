"""A complete bot for a Spots server's bot API, in one file: it accepts challenges, enters the ladder, and plays.

    pip install "spots[web]"            # the engine, and websockets
    spots users --db spots.sqlite3 add-bot MyBot   # on the server (or ask its host): prints the API token
    SPOTS_BOT_TOKEN=... python examples/bot_client.py --server http://127.0.0.1:8000 --bot greedy --ladder

Any of the project's bots plays (``spots games`` lists them; ``ppo`` is a trained Gymnasium policy); to play
your own, replace ``choose``. The protocol is in docs/bot-api.md.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from websockets.sync.client import connect

from spots.core import games


def choose(bot: Any, state: Any, legal: list[str]) -> str:
    """The move to play: here the project's bot decides (``legal`` is what the server will accept)."""
    return str(bot.choose(state))


def play(server: str, token: str, bot_name: str, ladder: bool) -> None:
    url = server.replace("http", "ws", 1).rstrip("/") + "/api/bot"
    tables: dict[str, dict[str, Any]] = {}  # table -> its game spec, position, bot and last answered position
    with connect(url, additional_headers={"Authorization": f"Bearer {token}"}, max_size=2**22) as ws:
        for text in ws:
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "hello":
                print(f"connected as {msg['bot']}")
                if ladder:
                    ws.send(json.dumps({"type": "ladder", "game": "spots", "join": True}))
            elif kind == "challenge":  # a person invited this bot to a seat: accept
                print(f"challenge from {msg['from']}: {msg['game']} at table {msg['table']}")
                ws.send(json.dumps({"type": "accept", "table": msg["table"], "seat": msg["seat"]}))
            elif kind == "game":  # a game starts (or goes on after a reconnect): rules now, moves in each state
                spec = games.get(msg["game"])
                rules = spec.records.rules_from_dict(msg["rules"])
                tables[msg["table"]] = {"spec": spec, "rules": rules, "state": spec.new_state(rules),
                                        "bot": spec.make_bot(bot_name, seed=0), "answered": -1}
            elif kind == "state" and msg["table"] in tables:
                game = tables[msg["table"]]
                if msg["history_start"] == 0:  # the whole record: rebuild the position
                    game["state"], game["answered"] = game["spec"].new_state(game["rules"]), -1
                for move in msg["history"]:
                    game["state"].apply_action(move)
                if msg["over"]:
                    print(f"table {msg['table']} over: {msg['returns']}")
                    del tables[msg["table"]]
                elif msg["legal"] and msg["moves"] > game["answered"]:
                    game["answered"] = msg["moves"]
                    move = choose(game["bot"], game["state"], msg["legal"])
                    ws.send(json.dumps({"type": "move", "table": msg["table"], "move": move, "at": msg["moves"]}))
            elif kind == "error":
                print(f"refused ({msg['code']}): {msg['message']}")
                if msg["code"] == "stood-in" and msg["table"] in tables:  # our time ran out: take the seat back
                    tables[msg["table"]]["answered"] = -1  # and answer again (the refused move was not played)
                    ws.send(json.dumps({"type": "back", "table": msg["table"]}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--bot", default="greedy", help="which of the project's bots plays")
    parser.add_argument("--ladder", action="store_true", help="enter the Spots bot ladder")
    args = parser.parse_args()
    play(args.server, os.environ["SPOTS_BOT_TOKEN"], args.bot, args.ladder)


if __name__ == "__main__":
    main()
