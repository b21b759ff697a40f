"""Scenario tests for the core rules of Spots (rules file sections 2, 3, 5, 9 and 10).

Every position is reached through the move notation (``conftest.start``) and then
adjusted (``conftest.adjust``); chance events are applied as moves (``roll 2 5``,
``reveal wilbur``). The assertions are what a player at the table would notice.

Default table from ``start()``: two players, the beginner tiles (Howl, Roll Over,
Walk, Run, Beg, Fetch); seat 0 holds Wilbur (1 3 6, 1 paw) and Doog (2 3 5 6,
2 paws) with a 3 buried; seat 1 holds Ursula (1 5) and Missy (3 4) with a 2
buried; the deck's top card is Burt (1); each player has 1 treat.
"""

from __future__ import annotations

import json

import pytest

import spots
from support.spots import adjust, play, start

BEGINNER = ["howl", "roll-over", "walk", "run", "beg", "fetch"]

# A five-card deck: the default deal and Burt on top, nothing below.
SMALL_DECK = [
    {"name": "Wilbur", "spaces": [1, 3, 6], "paws": 1},
    {"name": "Doog", "spaces": [2, 3, 5, 6], "paws": 2},
    {"name": "Ursula", "spaces": [1, 5], "paws": 0},
    {"name": "Missy", "spaces": [3, 4], "paws": 0},
    {"name": "Burt", "spaces": [1], "paws": 0},
]


def moves(state: spots.State) -> list[str]:
    return sorted(state.legal_actions())


def names(state: spots.State, seat: int) -> list[str]:
    return [d.name for d in state.players[seat].dogs]


def dog(state: spots.State, seat: int, name: str):
    return next(d for d in state.players[seat].dogs if d.name == name)


def roll_size(state: spots.State) -> int:
    """How many dice the pending chance roll has (read from its outcomes)."""
    assert state.is_chance_node()
    sizes = {len(m.split()) - 1 for m in state.legal_actions()}
    assert all(m.startswith("roll ") for m in state.legal_actions())
    assert len(sizes) == 1
    return sizes.pop()


def conserved(state: spots.State) -> None:
    assert state.dice_total() == state.rules.dice
    assert state.treats_total() == state.rules.treats


def new_game(**options) -> spots.State:
    return spots.Game(spots.Rules(**options)).new_initial_state()


# --------------------------------------------------------------------------- setup (2)


def test_setup_deals_seat0_both_cards_first_then_reveals_top():
    """Setup 2.2 / 10.1: seat 0 gets both its cards, then seat 1, then the top card is revealed."""
    state = new_game(players=2)
    assert state.is_chance_node()
    assert len(state.legal_actions()) == 32
    assert all(m.startswith("reveal ") for m in state.legal_actions())
    play(state, "reveal wilbur")
    assert names(state, 0) == ["wilbur"] and names(state, 1) == []
    play(state, "reveal doog")
    assert names(state, 0) == ["wilbur", "doog"] and names(state, 1) == []
    play(state, "reveal ursula", "reveal missy")
    assert names(state, 1) == ["ursula", "missy"]
    assert state.deck_top is None
    assert "reveal wilbur" not in state.legal_actions()
    assert len(state.legal_actions()) == 28
    play(state, "reveal burt")
    assert state.deck_top == "burt"
    # Then the first dice are rolled, one die at a time.
    assert roll_size(state) == 1
    assert all(not d.filled and not d.scored for p in state.players for d in p.dogs)
    conserved(state)


def test_setup_first_dice_in_seat_order_one_treat_one_die_each():
    """Setup 2.3: each player takes 1 treat and 1 die, rolled in seat order and buried."""
    state = new_game(players=3)
    play(state, *[f"reveal {n}" for n in ["wilbur", "doog", "ursula", "missy", "gumbo", "frankie", "burt"]])
    assert [p.treats for p in state.players] == [1, 1, 1]
    assert state.treat_supply == 17
    play(state, "roll 4")
    assert [p.yard for p in state.players] == [[4], [], []]
    play(state, "roll 2")
    assert [p.yard for p in state.players] == [[4], [2], []]
    play(state, "roll 6")
    assert [p.yard for p in state.players] == [[4], [2], [6]]
    assert state.dice_supply == 37
    # Highest buried die starts.
    assert not state.is_chance_node()
    assert state.phase == "turn" and state.seat == 2 and state.turn == 1
    conserved(state)


def test_setup_tie_only_tied_seats_reroll_and_winner_starts_even_if_lower():
    """Setup 2.4 / 10.1 fine points: only tied seats reroll; the new roll replaces the buried die;
    the tie-break winner starts even though another seat's die is now higher."""
    state = new_game(players=3)
    play(state, *[f"reveal {n}" for n in ["wilbur", "doog", "ursula", "missy", "gumbo", "frankie", "burt"]])
    play(state, "roll 5", "roll 5", "roll 4")
    assert state.is_chance_node() and roll_size(state) == 1
    play(state, "roll 2")  # seat 0's tie roll
    assert [p.yard for p in state.players] == [[2], [5], [4]]
    assert state.is_chance_node()
    play(state, "roll 3")  # seat 1's tie roll
    assert [p.yard for p in state.players] == [[2], [3], [4]]
    assert state.phase == "turn"
    assert state.seat == 1  # won the tie-break, although seat 2's 4 is higher
    assert state.dice_supply == 37
    conserved(state)


def test_setup_several_tie_rounds():
    """Setup 2.4: tied seats keep rerolling until the tie is broken."""
    state = new_game(players=2)
    play(state, "reveal wilbur", "reveal doog", "reveal ursula", "reveal missy", "reveal burt")
    play(state, "roll 6", "roll 6")
    play(state, "roll 4", "roll 4")
    assert state.is_chance_node()
    assert [p.yard for p in state.players] == [[4], [4]]
    play(state, "roll 1", "roll 5")
    assert [p.yard for p in state.players] == [[1], [5]]
    assert state.phase == "turn" and state.seat == 1 and state.turn == 1
    assert state.dice_supply == 38
    conserved(state)


def test_setup_tie_in_three_players_narrows_to_still_tied_seats():
    """Setup 10.1: after a tie round, only the seats still tied for the highest roll again."""
    state = new_game(players=3)
    play(state, *[f"reveal {n}" for n in ["wilbur", "doog", "ursula", "missy", "gumbo", "frankie", "burt"]])
    play(state, "roll 6", "roll 6", "roll 6")
    play(state, "roll 2", "roll 5", "roll 5")  # seat 0 drops out
    assert state.is_chance_node()
    play(state, "roll 3", "roll 1")  # seats 1 and 2 only
    assert [p.yard for p in state.players] == [[2], [3], [1]]
    assert state.phase == "turn" and state.seat == 1
    conserved(state)


def test_setup_checks_no_bust():
    """Setup 10.1 fine points: no bust is checked during setup (buried dice stay)."""
    state = new_game(players=2, bust_limit=3)
    play(state, "reveal wilbur", "reveal doog", "reveal ursula", "reveal missy", "reveal burt")
    play(state, "roll 6", "roll 6", "roll 5", "roll 4")
    assert [p.yard for p in state.players] == [[5], [4]]
    assert state.phase == "turn" and state.seat == 0
    assert state.dice_supply == 38
    conserved(state)


# --------------------------------------------------------------------------- turns (3)


def test_play_goes_clockwise_from_first_player():
    """Setup 2.4: play goes in seat order from the first player, wrapping around."""
    state = start(players=3, first=[1, 2, 3], tricks=["beg", "chew", "stay", "gobble"])
    assert state.seat == 2 and state.turn == 1
    play(state, "trick beg")
    assert state.seat == 0 and state.turn == 2 and state.phase == "turn"
    play(state, "trick chew")
    assert state.seat == 1 and state.turn == 3
    play(state, "trick stay")
    assert state.seat == 2 and state.turn == 4
    conserved(state)


def test_turn_offers_every_face_up_trick_and_no_score_without_complete_dog():
    """Turn 3 / 10.1: `trick <name>` for every face-up tile; `score` only with a complete unscored dog."""
    state = start()
    assert moves(state) == sorted(f"trick {t}" for t in BEGINNER)
    play(state, "trick beg")
    assert state.seat == 1
    assert moves(state) == sorted(f"trick {t}" for t in BEGINNER if t != "beg")
    conserved(state)


def test_score_offered_with_a_complete_unscored_dog():
    """Turn 3: `score` is offered when at least one unscored dog is complete."""
    state = adjust(start(), 0, filled={"wilbur": [1, 3, 6]})
    assert "score" in state.legal_actions()
    assert moves(state) == sorted([*(f"trick {t}" for t in BEGINNER), "score"])


def test_score_not_offered_for_scored_or_incomplete_dogs():
    """Turn 3: a scored dog does not make `score` legal; neither does an incomplete one."""
    state = adjust(start(), 0, scored=["wilbur"], filled={"doog": [2, 3, 5]})
    assert "score" not in state.legal_actions()


def test_chosen_trick_turns_face_down():
    """Turn 3: doing a trick turns its tile face down."""
    state = start()
    play(state, "trick walk")
    assert state.face_up == [t != "walk" for t in BEGINNER]


# --------------------------------------------------------------------------- rolls (4.1)


def test_reroll_costs_a_treat_and_rerolls_every_die():
    """Roll 4.1.2: spending 1 treat rerolls all dice of the roll."""
    state = start()
    play(state, "trick walk")
    assert roll_size(state) == 2
    play(state, "roll 2 5")
    assert "reroll" in state.legal_actions()
    play(state, "reroll")
    assert state.players[0].treats == 0
    assert state.treat_supply == 19
    assert roll_size(state) == 2
    play(state, "roll 1 4")
    assert moves(state) == sorted(["place 1 wilbur", "bury 1", "bury 4"])  # no treat left: no reroll
    conserved(state)


def test_reroll_repeatable_while_treats_last():
    """Roll 4.1.2: the reroll may be repeated while the player has treats."""
    state = adjust(start(), 0, treats=2)
    play(state, "trick walk", "roll 4 4", "reroll", "roll 4 4", "reroll", "roll 2 6")
    assert state.players[0].treats == 0
    assert "reroll" not in state.legal_actions()
    play(state, "place 2 doog", "place 6 wilbur")
    assert dog(state, 0, "doog").filled == (2,)
    assert dog(state, 0, "wilbur").filled == (6,)
    conserved(state)


def test_reroll_only_before_any_die_is_resolved():
    """Roll 4.1.2: once a die of the roll is placed or buried, no reroll."""
    state = adjust(start(), 0, treats=3)
    play(state, "trick walk", "roll 2 5")
    play(state, "place 2 doog")
    assert moves(state) == ["bury 5", "place 5 doog"]
    assert state.players[0].treats == 3


def test_reroll_not_offered_without_a_treat():
    """Roll 4.1.2 / 10.1: `reroll` is offered only while you have a treat."""
    state = adjust(start(), 0, treats=0)
    play(state, "trick walk", "roll 2 5")
    assert "reroll" not in state.legal_actions()
    assert moves(state) == ["bury 2", "bury 5", "place 2 doog", "place 5 doog"]


def test_place_only_on_matching_empty_spaces_of_unscored_dogs():
    """Roll 4.1.3: place on an empty space showing the number, on an unscored dog; bury always offered."""
    state = adjust(start(), 0, dogs=["wilbur", "doog", "bongo"])
    state = adjust(state, 0, scored=["bongo"], filled={"wilbur": [3]})
    play(state, "trick walk", "roll 1 3")
    # bongo (1 3) is scored: never offered; wilbur's 3 is taken.
    assert moves(state) == ["bury 1", "bury 3", "place 1 wilbur", "place 3 doog", "reroll"]
    conserved(state)


def test_each_space_holds_one_die():
    """Roll 4.1.3: a space holds one die, so a second 3 cannot go on the same space."""
    state = start()
    play(state, "trick walk", "roll 3 3", "place 3 wilbur")
    assert moves(state) == ["bury 3", "place 3 doog"]
    play(state, "place 3 doog")
    assert dog(state, 0, "wilbur").filled == (3,)
    assert dog(state, 0, "doog").filled == (3,)
    conserved(state)


def test_bury_allowed_even_when_the_die_fits():
    """Roll 4.1.3: burying is always allowed, even when the die would fit; buried dice keep their face."""
    state = start()
    play(state, "trick walk", "roll 1 3")
    assert {"place 1 wilbur", "bury 1"} <= set(state.legal_actions())
    play(state, "bury 1")
    assert sorted(state.players[0].yard) == [1, 3]
    assert dog(state, 0, "wilbur").filled == ()
    assert "bury 3" in state.legal_actions() and "place 3 wilbur" in state.legal_actions()
    conserved(state)


def test_walk_optional_die_is_asked_after_the_roll():
    """Roll 10.1: Walk's optional die is asked with `continue` / `stop`; stop ends the turn."""
    state = start()
    play(state, "trick walk", "roll 2 6", "place 2 doog", "place 6 wilbur")
    assert moves(state) == ["continue", "stop"]
    play(state, "continue")
    assert roll_size(state) == 1
    play(state, "roll 5", "place 5 doog")
    assert state.seat == 1 and state.phase == "turn"
    assert dog(state, 0, "doog").filled == (2, 5)
    conserved(state)


# --------------------------------------------------------------------------- bust (5.4)


def test_bust_returns_dogs_and_yard_dice_and_ends_turn_mid_trick():
    """Bust 5.4: yard over 7 returns every die on unscored dogs and in the yard; the turn ends at once
    (Walk's optional die is not offered) and the roll's unresolved dice return to the supply."""
    state = adjust(start(), 0, yard=[5], filled={"wilbur": [1], "doog": [2]})
    play(state, "trick walk", "roll 3 3", "bury 3")
    assert state.players[0].yard == []
    assert dog(state, 0, "wilbur").filled == () and dog(state, 0, "doog").filled == ()
    assert state.seat == 1 and state.phase == "turn" and state.turn == 2
    # Only seat 1's buried die is off the supply.
    assert state.dice_supply == 39
    assert state.players[1].yard == [2]
    conserved(state)


def test_bust_keeps_scored_dogs_and_treats():
    """Bust 5.4: scored dogs are safe, and treats are not lost."""
    state = adjust(start(), 0, yard=[6], scored=["wilbur"], filled={"doog": [2, 3]}, treats=0)
    play(state, "trick walk", "roll 4 5", "bury 4")
    assert dog(state, 0, "wilbur").scored
    assert dog(state, 0, "doog").filled == ()
    assert state.players[0].treats == 0
    assert state.seat == 1
    conserved(state)


def test_yard_total_at_the_limit_does_not_bust():
    """Bust 5.4: only a total above the limit busts; exactly 7 is safe."""
    state = adjust(start(), 0, yard=[4])
    play(state, "trick walk", "roll 3 6", "bury 3")
    assert sorted(state.players[0].yard) == [3, 4]
    assert state.seat == 0 and state.phase == "roll"
    conserved(state)


def test_bust_limit_option():
    """Bust 5.4: the bust limit is an option (here 10)."""
    state = adjust(start(bust_limit=10), 0, yard=[5])
    play(state, "trick walk", "roll 3 3", "bury 3")
    assert sorted(state.players[0].yard) == [3, 5]
    assert state.seat == 0 and state.phase == "roll"
    play(state, "bury 3")  # 11 > 10
    assert state.players[0].yard == []
    assert state.seat == 1
    conserved(state)


# --------------------------------------------------------------------------- scoring (5.5)


def test_score_scores_all_complete_dogs_and_draws_one_per_dog():
    """Scoring 5.5: every complete unscored dog scores (never a subset); dice return; one draw per dog,
    each followed by a `reveal` of the new top card; scoring ends the turn."""
    state = adjust(start(), 0, dogs=["wilbur", "bongo", "doog"])
    state = adjust(state, 0, filled={"wilbur": [1, 3, 6], "bongo": [1, 3], "doog": [2]})
    supply = state.dice_supply
    assert [m for m in state.legal_actions() if m.startswith("score")] == ["score"]
    play(state, "score")
    assert dog(state, 0, "wilbur").scored and dog(state, 0, "bongo").scored
    assert dog(state, 0, "wilbur").filled == () and dog(state, 0, "bongo").filled == ()
    assert dog(state, 0, "doog") == dog(state, 0, "doog")._replace(filled=(2,), scored=False)
    assert state.dice_supply == supply + 5
    assert names(state, 0) == ["wilbur", "bongo", "doog", "burt"]
    assert state.is_chance_node() and state.deck_top is None
    assert "reveal burt" not in state.legal_actions()
    play(state, "reveal lief")
    assert names(state, 0)[-1] == "lief"
    assert state.is_chance_node()
    play(state, "reveal momo")
    assert state.deck_top == "momo"
    assert len(state.players[0].dogs) == 5
    assert state.seat == 1 and state.phase == "turn"
    conserved(state)


def test_score_draw_stops_at_dog_limit():
    """Scoring 5.5: with 5 dogs, scoring 2 draws only 1 (the dog limit is 6)."""
    state = adjust(start(), 0, dogs=["wilbur", "bongo", "doog", "eloise", "mayor"])
    state = adjust(state, 0, filled={"wilbur": [1, 3, 6], "bongo": [1, 3]})
    play(state, "score")
    assert names(state, 0) == ["wilbur", "bongo", "doog", "eloise", "mayor", "burt"]
    play(state, "reveal lief")
    assert state.deck_top == "lief"
    assert len(state.players[0].dogs) == 6
    assert state.seat == 1 and state.phase == "turn"
    conserved(state)


def test_score_with_six_dogs_draws_nothing():
    """Scoring 5.5 / dog limit: holding 6 dogs, scoring draws nothing and asks no reveal."""
    state = adjust(start(), 0, dogs=["wilbur", "bongo", "doog", "eloise", "mayor", "lief"])
    state = adjust(state, 0, filled={"bongo": [1, 3]})
    play(state, "score")
    assert len(state.players[0].dogs) == 6
    assert state.deck_top == "burt"
    assert state.seat == 1 and state.phase == "turn"
    conserved(state)


# --------------------------------------------------------------------------- fast and risky (5.6)


def test_fast_and_risky_scores_at_once_and_trick_carries_on():
    """Fast and risky 5.6: every unscored dog complete after a roll scores at once, draws new dogs,
    and the trick goes on with them (Walk's optional die is still offered)."""
    state = adjust(start(), 0, filled={"wilbur": [1, 3], "doog": [2, 3, 5]})
    play(state, "trick walk", "roll 6 6", "place 6 wilbur")
    assert not dog(state, 0, "wilbur").scored  # not yet: a die of the roll is unresolved
    play(state, "place 6 doog")
    assert dog(state, 0, "wilbur").scored and dog(state, 0, "doog").scored
    assert names(state, 0) == ["wilbur", "doog", "burt"]
    play(state, "reveal bongo")
    assert names(state, 0) == ["wilbur", "doog", "burt", "bongo"]
    play(state, "reveal lief")
    assert state.seat == 0 and state.turn == 1
    assert moves(state) == ["continue", "stop"]
    play(state, "continue", "roll 1")
    assert moves(state) == ["bury 1", "place 1 bongo", "place 1 burt", "reroll"]
    conserved(state)


def test_fast_and_risky_after_a_roll_of_buried_dice():
    """Fast and risky 5.6 / 10.1: the check follows every roll, even one whose dice were all buried."""
    state = adjust(start(), 0, filled={"wilbur": [1, 3, 6], "doog": [2, 3, 5, 6]})
    play(state, "trick walk", "roll 1 2", "bury 1", "bury 2")
    assert dog(state, 0, "wilbur").scored and dog(state, 0, "doog").scored
    assert state.is_chance_node()  # drawing Burt, then the new top is revealed
    play(state, "reveal lief", "reveal momo")
    assert names(state, 0) == ["wilbur", "doog", "burt", "lief"]
    assert moves(state) == ["continue", "stop"]
    conserved(state)


def test_fast_and_risky_needs_every_unscored_dog_complete():
    """Fast and risky 5.6: one incomplete unscored dog means nothing scores."""
    state = adjust(start(), 0, filled={"wilbur": [1, 3], "doog": [2, 3]})
    play(state, "trick walk", "roll 2 6", "place 6 wilbur", "bury 2")
    assert not dog(state, 0, "wilbur").scored
    assert dog(state, 0, "wilbur").filled == (1, 3, 6)
    assert moves(state) == ["continue", "stop"]
    conserved(state)


def test_fast_and_risky_ignores_scored_dogs():
    """Fast and risky 5.6: only unscored dogs must be complete (a scored dog does not block it)."""
    state = adjust(start(), 0, scored=["doog"], filled={"wilbur": [1, 3]})
    play(state, "trick walk", "roll 2 6", "place 6 wilbur", "bury 2")
    assert dog(state, 0, "wilbur").scored
    assert names(state, 0) == ["wilbur", "doog", "burt"]
    play(state, "reveal lief")
    assert moves(state) == ["continue", "stop"]
    conserved(state)


def test_busting_roll_never_scores():
    """Fast and risky 5.6: a roll that busts never scores, even if every dog was completed first."""
    state = adjust(start(), 0, yard=[5], filled={"wilbur": [1, 3], "doog": [2, 3, 5, 6]})
    play(state, "trick walk", "roll 4 6", "place 6 wilbur", "bury 4")
    assert not dog(state, 0, "wilbur").scored and not dog(state, 0, "doog").scored
    assert dog(state, 0, "wilbur").filled == () and dog(state, 0, "doog").filled == ()
    assert names(state, 0) == ["wilbur", "doog"]
    assert state.deck_top == "burt"
    assert state.seat == 1 and state.phase == "turn"
    conserved(state)


# --------------------------------------------------------------------------- dog limit


def test_howl_draws_the_top_dog_below_the_limit():
    """Howl / 10.1: drawing a dog is followed by a `reveal` of the new top card, then the roll."""
    state = start()
    play(state, "trick howl")
    assert names(state, 0) == ["wilbur", "doog", "burt"]
    assert state.is_chance_node() and all(m.startswith("reveal ") for m in state.legal_actions())
    play(state, "reveal bongo")
    assert state.deck_top == "bongo"
    assert roll_size(state) == 1
    conserved(state)


def test_dog_limit_howl_draws_nothing_with_six_dogs():
    """Dog limit 5.5: a player holding 6 dogs (scored and unscored) draws nothing."""
    state = adjust(start(), 0, dogs=["wilbur", "bongo", "doog", "eloise", "mayor", "lief"])
    state = adjust(state, 0, scored=["bongo", "lief"])
    play(state, "trick howl")
    assert len(state.players[0].dogs) == 6
    assert state.deck_top == "burt"
    assert roll_size(state) == 1
    conserved(state)


# --------------------------------------------------------------------------- trick reset (3)


def test_trick_reset_puts_a_treat_on_the_last_tile_and_flips_all_up():
    """Turn start 3: with exactly one tile face up, 1 treat goes on it and every tile turns face up;
    the treats stack when it is the last tile again; the player choosing it takes them."""
    state = start(tricks=["howl", "beg"])
    play(state, "trick beg")  # seat 0 takes 1 + 3 paws
    supply = state.treat_supply
    assert state.seat == 1
    assert state.face_up == [True, True]
    assert state.tile_treats == [1, 0]
    assert supply == 20 - 2 - 4 - 1
    play(state, "trick beg")  # seat 1: 1 treat, no paws
    assert state.seat == 0
    assert state.face_up == [True, True]
    assert state.tile_treats == [2, 0]
    treats = state.players[0].treats
    play(state, "trick howl")
    assert state.players[0].treats == treats + 2
    assert state.tile_treats == [0, 0]
    assert state.face_up == [False, True]
    conserved(state)


def test_no_reset_while_two_tiles_are_face_up():
    """Turn start 3: the reset happens only when exactly one tile is face up."""
    state = start(tricks=["howl", "beg", "chew"])
    play(state, "trick beg")
    assert state.face_up == [True, False, True]
    assert state.tile_treats == [0, 0, 0]
    assert moves(state) == ["trick chew", "trick howl"]


def test_trick_reset_with_empty_treat_supply_puts_nothing():
    """Turn start 3 / 10.1: a reset with an empty treat supply puts nothing on the last tile."""
    state = start(tricks=["howl", "beg"], treats=2)
    assert state.treat_supply == 0
    play(state, "trick beg")  # takes what there is: nothing
    assert state.players[0].treats == 1
    assert state.seat == 1
    assert state.face_up == [True, True]
    assert state.tile_treats == [0, 0]
    conserved(state)


# --------------------------------------------------------------------------- running out (5.7)


def test_empty_dice_supply_at_turn_start_busts_everyone():
    """Turn start 3 / 5.7: no dice in the supply at the start of a turn: every player busts,
    then the turn goes on normally."""
    state = adjust(start(), 0, yard=[3], filled={"wilbur": [1]})
    state = adjust(state, 1, filled={"ursula": [5]}, supply_dice=0, treats=1)
    assert state.dice_supply == 0
    play(state, "trick beg")
    assert state.seat == 1 and state.phase == "turn"
    assert [p.yard for p in state.players] == [[], []]
    assert all(d.filled == () for p in state.players for d in p.dogs)
    assert state.dice_supply == 4
    assert "trick walk" in state.legal_actions()
    conserved(state)


def test_too_few_dice_roll_what_there_is():
    """Running out 5.7: with 1 die in the supply Walk rolls 1 die; its optional die is skipped
    (nothing to roll), and the next turn starts with an empty supply, so everyone busts."""
    state = adjust(start(), 0, supply_dice=1)
    play(state, "trick walk")
    assert roll_size(state) == 1
    play(state, "roll 1", "place 1 wilbur")
    # Walk's optional die would roll nothing: not asked. Seat 1 starts with no dice left.
    assert state.seat == 1 and state.phase == "turn"
    assert dog(state, 0, "wilbur").filled == ()
    assert [p.yard for p in state.players] == [[], []]
    assert state.dice_supply == state.rules.dice
    conserved(state)


def test_reroll_with_a_short_supply_rolls_the_same_dice():
    """Running out 5.7 / 4.1.2: a short roll (1 die of Walk's 2) is rerolled with its 1 die."""
    state = adjust(start(), 0, supply_dice=1)
    play(state, "trick walk", "roll 4", "reroll")
    assert roll_size(state) == 1
    play(state, "roll 6", "place 6 wilbur")
    assert state.seat == 1
    conserved(state)


def test_deck_used_up_by_the_deal_reveals_no_top_card():
    """Running out 5.7 / 10.1: when the deal empties the deck there is no top card to reveal."""
    state = new_game(players=2, deck=SMALL_DECK[:4])
    play(state, "reveal wilbur", "reveal doog", "reveal ursula", "reveal missy")
    assert state.deck_top is None
    assert roll_size(state) == 1
    play(state, "roll 2", "roll 1", "trick howl")
    assert names(state, 0) == ["wilbur", "doog"]
    assert roll_size(state) == 1
    conserved(state)


def test_too_few_treats_take_what_there_is():
    """Running out 5.7: Beg wants 4 treats (1 + 3 paws) but the supply has 1: take 1."""
    state = start(treats=3)
    assert state.treat_supply == 1
    play(state, "trick beg")
    assert state.players[0].treats == 2
    assert state.treat_supply == 0
    conserved(state)


def test_paw_prints_count_only_unscored_dogs():
    """Paw prints 5.3: only unscored dogs count (Doog 2 scored, Wilbur 1 unscored: Beg gives 1 + 1)."""
    state = start()
    play(state, "trick beg")
    assert state.players[0].treats == 1 + 1 + 3
    state = adjust(start(), 0, scored=["doog"])
    play(state, "trick beg")
    assert state.players[0].treats == 1 + 1 + 1
    conserved(state)


def test_empty_deck_draws_nothing_and_reveals_nothing():
    """Running out 5.7 / 10.1: drawing the last card asks no reveal; an empty deck draws nothing."""
    state = start(deck=SMALL_DECK, tricks=["howl", "roll-over", "beg"])
    assert state.deck_top == "burt"
    play(state, "trick howl")
    assert names(state, 0) == ["wilbur", "doog", "burt"]
    assert state.deck_top is None
    assert roll_size(state) == 1  # straight to Howl's roll: no reveal
    play(state, "roll 4", "bury 4", "trick beg")  # seat 1
    assert state.face_up == [True, True, True]  # reset: Howl is face up again
    play(state, "trick howl")  # seat 0, empty deck
    assert names(state, 0) == ["wilbur", "doog", "burt"]
    assert roll_size(state) == 1
    play(state, "roll 1", "place 1 burt")
    assert state.seat == 1
    conserved(state)


def test_score_with_empty_deck_draws_nothing():
    """Running out 5.7: scoring with an empty deck draws nothing and the turn ends."""
    state = start(deck=SMALL_DECK, tricks=["howl", "roll-over", "beg"])
    play(state, "trick howl", "roll 4", "bury 4")  # seat 0 takes Burt, the last card
    state = adjust(state, 1, filled={"ursula": [1, 5]})
    play(state, "score")
    assert dog(state, 1, "ursula").scored
    assert names(state, 1) == ["ursula", "missy"]
    assert state.seat == 0 and state.phase == "turn"
    conserved(state)


def test_safety_turn_limit_ends_game_and_leaders_share():
    """Running out 5.7 / Returns: the safety turn limit ends the game; equal leaders share 1."""
    state = start(players=3, turn_limit=2, tricks=["beg", "chew", "stay"])
    play(state, "trick beg")
    assert not state.is_terminal()
    play(state, "trick chew")
    assert state.is_terminal()
    assert state.winner is None
    assert state.returns() == [pytest.approx(1 / 3)] * 3
    assert state.legal_actions() == []
    conserved(state)


def test_safety_turn_limit_ranks_by_scored_dogs():
    """Returns: at the safety limit the players with the most scored dogs share 1."""
    state = start(players=3, turn_limit=3, tricks=["beg", "chew", "stay", "gobble"])
    state = adjust(state, 1, scored=["ursula"])
    state = adjust(state, 2, scored=["gumbo"])
    play(state, "trick beg", "trick chew", "trick stay")
    assert state.is_terminal() and state.winner is None
    assert state.returns() == [0.0, 0.5, 0.5]
    conserved(state)


# --------------------------------------------------------------------------- winning (5.8)


def test_win_by_score_at_once_before_any_draw():
    """Winning 5.8 / 10.1: reaching the target by Score wins at once; the win is checked before
    any draw (no card is drawn, no reveal); returns 1 for the winner, 0 for the others."""
    state = adjust(start(target=3), 0, dogs=["wilbur", "doog", "bongo", "ursula"])
    state = adjust(state, 0, scored=["doog", "bongo"], filled={"wilbur": [1, 3, 6]})
    play(state, "score")
    assert state.is_terminal()
    assert state.winner == 0
    assert state.returns() == [1.0, 0.0]
    assert names(state, 0) == ["wilbur", "doog", "bongo", "ursula"]
    assert state.deck_top == "burt"
    assert state.legal_actions() == []
    conserved(state)


def test_win_by_fast_and_risky_ends_the_game_mid_trick():
    """Winning 5.8: reaching the target fast and risky wins at once, before any draw;
    Walk's optional die is not played."""
    state = adjust(start(target=3), 0, dogs=["wilbur", "doog", "bongo", "ursula"])
    state = adjust(state, 0, scored=["doog", "bongo"], filled={"wilbur": [1, 3], "ursula": [1]})
    play(state, "trick walk", "roll 5 6", "place 6 wilbur", "place 5 ursula")
    assert state.is_terminal()
    assert state.winner == 0
    assert state.returns() == [1.0, 0.0]
    assert state.legal_actions() == []
    assert names(state, 0) == ["wilbur", "doog", "bongo", "ursula"]
    assert state.deck_top == "burt"
    assert state.players[0].scored_count() == 4
    conserved(state)


def test_nothing_more_is_played_after_a_win():
    """Winning 5.8: after the win no move is accepted."""
    state = adjust(start(target=1), 1, filled={"ursula": [1, 5]})
    state = adjust(state, 0, filled={"wilbur": [1, 3, 6]})
    play(state, "score")
    assert state.is_terminal()
    with pytest.raises(ValueError):
        state.apply_action("trick walk")
    assert state.returns() == [1.0, 0.0]
    assert dog(state, 1, "ursula").filled == (1, 5)


def test_returns_are_zero_before_the_end():
    """Returns: nothing is paid out while the game goes on."""
    state = start()
    assert state.returns() == [0.0, 0.0]
    assert state.winner is None


# --------------------------------------------------------------------------- variants (9)


@pytest.mark.parametrize(("target", "limit"), [(1, 6), (3, 6), (6, 6), (8, 8), (10, 10)])
def test_target_variants_and_dog_limit(target, limit):
    """Variants 9: targets 1/3/6/8/10; above 6 the dog limit rises to the target."""
    rules = spots.Rules(target=target)
    assert rules.target == target
    assert rules.dog_limit == limit


def test_target_one_first_score_wins():
    """Variants 9: with target 1 the first dog scored wins."""
    state = adjust(start(target=1), 0, filled={"wilbur": [1, 3]})
    play(state, "trick walk", "roll 5 6", "place 6 wilbur")
    assert not state.is_terminal()  # the 5 is still unresolved (doog incomplete: no fast and risky)
    play(state, "place 5 doog", "continue", "roll 4", "bury 4")
    assert not state.is_terminal()
    assert state.seat == 1
    play(state, "trick beg", "score")
    assert state.is_terminal() and state.winner == 0
    assert state.returns() == [1.0, 0.0]
    conserved(state)


def test_target_eight_dog_limit_lets_a_seventh_dog_be_drawn():
    """Variants 9: with target 8 the dog limit is 8: Howl draws a 7th and an 8th dog, not a 9th."""
    pack = ["wilbur", "bongo", "doog", "ursula", "missy", "lief"]
    state = adjust(start(target=8, tricks=["howl", "beg"], deal=[["wilbur", "doog"], ["gumbo", "frankie"]]), 0,
                   dogs=pack)
    play(state, "trick howl", "reveal momo", "roll 4", "bury 4")
    assert len(state.players[0].dogs) == 7
    play(state, "trick beg")  # seat 1; the reset turns Howl face up again for seat 0
    play(state, "trick howl", "reveal zipper", "roll 3", "place 3 doog")
    assert len(state.players[0].dogs) == 8
    assert state.deck_top == "zipper"
    play(state, "trick beg", "trick howl")
    assert len(state.players[0].dogs) == 8
    assert state.deck_top == "zipper"
    assert roll_size(state) == 1  # no reveal: straight to the roll
    conserved(state)


def test_target_ten_score_draws_up_to_ten_dogs():
    """Variants 9: with target 10 the dog limit is 10: 9 dogs scoring 2 draw 1."""
    pack = ["wilbur", "bongo", "doog", "ursula", "missy", "lief", "momo", "raya", "zipper"]
    state = adjust(start(target=10), 0, dogs=pack)
    state = adjust(state, 0, filled={"bongo": [1, 3], "ursula": [1, 5]})
    play(state, "score")
    assert len(state.players[0].dogs) == 10
    play(state, "reveal gumbo")
    assert len(state.players[0].dogs) == 10
    assert state.seat == 1
    conserved(state)


def test_solo_game_setup_and_turns():
    """Variants 9: a solo game deals 2 dogs, reveals the top, rolls 1 die; every turn is seat 0's."""
    state = new_game(players=1)
    play(state, "reveal wilbur", "reveal doog", "reveal burt", "roll 6")
    assert state.phase == "turn" and state.seat == 0 and state.turn == 1
    assert state.players[0].yard == [6] and state.players[0].treats == 1
    play(state, "trick beg")
    assert state.seat == 0 and state.turn == 2
    play(state, "trick walk", "roll 2 3", "place 2 doog", "place 3 wilbur", "stop")
    assert state.seat == 0 and state.turn == 3
    conserved(state)


def test_solo_game_win():
    """Variants 9 / 5.8: a solo player reaching the target wins; returns [1]."""
    state = adjust(start(players=1, target=2), 0, scored=["doog"], filled={"wilbur": [1, 3, 6]})
    play(state, "score")
    assert state.is_terminal() and state.winner == 0
    assert state.returns() == [1.0]
    conserved(state)


# --------------------------------------------------------------------------- rules options


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"players": 0}, "players"),
        ({"players": 5}, "players"),
        ({"target": 0}, "target"),
        ({"tricks": "no-such-set"}, "trick"),
        ({"tricks": ["howl", "walk", "howl"]}, "trick"),
        ({"tricks": ["howl"]}, "trick"),
        ({"tricks": []}, "trick"),
        ({"tricks": ["howl", "fly"]}, "fly"),
        ({"tricks": "random:1"}, "random"),
        ({"tricks": "random:23"}, "random"),
        ({"bust_limit": -1}, "bust_limit"),
        ({"starting_treats": 11}, "starting_treats"),
        ({"players": 4, "treats": 3}, "starting_treats"),
        ({"players": "2"}, "players"),
        ({"players": 2.0}, "players"),
        ({"target": 6.5}, "target"),
        ({"bust_limit": "7"}, "bust_limit"),
        ({"dice": None}, "dice"),
        ({"treats": 1.5}, "treats"),
        ({"turn_limit": True}, "turn_limit"),
        ({"tricks": 6}, "tricks"),
        ({"tricks": "random", "tricks_seed": "x"}, "tricks_seed"),
    ],
)
def test_bad_rules_options_raise_rules_error(options, named):
    """Rules options: every bad value raises RulesError (a ValueError) naming the option."""
    with pytest.raises(spots.RulesError) as info:
        spots.Rules(**options)
    assert isinstance(info.value, ValueError)
    assert named in str(info.value)


@pytest.mark.parametrize(
    "content",
    [
        "not json at all",
        json.dumps({"cards": []}),
        json.dumps({"cards": [{"name": "Rex", "spaces": [7]}]}),
        json.dumps({"cards": [{"name": "Rex", "spaces": [1, 1]}]}),
        json.dumps({"cards": [{"name": "Rex", "spaces": [1]}, {"name": "rex", "spaces": [2]}]}),
        json.dumps({"cards": [{"spaces": [1]}]}),
        json.dumps({"cards": [{"name": "Rex", "spaces": [1], "paws": -1}]}),
    ],
)
def test_malformed_custom_deck_file_raises_rules_error(tmp_path, content):
    """Rules options: a malformed deck file raises RulesError naming the file."""
    path = tmp_path / "dogs.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(spots.RulesError) as info:
        spots.Rules(deck=str(path))
    assert str(path) in str(info.value)


def test_missing_deck_file_and_too_small_deck_raise_rules_error(tmp_path):
    """Rules options: an unreadable deck file, or a deck too small to deal, raises RulesError."""
    with pytest.raises(spots.RulesError, match="deck"):
        spots.Rules(deck=str(tmp_path / "missing.json"))
    path = tmp_path / "dogs.json"
    path.write_text(json.dumps({"cards": SMALL_DECK[:3]}), encoding="utf-8")
    with pytest.raises(spots.RulesError, match="deck"):
        spots.Rules(deck=str(path), players=2)


def test_random_tricks_with_seed():
    """Rules options: `random` is Howl, Roll Over and one tile per colour, reproducible by seed."""
    rules = spots.Rules(tricks="random", tricks_seed=7)
    assert len(rules.tricks) == 6 and rules.tricks[:2] == ("howl", "roll-over")
    colours = sorted(spots.TILES[t].colour for t in rules.tricks[2:])
    assert colours == ["blue", "green", "purple", "yellow"]
    assert spots.Rules(tricks="random", tricks_seed=7).tricks == rules.tricks


def test_random_n_tricks():
    """Rules options / variants 9: `random:8` draws 8 distinct tiles."""
    rules = spots.Rules(tricks="random:8", tricks_seed=3)
    assert len(rules.tricks) == 8 and len(set(rules.tricks)) == 8
    assert all(t in spots.TILES for t in rules.tricks)
    state = start(tricks="random:8", tricks_seed=3)
    assert moves(state) == sorted(f"trick {t}" for t in rules.tricks)


def test_trick_list_option():
    """Rules options: a list of tile names (any 2 to 22 distinct tiles) is accepted."""
    rules = spots.Rules(tricks=["Roll Over", "chase", "play-dead"])
    assert rules.tricks == ("roll-over", "chase", "play-dead")
    assert len(spots.Rules(tricks="all").tricks) == 22


@pytest.mark.parametrize(
    ("name", "colours"),
    [
        ("beginner", ("walk", "run", "beg", "fetch")),
        ("adoption-event", ("walk", "run", "beg", "fetch")),
        ("dog-park", ("dig", "chase", "chew", "guard")),
        ("agility-course", ("trot", "bolt", "gobble", "fetch")),
        ("hunting", ("retrieve", "sprint", "stay", "hunt")),
        ("kennel-club", ("track", "dogpile", "beg", "search")),
        ("puppy-pen", ("retrieve", "bolt", "play-dead", "scavenge")),
    ],
)
def test_suggested_trick_sets(name, colours):
    """Rules options / 6: every suggested set is Howl, Roll Over and its four tiles."""
    assert spots.Rules(tricks=name).tricks == ("howl", "roll-over", *colours)


def test_custom_deck_file_works(tmp_path):
    """Rules options: a custom deck file is used for dealing, drawing and paw prints."""
    deck = [
        {"name": "Rex", "spaces": [1, 2], "paws": 3},
        {"name": "Fido", "spaces": [6], "paws": 0},
        {"name": "Spot", "spaces": [3, 4], "paws": 0},
        {"name": "Lady", "spaces": [5], "paws": 0},
        {"name": "Old Yeller", "spaces": [2, 4, 6], "paws": 1},
        {"name": "Tramp", "spaces": [1, 6], "paws": 0},
    ]
    path = tmp_path / "my-dogs.json"
    path.write_text(json.dumps({"cards": deck}), encoding="utf-8")
    state = new_game(deck=str(path))
    assert len(state.legal_actions()) == 6
    play(state, "reveal rex", "reveal fido", "reveal spot", "reveal lady", "reveal old-yeller", "roll 3", "roll 1")
    assert dog(state, 0, "rex").spaces == (1, 2)
    assert state.deck_top == "old-yeller"
    play(state, "trick beg")
    assert state.players[0].treats == 1 + 1 + 3
    play(state, "trick howl")
    assert names(state, 1) == ["spot", "lady", "old-yeller"]
    assert state.legal_actions() == ["reveal tramp"]
    conserved(state)
