"""The frozen ``expectimax-v2``: it keeps playing the moves ``expectimax`` played when it was frozen."""

from __future__ import annotations

import hashlib
import random

import spots
from spots import bots

# Recorded from ``expectimax`` (nodes=1500, seed 7) at the commit that froze it as ``expectimax-v2``, in the game
# below: its 42 moves, hashed. If v2 ever plays another move here, it is no longer the bot it froze.
FROZEN_MOVES = 42
FROZEN_DIGEST = "9d5d25349da74c7b"


def moves_of(name: str) -> list[str]:
    """The moves of ``name`` (seat 0) against greedy in one seeded 2-player game on a random trick set."""
    rules = spots.Rules(players=2, tricks="random", tricks_seed=28)
    state = spots.Game(rules).new_initial_state()
    players = [bots.make(name, seed=7, nodes=1500), bots.make("greedy", seed=8)]
    rng = random.Random(28)
    moves: list[str] = []
    while not state.is_terminal() and len(moves) < 400:
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        seat = state.current_player()
        move = players[seat].choose(state)
        assert move in state.legal_actions()
        if seat == 0:
            moves.append(move)
        state.apply_action(move, player=seat)
    assert state.is_terminal()
    return moves


def test_v2_plays_the_moves_recorded_when_it_was_frozen() -> None:
    moves = moves_of("expectimax-v2")
    assert moves[:2] == ["trick howl", "place 6 mayor"]
    assert len(moves) == FROZEN_MOVES
    assert hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16] == FROZEN_DIGEST


def test_v2_is_its_own_copy_not_the_live_bot() -> None:
    """The frozen bot must not follow edits to ``expectimax.py``: it is a separate class in its own module."""
    from spots.games.spots.expectimax import ExpectimaxBot

    bot = bots.make("expectimax-v2", seed=1)
    assert bot.name == "expectimax-v2"
    assert not isinstance(bot, ExpectimaxBot)
    assert type(bot).__module__ == "spots.games.spots.expectimax_v2"
