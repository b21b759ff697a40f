"""The fast simulator's Python face: one game step by step, or many games at once.

``FastState`` plays one game a move at a time (the differential test drives it beside the
engine); ``play_games`` plays a batch on every core and returns per-game arrays.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.play import seating  # the arena's seating, declared once
from ..games.spots import Rules
from . import layout as L
from .agenda import init
from .batch import ST_CHANCE, ST_TURNS, play_batch, play_from, stats_width
from .moves import apply, apply_reveal, apply_roll, legal
from .policy import greedy
from .tiles import build_cfg, card_names
from .view import move_text, odds_tables, state_array, state_dict

DEFAULT_RISK = 0.25  # GreedyBot's default
# numba's default threading layer (workqueue) runs one parallel kernel at a time in a process: threads that play
# positions out (the web's coach in a server thread) take turns
_PARALLEL = threading.Lock()


@lru_cache(maxsize=1)
def odds() -> tuple[np.ndarray, np.ndarray]:
    return odds_tables()


class FastState:
    """One game in the simulator's arrays, stepped from Python (slow; for checking and tools)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.cfg = build_cfg(rules)
        self.names = card_names(rules)
        self.st = np.zeros(L.STATE_SIZE, dtype=np.int64)
        self.moves = np.zeros(L.MAX_MOVES, dtype=np.int64)
        init(self.st, self.cfg)

    @property
    def phase(self) -> str:
        return L.PHASE_NAMES[int(self.st[L.S_PHASE])]

    def is_terminal(self) -> bool:
        return bool(self.st[L.S_PHASE] == L.PH_OVER)

    def is_chance_node(self) -> bool:
        return int(self.st[L.S_PHASE]) in (L.PH_CHANCE_ROLL, L.PH_CHANCE_REVEAL)

    def current_player(self) -> int:
        if self.is_terminal():
            return -4
        return -1 if self.is_chance_node() else int(self.st[L.S_SEAT])

    @classmethod
    def of(cls, state: Any) -> FastState:
        """The simulator's copy of an engine position (``spots.State``), to play on from it."""
        fast = cls(state.rules)
        fast.st = state_array(state.to_dict(), state.rules, fast.names)
        return fast

    def legal_codes(self) -> list[int]:
        n = legal(self.st, self.cfg, self.moves)
        return [int(m) for m in self.moves[:n]]

    def legal_actions(self) -> list[str]:
        return [move_text(self.st, self.rules, self.names, m) for m in self.legal_codes()]

    def apply_code(self, move: int) -> None:
        apply(self.st, self.cfg, move)

    def apply_action(self, text: str) -> None:
        """A decision or a chance event in notation (``roll 2 5``, ``reveal wilbur``, ``place 5 ursula``)."""
        parts = text.split()
        if self.is_chance_node():
            if parts[0] == "roll":
                faces = np.zeros(7, dtype=np.int64)
                for v in parts[1:]:
                    faces[int(v)] += 1
                apply_roll(self.st, self.cfg, faces)
            else:
                apply_reveal(self.st, self.cfg, self.names.index(parts[1]))
            return
        codes = self.legal_codes()
        texts = [move_text(self.st, self.rules, self.names, m) for m in codes]
        if text not in texts:
            raise ValueError(f"{text!r} is not legal here; the legal moves are: {', '.join(texts)}")
        self.apply_code(codes[texts.index(text)])

    def greedy_action(self, risk: float = DEFAULT_RISK) -> str:
        """What the compiled greedy policy plays here, in notation."""
        n = legal(self.st, self.cfg, self.moves)
        table, offsets = odds()
        move = greedy(self.st, self.cfg, table, offsets, self.moves, n, risk)
        return move_text(self.st, self.rules, self.names, int(move))

    def to_dict(self) -> dict[str, Any]:
        return state_dict(self.st, self.rules, self.names)

    def returns(self) -> list[float]:
        """The engine's ``returns()``: 0 for everyone until the game is over."""
        if not self.is_terminal():
            return [0.0] * self.rules.players
        scored = np.array([[d["scored"] for d in p["dogs"]].count(True) for p in self.to_dict()["players"]])
        return [float(r) for r in game_returns(np.array([self.st[L.S_WINNER]]), scored[None, :])[0]]


@dataclass
class Games:
    """Per-game results of ``play_games``: arrays with one row per game (seats in columns)."""

    rules: Rules
    seats: np.ndarray  # (games, players): the policy names' indices into ``policies``
    policies: list[str]
    winner: np.ndarray  # seat, or -1 when the turn limit ended the game
    turns: np.ndarray
    busts: np.ndarray  # (games, players)
    scored: np.ndarray  # (games, players): dogs scored
    returns: np.ndarray  # (games, players): 1 for the winner; at the turn limit the leaders share 1
    turns_taken: np.ndarray  # (games, players)
    decisions: np.ndarray  # (games, players): decisions taken by each seat
    chance_events: np.ndarray
    tiles_used: np.ndarray  # (games, tricks): how often each tile of ``rules.tricks`` was chosen
    stopped: np.ndarray  # the game was cut off at ``max_decisions`` (winner -1, leaders share the returns)
    seconds: float = field(default=0.0)


def play_games(rules: Rules, policies: list[str], games: int, seed: int = 0, rotate: bool = False,
               risk: float = DEFAULT_RISK, max_decisions: int = 1_000_000) -> Games:
    """Play ``games`` games with ``policies`` (``random``/``greedy``, one per seat, the last repeated).

    ``rotate`` seats game g's policies rotated by g, as the arena does. ``risk`` is the greedy
    bot's bust chance above which it stops rolling. A game still going after ``max_decisions``
    is cut off (the greedy bot can loop for ever in Dogpile when the dice supply is empty).
    The same arguments give the same games.
    """
    if not policies or len(policies) > rules.players:
        raise ValueError(f"give 1 to {rules.players} policies (one per seat), not {policies!r}")
    unknown = [p for p in policies if p not in L.POLICIES]
    if unknown:
        raise ValueError(f"the fast simulator plays the policies {', '.join(L.POLICIES)}, not {', '.join(unknown)}")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if not 0 <= seed < 2**63:
        raise ValueError(f"seed must be from 0 to 2**63 - 1, not {seed}")
    order = list(dict.fromkeys(policies))
    n, p = games, rules.players
    seats = np.array([[order.index(name) for name in seating(policies, p, g if rotate else 0)] for g in range(n)],
                     dtype=np.int64)
    codes = np.array([L.POLICIES[name] for name in order], dtype=np.int64)[seats]
    risks = np.full((n, p), float(risk))
    winner, turns = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    busts, scored = np.zeros((n, p), dtype=np.int64), np.zeros((n, p), dtype=np.int64)
    t = len(rules.tricks)
    stats = np.zeros((n, stats_width(p, t)), dtype=np.int64)
    table, offsets = odds()
    start = time.perf_counter()
    play_batch(build_cfg(rules), table, offsets, codes, risks, seed, max_decisions,
               winner, turns, busts, scored, stats)
    seconds = time.perf_counter() - start
    stopped = winner == -2
    winner[stopped] = -1
    return Games(rules, seats, order, winner, turns, busts, scored, game_returns(winner, scored),
                 stats[:, ST_TURNS:ST_TURNS + p].copy(), stats[:, ST_TURNS + p:ST_TURNS + 2 * p].copy(),
                 stats[:, ST_CHANCE].copy(), stats[:, ST_TURNS + 2 * p:].reshape(n, p, t).sum(axis=1), stopped,
                 seconds)


def greedy_results(states: Sequence[Any], seeds: Sequence[int], risk: float = DEFAULT_RISK,
                   max_decisions: int = 100_000) -> np.ndarray:
    """Each engine position of ``states`` (one set of rules) played on to its end by greedy seats, dice from its
    seed: the games' returns, one row per position (1 for the winner; the leaders share 1 at the turn limit).

    Why: a rollout of the rest of a real game, thousands at a time, in compiled code (the coach's reference)."""
    if not states:
        return np.zeros((0, 0))
    rules = states[0].rules
    if any(s.rules != rules for s in states):
        raise ValueError("greedy_results plays positions of one set of rules at a time")
    names = card_names(rules)
    starts = np.stack([state_array(s.to_dict(), rules, names) for s in states])
    return _played_out(starts, rules, seeds, risk, max_decisions)


def rollout_returns(state: Any, rollouts: int, seed: int, risk: float = DEFAULT_RISK,
                    max_decisions: int = 100_000) -> np.ndarray:
    """One engine position played on to its end ``rollouts`` times by greedy seats, play-out r's dice from
    ``seed + r``: the returns, one row per play-out.

    Why: two moves' positions played out on the same seeds are compared on common dice (the coach's check of a
    mistake), and the position is converted once, not once per play-out."""
    names = card_names(state.rules)
    starts = np.repeat(state_array(state.to_dict(), state.rules, names)[None, :], rollouts, axis=0)
    return _played_out(starts, state.rules, [seed + r for r in range(rollouts)], risk, max_decisions)


def _played_out(starts: np.ndarray, rules: Rules, seeds: Sequence[int], risk: float,
                max_decisions: int) -> np.ndarray:
    n, p = len(starts), rules.players
    winner, scored = np.zeros(n, dtype=np.int64), np.zeros((n, p), dtype=np.int64)
    table, offsets = odds()
    with _PARALLEL:
        play_from(starts, build_cfg(rules), table, offsets, np.asarray(seeds, dtype=np.uint64), float(risk),
                  max_decisions, winner, scored)
    winner[winner == -2] = -1
    return game_returns(winner, scored)


def game_returns(winner: np.ndarray, scored: np.ndarray) -> np.ndarray:
    """The engine's ``returns()``: 1 for the winner; at the turn limit the most scored dogs share 1."""
    out = np.zeros(scored.shape, dtype=np.float64)
    won = winner >= 0
    out[np.nonzero(won)[0], winner[won]] = 1.0
    rest = ~won
    leaders = scored[rest] == scored[rest].max(axis=1, keepdims=True)
    out[rest] = leaders / leaders.sum(axis=1, keepdims=True)
    return out


def warm_up() -> float:
    """Compile (or load from Numba's cache) everything; returns the seconds it took."""
    start = time.perf_counter()
    rules = Rules(tricks="all")
    play_games(rules, ["greedy", "random"], 2)
    state = FastState(rules)
    state.legal_codes()
    from .positions import record_positions  # the learned value's training games (compiled apart)

    record_positions([Rules(players=2)], [0], np.full((1, 2), 0.25), np.zeros((1, 2)), keep=1)
    return time.perf_counter() - start
