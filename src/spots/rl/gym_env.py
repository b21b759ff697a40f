"""Gymnasium: a single-agent Spots environment (``Spots-v0``); bots play the other seats.

The agent takes one seat; chance events and the other seats (bots from ``spots.bots``)
are played inside ``step`` until the agent must decide again, so every step is one
decision of the agent. By default rewards come only at the end (the engine's returns:
1 for a win, 0 otherwise, shared at the safety turn limit); ``shaping`` adds the
documented terms of ``spots.rl.rewards``. The legal-action mask is in
``info["action_mask"]``. Opponents may be fixed per seat or drawn per episode from a
pool (bot names or factories ``seed -> bot``), from the episode's seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .. import bots as spots_bots
from ..games.spots import Game, Rules, State, render
from . import observation
from .actions import NUM_ACTIONS, action_mask, check_rules, decode
from .rewards import Counts, Shaping, counts
from .rewards import shaping as make_shaping

ILLEGAL_MODES = ("penalize", "raise")


class SpotsEnv(gym.Env):
    """One seat of a Spots game as a Gymnasium environment.

    Keyword arguments: ``seat`` (the agent's seat, or None for a random seat each
    episode), ``opponents`` (a bot name for every other seat, or one name per other
    seat in seat order, or bot objects), ``opponent_pool`` (instead of ``opponents``: bot
    names and/or factories ``seed -> bot``; each episode every other seat draws one,
    uniformly, from the episode's seed), ``opponent_budget`` (passed to ``bots.make``),
    ``shaping`` (a preset name of ``spots.rl.rewards.PRESETS``, a dict of scales or a
    ``Shaping``; None is the bare win/loss),
    ``illegal_action`` (``penalize``: the move is refused, the state is unchanged and
    the reward is ``illegal_reward``; ``raise``: a ValueError), ``render_mode``
    (``ansi``), and any rules option (``players``, ``tricks``, ``target``, ...).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (gymnasium declares it an instance attribute)

    def __init__(
        self,
        seat: int | None = 0,
        opponents: str | list[Any] = "greedy",
        opponent_budget: dict[str, Any] | None = None,
        opponent_pool: Sequence[str | Callable[[int], Any]] | None = None,
        shaping: str | Shaping | dict[str, Any] | None = None,
        illegal_action: str = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        self.rules = check_rules(Rules(**rules))
        n = self.rules.players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be from 0 to {n - 1} (or None for a random seat), not {seat}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}, not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        others = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(others) != n - 1:
            raise ValueError(f"{n} players need {n - 1} opponent(s), not {len(others)}")
        pool = list(opponent_pool) if opponent_pool is not None else []
        if opponent_pool is not None and not pool:
            raise ValueError("opponent_pool must hold at least one bot name or factory")
        for bot in others + pool:
            if isinstance(bot, str) and bot not in spots_bots.names():
                raise ValueError(f"unknown bot {bot!r}; the bots are: {', '.join(spots_bots.names())}")
        for bot in pool:
            if not isinstance(bot, str) and not callable(bot):
                raise ValueError(f"opponent_pool entries are bot names or factories seed -> bot, not {bot!r}")
        self.opponents = others
        self.opponent_pool = pool
        self.shaping = make_shaping(shaping)
        self.opponent_budget = dict(opponent_budget or {})
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.game = Game(self.rules)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(
            low=0.0, high=observation.high(self.rules), shape=(observation.SIZE,), dtype=np.float32
        )
        self.state: State | None = None
        self._rng = random.Random(0)
        self._bots: dict[int, Any] = {}
        self._counts = Counts(0, 0, 0, 0, 0)

    # ----------------------------------------------------------------- API

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new game; chance and opponents play until the agent's first decision."""
        super().reset(seed=seed)
        # One engine RNG and one seed per bot, all drawn from Gymnasium's seeded np_random.
        n = self.rules.players
        draws = self.np_random.integers(0, 2**62, size=2 + 2 * n)
        self._rng = random.Random(int(draws[0]))
        if self.fixed_seat is None:
            self.seat = int(draws[1] % n)
        self._bots = {}
        others = [s for s in range(n) if s != self.seat]
        chosen = [self.opponent_pool[int(draws[2 + n + s] % len(self.opponent_pool))] for s in others] \
            if self.opponent_pool else self.opponents
        for s, bot in zip(others, chosen, strict=True):
            self._bots[s] = self._make_bot(bot, int(draws[2 + s]))
        self.state = self.game.new_initial_state()
        self._play_others()
        self._counts = counts(self.state, self.seat)
        return self._observe(), self._info()

    def step(self, action: Any):
        """Play the agent's move, then chance and opponents until the agent decides again."""
        state = self._require_state()
        if state.is_terminal():  # the game ended before the agent's first decision
            return self._observe(), self._reward(), *self._ends(), self._info()
        move = decode(int(action)) if 0 <= int(action) < NUM_ACTIONS else None
        if move is None or move not in state.legal_actions():
            if self.illegal_action == "raise":
                raise ValueError(f"illegal action {action} ({move}); legal: {state.legal_actions()}")
            return self._observe(), self.illegal_reward, False, False, self._info(illegal=True)
        state.apply_action(move)
        self._play_others()
        return self._observe(), self._reward(), *self._ends(), self._info()

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.state is not None:
            return render(self.state)
        return None

    def close(self) -> None:
        self.state = None

    def action_masks(self) -> np.ndarray:
        """The legal-action mask (the name MaskablePPO and friends look for)."""
        return action_mask(self._require_state())

    # ----------------------------------------------------------------- helpers

    def _make_bot(self, bot: Any, seed: int) -> Any:
        """A bot for one seat: by name, from a factory ``seed -> bot``, or the object itself."""
        if isinstance(bot, str):
            return spots_bots.make(bot, seed=seed, **self.opponent_budget)
        if not hasattr(bot, "choose") and callable(bot):
            return bot(seed)
        return bot

    def _require_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        return self.state

    def _play_others(self) -> None:
        state = self._require_state()
        while not state.is_terminal() and state.current_player() != self.seat:
            if state.is_chance_node():
                state.sample_chance(self._rng)
            else:
                state.apply_action(self._bots[state.current_player()].choose(state))

    def _observe(self) -> np.ndarray:
        return observation.encode(self._require_state(), self.seat)

    def _reward(self) -> float:
        """The shaped reward since the agent's previous decision (the bare return by default)."""
        state = self._require_state()
        returned = float(state.returns()[self.seat]) if state.is_terminal() else 0.0
        after = counts(state, self.seat)
        reward = self.shaping.reward(self._counts, after, returned)
        self._counts = after
        return reward

    def _ends(self) -> tuple[bool, bool]:
        """(terminated, truncated): the safety turn limit is a truncation."""
        state = self._require_state()
        if not state.is_terminal():
            return False, False
        limit = state.end_reason == "turn limit"
        return not limit, limit

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        state = self._require_state()
        info: dict[str, Any] = {"action_mask": action_mask(state), "seat": self.seat, "turn": state.turn}
        if illegal:
            info["illegal_action"] = True
        if state.is_terminal():
            info["returns"] = list(state.returns())
            info["end_reason"] = state.end_reason
        return info
