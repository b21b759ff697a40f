"""The fixed integer action encoding: every move text of the notation gets one stable id.

Learning code wants a fixed-size discrete action space and a mask; the engine speaks
notation. The table below enumerates every move text the engine can ever offer with
the shipped deck and 1-4 seats, in a documented order (``docs/rl.md``), so that id
``i`` means the same move in every game, every version and every adapter.

Chance events are not agent actions. OpenSpiel needs ids for them too; those live in
a separate, small table (``CHANCE_TEXTS``): one chance node per die (``die v``) and
one per revealed card (``reveal <dog>``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations_with_replacement

from ..games.spots import TILES, Rules, State, load_deck
from ..games.spots.errors import RulesError

ENCODING_VERSION = 1
MAX_SEATS = 4
FACES = (1, 2, 3, 4, 5, 6)


def _dice(multiset: Iterable[int]) -> str:
    return " ".join(map(str, multiset))


def _multisets(low: int, high: int) -> list[tuple[int, ...]]:
    """Every ascending multiset of faces with ``low`` to ``high`` dice, shortest first."""
    return [m for k in range(low, high + 1) for m in combinations_with_replacement(FACES, k)]


@lru_cache(maxsize=1)
def shipped_cards() -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The shipped deck's (name, spaces), in deck order: the dog half of the encoding."""
    return tuple((card.name, card.spaces) for card in load_deck())


def _placements() -> list[tuple[int, str]]:
    """Every (face, dog) with that face among the dog's spaces, in deck order then face order."""
    return [(v, name) for name, spaces in shipped_cards() for v in spaces]


def _build_moves() -> tuple[str, ...]:
    places = _placements()
    moves: list[str] = ["score", "continue", "stop", "reroll"]
    moves += [f"trick {name}" for name in TILES]
    moves += ["reroll " + _dice(m) for m in _multisets(1, 3)]  # Track: a part of a 3-dice roll
    moves += [f"place {v} {dog}" for v, dog in places]
    moves += [f"bury {v}" for v in FACES]
    moves += [f"choose {v}" for v in FACES]
    # Hunt keeps 2 dice (or the 1 there is); Search keeps a set adding up to 8 out of at most 7 dice.
    picks = _multisets(1, 2) + [m for m in _multisets(3, 7) if sum(m) == 8]
    moves += ["pick " + _dice(m) for m in picks]
    moves += ["discard"] + ["discard " + _dice(m) for m in _multisets(1, 4)]  # Scavenge rolls 4
    moves += [f"set-aside {n}" for n in range(3, 13)]
    for seat in range(MAX_SEATS):
        for v in FACES:
            if v < 6:
                moves.append(f"dig {seat} {v} up")
            moves.append(f"dig {seat} {v} down")
    moves += [f"move {a} {v} {b} {w}" for v, a in places for w, b in places if (a, v) != (b, w)]
    moves += [f"take yard {v}" for v in FACES]
    moves += [f"take {dog} {v}" for v, dog in places]
    return tuple(moves)


MOVES: tuple[str, ...] = _build_moves()
"""Every agent move text; its index is its action id."""
NUM_ACTIONS = len(MOVES)
MOVE_IDS: dict[str, int] = {text: i for i, text in enumerate(MOVES)}

CHANCE_TEXTS: tuple[str, ...] = tuple(f"die {v}" for v in FACES) + tuple(
    f"reveal {name}" for name, _ in shipped_cards()
)
"""OpenSpiel's chance outcomes: one die of a roll (ids 0-5), or a revealed card (ids 6-37)."""
NUM_CHANCE_OUTCOMES = len(CHANCE_TEXTS)
CHANCE_IDS: dict[str, int] = {text: i for i, text in enumerate(CHANCE_TEXTS)}


class EncodingError(ValueError):
    """A move or a game the fixed encoding does not cover."""


def check_rules(rules: Rules) -> Rules:
    """Refuse rules the encoding is not defined for (a custom deck renames the dogs)."""
    cards = {name: card.spaces for name, card in rules.cards.items()}
    if cards != dict(shipped_cards()):
        raise RulesError(
            "the RL adapters' action encoding is defined for the shipped 32-card deck only; "
            "this game uses a custom deck (remove the 'deck' option)"
        )
    if rules.players > MAX_SEATS:  # pragma: no cover - Rules already refuses it
        raise RulesError(f"the action encoding covers 1 to {MAX_SEATS} players")
    return rules


def encode(move: str) -> int:
    """The action id of a move text (canonical or not)."""
    try:
        return MOVE_IDS[move]
    except KeyError:
        pass
    from ..games.spots import canonical

    text = canonical(move)
    if text not in MOVE_IDS:
        raise EncodingError(f"the move {text!r} has no action id (chance outcomes are not actions)")
    return MOVE_IDS[text]


def decode(action: int) -> str:
    """The move text of an action id."""
    index = int(action)
    if not 0 <= index < NUM_ACTIONS:
        raise EncodingError(f"action id {action} is out of range 0..{NUM_ACTIONS - 1}")
    return MOVES[index]


def legal_ids(state: State) -> list[int]:
    """The legal moves of a decision node as ascending action ids."""
    try:
        return sorted(MOVE_IDS[m] for m in state.legal_actions())
    except KeyError as exc:  # a legal move with no id is a bug in this table
        raise EncodingError(f"legal move {exc.args[0]!r} has no action id; please report it") from None


def action_mask(state: State):  # -> np.ndarray (numpy is imported lazily: this module stays light)
    """A 0/1 int8 vector of length NUM_ACTIONS: 1 for each legal move (all 0 at chance or the end)."""
    import numpy as np

    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if not state.is_chance_node() and not state.is_terminal():
        mask[legal_ids(state)] = 1
    return mask
