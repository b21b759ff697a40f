"""Double Spot in the game registry (``spots.core.games``): its options schema, records, bots, words and advisor."""

from __future__ import annotations

from ...core.advice import Advice
from ...core.games import GameSpec, Outcome
from ...core.options import Lobby, Option
from .advice import advise
from .bots import BOTS
from .record import FORMAT
from .rules import CLAIM_RULES, LIMITS, Rules
from .state import State, render
from .words import N_, describe_move

TARGETS = Lobby("main", cap=(1, 10), presets=((3, N_("3 (quick)")), (5, N_("5 (standard)")), (7, N_("7 (long)"))))
CLAIMS = Lobby(presets=(("mover", N_("the player to move")), ("first", N_("whoever claims it first"))))

OPTIONS = (  # lobby: the bounds and menus of the web lobby (a public server offers no 20-column frames)
    Option("columns", "int", 8, N_("Columns"), "columns of the frame", *LIMITS["columns"], lobby=Lobby(cap=(4, 12))),
    Option("rows", "int", 5, N_("Rows"), "rows of the frame", *LIMITS["rows"], lobby=Lobby(cap=(4, 10))),
    Option("discs", "int", None, N_("Discs of each kind"), "discs of each kind (default: half the cells, rounded up)",
           *LIMITS["discs"], lobby=None),
    Option("target", "int", 5, N_("Cards to win"), "pattern cards that win at once", *LIMITS["target"],
           lobby=TARGETS),
    Option("claim", "choice", "mover", N_("A card already on the board goes to"),
           "who takes a new card whose pattern is already on the board: mover (the player to move) or first "
           "(whoever claims it first)", choices=CLAIM_RULES, lobby=CLAIMS),
    Option("lifts", "int", 3, N_("When the frame fills, lift it and play on (times)"),
           "times a full frame is lifted, its discs let fall, and play goes on (0: a full frame ends the game)",
           *LIMITS["lifts"], lobby=Lobby(cap=(0, 9))),
)

ENDINGS = {"target": "target reached", "full-board": "board full"}


def outcome(state: State) -> Outcome:
    ending = ENDINGS.get(state.end_reason or "", state.end_reason or "unfinished")
    if state.winner is None:
        ending += ", a draw"
    return Outcome(ending, state.turn, state.winner)


def coach() -> object:
    """The coach's evaluator (``spots.games.double_spot.coach``), imported when first asked for."""
    from .coach import evaluator

    return evaluator()


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
    load_state=State.from_dict,
    bots=BOTS,
    describe_move=describe_move,
    advise=hint,
    coach=coach,
    render=render,
    outcome=outcome,
    terminal="spots.play.double_spot_terminal:start",
    web="spots.web.double_spot_words:WEB_VIEW",
    blurb=N_("Drop two-sided discs and race to make the patterns on the cards. 2 players, each on their own side "
             "of the frame."),
    summary="drop double-sided discs to make the patterns on the face-up cards (2 players)",
    quick=({}, {"columns": 4, "rows": 4, "target": 2, "claim": "first"}),
)
