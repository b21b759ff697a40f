"""Scenario tests for the 22 trick tiles (rules sections 4, 5, 6 and 10.1).

Every scenario is driven through the move notation. Unless a test changes it,
the table built by ``start`` is: seat 0 holds Wilbur (1,3,6; 1 paw) and Doog
(2,3,5,6; 2 paws), 3 paws in all, a buried 3 and 1 treat; seat 1 holds Ursula
(1,5) and Missy (3,4), no paws, a buried 2 and 1 treat; the deck's top card is
Burt (1); 38 dice and 18 treats are in the supply; seat 0 is to play.
"""

from __future__ import annotations

import pytest

from spots.games.spots.errors import IllegalMoveError
from spots.games.spots.state import State
from support.spots import adjust, play, start


def game(*tiles: str, **options) -> State:
    """Seat 0's first turn with Howl, Roll Over and the given tiles in play."""
    tricks = list(dict.fromkeys(["howl", "roll-over", *tiles]))
    return start(tricks=tricks, **options)


def conserved(state: State) -> None:
    assert state.dice_total() == state.rules.dice
    assert state.treats_total() == state.rules.treats


def same(actual: list[str], expected: list[str]) -> None:
    """The legal moves are exactly these (order aside, no duplicates)."""
    assert len(actual) == len(set(actual)), actual
    assert sorted(actual) == sorted(expected)


def turn_passed(state: State, seat: int = 1) -> bool:
    return state.phase == "turn" and state.seat == seat and state.turn == 2


SMALL_DECK = [
    {"name": "Wilbur", "spaces": [1, 3, 6], "paws": 1}, {"name": "Doog", "spaces": [2, 3, 5, 6], "paws": 2},
    {"name": "Ursula", "spaces": [1, 5], "paws": 0}, {"name": "Missy", "spaces": [3, 4], "paws": 0},
    {"name": "Burt", "spaces": [1], "paws": 0},
]
"""The four dealt dogs plus Burt on top: one Howl empties the deck."""


def dogs(state: State, seat: int) -> dict[str, tuple[int, ...]]:
    return {d.name: d.filled for d in state.players[seat].dogs}


# ----------------------------------------------------------------- Howl


def test_howl_draws_top_dog_reveals_new_top_then_rolls_one():
    """Howl: with fewer dogs than the limit, draw the top dog (then a reveal), then roll 1 die."""
    s = game()
    play(s, "trick howl")
    assert [d.name for d in s.players[0].dogs] == ["wilbur", "doog", "burt"]
    assert s.phase == "chance-reveal" and s.deck_top is None
    play(s, "reveal bongo")
    assert s.deck_top == "bongo"
    assert s.is_chance_node() and s.pending_dice == 1
    play(s, "roll 1")
    same(s.legal_actions(), ["reroll", "place 1 wilbur", "place 1 burt", "bury 1"])
    play(s, "place 1 burt")
    assert dogs(s, 0)["burt"] == (1,)
    assert turn_passed(s)
    conserved(s)


def test_howl_at_dog_limit_draws_nothing():
    """Howl: holding the dog limit (6), no dog is drawn; the die is still rolled."""
    s = game()
    s = adjust(s, 0, dogs=["wilbur", "doog", "bongo", "eloise", "mayor", "louise"])
    play(s, "trick howl")
    assert len(s.players[0].dogs) == 6
    assert s.deck_top == "burt"
    assert s.is_chance_node() and s.pending_dice == 1
    conserved(s)


def test_howl_with_an_empty_deck_draws_nothing_and_reveals_nothing():
    """Howl: an empty deck draws nothing (5.7) and there is no reveal; the die is rolled."""
    s = game(deck=SMALL_DECK)
    play(s, "trick howl")  # seat 0 draws Burt, the last card
    assert s.deck_top is None and s.is_chance_node() and s.pending_dice == 1
    play(s, "roll 1", "place 1 burt")
    play(s, "trick roll-over")  # seat 1: Howl is face down; Roll Over rerolls the buried 2
    play(s, "roll 5", "place 5 ursula", "stop")
    play(s, "trick howl")  # seat 0, after the reset
    assert len(s.players[0].dogs) == 3
    assert s.is_chance_node() and s.pending_dice == 1
    conserved(s)


# ----------------------------------------------------------------- Roll Over


def test_roll_over_rolls_whole_yard_then_offers_one_die():
    """Roll Over: every yard die is rolled (treat reroll allowed), placed or reburied; then `continue` rolls 1."""
    s = adjust(game(), 0, yard=[2, 3])
    play(s, "trick roll-over")
    assert s.players[0].yard == []
    assert s.pending_dice == 2
    play(s, "roll 1 6")
    assert "reroll" in s.legal_actions()
    play(s, "place 1 wilbur", "bury 6")
    assert s.players[0].yard == [6]
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "continue")
    assert s.pending_dice == 1
    play(s, "roll 5", "place 5 doog")
    assert dogs(s, 0) == {"wilbur": (1,), "doog": (5,)}
    assert turn_passed(s)
    conserved(s)


def test_roll_over_with_empty_yard_skips_to_the_optional_die():
    """Roll Over: a roll of 0 dice is skipped; the optional 1-die roll is still offered."""
    s = adjust(game(), 0, yard=[])
    play(s, "trick roll-over")
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "stop")
    assert turn_passed(s)
    conserved(s)


# ----------------------------------------------------------------- Walk


def test_roll_over_bust_on_reburial_ends_the_turn():
    """Roll Over: a reburial over the limit busts at once; the roll's other dice return, no optional die."""
    s = adjust(game(), 0, yard=[2, 3, 3], filled={"wilbur": [1]})
    play(s, "trick roll-over", "roll 4 5 6", "bury 4", "bury 5")
    assert turn_passed(s)
    assert s.players[0].yard == [] and dogs(s, 0)["wilbur"] == ()
    conserved(s)


def test_walk_rolls_two_then_one_optional_die_once():
    """Walk: roll 2 dice, then `continue`/`stop` for 1 die, offered once only."""
    s = game("walk")
    play(s, "trick walk")
    assert s.pending_dice == 2
    play(s, "roll 2 6", "place 2 doog", "place 6 wilbur")
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "continue")
    assert s.pending_dice == 1
    play(s, "roll 1", "bury 1")
    assert s.players[0].yard == [3, 1]
    assert turn_passed(s)  # no second offer
    conserved(s)


def test_walk_reroll_only_before_any_die_is_resolved():
    """4.1: a treat rerolls all dice of the roll, only before any of its dice is placed or buried."""
    s = adjust(game("walk"), 0, treats=2)
    play(s, "trick walk", "roll 2 6", "reroll")
    assert s.players[0].treats == 1 and s.pending_dice == 2
    play(s, "roll 1 4")
    assert "reroll" in s.legal_actions()
    play(s, "place 1 wilbur")
    same(s.legal_actions(), ["bury 4"])
    conserved(s)


def test_walk_stop_declines_the_optional_die():
    """Walk: `stop` declines the optional die and the turn ends."""
    s = game("walk")
    play(s, "trick walk", "roll 2 6", "place 2 doog", "place 6 wilbur", "stop")
    assert turn_passed(s)
    assert s.dice_supply == 36
    conserved(s)


def test_walk_optional_die_not_offered_when_supply_is_empty():
    """Fine point: `continue`/`stop` is asked only when another roll would roll at least one die."""
    s = adjust(game("walk"), 0, supply_dice=2)
    play(s, "trick walk")
    assert s.pending_dice == 2
    play(s, "roll 2 6", "place 2 doog", "place 6 wilbur")
    assert s.history()[-1] == "place 6 wilbur"  # no `continue`/`stop` was asked
    assert turn_passed(s)
    assert s.players[0].yard == [] and dogs(s, 0) == {"wilbur": (), "doog": ()}  # empty supply: all bust
    conserved(s)


# ----------------------------------------------------------------- Trot


def test_trot_offers_every_move_or_stop_then_rolls_two():
    """Trot: `move <dog> v <dog> w` for every die and every empty space (its own dog too), or `stop`."""
    s = adjust(game("trot"), 0, filled={"wilbur": [3]})
    play(s, "trick trot")
    same(s.legal_actions(), [
        "move wilbur 3 wilbur 1", "move wilbur 3 wilbur 6",
        "move wilbur 3 doog 2", "move wilbur 3 doog 3", "move wilbur 3 doog 5", "move wilbur 3 doog 6",
        "stop",
    ])
    play(s, "move wilbur 3 doog 6")
    assert dogs(s, 0) == {"wilbur": (), "doog": (6,)}
    assert s.pending_dice == 2
    conserved(s)


def test_trot_stop_keeps_dice_and_rolls_two():
    """Trot: `stop` skips the move; the 2 dice are still rolled."""
    s = adjust(game("trot"), 0, filled={"wilbur": [3]})
    play(s, "trick trot", "stop")
    assert dogs(s, 0)["wilbur"] == (3,)
    assert s.pending_dice == 2
    conserved(s)


def test_trot_without_dice_on_dogs_goes_straight_to_the_roll():
    """Trot: nothing to move is nothing to decide; the step is skipped silently."""
    s = game("trot")
    play(s, "trick trot")
    assert s.is_chance_node() and s.pending_dice == 2
    conserved(s)


# ----------------------------------------------------------------- Dig


def test_dig_offers_every_buried_die_of_every_seat_no_raise_on_six():
    """Dig: `dig <seat> v up|down` for every buried die of every seat, no `up` on a 6, or `stop`."""
    s = adjust(game("dig"), 1, yard=[1, 6])
    play(s, "trick dig")
    same(s.legal_actions(), [
        "dig 0 3 up", "dig 0 3 down", "dig 1 1 up", "dig 1 1 down", "dig 1 6 down", "stop",
    ])
    conserved(s)


def test_dig_lowering_a_one_returns_it_to_the_supply():
    """Dig: lowering a 1 returns the die to the supply."""
    s = adjust(game("dig"), 1, yard=[1, 6])
    supply = s.dice_supply
    play(s, "trick dig", "dig 1 1 down")
    assert s.players[1].yard == [6]
    assert s.dice_supply == supply + 1
    conserved(s)


def test_dig_makes_as_many_adjustments_as_paws_then_rolls_two():
    """Dig: as many adjustments as paws at the start (3 here), to any dice and players, then roll 2."""
    s = game("dig")
    play(s, "trick dig", "dig 1 2 up", "dig 0 3 down")
    assert s.phase == "dig"
    play(s, "dig 1 3 up")
    assert s.players[0].yard == [2]
    assert s.players[1].yard == [4]
    assert s.is_chance_node() and s.pending_dice == 2
    conserved(s)


def test_dig_stop_ends_the_adjustments():
    """Dig: `stop` gives up the remaining adjustments; the 2 dice are rolled."""
    s = game("dig")
    play(s, "trick dig", "stop")
    assert s.players[0].yard == [3] and s.players[1].yard == [2]
    assert s.pending_dice == 2
    conserved(s)


def test_dig_without_paws_is_skipped():
    """Dig: with no paws there is no adjustment to make; straight to the roll of 2."""
    s = adjust(game("dig"), 0, dogs=["bongo", "eloise"])
    play(s, "trick dig")
    assert s.pending_dice == 2
    conserved(s)


def test_dig_busting_another_player_takes_their_dice_and_the_turn_goes_on():
    """Dig: raising another player's die over 7 busts them at once (dogs and yard); the trick goes on."""
    s = adjust(game("dig"), 1, yard=[1, 6], filled={"ursula": [5]})
    play(s, "trick dig", "dig 1 1 up")
    assert s.players[1].yard == []
    assert dogs(s, 1) == {"ursula": (), "missy": ()}
    assert s.seat == 0 and s.phase == "dig"
    same(s.legal_actions(), ["dig 0 3 up", "dig 0 3 down", "stop"])
    play(s, "stop")
    assert s.pending_dice == 2
    conserved(s)


def test_dig_to_exactly_seven_is_no_bust():
    """Dig: a yard raised to exactly 7 (the bust limit) is safe: only a total above it busts (5.4)."""
    s = adjust(game("dig"), 1, yard=[1, 5], filled={"ursula": [5]})
    play(s, "trick dig", "dig 1 1 up")
    assert s.players[1].yard == [2, 5] and dogs(s, 1)["ursula"] == (5,)  # seat 1 keeps its dice
    conserved(s)
    s = adjust(game("dig"), 0, yard=[1, 5], filled={"wilbur": [3]})
    play(s, "trick dig", "dig 0 1 up")  # its own yard to exactly 7: the trick goes on
    assert s.players[0].yard == [2, 5] and dogs(s, 0)["wilbur"] == (3,)
    assert s.seat == 0 and s.phase == "dig"
    conserved(s)


def test_dig_busting_yourself_ends_the_turn():
    """Dig: busting yourself ends the turn at once, without the roll of 2."""
    s = adjust(game("dig"), 0, yard=[1, 6], filled={"wilbur": [3]})
    play(s, "trick dig", "dig 0 1 up")
    assert s.players[0].yard == []
    assert dogs(s, 0)["wilbur"] == ()
    assert turn_passed(s)
    conserved(s)


# ----------------------------------------------------------------- Retrieve


def test_retrieve_sets_a_die_to_a_top_card_number_without_reroll():
    """Retrieve: `choose v` for each number on the top card; the die leaves the supply; no treat reroll."""
    s = game("retrieve", top="honcho")
    supply = s.dice_supply
    play(s, "trick retrieve")
    assert s.legal_actions() == ["choose 1", "choose 4", "choose 6"]
    assert s.dice_supply == supply - 1
    conserved(s)
    play(s, "choose 6")
    same(s.legal_actions(), ["place 6 wilbur", "place 6 doog", "bury 6"])  # a treat is held, no reroll
    play(s, "place 6 doog")
    assert dogs(s, 0)["doog"] == (6,)
    assert s.is_chance_node() and s.pending_dice == 2
    conserved(s)


def test_retrieve_die_burial_can_bust():
    """Retrieve: burying the retrieved die over the limit busts; the turn ends without the roll of 2."""
    s = adjust(game("retrieve", top="honcho"), 0, yard=[3, 2])
    play(s, "trick retrieve", "choose 4", "bury 4")
    assert turn_passed(s)
    assert s.players[0].yard == []
    conserved(s)


def test_retrieve_die_is_checked_for_fast_and_risky():
    """5.6: after Retrieve's die, every unscored dog complete scores at once; the trick goes on with new dogs."""
    s = adjust(game("retrieve", top="honcho"), 0, filled={"wilbur": [1, 3], "doog": [2, 3, 5, 6]})
    supply = s.dice_supply
    play(s, "trick retrieve", "choose 6", "place 6 wilbur")
    assert [d.scored for d in s.players[0].dogs] == [True, True, False]
    assert s.players[0].dogs[2].name == "honcho"
    play(s, "reveal bongo")  # the second draw takes Bongo
    play(s, "reveal eloise")
    assert [d.name for d in s.players[0].dogs] == ["wilbur", "doog", "honcho", "bongo"]
    assert s.is_chance_node() and s.pending_dice == 2
    assert s.dice_supply == supply + 6 - 2
    conserved(s)


def test_retrieve_is_skipped_when_the_deck_is_empty():
    """Retrieve: with no top card the step is skipped; the 2 dice are still rolled."""
    s = game("retrieve", deck=SMALL_DECK)
    play(s, "trick howl")  # draws Burt, the last card: nothing to reveal
    assert s.deck_top is None
    play(s, "roll 4", "bury 4")
    assert s.seat == 1
    play(s, "trick retrieve")
    assert s.is_chance_node() and s.pending_dice == 2
    conserved(s)


def test_retrieve_is_skipped_when_the_supply_is_empty():
    """Retrieve: skipped when the supply is empty (then the next turn starts with everyone busting)."""
    s = adjust(game("retrieve"), 0, supply_dice=0)
    play(s, "trick retrieve")
    assert turn_passed(s)
    assert s.players[0].yard == [] and s.players[1].yard == []  # section 3: empty supply busts all
    conserved(s)


# ----------------------------------------------------------------- Track


def test_track_offers_reroll_of_every_nonempty_part_and_no_bare_reroll():
    """Track: `reroll <dice>` for every non-empty part of the roll, the whole roll included; no bare `reroll`."""
    s = game("track")
    play(s, "trick track")
    assert s.pending_dice == 3
    play(s, "roll 2 2 5")
    rerolls = [m for m in s.legal_actions() if m.startswith("reroll")]
    same(rerolls, ["reroll 2", "reroll 5", "reroll 2 2", "reroll 2 5", "reroll 2 2 5"])
    with pytest.raises(IllegalMoveError):
        s.apply_action("reroll")
    conserved(s)


def test_track_partial_reroll_keeps_the_other_dice():
    """Track: a treat rerolls only the chosen dice; the others stay in the roll."""
    s = game("track")
    play(s, "trick track", "roll 2 2 5", "reroll 2 5")
    assert s.players[0].treats == 0
    assert s.pending_dice == 2
    conserved(s)
    play(s, "roll 1 6")
    same(s.legal_actions(), [
        "place 1 wilbur", "bury 1", "place 2 doog", "bury 2", "place 6 wilbur", "place 6 doog", "bury 6",
    ])
    play(s, "place 1 wilbur", "place 2 doog", "place 6 wilbur")
    assert dogs(s, 0) == {"wilbur": (1, 6), "doog": (2,)}
    assert turn_passed(s)
    conserved(s)


# ----------------------------------------------------------------- Run


def test_run_rolls_three_then_one_die_as_often_as_you_like():
    """Run: roll 3, then `continue` rolls 1 die, offered again after each roll until `stop`."""
    s = game("run")
    play(s, "trick run")
    assert s.pending_dice == 3
    play(s, "roll 1 2 3", "place 1 wilbur", "place 2 doog", "place 3 wilbur")
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "continue")
    assert s.pending_dice == 1
    play(s, "roll 3", "place 3 doog")
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "continue")
    assert s.pending_dice == 1
    play(s, "roll 1", "bury 1")
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "stop")
    assert turn_passed(s)
    conserved(s)


# ----------------------------------------------------------------- Chase


def test_chase_each_roll_has_one_more_die():
    """Chase: roll 1 die; each repeat rolls 1 more die than the time before (2, 3, ...)."""
    s = game("chase")
    play(s, "trick chase")
    assert s.pending_dice == 1
    play(s, "roll 6", "place 6 wilbur", "continue")
    assert s.pending_dice == 2
    play(s, "roll 1 2", "place 1 wilbur", "place 2 doog", "continue")
    assert s.pending_dice == 3
    play(s, "roll 3 3 5", "place 3 wilbur", "place 3 doog", "place 5 doog")
    assert s.players[0].dogs[0].filled == (1, 3, 6)
    conserved(s)


def test_chase_not_offered_again_when_the_supply_is_empty():
    """Fine point: `continue`/`stop` only when another roll would roll at least one die."""
    s = adjust(game("chase"), 0, supply_dice=1)
    play(s, "trick chase", "roll 6", "place 6 wilbur")
    assert s.history()[-1] == "place 6 wilbur"
    assert s.seat == 1
    conserved(s)


def test_chase_nth_roll_asks_n_dice_after_a_short_roll():
    """Fine point: Chase's n-th roll asks for n dice even if an earlier roll came up short."""
    s = adjust(game("chase"), 0, dogs=["doog"], filled={"doog": [2, 3, 5]}, yard=[], supply_dice=2)
    play(s, "trick chase", "roll 4", "bury 4", "continue")
    assert s.pending_dice == 1  # the 2nd roll is short: 1 die left in the supply
    play(s, "roll 6", "place 6 doog")  # Doog is complete: fast and risky scores it, 4 dice return
    assert s.players[0].dogs[0].scored
    play(s, "reveal bongo")  # Burt was drawn; a new top card is revealed
    assert s.dice_supply == 4
    play(s, "continue")
    assert s.pending_dice == 3
    conserved(s)


def test_chase_stop_ends_the_trick():
    """Chase: `stop` ends the trick."""
    s = game("chase")
    play(s, "trick chase", "roll 6", "place 6 wilbur", "stop")
    assert turn_passed(s)
    conserved(s)


# ----------------------------------------------------------------- Bolt


def test_bolt_set_aside_from_three_to_twelve():
    """Bolt: `set-aside n` for n from 3 to 12."""
    s = game("bolt")
    play(s, "trick bolt")
    assert s.legal_actions() == [f"set-aside {n}" for n in range(3, 13)]
    conserved(s)


def test_bolt_set_aside_limited_by_the_supply():
    """Bolt: only as many dice as the supply allows may be set aside."""
    s = adjust(game("bolt"), 0, supply_dice=5)
    play(s, "trick bolt")
    assert s.legal_actions() == ["set-aside 3", "set-aside 4", "set-aside 5"]
    conserved(s)


def test_bolt_with_exactly_three_dice_in_the_supply_asks_for_the_set_aside():
    """Bolt: with exactly 3 dice left the only choice, `set-aside 3`, is still asked (10.1); then one at a time."""
    s = adjust(game("bolt"), 0, supply_dice=3)
    play(s, "trick bolt")
    assert s.phase == "bolt" and s.legal_actions() == ["set-aside 3"]
    assert s.dice_supply == 3
    play(s, "set-aside 3")
    assert s.is_chance_node() and s.pending_dice == 1 and s.dice_supply == 0
    conserved(s)


def test_bolt_with_fewer_than_three_dice_sets_all_aside_without_asking():
    """Bolt: with fewer than 3 dice left all are set aside without asking; the first die is always rolled."""
    s = adjust(game("bolt"), 0, supply_dice=2)
    play(s, "trick bolt")
    assert s.is_chance_node() and s.pending_dice == 1
    assert s.dice_supply == 0
    conserved(s)


def test_bolt_always_rolls_its_first_die():
    """Fine point: Bolt always rolls its first die, even when paws (3) cover every set-aside die."""
    s = game("bolt")
    play(s, "trick bolt", "set-aside 3")
    assert s.is_chance_node() and s.pending_dice == 1
    play(s, "roll 6", "place 6 wilbur")
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "continue", "roll 5", "place 5 doog", "continue", "roll 2", "place 2 doog")
    assert turn_passed(s)  # nothing left to roll: no offer
    conserved(s)


def test_bolt_win_draws_nothing_and_returns_the_set_aside_dice():
    """Fine point: the win is checked when dogs score, before any draw; set-aside dice return."""
    s = adjust(game("bolt", target=1), 0, dogs=["bongo"], filled={"bongo": [3]})
    play(s, "trick bolt", "set-aside 6", "roll 1", "place 1 bongo")
    assert s.is_terminal() and s.returns() == [1.0, 0.0]
    assert [d.name for d in s.players[0].dogs] == ["bongo"]
    assert s.deck_top == "burt"
    assert s.dice_supply == s.rules.dice - 2  # only the two buried dice are out
    conserved(s)


def test_bolt_stop_offered_only_while_paws_cover_the_dice_left():
    """Bolt: dice roll one at a time; `continue`/`stop` only while paws (3) >= dice left, else auto-roll."""
    s = game("bolt")
    supply = s.dice_supply
    play(s, "trick bolt", "set-aside 5")
    assert s.is_chance_node() and s.pending_dice == 1
    play(s, "roll 1", "place 1 wilbur")  # 4 left > 3 paws: rolled without asking
    assert s.is_chance_node() and s.pending_dice == 1
    play(s, "roll 2", "place 2 doog")  # 3 left: the player may stop
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "stop")  # the 3 unrolled dice return to the supply
    assert s.dice_supply == supply - 2
    assert turn_passed(s)
    conserved(s)


def test_bolt_without_paws_rolls_every_die():
    """Bolt: with no paws the player can never stop early; every set-aside die is rolled."""
    s = adjust(game("bolt"), 0, dogs=["bongo", "eloise"])
    play(s, "trick bolt", "set-aside 3")
    for face, dog in ((1, "bongo"), (3, "bongo"), (4, "eloise")):
        assert s.is_chance_node() and s.pending_dice == 1
        play(s, f"roll {face}", f"place {face} {dog}")
    assert dogs(s, 0) == {"bongo": (1, 3), "eloise": (4,)}
    assert turn_passed(s)
    conserved(s)


def test_bolt_bust_returns_the_set_aside_dice():
    """Bolt: a bust ends the turn at once; dice still set aside return to the supply."""
    s = adjust(game("bolt"), 0, yard=[6], filled={"wilbur": [1]})
    supply = s.dice_supply
    play(s, "trick bolt", "set-aside 8", "roll 2", "bury 2")
    assert turn_passed(s)
    assert s.dice_supply == supply + 2  # the yard 6 and Wilbur's 1 came back too
    conserved(s)


# ----------------------------------------------------------------- Dogpile


def test_dogpile_take_is_asked_and_required_when_you_have_a_die():
    """Dogpile: `take yard v` / `take <dog> v` for each die you could take, no way to skip; then roll 3."""
    s = adjust(game("dogpile"), 0, filled={"wilbur": [1]})
    play(s, "trick dogpile")
    same(s.legal_actions(), ["take yard 3", "take wilbur 1"])
    play(s, "take wilbur 1")
    assert dogs(s, 0)["wilbur"] == ()
    assert s.is_chance_node() and s.pending_dice == 3
    conserved(s)
    play(s, "roll 1 5 6", "place 1 wilbur", "place 5 doog", "place 6 wilbur")
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "continue")
    same(s.legal_actions(), [
        "take yard 3", "take wilbur 1", "take wilbur 6", "take doog 5",
    ])
    play(s, "take yard 3")
    assert s.players[0].yard == []
    assert s.pending_dice == 3
    conserved(s)


def test_dogpile_without_a_die_to_take_rolls_two():
    """Dogpile: the take is asked only when you have a die; otherwise 2 dice are rolled."""
    s = adjust(game("dogpile"), 0, yard=[])
    play(s, "trick dogpile")
    assert s.is_chance_node() and s.pending_dice == 2
    play(s, "roll 2 3", "place 2 doog", "place 3 doog", "continue")
    same(s.legal_actions(), ["take doog 2", "take doog 3"])
    conserved(s)


def test_dogpile_with_an_empty_supply_still_offers_the_taken_die():
    """Dogpile: with the supply empty, another roll still rolls the taken die, so `continue` is asked."""
    s = adjust(game("dogpile"), 0, yard=[], supply_dice=2)
    play(s, "trick dogpile", "roll 2 3", "place 2 doog", "place 3 doog")
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "continue", "take doog 3")
    assert s.pending_dice == 1
    play(s, "roll 5", "place 5 doog")
    same(s.legal_actions(), ["continue", "stop"])
    conserved(s)


# ----------------------------------------------------------------- Sprint


def test_sprint_rolls_one_die_per_dog_with_an_empty_space_counted_anew():
    """Sprint: 1 die per unscored dog with an empty space; the count is taken anew for each repeat."""
    s = adjust(game("sprint"), 0, filled={"wilbur": [1, 3]})
    play(s, "trick sprint")
    assert s.pending_dice == 2
    play(s, "roll 5 6", "place 6 wilbur", "place 5 doog")
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "continue")
    assert s.pending_dice == 1  # Wilbur is full now
    conserved(s)


def test_sprint_count_after_fast_and_risky_uses_the_new_dogs():
    """Sprint: the count is taken anew; after fast-and-risky scoring, the newly drawn dog counts."""
    s = adjust(game("sprint"), 0, dogs=["bongo"], filled={"bongo": [1]})
    play(s, "trick sprint")
    assert s.pending_dice == 1
    play(s, "roll 3", "place 3 bongo")  # Bongo scores; Burt is drawn
    play(s, "reveal eloise")
    assert [d.name for d in s.players[0].dogs] == ["bongo", "burt"]
    same(s.legal_actions(), ["continue", "stop"])
    play(s, "continue")
    assert s.pending_dice == 1
    conserved(s)


# ----------------------------------------------------------------- Beg, Chew, Gobble


def test_beg_takes_one_treat_plus_one_per_paw():
    """Beg: take 1 treat, then 1 more per paw (3 paws: 4 treats)."""
    s = game("beg")
    play(s, "trick beg")
    assert s.players[0].treats == 5
    assert s.treat_supply == 14
    assert turn_passed(s)
    conserved(s)


def test_beg_without_paws_takes_one_treat():
    """Beg: no paws, 1 treat."""
    s = adjust(game("beg"), 0, dogs=["bongo", "eloise"])
    play(s, "trick beg")
    assert s.players[0].treats == 2
    conserved(s)


def test_beg_counts_paws_of_unscored_dogs_only():
    """5.3: your paws are those on your unscored dogs (Doog scored: 1 paw, Beg takes 2)."""
    s = adjust(game("beg"), 0, scored=["doog"])
    play(s, "trick beg")
    assert s.players[0].treats == 3
    conserved(s)


def test_chew_doubles_treats_then_takes_one():
    """Chew: double your treats, then take 1 (3 treats become 7)."""
    s = adjust(game("chew"), 0, treats=3)
    play(s, "trick chew")
    assert s.players[0].treats == 7
    assert turn_passed(s)
    conserved(s)


def test_chew_takes_what_the_supply_has():
    """Running out (5.7): too few treats, take what there is."""
    s = adjust(adjust(game("chew"), 1, treats=15), 0, treats=3)
    assert s.treat_supply == 2  # seat 0 would take 4
    play(s, "trick chew")
    assert s.players[0].treats == 5
    assert s.treat_supply == 0
    conserved(s)


def test_gobble_takes_seven_and_returns_the_highest_empty_space():
    """Gobble: take 7 treats, then return the number on your highest empty space."""
    s = adjust(game("gobble"), 0, filled={"wilbur": [6], "doog": [5, 6]})
    play(s, "trick gobble")
    assert s.players[0].treats == 1 + 7 - 3  # highest empty space: a 3
    conserved(s)


def test_gobble_returns_nothing_without_an_empty_space():
    """Gobble: no empty space, nothing is returned."""
    s = adjust(game("gobble"), 0, filled={"wilbur": [1, 3, 6], "doog": [2, 3, 5, 6]})
    assert "score" in s.legal_actions()
    play(s, "trick gobble")
    assert s.players[0].treats == 8
    conserved(s)


def test_gobble_never_returns_more_than_you_hold():
    """Fine point: Gobble never returns more treats than you hold (empty treat supply: take 0, return 1)."""
    s = game("gobble", treats=2)
    assert s.treat_supply == 0
    play(s, "trick gobble")
    assert s.players[0].treats == 0
    assert s.treat_supply == 1
    conserved(s)


# ----------------------------------------------------------------- Play Dead


def test_play_dead_pays_the_spots_of_a_die_buried_without_busting():
    """Play Dead: bury the die without busting, take as many treats as its spots."""
    s = game("play-dead")
    play(s, "trick play-dead", "roll 4", "bury 4")
    assert s.players[0].yard == [3, 4]
    assert s.players[0].treats == 5
    conserved(s)


def test_play_dead_pays_nothing_when_the_die_is_placed():
    """Play Dead: a placed die pays nothing."""
    s = game("play-dead")
    play(s, "trick play-dead", "roll 6", "place 6 wilbur")
    assert s.players[0].treats == 1
    conserved(s)


def test_play_dead_pays_nothing_on_a_bust():
    """Play Dead: a burial that busts pays nothing and ends the turn."""
    s = adjust(game("play-dead"), 0, yard=[6])
    play(s, "trick play-dead", "roll 2", "bury 2")
    assert s.players[0].yard == []
    assert s.players[0].treats == 1
    assert turn_passed(s)
    conserved(s)


# ----------------------------------------------------------------- Stay


def test_stay_takes_one_treat_per_face_down_tile_other_than_stay():
    """Stay: 1 treat for each face-down tile other than Stay itself."""
    s = game("beg", "chew", "stay", "walk")
    play(s, "trick beg")  # seat 0: 1 + 3 paws
    play(s, "trick chew")  # seat 1: 1 -> 3
    assert s.players[0].treats == 5
    play(s, "trick stay")  # seat 0: Beg and Chew are face down
    assert s.players[0].treats == 7
    conserved(s)


# ----------------------------------------------------------------- Fetch


def test_fetch_chooses_one_rolled_number_and_keeps_only_those_dice():
    """Fetch: roll 8, `choose v` for each face rolled; dice showing v are resolved, the rest return."""
    s = game("fetch")
    supply = s.dice_supply
    play(s, "trick fetch")
    assert s.pending_dice == 8
    play(s, "roll 1 1 2 3 3 3 5 6")
    same(s.legal_actions(), ["reroll", "choose 1", "choose 2", "choose 3", "choose 5", "choose 6"])
    play(s, "choose 3")
    assert s.dice_supply == supply - 3
    same(s.legal_actions(), ["place 3 wilbur", "place 3 doog", "bury 3"])
    play(s, "place 3 wilbur", "place 3 doog", "bury 3")
    assert s.players[0].yard == [3, 3]
    assert turn_passed(s)
    conserved(s)


def test_fetch_reroll_comes_before_the_choice():
    """Fetch: a treat rerolls all 8 dice before the choice."""
    s = game("fetch")
    play(s, "trick fetch", "roll 1 1 2 3 3 3 5 6", "reroll")
    assert s.pending_dice == 8 and s.players[0].treats == 0
    play(s, "roll 2 2 2 2 2 2 2 2")
    assert s.legal_actions() == ["choose 2"]
    conserved(s)


# ----------------------------------------------------------------- Guard


def test_guard_names_a_number_then_dice_above_it_return():
    """Guard: `choose v` for 1..6 before the roll; dice above v return, the rest are placed or buried."""
    s = game("guard")
    supply = s.dice_supply
    play(s, "trick guard")
    assert not s.is_chance_node()
    assert s.legal_actions() == [f"choose {v}" for v in range(1, 7)]
    play(s, "choose 3")
    assert s.pending_dice == 4
    play(s, "roll 1 3 4 6")
    assert s.dice_supply == supply - 2
    same(s.legal_actions(), ["reroll", "place 1 wilbur", "bury 1", "place 3 wilbur", "place 3 doog", "bury 3"])
    play(s, "place 1 wilbur", "place 3 doog")
    assert turn_passed(s)
    conserved(s)


def test_guard_every_die_above_with_a_treat_offers_reroll_or_stop():
    """Fine point: Guard with every die above the number, holding a treat: `reroll` or `stop`."""
    s = game("guard")
    supply = s.dice_supply
    play(s, "trick guard", "choose 1", "roll 2 3 4 6")
    same(s.legal_actions(), ["reroll", "stop"])
    play(s, "reroll")
    assert s.pending_dice == 4
    play(s, "roll 2 2 5 6")
    assert s.players[0].treats == 0
    assert turn_passed(s)  # no treat left: the dice returned at once
    assert s.dice_supply == supply
    conserved(s)


def test_guard_every_die_above_stop_accepts_the_loss():
    """Guard: `stop` accepts the loss; the dice return and the turn ends."""
    s = game("guard")
    supply = s.dice_supply
    play(s, "trick guard", "choose 1", "roll 2 3 4 6", "stop")
    assert turn_passed(s)
    assert s.dice_supply == supply
    assert s.players[0].treats == 1
    conserved(s)


def test_guard_every_die_above_without_a_treat_returns_at_once():
    """Fine point: Guard with every die above the number and no treat: the dice return at once."""
    s = adjust(game("guard"), 0, treats=0)
    supply = s.dice_supply
    play(s, "trick guard", "choose 2", "roll 3 4 5 6")
    assert turn_passed(s)
    assert s.dice_supply == supply
    conserved(s)


def test_guard_losing_every_die_is_still_checked_for_fast_and_risky():
    """Fine point: the fast-and-risky check follows every roll, once its dice are placed, buried or returned."""
    s = adjust(game("guard"), 0, filled={"wilbur": [1, 3, 6], "doog": [2, 3, 5, 6]})
    play(s, "trick guard", "choose 1", "roll 2 3 4 6", "stop")
    assert [d.scored for d in s.players[0].dogs] == [True, True, False]
    play(s, "reveal bongo", "reveal eloise")
    assert turn_passed(s)
    conserved(s)


def test_fetch_bust_returns_the_unresolved_dice():
    """4.1: a burial that busts ends the turn at once; the roll's unresolved dice go back to the supply."""
    s = adjust(game("fetch"), 0, yard=[3, 2])
    play(s, "trick fetch", "roll 1 1 2 3 4 4 4 6", "choose 4", "bury 4")
    assert turn_passed(s)
    assert s.players[0].yard == []
    assert s.dice_supply == s.rules.dice - 1  # only seat 1's buried die is out
    conserved(s)


# ----------------------------------------------------------------- Hunt


def test_hunt_rolls_two_plus_paws_and_picks_two():
    """Hunt: roll 2 + 1 per paw (5); `pick` each distinct pair; the other dice return."""
    s = game("hunt")
    supply = s.dice_supply
    play(s, "trick hunt")
    assert s.pending_dice == 5
    play(s, "roll 1 1 2 5 6")
    same(s.legal_actions(), [
        "reroll", "pick 1 1", "pick 1 2", "pick 1 5", "pick 1 6", "pick 2 5", "pick 2 6", "pick 5 6",
    ])
    play(s, "pick 1 6")
    assert s.dice_supply == supply - 2
    same(s.legal_actions(), ["place 1 wilbur", "bury 1", "place 6 wilbur", "place 6 doog", "bury 6"])
    play(s, "place 1 wilbur", "place 6 doog")
    assert turn_passed(s)
    conserved(s)


def test_hunt_without_paws_rolls_two_and_the_pick_is_still_asked():
    """Hunt: no paws, 2 dice; the only pick (both) is still asked."""
    s = adjust(game("hunt"), 0, dogs=["bongo", "eloise"], treats=0)
    play(s, "trick hunt")
    assert s.pending_dice == 2
    play(s, "roll 3 4")
    assert s.legal_actions() == ["pick 3 4"]
    conserved(s)


def test_hunt_of_exactly_three_dice_picks_two_of_them():
    """Hunt: 1 paw rolls 3 dice, the fewest from which 2 are chosen; the third returns to the supply."""
    s = adjust(game("hunt"), 0, dogs=["wilbur", "bongo"], treats=0)
    supply = s.dice_supply
    play(s, "trick hunt")
    assert s.pending_dice == 3
    play(s, "roll 2 4 4")
    same(s.legal_actions(), ["pick 2 4", "pick 4 4"])
    play(s, "pick 4 4")
    assert s.dice_supply == supply - 2
    conserved(s)


def test_hunt_with_fewer_than_two_dice_picks_all():
    """Hunt: fewer than 2 dice (short supply): the pick is all of them."""
    s = adjust(game("hunt"), 0, supply_dice=1, treats=0)
    play(s, "trick hunt")
    assert s.pending_dice == 1
    play(s, "roll 4")
    assert s.legal_actions() == ["pick 4"]
    play(s, "pick 4")
    same(s.legal_actions(), ["bury 4"])
    conserved(s)


# ----------------------------------------------------------------- Scavenge


def test_scavenge_discards_any_set_of_dice_below_the_yard_total():
    """Scavenge: `discard …` for each set of the dice below the yard total, the empty set (`discard`) included."""
    s = game("scavenge")  # yard total 3: a 3 is not lower
    supply = s.dice_supply
    play(s, "trick scavenge")
    assert s.pending_dice == 4
    play(s, "roll 1 2 3 5")
    same(s.legal_actions(), ["reroll", "discard", "discard 1", "discard 2", "discard 1 2"])
    play(s, "discard 1 2")
    assert s.dice_supply == supply - 2
    same(s.legal_actions(), ["place 3 wilbur", "place 3 doog", "bury 3", "place 5 doog", "bury 5"])
    play(s, "place 5 doog", "bury 3")
    assert s.players[0].yard == [3, 3]
    conserved(s)


def test_scavenge_discard_nothing_keeps_every_die():
    """Scavenge: the bare `discard` returns none of the dice."""
    s = game("scavenge")
    play(s, "trick scavenge", "roll 1 2 4 5", "discard")
    same(s.legal_actions(), [
        "place 1 wilbur", "bury 1", "place 2 doog", "bury 2", "bury 4", "place 5 doog", "bury 5",
    ])
    conserved(s)


def test_scavenge_is_skipped_when_no_die_is_below_the_yard_total():
    """Scavenge: no die below the yard total, no discard is asked."""
    s = adjust(game("scavenge"), 0, yard=[1], treats=0)
    play(s, "trick scavenge", "roll 1 2 4 5")
    assert not any(m.startswith("discard") for m in s.legal_actions())
    assert "place 1 wilbur" in s.legal_actions()
    conserved(s)


# ----------------------------------------------------------------- Search


def test_search_picks_a_set_adding_up_to_eight():
    """Search: roll 7; `pick …` for each distinct set adding up to 8; the rest return."""
    s = game("search")
    supply = s.dice_supply
    play(s, "trick search")
    assert s.pending_dice == 7
    play(s, "roll 1 1 2 3 5 6 6")
    same(s.legal_actions(), ["reroll", "pick 1 1 6", "pick 1 2 5", "pick 2 6", "pick 3 5"])
    play(s, "pick 3 5")
    assert s.dice_supply == supply - 2
    play(s, "place 3 wilbur", "place 5 doog")
    assert turn_passed(s)
    conserved(s)


def test_search_with_no_set_of_eight_and_a_treat_offers_reroll_or_stop():
    """Fine point: Search with no set of 8, holding a treat: `reroll` or `stop`."""
    s = game("search")
    supply = s.dice_supply
    play(s, "trick search", "roll 1 1 1 1 1 1 1")
    same(s.legal_actions(), ["reroll", "stop"])
    play(s, "stop")
    assert turn_passed(s)
    assert s.dice_supply == supply
    conserved(s)


def test_search_with_no_set_of_eight_and_no_treat_returns_all():
    """Search: no set of 8 and no treat: all dice return at once."""
    s = adjust(game("search"), 0, treats=0)
    supply = s.dice_supply
    play(s, "trick search", "roll 1 1 1 1 1 1 1")
    assert turn_passed(s)
    assert s.dice_supply == supply
    conserved(s)


# ----------------------------------------------------------------- Reset of the tiles (section 3)


def test_reset_puts_a_treat_on_the_last_tile_and_turns_all_face_up():
    """Section 3: one tile left face up gets 1 treat, all turn face up; taking that tile takes the treat."""
    s = game()  # Howl and Roll Over only
    play(s, "trick howl", "reveal bongo", "roll 6", "place 6 wilbur")
    assert s.legal_actions() == ["trick howl", "trick roll-over"]
    assert s.treat_supply == 17
    play(s, "trick roll-over")  # seat 1 takes the treat lying on Roll Over
    assert s.players[1].treats == 2
    conserved(s)


def test_reset_with_an_empty_treat_supply_puts_nothing_on_the_last_tile():
    """Fine point: a reset with an empty treat supply puts nothing on the last tile."""
    s = game(treats=2)
    play(s, "trick howl", "reveal bongo", "roll 6", "place 6 wilbur")
    assert s.legal_actions() == ["trick howl", "trick roll-over"]
    play(s, "trick roll-over")
    assert s.players[1].treats == 1
    conserved(s)
