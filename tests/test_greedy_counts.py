"""The greedy bot prices a trick's first roll with the engine's own dice count (supply limit, Dogpile's extra die)."""

from __future__ import annotations

import random

import spots
import spots.bots
from spots.games.spots.greedy import GreedyBot
from spots.games.spots.tricks import TILES
from support.spots import adjust, start


def test_greedy_prices_rolls_capped_by_the_supply() -> None:
    """With one die left in the supply, Walk rolls one die, like Howl: greedy values them alike."""
    state = adjust(start(tricks=["howl", "roll-over", "walk"]), yard=[], supply_dice=1)
    bot = GreedyBot()
    assert state.roll_size(TILES["walk"].steps[0], planning=True) == 1
    assert bot._trick_worth(state, "walk") == bot._trick_worth(state, "howl")


def test_greedy_counts_dogpiles_extra_die() -> None:
    """With a die to take, Dogpile rolls 3 dice: greedy prices 3, like Track's 3 dice (no treats, no keep rule)."""
    state = adjust(start(tricks=["howl", "roll-over", "dogpile", "track"]), yard=[2])
    bot = GreedyBot()
    assert state.roll_size(TILES["dogpile"].steps[0], planning=True) == 3
    assert bot._trick_worth(state, "dogpile") == bot._trick_worth(state, "track")


def test_same_seed_same_greedy_game() -> None:
    def game() -> list[str]:
        rules = spots.Rules(players=3, tricks="all")
        rng = random.Random(11)
        bots = [spots.bots.make("greedy", seed=s) for s in range(3)]
        state = spots.Game(rules).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                state.apply_action(bots[state.current_player()].choose(state))
        return state.history()

    assert game() == game()
