"""Double Spot in the game registry (``spots.core.games``): its options schema, records, bots, words and advisor."""

from __future__ import annotations

from ...core.advice import Advice
from ...core.games import GameSpec, Outcome
from ...core.options import Option
from .advice import advise
from .bots import BOTS
from .record import FORMAT
from .rules import CLAIM_RULES, LIMITS, Rules
from .state import State, render
from .words import N_, describe_move

OPTIONS = (
    Option("columns", "int", 8, N_("Columns"), "columns of the frame", *LIMITS["columns"]),
    Option("rows", "int", 5, N_("Rows"), "rows of the frame", *LIMITS["rows"]),
    Option("discs", "int", None, N_("Discs of each kind"), "discs of each kind (default: half the cells, rounded up)",
           *LIMITS["discs"]),
    Option("target", "int", 5, N_("Cards to win"), "pattern cards that win at once", *LIMITS["target"]),
    Option("claim", "choice", "mover", N_("A card already on the board goes to"),
           "who takes a new card whose pattern is already on the board: mover (the player to move) or first "
           "(whoever claims it first)", choices=CLAIM_RULES),
    Option("lifts", "int", 0, N_("When the frame fills, lift it and play on (times)"),
           "house rule: times a full frame is lifted, its discs let fall, and play goes on (0: a full frame ends "
           "the game)", *LIMITS["lifts"]),
)

ENDINGS = {"target": "target reached", "full-board": "board full"}


def outcome(state: State) -> Outcome:
    ending = ENDINGS.get(state.end_reason or "", state.end_reason or "unfinished")
    if state.winner is None:
        ending += ", a draw"
    return Outcome(ending, state.turn, state.winner)


def hint(state: State, seed: int = 0, bot: str | None = None) -> list[Advice]:
    """The expectimax bot's ranked drops with their chances (``advice.advise``); only expectimax gives hints."""
    if bot not in (None, "expectimax"):
        raise ValueError(f"Double Spot's hints come from the expectimax bot, not {bot!r}; "
                         f"the bots are: {', '.join(BOTS)}")
    return advise(state, seed=seed)


SPEC = GameSpec(
    name="double-spot",
    title="Double Spot",
    players=(2, 2),
    options=OPTIONS,
    records=FORMAT,
    rules=Rules,
    seats=lambda rules: 2,
    load_state=State.from_dict,
    bots=BOTS,
    describe_move=describe_move,
    advise=hint,
    render=render,
    outcome=outcome,
    turn=lambda state: state.turn,
    hint_bot="expectimax",
    terminal="spots.play.double_spot_terminal:start",
    web="spots.web.games:DOUBLE_SPOT_VIEW",
    summary="drop double-sided discs to make the patterns on the face-up cards (2 players)",
    quick=({}, {"columns": 4, "rows": 4, "target": 2, "claim": "first"}),
)
