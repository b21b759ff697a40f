"""Double Spot: scenario tests for every rule of rules/double-spot.md, deck checks, and
OpenSpiel-style random simulation (seeded games checked against invariants)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from spots.core import (
    CHANCE,
    TERMINAL,
    DeckError,
    GameState,
    IllegalMoveError,
    ReplayError,
    StateFormatError,
    play_game,
    replay,
)
from spots.games.double_spot import DoubleSpotRulesError, Game, Rules, State
from spots.games.double_spot.bots import GreedyBot, finishing_drops, make
from spots.games.double_spot.patterns import (
    FLIP,
    KIND,
    Card,
    canonical,
    connected,
    load_deck,
    mirror,
    normalise,
    on_board,
    parse_deck,
    rotations,
)
from spots.games.double_spot.state import render, seen_by
from support.double_spot import DECK, full_board_position, position

BY_ID = {c.id: c for c in DECK}


def put(state: State, col: int, colour: str) -> None:
    """Have the mover drop a disc into board column ``col`` (0-based, seat 0's view) showing ``colour`` to seat 0."""
    while state.is_chance_node() and not state.legal_actions()[0].startswith("roll"):
        state.apply_action(state.legal_actions()[0])
    seat = state.seat
    mine = seen_by(seat, colour)
    n = col + 1 if seat == 0 else state.rules.columns - col
    state.apply_action(f"roll {mine}")
    state.apply_action(f"drop {n} {mine}")
    while state.is_chance_node() and not state.is_terminal() and state.legal_actions()[0].startswith("reveal"):
        state.apply_action(state.legal_actions()[0])


def fresh(a: str = "p01", b: str = "p02", **options: object) -> State:
    state = Game(**options).new_initial_state()
    state.apply_action(f"reveal {a}")
    state.apply_action(f"reveal {b}")
    return state


def pattern_rows(cells: tuple, width: int = 8) -> list[str]:
    """Board rows (top first) holding ``cells`` at the bottom left, filler under any raised cell."""
    height = max(y for _, y, _ in cells) + 1
    grid = [["."] * width for _ in range(height)]
    at = {(x, y): c for x, y, c in cells}
    used = {c for *_, c in cells}
    filler = next(c for c in ("yellow", "pink", "green", "blue") if c not in used)
    for x in {x for x, _, _ in cells}:
        top = max(y for cx, y, _ in cells if cx == x)
        for y in range(top + 1):
            grid[height - 1 - y][x] = at.get((x, y), filler)[0].upper()
    return ["".join(r) for r in grid]


# ------------------------------------------------------------------ the deck


def test_deck_has_40_cards_meeting_the_constraints() -> None:
    assert len(DECK) == 40
    assert len({c.id for c in DECK}) == 40
    seen = set()
    for card in DECK:
        assert len(card.cells) == 3, card.id
        assert len({(x, y) for x, y, _ in card.cells}) == 3
        assert all(0 <= x <= 2 and 0 <= y <= 2 for x, y, _ in card.cells), card.id
        assert connected(card.cells), card.id
        assert {c for *_, c in card.cells} <= {"blue", "green", "pink", "yellow"}
        key = canonical(card.cells)
        assert key not in seen, f"{card.id} is a rotation of another card"
        seen.add(key)


def test_the_text_board_labels_every_column_under_its_discs() -> None:
    """``render`` (``spots replay``, logs): one label per column, under it, from the viewer's own left."""
    state = position(["......Y.", "B.....GP"], ["p01", "p02"])
    assert render(state, 0).splitlines()[3:6] == [". . . . . . Y .", "B . . . . . G P", "1 2 3 4 5 6 7 8"]
    assert render(state, 1).splitlines()[3:6] == [". P . . . . . .", "Y B . . . . . G", "1 2 3 4 5 6 7 8"]
    wide = position(["B"], ["p01", "p02"], rules=Rules(columns=12, rows=3, discs=18))
    # One character a column keeps each label under its disc: the last digit of the column's number.
    assert render(wide).splitlines()[2:4] == ["B" + " ." * 11, "1 2 3 4 5 6 7 8 9 0 1 2"]


GOOD_CARD = {"id": "ok", "rows": ["BGP"]}


def test_deck_file_rejects_broken_cards() -> None:
    with pytest.raises(DoubleSpotRulesError, match="rotation"):
        parse_deck({"cards": [{"id": "a", "rows": ["BGP"]}, {"id": "b", "rows": ["P", "G", "B"]}]})
    with pytest.raises(DoubleSpotRulesError, match="card a: every cell must touch"):
        parse_deck({"cards": [GOOD_CARD, {"id": "a", "rows": ["B.G", "...", "P.."]}]})
    with pytest.raises(DoubleSpotRulesError, match="card a: a pattern has exactly 3 distinct cells, not 2"):
        parse_deck({"cards": [GOOD_CARD, {"id": "a", "rows": ["BG"]}]})
    with pytest.raises(DoubleSpotRulesError, match="card a: the pattern must fit in a 3×3 box"):
        parse_deck({"cards": [GOOD_CARD, {"id": "a", "rows": ["B..", "...", "...", "GP."]}]})


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        pytest.param(None, "expected an object with a list of cards", id="null"),
        pytest.param([GOOD_CARD, GOOD_CARD], "expected an object with a list of cards", id="a-bare-list"),
        pytest.param("cards", "expected an object with a list of cards", id="text"),
        pytest.param({}, "expected an object with a list of cards", id="no-cards"),
        pytest.param({"cards": None}, "expected an object with a list of cards", id="cards-null"),
        pytest.param({"cards": {"a": GOOD_CARD}}, "expected an object with a list of cards", id="cards-object"),
        pytest.param({"cards": []}, "at least 2 cards", id="empty"),
        pytest.param({"cards": [GOOD_CARD]}, "at least 2 cards", id="one-card"),
        pytest.param({"cards": [GOOD_CARD, 5]}, "card 2: expected an object with an 'id'", id="a-number"),
        pytest.param({"cards": [GOOD_CARD, {"rows": ["BBB"]}]}, "card 2: expected an object", id="no-id"),
        pytest.param({"cards": [GOOD_CARD, {"id": 7, "rows": ["BBB"]}]}, "card 2: expected an object", id="id-number"),
        pytest.param({"cards": [GOOD_CARD, {"id": "b"}]}, "card 2: expected an object", id="no-rows"),
        pytest.param({"cards": [GOOD_CARD, {"id": "b", "rows": "BBB"}]}, "card 2: expected an object", id="rows-text"),
        pytest.param({"cards": [GOOD_CARD, {"id": "b", "rows": [5]}]}, "card b: each row is text such as 'BG.'",
                     id="row-number"),
        pytest.param({"cards": [GOOD_CARD, {"id": "b", "rows": ["BB", None]}]}, "card b: each row is text",
                     id="row-null"),
        pytest.param({"cards": [GOOD_CARD, {"id": "b", "rows": ["bbb"]}]}, "card b: unknown colour letter 'b'",
                     id="lower-case"),
        pytest.param({"cards": [GOOD_CARD, {"id": "b", "rows": ["..."]}]}, "card b: no cells", id="blank"),
        pytest.param({"cards": [GOOD_CARD, {"id": "ok", "rows": ["BBB"]}]}, "unique single words, not 'ok'",
                     id="same-id"),
        pytest.param({"cards": [GOOD_CARD, {"id": "b c", "rows": ["BBB"]}]}, "unique single words", id="spaced-id"),
    ],
)
def test_a_malformed_deck_document_says_what_is_wrong(doc: object, words: str) -> None:
    with pytest.raises(DeckError) as info:
        parse_deck(doc, "my-deck.json")
    assert str(info.value).startswith("my-deck.json: ")
    assert words in str(info.value)


def test_a_deck_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text('{"cards": [')
    with pytest.raises(DeckError, match="cannot read deck"):
        load_deck(path)
    path.write_text(json.dumps({"cards": [GOOD_CARD, {"id": "b", "rows": ["BB", "G."]}]}))
    assert [card.id for card in load_deck(path)] == ["ok", "b"]


@pytest.mark.parametrize("card", DECK, ids=lambda c: c.id)
def test_every_card_can_be_completed_on_an_empty_board(card: Card) -> None:
    other = next(c.id for c in DECK if c.id != card.id)
    state = fresh(card.id, other)
    cells = card.turns[0]
    used = {c for *_, c in cells}
    filler = next(c for c in ("yellow", "pink", "green", "blue") if c not in used)
    at = {(x, y): c for x, y, c in cells}
    for x in sorted({x for x, _, _ in cells}):
        for y in range(max(y for cx, y, _ in cells if cx == x) + 1):
            put(state, x, at.get((x, y), filler))
    assert card.id in state.won[0] + state.won[1]


# ------------------------------------------------------------------ two sides of one board


def test_seat_one_sees_the_board_mirrored_with_colours_flipped() -> None:
    state = fresh()
    put(state, 0, "blue")  # seat 0 drops at its far left
    assert state.view(0)[0] == ["blue"]
    assert state.view(1)[7] == ["green"]
    state.apply_action("roll pink")
    state.apply_action("drop 1 pink")  # seat 1's column 1 is seat 0's column 8
    assert state.board[7] == ["yellow"]
    assert state.view(1)[0] == ["pink"]
    assert state.view(1) == [[FLIP[c] for c in col] for col in state.board[::-1]]


def test_card_backs_are_mirrored_and_flipped() -> None:
    card = BY_ID["p01"]
    back = mirror(card.cells)
    assert card.rows(1) == Card.make("x", back).rows(0)
    assert mirror(back) == normalise(card.cells)


def test_a_pattern_complete_from_one_side_is_complete_from_the_other() -> None:
    rng = random.Random(4)
    hits = 0
    for _ in range(60):
        state = Game().new_initial_state()
        while not state.is_terminal() and rng.random() < 0.97:
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        front, back = state.view(0), state.view(1)
        for card in DECK:
            there = on_board(front, card)
            assert there == on_board(back, Card.make(card.id, mirror(card.cells)))
            hits += there
    assert hits > 0


def test_moves_are_written_from_the_movers_side() -> None:
    state = fresh()
    state.apply_action("roll blue-green")
    assert state.legal_actions()[:2] == ["drop 1 blue", "drop 1 green"]
    state.apply_action("drop 2 blue")
    assert state.board[1] == ["blue"]
    state.apply_action("roll blue")
    state.apply_action("drop 2 blue")  # seat 1's blue is seat 0's green, in seat 0's column 7
    assert state.board[6] == ["green"]
    assert state.history()[-1] == "drop 2 blue"


# ------------------------------------------------------------------ a turn


def test_setup_reveals_two_cards_then_seat_zero_rolls() -> None:
    state = Game().new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes(exact=True)
    assert len(outcomes) == 40 and sum(p for _, p in outcomes) == 1
    state.apply_action("reveal p05")
    state.apply_action("reveal p09")
    assert state.holders == ["p05", "p09"]
    assert state.chance_outcomes(exact=True) == [
        (f"roll {f}", Fraction(1, 6)) for f in ("blue", "green", "pink", "yellow", "blue-green", "pink-yellow")
    ]
    state.apply_action("roll yellow")
    assert state.current_player() == 0
    assert state.legal_actions() == [f"drop {n} yellow" for n in range(1, 9)]


def test_split_faces_let_the_mover_choose_the_face() -> None:
    state = fresh()
    state.apply_action("roll pink-yellow")
    assert len(state.legal_actions()) == 16
    assert {m.split()[2] for m in state.legal_actions()} == {"pink", "yellow"}


def test_full_columns_are_not_legal() -> None:
    state = position(["B.......", "G.......", "B.......", "G.......", "B......."], ["p01", "p02"], die="blue")
    assert "drop 1 blue" not in state.legal_actions()
    assert len(state.legal_actions()) == 7


def test_exhausted_kind_means_rolling_again() -> None:
    rules = Rules(columns=4, rows=3, discs=6)
    state = position(["....", "BG..", "BGBG"], ["p01", "p02"], rules=rules)
    assert state.supply == {"blue-green": 0, "pink-yellow": 6}
    assert state.chance_outcomes(exact=True) == [
        ("roll pink", Fraction(1, 3)), ("roll yellow", Fraction(1, 3)), ("roll pink-yellow", Fraction(1, 3))
    ]
    with pytest.raises(IllegalMoveError):
        state.apply_action("roll blue")


def test_completing_a_card_takes_it_and_reveals_a_replacement() -> None:
    card = BY_ID["p01"]
    cells = card.turns[0]
    last = max(cells, key=lambda c: (c[1], c[0]))
    rows = pattern_rows(tuple(c for c in cells if c != last))
    state = position(rows, ["p01", "p02"], die=last[2])
    assert not on_board(state.board, card)
    state.apply_action(f"drop {last[0] + 1} {last[2]}")
    assert state.won[0] == ["p01"] and state.holders == [None, "p02"]
    assert state.current_player() == CHANCE and state.legal_actions()[0].startswith("reveal")
    state.apply_action("reveal p10")
    assert state.holders == ["p10", "p02"]
    assert state.current_player() in (1, CHANCE)


def test_matches_count_in_all_four_rotations_but_not_the_mirror_image() -> None:
    card = next(c for c in DECK if len(c.turns) == 4 and canonical(mirror_shape(c.cells)) != canonical(c.cells))
    for shape in card.turns:
        state = position(pattern_rows(shape), [None, None], deck=[])
        assert on_board(state.board, card)
    state = position(pattern_rows(mirror_shape(card.cells)), [None, None], deck=[])
    assert not on_board(state.board, card)


def mirror_shape(cells: tuple) -> tuple:
    """Left-right mirror with the colours kept (what turning the card over would show without the flip)."""
    width = max(x for x, _, _ in cells)
    return normalise((width - x, y, c) for x, y, c in cells)


def test_rotations_of_a_symmetric_card_collapse() -> None:
    line = normalise([(0, 0, "blue"), (1, 0, "green"), (2, 0, "blue")])
    assert len(rotations(line)) == 2


def find_double() -> tuple[State, str]:
    """A position (from seeded random play) where one drop completes both face-up cards."""
    for seed in range(3000):
        rng = random.Random(seed)
        state = Game().new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            for move in state.legal_actions():
                after = state.clone()
                after.apply_action(move)
                if len(after.won[state.seat]) - len(state.won[state.seat]) == 2:
                    return state, move
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no double completion found")


def test_both_cards_at_once_are_taken_and_both_replaced() -> None:
    state, move = find_double()
    seat, before = state.seat, list(state.won[state.seat])
    cards = list(state.holders)
    state.apply_action(move)
    if state.is_terminal():
        assert state.winner == seat
        return
    assert state.won[seat][len(before):len(before) + 2] == cards
    assert state.holders == [None, None] and state.refill == [0, 1]
    quiet = next(m for m in state.legal_actions() if not on_board(state.board, BY_ID[m.split()[1]]))
    state.apply_action(quiet)
    assert state.holders[0] == quiet.split()[1] and state.holders[1] is None
    assert state.legal_actions()[0].startswith("reveal")  # holder 2 next, still the same turn


def test_a_replacement_already_on_the_board_is_taken_at_once_by_the_mover() -> None:
    target = BY_ID["p01"]
    already = next(c for c in DECK if c.id not in ("p01", "p02") and not on_board(
        position(pattern_rows(c.turns[0]), [None, None], deck=[]).board, target))
    cells = target.turns[0]
    last = max(cells, key=lambda c: (c[1], c[0]))
    rows = pattern_rows(tuple(c for c in cells if c != last))
    # put the other card's pattern on the right-hand side of the board
    right = pattern_rows(already.turns[0], width=4)
    height = max(len(rows), len(right))
    rows = ["." * 8] * (height - len(rows)) + rows
    right = ["." * 4] * (height - len(right)) + right
    rows = [a[:4] + b for a, b in zip(rows, right, strict=True)]
    state = position(rows, ["p01", "p02"], seat=1, die=seen_by(1, last[2]))
    assert on_board(state.board, already) and not on_board(state.board, target)
    state.apply_action(f"drop {8 - last[0]} {seen_by(1, last[2])}")
    assert state.won[1][-1:] == ["p01"]
    state.apply_action(f"reveal {already.id}")
    assert state.won[1][-2:] == ["p01", already.id]
    assert state.holders[0] is None and state.current_player() == CHANCE
    assert state.legal_actions()[0].startswith("reveal")


def test_first_claim_option_makes_the_claim_a_chance_event() -> None:
    rules = Rules(claim="first")
    state = position(pattern_rows(BY_ID["p03"].turns[0]), [None, "p02"], rules=rules)
    state.refill = [0]
    state._advance()  # the state as a drop would leave it: holder 1 empty
    state.apply_action("reveal p03")
    assert state.current_player() == CHANCE
    assert state.chance_outcomes(exact=True) == [("claim 0", Fraction(1, 2)), ("claim 1", Fraction(1, 2))]
    state.apply_action("claim 1")
    assert "p03" in state.won[1]


def test_empty_deck_leaves_the_holder_empty_and_play_goes_on() -> None:
    card = BY_ID["p01"]
    cells = card.turns[0]
    last = max(cells, key=lambda c: (c[1], c[0]))
    state = position(pattern_rows(tuple(c for c in cells if c != last)), ["p01", "p02"], die=last[2], deck=[])
    state.apply_action(f"drop {last[0] + 1} {last[2]}")
    assert state.holders == [None, "p02"]
    assert state.current_player() == CHANCE and state.legal_actions()[0].startswith("roll")


# ------------------------------------------------------------------ the end


def test_reaching_the_target_wins_at_once() -> None:
    card = BY_ID["p01"]
    cells = card.turns[0]
    last = max(cells, key=lambda c: (c[1], c[0]))
    won = ([c.id for c in DECK[10:14]], [])
    state = position(pattern_rows(tuple(c for c in cells if c != last)), ["p01", "p02"], die=last[2], won=won)
    state.apply_action(f"drop {last[0] + 1} {last[2]}")
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.winner == 0 and state.end_reason == "target" and state.returns() == [1.0, 0.0]
    assert state.legal_actions() == []


def test_cards_to_win_is_an_option() -> None:
    card = BY_ID["p01"]
    cells = card.turns[0]
    last = max(cells, key=lambda c: (c[1], c[0]))
    state = position(pattern_rows(tuple(c for c in cells if c != last)), ["p01", "p02"], die=last[2],
                     rules=Rules(target=1))
    state.apply_action(f"drop {last[0] + 1} {last[2]}")
    assert state.is_terminal() and state.winner == 0


def test_a_full_board_with_equal_cards_is_a_draw() -> None:
    state, move = full_board_position(([DECK[30].id], [DECK[31].id]))
    state.apply_action(move)
    assert state.is_terminal() and state.end_reason == "full-board"
    assert state.winner is None and state.returns() == [0.5, 0.5]


def test_a_full_board_goes_to_the_player_with_more_cards() -> None:
    state, move = full_board_position(([DECK[30].id], [DECK[31].id, DECK[32].id]))
    state.apply_action(move)
    assert state.is_terminal() and state.winner == 1 and state.returns() == [0.0, 1.0]


# ------------------------------------------------------------------ options, errors, records


@pytest.mark.parametrize(
    "options", [{"columns": 2}, {"rows": "5"}, {"target": 0}, {"claim": "loudest"}, {"discs": 10}, {"columns": True}]
)
def test_bad_options_raise_a_clear_error(options: dict) -> None:
    with pytest.raises(DoubleSpotRulesError) as info:
        Rules(**options)
    assert isinstance(info.value, ValueError)
    assert next(iter(options)) in str(info.value)


def test_rules_round_trip_and_unknown_options() -> None:
    rules = Rules(columns=6, rows=4, target=3, claim="first")
    assert Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(DoubleSpotRulesError, match="unknown"):
        Rules.from_dict({"colour": 3})


@pytest.mark.parametrize(
    ("move", "player"),
    [("drop 9 blue", None), ("drop 1 green", None), ("roll pink", None), ("jump", None), ("drop 1 blue", 1),
     ("", None)],
)
def test_bad_moves_raise_and_change_nothing(move: str, player: int | None) -> None:
    state = fresh()
    state.apply_action("roll blue")
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as info:
        state.apply_action(move, player=player)
    assert isinstance(info.value, ValueError)
    assert repr(move) in str(info.value) and "drop 1 blue" in str(info.value)
    assert state.to_json() == before
    state.apply_action("  DROP 1   Blue ")  # notation is case and space tolerant
    assert state.history()[-1] == "drop 1 blue"


def test_chance_moves_are_checked_too() -> None:
    state = fresh()
    before = state.to_json()
    for bad in ("reveal p01", "reveal zz", "drop 1 blue", "roll purple"):
        with pytest.raises(IllegalMoveError):
            state.apply_action(bad)
    assert state.to_json() == before


def test_json_round_trip_and_corrupt_documents() -> None:
    state = fresh()
    put(state, 3, "pink")
    state.apply_action("roll green")
    copy = State.from_json(state.to_json())
    assert copy == state and copy.key() == state.key() and copy.legal_actions() == state.legal_actions()
    doc = json.loads(state.to_json())
    for field, value in [("board", [["red"]] * 8), ("holders", ["p01", "p01"]), ("phase", "dance"), ("rules", 3)]:
        bad = dict(doc, **{field: value})
        with pytest.raises(StateFormatError):
            State.from_dict(bad)
    with pytest.raises(StateFormatError):
        State.from_json("{")


def test_replay_and_replay_errors() -> None:
    rng = random.Random(9)
    state = play_game(Game().new_initial_state(), [make("random", 1), make("random", 2)], rng)
    again = replay(State, state.history())
    assert again == state
    bad = [*state.history()[:5], "drop 42 blue"]
    with pytest.raises(ReplayError) as info:
        replay(State, bad)
    assert info.value.index == 5 and "drop 42 blue" in str(info.value)


def test_seeded_games_are_deterministic() -> None:
    def run(seed: int) -> list[str]:
        bots = [make("greedy", seed), make("random", seed + 1)]
        return play_game(State(), bots, random.Random(seed)).history()

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_states_follow_the_shared_protocol() -> None:
    import spots

    assert isinstance(State(), GameState)
    assert isinstance(spots.Game().new_initial_state(), GameState)


# ------------------------------------------------------------------ bots


def test_greedy_completes_a_pattern_when_it_can() -> None:
    card = BY_ID["p01"]
    cells = card.turns[0]
    last = max(cells, key=lambda c: (c[1], c[0]))
    state = position(pattern_rows(tuple(c for c in cells if c != last)), ["p01", "p02"], die=last[2])
    move = GreedyBot(0).choose(state)
    state.apply_action(move)
    assert state.won[0] == ["p01"]


def test_greedy_avoids_handing_over_a_one_disc_finish() -> None:
    rng = random.Random(1)
    checked = 0
    for _ in range(300):
        state = Game().new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            safe = []
            for move in state.legal_actions():
                after = state.clone()
                after.apply_action(move)
                rolls = after.is_chance_node() and after.legal_actions()[0].startswith("roll")
                if rolls and not finishing_drops(after):
                    safe.append(move)
            if safe and not finishing_drops(state):
                after = state.clone()
                after.apply_action(GreedyBot(rng.randrange(99)).choose(state))
                assert not finishing_drops(after) or after.scores() != state.scores()
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
        if checked > 100:
            break
    assert checked > 100


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
def test_bots_play_legal_moves(name: str) -> None:
    budget = {"iterations": 20} if name == "mcts" else {}
    bots = [make(name, 1, **budget), make("random", 2)]
    state = play_game(Game(columns=5, rows=4).new_initial_state(), bots, random.Random(0))
    assert state.is_terminal()
    with pytest.raises(ValueError, match="unknown bot"):
        make("oracle")


# ------------------------------------------------------------------ random simulation


def variant(seed: int) -> Rules:
    rng = random.Random(seed)
    columns, rows = rng.choice([(8, 5), (8, 5), (3, 3), (5, 4), (10, 6)])
    return Rules(columns=columns, rows=rows, target=rng.choice([5, 5, 1, 3, 40]), claim=rng.choice(["mover", "first"]),
                 lifts=rng.choice([3, 3, 0, 1]))


def check_invariants(state: State) -> None:
    rules = state.rules
    for kind in ("blue-green", "pink-yellow"):
        on = sum(KIND[c] == kind for col in state.board for c in col)
        assert state.supply[kind] + on == rules.discs
    assert all(len(col) <= rules.rows for col in state.board)
    cards = [h for h in state.holders if h is not None] + state.deck + state.won[0] + state.won[1]
    assert sorted(cards) == sorted(BY_ID)
    if state.is_chance_node():
        outcomes = state.chance_outcomes(exact=True)
        assert outcomes and sum(p for _, p in outcomes) == 1
        assert [m for m, _ in outcomes] == state.legal_actions()
    elif not state.is_terminal():
        assert state.legal_actions()
        for card in state.showing():  # nothing on the board is left unclaimed at a decision
            assert card is None or not on_board(state.board, card)
    else:
        if state.end_reason == "target":
            assert len(state.won[state.winner]) >= rules.target
        else:
            assert state.full()
            a, b = state.scores()
            assert state.winner == (None if a == b else int(b > a))


def test_random_simulation() -> None:
    ends = {"target": 0, "full-board": 0, "draw": 0}
    for seed in range(1000):
        rng = random.Random(seed)
        state = Game(variant(seed)).new_initial_state()
        start = state.clone()
        steps = 0
        while not state.is_terminal():
            check_invariants(state)
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()), player=state.current_player())
            steps += 1
            assert steps < 2000  # four frames of 10×6 at most, about three steps a disc
        check_invariants(state)
        ends[state.end_reason] += 1
        ends["draw"] += state.winner is None
        assert sum(state.returns()) == 1
        if seed % 25 == 0:
            assert State.from_json(state.to_json()) == state
            assert replay(lambda s=start: s.clone(), state.history()) == state
            mid = replay(lambda s=start: s.clone(), state.history()[: len(state.history()) // 2])
            assert State.from_json(mid.to_json()).key() == mid.key()
    assert all(ends.values()), ends
