"""Double Spot's ending under the default rules, checked against each statement of the published rules.

"El primer jugador en ganar 5 tarjetas de patrón es el ganador. Si llena el tablero antes de que eso
suceda, la persona con más tarjetas de patrón en ese momento gana." A full frame ends the game by
default (``lifts`` 0): lifting it and playing on is a house rule (tests/test_double_spot_lift.py).
Every position here is built with the default rules except the frame's size (3×3, one drop from full).
"""

from __future__ import annotations

import random

from spots.core import TERMINAL
from spots.games.double_spot import Game, Rules, State
from spots.games.double_spot.patterns import on_board
from spots.games.double_spot.spec import outcome
from spots.games.double_spot.words import describe_move
from support.double_spot import DECK, full_board_position, position

ROWS = ["BG.", "PYG", "YBP"]  # a 3×3 frame, seat 0's view, top first: one cell left, in column 3
LAST = "drop 3 pink"


def taking_last_drop(won: tuple[list[str], list[str]]) -> tuple[State, str]:
    """The 3×3 frame one drop from full where seat 0's last drop (``LAST``) completes the first face-up card.

    Returns the position and a card to reveal afterwards that the full frame does not show (no chain).
    """
    used = won[0] + won[1]
    for a in DECK:
        for b in DECK:
            if a.id == b.id or a.id in used or b.id in used:
                continue
            state = position(ROWS, [a.id, b.id], die="pink", won=won, rules=Rules(columns=3, rows=3))
            if on_board(state.board, a) or on_board(state.board, b):
                continue
            after = state.clone()
            after.apply_action(LAST)
            if after.won[0][len(won[0]):] == [a.id]:
                quiet = next(c.id for c in DECK if c.id in after.deck and not on_board(after.board, c))
                return state, quiet
    raise AssertionError("no last drop that completes a card")


def test_by_default_a_full_frame_ends_the_game() -> None:
    assert Rules().lifts == 0 and Rules.from_dict({"target": 3}).lifts == 0
    state, move = full_board_position(([], []))
    assert state.rules.lifts == 0  # the default, not asked for
    state.apply_action(move)
    assert state.is_terminal() and state.current_player() == TERMINAL and state.legal_actions() == []
    assert state.end_reason == "full-board" and state.lifted == 0


def test_a_full_frame_goes_to_the_player_with_more_cards() -> None:
    """"... la persona con más tarjetas de patrón en ese momento gana": 1 card against 2 loses."""
    state, move = full_board_position(([DECK[30].id], [DECK[31].id, DECK[32].id]))
    state.apply_action(move)
    assert state.winner == 1 and state.returns() == [0.0, 1.0] and state.scores() == [1, 2]
    assert outcome(state).ending == "board full"


def test_a_full_frame_with_equal_cards_is_a_draw() -> None:
    state, move = full_board_position(([DECK[30].id], [DECK[31].id]))
    state.apply_action(move)
    assert state.end_reason == "full-board" and state.winner is None and state.returns() == [0.5, 0.5]
    assert outcome(state).ending == "board full, a draw"


def test_the_card_made_by_the_last_drop_counts() -> None:
    """"En ese momento": the last drop's card is counted before the full frame is judged; behind 0-1,
    it draws; level at 1-1, it wins."""
    for won, winner, returns in ((([], [DECK[31].id]), None, [0.5, 0.5]),
                                 (([DECK[30].id], [DECK[31].id]), 0, [1.0, 0.0])):
        state, quiet = taking_last_drop(won)
        before = state.clone()
        state.apply_action(LAST)
        assert not state.is_terminal() and state.legal_actions()[0].startswith("reveal")  # the holder is refilled
        state.apply_action(f"reveal {quiet}")
        assert state.is_terminal() and state.end_reason == "full-board"
        assert state.scores()[0] == len(won[0]) + 1 and state.winner == winner and state.returns() == returns
        assert "takes card" in describe_move(before, LAST, state, ["Ann", "Bo"])


def test_a_card_revealed_onto_the_full_frame_counts_too() -> None:
    """A new card whose pattern the full frame already shows goes to the mover at once (the rules'
    claim decision), before the frame is judged."""
    state, _ = taking_last_drop(([], [DECK[31].id]))
    state.apply_action(LAST)
    shown = next(c.id for c in DECK if c.id in state.deck and on_board(state.board, c))
    state.apply_action(f"reveal {shown}")
    if not state.is_terminal():  # its holder is refilled again
        state.apply_action(f"reveal {next(c.id for c in DECK if c.id in state.deck and not on_board(state.board, c))}")
    assert state.is_terminal() and state.scores() == [2, 1] and state.winner == 0


def test_the_board_after_the_last_drop_stays_as_it_was_dropped() -> None:
    """The frame is not lifted: the finished game shows the full frame, the last disc where it fell,
    and a saved copy loads the same."""
    state, move = full_board_position(([], []))
    board = [list(col) for col in state.board]
    state.apply_action(move)
    assert state.board == [board[0], board[1], [*board[2], "pink"]]
    assert state.full() and sum(map(len, state.board)) == 9 and state.supply["pink-yellow"] < state.rules.discs
    again = State.from_json(state.to_json())
    assert again == state and again.is_terminal() and again.board == state.board


def test_reaching_the_target_with_the_drop_that_fills_the_frame_wins_by_the_target() -> None:
    """"El primer jugador en ganar 5 tarjetas ... es el ganador": the fifth card wins even on the last
    cell, whatever the other player holds."""
    level, _ = taking_last_drop(([], []))
    others = [c.id for c in DECK if c.id not in level.holders]
    state = position(ROWS, list(level.holders), die="pink", won=(others[:4], others[4:8]), rules=level.rules)
    state.apply_action(LAST)
    assert state.is_terminal() and state.end_reason == "target" and state.winner == 0
    assert state.full() and state.returns() == [1.0, 0.0]


def test_default_games_end_on_the_first_full_frame() -> None:
    """Seeded random games on the default 8×5 frame: every one ends by the 40th drop, at the target or
    on a full frame judged by the cards."""
    ends = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = Game(Rules()).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        drops = sum(m.startswith("drop") for m in state.history())
        assert drops <= 40 and state.lifted == 0
        a, b = state.scores()
        if state.end_reason == "full-board":
            assert drops == 40 and state.winner == (None if a == b else int(b > a))
        else:
            assert state.end_reason == "target" and max(a, b) == 5
        ends.add(state.end_reason)
    assert ends == {"full-board", "target"}
