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
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from .pieces import Dog, Player
from .rules import Rules
from .state import State
from .tricks import TILES

FEATURES_VERSION = 1
MODEL_FILE = "learned_value.npz"
NEED_NUMPY = "the learned value needs numpy: pip install 'spots[rl]' (or 'spots[fast]')"
TILE_INDEX = {name: i for i, name in enumerate(sorted(TILES))}
TABLE = 16  # features of one seat's table
OPPONENTS = 3  # the most a seat has (4 players)
GAME = 3 + 4 + len(TILE_INDEX)  # player count, turn, supplies, deck; the trick set
ROW = TABLE * (1 + OPPONENTS) + OPPONENTS + 4 + GAME  # one seat's row
# Entries remembered before the caches start afresh: big caches cost more than they save, as Python's garbage
# collector walks every cached tuple on its full passes (a pause of 100 ms and more at 200,000 entries).
CACHE_LIMIT = 20_000


class LearnedValueError(ValueError):
    """The model cannot value this position (solo, a bad file) or cannot run (no numpy)."""


def table_features(dogs: Iterable[Dog], yard: Sequence[int], treats: int, rules: Rules) -> list[float]:
    """One seat's table as ``TABLE`` numbers: dogs scored and to go, dogs by empty spaces, faces wanted, the yard's
    load against the bust limit, treats."""
    scored = complete = unscored = empty_total = 0
    by_empty = [0, 0, 0, 0]
    wanted: set[int] = set()
    for dog in dogs:
        if dog.scored:
            scored += 1
            continue
        unscored += 1
        empty = [v for v in dog.spaces if v not in dog.filled]
        if not empty:
            complete += 1
            continue
        by_empty[min(len(empty), 4) - 1] += 1
        empty_total += len(empty)
        wanted.update(empty)
    to_go = rules.target - scored
    load = sum(yard) / rules.bust_limit
    return [
        scored / rules.target, float(to_go == 1), float(to_go == 2), complete / 2,
        *(n / 2 for n in by_empty), empty_total / 10, len(wanted) / 6,
        load, load * load, float(rules.bust_limit - sum(yard) <= 3),
        min(treats, 3) / 3, treats / 10, unscored / 4,
    ]


def game_features(rules: Rules, turn: int, dice_supply: int, treat_supply: int, deck_left: int) -> list[float]:
    """What every seat's row shares: the player count, how far the game is, the supplies, the trick set."""
    tiles = [0.0] * len(TILE_INDEX)
    for name in rules.tricks:
        tiles[TILE_INDEX[name]] = 1.0
    return [float(rules.players == 2), float(rules.players == 3), float(rules.players == 4),
            min(turn, 150) / 100, dice_supply / max(rules.dice, 1), treat_supply / max(rules.treats, 1),
            deck_left / 40, *tiles]


def seat_rows(tables: Sequence[list[float]], mover: int, shared: list[float]) -> list[list[float]]:
    """Every seat's row: its table, the opponents' in turn order after it, which exist, its distance to the turn."""
    players = len(tables)
    zeros = [0.0] * TABLE
    rows = []
    for seat in range(players):
        row = list(tables[seat])
        for j in range(1, OPPONENTS + 1):
            row += tables[(seat + j) % players] if j < players else zeros
        row += [float(j < players) for j in range(1, OPPONENTS + 1)]
        away = (seat - mover) % players  # 0: this seat is to move
        row += [float(away == k) for k in range(4)]
        rows.append(row + shared)
    return rows


def state_rows(state: State) -> list[list[float]]:
    """``seat_rows`` of an engine position (seen at any point of a turn; the model was fitted at turn starts)."""
    rules = state.rules
    tables = [table_features(p.dogs, p.yard, p.treats, rules) for p in state.players]
    deck_left = len(state.deck_rest) + (state.deck_top is not None)
    shared = game_features(rules, state.turn, state.dice_supply, state.treat_supply, deck_left)
    return seat_rows(tables, state.seat, shared)


def player_rows(players: Sequence[Player], rules: Rules, mover: int, turn: int, dice_supply: int,
                treat_supply: int, deck_left: int) -> list[list[float]]:
    """``seat_rows`` from tables given apart from a ``State`` (the simulator's positions, for training)."""
    tables = [table_features(p.dogs, p.yard, p.treats, rules) for p in players]
    return seat_rows(tables, mover, game_features(rules, turn, dice_supply, treat_supply, deck_left))


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
        if int(arrays.get("features_version", FEATURES_VERSION)) != FEATURES_VERSION:
            raise LearnedValueError(f"this model was fitted to features version {int(arrays['features_version'])}; "
                                    f"this code computes version {FEATURES_VERSION}: train it again")
        if arrays["w1"].shape[0] != ROW:
            raise LearnedValueError(f"the model reads rows of {arrays['w1'].shape[0]} features; this code writes {ROW}")
        self.np = np
        self.about = about
        as64 = {k: np.asarray(arrays[k], dtype=np.float64) for k in self.KEYS}
        # Standardising folds into the first layer: (x - mean) / scale @ w1 = x @ w1' + b1'.
        self.w1 = as64["w1"] / as64["scale"][:, None]
        self.b1 = as64["b1"] - (as64["mean"] / as64["scale"]) @ as64["w1"]
        self.w2, self.b2, self.w3, self.b3 = as64["w2"], as64["b2"], as64["w3"], float(as64["b3"].reshape(-1)[0])
        # A search meets the same tables and the same turn-end positions over and over (every bust of a turn ends
        # in one position); both caches hold exact results, so they change no value, only the time.
        self._tables: dict[tuple[Any, ...], list[float]] = {}
        self._positions: dict[tuple[Any, ...], list[float]] = {}

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
        if len(self._tables) > CACHE_LIMIT or len(self._positions) > CACHE_LIMIT:
            self._tables.clear()
            self._positions.clear()
        keys = []
        tables = []
        for player in state.players:
            key = (tuple(player.dogs), tuple(player.yard), player.treats, rules.target, rules.bust_limit)
            table = self._tables.get(key)
            if table is None:
                table = self._tables[key] = table_features(player.dogs, player.yard, player.treats, rules)
            keys.append(key)
            tables.append(table)
        deck_left = len(state.deck_rest) + (state.deck_top is not None)
        where = (*keys, state.seat, state.turn, state.dice_supply, state.treat_supply, deck_left, rules.tricks,
                 rules.dice, rules.treats)
        found = self._positions.get(where)
        if found is None:
            shared = game_features(rules, state.turn, state.dice_supply, state.treat_supply, deck_left)
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
