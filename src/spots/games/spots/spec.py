"""Spots in the game registry (``spots.core.games``): its options schema, records, bots, words and advisor.

The options mirror ``Rules``: the schema checks each value's type and range for
every front end, and ``Rules`` then checks how they combine (enough dice for the
players, a dog limit at least the target, ...).
"""

from __future__ import annotations

from ...bots import BOTS
from ...core.advice import Advice
from ...core.games import GameSpec, Outcome
from ...core.options import Option
from .advice import advise as spots_advise
from .record import FORMAT
from .rules import Rules
from .state import State
from .tricks import N_, SUGGESTED_SETS
from .words import describe_move, render

OPTIONS = (
    Option("players", "int", 2, N_("Players"), "players at the table (1: solo)", 1, 4),
    Option("tricks", "text", "beginner", N_("Trick tiles"),
           "a suggested set (beginner, " + ", ".join(SUGGESTED_SETS) + "), random, random:N, all, "
           "or a comma-separated list of tiles"),
    Option("tricks_seed", "int", None, N_("Seed for random trick sets"), "seed for random trick sets", 0),
    Option("target", "int", 6, N_("Dogs to win"), "scored dogs to win (1, 3, 6, 8, 10, ...)", 1),
    Option("dog_limit", "int", None, N_("Dog limit"), "dogs a player may hold (default: 6 or the target)", 1),
    Option("bust_limit", "int", 7, N_("Bust limit"), "a yard total above it busts", 0),
    Option("dice", "int", 40, N_("Dice in supply"), "dice in the supply", 1),
    Option("treats", "int", 20, N_("Treats in supply"), "treats in the supply", 0),
    Option("starting_treats", "int", 1, N_("Starting treats"), "treats each player starts with", 0),
    Option("starting_dogs", "int", 2, N_("Starting dogs"), "dogs each player is dealt", 0),
    Option("turn_limit", "int", 1000, N_("Turn limit"), "safety limit of turns; then the leaders share the win", 1),
    Option("deck", "text", None, N_("Dog deck file"), "a custom dog deck JSON file"),
)


def advise(state: State, seed: int = 0, bot: str | None = None) -> list[Advice]:
    """``spots.advisor.advise`` in the shared shape: a bot's ranking (the strongest by default), each move's bust
    chance."""
    ranked = spots_advise(state, seed=seed) if bot is None else spots_advise(state, bot=bot, seed=seed)
    return [Advice(a.move, a.score, bust=a.bust) for a in ranked]


def outcome(state: State) -> Outcome:
    ending = "target reached" if state.winner is not None else "turn limit"
    return Outcome(ending, state.turn, state.winner, list(state.busts))


SPEC = GameSpec(
    name="spots",
    title="Spots",
    players=(1, 4),
    options=OPTIONS,
    records=FORMAT,
    rules=Rules,
    seats=lambda rules: rules.players,
    load_state=State.from_dict,
    bots=BOTS,
    describe_move=describe_move,
    advise=advise,
    render=render,
    outcome=outcome,
    turn=lambda state: state.turn,
    hint_bot="expectimax",
    terminal="spots.play.terminal:start",
    web="spots.web.games:SPOTS_VIEW",
    summary="the push-your-luck dice game about dogs: fill dogs, don't bust (1-4 players)",
    # first to one dog: random games of a few hundred steps rather than thousands
    quick=({"players": 2, "target": 1}, {"players": 4, "tricks": "all", "target": 1}),
)
