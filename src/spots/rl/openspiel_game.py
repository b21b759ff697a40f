"""OpenSpiel: Spots as a Python game in ``pyspiel``, short name ``python_spots``.

Explicit chance, perfect information, 1-4 players, sequential, terminal rewards
(1 for the winner, 0 for the others; the leaders share 1 at the safety turn limit,
so the game is constant-sum with sum 1). Rules options are game parameters:
``pyspiel.load_game("python_spots", {"players": 3, "tricks": "dog-park"})``.

Chance: a roll of k dice is k chance nodes, one per die (outcomes ``die 1`` ...
``die 6``, ids 0-5), because Fetch's 8 dice alone have 1,287 sorted outcomes and
Roll Over can roll more; the engine receives the sorted roll after the last die.
A revealed card is one chance node (``reveal <dog>``, ids 6-37). Player actions
use the fixed encoding of ``spots.rl.actions``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..games.spots import Game, Rules, State, render
from ..games.spots.dice import faces_text
from ..games.spots.spec import SPEC
from . import observation
from .actions import (
    CHANCE_IDS,
    CHANCE_TEXTS,
    MAX_SEATS,
    MOVES,
    NUM_ACTIONS,
    NUM_CHANCE_OUTCOMES,
    check_rules,
    decode,
    legal_ids,
)

SHORT_NAME = "python_spots"

# Game parameters: the rules options OpenSpiel can carry (ints and strings), with the defaults Spots'
# options schema declares (``spots.games.spots.spec``). A default of None cannot be a parameter:
# dog_limit 0 means the default, max(6, target); tricks_seed -1 means none.
CARRIED = ("players", "tricks", "target", "dog_limit", "bust_limit", "dice", "treats", "starting_treats",
           "starting_dogs", "turn_limit", "tricks_seed")
UNSET = {"dog_limit": 0, "tricks_seed": -1}
DEFAULT_PARAMS: dict[str, Any] = {
    name: UNSET[name] if default is None else default
    for name, default in ((name, SPEC.option(name).default) for name in CARRIED)
}
MOVES_PER_TURN_BOUND = 2000  # a generous bound on moves (chance dice included) in one turn

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Spots (CMYK, 2022), Python",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The engine rules for a dict of game parameters (unknown names are refused)."""
    unknown = sorted(set(params) - set(DEFAULT_PARAMS))
    if unknown:
        raise ValueError(f"unknown python_spots parameter(s) {', '.join(unknown)}; known: {', '.join(DEFAULT_PARAMS)}")
    p = {**DEFAULT_PARAMS, **params}
    options: dict[str, Any] = {k: p[k] for k in DEFAULT_PARAMS if k not in ("dog_limit", "tricks_seed")}
    if p["dog_limit"]:
        options["dog_limit"] = p["dog_limit"]
    if p["tricks_seed"] >= 0:
        options["tricks_seed"] = p["tricks_seed"]
    return check_rules(Rules(**options))


class SpotsGame(pyspiel.Game):
    """The game: rules from the parameters, a factory of states."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        rules = rules_from_params(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CHANCE_OUTCOMES,
            num_players=rules.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=min(2**31 - 1, rules.turn_limit * MOVES_PER_TURN_BOUND + 1000),
        )
        super().__init__(GAME_TYPE, info, {**DEFAULT_PARAMS, **params})
        self.rules = rules
        self.engine_game = Game(rules)

    def new_initial_state(self) -> SpotsState:
        return SpotsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SpotsObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return SpotsObserver()


class _Engine:
    """Holds the engine state so that OpenSpiel's clone (deepcopy) and serialization (pickle) are cheap."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone())

    def __getstate__(self) -> str:
        return self.state.to_json()

    def __setstate__(self, text: str) -> None:
        self.state = State.from_json(text)


class SpotsState(pyspiel.State):
    """An OpenSpiel state over the engine state, plus the dice already rolled of a split roll."""

    def __init__(self, game: SpotsGame) -> None:
        super().__init__(game)
        self._engine = _Engine(game.engine_game.new_initial_state())
        self._faces: list[int] = []

    @property
    def engine(self) -> State:
        """The engine state (for bots and observers; do not apply moves to it directly)."""
        return self._engine.state

    def current_player(self) -> int:
        return self._engine.state.current_player()  # CHANCE (-1) and TERMINAL (-4) match pyspiel's

    def _legal_actions(self, player: int) -> list[int]:
        return legal_ids(self._engine.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        state = self._engine.state
        if state.phase == "chance-roll":
            return [(i, 1.0 / 6.0) for i in range(6)]
        outcomes = state.chance_outcomes()
        return sorted((CHANCE_IDS[text], p) for text, p in outcomes)

    def _apply_action(self, action: int) -> None:
        state = self._engine.state
        if state.phase == "chance-roll":
            self._faces.append(int(action) + 1)
            if len(self._faces) == state.pending_dice:
                faces, self._faces = sorted(self._faces), []
                state.apply_trusted("roll " + faces_text(faces))
        elif state.is_chance_node():
            state.apply_action(CHANCE_TEXTS[action])
        else:
            state.apply_action(decode(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return CHANCE_TEXTS[action]
        return MOVES[action]

    def is_terminal(self) -> bool:
        return self._engine.state.is_terminal()

    def returns(self) -> list[float]:
        return self._engine.state.returns()

    def __str__(self) -> str:
        text = render(self._engine.state)
        if self._faces:
            text += f"\nrolling: {faces_text(self._faces)} so far"
        return text


class SpotsObserver:
    """OpenSpiel's observer: the vector of ``spots.rl.observation`` and its named views."""

    def __init__(self) -> None:
        self.tensor = np.zeros(observation.SIZE, np.float32)
        self.dict = observation.as_dict(self.tensor)

    def set_from(self, state: SpotsState, player: int) -> None:
        observation.encode(state.engine, player, chance_faces=state._faces, out=self.tensor)

    def string_from(self, state: SpotsState, player: int) -> str:
        return f"seat {player}\n{state}"


def load(**params: Any) -> pyspiel.Game:
    """``pyspiel.load_game("python_spots", params)`` with keyword parameters."""
    return pyspiel.load_game(SHORT_NAME, params)


def register() -> None:
    """Register ``python_spots`` with pyspiel (once)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, SpotsGame)


register()
