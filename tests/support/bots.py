"""Bots playing a game with every move checked by the engine."""

from __future__ import annotations

import random

import spots
from spots import bots
from spots.games.spots.state import State

CHEAP = {"expectimax": {"nodes": 300}, "expectimax-v1": {"nodes": 300}, "mcts": {"iterations": 30}}


def play(rules: spots.Rules, names: list[str], seed: int, max_moves: int = 400) -> State:
    """Play with the bots (every move checked by the engine), up to ``max_moves`` decisions."""
    players = [bots.make(name, seed=seed + i, **CHEAP.get(name, {})) for i, name in enumerate(names)]
    rng = random.Random(seed)
    state = spots.Game(rules).new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < max_moves:
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        move = players[state.current_player()].choose(state)
        assert move in state.legal_actions()
        state.apply_action(move, player=state.current_player())
        moves += 1
    return state
