"""Spots in the game registry (``spots.core.games``): its options schema, records, bots, words and advisor.

The options mirror ``Rules``: the schema checks each value's type and range for
every front end, and ``Rules`` then checks how they combine (enough dice for the
players, a dog limit at least the target, ...).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.advice import Advice
from ...core.games import CommandLine, Dealing, GameSpec, LobbyBot, Outcome, Studies, Summary, Termination
from ...core.options import CUSTOM, Lobby, Option, defaults_of
from .advice import advise as spots_advise
from .bots import BOTS
from .commands import COMMANDS
from .keyed import duplicate_deal, table_dice
from .record import FORMAT
from .rules import KEYED_DICE, Rules
from .solo_play import SOLO
from .state import State
from .studies import STUDIES
from .tricks import N_, SUGGESTED_SETS, TILES
from .web_view import WEB_VIEW
from .words import describe_move, render

if TYPE_CHECKING:
    from pathlib import Path

    from ...analysis.evaluator import Evaluator
    from ...study.spec import Study

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

KEYED = Lobby(presets=(("off", N_("off (seeded dice)")), ("on", N_("on (the same dice for every seat)"))))

# The rules' defaults are declared once, on ``Rules``; the schema (and the OpenSpiel adapter, through it) reads them.
DEFAULTS = defaults_of(Rules)


def rules_option(name: str, kind: str, label: str, help: str, low: int | None = None, high: int | None = None,
                 **more: Any) -> Option:
    """An option of ``Rules`` with the default the dataclass declares."""
    return Option(name, kind, DEFAULTS[name], label, help, low, high, **more)


OPTIONS = (
    rules_option("players", "int", N_("Players"), "players at the table (1: solo)", 1, 4, lobby=PLAYERS),
    rules_option("tricks", "text", N_("Trick tiles"),
                 "a suggested set (beginner, " + ", ".join(SUGGESTED_SETS) + "), random, random:N, all, "
                 "or a comma-separated list of tiles", lobby=TRICKS),
    rules_option("tricks_seed", "int", N_("Seed for random trick sets"), "seed for random trick sets", 0,
                 lobby=None, drawn=True),
    rules_option("target", "int", N_("Dogs to win"), "scored dogs to win (1, 3, 6, 8, 10, ...)", 1, lobby=TARGETS),
    rules_option("dog_limit", "int", N_("Dog limit"), "dogs a player may hold (default: 6 or the target)", 1,
                 lobby=Lobby(cap=(1, 32))),
    rules_option("bust_limit", "int", N_("Bust limit"), "a yard total above it busts", 0, lobby=Lobby(cap=(0, 60))),
    rules_option("dice", "int", N_("Dice in supply"), "dice in the supply", 1, lobby=Lobby(cap=(1, 200))),
    rules_option("treats", "int", N_("Treats in supply"), "treats in the supply", 0, lobby=Lobby(cap=(0, 200))),
    rules_option("starting_treats", "int", N_("Starting treats"), "treats each player starts with", 0,
                 lobby=Lobby(cap=(0, 20))),
    rules_option("starting_dogs", "int", N_("Starting dogs"), "dogs each player is dealt", 0, lobby=Lobby(cap=(0, 6))),
    rules_option("turn_limit", "int", N_("Turn limit"), "safety limit of turns; then the leaders share the win", 1,
                 lobby=Lobby(cap=(1, 5000))),
    rules_option("keyed_dice", "choice", N_("Keyed dice (duplicate)"),
                 "on: every player meets the same dice on the same turn, roll and die (luck out of comparisons)",
                 choices=KEYED_DICE, lobby=KEYED),
    rules_option("deck", "text", N_("Dog deck file"), "a custom dog deck JSON file", lobby=None),  # a server file
)


# The lobby's bots by measured strength (docs/arena.md, docs/bots.md). Kept out: expectimax-v1 and -v2, the frozen
# expectimaxes the arena measures successors against, ppo, the trained agent (level with greedy, 52.7%), and
# learned-fast (the learned bot at a small budget, for research): they stay for the arena, the terminal and Python.
LOBBY_BOTS = (
    LobbyBot("random", N_("easiest"), "uniform over the legal moves: loses every game to greedy"),
    LobbyBot("greedy", N_("easy"), "a casual player's rules of thumb: wins 100% against random"),
    LobbyBot("mcts", N_("strong"), "88.0% against greedy"),
    LobbyBot("expectimax", N_("strong"), "85.8% against greedy over 2,000 games, 61% against mcts"),
    LobbyBot("expectimax-learned", N_("strongest"),
             "the learned value at expectimax's leaves (numpy, in the web extra): 93.2% against greedy, 57.6% against "
             "expectimax-v2 over 2,000 games"),
)


def advise(state: State, seed: int = 0, bot: str | None = None) -> list[Advice]:
    """``advice.advise`` in the shared shape: the coach's ranking (or a bot's), each move's bust chance."""
    ranked = spots_advise(state, seed=seed) if bot is None else spots_advise(state, bot=bot, seed=seed)
    return [Advice(a.move, a.score, bust=a.bust) for a in ranked]


def coach() -> Evaluator:
    """The coach's evaluator (``spots.games.spots.coach``), imported when first asked for."""
    from .coach import evaluator

    return evaluator()


def puzzles() -> object:
    """The puzzle kit (``puzzles.py``), imported when first asked for."""
    from .puzzles import kit

    return kit()


def outcome(state: State) -> Outcome:
    termination = Termination.TARGET if state.winner is not None else Termination.LIMIT
    return Outcome(termination, state.turn, state.winner, list(state.busts))


def summarize(state: State) -> Summary:
    """Seats, dogs scored, the target, whose turn; the lobby also shows the trick set."""
    over = state.is_terminal()
    return Summary(seats=state.rules.players, scores=tuple(p.scored_count() for p in state.players),
                   target=state.rules.target, turn=state.turn, seat=None if over else state.seat,
                   outcome=outcome(state) if over else None, details={"tricks": list(state.rules.tricks)})


# Spots' own columns of a study row (beside the shared ones: ``spots.study.play.SHARED_COLUMNS``).
STUDY_COLUMNS = {"tricks": "list[str]", "bust_limit": "int16", "busts": "list[int32]", "uses": "list[list[int16]]"}


def study_row(rules: Rules, state: State, decisions: list[tuple[int, str]]) -> dict[str, object]:
    """Spots' columns of a study row: the trick set, who went first, busts and each seat's uses of each tile."""
    index = {name: i for i, name in enumerate(rules.tricks)}
    uses = [[0] * len(rules.tricks) for _ in range(rules.players)]
    for seat, move in decisions:
        if move.startswith("trick "):
            uses[seat][index[move[6:]]] += 1
    return {"tricks": list(rules.tricks), "bust_limit": rules.bust_limit, "first_player": state.first_player,
            "busts": list(state.busts), "uses": uses, "end_reason": state.end_reason or ""}


def terminal(args: argparse.Namespace, rules: Rules | None) -> int:
    """``spots play`` for Spots (``terminal.py``: the play extra, imported when started)."""
    from .terminal import start

    return start(args, rules)


def study_report(kind: str) -> Callable[[Study, list[dict[str, Any]], Path], list[str]]:
    """Spots' study report of one kind (``study_report.py``: the study extra, imported when a report is written)."""

    def section(study: Study, rows: list[dict[str, Any]], folder: Path) -> list[str]:
        from . import study_report as reports

        return reports.SECTIONS[kind](study, rows, folder)

    return section


SPEC: GameSpec[Rules, State] = GameSpec(
    name="spots",
    title="Spots",
    players=(1, 4),
    options=OPTIONS,
    records=FORMAT,
    load_state=State.from_dict,
    bots=BOTS,
    describe_move=describe_move,
    advise=advise,
    render=render,
    coach=coach,
    puzzles=puzzles,
    summarize=summarize,
    web=WEB_VIEW,
    cli=CommandLine(terminal=terminal, commands=COMMANDS, play_modes=(SOLO,)),  # spots play --daily, --challenge
    study=Studies(columns=STUDY_COLUMNS, row=study_row, named=STUDIES,
                  reports={kind: study_report(kind) for kind in ("seats", "sets", "variants", "tiles")}),
    dealing=Dealing(table_dice, duplicate_deal),
    lobby_bots=LOBBY_BOTS,
    seats_option="players",
    undo_rule=N_("You may take back your own moves of this turn made since the last roll or reveal, one at a time: "
                 "placements, burials and the other choices you made after seeing the dice. A roll, a reroll, a new "
                 "dog or another player's move is never taken back. Example: you roll 2 5 and place the 5 on a dog; "
                 "undo puts the 5 back in your hand with the same 2 beside it."),
    blurb=N_("Push your luck: roll dice, fill dogs, don't bust. 1 to 4 players."),
    summary="the push-your-luck dice game about dogs: fill dogs, don't bust (1-4 players)",
    # first to one dog: random games of a few hundred steps rather than thousands
    quick=({"players": 2, "target": 1}, {"players": 4, "tricks": "all", "target": 1}),
    malformed=("roll 7 7", "choose", "score now please"),
)
