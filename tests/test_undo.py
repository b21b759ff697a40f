"""Undo that never cheats (``spots.core.undo`` through ``GameSpec.takeback``), over random games of both games.

The rule is checked against what a player would notice: an undo offered is only ever the mover's own
moves of this turn since the last roll or reveal, never a chance event and never another player's move;
it is as long as that allows (no shorter); and taking it back gives exactly the position the table was in
before those moves (remembered while playing, not replayed by the code under test).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spots.core.games import GameSpec, get
from spots.core.protocol import CHANCE
from spots.core.undo import UndoRefused, follow

GAMES = [(name, options) for name in ("spots", "double-spot") for options in get(name).quick]
IDS = [f"{name}-{i}" for name in ("spots", "double-spot") for i in range(len(get(name).quick))]


def play_checking(spec: GameSpec, options: dict[str, Any], seed: int, checks: int = 6) -> int:
    """Play a random game; at every decision check the offer against who played what; at a few, undo.

    Returns how many undos were taken back and checked (so a caller can see the check was not empty).
    """
    rng = random.Random(seed)
    state = spec.new_state(spec.make_rules(**options))
    bots = [spec.make_bot("random", seed=seed + i) for i in range(spec.seats(state.rules))]
    actors: list[tuple[int, int]] = []  # the oracle: (who chose it or CHANCE, the turn) for each move played
    before: dict[int, dict[str, Any]] = {}  # the position before move i, as a document
    tail: list[Any] = []
    undone = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actors.append((CHANCE, spec.turn(state)))
            state.sample_chance(rng)
            tail = []  # a chance event: nothing before it can be taken back
            continue
        mover, now = state.current_player(), spec.turn(state)
        offer = spec.takeback(state, tail)
        assert offer.seat == mover
        n = offer.count
        assert offer.moves == tuple(state.history()[len(actors) - n:]) if n else offer.moves == ()
        assert all(actor == (mover, now) for actor in actors[len(actors) - n:]), "an undo crosses a chance event, " \
            "another player's move or the start of the turn"
        if len(actors) > n:  # as long as the rule allows: the move before is not the mover's own of this turn
            assert actors[-n - 1] != (mover, now)
        if n and checks and rng.random() < 0.3:
            checks -= 1
            assert spec.takeback(state) == offer  # the record replayed says the same as the steps kept move by move
            undone += check_undo(spec, state, offer.count, before, rng)
        before[len(actors)] = state.to_dict()
        move = bots[mover].choose(state)
        tail = follow(tail, state, [move], spec.turn)
        state.apply_action(move)
        actors.append((mover, now))
    assert spec.takeback(state).seat is None and spec.takeback(state).why == "over"
    return undone


def check_undo(spec: GameSpec, state: Any, count: int, before: dict[int, dict[str, Any]], rng: random.Random) -> int:
    """Undo 1..count moves: each leaves the position as it was; more, or by another seat, is refused."""
    doc, mover, moves = state.to_dict(), state.current_player(), len(state.history())
    k = rng.randint(1, count)
    back = spec.take_back(state, mover, k)
    assert back.to_dict() == before[moves - k], "the undone position is not the one before those moves"
    assert back.history() == state.history()[:-k] and not back.is_chance_node()
    assert back.current_player() == mover
    with pytest.raises(UndoRefused, match="cannot undo"):
        spec.take_back(state, mover, count + 1)
    for other in range(spec.seats(state.rules)):
        if other != mover:
            with pytest.raises(UndoRefused, match="only seat"):
                spec.take_back(state, other)
    assert state.to_dict() == doc, "a refused or taken-back undo changed the table's own position"
    return 1


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_an_undo_never_crosses_a_chance_event_nor_another_players_move(name: str, options: dict[str, Any],
                                                                      seed: int) -> None:
    play_checking(get(name), options, seed)


def test_spots_undos_are_offered_and_taken_back() -> None:
    """Not an empty check: random Spots games offer undos (placements, burials, picks) and they are taken back."""
    spec = get("spots")
    assert sum(play_checking(spec, {"players": 2, "target": 1}, seed) for seed in range(6)) >= 6


def test_double_spot_never_offers_to_take_back_a_drop() -> None:
    """Its rules leave nothing to take back: a drop ends the turn and the next roll (or a new card) follows."""
    spec = get("double-spot")
    state = spec.new_state(spec.make_rules())
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        offer = spec.takeback(state)
        assert offer.moves == () and offer.why in ("chance", "other")
        state.apply_action(rng.choice(state.legal_actions()))


def test_the_refusal_says_why_and_what_is_allowed() -> None:
    spec = get("spots")
    state = spec.new_state(spec.make_rules(players=2))
    rng = random.Random(1)
    while state.is_chance_node():
        state.sample_chance(rng)
    with pytest.raises(UndoRefused, match="nothing of yours to take back: the last roll or reveal cannot be taken"):
        spec.take_back(state, state.current_player())


def test_the_terminal_never_takes_back_the_other_players_move() -> None:
    """Two people at one terminal: at seat 2's prompt, right after seat 1's last move (no roll between),
    ``undo`` says it is the other player's and changes nothing; after one's own placement it takes it back."""
    import io

    from rich.console import Console

    from spots.games.spots.terminal import Table, TerminalGame

    spec = get("spots")
    seen: dict[str, Any] = {}

    def ask(prompt: str) -> str:
        state = game.state
        history = state.history()
        if "refused" not in seen and not spec.takeback(state).moves and spec.takeback(state).why == "other":
            seen["refused"] = (state.to_dict(), len(out.getvalue()))
            return "undo"
        if "refused" in seen and "unchanged" not in seen:
            seen["unchanged"] = state.to_dict() == seen["refused"][0]
        if "refused" in seen and "mine" not in seen and spec.takeback(state).moves:
            seen["mine"] = (history[:-1], len(out.getvalue()))
            return "undo"
        if "mine" in seen and "after" not in seen:
            seen["after"] = history
        if "after" in seen:
            return "quit"
        return "1"

    out = io.StringIO()
    table = Table(spec.new_state(spec.make_rules(players=2, tricks="beginner")), ["me", "me"], 3, None)
    game = TerminalGame(table, Console(file=out, width=200), fast=True, plain=True, ask=ask)
    game.run()
    start = seen["refused"][1]
    assert seen["unchanged"], "a refused undo changed the position"
    assert "Nothing to undo: the last move was another player's." in out.getvalue()[start:]
    kept, start = seen["mine"]
    assert "Took back your last move" in out.getvalue()[start:] and seen["after"] == kept
