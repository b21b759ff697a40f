"""The MCTS bot's compiled rollouts: an engine position copied into the simulator's arrays and played on."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numba")

import spots
from spots.bots import make
from spots.fast.rollout import FastGreedyRollout
from spots.fast.tiles import card_names
from spots.fast.view import arrays_from_dict, state_dict

RULES = [
    {"tricks": "all", "players": 2},
    {"tricks": "all", "players": 4, "turn_limit": 40},
    {"tricks": "dog-park", "players": 3, "starting_dogs": 0, "starting_treats": 0},
    {"tricks": "hunting", "players": 1, "target": 3},
]


def positions(rules: spots.Rules, seed: int, limit: int = 300) -> list[Any]:
    """Every position (chance nodes too) of a game of greedy and random seats."""
    rng, greedy = random.Random(seed), make("greedy")
    state, seen = spots.Game(rules).new_initial_state(), list[Any]()
    while not state.is_terminal() and len(seen) < limit:
        seen.append(state.clone())
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(greedy.choose(state) if rng.random() < 0.6 else rng.choice(state.legal_actions()))
    return [*seen, state]


@pytest.mark.parametrize("options", RULES, ids=lambda o: f"{o['tricks']}-{o['players']}p")
def test_every_position_survives_the_copy_into_arrays(options: dict[str, Any]) -> None:
    rules = spots.Rules(**options)
    names = card_names(rules)
    for state in positions(rules, seed=len(options)):
        doc = state.to_dict()
        expected = {k: v for k, v in doc.items() if k not in ("format", "version", "rules", "history")}
        for player in expected["players"]:
            player["yard"] = sorted(player["yard"])
        assert state_dict(arrays_from_dict(doc, rules, names), rules, names) == expected


def test_rollout_values_favour_the_leader_and_share_one_win() -> None:
    rules = spots.Rules(players=2, tricks="beginner")
    lead = next(s for s in positions(rules, seed=3, limit=2000) if not s.is_terminal() and not s.is_chance_node()
                and s.players[0].scored_count() >= s.players[1].scored_count() + 2)
    values = FastGreedyRollout(count=400)(lead, random.Random(1))
    assert sum(values) == pytest.approx(1.0) and values[0] > 0.7
    start = spots.Game(rules).new_initial_state()
    even = FastGreedyRollout(count=400)(start, random.Random(1))
    assert 0.35 < even[0] < 0.65


def test_mcts_with_fast_rollouts_plays_legal_moves_and_refuses_an_unknown_rollout() -> None:
    bot = make("mcts", seed=2, iterations=20, rollout="fast")
    for state in positions(spots.Rules(players=2, tricks="all"), seed=5, limit=60):
        if not state.is_terminal() and not state.is_chance_node():
            assert bot.choose(state) in state.legal_actions()
    with pytest.raises(ValueError, match="rollout must be greedy or fast, not 'slow'"):
        make("mcts", rollout="slow")
