"""The observation encoding: everything public, as one fixed-size float32 vector.

Spots is a game of perfect information (section 8 of the rules): only the order of
the deck below its top card is hidden, and the engine does not even keep one. So an
observation is the whole position seen *from a seat*: seats are listed relative to
the observer (slot 0 is the observer, slot 1 the next seat clockwise, ...), which
lets one network play every seat. The layout is the table ``FIELDS``; ``docs/rl.md``
documents it field by field, and ``as_dict`` gives the structured form (named,
shaped views of the same vector).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..games.spots import TILES, Rules, State
from ..games.spots.keep import KEEP_RULES
from ..games.spots.pieces import Roll
from ..games.spots.procedures import BoltRoll
from .actions import MAX_SEATS, shipped_cards

PHASES = (
    "turn", "roll", "continue", "trot", "dig", "retrieve", "bolt", "take", "guard",
    "chance-roll", "chance-reveal", "over",
)
KEEP_MODES = tuple(KEEP_RULES)  # fetch, guard, hunt, scavenge, search
CHANCE_KINDS = ("deal", "top", "first-die", "roll")
TILE_NAMES = tuple(TILES)
DOG_NAMES = tuple(name for name, _ in shipped_cards())
NUM_DOGS = len(DOG_NAMES)
NUM_TILES = len(TILE_NAMES)


class Field(NamedTuple):
    """One named block of the vector: its shape, the bound of its values, and what it means."""

    name: str
    shape: tuple[int, ...]
    bound: str  # "flag" (0/1), or the name of a rules-derived upper bound (see _bounds)
    doc: str


S, D, T, F = MAX_SEATS, NUM_DOGS, NUM_TILES, 6
FIELDS: tuple[Field, ...] = (
    Field("players", (S,), "flag", "one-hot: the number of players (index 0 = 1 player)"),
    Field("observer_seat", (S,), "flag", "one-hot: the observer's absolute seat"),
    Field("to_move", (S + 2,), "flag",
          "one-hot: who acts now: relative seat 0-3, 4 = chance, 5 = game over"),
    Field("phase", (len(PHASES),), "flag", "one-hot: what the state waits for: " + ", ".join(PHASES)),
    Field("turn", (1,), "turns", "turns started so far (the safety limit ends the game at turn_limit)"),
    Field("turn_limit", (1,), "turns", "the rules' safety turn limit"),
    Field("target", (1,), "dogs", "scored dogs needed to win"),
    Field("dog_limit", (1,), "dogs", "dogs a player may hold, scored and unscored"),
    Field("bust_limit", (1,), "yard", "a yard total above this busts"),
    Field("supply_dice", (1,), "dice", "dice in the common supply"),
    Field("supply_treats", (1,), "treats", "treats in the common supply"),
    Field("seat_present", (S,), "flag", "per relative seat: 1 if that seat is in the game"),
    Field("seat_treats", (S,), "treats", "per relative seat: treats held"),
    Field("seat_yard", (S, F), "dice", "per relative seat and face 1-6: buried dice showing that face"),
    Field("seat_yard_total", (S,), "yard", "per relative seat: the yard total (sum of buried faces)"),
    Field("seat_scored", (S,), "dogs", "per relative seat: scored dogs"),
    Field("seat_dogs", (S,), "dogs", "per relative seat: dogs held, scored and unscored"),
    Field("seat_paws", (S,), "paws", "per relative seat: paw prints on its unscored dogs"),
    Field("seat_tied", (S,), "flag", "per relative seat: still in the setup tie-break for first player"),
    Field("dog_owner", (D, S), "flag",
          "per card (shipped deck order) and relative seat: 1 if that seat holds the dog"),
    Field("dog_scored", (D,), "flag", "per card: 1 if the dog is scored"),
    Field("dog_filled", (D, F), "flag", "per card and face 1-6: 1 if a die sits on that space of the dog"),
    Field("deck_top", (D,), "flag", "per card: 1 if it is the deck's face-up top card"),
    Field("deck_rest", (D,), "flag", "per card: 1 if it is in the unordered rest of the deck"),
    Field("deck_rest_count", (1,), "cards", "cards in the rest of the deck (below the top card)"),
    Field("tile_in_play", (T,), "flag", "per tile (TILES order): 1 if the tile is in this game's set"),
    Field("tile_face_up", (T,), "flag", "per tile: 1 if in play and face up"),
    Field("tile_treats", (T,), "treats", "per tile: treats lying on it"),
    Field("trick", (T,), "flag", "one-hot: the trick being carried out (all 0 between tricks)"),
    Field("trick_step", (1,), "steps", "index of the trick's current step (0 or 1)"),
    Field("rolls_in_step", (1,), "rolls", "rolls made in the current step (Chase grows with it); capped"),
    Field("set_aside", (1,), "dice", "Bolt: set-aside dice not yet rolled"),
    Field("taken", (1,), "flag", "Dogpile: the extra die has been taken for the next roll"),
    Field("guard", (F,), "flag", "one-hot: Guard's named number (all 0 if none)"),
    Field("digs_left", (1,), "paws", "Dig: adjustments left"),
    Field("offer_bolt", (1,), "flag", "the pending continue/stop is Bolt's next die (else a tile's roll)"),
    Field("roll_active", (1,), "flag", "1 while a roll's dice are in hand"),
    Field("roll_dice", (F,), "dice", "per face 1-6: dice of the current roll still to resolve or choose"),
    Field("roll_held", (F,), "dice", "per face: dice kept aside while Track rerolls the others"),
    Field("roll_size", (1,), "dice", "how many dice the roll had"),
    Field("roll_mode", (len(KEEP_MODES),), "flag", "one-hot: the tile's keep rule: " + ", ".join(KEEP_MODES)),
    Field("roll_choosing", (len(KEEP_MODES) + 1,), "flag",
          "one-hot: the keep rule still to apply now (same order), or index 5 = nothing can be kept"),
    Field("roll_fresh", (1,), "flag", "no die of the roll resolved yet (a treat may reroll it)"),
    Field("roll_partial", (1,), "flag", "Track: a reroll may reroll only some dice"),
    Field("roll_play_dead", (1,), "flag", "Play Dead: burying this die pays its spots in treats"),
    Field("chance_dice", (1,), "dice", "at a roll chance node: how many dice are being rolled"),
    Field("chance_kind", (len(CHANCE_KINDS),), "flag", "one-hot: the pending chance event: " + ", ".join(CHANCE_KINDS)),
    Field("chance_seat", (S,), "flag", "one-hot relative seat a deal or first-die chance event is for"),
    Field("chance_faces", (F,), "dice",
          "OpenSpiel only (one chance node per die): faces already rolled of the pending roll"),
)

OFFSETS: dict[str, tuple[int, int]] = {}
_at = 0
for _f in FIELDS:
    _n = int(np.prod(_f.shape))
    OFFSETS[_f.name] = (_at, _at + _n)
    _at += _n
SIZE = _at
"""Length of the observation vector."""
del _at, _f, _n

_PHASE = {p: i for i, p in enumerate(PHASES)}
_TILE = {t: i for i, t in enumerate(TILE_NAMES)}
_DOG = {d: i for i, d in enumerate(DOG_NAMES)}
_KEEP = {k: i for i, k in enumerate(KEEP_MODES)}
_KIND = {k: i for i, k in enumerate(CHANCE_KINDS)}
ROLLS_CAP = 64
_START = {name: a for name, (a, _) in OFFSETS.items()}


def _bounds(rules: Rules) -> dict[str, float]:
    """Upper bounds of the numeric fields, from the rules, so a Box space can be finite."""
    dice = float(rules.dice)
    return {
        "flag": 1.0,
        "turns": float(rules.turn_limit),
        "dogs": float(max(rules.dog_limit or 0, rules.target, NUM_DOGS)),  # Rules fills dog_limit in
        "yard": float(max(6 * rules.dice, rules.bust_limit)),
        "dice": dice,
        "treats": float(rules.treats),
        "paws": float(2 * NUM_DOGS),
        "cards": float(NUM_DOGS),
        "steps": 1.0,
        "rolls": float(ROLLS_CAP),
    }


def high(rules: Rules) -> np.ndarray:
    """The per-element upper bound of the vector under these rules (the lower bound is 0)."""
    bounds = _bounds(rules)
    out = np.zeros(SIZE, dtype=np.float32)
    for f in FIELDS:
        a, b = OFFSETS[f.name]
        out[a:b] = bounds[f.bound]
    return out


def as_dict(vector: np.ndarray) -> dict[str, np.ndarray]:
    """The structured form: each field as a named, shaped view of the vector (no copy)."""
    return {f.name: vector[slice(*OFFSETS[f.name])].reshape(f.shape) for f in FIELDS}


def encode(state: State, seat: int, chance_faces: list[int] | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """The observation of ``state`` for ``seat`` as a float32 vector of length SIZE.

    Flat writes with precomputed offsets (``_START``): building named views costs more than the rest.
    Seats are written relative to ``seat`` (the observer is always 0).
    """
    vec = np.zeros(SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        vec.fill(0.0)
    _encode_game(vec, state, seat)
    _encode_seats(vec, state, seat)
    _encode_table(vec, state, seat)
    if state.roll is not None:
        _encode_roll(vec, state.roll)
    if state.is_chance_node():
        _encode_chance(vec, state, seat)
    for face in chance_faces or ():
        vec[_START["chance_faces"] + face - 1] += 1
    return vec


def _encode_game(vec: np.ndarray, state: State, seat: int) -> None:
    """Who is playing and to move, the phase, the turn, the rules' numbers and the supplies."""
    o, rules = _START, state.rules
    n = rules.players
    vec[o["players"] + n - 1] = 1
    vec[o["observer_seat"] + seat] = 1
    player = state.current_player()
    vec[o["to_move"] + ((player - seat) % n if player >= 0 else (S if state.is_chance_node() else S + 1))] = 1
    assert state.phase is not None, "an observed position always has a phase"
    vec[o["phase"] + _PHASE[state.phase]] = 1
    vec[o["turn"]] = state.turn
    vec[o["turn_limit"]] = rules.turn_limit
    vec[o["target"]] = rules.target
    vec[o["dog_limit"]] = rules.dog_limit
    vec[o["bust_limit"]] = rules.bust_limit
    vec[o["supply_dice"]] = state.dice_supply
    vec[o["supply_treats"]] = state.treat_supply


def _encode_seats(vec: np.ndarray, state: State, seat: int) -> None:
    """Each seat's treats, yard and dogs (which dog is whose, scored, the faces filled), and seats tied to start."""
    o, cards, n = _START, state.rules.cards, state.rules.players
    for s, p in enumerate(state.players):
        r = (s - seat) % n
        vec[o["seat_present"] + r] = 1
        vec[o["seat_treats"] + r] = p.treats
        for face in p.yard:
            vec[o["seat_yard"] + r * F + face - 1] += 1
        vec[o["seat_yard_total"] + r] = sum(p.yard)
        vec[o["seat_dogs"] + r] = len(p.dogs)
        scored = paws = 0
        for d in p.dogs:
            i = _DOG[d.name]
            vec[o["dog_owner"] + i * S + r] = 1
            if d.scored:
                vec[o["dog_scored"] + i] = 1
                scored += 1
            else:
                paws += cards[d.name].paws
            for face in d.filled:
                vec[o["dog_filled"] + i * F + face - 1] = 1
        vec[o["seat_scored"] + r] = scored
        vec[o["seat_paws"] + r] = paws
    if state.first_player is None:
        for s in state.tied:
            vec[o["seat_tied"] + (s - seat) % n] = 1


def _encode_table(vec: np.ndarray, state: State, seat: int) -> None:
    """The deck, the tiles, and the trick being played with its working values."""
    o = _START
    if state.deck_top is not None:
        vec[o["deck_top"] + _DOG[state.deck_top]] = 1
    rest = o["deck_rest"]
    for name in state.deck_rest:
        vec[rest + _DOG[name]] = 1
    vec[o["deck_rest_count"]] = len(state.deck_rest)
    for name, up, treats in zip(state.rules.tricks, state.face_up, state.tile_treats, strict=True):
        i = _TILE[name]
        vec[o["tile_in_play"] + i] = 1
        vec[o["tile_face_up"] + i] = up
        vec[o["tile_treats"] + i] = treats
    if state.trick is not None:
        vec[o["trick"] + _TILE[state.trick]] = 1
        vec[o["trick_step"]] = state.step
        vec[o["rolls_in_step"]] = min(state.rolls_in_step, ROLLS_CAP)
    vec[o["set_aside"]] = state.set_aside
    vec[o["taken"]] = state.taken
    if state.guard:
        vec[o["guard"] + state.guard - 1] = 1
    vec[o["digs_left"]] = state.digs_left
    vec[o["offer_bolt"]] = isinstance(state.offer, BoltRoll)


def _encode_roll(vec: np.ndarray, roll: Roll) -> None:
    """The dice in hand: faces rolled and held, the keep rule and what is being chosen."""
    o = _START
    vec[o["roll_active"]] = 1
    for face in roll.dice:
        vec[o["roll_dice"] + face - 1] += 1
    for face in roll.held:
        vec[o["roll_held"] + face - 1] += 1
    vec[o["roll_size"]] = roll.size
    if roll.mode in _KEEP:
        vec[o["roll_mode"] + _KEEP[roll.mode]] = 1
    if roll.choosing is not None:
        vec[o["roll_choosing"] + _KEEP.get(roll.choosing, len(KEEP_MODES))] = 1
    vec[o["roll_fresh"]] = roll.fresh
    vec[o["roll_partial"]] = roll.partial
    vec[o["roll_play_dead"]] = roll.bonus == "play-dead"


def _encode_chance(vec: np.ndarray, state: State, seat: int) -> None:
    """What chance event is pending, for whom, and how many dice it rolls."""
    o = _START
    kind = state.chance_for[0]
    vec[o["chance_kind"] + _KIND[kind]] = 1
    if kind in ("deal", "first-die"):
        vec[o["chance_seat"] + (state.chance_for[1] - seat) % state.rules.players] = 1
    if state.phase == "chance-roll":
        vec[o["chance_dice"]] = state.pending_dice
