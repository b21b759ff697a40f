"""PettingZoo: Spots as an AEC (agent-environment-cycle) environment for 1-4 seats.

Agents are ``player_0`` ... ``player_{n-1}`` (the seats). Chance events are sampled
inside the environment from its seeded generator, so ``agent_selection`` is always
the seat to decide; a seat often decides several times in a row (a trick is a
sequence of decisions). Observations are dicts: ``observation`` (the vector of
``spots.rl.observation``, from that agent's seat) and ``action_mask`` (int8, legal
moves of that agent now; all 0 when it is not its turn). Rewards arrive at the end.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from ..games.spots import Game, Rules, State, render
from . import observation
from .actions import NUM_ACTIONS, action_mask, check_rules, decode


class SpotsAECEnv(AECEnv):
    """The raw AEC environment; ``aec_env`` wraps it in PettingZoo's order enforcer."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "spots_v0", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, **rules: Any) -> None:
        super().__init__()
        self.rules = check_rules(Rules(**rules))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.game = Game(self.rules)
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self.agents = list(self.possible_agents)
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        high = observation.high(self.rules)
        # One space object per agent (PettingZoo seeds them per agent).
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, high, (observation.SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.state: State | None = None
        self.np_random, _ = seeding.np_random(None)
        self._rng = random.Random(0)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, played by chance up to the first decision."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self._rng = random.Random(int(self.np_random.integers(0, 2**62)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()
        self.state = self.game.new_initial_state()
        self._advance()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._require_state()
        seat = self._seat[agent]
        mask = action_mask(state) if state.current_player() == seat else np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": observation.encode(state, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        move = decode(int(action))
        state.apply_action(move, player=self._seat[agent])  # an illegal move raises IllegalMoveError
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return render(self.state)

    def close(self) -> None:
        pass

    # ----------------------------------------------------------------- helpers

    def _require_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before step() or observe()")
        return self.state

    def _advance(self) -> None:
        """Sample chance until a seat must decide or the game is over; select that agent."""
        state = self._require_state()
        while state.is_chance_node():
            state.sample_chance(self._rng)
        if state.is_terminal():
            truncated = state.end_reason == "turn limit"
            for a, value in zip(self.agents, state.returns(), strict=True):
                self.rewards[a] = float(value)
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
                self.infos[a] = {"end_reason": state.end_reason}
        else:
            self.agent_selection = self.possible_agents[state.current_player()]


def aec_env(render_mode: str | None = None, **rules: Any) -> AECEnv:
    """The Spots AEC environment for these rules options, wrapped like PettingZoo's own envs."""
    env: AECEnv = SpotsAECEnv(render_mode=render_mode, **rules)
    env = wrappers.OrderEnforcingWrapper(env)
    return env


raw_env = SpotsAECEnv
