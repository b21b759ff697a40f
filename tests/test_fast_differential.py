"""The fast simulator plays the same game as the reference engine: a differential test.

Both are driven with the same dice and the same choices. At every step the test checks the
player to move, the legal moves (as notation, in order), the whole state after the move
(the engine's ``to_dict()`` against the simulator's arrays read back), and at the end the
result. Greedy seats check that the compiled greedy policy chooses exactly what
``spots.bots.make("greedy")`` chooses. The games cover every tile and every rules option.

CI plays a few hundred games; for the benchmark-sized run (thousands), set
``SPOTS_FAST_DIFF_GAMES``, e.g. ``SPOTS_FAST_DIFF_GAMES=5000 pytest tests/test_fast_differential.py``.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

pytest.importorskip("numba")

import spots
from spots.bots import make
from spots.fast.api import FastState
from spots.games.spots.tricks import TILES

GAMES = int(os.environ.get("SPOTS_FAST_DIFF_GAMES", "300"))
# The greedy bot can loop for ever in Dogpile when the supply is empty (take a die off a dog,
# roll it, place it back, continue); such a game is checked up to this many decisions.
MAX_DECISIONS = 3000

# Rules that between them use every tile and every option at its edges.
CONFIGS: list[dict[str, Any]] = [
    {"tricks": "all", "players": 2, "turn_limit": 60},
    {"tricks": "all", "players": 4, "turn_limit": 60},
    {"tricks": "all", "players": 3, "dice": 9, "treats": 4, "turn_limit": 40},
    {"tricks": "all", "players": 1, "target": 3, "turn_limit": 60},
    {"tricks": "beginner", "players": 2, "turn_limit": 70},
    {"tricks": "dog-park", "players": 3, "bust_limit": 12, "turn_limit": 50},
    {"tricks": "agility-course", "players": 2, "starting_dogs": 4, "dog_limit": 7, "turn_limit": 50},
    {"tricks": "hunting", "players": 4, "starting_treats": 3, "treats": 30, "turn_limit": 50},
    {"tricks": "kennel-club", "players": 2, "starting_dogs": 0, "starting_treats": 0, "turn_limit": 50},
    {"tricks": "puppy-pen", "players": 3, "bust_limit": 3, "target": 1, "turn_limit": 50},
    {"tricks": "all", "players": 2, "target": 10, "dice": 12, "turn_limit": 70},
    {"tricks": "all", "players": 4, "treats": 0, "starting_treats": 0, "bust_limit": 0, "turn_limit": 60},
    {"tricks": "random:5", "tricks_seed": 7, "players": 2, "target": 8, "turn_limit": 60},
    {"tricks": "all", "players": 2, "dice": 3, "target": 3, "starting_dogs": 1, "turn_limit": 60},
    {"tricks": "all", "players": 2, "deck": [{"name": "Ace", "spaces": [1, 6]}, {"name": "Duo", "spaces": [2, 3, 4]},
                                             {"name": "Big", "spaces": [1, 2, 3, 4, 5, 6], "paws": 3},
                                             {"name": "Tiny", "spaces": [5], "paws": 1},
                                             {"name": "Pair", "spaces": [4, 6], "paws": 2}],
     "starting_dogs": 2, "target": 2, "dog_limit": 3, "turn_limit": 40},
]
# Each tile with Howl as its only partner, so it is chosen about every other turn.
CONFIGS += [{"tricks": [name, "howl" if name != "howl" else "walk"], "players": 2 + i % 3, "turn_limit": 30}
            for i, name in enumerate(TILES)]
SEATINGS = (("random",), ("greedy",), ("greedy", "random"), ("random", "greedy", "random", "greedy"))


def comparable(doc: dict[str, Any]) -> dict[str, Any]:
    """The engine's state JSON without what the simulator does not keep (rules, history, yard order)."""
    doc = {k: v for k, v in doc.items() if k not in ("format", "version", "rules", "history")}
    for player in doc["players"]:
        player["yard"] = sorted(player["yard"])
    return doc


def first_difference(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path}: engine {a!r}, fast {b!r}"


def play_both(rules: spots.Rules, seats: tuple[str, ...], seed: int) -> int:
    """Play one game in both implementations; returns the decisions checked."""
    rng = random.Random(seed)
    reference = spots.Game(rules).new_initial_state()
    fast = FastState(rules)
    greedy = make("greedy")
    policy = [seats[s % len(seats)] for s in range(rules.players)]
    decisions = 0

    def where() -> str:
        return f"rules {rules.to_dict()}, seats {policy}, seed {seed}, last moves {reference.history()[-6:]}"

    while True:
        assert fast.current_player() == reference.current_player(), where()
        same = comparable(reference.to_dict()) == fast.to_dict()
        assert same, f"{first_difference(comparable(reference.to_dict()), fast.to_dict())} ({where()})"
        if reference.is_terminal() or decisions == MAX_DECISIONS:
            break
        if reference.is_chance_node():
            fast.apply_action(reference.sample_chance(rng))
            continue
        legal = reference.legal_actions()
        assert fast.legal_actions() == legal, where()
        if policy[reference.current_player()] == "greedy":
            move = greedy.choose(reference)
            assert fast.greedy_action() == move, where()
        else:
            move = legal[int(rng.random() * len(legal))]
        reference.apply_action(move)
        fast.apply_action(move)
        decisions += 1
    assert fast.is_terminal() or decisions == MAX_DECISIONS
    assert reference.returns() == fast.returns(), where()
    return decisions


def test_every_tile_is_covered() -> None:
    covered = {t for c in CONFIGS for t in spots.Rules(**c).tricks}
    assert covered == set(TILES)


def test_fast_simulator_plays_the_same_game_as_the_engine() -> None:
    decisions = 0
    for game in range(GAMES):
        config = CONFIGS[game % len(CONFIGS)]
        seats = SEATINGS[(game // len(CONFIGS)) % len(SEATINGS)] if game >= len(CONFIGS) else SEATINGS[game % 4]
        decisions += play_both(spots.Rules(**config), seats, seed=game)
    assert decisions > GAMES  # every game asked for decisions
