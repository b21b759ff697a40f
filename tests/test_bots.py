"""Bots: legal in every tile, variant and seat; deterministic under a seed; stronger than each other."""

from __future__ import annotations

import random

import pytest

import spots
from spots import bots
from spots.arena import run_match, seating, summarise, wilson
from spots.games.spots.tricks import TILES
from support.bots import CHEAP, play

ALL_BOTS = ["random", "greedy", "expectimax", "mcts"]


@pytest.mark.parametrize("tile", sorted(TILES))
def test_every_bot_plays_every_tile_legally(tile: str) -> None:
    """Each tile with Howl beside it, every bot in a seat, 1-4 players across tiles."""
    players = 1 + sorted(TILES).index(tile) % 4
    others = [t for t in ("howl", "walk") if t != tile][:1]
    rules = spots.Rules(players=players, tricks=[tile, *others], target=3)
    for offset, _ in enumerate(ALL_BOTS):
        names = [ALL_BOTS[(offset + s) % len(ALL_BOTS)] for s in range(players)]
        play(rules, names, seed=offset, max_moves=150)


@pytest.mark.parametrize("name", ALL_BOTS)
def test_bots_play_variants_to_the_end(name: str) -> None:
    variants = [
        spots.Rules(players=1, tricks="random", tricks_seed=1, target=3),
        spots.Rules(players=3, tricks="puppy-pen", target=1, dice=8, treats=3),
        spots.Rules(players=4, tricks="dog-park", target=3, bust_limit=10),
        spots.Rules(players=2, tricks="all", target=8, turn_limit=40),
    ]
    for seed, rules in enumerate(variants):
        names = [name if s % 2 == 0 else "greedy" for s in range(rules.players)]
        state = play(rules, names, seed, max_moves=100_000 if name in ("random", "greedy") else 300)
        if name in ("random", "greedy"):
            assert state.is_terminal()


@pytest.mark.parametrize("name", ALL_BOTS)
def test_same_seed_same_moves(name: str) -> None:
    rules = spots.Rules(players=2, tricks="all")
    first = play(rules, [name, name], seed=5, max_moves=120).history()
    again = play(rules, [name, name], seed=5, max_moves=120).history()
    assert first == again


def test_unknown_bot_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="expectimax"):
        bots.make("deep-blue")


def test_ranked_moves_cover_every_legal_move() -> None:
    rng = random.Random(2)
    state = spots.Game(spots.Rules(players=2, tricks="all")).new_initial_state()
    seen = 0
    while not state.is_terminal() and seen < 40:
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        for name in ("expectimax", "mcts"):
            ranked = bots.make(name, **CHEAP[name]).rank(state)
            assert sorted(m for m, _ in ranked) == sorted(state.legal_actions())
        state.apply_action(bots.make("greedy").choose(state))
        seen += 1


def test_greedy_beats_random_clearly() -> None:
    results = run_match(spots.Rules(players=2), ["greedy", "random"], games=40, seed=3)
    rows = {r["bot"]: r for r in summarise(results)}
    assert rows["greedy"]["win_rate"] >= 0.9


def test_expectimax_beats_greedy() -> None:
    results = run_match(spots.Rules(players=2), ["expectimax", "greedy"], games=40, seed=4, jobs=2,
                        budget={"expectimax": {"nodes": 500}})  # 85% at this budget
    rows = {r["bot"]: r for r in summarise(results)}
    assert rows["expectimax"]["win_rate"] > 0.6


def test_arena_rotates_seats_fairly() -> None:
    assert [seating(["a", "b"], 2, g) for g in range(2)] == [["a", "b"], ["b", "a"]]
    seats = [seating(["mcts", "greedy"], 3, g) for g in range(3)]
    assert seats == [["mcts", "greedy", "greedy"], ["greedy", "mcts", "greedy"], ["greedy", "greedy", "mcts"]]


def test_arena_is_deterministic_whatever_the_worker_count() -> None:
    rules = spots.Rules(players=3, tricks="all")
    one = run_match(rules, ["greedy", "random"], games=9, seed=8, jobs=1)
    two = run_match(rules, ["greedy", "random"], games=9, seed=8, jobs=2)
    def outcome(results: list) -> list:
        return [(r.seats, r.returns, r.turns, r.busts) for r in results]

    assert outcome(one) == outcome(two)


def test_wilson_interval() -> None:
    low, high = wilson(70, 100)
    assert 0.60 < low < 0.61 and 0.78 < high < 0.79
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
