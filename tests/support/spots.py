"""Spots positions for scenarios: built through the notation, then adjusted (``start``, ``adjust``, ``play``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import spots
from spots.games.spots.state import State


def start(
    deal: list[list[str]] | None = None,
    top: str = "burt",
    first: list[int] | None = None,
    **options: Any,
) -> State:
    """A game driven through the notation to the first turn.

    ``deal``: each seat's dogs (default: seat 0 wilbur+doog, seat 1 ursula+missy, ...);
    ``top``: the deck's top card; ``first``: each seat's first buried die (default
    seat 0 highest, so seat 0 starts). Other keywords are rules options.
    """
    options.setdefault("players", 2)
    rules = spots.Rules(**options)
    n = rules.players
    deal = deal or [["wilbur", "doog"], ["ursula", "missy"], ["gumbo", "frankie"], ["raya", "bitsy"]][:n]
    first = first or [n + 1 - s for s in range(n)]
    state = spots.Game(rules).new_initial_state()
    for dogs in deal:
        for dog in dogs:
            state.apply_action(f"reveal {dog}")
    state.apply_action(f"reveal {top}")
    for value in first:
        state.apply_action(f"roll {value}")
    return state


def adjust(
    state: State,
    seat: int | None = None,
    *,
    yard: list[int] | None = None,
    treats: int | None = None,
    filled: dict[str, list[int]] | None = None,
    scored: list[str] | None = None,
    dogs: list[str] | None = None,
    supply_dice: int | None = None,
) -> State:
    """A copy of a state with one seat's table changed, the supplies kept consistent.

    Dice and treats moved onto the table come from the supply (and go back to it).
    ``dogs`` replaces the seat's pack (cards are taken from the deck's remainder).
    ``supply_dice`` sets the dice supply by removing dice from the game total
    (used for running-out scenarios: the rules' dice option is changed to match).
    """
    doc = state.to_dict()
    seat = state.seat if seat is None else seat
    p = doc["players"][seat]
    if dogs is not None:
        old = [d["name"] for d in p["dogs"]]
        for d in p["dogs"]:
            doc["supply"]["dice"] += len(d["filled"])
        rest = [c for c in doc["deck"]["rest"] if c not in dogs] + [c for c in old if c not in dogs]
        # A card wanted here but held by another seat or on top of the deck is swapped for a spare one.
        for other in doc["players"]:
            for d in other["dogs"]:
                if other is not p and d["name"] in dogs:
                    doc["supply"]["dice"] += len(d["filled"])
                    d["name"], d["filled"] = rest.pop(0), []
        if doc["deck"]["top"] in dogs:
            doc["deck"]["top"] = rest.pop(0)
        doc["deck"]["rest"] = rest
        p["dogs"] = [{"name": name, "filled": [], "scored": False} for name in dogs]
    if yard is not None:
        doc["supply"]["dice"] += len(p["yard"]) - len(yard)
        p["yard"] = list(yard)
    if treats is not None:
        doc["supply"]["treats"] += p["treats"] - treats
        p["treats"] = treats
    for d in p["dogs"]:
        if filled is not None and d["name"] in filled:
            doc["supply"]["dice"] += len(d["filled"]) - len(filled[d["name"]])
            d["filled"] = sorted(filled[d["name"]])
        if scored is not None and d["name"] in scored:
            doc["supply"]["dice"] += len(d["filled"])
            d["filled"], d["scored"] = [], True
    if supply_dice is not None:
        doc["rules"]["dice"] -= doc["supply"]["dice"] - supply_dice
        doc["supply"]["dice"] = supply_dice
    return State.from_dict(doc)


def random_play(seed: int, players: int, tricks: str = "all", max_steps: int = 1500, **options: Any) -> Iterator[State]:
    """The positions of one seeded random game (the same object, advanced in place)."""
    rng = random.Random(seed)
    state = spots.Game(spots.Rules(players=players, tricks=tricks, **options)).new_initial_state()
    yield state
    for _ in range(max_steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def play(state: State, *moves: str) -> State:
    for move in moves:
        state.apply_action(move)
    return state


def seat_of(state: State, dog: str) -> dict[str, Any]:
    for p in state.to_dict()["players"]:
        for d in p["dogs"]:
            if d["name"] == dog:
                return d
    raise KeyError(dog)


# the environment of a spawned `spots` program: this checkout's code when the tests run it (PYTHONPATH)
# A child process (pexpect, subprocess) runs the code under test, whichever copy pytest imported.
