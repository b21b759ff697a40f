"""Spots in the game registry (``spots.core.games``): its options schema, records, bots, words and advisor.

The options mirror ``Rules``: the schema checks each value's type and range for
every front end, and ``Rules`` then checks how they combine (enough dice for the
players, a dog limit at least the target, ...).
"""

from __future__ import annotations

from ...core.advice import Advice
from ...core.games import GameSpec, Outcome
from ...core.options import CUSTOM, Lobby, Option
from .advice import advise as spots_advise
from .bots import BOTS
from .record import FORMAT
from .rules import Rules
from .state import State
from .tricks import N_, SUGGESTED_SETS, TILES
from .words import describe_move, render

# The lobby's menus (the first entry of each is the game's default).
TRICK_MENU = (("beginner", N_("beginner (Adoption Event)")), ("dog-park", N_("dog park")),
              ("agility-course", N_("agility course")), ("hunting", N_("hunting")),
              ("kennel-club", N_("kennel club")), ("puppy-pen", N_("puppy pen")), ("random", N_("random")),
              ("all", N_("all")), (CUSTOM, N_("custom")))
TRICKS = Lobby("main", presets=TRICK_MENU, picks=tuple((t.name, t.title, t.colour) for t in TILES.values()),
               picked=("howl", "roll-over"), picks_label=N_("Choose 2 to 22 tiles"), custom_field="tiles")
PLAYERS = Lobby("main", presets=((1, N_("1 (solo)")), (2, "2"), (3, "3"), (4, "4")))
TARGETS = Lobby("main", cap=(1, 20), presets=((1, N_("1 (warm-up)")), (3, N_("3 (quick)")), (6, N_("6 (standard)")),
                                             (8, N_("8 (long)")), (10, N_("10 (long)"))))

OPTIONS = (
    Option("players", "int", 2, N_("Players"), "players at the table (1: solo)", 1, 4, lobby=PLAYERS),
    Option("tricks", "text", "beginner", N_("Trick tiles"),
           "a suggested set (beginner, " + ", ".join(SUGGESTED_SETS) + "), random, random:N, all, "
           "or a comma-separated list of tiles", lobby=TRICKS),
    Option("tricks_seed", "int", None, N_("Seed for random trick sets"), "seed for random trick sets", 0,
           lobby=None, drawn=True),
    Option("target", "int", 6, N_("Dogs to win"), "scored dogs to win (1, 3, 6, 8, 10, ...)", 1, lobby=TARGETS),
    Option("dog_limit", "int", None, N_("Dog limit"), "dogs a player may hold (default: 6 or the target)", 1,
           lobby=Lobby(cap=(1, 32))),
    Option("bust_limit", "int", 7, N_("Bust limit"), "a yard total above it busts", 0, lobby=Lobby(cap=(0, 60))),
    Option("dice", "int", 40, N_("Dice in supply"), "dice in the supply", 1, lobby=Lobby(cap=(1, 200))),
    Option("treats", "int", 20, N_("Treats in supply"), "treats in the supply", 0, lobby=Lobby(cap=(0, 200))),
    Option("starting_treats", "int", 1, N_("Starting treats"), "treats each player starts with", 0,
           lobby=Lobby(cap=(0, 20))),
    Option("starting_dogs", "int", 2, N_("Starting dogs"), "dogs each player is dealt", 0, lobby=Lobby(cap=(0, 6))),
    Option("turn_limit", "int", 1000, N_("Turn limit"), "safety limit of turns; then the leaders share the win", 1,
           lobby=Lobby(cap=(1, 5000))),
    Option("deck", "text", None, N_("Dog deck file"), "a custom dog deck JSON file", lobby=None),  # a server file
)


def advise(state: State, seed: int = 0, bot: str | None = None) -> list[Advice]:
    """``spots.advisor.advise`` in the shared shape: a bot's ranking (the strongest by default), each move's bust
    chance."""
    ranked = spots_advise(state, seed=seed) if bot is None else spots_advise(state, bot=bot, seed=seed)
    return [Advice(a.move, a.score, bust=a.bust) for a in ranked]


def coach() -> object:
    """The coach's evaluator (``spots.games.spots.coach``), imported when first asked for."""
    from .coach import evaluator

    return evaluator()


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
    load_state=State.from_dict,
    bots=BOTS,
    describe_move=describe_move,
    advise=advise,
    render=render,
    outcome=outcome,
    coach=coach,
    terminal="spots.play.spots_terminal:start",
    web="spots.web.words:WEB_VIEW",
    seats_option="players",
    blurb=N_("Push your luck: roll dice, fill dogs, don't bust. 1 to 4 players."),
    summary="the push-your-luck dice game about dogs: fill dogs, don't bust (1-4 players)",
    # first to one dog: random games of a few hundred steps rather than thousands
    quick=({"players": 2, "target": 1}, {"players": 4, "tricks": "all", "target": 1}),
)
