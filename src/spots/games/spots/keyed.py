"""Keyed ("duplicate") dice: every die comes from a stream keyed by (deal, turn, roll within the turn, die).

Why: with seeded dice one different choice shifts every later roll, so two players (or a player and a bot)
meet unrelated luck. Keyed dice give the same die to the same (turn, roll, die) of a deal whatever happened
before, as duplicate bridge deals the same cards at every table: identical choices meet identical dice and
different choices meet comparable luck. The turn is the player's own (their 1st, 2nd, ... turn), so at a
multiplayer table every seat rolls from the same streams.

The dice are drawn only when the rules say ``keyed_dice="on"`` *and* the generator passed to
``State.sample_chance`` is a ``KeyedDice``: a bot's search samples with its own ``random.Random`` and so
never sees the deal's future. Standard library only; a face is a SHA-256 of the key, the same on every machine.
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import State

TURN_STARTS = ("trick ", "score")  # a turn's first decision is a trick or scoring (steps.TurnChoice)


class KeyedDice(random.Random):
    """The dice of one deal. Also an ordinary generator (seeded from the deal) for whatever else draws from it."""

    def __init__(self, deal: str | int) -> None:
        self.deal = str(deal)
        super().__init__("keyed:" + self.deal)

    def number(self, *key: Any) -> int:
        """A 64-bit number of the deal and ``key``: the same for the same key, unrelated for another."""
        text = "\x1f".join(["spots-keyed-dice", self.deal, *map(str, key)])
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")

    def face(self, *key: Any) -> int:
        """A die's face, 1 to 6 (2**64 mod 6 is 4: a bias under 10**-18)."""
        return self.number(*key) % 6 + 1

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (to a bot worker) with its deal, not only its state
        return (_rebuild, (self.deal, self.getstate()))


def _rebuild(deal: str, state: Any) -> KeyedDice:
    dice = KeyedDice(deal)
    dice.setstate(state)
    return dice


def dice_for(rules: Any, seed: Any) -> random.Random:
    """The generator a table of ``rules`` draws from: a deal's keyed dice under keyed rules, else seeded dice."""
    if getattr(rules, "keyed_dice", "off") == "on":
        return KeyedDice(seed)
    return random.Random(seed)


def own_turn(state: State) -> int:
    """Which of its own turns the seat to move is in (1 for its first); the turns go round from the first player."""
    players = state.rules.players
    first = state.first_player or 0
    return (state.turn - 1 - (state.seat - first) % players) // players + 1


def rolls_this_turn(state: State) -> int:
    """How many rolls the seat has made in this turn so far (rerolls count: each roll is a roll)."""
    count = 0
    for move in reversed(state._history):
        if move.startswith("roll "):
            count += 1
        elif move.startswith(TURN_STARTS):
            break
    return count


def keyed_roll(state: State, dice: KeyedDice) -> list[int]:
    """The sorted faces of the pending roll from the deal's streams."""
    size = state.pending_dice
    if state.chance_for[0] == "first-die":  # who goes first: each seat's own stream, tie rolls counted
        seat = state.chance_for[1]
        again = sum(1 for move in state._history if move.startswith("roll "))
        return [dice.face("first", seat, again)]
    turn, roll = own_turn(state), rolls_this_turn(state)
    return sorted(dice.face("roll", turn, roll, die) for die in range(size))


def keyed_reveal(state: State, dice: KeyedDice) -> str:
    """The card revealed: keyed by how many cards the deck has given, drawn from those left."""
    given = len(state.rules.cards) - len(state.deck_rest)
    return state.deck_rest[dice.number("reveal", given) % len(state.deck_rest)]


def table_dice(rules: Any, dice: random.Random) -> random.Random:
    """A table's generator: under keyed rules a deal of its own (its key drawn from ``dice``), kept if already one."""
    if getattr(rules, "keyed_dice", "off") == "on" and not isinstance(dice, KeyedDice):
        return KeyedDice(f"{dice.getrandbits(64):016x}")
    return dice


def duplicate_deal(rules: Any, key: str) -> tuple[Any, KeyedDice]:
    """The rules made keyed and the deal ``key`` names (Spots' ``Dealing.deal``: ``spots arena --duplicate``)."""
    return type(rules)(**{**rules.to_dict(), "keyed_dice": "on"}), KeyedDice(key)
