"""Double Spot tables in the web app: the seats, a stored table, a position one move before a claim."""

from __future__ import annotations

import random
from pathlib import Path

from spots.games.double_spot import Rules, State
from spots.web.store import Store
from support.web import Msg

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def to_a_claim(seed: int = 0) -> tuple[Rules, list[str]]:
    """A seeded game under the ``first`` claim rule, up to a card that is already on the board."""
    rules = Rules(claim="first")
    for attempt in range(200):
        state, rng = State(rules), random.Random(f"{seed}:{attempt}")
        while not state.is_terminal():
            if state.phase == "claim":
                return rules, state.history()
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no claim came up")


def stored_table(db: Path, rules: Rules, moves: list[str], seats: list[Msg]) -> str:
    """A Double Spot table written straight into the database, as a server would have left it."""
    store = Store(db)
    try:
        row = store.create_table("double-spot", rules.to_dict(), [{**s, "bot": s.get("bot")} for s in seats],
                                 [(m, -1) for m in moves])
        return row.id
    finally:
        store.close()
