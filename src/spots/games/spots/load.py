"""Loading a saved Spots state: one reader per field (named in ``state.py``), then whole-position checks.

Every reader gets the raw value and the state being loaded (whose rules are read first).
A bad value raises StateFormatError (or an error ``core.document`` turns into one),
naming what is wrong; ``check`` refuses positions that would break the game later.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.document import whole
from .errors import StateFormatError
from .pieces import Player, Roll, Tile, Trick
from .rules import Rules
from .tasks import CHANCE_REVEAL, CHANCE_ROLL, OVER, Decision, Task

if TYPE_CHECKING:
    from .state import State


def rules(raw: Any, state: State) -> Rules:
    return Rules.from_dict(raw)


def phase(raw: Any, state: State) -> str:
    if raw not in (CHANCE_ROLL, CHANCE_REVEAL, OVER, *Decision.registry):
        raise StateFormatError(f"unknown phase {raw!r}")
    return str(raw)


def whole_at(what: str) -> Callable[[Any, State], int]:
    """A reader of a whole number, naming the field ``what`` when it is not one."""
    return lambda raw, state: whole(raw, what)


def optional_whole(raw: Any, state: State) -> int | None:
    return None if raw is None else whole(raw, "winner")


def players(raw: Any, state: State) -> list[Player]:
    count = state.rules.players
    if len(raw) != count:
        raise StateFormatError(f"the rules have {count} players but the state has {len(raw)}")
    return [Player.from_dict(p, state.rules) for p in raw]


def tiles(raw: Any, state: State) -> list[Tile]:
    if [t["name"] for t in raw] != list(state.rules.tricks):
        raise StateFormatError("the tiles do not match the rules' trick set")
    return [Tile.from_dict(t) for t in raw]


def deck_rest(raw: Any, state: State) -> list[str]:
    return list(raw)


def trick(raw: Any, state: State) -> Trick | None:
    return Trick.from_dict(raw, state.rules) if raw else None


def roll(raw: Any, state: State) -> Roll | None:
    return None if raw is None else Roll.from_dict(raw)


def chance_for(raw: Any, state: State) -> tuple[Any, ...]:
    return tuple(raw)


def tied(raw: Any, state: State) -> list[int]:
    return [int(s) for s in raw]


def agenda(raw: Any, state: State) -> list[Task]:
    return [Task.from_list(t) for t in raw]


def busts(raw: Any, state: State) -> list[int]:
    return [whole(b, "busts") for b in raw]


def history(raw: Any, state: State) -> list[str]:
    return [str(m) for m in raw]


def check(state: State) -> None:
    """Refuse a loaded position that is inconsistent: unknown or doubled cards, seats, uncounted dice or treats."""
    _check_deck(state)
    n = state.rules.players
    if not 0 <= state.seat < n:
        raise StateFormatError(f"seat {state.seat} does not exist with {n} players")
    if len(state.busts) != n:
        raise StateFormatError("busts must have one count per seat")
    if state.winner is not None and state.winner not in range(n):
        raise StateFormatError(f"winner {state.winner!r} is not a seat")
    rules_ = state.rules
    if state.dice_total() != rules_.dice:
        raise StateFormatError(f"the dice do not add up: {state.dice_total()} counted, {rules_.dice} in the game")
    if state.treats_total() != rules_.treats:
        raise StateFormatError(
            f"the treats do not add up: {state.treats_total()} counted, {rules_.treats} in the game"
        )


def _check_deck(state: State) -> None:
    top = [] if state.deck_top is None else [state.deck_top]
    for name in [*state.deck_rest, *top]:
        if not isinstance(name, str) or name not in state.rules.cards:
            raise StateFormatError(f"the deck holds an unknown dog {name!r}")
    every = [d.name for p in state.players for d in p.dogs] + state.deck_rest + top
    if len(set(every)) != len(every):
        raise StateFormatError("a dog card appears twice (in packs or the deck)")
