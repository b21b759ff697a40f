"""A learned win-chance model for Spots with 2 to 4 players (issue 28), played in numpy.

Why learned: the linear value (``value.py``) scores each table alone and looks at the best opponent
only; the model reads every seat's table beside every opponent's, whose turn it is, the player count
and the trick set, and was fitted to who went on to win from millions of positions of the compiled
simulator (``benchmarks/train_value.py``; the procedure, data and training curve: docs/learned-value.md).

**The model.** Each seat gets one row of features (``seat_rows``): its own table, each opponent's
table in turn order after it (zeros for seats a smaller game lacks), which of those seats exist, how
many turns away its own turn is, and the game's features. A small network (two hidden layers) scores
every row, and a softmax over the seats makes the scores win chances that sum to 1. The same network
serves 2, 3 and 4 players; solo games are not covered (``LearnedValueError``).

**Features come from plain tables** (``table_features`` takes dogs, yard and treats), so the training
side can read them from the simulator's arrays and the bots from ``State`` with the same code. The
engine itself stays standard library only: numpy is needed here, imported when a model is loaded.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from .pieces import Dog, Player, Tile
from .rules import Rules
from .state import State
from .tricks import TILES

FEATURES_VERSION = 3
MODEL_FILE = "learned_value.npz"
NEED_NUMPY = "the learned value needs numpy: pip install 'spots[rl]' (or 'spots[fast]')"
TILE_INDEX = {name: i for i, name in enumerate(sorted(TILES))}
FACES = range(1, 7)
TABLE = 26  # features of one seat's table
RACE = 2  # a table's race to the target, read apart (version 3): its score would win, the dogs it still lacks
OPPONENTS = 3  # the most a seat has (4 players)
GAME = 3 + 4 + 2 * len(TILE_INDEX) + 1 + len(FACES)  # player count, turn, supplies, deck; tiles in play, face up; top
ROW = TABLE * (1 + OPPONENTS) + OPPONENTS + 4 + GAME + RACE * (1 + OPPONENTS)  # one seat's row
SEATS_AT = TABLE * (1 + OPPONENTS)  # where the row's seat flags begin (which opponents exist, turns away)
RACE_AT = ROW - RACE * (1 + OPPONENTS)  # where the race begins: the seat's own, then each opponent's in turn order
# Version 1 read a part of today's row: each table's first 16 numbers, the seat flags, and the game's first 29 (player
# count, turn, supplies, deck, tiles in play); version 2 all of it but the race. An older model is run on today's
# rows with zero weights for what it did not read.
COLUMNS = {
    1: [b * TABLE + i for b in range(1 + OPPONENTS) for i in range(16)] + list(range(SEATS_AT, SEATS_AT + 7 + 29)),
    2: list(range(RACE_AT)),
    3: list(range(ROW)),
}
# Entries remembered before the caches start afresh: big caches cost more than they save, as Python's garbage
# collector walks every cached tuple on its full passes (a pause of 100 ms and more at 200,000 entries).
CACHE_LIMIT = 20_000


class LearnedValueError(ValueError):
    """The model cannot value this position (solo, a bad file) or cannot run (no numpy)."""


@dataclass
class TurnStart:
    """What the model reads of a position, taken from an engine ``State`` (``of``) or from the simulator's arrays
    (``spots.fast.positions``), so a feature means the same in training and in play."""

    rules: Rules
    players: list[Player]
    mover: int
    turn: int
    dice_supply: int
    treat_supply: int
    deck_left: int
    tiles: tuple[Tile, ...]  # the tiles in play, in the rules' order: face up or not, treats on them
    deck_top: str | None

    @classmethod
    def of(cls, state: State) -> TurnStart:
        return cls(state.rules, state.players, state.seat, state.turn, state.dice_supply, state.treat_supply,
                   len(state.deck_rest) + (state.deck_top is not None), tuple(state.tiles), state.deck_top)


def table_features(dogs: Iterable[Dog], yard: Sequence[int], treats: int, rules: Rules) -> list[float]:
    """One seat's table as ``TABLE + RACE`` numbers: dogs scored and to go, dogs by empty spaces, faces wanted (how
    many kinds, and how many spaces of each face), paw prints, the yard's load against the bust limit, dice at risk,
    room for more dogs, treats; then its race to the target (whether its complete dogs would win if it scored them,
    and how many dogs it lacks besides them), which ``seat_rows`` puts at the row's end."""
    scored = complete = unscored = empty_total = paws = placed = held = 0
    by_empty = [0, 0, 0, 0]
    by_face = [0] * 7
    for dog in dogs:
        held += 1
        if dog.scored:
            scored += 1
            continue
        unscored += 1
        paws += rules.cards[dog.name].paws
        placed += len(dog.filled)
        empty = [v for v in dog.spaces if v not in dog.filled]
        if not empty:
            complete += 1
            continue
        by_empty[min(len(empty), 4) - 1] += 1
        empty_total += len(empty)
        for v in empty:
            by_face[v] += 1
    to_go = rules.target - scored
    load = sum(yard) / rules.bust_limit
    return [
        scored / rules.target, float(to_go == 1), float(to_go == 2), complete / 2,
        *(n / 2 for n in by_empty), empty_total / 10, sum(1 for f in FACES if by_face[f]) / 6,
        load, load * load, float(rules.bust_limit - sum(yard) <= 3),
        min(treats, 3) / 3, treats / 10, unscored / 4,
        paws / 4, *(by_face[f] / 2 for f in FACES), len(yard) / 4, placed / 10,
        ((rules.dog_limit or 0) - held) / 6,  # Rules fills dog_limit in
        # the race (read into the row's tail, ``RACE``): scoring now would win, and the dogs still lacking
        float(0 < to_go <= complete), min(max(to_go - complete, 0), 3) / 3,
    ]


def game_features(rules: Rules, turn: int, dice_supply: int, treat_supply: int, deck_left: int,
                  tiles: Sequence[Tile], deck_top: str | None) -> list[float]:
    """What every seat's row shares: the player count, how far the game is, the supplies, the tiles in play and
    which of them are face up (what the mover can choose), the treats on them, the faces of the deck's top card."""
    in_play = [0.0] * len(TILE_INDEX)
    face_up = [0.0] * len(TILE_INDEX)
    for tile in tiles:
        in_play[TILE_INDEX[tile.name]] = 1.0
        face_up[TILE_INDEX[tile.name]] = float(tile.face_up)
    top = rules.cards[deck_top].spaces if deck_top is not None else ()
    return [float(rules.players == 2), float(rules.players == 3), float(rules.players == 4),
            min(turn, 150) / 100, dice_supply / max(rules.dice, 1), treat_supply / max(rules.treats, 1),
            deck_left / 40, *in_play, *face_up, sum(t.treats for t in tiles) / 3, *(float(f in top) for f in FACES)]


def seat_rows(tables: Sequence[list[float]], mover: int, shared: list[float]) -> list[list[float]]:
    """Every seat's row: its table, the opponents' in turn order after it, which exist, its distance to the turn,
    the game; then the race: its own and each opponent's, in the same order (so a seat sees who would win first)."""
    players = len(tables)
    zeros = [0.0] * TABLE
    rows = []
    for seat in range(players):
        order = [tables[(seat + j) % players] if j < players else None for j in range(1 + OPPONENTS)]
        row = [x for table in order for x in (table[:TABLE] if table is not None else zeros)]
        row += [float(j < players) for j in range(1, OPPONENTS + 1)]
        away = (seat - mover) % players  # 0: this seat is to move
        row += [float(away == k) for k in range(4)]
        row += shared
        row += [x for table in order for x in (table[TABLE:] if table is not None else [0.0] * RACE)]
        rows.append(row)
    return rows


def shared_features(p: TurnStart) -> list[float]:
    return game_features(p.rules, p.turn, p.dice_supply, p.treat_supply, p.deck_left, p.tiles, p.deck_top)


def position_rows(p: TurnStart) -> list[list[float]]:
    """``seat_rows`` of a position (the model was fitted at turn starts; a search asks at its turn ends, the same)."""
    tables = [table_features(player.dogs, player.yard, player.treats, p.rules) for player in p.players]
    return seat_rows(tables, p.mover, shared_features(p))


def state_rows(state: State) -> list[list[float]]:
    """``seat_rows`` of an engine position."""
    return position_rows(TurnStart.of(state))


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise LearnedValueError(NEED_NUMPY) from None
    return numpy


class LearnedValue:
    """The network, in numpy: ``chances(state)`` gives every seat's win chance; ``batch`` many positions at once."""

    KEYS = ("mean", "scale", "w1", "b1", "w2", "b2", "w3", "b3")

    def __init__(self, arrays: dict[str, Any], about: str = "") -> None:
        np = _numpy()
        missing = [k for k in self.KEYS if k not in arrays]
        if missing:
            raise LearnedValueError(f"a learned value file needs the arrays {', '.join(self.KEYS)}; "
                                    f"missing: {', '.join(missing)}")
        version = int(arrays.get("features_version", 1))
        columns = COLUMNS.get(version)
        if columns is None:
            raise LearnedValueError(f"this model was fitted to features version {version}; this code reads versions "
                                    f"{', '.join(map(str, COLUMNS))}: train it again")
        if arrays["w1"].shape[0] != len(columns):
            raise LearnedValueError(f"a features version {version} model reads rows of {len(columns)} features, "
                                    f"not {arrays['w1'].shape[0]}")
        self.np = np
        self.about = about
        self.version = version
        as64 = {k: np.asarray(arrays[k], dtype=np.float64) for k in self.KEYS}
        # Standardising folds into the first layer: (x - mean) / scale @ w1 = x @ w1' + b1'; the columns an older
        # version did not read get zero weights.
        self.w1 = np.zeros((ROW, as64["w1"].shape[1]))
        self.w1[columns] = as64["w1"] / as64["scale"][:, None]
        self.b1 = as64["b1"] - (as64["mean"] / as64["scale"]) @ as64["w1"]
        self.w2, self.b2, self.w3, self.b3 = as64["w2"], as64["b2"], as64["w3"], float(as64["b3"].reshape(-1)[0])
        # A search meets the same tables and the same turn-end positions over and over (every bust of a turn ends
        # in one position); both caches hold exact results, so they change no value, only the time.
        self._tables: dict[tuple[Any, ...], list[float]] = {}
        self._positions: dict[tuple[Any, ...], list[float]] = {}
        self._rules: Rules | None = None  # the rules the caches hold answers for (paws, limits, tiles come from them)

    @classmethod
    def load(cls, path: str | Path | None = None) -> LearnedValue:
        """The shipped model (package data), or the ``.npz`` at ``path``."""
        np = _numpy()
        if path is None:
            source = resources.files("spots.games.spots") / "data" / MODEL_FILE
            with resources.as_file(source) as file, np.load(file, allow_pickle=False) as data:
                return cls(dict(data), about="shipped")
        try:
            with np.load(path, allow_pickle=False) as data:
                return cls(dict(data), about=str(path))
        except (OSError, ValueError) as exc:
            raise LearnedValueError(f"cannot read a learned value from {path}: {exc}") from None

    def scores(self, rows: Any) -> Any:
        """The network's score of each row (any leading shape, last axis ``ROW``)."""
        np = self.np
        hidden = np.maximum(rows @ self.w1 + self.b1, 0.0)
        hidden = np.maximum(hidden @ self.w2 + self.b2, 0.0)
        return hidden @ self.w3 + self.b3

    def batch(self, rows: Any) -> Any:
        """Win chances of ``(positions, seats, ROW)`` rows: a softmax over each position's seats."""
        np = self.np
        scores = self.scores(np.asarray(rows, dtype=np.float64))
        scores = scores - scores.max(axis=-1, keepdims=True)
        odds = np.exp(scores)
        return odds / odds.sum(axis=-1, keepdims=True)

    def chances(self, state: State) -> list[float]:
        """Every seat's chance to win an unfinished game of 2-4 players (the result itself once it is over)."""
        if state.is_terminal():
            return [float(r) for r in state.returns()]
        rules = state.rules
        if not 2 <= rules.players <= 4:
            raise LearnedValueError(f"the learned value covers 2 to 4 players, not {rules.players}")
        other_rules = rules is not self._rules and rules != self._rules  # other paws, limits, tiles: other answers
        if other_rules or len(self._tables) > CACHE_LIMIT or len(self._positions) > CACHE_LIMIT:
            self._tables.clear()
            self._positions.clear()
        self._rules = rules
        keys = []
        tables = []
        for player in state.players:
            key = (tuple(player.dogs), tuple(player.yard), player.treats)
            table = self._tables.get(key)
            if table is None:
                table = self._tables[key] = table_features(player.dogs, player.yard, player.treats, rules)
            keys.append(key)
            tables.append(table)
        where = (*keys, state.seat, state.turn, state.dice_supply, state.treat_supply, len(state.deck_rest),
                 state.deck_top is None)  # the last card drawn leaves the rest as empty as before: 1 left, then 0
        if self.version >= 2:  # it reads the tiles face up and the top card too (a version-1 model: the same answer)
            where += (state.deck_top, *state.tiles)
        found = self._positions.get(where)
        if found is None:
            shared = shared_features(TurnStart.of(state))
            found = self._positions[where] = self.from_rows(seat_rows(tables, state.seat, shared))
        return list(found)

    def from_rows(self, rows: list[list[float]]) -> list[float]:
        """``chances`` of one position's rows; a pure-Python softmax over the numpy scores (faster for a few seats)."""
        scores = self.scores(self.np.asarray(rows, dtype=self.np.float64)).tolist()
        top = max(scores)
        odds = [math.exp(s - top) for s in scores]
        total = sum(odds)
        return [o / total for o in odds]


@lru_cache(maxsize=4)
def shipped(path: str | None = None) -> LearnedValue:
    """The model, loaded once per process (``path``: another ``.npz``)."""
    return LearnedValue.load(path)
