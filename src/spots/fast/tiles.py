"""The 22 trick tiles as the simulator's numbers, and the ``cfg`` array for a set of rules.

This table is written out again here on purpose, not read from ``spots.games.spots.tricks``:
the differential test then checks two independent readings of the rules against each
other, and a slip in either one makes it fail.
"""

from __future__ import annotations

import numpy as np

from ..games.spots import Rules
from . import layout as L

# Every tile by id; the ids are the simulator's, the names are the notation's.
TILE_NAMES = (
    "howl", "roll-over", "walk", "trot", "dig", "retrieve", "track",
    "run", "chase", "bolt", "dogpile", "sprint",
    "beg", "chew", "gobble", "play-dead", "stay",
    "fetch", "guard", "hunt", "scavenge", "search",
)
TILE_IDS = {name: i for i, name in enumerate(TILE_NAMES)}
STAY = TILE_IDS["stay"]
TREAT_TILES = frozenset(TILE_IDS[n] for n in ("beg", "chew", "gobble", "stay", "play-dead"))


def _roll(dice: int, source: int = L.SRC_SUPPLY, optional: bool = False, repeat: bool = False,
          grow: bool = False, keep: int = L.K_NONE, partial: bool = False, bonus: bool = False) -> tuple[int, ...]:
    return (L.SK_ROLL, dice, source, int(optional), int(repeat), int(grow), keep, int(partial), int(bonus), 0)


def _do(kind: int, treats: int = 0) -> tuple[int, ...]:
    return (kind, 0, 0, 0, 0, 0, 0, 0, 0, treats)


# Each tile's printed steps, in order (rules section 6).
STEPS: dict[str, tuple[tuple[int, ...], ...]] = {
    "howl": (_do(L.SK_DRAW), _roll(1)),
    "roll-over": (_roll(L.D_YARD, source=L.SRC_YARD), _roll(1, optional=True)),
    "walk": (_roll(2), _roll(1, optional=True)),
    "trot": (_do(L.SK_TROT), _roll(2)),
    "dig": (_do(L.SK_DIG), _roll(2)),
    "retrieve": (_do(L.SK_RETRIEVE), _roll(2)),
    "track": (_roll(3, partial=True),),
    "run": (_roll(3), _roll(1, optional=True, repeat=True)),
    "chase": (_roll(1, repeat=True, grow=True),),
    "bolt": (_do(L.SK_BOLT),),
    "dogpile": (_roll(2, source=L.SRC_DOGPILE, repeat=True),),
    "sprint": (_roll(L.D_SPRINT, repeat=True),),
    "beg": (_do(L.SK_TREATS, L.TF_BEG),),
    "chew": (_do(L.SK_TREATS, L.TF_CHEW),),
    "gobble": (_do(L.SK_TREATS, L.TF_GOBBLE),),
    "play-dead": (_roll(1, bonus=True),),
    "stay": (_do(L.SK_TREATS, L.TF_STAY),),
    "fetch": (_roll(8, keep=L.K_FETCH),),
    "guard": (_do(L.SK_GUARD), _roll(4, keep=L.K_GUARD)),
    "hunt": (_roll(L.D_HUNT, keep=L.K_HUNT),),
    "scavenge": (_roll(4, keep=L.K_SCAVENGE),),
    "search": (_roll(7, keep=L.K_SEARCH),),
}


def build_cfg(rules: Rules) -> np.ndarray:
    """The rules, the deck and the tile table as one array the compiled code reads."""
    cards = list(rules.cards.values())
    if len(cards) > L.MAX_CARDS:
        raise ValueError(f"the fast simulator takes decks of up to {L.MAX_CARDS} cards, not {len(cards)}")
    pack = sorted((len(card.spaces) for card in cards), reverse=True)[:rules.dog_limit]
    spaces = sum(pack)
    if (spaces // 2) * (spaces - spaces // 2) + 1 > L.MAX_MOVES:  # Trot: every filled space to every empty one
        raise ValueError(f"the fast simulator offers up to {L.MAX_MOVES} moves at once; a pack of "
                         f"{len(pack)} dogs with {spaces} spaces could need more (lower dog_limit)")
    cfg = np.zeros(L.CFG_SIZE, dtype=np.int64)
    cfg[L.C_PLAYERS] = rules.players
    cfg[L.C_NTRICKS] = len(rules.tricks)
    cfg[L.C_TARGET] = rules.target
    cfg[L.C_DOG_LIMIT] = int(rules.dog_limit or 0)
    cfg[L.C_BUST] = rules.bust_limit
    cfg[L.C_DICE] = rules.dice
    cfg[L.C_TREATS] = rules.treats
    cfg[L.C_START_TREATS] = rules.starting_treats
    cfg[L.C_START_DOGS] = rules.starting_dogs
    cfg[L.C_TURN_LIMIT] = rules.turn_limit
    cfg[L.C_NCARDS] = len(cards)
    for i, name in enumerate(rules.tricks):
        cfg[L.C_TRICKS + i] = TILE_IDS[name]
    for i, card in enumerate(cards):
        cfg[L.C_CARD_MASK + i] = sum(1 << v for v in card.spaces)
        cfg[L.C_CARD_PAWS + i] = card.paws
        cfg[L.C_CARD_SPACES + i] = len(card.spaces)
    for name, steps in STEPS.items():
        for j, step in enumerate(steps):
            start = L.C_STEPS + (TILE_IDS[name] * 2 + j) * L.STEP_FIELDS
            cfg[start:start + L.STEP_FIELDS] = step
    return cfg


def card_names(rules: Rules) -> list[str]:
    """Card index -> the notation's name, in the order ``build_cfg`` numbers them."""
    return list(rules.cards)
