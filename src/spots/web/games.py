"""The games the server can host, each described by the few things a table needs from it.

Why a small description per game instead of branches in the room: the room,
the store and the WebSocket protocol are the same for every game (moves in
notation, chance events drawn by the server, one record per table). What
differs is how a position is built, told in words, drawn as JSON, which bots
exist and how a hint is computed; ``GameKind`` names exactly those.
"""

from __future__ import annotations

import gettext
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import bots as spots_bots
from ..advisor import advise
from ..double_spot import Rules as DsRules
from ..double_spot import State as DsState
from ..double_spot import bots as ds_bots
from ..double_spot.advice import advise as ds_advise
from ..double_spot.words import describe_move as ds_narrate
from ..engine import Rules as SpotsRules
from ..engine.render import describe_move as spots_narrate
from ..engine.state import Game as SpotsGame
from . import double_spot_words, words

Translations = gettext.NullTranslations
Seats = list[dict[str, Any]]


@dataclass(frozen=True)
class GameKind:
    """What a table needs to know about one game."""

    name: str  # the id in URLs, the API and the database
    title: str
    players: tuple[int, int]  # fewest and most seats
    bots: tuple[str, ...]
    record_format: str
    rules_from_dict: Callable[[dict[str, Any]], Any]
    new_state: Callable[[Any], Any]
    make_bot: Callable[[str, int], Any]
    narrate: Callable[[Any, str, Any, list[str], Translations | None], str]
    # (state, seats, moves, translator, the seat whose side is drawn, live) -> the JSON view
    view: Callable[[Any, Seats, int, Translations, int | None, bool], dict[str, Any]]
    advice: Callable[[Any, list[str], Translations], list[dict[str, Any]]]
    scores: Callable[[Any], list[int]]
    target: Callable[[Any], int]
    per_seat_view: bool = False  # does each player see their own side of the table?
    # seats that may claim the pending chance event live, first come first served (none: the server draws it)
    racers: Callable[[Any], list[int]] = lambda state: []

    def draws_chance(self, state: Any) -> bool:
        """A chance event the server draws itself (a claim race is decided by the players instead)."""
        return bool(state.is_chance_node()) and not self.racers(state)


# ---------------------------------------------------------------- Spots


def _spots_view(state: Any, seats: Seats, moves: int, tr: Translations, seat: int | None, live: bool
                ) -> dict[str, Any]:
    data = words.view(state, seats, moves, tr)
    if not live:  # a replay offers nothing to click
        data["legal"] = []
        for tile in data["tiles"]:
            tile.pop("move", None)
        for p in data["players"]:
            for d in p["dogs"]:
                for s in d["spaces"]:
                    s.pop("move", None)
    data["game"] = "spots"
    data["live"] = live  # False in a replay: no moves to offer, and who is online now does not matter
    return data


def _spots_advice(state: Any, names: list[str], tr: Translations) -> list[dict[str, Any]]:
    return [
        {"move": a.move, "label": words.label(state, a.move, names, tr)[0], "score": round(a.score, 3),
         "bust": None if a.bust is None else round(float(a.bust), 4)}
        for a in advise(state.clone())[:12]
    ]


SPOTS = GameKind(
    name="spots", title="Spots", players=(1, 4), bots=tuple(spots_bots.BOTS), record_format="spots-record",
    rules_from_dict=SpotsRules.from_dict, new_state=lambda rules: SpotsGame(rules).new_initial_state(),
    make_bot=lambda name, seed: spots_bots.make(name, seed=seed),
    narrate=spots_narrate, view=_spots_view, advice=_spots_advice,
    scores=lambda state: [p.scored_count() for p in state.players], target=lambda state: state.rules.target,
)


# ---------------------------------------------------------------- Double Spot


def _ds_advice(state: Any, names: list[str], tr: Translations) -> list[dict[str, Any]]:
    """The terminal's hint (the mcts bot's ranking), seeded by the position so a hint is repeatable."""
    seed = random.Random(repr(state.key())).randrange(2**31)
    return [
        {"move": a.move, "label": double_spot_words.drop_label(a.move, tr), "score": round(a.value, 3), "bust": None}
        for a in ds_advise(state, seed=seed)[:12]
    ]


DOUBLE_SPOT = GameKind(
    name="double-spot", title="Double Spot", players=(2, 2), bots=tuple(ds_bots.BOTS),
    record_format="double-spot-record", rules_from_dict=DsRules.from_dict, new_state=DsState,
    make_bot=lambda name, seed: ds_bots.make(name, seed=seed),
    narrate=ds_narrate, view=double_spot_words.view, advice=_ds_advice,
    scores=lambda state: state.scores(), target=lambda state: state.rules.target, per_seat_view=True,
    racers=lambda state: [0, 1] if state.phase == "claim" else [],  # the ``first`` claim rule
)

GAMES: dict[str, GameKind] = {g.name: g for g in (SPOTS, DOUBLE_SPOT)}
