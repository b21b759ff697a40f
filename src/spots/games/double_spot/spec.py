"""Double Spot in the game registry (``spots.core.games``): its options schema, records, bots, words and advisor."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ...core.advice import Advice
from ...core.games import TERMINATION_WORDS, CommandLine, GameSpec, LobbyBot, Outcome, Studies, Summary, Termination
from ...core.options import Lobby, Option, defaults_of
from .advice import advise
from .bots import BOTS
from .record import FORMAT
from .rules import CLAIM_RULES, LIMITS, Rules
from .state import State, render
from .studies import STUDIES
from .web_view import WEB_VIEW
from .words import N_, describe_move

if TYPE_CHECKING:
    from pathlib import Path

    from ...analysis.evaluator import Evaluator
    from ...study.spec import Study

TARGETS = Lobby("main", cap=(1, 10), presets=((3, N_("3 (quick)")), (5, N_("5 (standard)")), (7, N_("7 (long)"))))
# The rules' ending (0 lifts) is the default; the lobby recommends lifting with its measured effect (no % sign: these
# texts are format strings for argparse and gettext; docs/double-spot.md has the figures).
LIFTS = Lobby(cap=(0, 9), presets=((0, N_("0 (the rules: a full frame ends the game)")), (1, "1"), (2, "2"),
                                   (3, N_("3 (recommended: 86 in 100 games reach the target instead of 27)")),
                                   (5, "5"), (9, "9")))
CLAIMS = Lobby(presets=(("mover", N_("the player to move")), ("first", N_("whoever claims it first"))))

# The rules' defaults are declared once, on ``Rules``; the schema (and every front end, through it) reads them.
DEFAULTS = defaults_of(Rules)


def rules_option(name: str, kind: str, label: str, help: str, **more: Any) -> Option:
    """An option of ``Rules`` with the default the dataclass declares and the range every front end shares
    (``rules.LIMITS``)."""
    low, high = LIMITS.get(name, (None, None))
    return Option(name, kind, DEFAULTS[name], label, help, low, high, **more)


OPTIONS = (  # lobby: the menus of the web lobby
    rules_option("columns", "int", N_("Columns"), "columns of the frame", lobby=Lobby()),
    rules_option("rows", "int", N_("Rows"), "rows of the frame", lobby=Lobby()),
    rules_option("discs", "int", N_("Discs of each kind"), "discs of each kind (default: half the cells, rounded up)",
                 lobby=None),
    rules_option("target", "int", N_("Cards to win"), "pattern cards that win at once", lobby=TARGETS),
    rules_option("claim", "choice", N_("A card already on the board goes to"),
                 "who takes a new card whose pattern is already on the board: mover (the player to move) or first "
                 "(whoever claims it first)", choices=CLAIM_RULES, lobby=CLAIMS),
    rules_option("lifts", "int", N_("When the frame fills, lift it and play on (times)"),
                 "house rule: times a full frame is lifted, its discs let fall, and play goes on (0, the rules: a "
                 "full frame ends the game, more cards wins; with 3, 86 in 100 greedy games reach the target, "
                 "against 27)", lobby=LIFTS),
)

# The lobby's bots by measured strength (docs/double-spot.md): the three searches are level with each other.
LOBBY_BOTS = (
    LobbyBot("random", N_("easiest"), "uniform over the legal moves"),
    LobbyBot("greedy", N_("easy"), "takes a card when it can, hands over no finish it can avoid: 0.902 against random"),
    LobbyBot("mcts", N_("strong"), "0.538 against greedy"),
    LobbyBot("expectimax", N_("strong"), "0.562 against greedy, 0.529 against mcts; the hints"),
    LobbyBot("search", N_("strong"), "0.529 against greedy, 0.509 against mcts"),
)

def outcome(state: State) -> Outcome:
    termination = Termination.TARGET if state.end_reason == "target" else Termination.EXHAUSTED
    words = TERMINATION_WORDS[termination] + (", a draw" if state.winner is None else "")
    return Outcome(termination, state.turn, state.winner, words=words)


def summarize(state: State) -> Summary:
    """Two seats, cards taken, the target, whose turn."""
    over = state.is_terminal()
    return Summary(seats=2, scores=tuple(state.scores()), target=state.rules.target, turn=state.turn,
                   seat=None if over else state.seat, outcome=outcome(state) if over else None)


def study_row(rules: Rules, state: State, decisions: list[tuple[int, str]]) -> dict[str, object]:
    """Double Spot's columns of a study row: how it ended, in the engine's words, and whether the frame filled."""
    return {"end_reason": state.end_reason or "", "full": outcome(state).termination == Termination.EXHAUSTED}


def terminal(args: argparse.Namespace, rules: Rules | None) -> int:
    """``spots play --game double-spot`` (``terminal.py``: the play extra, imported when started)."""
    from .terminal import start

    return start(args, rules)


def coach() -> Evaluator:
    """The coach's evaluator (``spots.games.double_spot.coach``), imported when first asked for."""
    from .coach import evaluator

    return evaluator()


def puzzles() -> object:
    """The puzzle kit (``puzzles.py``), imported when first asked for."""
    from .puzzles import kit

    return kit()


def hint(state: State, seed: int = 0, bot: str | None = None) -> list[Advice]:
    """The expectimax bot's ranked drops with their chances (``advice.advise``); only expectimax gives hints."""
    if bot not in (None, "expectimax"):
        raise ValueError(f"Double Spot's hints come from the expectimax bot, not {bot!r}; "
                         f"the bots are: {', '.join(BOTS)}")
    return advise(state, seed=seed)


def study_report(study: Study, rows: list[dict[str, Any]], folder: Path) -> list[str]:
    """The ``double-spot`` study report (``study_report.py``: the study extra, imported when a report is written)."""
    from .study_report import report

    return report(study, rows, folder)


SPEC: GameSpec[Rules, State] = GameSpec(
    name="double-spot",
    title="Double Spot",
    players=(2, 2),
    options=OPTIONS,
    records=FORMAT,
    load_state=State.from_dict,
    bots=BOTS,
    describe_move=describe_move,
    advise=hint,
    coach=coach,
    puzzles=puzzles,
    render=render,
    summarize=summarize,
    web=WEB_VIEW,
    cli=CommandLine(terminal=terminal),
    # rows_version 2: a lead change made by the last move counts (version 1 left it out)
    study=Studies(columns={"full": "bool"}, row=study_row, named=STUDIES, reports={"double-spot": study_report},
                  rows_version=2, rules_in_full=True),
    lobby_bots=LOBBY_BOTS,
    undo_rule=N_("In Double Spot a drop cannot be taken back: it ends your turn, and the next roll of the die (or a "
                 "new card) follows at once."),
    blurb=N_("Drop two-sided discs and race to make the patterns on the cards. 2 players, each on their own side "
             "of the frame."),
    summary="drop double-sided discs to make the patterns on the face-up cards (2 players)",
    quick=({}, {"columns": 4, "rows": 4, "target": 2, "claim": "first"}),
    malformed=("drop x blue", "drop 3", "lift"),
)
