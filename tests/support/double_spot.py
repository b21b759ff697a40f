"""Double Spot positions built for scenarios: a frame filled as a test needs it, the deck in order."""

from __future__ import annotations

from spots.games.double_spot import Rules, State, standard_deck
from spots.games.double_spot.patterns import (
    on_board,
)

DECK = standard_deck()


LETTER = {"B": "blue", "G": "green", "P": "pink", "Y": "yellow"}


def position(
    rows: list[str],
    holders: list[str | None],
    *,
    seat: int = 0,
    die: str | None = None,
    won: tuple[list[str], list[str]] = ([], []),
    deck: list[str] | None = None,
    rules: Rules | None = None,
) -> State:
    """A crafted position: board rows top first as seat 0 sees them, the holders, whose move."""
    rules = rules or Rules()
    columns: list[list[str]] = [[] for _ in range(rules.columns)]
    for x in range(rules.columns):
        stack = "".join(line[x] if x < len(line) else "." for line in reversed(rows)).rstrip(".")
        assert "." not in stack, f"column {x + 1} has a gap: discs fall to the bottom"
        columns[x] = [LETTER[ch] for ch in stack]
    used = [h for h in holders if h is not None] + won[0] + won[1]
    rest = [c.id for c in DECK if c.id not in used] if deck is None else deck
    spare = [c.id for c in DECK if c.id not in used and c.id not in rest]
    won = (won[0], won[1] + spare)  # cards not in play are parked with seat 1 when a test shrinks the deck
    doc = {
        "format": "double-spot-state", "version": 1, "rules": rules.to_dict(),
        "phase": "drop" if die else "roll", "seat": seat, "turn": 0, "die": die, "board": columns,
        "holders": holders, "deck": rest, "won": [list(won[0]), list(won[1])], "refill": [], "claiming": None,
        "passing": False, "winner": None, "end_reason": None, "history": [],
    }
    # A corner of the game set up by hand (spare cards parked with seat 1, a card left on the board) need not be
    # one the rules reach: each field is read strictly, the whole position is not checked.
    return State.crafted(doc)


def full_board_position(won: tuple[list[str], list[str]]) -> tuple[State, str]:
    """A 3×3 frame one quiet drop from full under the default rules (a full frame ends the game)."""
    rules = Rules(columns=3, rows=3)
    rows = ["BG.", "PYG", "YBP"]
    for a in DECK:
        for b in DECK:
            if a.id >= b.id or a.id in won[0] + won[1] or b.id in won[0] + won[1]:
                continue
            state = position(rows, [a.id, b.id], die="pink", won=won, rules=rules)
            if on_board(state.board, a) or on_board(state.board, b):
                continue
            after = state.clone()
            after.apply_action("drop 3 pink")
            if after.scores() == state.scores():
                return state, "drop 3 pink"
    raise AssertionError("no quiet last drop found")
