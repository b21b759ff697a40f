"""The exact solver of small solitaire variants (``spots solve``) and the ``optimal`` bot built on it.

The solver's values are checked three ways: against a variant worked out by hand, against Monte Carlo play
of its own policy on the reference engine, and by playing its moves through the engine's legality checks.
"""

from __future__ import annotations

import math
import random

import pytest

from spots.bots import make
from spots.cli import main
from spots.games.spots import Rules, State
from spots.games.spots.optimal import MoveValues, OptimalBot, error_rate, play_policy, solution_for
from spots.games.spots.solve import VARIANTS

Z_SAFE = 3.29  # a 99.9% bound: a correct solver fails it about once in a thousand seeds


def widened(interval: tuple[float, float]) -> tuple[float, float]:
    """A 95% interval widened to 99.9% (the bound the tests hold the solver to)."""
    low, high = interval
    centre, half = (low + high) / 2, (high - low) / 2 * Z_SAFE / 1.959964
    return centre - half, centre + half


def turn_start(name: str, seed: int = 0) -> State:
    """The first decision of a game of a solved variant (after the deal and the first die)."""
    state = State(Rules(**VARIANTS[name]))
    rng = random.Random(seed)
    while state.is_chance_node():
        state.sample_chance(rng)
    return state


def test_hand_worked_variant_gives_the_hand_worked_answer() -> None:
    """solo-hand: one dog, Rex, with a single space showing 6; bust limit 0; tiles Howl and Walk; no treats.

    Working:
    - Howl: the dog limit (1) is reached, so no draw; roll 1 die. A 6 (chance 1/6) goes on Rex, which
      completes every unscored dog, so it scores at once (fast and risky) and the target of 1 is reached.
      Any other face must be buried; the yard then exceeds the limit of 0: a bust, the turn ends.
    - Walk: roll 2 dice. Rex holds one of them at most, the other is buried: Walk always busts.
    - The tile left face up alone is turned up again at the next turn, so Howl is always there.
    Let W be the expected turns still to start after a turn start, playing Howl: W = 5/6 * (1 + W), so
    W = 5 and the game takes 1 + W = 6 turns on average. From a turn start Howl is worth 5/6 * (1 + 5) = 5
    further turns and Walk 1 + 5 = 6; after rolling a 6, placing it is worth 0 and burying it 1 + 5 = 6.
    The best chance within N turns is 1 - (5/6)^N (Howl every turn).
    """
    solution = solution_for("solo-hand", horizon=5)
    assert solution.expected_turns() == pytest.approx(6.0, abs=1e-8)
    for n in range(1, 6):
        assert solution.chance_within(n) == pytest.approx(1 - (5 / 6) ** n, abs=1e-12)
    state = turn_start("solo-hand")
    assert dict(MoveValues(solution).moves(state)) == pytest.approx({"trick howl": 5.0, "trick walk": 6.0})
    state.apply_action("trick howl")
    state.apply_action("roll 6")
    assert dict(MoveValues(solution).moves(state)) == pytest.approx({"place 6 rex": 0.0, "bury 6": 6.0})
    within = MoveValues(solution, "within", horizon=2)  # turn 1 of 2: a 6 wins now, a bust leaves one turn
    assert dict(within.moves(state)) == pytest.approx({"place 6 rex": 1.0, "bury 6": 1 / 6})


@pytest.mark.parametrize("name, games", [("solo-hand", 1200), ("solo-1-pair", 600)])
def test_values_agree_with_play_of_the_policy_on_the_engine(name: str, games: int) -> None:
    """The optimal bot plays on the reference engine (every move through its checks); its mean turns to the
    target and its rate of finishing within 3 turns lie within a 99.9% bound of the solver's values."""
    solution = solution_for(name, horizon=3)
    played = play_policy(name, games, seed=2026, objective="turns", horizon=3)
    low, high = widened(played.turns_interval)
    assert low <= solution.expected_turns() <= high, (solution.expected_turns(), played)
    played = play_policy(name, games, seed=2027, objective="within", horizon=3)
    low, high = widened(played.within_interval)
    assert low <= solution.chance_within(3) <= high, (solution.chance_within(3), played)
    assert 0.0 < solution.chance_within(1) < solution.chance_within(3) < 1.0


def test_every_move_of_the_optimal_bot_is_legal_in_the_engine() -> None:
    """Whole games of both objectives, each move checked against the engine's legal moves and sent for the seat."""
    rules = Rules(**VARIANTS["solo-1-pair"])
    rng = random.Random(5)
    for objective in ("turns", "within"):
        bot = make("optimal", objective=objective, turns=3)
        for _ in range(20):
            state = State(rules)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.sample_chance(rng)
                    continue
                move = bot.choose(state)
                assert move in state.legal_actions()
                state.apply_action(move, player=state.current_player())
            assert state.winner == 0


def test_resolving_a_roll_in_any_order_loses_nothing() -> None:
    """The solver resolves a roll lowest face first; a position it skipped (another order) is valued by
    search, and the best move there is worth exactly what the solver's own order is worth."""
    solution = solution_for("solo-1-pair")
    values = MoveValues(solution)
    rng = random.Random(11)
    checked = 0
    for seed in range(60):
        state = turn_start("solo-1-pair", seed)
        while not state.is_terminal() and state.turn == 1:
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            moves = state.legal_actions()
            if state.phase == "roll" and len({m.split()[1] for m in moves if m.startswith(("place", "bury"))}) > 1:
                ranked = dict(values.moves(state))
                node = solution.graph.index[values_key(state)]
                assert min(ranked.values()) == pytest.approx(solution.turns[node], abs=1e-9)
                checked += 1
            state.apply_action(moves[-1])  # the highest face first: off the solver's own path
    assert checked > 10


def values_key(state: State) -> tuple[object, ...]:
    from spots.games.spots.solve import canonical_key

    return canonical_key(state)


def test_optimal_bot_loses_nothing_and_random_loses_turns() -> None:
    """The error rates: the exact policy loses 0 per decision; the random bot loses expected turns."""
    best = error_rate("solo-hand", OptimalBot(), "optimal", games=20, seed=1, horizon=3)
    wild = error_rate("solo-hand", make("random", seed=1), "random", games=20, seed=1, horizon=3)
    assert best.unforced > 0 and best.turns_lost == 0.0 and best.chance_lost == 0.0
    turns, chance = wild.per_decision()
    assert wild.errors > 0 and turns > 0.1 and chance > 0.0
    assert math.isfinite(turns)


def test_optimal_bot_refuses_a_variant_it_has_no_solution_for() -> None:
    bot = make("optimal")
    with pytest.raises(ValueError, match="no solution for these rules") as caught:
        bot.choose(turn_start_of(Rules(players=2)))
    for name in VARIANTS:
        assert name in str(caught.value)
    assert "players 1, target 1" in str(caught.value)
    with pytest.raises(ValueError, match="objective"):
        make("optimal", objective="fastest")


def turn_start_of(rules: Rules) -> State:
    state = State(rules)
    rng = random.Random(0)
    while state.is_chance_node():
        state.sample_chance(rng)
    return state


def test_spots_solve_prints_the_par_and_refuses_an_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--variant", "solo-hand", "--turns", "2", "--check", "300"]) == 0
    out = capsys.readouterr().out
    assert "fewest expected turns: 6.0000" in out
    assert "1: 0.1667, 2: 0.3056" in out
    assert "positions" in out and "turn starts" in out and "peak memory" in out and "played 300 games" in out
    assert main(["solve", "--variant", "solo-99"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spots: error: unknown variant(s) solo-99") and "solo-hand" in err


def test_the_graph_has_the_engines_moves_and_outcomes() -> None:
    """Along random games on the engine, each position the graph holds has the engine's moves (as the solver
    searches them) or chance outcomes, and each leads to the graph's child: the key loses nothing."""
    from spots.games.spots.solve import canonical_key, searched_moves

    solution = solution_for("solo-1-pair")
    graph = solution.graph
    rules = Rules(**VARIANTS["solo-1-pair"])
    rng = random.Random(8)
    checked = 0
    for _ in range(25):
        state = State(rules)
        while not state.is_terminal():
            node = graph.index.get(canonical_key(state))  # None: a roll resolved in another order than lowest first
            if node is not None:
                moves = [m for m, _ in state.chance_outcomes()] if state.is_chance_node() else searched_moves(state)
                assert sorted(moves) == sorted(graph.moves[node])
                for move, child in zip(graph.moves[node], graph.children[node], strict=True):
                    after = state.clone()
                    after.apply_action(move)
                    assert graph.index[canonical_key(after)] == child
                checked += 1
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
    assert checked > 300
