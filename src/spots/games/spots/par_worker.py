"""A deal's par worked out in a process of its own, for the web server (``solo_web.Pars``).

Par is pure Python for seconds on end: in a thread of the server it would hold the interpreter lock and slow every
table's moves. So the server starts ``python -m spots.games.spots.par_worker`` (at a lower priority), writes one
deal as a JSON line and keeps that pipe open. The worker answers with the bot's race as soon as it is known, the
count of games played after each game, then with the par (a JSON line each), and ends. It also ends, at once and
silently, when that pipe closes: its server has stopped, even one killed outright (kill -9 runs no clean-up, but the
system closes a dead process's pipes).
Standard library only.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from dataclasses import asdict
from typing import Any

from .daily import Deal
from .par import par_of


def request(deal: Deal, games: int, nice: int, bot: str | None = None) -> str:
    """The line the server sends: the deal whole (its name, dice key and rules), the games, the niceness and the
    bot (None: the strongest)."""
    return json.dumps({"deal": asdict(deal), "games": games, "nice": nice, "bot": bot}) + "\n"


def tell(kind: str, value: Any) -> None:
    print(json.dumps({kind: value}), flush=True)


def end_with_the_pipe() -> None:
    """Read the server's pipe to its end, which comes only when the server has gone; then end this process."""
    sys.stdin.read()
    os._exit(0)


def main() -> None:
    line = sys.stdin.readline()
    if not line:
        return  # the server stopped before it asked
    asked = json.loads(line)
    threading.Thread(target=end_with_the_pipe, name="spots-par-end-with-server", daemon=True).start()
    os.nice(asked["nice"])
    try:
        par = par_of(Deal(**asked["deal"]), asked["games"], asked.get("bot"), True,
                     lambda turns: tell("race", [asdict(turn) for turn in turns]), lambda n: tell("played", n))
        tell("par", par.to_dict())
    except Exception as exc:  # a bug, never a player's doing: the server says it in its log
        tell("error", repr(exc))


if __name__ == "__main__":
    main()
