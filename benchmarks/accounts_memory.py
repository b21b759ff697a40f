"""What accounts add to a server's memory per signed-in player, measured in-process with tracemalloc.

The real app (``create_app``, SQLite in a temporary folder, private limits) is driven through Starlette's
test client: first ``--players`` guests each create a two-seat table (a person and a bot) and load the
lobby, then as many signed-in players do the same with their session cookie (the account's seat is bound
at creation, each request looks the session up). The difference between the two per player is what an
account costs in memory: the session's last-use entry, the seat's account id and the name. Accounts and
sessions themselves live in the database, not in memory. Sign-ups are not timed here: the accounts are
written to the store directly with one shared argon2id hash (hashing costs 19 MiB per sign-in while it
runs, at most two at once: a bounded 38 MiB peak, not a per-player cost).

    python benchmarks/accounts_memory.py --players 500
"""

from __future__ import annotations

import argparse
import gc
import secrets
import sys
import tempfile
import tracemalloc
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message=".*httpx.*")

from argon2 import PasswordHasher  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from spots.web import create_app  # noqa: E402
from spots.web.accounts.service import COOKIE, hash_secret  # noqa: E402
from spots.web.config import Limits  # noqa: E402

SEATS = {"seats": [{"kind": "human", "name": "Me"}, {"kind": "bot", "bot": "greedy"}], "tricks": "beginner",
         "target": 1}


def traced() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def play(c: TestClient, token: str | None) -> None:
    c.cookies.clear()
    if token:
        c.cookies.set(COOKIE, token)
    assert c.post("/api/tables", json=SEATS).status_code == 201
    assert c.get("/").status_code == 200


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500, help="guests, then as many signed-in players (<= 5000)")
    args = parser.parse_args(argv)
    n = max(1, min(args.players, 5000))
    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app(Path(tmp) / "m.db", bot_delay=3600.0,
                                                                     limits=Limits.private())) as c:
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        digest = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1).hash("a shared password")
        tokens = []
        for i in range(n):
            store.create_account(f"acct{i:05d}", f"player{i:05d}", f"player{i:05d}", digest)
            tokens.append(secrets.token_urlsafe(32))
            store.new_session(hash_secret(tokens[-1]), f"acct{i:05d}")
        play(c, None)  # warm up: first-use caches (templates, games) are nobody's cost
        play(c, tokens[0])
        tracemalloc.start()
        start = traced()
        for _ in range(n):
            play(c, None)
        guests = traced()
        for token in tokens:
            play(c, token)
        signed = traced()
        tracemalloc.stop()
        bound = sum(1 for room in c.app.state.hub.rooms.values()  # type: ignore[attr-defined]
                    for seat in room.row.seats if seat.account)
    per_guest = (guests - start) / n
    per_player = (signed - guests) / n
    print(f"{n} guests: {per_guest:,.0f} bytes each (a table with its room, seats and position)")
    print(f"{n} signed-in players: {per_player:,.0f} bytes each ({bound} seats bound to accounts)")
    print(f"accounts add {per_player - per_guest:,.0f} bytes per signed-in player"
          f" ({(per_player - per_guest) * 10000 / 2**20:.1f} MiB per 10,000)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
